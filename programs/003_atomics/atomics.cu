// Seed 003, "Atomics" / "Example: reduction": global and shared memory atomics.
// Hand-written PTX twin: atomics.ptx (each atomicAdd whose result is unused is
// a red.* instruction there: a reduction in memory, no value returned).
// Float atomicAdd is order-dependent on hardware (float + is not associative),
// so the float kernels add integers converted to float: with |in[i]| < 1000
// and n <= 16000 every partial sum is an integer below 2^24, so every order
// gives the same, exact, result (the slide's "Floating-point atomics" point).
//
// atomic_reduce_global        : if (i < n) atomicAdd(total, in[i])       (int)
// atomic_reduce_shared        : block sum in a __shared__ int with atomicAdd,
//                               then one atomicAdd(total, blocksum) per block
// atomic_reduce_float_global  : atomicAdd(total, (float)in[i])           (float)
// atomic_reduce_float_shared  : same through a __shared__ float

extern "C" __global__ void atomic_reduce_global(const int *in, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, in[i]);
}

extern "C" __global__ void atomic_reduce_shared(const int *in, int *total, int n)
{
    __shared__ int acc;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        acc = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&acc, in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(total, acc);
}

extern "C" __global__ void atomic_reduce_float_global(const int *in, float *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, (float)in[i]);
}

extern "C" __global__ void atomic_reduce_float_shared(const int *in, float *total, int n)
{
    __shared__ float acc;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        acc = 0.0f;
    __syncthreads();
    if (i < n)
        atomicAdd(&acc, (float)in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(total, acc);
}
