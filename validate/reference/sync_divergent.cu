// A barrier inside a divergent branch (some threads never reach it), for --tool synccheck;
// and a barrier skipped by threads that then exit (not an error on sm_90).
#include <cstdio>
__global__ void divergent(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x < 48) {
        s[threadIdx.x] = threadIdx.x;
        __syncthreads();
        out[threadIdx.x] = s[63 - threadIdx.x % 48];
    } else {
        out[threadIdx.x] = -1;
        __syncthreads();
    }
}
__global__ void early_exit(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x >= 48) return;
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[47 - threadIdx.x];
}
int main()
{
    int *d; cudaMalloc(&d, 256);
    divergent<<<1, 64>>>(d);
    printf("divergent: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    early_exit<<<1, 64>>>(d);
    printf("early_exit: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
