// A failed assert() in a kernel: the GPU prints the condition, the kernel
// stops and the next synchronising call returns cudaErrorAssert.
#include <cassert>
#include <cstdio>

__global__ void check_small(const int *v)
{
    assert(v[threadIdx.x] < 5);   // fails in thread 4 first (line 8)
}

int main()
{
    int h[8] = {1, 2, 3, 4, 5, 6, 7, 8}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check_small<<<1, 8>>>(d);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
