// Seed 003: local memory and loop unrolling.  Hand-written PTX twin: local_memory.ptx.
//
// local_array_dynamic: "int a[17]; b = a[i];" -- an array read with an index
//   known only at run time must live in (per-thread) local memory.
//     x = in[i]; a[k] = (x * (k + 1)) ^ (k << 4)  for k < 17 (loop kept rolled);
//     j = (unsigned)x % 17;  out[i] = a[j] + a[(j + 5) % 17]
// local_array_loop: the slide's "not unrolled" loop  a[k] = 3*k (+ x here, so
//   it is not constant), kept rolled with #pragma unroll 1: indirect addressing,
//   a in local memory (st.local in the loop, one ld.local.v4 after it).
//   out[i] = a[0]*a[1] + a[2]*a[3]
// local_array_unrolled: the same with #pragma unroll: static addressing, a in
//   registers (no .local in the PTX).      out[i] = a[0]*a[1] + a[2]*a[3]
// Integer arithmetic wraps (two's complement).

extern "C" __global__ void local_array_dynamic(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int a[17];
#pragma unroll 1
    for (int k = 0; k < 17; k++)
        a[k] = (x * (k + 1)) ^ (k << 4);
    unsigned int j = (unsigned int)x % 17u;
    out[i] = a[j] + a[(j + 5) % 17];
}

extern "C" __global__ void local_array_loop(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int a[4];
#pragma unroll 1
    for (int k = 0; k < 4; k++)
        a[k] = 3 * k + x;
    out[i] = a[0] * a[1] + a[2] * a[3];
}

extern "C" __global__ void local_array_unrolled(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int a[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
        a[k] = 3 * k + x;
    out[i] = a[0] * a[1] + a[2] * a[3];
}

// ---- Host code (the seed has none): the three kernels of local_memory.launch
// over n = 8192 ints (random in [-1000, 1000), as the .launch fills `in`), 32
// blocks of 256 threads, each launch timed and checked against the CPU.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // splitmix64 (random=SEED) and timed (a launch between two events)

int main()
{
    const int n = 8192;
    const size_t bytes = n * sizeof(int);
    std::vector<int> hin(n);
    uint64_t seed = 1;
    for (int &x : hin)
        x = (int)(splitmix64(seed) % 2000) - 1000;
    int *din, *dout_dynamic, *dout_loop, *dout_unrolled;
    cudaMalloc(&din, bytes);
    cudaMalloc(&dout_dynamic, bytes);
    cudaMalloc(&dout_loop, bytes);
    cudaMalloc(&dout_unrolled, bytes);
    cudaMemcpy(din, hin.data(), bytes, cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    dim3 block(256), grid((n + 255) / 256);
    timed("local_array_dynamic  (int a[17], a[j])", [&] { local_array_dynamic<<<grid, block>>>(din, dout_dynamic, n); });
    timed("local_array_loop     (int a[4], rolled)", [&] { local_array_loop<<<grid, block>>>(din, dout_loop, n); });
    timed("local_array_unrolled (int a[4], unrolled)", [&] { local_array_unrolled<<<grid, block>>>(din, dout_unrolled, n); });

    std::vector<int> dyn(n), loop(n), unr(n);
    cudaMemcpy(dyn.data(), dout_dynamic, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(loop.data(), dout_loop, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(unr.data(), dout_unrolled, bytes, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        unsigned x = (unsigned)hin[i], a[17];   // unsigned: the GPU's wrapping arithmetic
        for (unsigned k = 0; k < 17; k++)
            a[k] = (x * (k + 1)) ^ (k << 4);
        unsigned j = x % 17u;
        ok = ok && dyn[i] == (int)(a[j] + a[(j + 5) % 17]);
        unsigned b0 = x, b1 = 3 + x, b2 = 6 + x, b3 = 9 + x;
        int want = (int)(b0 * b1 + b2 * b3);
        ok = ok && loop[i] == want && unr[i] == want;
    }
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    cudaFree(dout_dynamic);
    cudaFree(dout_loop);
    cudaFree(dout_unrolled);
    return ok ? 0 : 1;
}
