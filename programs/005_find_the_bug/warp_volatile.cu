// Find the bug: the last-warp unrolling as the pre-Volta books wrote it, with
// volatile (so every += reads shared memory again) but no __syncwarp(). It
// relies on the 32 lanes of a warp running each statement together: right on
// every GPU before Volta, and wherever the warp happens to stay converged;
// since Volta nothing promises it, and a lane may read its neighbour's sum
// before or after the neighbour's own step. warpsim's --sched its (the default
// for sm_70 and later) runs the lanes apart and gets a wrong sum; --sched
// lockstep gets the old GPUs' right one. racecheck says where.
//   warpsim run warp_volatile.cu --sched its --check racecheck
#include <cstdio>

__device__ void warp_reduce_buggy(volatile int *s, int t)
{
    s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];   // line 14: no __syncwarp between the steps
    s[t] += s[t + 4];  s[t] += s[t + 2];  s[t] += s[t + 1];
}

__device__ void warp_reduce_fixed(volatile int *s, int t)
{
    int v = s[t];
    for (int d = 32; d > 0; d /= 2) {
        v += s[t + d];
        __syncwarp();                  // every lane has read before any writes
        s[t] = v;
        __syncwarp();                  // and written before any reads
    }
}

__global__ void sum(const int *in, int *out, int fixed)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t] + in[t + 128];
    __syncthreads();
    if (t < 64)
        s[t] += s[t + 64];
    __syncthreads();
    if (t < 32) {
        if (fixed)
            warp_reduce_fixed(s, t);
        else
            warp_reduce_buggy(s, t);
    }
    if (t == 0)
        *out = s[0];
}

int main()
{
    int h[256], *in, *out, r[2];
    for (int i = 0; i < 256; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    for (int fixed = 0; fixed < 2; fixed++) {
        sum<<<1, 128>>>(in, out, fixed);
        cudaMemcpy(&r[fixed], out, sizeof(int), cudaMemcpyDeviceToHost);
    }
    printf("buggy %d, fixed %d, expected %d\n", r[0], r[1], 255 * 256 / 2);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
