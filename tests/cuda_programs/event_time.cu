// cudaEventElapsedTime gives the GPU's simulated time: a 1 MiB host-to-device copy from pageable
// memory (at the preset's pageable rate, plus its latency), one launch (its predicted gpu__time_duration),
// and 1 MiB into a cudaArray from that pageable memory and back out of it into pinned memory.
#include <cstdio>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

int main()
{
    const int n = 1 << 18;   // 1 MiB of floats
    static float h[n];
    float *d, ms;
    cudaMalloc(&d, sizeof h);
    cudaEvent_t a, b, c;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventCreate(&c);
    cudaEventRecord(a);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaEventRecord(b);
    scale<<<n / 256, 256>>>(d, n);
    cudaEventRecord(c);
    cudaEventSynchronize(c);
    cudaEventElapsedTime(&ms, a, b);
    printf("copy ns %.0f\n", ms * 1e6);
    cudaEventElapsedTime(&ms, b, c);
    printf("kernel ns %.0f\n", ms * 1e6);
    cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t arr;
    float *pinned;
    cudaMallocArray(&arr, &f, 512, 512);
    cudaMallocHost(&pinned, sizeof h);
    cudaEventRecord(a);
    cudaMemcpy2DToArray(arr, 0, 0, h, 512 * sizeof(float), 512 * sizeof(float), 512, cudaMemcpyHostToDevice);
    cudaEventRecord(b);
    cudaMemcpyFromArray(pinned, arr, 0, 0, sizeof h, cudaMemcpyDeviceToHost);
    cudaEventRecord(c);
    cudaEventSynchronize(c);
    cudaEventElapsedTime(&ms, a, b);
    printf("into an array ns %.0f\n", ms * 1e6);
    cudaEventElapsedTime(&ms, b, c);
    printf("out of an array ns %.0f\n", ms * 1e6);
    cudaFreeArray(arr);
    cudaFreeHost(pinned);
    cudaFree(d);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaEventDestroy(c);
    return 0;
}
