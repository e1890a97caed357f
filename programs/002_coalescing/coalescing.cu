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

// ---- Host code (the seed has none): the ten launches of coalescing.launch,
// n = 32768 elements, 128 blocks of 256 threads. As in the .launch, every
// kernel reads the start of one buffer of 8 * 32768 random floats (enough for
// the widest element, the 32-byte aligned struct), seen as float2, float3,
// float4 or struct; coalesce_soa also reads a second buffer. Each launch is
// timed and its output checked against the CPU.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // random_f32/random_s32 (random=SEED) and timed (a launch between two events)


int main()
{
    const int n = 32768;
    std::vector<float> in = random_f32(1, 8 * n), inY = random_f32(2, n);
    float *din, *dinY;
    cudaMalloc(&din, in.size() * sizeof(float));
    cudaMalloc(&dinY, n * sizeof(float));
    cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dinY, inY.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    // outputs, in floats per element: float, float2, float3, float4, float2.x, soa, aligned, packed, offset, stride
    const int width[10] = {1, 2, 3, 4, 1, 2, 1, 1, 1, 1};
    float *dout[10];
    for (int k = 0; k < 10; k++)
        cudaMalloc(&dout[k], width[k] * n * sizeof(float));
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    dim3 block(256), grid((n + 255) / 256);
    timed("float x = globalFloat[tid]", [&] { coalesce_float<<<grid, block>>>(din, dout[0], n); });
    timed("float2 v = globalVec2[tid]", [&] { coalesce_float2<<<grid, block>>>((const float2 *)din, (float2 *)dout[1], n); });
    timed("float3 w = globalVec3[tid]", [&] { coalesce_float3<<<grid, block>>>((const float3 *)din, (float3 *)dout[2], n); });
    timed("float4 w = globalVec4[tid]", [&] { coalesce_float4<<<grid, block>>>((const float4 *)din, (float4 *)dout[3], n); });
    timed("float x = globalVec2[tid].x", [&] { coalesce_float2_x<<<grid, block>>>((const float2 *)din, dout[4], n); });
    timed("v.x = globalX[tid]; v.y = globalY[tid]", [&] { coalesce_soa<<<grid, block>>>(din, dinY, (float2 *)dout[5], n); });
    timed("struct __align__(16) {a,b,c,d,e}", [&] { coalesce_struct5_aligned<<<grid, block>>>((const S5a *)din, dout[6], n); });
    timed("struct {a,b,c,d,e}", [&] { coalesce_struct5_packed<<<grid, block>>>((const S5p *)din, dout[7], n); });
    timed("in[tid + 3]", [&] { coalesce_offset<<<grid, block>>>(din, dout[8], n, 3); });
    timed("in[tid * 5]", [&] { coalesce_stride<<<grid, block>>>(din, dout[9], n, 5); });

    bool ok = true;
    for (int k = 0; k < 10; k++) {
        std::vector<float> got(width[k] * n);
        cudaMemcpy(got.data(), dout[k], got.size() * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; i++) {
            const float *s8 = &in[8 * i], *s5 = &in[5 * i];
            switch (k) {
            case 0: case 1: case 2: case 3:   // copies of width[k] floats
                for (int j = 0; j < width[k]; j++)
                    ok = ok && got[width[k] * i + j] == in[width[k] * i + j];
                break;
            case 4: ok = ok && got[i] == in[2 * i]; break;
            case 5: ok = ok && got[2 * i] == in[i] && got[2 * i + 1] == inY[i]; break;
            case 6: ok = ok && got[i] == s8[0] + s8[1] + s8[2] + s8[3] + s8[4]; break;
            case 7: ok = ok && got[i] == s5[0] + s5[1] + s5[2] + s5[3] + s5[4]; break;
            case 8: ok = ok && got[i] == in[i + 3]; break;
            case 9: ok = ok && got[i] == in[5 * i]; break;
            }
        }
    }
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    cudaFree(dinY);
    for (float *d : dout)
        cudaFree(d);
    return ok ? 0 : 1;
}
