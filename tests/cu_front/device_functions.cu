// Device functions that stay calls (__noinline__): scalar and struct
// arguments, return values, recursion, a call before the definition.
struct Pair { int a; float b; char c; };

__device__ __noinline__ int twice(int x);

__device__ __noinline__ float scale(float x, int k) { return x * k + 1.0f; }
__device__ __noinline__ int sum_pair(Pair p) { return p.a + (int)p.b + p.c; }
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ void bump(int *p) { atomicAdd(p, twice(1)); }
__device__ __noinline__ int twice(int x) { return 2 * x; }

__global__ void calls(float *out, int *count, Pair p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = scale(out[i], n) + sum_pair(p) + fib(i & 7);
    bump(count);
}
