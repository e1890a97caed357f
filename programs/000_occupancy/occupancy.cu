// Seed 000, "Partage des ressources d'un SM": the threads of the blocks resident on an SM
// share its registers, shared memory and warp slots, so the block size and the shared
// memory a block asks for decide how many warps an SM holds at once (occupancy), and
// so how well it hides the latency of its loads.
//
// One memory-bound kernel, y = a * x + y on 4M floats (48 MiB moved), launched
//   1. with blocks of 32, 64, 128, 256, 512 and 1024 threads (n / block blocks);
//   2. with 256 threads and 0 to 96 KiB of dynamic shared memory it does not even use:
//      asking for it is enough to keep other blocks off the SM.
// For each it prints what cudaOccupancyMaxActiveBlocksPerMultiprocessor answers (blocks
// per SM, so the theoretical occupancy) and the time the events measure.
#include <cstdio>
#include <cstdlib>

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    extern __shared__ float unused[];   // its size is the launch's third parameter
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 4 << 20;
    const float a = 2.0f;
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i % 100);
        hy[i] = 1.0f;
    }
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int warps_per_sm = prop.maxThreadsPerMultiProcessor / 32;
    printf("%s: %d SMs, %d warps, %zu KiB of shared memory and %d registers per SM\n", prop.name,
           prop.multiProcessorCount, warps_per_sm, prop.sharedMemPerMultiprocessor >> 10, prop.regsPerMultiprocessor);
    // above 48 KiB a kernel must ask for it
    cudaFuncSetAttribute(saxpy, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 << 10);
    bool ok = true;

    const int blocks[] = {32, 64, 128, 256, 512, 1024, 256, 256, 256, 256, 256};
    const int shared_kib[] = {0, 0, 0, 0, 0, 0, 16, 32, 48, 64, 96};
    printf("%6s %10s %14s %11s %10s %8s\n", "block", "shared KiB", "blocks per SM", "occupancy", "time us", "GB/s");
    for (int k = 0; k < 11; k++) {
        int bs = blocks[k];
        size_t shared = (size_t)shared_kib[k] << 10;
        if (k == 6)
            printf("-- the same with 256 threads and dynamic shared memory\n");
        int per_sm = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, saxpy, bs, shared);
        cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
        cudaEventRecord(start);
        saxpy<<<(n + bs - 1) / bs, bs, shared>>>(n, a, x, y);
        cudaError_t launched = cudaGetLastError();   // a block that needs more than an SM has is refused
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        double us = ms * 1000.0;
        if (launched != cudaSuccess) {
            printf("%6d %10d %14d %11s   not launched: %s\n", bs, shared_kib[k], per_sm, "0.0%",
                   cudaGetErrorString(launched));
            continue;
        }
        printf("%6d %10d %14d %10.1f%% %10.2f %8.0f\n", bs, shared_kib[k], per_sm,
               100.0 * per_sm * (bs / 32) / warps_per_sm, us, 3.0 * n * sizeof(float) / us / 1000.0);
        float *out = (float *)malloc(n * sizeof(float));
        cudaMemcpy(out, y, n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; i++)
            if (out[i] != a * hx[i] + hy[i]) {
                printf("y[%d] = %g, the CPU says %g\n", i, out[i], a * hx[i] + hy[i]);
                ok = false;
                break;
            }
        free(out);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        ok = false;
    }
    cudaFree(x);
    cudaFree(y);
    free(hx);
    free(hy);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
