// Seed 001, final project: parallel sum reduction in several versions.
// Hand-written PTX twin: reduction.ptx.
// Every kernel writes one partial sum per block to out[blockIdx.x]; a second
// launch of the same kernel on `out` reduces the partials further.
// blockDim.x must be a power of two (>= 64 for reduce_optimized).
// The shared-memory kernels use dynamic shared memory: launch them with
// blockDim.x * sizeof(float) bytes of shared memory.
//
//  reduce_global                       v1: global memory only (in-place tree in `data`)
//  reduce_interleaved_divergent        v2a: shared memory, interleaved addressing,
//                                           tid % (2*s) == 0  (divergent warps)
//  reduce_interleaved_strided          v2b: shared memory, index = 2*s*tid
//                                           (no divergence, bank conflicts)
//  reduce_sequential                   v2c: shared memory, sequential addressing
//                                           (conflict-free)
//  reduce_optimized                    v3: registers + shared + conflict-free:
//                                           two loads added in registers, sequential
//                                           addressing while s > 32, then the last
//                                           warp reduces with __shfl_down_sync.

#define FULL_MASK 0xffffffffu

extern __shared__ float sdata[];

// v1: the tree runs directly in global memory: `data` is overwritten.
extern "C" __global__ void reduce_global(float *data, float *out, int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s && i + s < (unsigned int)n)
            data[i] += data[i + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = data[i];
}

extern "C" __global__ void reduce_interleaved_divergent(const float *in, float *out, int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < (unsigned int)n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reduce_interleaved_strided(const float *in, float *out, int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < (unsigned int)n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reduce_sequential(const float *in, float *out, int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < (unsigned int)n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// Each block covers 2 * blockDim.x input elements: grid = ceil(n / (2*blockDim.x)).
extern "C" __global__ void reduce_optimized(const float *in, float *out, int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

    float sum = (i < (unsigned int)n) ? in[i] : 0.0f;
    if (i + blockDim.x < (unsigned int)n)
        sum += in[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum = sum + sdata[tid + s];
        __syncthreads();
    }

    if (tid < 32) {
        sum += sdata[tid + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(FULL_MASK, sum, offset);
    }
    if (tid == 0)
        out[blockIdx.x] = sum;
}

// ---- Host code for the project (the seed gives none: it asks for the three
// versions, their timings and a speedup graph against the baseline), with the
// sizes of reduction.launch, then full_sum.launch's two-launch total. The input
// holds small integers, so every float sum is exact whatever its order and the
// check against the CPU's sum is an equality.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));                \
            exit(EXIT_FAILURE);                                                          \
        }                                                                                \
    } while (0)

typedef void (*reduce_fn)(const float *, float *, int);

int main()
{
    const int n = 131072, threads = 256;
    const size_t bytes = n * sizeof(float);
    float *h_in = (float *)malloc(bytes), h_out[512];
    double cpu = 0;
    for (int i = 0; i < n; i++) {
        h_in[i] = (float)(i % 17 - 8);
        cpu += h_in[i];
    }
    float *d_in, *d_data, *d_out, *d_total;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_data, bytes));
    CHECK(cudaMalloc(&d_out, 512 * sizeof(float)));
    CHECK(cudaMalloc(&d_total, sizeof(float)));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_data, h_in, bytes, cudaMemcpyHostToDevice));   // version 1 sums in place
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    int wrong = 0;
    float baseline = 0;

    struct { const char *name; reduce_fn fn; int blocks; } versions[] = {
        {"v1   global memory only (baseline)", (reduce_fn)reduce_global, n / threads},
        {"v2a  shared, interleaved, divergent", reduce_interleaved_divergent, n / threads},
        {"v2b  shared, interleaved, strided (bank conflicts)", reduce_interleaved_strided, n / threads},
        {"v2c  shared, sequential addressing", reduce_sequential, n / threads},
        {"v3   registers + shared + shuffles", reduce_optimized, n / (2 * threads)},
    };
    for (int v = 0; v < 5; v++) {
        int blocks = versions[v].blocks;
        CHECK(cudaEventRecord(start));
        if (v == 0)
            reduce_global<<<blocks, threads>>>(d_data, d_out, n);
        else
            versions[v].fn<<<blocks, threads, threads * sizeof(float)>>>(d_in, d_out, n);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (v == 0)
            baseline = ms;
        CHECK(cudaMemcpy(h_out, d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
        double sum = 0;
        for (int b = 0; b < blocks; b++)
            sum += h_out[b];
        wrong += sum != cpu;
        printf("%-52s %8.4f ms  speedup %.2fx  sum %.0f\n", versions[v].name, ms, baseline / ms, sum);
    }

    // The whole sum on the GPU: 128 blocks of 512 threads, then one block of 64 over their 128 partial sums
    CHECK(cudaEventRecord(start));
    reduce_optimized<<<128, 512, 512 * sizeof(float)>>>(d_in, d_out, n);
    reduce_optimized<<<1, 64, 64 * sizeof(float)>>>(d_out, d_total, 128);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0, total = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
    wrong += total != cpu;
    printf("full sum on the GPU (two launches): %.4f ms, %.0f (CPU: %.0f)\n", ms, total, cpu);

    printf("Check: %s\n", wrong ? "FAILED" : "OK");
    cudaFree(d_in);
    cudaFree(d_data);
    cudaFree(d_out);
    cudaFree(d_total);
    free(h_in);
    return wrong != 0;
}
