// Seed 003: shuffle.  Hand-written PTX twin: shuffle.ptx (there laneid is the
// PTX special register %laneid, equal to threadIdx.x % warpSize for 1-D blocks).
// blockDim.x must be a multiple of 32; lanes past n
// contribute 0 but still take part in every shuffle.
//
// warp_allreduce_xor: reduction + broadcast with the butterfly
//     ai += __shfl_xor(ai, 1); ai += __shfl_xor(ai, 2); ... (1,2,4,8,16)
//   (the slide stops at 4 for its 8-lane drawing; a 32-lane warp needs 5 steps)
//   out[i] = ai (the warp sum, i < n)
// warp_reduce_atomic: the slide's exercise "complete reduction without
//   __syncthreads": int butterfly per warp, then lane 0 does atomicAdd(total, sum).
// warp_scan_up: inclusive prefix sum in a warp with __shfl_up:
//     for (d = 1; d < warpSize; d *= 2) { n = __shfl_up(s, d); if (laneid >= d) s += n; }
//   The slide writes `d <= 5`, which with d *= 2 only does d = 1, 2, 4; it
//   clearly means the log2(32) = 5 steps d = 1..16.  laneid is computed as the
//   slide does, threadIdx.x % warpSize (PTX keeps a rem by %WARP_SZ).
// warp_shfl_lookup: __shfl(v, i) as "32 concurrent lookups in a 32-entry
//   table": lane l holds table[l]; out[i] = table[idx[i] & 31] (i < n).

#define FULL_MASK 0xffffffffu

extern "C" __global__ void warp_allreduce_xor(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float ai = (i < n) ? in[i] : 0.0f;
#pragma unroll
    for (int m = 1; m < 32; m *= 2)
        ai += __shfl_xor_sync(FULL_MASK, ai, m);
    if (i < n)
        out[i] = ai;
}

extern "C" __global__ void warp_reduce_atomic(const int *in, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int ai = (i < n) ? in[i] : 0;
#pragma unroll
    for (int m = 1; m < 32; m *= 2)
        ai += __shfl_xor_sync(FULL_MASK, ai, m);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, ai);
}

extern "C" __global__ void warp_scan_up(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int laneid = threadIdx.x % warpSize;
    float s = (i < n) ? in[i] : 0.0f;
    for (int d = 1; d < warpSize; d *= 2) {
        float t = __shfl_up_sync(FULL_MASK, s, d);
        if (laneid >= d)
            s += t;
    }
    if (i < n)
        out[i] = s;
}

extern "C" __global__ void warp_shfl_lookup(const float *table, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x & 31;
    float v = table[lane];
    int k = (i < n) ? idx[i] : 0;
    float r = __shfl_sync(FULL_MASK, v, k & 31);
    if (i < n)
        out[i] = r;
}

// ---- Host code (the seed has none): the four kernels of shuffle.launch over
// 8192 values, 32 blocks of 256 threads, with the .launch's inputs (x random
// floats in [-1, 1), xi and idx random ints in [-1000, 1000), a table of 32
// random floats), each launch timed and checked against the CPU, which adds
// the floats in the order the shuffles do (so the results are equal, bit for bit).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // random_f32/random_s32 (random=SEED) and timed (a launch between two events)


int main()
{
    const int n = 8192;
    std::vector<float> x = random_f32(1, n), table = random_f32(3, 32);
    std::vector<int> xi = random_s32(2, n), idx = random_s32(4, n);
    float *dx, *dtable, *dwarp_sums, *dprefix, *dlooked_up;
    int *dxi, *didx, *dtotal;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dxi, n * sizeof(int));
    cudaMalloc(&dtable, 32 * sizeof(float));
    cudaMalloc(&didx, n * sizeof(int));
    cudaMalloc(&dwarp_sums, n * sizeof(float));
    cudaMalloc(&dtotal, sizeof(int));
    cudaMalloc(&dprefix, n * sizeof(float));
    cudaMalloc(&dlooked_up, n * sizeof(float));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dxi, xi.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dtable, table.data(), 32 * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(didx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dtotal, 0, sizeof(int));
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    dim3 block(256), grid((n + 255) / 256);
    timed("warp_allreduce_xor (__shfl_xor, floats)", [&] { warp_allreduce_xor<<<grid, block>>>(dx, dwarp_sums, n); });
    timed("warp_reduce_atomic (__shfl_xor + atomicAdd)", [&] { warp_reduce_atomic<<<grid, block>>>(dxi, dtotal, n); });
    timed("warp_scan_up       (__shfl_up, prefix sum)", [&] { warp_scan_up<<<grid, block>>>(dx, dprefix, n); });
    timed("warp_shfl_lookup   (__shfl, table lookup)", [&] { warp_shfl_lookup<<<grid, block>>>(dtable, didx, dlooked_up, n); });

    std::vector<float> sums(n), prefix(n), looked_up(n);
    int total = 0;
    cudaMemcpy(sums.data(), dwarp_sums, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(prefix.data(), dprefix, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(looked_up.data(), dlooked_up, n * sizeof(float), cudaMemcpyDeviceToHost);
    bool ok = true;
    int want_total = 0;
    for (int w = 0; w < n; w += 32) {
        float a[32], s[32], t[32];
        for (int l = 0; l < 32; l++)
            a[l] = s[l] = x[w + l];
        for (int m = 1; m < 32; m *= 2) {   // the butterfly: lane l adds lane l ^ m
            for (int l = 0; l < 32; l++)
                t[l] = a[l] + a[l ^ m];
            for (int l = 0; l < 32; l++)
                a[l] = t[l];
        }
        for (int d = 1; d < 32; d *= 2) {   // the scan: lane l >= d adds lane l - d
            for (int l = 0; l < 32; l++)
                t[l] = l >= d ? s[l] + s[l - d] : s[l];
            for (int l = 0; l < 32; l++)
                s[l] = t[l];
        }
        for (int l = 0; l < 32; l++) {
            ok = ok && sums[w + l] == a[l] && prefix[w + l] == s[l] && looked_up[w + l] == table[idx[w + l] & 31];
            want_total += xi[w + l];
        }
    }
    printf("sum of xi: %d (CPU %d)\n", total, want_total);
    ok = ok && total == want_total;
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(dx);
    cudaFree(dxi);
    cudaFree(dtable);
    cudaFree(didx);
    cudaFree(dwarp_sums);
    cudaFree(dtotal);
    cudaFree(dprefix);
    cudaFree(dlooked_up);
    return ok ? 0 : 1;
}
