// Seed 003: the atomics the course's exercise (programs/003_atomics/atomics.cu,
// the four atomic_reduce_* kernels) does not have: every atomic operator of the
// slide, on global and on shared memory, and the __threadfence() reduction.
//
// atomic_gallery_global       : every atomic operator of the slide on o[0..15]
// atomic_gallery_shared       : the same operators on a __shared__ copy of
//                               init[0..15], result per block in o[16*b+k]
// reduce_threadfence          : block sums (sequential-addressing tree, block 256)
//                               to partial[b]; __threadfence(); atomicInc ticket;
//                               the last block adds partial[0..grid-1] in order
//                               into *total and resets *count to 0.
//
// Gallery operators (v = in[i], only threads i < n; every final value is
// independent of the order of the atomics):
//   o[0] += v            o[1] -= v             o[2] = max(o[2], v)   o[3] = min(o[3], v)
//   o[4] &= v|0xFFFF0000 o[5] |= v & 0x0F0F0   o[6] ^= v
//   o[7]  atomicInc((unsigned*)&o[7], 1000)    o[8]  atomicDec((unsigned*)&o[8], 1000)
//   o[9]  atomicExch(&o[9], 12345)             o[10] max via an atomicCAS loop
//   o[11] = max unsigned (v as unsigned)       o[12] = min unsigned
//   o[13] += 1 returning old; o[14] += old (the sum of the returned tickets)
//   o[15] += 1 for every thread (i < n)        sum64[0] += (long long)v (64-bit)

__device__ __forceinline__ void gallery(int *o, unsigned long long *sum64, int v)
{
    atomicAdd(&o[0], v);
    atomicSub(&o[1], v);
    atomicMax(&o[2], v);
    atomicMin(&o[3], v);
    atomicAnd(&o[4], v | (int)0xFFFF0000);
    atomicOr(&o[5], v & 0x0F0F0);
    atomicXor(&o[6], v);
    atomicInc((unsigned int *)&o[7], 1000u);
    atomicDec((unsigned int *)&o[8], 1000u);
    atomicExch(&o[9], 12345);
    int cur = o[10], old;
    do {
        old = cur;
        cur = atomicCAS(&o[10], old, max(old, v));
    } while (cur != old);
    atomicMax((unsigned int *)&o[11], (unsigned int)v);
    atomicMin((unsigned int *)&o[12], (unsigned int)v);
    int ticket = atomicAdd(&o[13], 1);
    atomicAdd(&o[14], ticket);
    atomicAdd(&o[15], 1);
    if (sum64)
        atomicAdd(sum64, (unsigned long long)(long long)v);
}

extern "C" __global__ void atomic_gallery_global(const int *in, int *o, unsigned long long *sum64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        gallery(o, sum64, in[i]);
}

extern "C" __global__ void atomic_gallery_shared(const int *in, const int *init, int *o, int n)
{
    __shared__ int s[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16)
        s[threadIdx.x] = init[threadIdx.x];
    __syncthreads();
    if (i < n)
        gallery(s, 0, in[i]);
    __syncthreads();
    if (threadIdx.x < 16)
        o[16 * blockIdx.x + threadIdx.x] = s[threadIdx.x];
}

#define TF_BLOCK 256

extern "C" __global__ void reduce_threadfence(const float *in, float *partial,
                                              unsigned int *count, float *total, int n)
{
    __shared__ float sdata[TF_BLOCK];
    __shared__ bool amLast;
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * TF_BLOCK + tid;
    sdata[tid] = (i < (unsigned int)n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = TF_BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
        __threadfence();
        unsigned int ticket = atomicInc(count, gridDim.x);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (amLast && tid == 0) {
        volatile float *vp = partial;
        float s = 0.0f;
        for (unsigned int b = 0; b < gridDim.x; b++)
            s += vp[b];
        *total = s;
        *count = 0;
    }
}
