// Seed 004, "Memoire unifiee": the result lives in a __managed__ global
// variable of the module, c[SIZE], not in a kernel parameter.  The kernel
// indexes with the compile-time BLOCK_DIM (launch with 256-thread blocks).
// The PTX declares `.visible .global .align 4 .b8 c[40000]` (the managed
// attribute itself is a host/runtime-side property).
// add_ptr is the same kernel with the result passed as a parameter.

#define BLOCK_DIM (256)
#define SIZE (10000)

__device__ __managed__ float c[SIZE];

extern "C" __global__ void add(float *a, float *b, int n)
{
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void add_ptr(float *a, float *b, float *cp, int n)
{
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    if (i < n)
        cp[i] = a[i] + b[i];
}
