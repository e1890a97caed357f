// Seed 002, "Coalescence des acces globaux": the slide's list of global loads,
// as copy kernels over n elements (one thread per element, bounds-checked).
//   float x = globalFloat[tid];     OUI   -> coalesce_float
//   float2 v = globalVec2[tid];     OUI   -> coalesce_float2   (ld.global.v2)
//   float3 w = globalVec3[tid];     NON   -> coalesce_float3   (3 scalar loads, stride 12)
//   float x = globalVec2[tid].x;    NON   -> coalesce_float2_x (stride 8)
//   v.x = globalX[tid]; v.y = globalY[tid];  OUI -> coalesce_soa
//   struct __align__(16) {float a,b,c,d,e;}  2 x 128 bits << 5 x 32 bits
//                                         -> coalesce_struct5_aligned (sizeof 32)
//   the same struct without __align__     -> coalesce_struct5_packed  (sizeof 20)
// plus float4 (coalesce_float4), a misaligned start (coalesce_offset: in[i+offset])
// and a strided read (coalesce_stride: in[i*stride]).
// The struct kernels write out[i] = (((a + b) + c) + d) + e.
// Buffers must be 16-byte aligned (cudaMalloc gives 256).
// Hand-written PTX twin: coalescing.ptx.  There the aligned struct is read
// with two ld.global.v4.f32 (the slide's "2 x 128 bits": e and the padding in
// the second one); nvcc 13 emits one v4 load and one 32-bit load instead.

struct __align__(16) S5a { float a, b, c, d, e; };
struct S5p { float a, b, c, d, e; };

extern "C" __global__ void coalesce_float(const float *globalFloat, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float x = globalFloat[tid];
        out[tid] = x;
    }
}

extern "C" __global__ void coalesce_float2(const float2 *globalVec2, float2 *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float2 v = globalVec2[tid];
        out[tid] = v;
    }
}

extern "C" __global__ void coalesce_float3(const float3 *globalVec3, float3 *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float3 w = globalVec3[tid];
        out[tid] = w;
    }
}

extern "C" __global__ void coalesce_float4(const float4 *globalVec4, float4 *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float4 w = globalVec4[tid];
        out[tid] = w;
    }
}

extern "C" __global__ void coalesce_float2_x(const float2 *globalVec2, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float x = globalVec2[tid].x;
        out[tid] = x;
    }
}

extern "C" __global__ void coalesce_soa(const float *globalX, const float *globalY, float2 *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float2 v;
        v.x = globalX[tid];
        v.y = globalY[tid];
        out[tid] = v;
    }
}

extern "C" __global__ void coalesce_struct5_aligned(const struct S5a *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        struct S5a s = in[tid];
        out[tid] = s.a + s.b + s.c + s.d + s.e;
    }
}

extern "C" __global__ void coalesce_struct5_packed(const struct S5p *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        struct S5p s = in[tid];
        out[tid] = s.a + s.b + s.c + s.d + s.e;
    }
}

extern "C" __global__ void coalesce_offset(const float *in, float *out, int n, int offset)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n)
        out[tid] = in[tid + offset];
}

extern "C" __global__ void coalesce_stride(const float *in, float *out, int n, int stride)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n)
        out[tid] = in[tid * stride];
}
