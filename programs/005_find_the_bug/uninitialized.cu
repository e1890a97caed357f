// Find the bug: a histogram whose counters were never zeroed. cudaMalloc does
// not clear memory: the kernel adds to whatever was there. The fixed version
// clears them with cudaMemset first.
//   warpsim run uninitialized.cu --check initcheck
#include <cstdio>

__global__ void histogram(const unsigned char *in, int n, unsigned *bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] % 8], 1u);
}

__global__ void report(const unsigned *bins, unsigned *total)
{
    *total = 0;
    for (int b = 0; b < 8; b++)
        *total += bins[b];   // line 18: reads counters nobody set
}

int main()
{
    const int n = 1000;
    unsigned char h[n];
    for (int i = 0; i < n; i++)
        h[i] = (unsigned char)(i * 7);
    unsigned char *in;
    unsigned *bins, *total, t;
    cudaMalloc(&in, n);
    cudaMalloc(&bins, 8 * sizeof(unsigned));
    cudaMalloc(&total, sizeof(unsigned));
    cudaMemcpy(in, h, n, cudaMemcpyHostToDevice);
    for (int fixed = 0; fixed < 2; fixed++) {
        if (fixed)
            cudaMemset(bins, 0, 8 * sizeof(unsigned));   // the fix
        histogram<<<(n + 255) / 256, 256>>>(in, n, bins);
        report<<<1, 1>>>(bins, total);
        cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost);
        printf("%s: %u counted\n", fixed ? "fixed" : "buggy", t);
    }
    return 0;
}
