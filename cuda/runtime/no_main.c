/* The main() a .cu file without one gets (the linker takes it from the
 * library only when the program defines none): say how to run its kernels. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    const char *cu = getenv("WARPSIM_CU_PATH");
    fprintf(stderr, "warpsim: %s has no main(): to run one of its kernels, describe the launch as for a .ptx file "
                    "(--kernel NAME --grid X --block X --buf ... --arg ...)\n", cu && *cu ? cu : "the program");
    return 2;
}
