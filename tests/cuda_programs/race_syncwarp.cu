// validate/reference/race_warp.cu with the __syncwarp() it lacks: racecheck finds nothing.
#include <cstdio>
__global__ void neighbours(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x * 2;
    __syncwarp();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}
int main() { int *d; cudaMalloc(&d, 128); neighbours<<<1, 32>>>(d); printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize())); return 0; }
