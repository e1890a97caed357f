// Shared memory read where nobody wrote: threads 16-63 read s[32..63] and
// s[0..15], which no thread writes (48 reads initcheck reports). Threads 0-15
// read s[16..31], which threads 16-31 of their own warp wrote just before:
// written, so not initcheck's business, though without __syncwarp it is a race.
#include <cstdio>

__global__ void early_read(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x >= 16 && threadIdx.x < 32)
        s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[(threadIdx.x + 16) % 64];   // line 12
}

int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    early_read<<<1, 64>>>(d);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}
