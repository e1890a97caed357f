// How many shared-memory load wavefronts an H100 SM serves per cycle: each warp of 1024-thread
// blocks (2 per SM, 64 warps) makes 8 x ITERS loads of shared memory, 8 independent loads per
// step, all lanes on one word (broadcast), lane i on word i (conflict-free), or half the warp on
// each of two words of one bank (a 2-way conflict). Run under ncu for gpu__time_duration.sum and
// sm__cycles_elapsed.avg; wavefronts per cycle = loads / (cycles x SMs) x wavefronts per load.
#include <cstdio>

#define ITERS 256

__global__ void lds(float *out, int mode)
{
    __shared__ float s[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x)
        s[i] = (float)i;
    __syncthreads();
    int lane = threadIdx.x & 31;
    int base = mode == 0 ? 0 : mode == 1 ? lane : (lane & 1) * 32;   // broadcast, conflict-free, 2-way
    float acc = 0;
    for (int i = 0; i < ITERS; i++) {
        const volatile float *p = s + base + (i & 7) * 64;
        acc += p[0] + p[128] + p[256] + p[384] + p[512] + p[640] + p[768] + p[896];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main()
{
    float *out;
    int blocks = 132 * 2 * 8;
    cudaMalloc(&out, sizeof(float) * blocks * 1024);
    for (int mode = 0; mode < 3; mode++)
        lds<<<blocks, 1024>>>(out, mode);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
