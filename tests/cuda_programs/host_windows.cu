// Host memory is never where device pointers are. tests/cuda_programs.sh runs this with
// window_squatter.c preloaded, which makes the program's large allocations land in the simulator's
// global window (as a randomised layout does about 1 run in 170) unless the runtime starts the
// program again unrandomised before main. Then pinned memory is adopted, a pageable buffer is a
// host pointer to cudaMemcpy, and the program's own children are randomised again. Device
// pointers stay in the span reserved for them however many buffers come and go (by hand: 23 buffers
// of 256 MiB and 256 bytes of gap fit after the first 4 MiB in 6 GiB; the other 17 take the first's
// range again, the lowest gap).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <sys/personality.h>

__global__ void twice(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

int main()
{
    const int n = 1 << 20;   // 4 MiB: malloc maps it
    float *pageable = (float *)malloc(n * sizeof(float)), *pinned = nullptr, *dev = nullptr;
    for (int i = 0; i < n; i++)
        pageable[i] = (float)(i % 100);
    cudaError_t host = cudaMallocHost((void **)&pinned, n * sizeof(float));
    cudaError_t device = cudaMalloc((void **)&dev, n * sizeof(float));
    cudaError_t in = cudaMemcpy(dev, pageable, n * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<n / 256, 256>>>(dev, n);
    cudaError_t out = host == cudaSuccess ? cudaMemcpy(pinned, dev, n * sizeof(float), cudaMemcpyDeviceToHost)
                                          : cudaErrorInvalidValue;
    int wrong = 0;
    for (int i = 0; out == cudaSuccess && i < n; i++)
        wrong += pinned[i] != 2.0f * (float)(i % 100);
    printf("cudaMallocHost: %s\ncudaMalloc: %s\ncopy in: %s\ncopy out: %s\nwrong: %d\n", cudaGetErrorString(host),
           cudaGetErrorString(device), cudaGetErrorString(in), cudaGetErrorString(out), wrong);
    printf("randomised: %s\n", personality(0xffffffff) & ADDR_NO_RANDOMIZE ? "no" : "yes");
    // device pointers stay in the span reserved before main (--mem-limit 1G: 0x7f0000000000 and 6 GiB on),
    // however many buffers come and go: past it freed ranges are used again
    unsigned long long highest = 0, reused = 0, first = 0;
    for (int i = 0; i < 40; i++) {
        void *p = nullptr;
        if (cudaMalloc(&p, 256 << 20) != cudaSuccess)
            break;
        unsigned long long at = (unsigned long long)(uintptr_t)p;
        highest = at > highest ? at : highest;
        reused += i > 0 && at == first;
        first = i == 0 ? at : first;
        cudaFree(p);
    }
    printf("40 buffers of 256 MiB in turn: %s the span, the first's range used again %llu time(s)\n",
           highest + (256 << 20) <= 0x7f0180000000ull ? "inside" : "outside", reused);
    cudaFreeHost(pinned);
    cudaFree(dev);
    free(pageable);
    return wrong || out != cudaSuccess;
}
