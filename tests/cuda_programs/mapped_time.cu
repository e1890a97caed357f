// A kernel on mapped (pinned) host memory: its reads and writes cross the host link
// (sim/timing.c), so its predicted duration is the bytes over the preset's mapped_gbps plus
// the launch overhead (tests/cuda_programs.sh works it out from `warpsim arch show`);
// the same kernel on device memory reads DRAM and takes a few microseconds.
#include <cstdio>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2.0f * x[i] + 1.0f;
}

int main()
{
    const int n = 1 << 20;   // 4 MiB read and 4 MiB written
    float *h, *d, *dev;
    cudaHostAlloc((void **)&h, n * sizeof(float), cudaHostAllocMapped);
    cudaHostGetDevicePointer((void **)&d, h, 0);
    cudaMalloc(&dev, n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 100);
    scale<<<n / 256, 256>>>(d, n);     // mapped host memory
    scale<<<n / 256, 256>>>(dev, n);   // device memory
    cudaDeviceSynchronize();
    printf("h[99] = %g\n", h[99]);
    cudaFree(dev);
    cudaFreeHost(h);
    return 0;
}
