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
