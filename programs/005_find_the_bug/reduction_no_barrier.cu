// Find the bug: a shared-memory tree reduction whose barrier sits after the
// loop instead of inside it. Each step reads partial sums other threads are
// still writing. The fixed kernel syncs at every step.
//   warpsim run reduction_no_barrier.cu --check racecheck
#include <cstdio>

#define N 256

__global__ void sum_buggy(const int *in, int *out)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = N / 2; stride > 0; stride /= 2)
        if (t < stride)
            s[t] += s[t + stride];   // line 17: reads s[t + stride] another warp may not have written yet
    __syncthreads();                 // the bug: one barrier after the loop, none inside it
    if (t == 0)
        *out = s[0];
}

__global__ void sum_fixed(const int *in, int *out)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = N / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();             // the fix: every step waits for the one before
    }
    if (t == 0)
        *out = s[0];
}

int main()
{
    int h[N], *in, *out, buggy, fixed;
    for (int i = 0; i < N; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    sum_buggy<<<1, N>>>(in, out);
    cudaMemcpy(&buggy, out, sizeof(int), cudaMemcpyDeviceToHost);
    sum_fixed<<<1, N>>>(in, out);
    cudaMemcpy(&fixed, out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("buggy %d, fixed %d, expected %d\n", buggy, fixed, N * (N - 1) / 2);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
