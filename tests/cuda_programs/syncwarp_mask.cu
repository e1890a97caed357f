// __syncwarp with a mask that leaves out the lanes executing it (16-31):
// synccheck reports each of them as "Invalid arguments".
#include <cstdio>
__global__ void half_mask(int *out)
{
    out[threadIdx.x] = threadIdx.x;
    __syncwarp(0x0000ffffu);   // line 7
}
int main() { int *d; cudaMalloc(&d, 128); half_mask<<<1, 32>>>(d); printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize())); return 0; }
