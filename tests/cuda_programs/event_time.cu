// cudaEventElapsedTime gives the GPU's simulated time: a 1 MiB host-to-device copy from pageable
// memory (at the preset's pageable rate, plus its latency) and one launch (its predicted gpu__time_duration).
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
    cudaFree(d);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaEventDestroy(c);
    return 0;
}
