// Reading global memory never written (cudaMalloc without a copy), for --tool initcheck.
#include <cstdio>
__global__ void sum(const int *in, int *out) { atomicAdd(out, in[threadIdx.x]); }
int main()
{
    int *in, *out; cudaMalloc(&in, 128); cudaMalloc(&out, 4);
    cudaMemset(out, 0, 4);
    sum<<<1, 32>>>(in, out);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
