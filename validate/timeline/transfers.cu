// validate/timeline/transfers.cu: what the simulated timeline (sim/timeline.c) models, measured
// with events the way a CUDA program measures it. The same source runs on the card (nvcc -O3)
// and in warpsim (warpsim run transfers.cu); validate/timeline/compare sets the two outputs
// side by side. Each figure is the mean over REPS repetitions, in microseconds, one
// "name value" line each.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define REPS 5

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

__global__ void empty_kernel() {}

static cudaEvent_t start, stop;

static double elapsed_us()
{
    float ms = 0;
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    return ms * 1000.0;
}

// One copy between two events on the legacy stream, REPS times.
static void copy(const char *name, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, int async)
{
    double sum = 0;
    for (int r = 0; r < REPS; r++) {
        cudaDeviceSynchronize();
        cudaEventRecord(start, 0);
        if (async)
            cudaMemcpyAsync(dst, src, bytes, kind, 0);
        else
            cudaMemcpy(dst, src, bytes, kind);
        cudaEventRecord(stop, 0);
        sum += elapsed_us();
    }
    printf("%s %.2f\n", name, sum / REPS);
}

int main()
{
    const size_t big = 64u << 20, mid = 16u << 20;
    const int n = (int)(mid / sizeof(float));
    char *pinned, *pageable = (char *)malloc(big), *dev;
    cudaMallocHost((void **)&pinned, big);
    cudaMalloc((void **)&dev, big);
    memset(pageable, 1, big);
    memset(pinned, 1, big);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    empty_kernel<<<1, 32>>>();   // the context and module are ready before anything is timed
    cudaDeviceSynchronize();

    // bandwidth: 64 MiB each way, pinned and pageable
    copy("h2d_pinned_64MiB", dev, pinned, big, cudaMemcpyHostToDevice, 1);
    copy("d2h_pinned_64MiB", pinned, dev, big, cudaMemcpyDeviceToHost, 1);
    copy("h2d_pageable_64MiB", dev, pageable, big, cudaMemcpyHostToDevice, 0);
    copy("d2h_pageable_64MiB", pageable, dev, big, cudaMemcpyDeviceToHost, 0);
    // latency: 4 bytes
    copy("h2d_pinned_4B", dev, pinned, 4, cudaMemcpyHostToDevice, 1);
    copy("d2h_pinned_4B", pinned, dev, 4, cudaMemcpyDeviceToHost, 1);
    copy("h2d_pageable_4B", dev, pageable, 4, cudaMemcpyHostToDevice, 0);
    copy("d2h_pageable_4B", pageable, dev, 4, cudaMemcpyDeviceToHost, 0);

    // launches back to back: the GPU time per empty kernel when the host issues faster than the GPU runs
    double sum = 0;
    for (int r = 0; r < REPS; r++) {
        cudaDeviceSynchronize();
        cudaEventRecord(start, 0);
        for (int k = 0; k < 100; k++)
            empty_kernel<<<1, 32>>>();
        cudaEventRecord(stop, 0);
        sum += elapsed_us() / 100;
    }
    printf("empty_kernel_back_to_back %.2f\n", sum / REPS);

    // one kernel on 16M floats, timed by events
    sum = 0;
    for (int r = 0; r < REPS; r++) {
        cudaDeviceSynchronize();
        cudaEventRecord(start, 0);
        scale<<<n / 256, 256>>>((float *)dev, n);
        cudaEventRecord(stop, 0);
        sum += elapsed_us();
    }
    printf("scale_16M_kernel %.2f\n", sum / REPS);

    // copy in, kernel, copy out of 2 x 16 MiB: in one stream, then split over two streams (pinned)
    cudaStream_t st[2];
    cudaStreamCreate(&st[0]);
    cudaStreamCreate(&st[1]);
    for (int streams = 1; streams <= 2; streams++) {
        sum = 0;
        for (int r = 0; r < REPS; r++) {
            cudaDeviceSynchronize();
            cudaEventRecord(start, 0);
            for (int half = 0; half < 2; half++) {
                cudaStream_t s = st[streams == 2 ? half : 0];
                char *h = pinned + half * mid, *d = dev + half * mid;
                cudaMemcpyAsync(d, h, mid, cudaMemcpyHostToDevice, s);
                scale<<<n / 256, 256, 0, s>>>((float *)d, n);
                cudaMemcpyAsync(h, d, mid, cudaMemcpyDeviceToHost, s);
            }
            cudaEventRecord(stop, 0);
            sum += elapsed_us();
        }
        printf("copy_kernel_copy_2x16MiB_%d_stream%s %.2f\n", streams, streams > 1 ? "s" : "", sum / REPS);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        fprintf(stderr, "transfers: %s\n", cudaGetErrorString(e));
        return 1;
    }
    cudaStreamDestroy(st[0]);
    cudaStreamDestroy(st[1]);
    cudaFreeHost(pinned);
    cudaFree(dev);
    free(pageable);
    return 0;
}
