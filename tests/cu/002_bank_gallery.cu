// Seed 002, "Optimisation de la memoire partagee": the gallery of shared-memory
// access patterns whose bank behaviour the slides discuss (16 banks on G80
// half-warps; 32 banks on every GPU since Fermi).  Every kernel first fills a
// shared array from global memory with linear (conflict-free) stores, waits at
// a barrier, then performs ONE shared load with the pattern under study and
// writes the loaded value to global memory so the load cannot be removed.
//
// 1-D float kernels (any blockDim.x; out has gridDim.x*blockDim.x elements):
//   block b fills sh[0..2047] from in[b*2048 ...] (0.0f past n), then thread t
//   reads sh[(base + S*t) & 2047] and writes it to out[b*blockDim.x + t].
//     bank_stride1/2/3/8/16/32 : S fixed at compile time
//     bank_stride_param        : S is the kernel parameter `stride`
//     bank_broadcast           : sh[base & 2047]   (same word for every thread)
//     bank_tid_mod2            : sh[t % 2]         (two broadcast words)
// Struct kernels (128 structs per block, filled from in[b*128*K ...], K floats
// per struct, 0.0f past n):
//     bank_vec3_linear / bank_vec3_broadcast : struct {float x,y,z}, P3[(base+t)&127]
//         / P3[base&127]; out[g] = (v.x + v.y) + v.z
//     bank_vec2_linear / bank_vec2_broadcast : struct {float f; int c}, Q2[...];
//         out[2g] = m.f, out[2g+1] = bits of m.c   (c is filled with the bits of
//         the second float of each pair)
// 8/16-bit elements: bank_u8 (signed char) and bank_s16 (short):
//   block b fills sh[0..2047] from in[b*2048 ...] (0 past n), thread t reads
//   sh[(base + t) & 2047] and writes it, sign-extended, to int out[g].
// 2-D 16x16 tiles (block 16x16, grid ceil(width/16) x ceil(height/16)):
//   the tile is loaded from in (height x width, 0.0f outside) and read back
//   by column: out[gy*width+gx] = tile[tx][ty]  (the element at row by*16+tx,
//   column bx*16+ty of in, or 0.0f if that lies outside in).
//     bank_2d_16x16_row  : Ms[16][16] read by row (plain copy, reference)
//     bank_2d_16x16_col  : Ms[16][16] read by column (16-way conflicts on G80)
//     bank_2d_16x17_col  : Ms[16][17] read by column (padding: no conflict)
//     bank_2d_diag       : Ms[16][16] with the diagonal layout
//                          Ms[ty][(tx+ty)%16] (no conflict either way)

#define SH 2048
#define NST 128

__device__ __forceinline__ void fill_floats(float *sh, const float *in, int n)
{
    int base = blockIdx.x * SH;
    for (int k = threadIdx.x; k < SH; k += blockDim.x)
        sh[k] = (base + k < n) ? in[base + k] : 0.0f;
    __syncthreads();
}

template <int S>
__device__ __forceinline__ void stride_read(const float *in, float *out, int n, int base)
{
    __shared__ float sh[SH];
    fill_floats(sh, in, n);
    float foo = sh[(base + S * threadIdx.x) & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_stride1(const float *in, float *out, int n, int base)
{ stride_read<1>(in, out, n, base); }
extern "C" __global__ void bank_stride2(const float *in, float *out, int n, int base)
{ stride_read<2>(in, out, n, base); }
extern "C" __global__ void bank_stride3(const float *in, float *out, int n, int base)
{ stride_read<3>(in, out, n, base); }
extern "C" __global__ void bank_stride8(const float *in, float *out, int n, int base)
{ stride_read<8>(in, out, n, base); }
extern "C" __global__ void bank_stride16(const float *in, float *out, int n, int base)
{ stride_read<16>(in, out, n, base); }
extern "C" __global__ void bank_stride32(const float *in, float *out, int n, int base)
{ stride_read<32>(in, out, n, base); }

extern "C" __global__ void bank_stride_param(const float *in, float *out, int n, int base, int stride)
{
    __shared__ float sh[SH];
    fill_floats(sh, in, n);
    float foo = sh[(base + stride * (int)threadIdx.x) & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_broadcast(const float *in, float *out, int n, int base)
{
    __shared__ float sh[SH];
    fill_floats(sh, in, n);
    float foo = sh[base & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_tid_mod2(const float *in, float *out, int n)
{
    __shared__ float sh[SH];
    fill_floats(sh, in, n);
    float foo = sh[threadIdx.x % 2];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

struct vec3 { float x, y, z; };
struct vec2 { float f; int c; };

__device__ __forceinline__ void fill_vec3(vec3 *P3, const float *in, int n)
{
    int base = blockIdx.x * NST * 3;
    for (int k = threadIdx.x; k < NST; k += blockDim.x) {
        int g = base + 3 * k;
        P3[k].x = (g < n) ? in[g] : 0.0f;
        P3[k].y = (g + 1 < n) ? in[g + 1] : 0.0f;
        P3[k].z = (g + 2 < n) ? in[g + 2] : 0.0f;
    }
    __syncthreads();
}

__device__ __forceinline__ void fill_vec2(vec2 *Q2, const float *in, int n)
{
    int base = blockIdx.x * NST * 2;
    for (int k = threadIdx.x; k < NST; k += blockDim.x) {
        int g = base + 2 * k;
        Q2[k].f = (g < n) ? in[g] : 0.0f;
        Q2[k].c = (g + 1 < n) ? __float_as_int(in[g + 1]) : 0;
    }
    __syncthreads();
}

extern "C" __global__ void bank_vec3_linear(const float *in, float *out, int n, int base)
{
    __shared__ struct vec3 P3[NST];
    fill_vec3(P3, in, n);
    struct vec3 v = P3[(base + threadIdx.x) & (NST - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v.x + v.y + v.z;
}

extern "C" __global__ void bank_vec3_broadcast(const float *in, float *out, int n, int base)
{
    __shared__ struct vec3 P3[NST];
    fill_vec3(P3, in, n);
    struct vec3 v = P3[base & (NST - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v.x + v.y + v.z;
}

extern "C" __global__ void bank_vec2_linear(const float *in, float *out, int n, int base)
{
    __shared__ struct vec2 Q2[NST];
    fill_vec2(Q2, in, n);
    struct vec2 m = Q2[(base + threadIdx.x) & (NST - 1)];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * g] = m.f;
    out[2 * g + 1] = __int_as_float(m.c);
}

extern "C" __global__ void bank_vec2_broadcast(const float *in, float *out, int n, int base)
{
    __shared__ struct vec2 Q2[NST];
    fill_vec2(Q2, in, n);
    struct vec2 m = Q2[base & (NST - 1)];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * g] = m.f;
    out[2 * g + 1] = __int_as_float(m.c);
}

extern "C" __global__ void bank_u8(const signed char *in, int *out, int n, int base)
{
    __shared__ signed char shared[SH];
    int b = blockIdx.x * SH;
    for (int k = threadIdx.x; k < SH; k += blockDim.x)
        shared[k] = (b + k < n) ? in[b + k] : 0;
    __syncthreads();
    signed char foo = shared[(base + threadIdx.x) & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_s16(const short *in, int *out, int n, int base)
{
    __shared__ short shared[SH];
    int b = blockIdx.x * SH;
    for (int k = threadIdx.x; k < SH; k += blockDim.x)
        shared[k] = (b + k < n) ? in[b + k] : 0;
    __syncthreads();
    short foo = shared[(base + threadIdx.x) & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_2d_16x16_row(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
    Ms[ty][tx] = (gx < width && gy < height) ? in[gy * width + gx] : 0.0f;
    __syncthreads();
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[ty][tx];
}

extern "C" __global__ void bank_2d_16x16_col(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
    Ms[ty][tx] = (gx < width && gy < height) ? in[gy * width + gx] : 0.0f;
    __syncthreads();
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[tx][ty];
}

extern "C" __global__ void bank_2d_16x17_col(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][17];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
    Ms[ty][tx] = (gx < width && gy < height) ? in[gy * width + gx] : 0.0f;
    __syncthreads();
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[tx][ty];
}

extern "C" __global__ void bank_2d_diag(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][16];
    int ty = threadIdx.y;
    int tx = (threadIdx.x + ty) % 16;          // the slides' skewed column
    int gx = blockIdx.x * 16 + threadIdx.x, gy = blockIdx.y * 16 + ty;
    Ms[ty][tx] = (gx < width && gy < height) ? in[gy * width + gx] : 0.0f;
    __syncthreads();
    // element (row threadIdx.x, column ty) of the tile lives at
    // Ms[threadIdx.x][(ty + threadIdx.x) % 16]
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[threadIdx.x][(ty + threadIdx.x) % 16];
}
