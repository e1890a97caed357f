// A shared-memory race between warps (RAW across warps, no barrier), for compute-sanitizer --tool racecheck.
#include <cstdio>
__global__ void shift(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    // missing __syncthreads(): thread 31 reads s[32], written by warp 1
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
int main() { int *d; cudaMalloc(&d, 256); shift<<<1, 64>>>(d); printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize())); return 0; }
