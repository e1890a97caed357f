// Global-memory hazards between threads of one block, for --racecheck-global yes: each thread
// writes v[t], then reads its neighbour's v[t + 1] -- after a barrier in the first launch, without
// one in the second. Two blocks writing the same words (the third launch) are not checked.
#include <cstdio>
__global__ void shift(int *v, int *out, int sync)
{
    int t = threadIdx.x;
    v[t] = t;                                   // line 8
    if (sync)
        __syncthreads();
    out[t] = v[(t + 1) % blockDim.x];           // line 11
}
int main()
{
    int *v, *out;
    cudaMalloc(&v, 64 * sizeof(int));
    cudaMalloc(&out, 128 * sizeof(int));
    shift<<<1, 64>>>(v, out, 1);   // clean
    shift<<<1, 64>>>(v, out, 0);   // 64 reads of another thread's write, none ordered: 256 bytes
    shift<<<2, 64>>>(v, out, 1);   // the blocks write the same v[t]: between blocks, not checked
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(v);
    cudaFree(out);
    return 0;
}
