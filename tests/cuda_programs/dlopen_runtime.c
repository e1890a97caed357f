/* Opens a shared library that holds warpsim's CUDA runtime (argv[1]) after main has started, as a plugin
 * would, and calls it. tests/cuda_programs.sh runs it with window_squatter.c preloaded: the runtime's
 * constructor, run by dlopen, finds the simulator's windows taken and must warn, not start the process
 * again (that would run main's work twice). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    static const char started[] = "main: started\n";
    if (write(1, started, sizeof started - 1) < 0 || argc < 2)   /* unbuffered: a new start would repeat it */
        return 2;
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    int (*count)(int *) = (int (*)(int *))dlsym(lib, "cudaGetDeviceCount");
    int n = -1, status = count ? count(&n) : -1;
    printf("runtime opened: cudaGetDeviceCount returned %d, %d device(s)\n", status, n);
    return status != 0;
}
