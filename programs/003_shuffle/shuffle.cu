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
