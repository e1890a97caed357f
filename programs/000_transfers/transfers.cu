// Seed 000, "Transferts GPU <-> CPU": copies between host and GPU can take most of the
// time; they can be hidden ("en temps masqué") behind kernels with several streams.
//
//   1. bandwidth: 64 MiB each way from pageable memory (malloc) and from pinned memory
//      (cudaMallocHost), and 4 bytes each way (the fixed cost of a copy);
//   2. overlap: copy in, kernel, copy out of 32 MiB, in one stream, then cut into 2 and
//      4 chunks on 2 and 4 streams with cudaMemcpyAsync (pinned memory).
// The sizes and the kernel are those of validate/timeline/transfers.cu, which was timed
// on an H100, so the README puts the card's figures beside these.
// `warpsim run transfers.cu --timeline t.json` writes the timeline (open it in ui.perfetto.dev).
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" __global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

static cudaEvent_t start, stop;

static double elapsed_us()
{
    float ms = 0;
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    return ms * 1000.0;
}

// One copy between two events on the default stream; prints its time and bandwidth.
static double copy(const char *name, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, bool async)
{
    cudaDeviceSynchronize();
    cudaEventRecord(start, 0);
    if (async)
        cudaMemcpyAsync(dst, src, bytes, kind, 0);
    else
        cudaMemcpy(dst, src, bytes, kind);
    cudaEventRecord(stop, 0);
    double us = elapsed_us();
    if (bytes >= 1024)
        printf("%-34s %9.2f us  %6.1f GB/s\n", name, us, bytes / us / 1000.0);
    else
        printf("%-34s %9.2f us\n", name, us);
    return us;
}

int main()
{
    const size_t big = 64u << 20, total = 32u << 20;
    char *pageable = (char *)malloc(big), *pinned, *dev;
    cudaMallocHost((void **)&pinned, big);
    cudaMalloc((void **)&dev, big);
    memset(pageable, 1, big);
    memset(pinned, 1, big);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    bool ok = true;

    printf("-- 1. copies, one at a time\n");
    double h2d_pageable = copy("64 MiB to the GPU, pageable", dev, pageable, big, cudaMemcpyHostToDevice, false);
    copy("64 MiB from the GPU, pageable", pageable, dev, big, cudaMemcpyDeviceToHost, false);
    double h2d_pinned = copy("64 MiB to the GPU, pinned", dev, pinned, big, cudaMemcpyHostToDevice, true);
    copy("64 MiB from the GPU, pinned", pinned, dev, big, cudaMemcpyDeviceToHost, true);
    copy("4 bytes to the GPU, pageable", dev, pageable, 4, cudaMemcpyHostToDevice, false);
    copy("4 bytes from the GPU, pageable", pageable, dev, 4, cudaMemcpyDeviceToHost, false);
    copy("4 bytes to the GPU, pinned", dev, pinned, 4, cudaMemcpyHostToDevice, true);
    copy("4 bytes from the GPU, pinned", pinned, dev, 4, cudaMemcpyDeviceToHost, true);
    printf("pinned is %.1fx faster than pageable to the GPU\n", h2d_pageable / h2d_pinned);
    if (memcmp(pageable, pinned, big) != 0) {   // both went to the GPU and back: all bytes 1
        printf("a copy lost data\n");
        ok = false;
    }

    printf("-- 2. copy in, scale, copy out of 32 MiB (pinned, cudaMemcpyAsync)\n");
    float *h = (float *)pinned, *d = (float *)dev;
    const int n = (int)(total / sizeof(float));
    cudaStream_t st[4];
    for (int s = 0; s < 4; s++)
        cudaStreamCreate(&st[s]);
    double one = 0;
    for (int streams = 1; streams <= 4; streams *= 2) {
        for (int i = 0; i < n; i++)
            h[i] = (float)(i % 1000);
        // the first run is the validate/ one: 2 chunks of 16 MiB, both in one stream
        int chunks = streams == 1 ? 2 : streams, m = n / chunks;
        size_t bytes = (size_t)m * sizeof(float);
        cudaDeviceSynchronize();
        cudaEventRecord(start, 0);
        for (int c = 0; c < chunks; c++) {
            cudaStream_t s = st[streams == 1 ? 0 : c];
            cudaMemcpyAsync(d + c * m, h + c * m, bytes, cudaMemcpyHostToDevice, s);
            scale<<<m / 256, 256, 0, s>>>(d + c * m, m);
            cudaMemcpyAsync(h + c * m, d + c * m, bytes, cudaMemcpyDeviceToHost, s);
        }
        cudaEventRecord(stop, 0);
        double us = elapsed_us();
        if (streams == 1)
            one = us;
        printf("%d stream%s, %d chunks of %2zu MiB: %8.2f us  speedup %.2fx\n", streams, streams > 1 ? "s" : " ",
               chunks, bytes >> 20, us, one / us);
        for (int i = 0; i < n; i++)
            if (h[i] != 2.0f * (float)(i % 1000)) {
                printf("h[%d] = %g, the CPU says %g\n", i, h[i], 2.0f * (float)(i % 1000));
                ok = false;
                break;
            }
    }

    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        ok = false;
    }
    for (int s = 0; s < 4; s++)
        cudaStreamDestroy(st[s]);
    cudaFreeHost(pinned);
    cudaFree(dev);
    free(pageable);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
