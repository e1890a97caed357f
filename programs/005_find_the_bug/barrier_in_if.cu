// Find the bug: __syncthreads() inside a branch that not every thread of the
// block takes. The threads that skip it do not exit: they wait at another
// barrier, so the block's barrier is divergent (undefined behaviour; the GPU
// may hang or go on with wrong data). The fixed kernel keeps the barrier where
// every thread reaches it.
//   warpsim run barrier_in_if.cu --check synccheck
#include <cstdio>

__global__ void scale_buggy(float *v, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < n) {
        s[t] = v[t] * 2;
        __syncthreads();                // line 15: threads n and above never come here
        v[t] = s[n - 1 - t];
    }
    __syncthreads();
}

__global__ void scale_fixed(float *v, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < n)
        s[t] = v[t] * 2;
    __syncthreads();                    // every thread of the block reaches it
    if (t < n)
        v[t] = s[n - 1 - t];
}

int main()
{
    float h[64], *d;
    for (int i = 0; i < 64; i++)
        h[i] = (float)i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    scale_fixed<<<1, 64>>>(d, 48);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("fixed: v[0] = %.0f (expected 94)\n", h[0]);
    scale_buggy<<<1, 64>>>(d, 48);
    printf("buggy: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
