// Seed 003: "A few device code features": device functions, intrinsics,
// math functions.
//
// device_calls: out[i] = foo(x) + bar(x), x = in[i], with
//     __device__ __noinline__ int foo(int i) { return 3 * i + 1; }   (a real .func call)
//     __host__ __device__ int bar(int i)     { return i ^ (i >> 3); }
// int_intrinsics: x = (unsigned)in[i] * 2654435761u (spreads the bits), then
//     out[4i+0] = __brev(x), out[4i+1] = __popc(x), out[4i+2] = __clz(x),
//     out[4i+3] = __ffs(x)
// float_exact_math: functions that compile to exactly-rounded PTX instructions
//   (x = in[i], y = in[n-1-i]):
//     out[8i+0] = sqrtf(fabsf(x))   out[8i+1] = fminf(x, y)   out[8i+2] = fmaxf(x, y)
//     out[8i+3] = floorf(8*x)       out[8i+4] = ceilf(8*x)    out[8i+5] = truncf(8*x)
//     out[8i+6] = rintf(8*x)        out[8i+7] = x / y  (IEEE division)
// fast_math_intrinsics: the slide's hardware approximations (__expf, __logf,
//   __sinf, __cosf, rsqrtf, __fdividef); their results are implementation-
//   defined approximations, so this kernel is only in the PTX for the parser:
//   it has no exact C reference and no test case.

__device__ __noinline__ int foo(int i)
{
    return 3 * i + 1;
}

__host__ __device__ int bar(int i)
{
    return i ^ (i >> 3);
}

extern "C" __global__ void device_calls(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = in[i];
        out[i] = foo(x) + bar(x);
    }
}

extern "C" __global__ void int_intrinsics(const int *in, unsigned int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int x = (unsigned int)in[i] * 2654435761u;
        out[4 * i + 0] = __brev(x);
        out[4 * i + 1] = __popc(x);
        out[4 * i + 2] = __clz(x);
        out[4 * i + 3] = __ffs(x);
    }
}

extern "C" __global__ void float_exact_math(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        float y = in[n - 1 - i];
        float x8 = 8.0f * x;
        out[8 * i + 0] = sqrtf(fabsf(x));
        out[8 * i + 1] = fminf(x, y);
        out[8 * i + 2] = fmaxf(x, y);
        out[8 * i + 3] = floorf(x8);
        out[8 * i + 4] = ceilf(x8);
        out[8 * i + 5] = truncf(x8);
        out[8 * i + 6] = rintf(x8);
        out[8 * i + 7] = x / y;
    }
}

extern "C" __global__ void fast_math_intrinsics(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        float s, c;
        __sincosf(x, &s, &c);
        out[8 * i + 0] = __expf(x);
        out[8 * i + 1] = __logf(fabsf(x) + 1.0f);
        out[8 * i + 2] = __sinf(x);
        out[8 * i + 3] = __cosf(x);
        out[8 * i + 4] = rsqrtf(fabsf(x) + 1.0f);
        out[8 * i + 5] = __fdividef(x, 3.0f);
        out[8 * i + 6] = exp2f(x);
        out[8 * i + 7] = s + c;
    }
}
