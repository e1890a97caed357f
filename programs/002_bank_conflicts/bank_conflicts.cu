// Seed 002, "Optimisation de la memoire partagee": the gallery of shared-memory
// access patterns whose bank behaviour the G80 slides discuss (16 banks served
// per half-warp on the G80; 32 banks and whole warps on every GPU since Maxwell).
// Hand-written PTX twin: bank_conflicts.ptx.
//
// Every kernel has exactly ONE shared-memory access pattern:
//   1. each thread FILLS, with the pattern under study, the word(s) that its
//      neighbour (lane t ^ 1, or (tx ^ 1, ty) in 2-D) will read, with the value
//      that belongs there (the value of in[] for that word, 0 past n);
//   2. __syncthreads();
//   3. each thread READS its own word(s) with the pattern under study (the
//      slides' `foo = shared[...]`) and writes them to out[] so the read is
//      observable.
// Lanes t and t ^ 1 sit in the same half-warp, so the store touches exactly
// the same words as the load: both cost the same, and the report's "shared
// wavefronts per request" is the cost of the pattern (per warp; the slides'
// "cycles" are per half-warp on the G80: half of it for a full warp).
//
// 1-D float kernels (any blockDim.x; out has gridDim.x*blockDim.x elements):
//   block b works on in[b*2048 ...]; the word w of sh[] holds in[b*2048 + w]
//   (0.0f past n); thread t reads sh[(base + S*t) & 2047] and writes it to
//   out[b*blockDim.x + t].
//     bank_stride1/2/3/8/16/32 : S fixed at compile time
//     bank_stride_param        : S is the kernel parameter `stride`
//     bank_broadcast           : sh[base & 2047]   (same word for every thread)
//     bank_tid_mod2            : sh[t % 2]         (two broadcast words)
// Struct kernels (128 structs per block, K floats per struct taken from
// in[b*128*K ...], 0.0f past n), read as separate 32-bit loads:
//     bank_vec3_linear / bank_vec3_broadcast : struct {float x,y,z}, P3[(base+t)&127]
//         / P3[base&127]; out[g] = (v.x + v.y) + v.z
//     bank_vec2_linear / bank_vec2_broadcast : struct {float f; int c}, Q2[...];
//         out[2g] = m.f, out[2g+1] = bits of m.c   (c holds the bits of the
//         second float of each pair)
// 8/16-bit elements: bank_u8 (signed char) and bank_s16 (short): element w of
//   block b is in[b*2048 + w] (0 past n); thread t reads shared[(base + t) & 2047]
//   and writes it, sign-extended, to int out[g].
// 2-D 16x16 tiles (block 16x16, grid ceil(width/16) x ceil(height/16)): tile
//   element (r, c) is in[(by*16 + r) * width + bx*16 + c] (0.0f outside in).
//   Thread (tx, ty) reads tile element (tx, ty) -- a COLUMN of the tile for the
//   16 lanes of a half-warp -- and writes it to out[gy*width + gx] (gx, gy its
//   own coordinates, inside the matrix only):
//     bank_2d_16x16_row  : Ms[16][16], element (r,c) at Ms[r][c], read by ROW instead:
//                          thread (tx,ty) reads element (ty,tx) (a plain copy)
//     bank_2d_16x16_col  : Ms[16][16], element (r,c) at Ms[r][c]   (16-way on G80)
//     bank_2d_16x17_col  : Ms[16][17], element (r,c) at Ms[r][c]   (padding)
//     bank_2d_diag       : Ms[16][16], element (r,c) at Ms[r][(c + r) % 16]
//                          (the slides' skewed layout: rows and columns both
//                          conflict-free)

#define SH 2048
#define NST 128

#define FULL_STRIDE_KERNEL(NAME, S)                                                    \
    extern "C" __global__ void NAME(const float *in, float *out, int n, int base)      \
    {                                                                                  \
        __shared__ float sh[SH];                                                       \
        int first = blockIdx.x * SH;                                                   \
        /* 1. fill the word lane t^1 reads, with the same pattern */                   \
        int w = (base + S * (threadIdx.x ^ 1)) & (SH - 1);                             \
        sh[w] = (first + w < n) ? in[first + w] : 0.0f;                                \
        __syncthreads();                                                               \
        /* 2. the access under study */                                                \
        float foo = sh[(base + S * threadIdx.x) & (SH - 1)];                           \
        out[blockIdx.x * blockDim.x + threadIdx.x] = foo;                              \
    }

FULL_STRIDE_KERNEL(bank_stride1, 1)
FULL_STRIDE_KERNEL(bank_stride2, 2)
FULL_STRIDE_KERNEL(bank_stride3, 3)
FULL_STRIDE_KERNEL(bank_stride8, 8)
FULL_STRIDE_KERNEL(bank_stride16, 16)
FULL_STRIDE_KERNEL(bank_stride32, 32)

extern "C" __global__ void bank_stride_param(const float *in, float *out, int n, int base, int stride)
{
    __shared__ float sh[SH];
    int first = blockIdx.x * SH;
    int w = (base + stride * (int)(threadIdx.x ^ 1)) & (SH - 1);
    sh[w] = (first + w < n) ? in[first + w] : 0.0f;
    __syncthreads();
    float foo = sh[(base + stride * (int)threadIdx.x) & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_broadcast(const float *in, float *out, int n, int base)
{
    __shared__ float sh[SH];
    int first = blockIdx.x * SH;
    int w = base & (SH - 1);
    sh[w] = (first + w < n) ? in[first + w] : 0.0f;   // every lane writes the same value
    __syncthreads();
    float foo = sh[base & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_tid_mod2(const float *in, float *out, int n)
{
    __shared__ float sh[SH];
    int first = blockIdx.x * SH;
    int w = (threadIdx.x ^ 1) % 2;                      // lanes of one parity write the same value
    sh[w] = (first + w < n) ? in[first + w] : 0.0f;
    __syncthreads();
    float foo = sh[threadIdx.x % 2];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

struct vec3 { float x, y, z; };
struct vec2 { float f; int c; };

__device__ __forceinline__ void fill_vec3(vec3 *P3, const float *in, int n, int k)
{
    int g = blockIdx.x * NST * 3 + 3 * k;
    P3[k].x = (g < n) ? in[g] : 0.0f;
    P3[k].y = (g + 1 < n) ? in[g + 1] : 0.0f;
    P3[k].z = (g + 2 < n) ? in[g + 2] : 0.0f;
}

__device__ __forceinline__ void fill_vec2(vec2 *Q2, const float *in, int n, int k)
{
    int g = blockIdx.x * NST * 2 + 2 * k;
    Q2[k].f = (g < n) ? in[g] : 0.0f;
    Q2[k].c = (g + 1 < n) ? __float_as_int(in[g + 1]) : 0;
}

extern "C" __global__ void bank_vec3_linear(const float *in, float *out, int n, int base)
{
    __shared__ struct vec3 P3[NST];
    fill_vec3(P3, in, n, (base + (threadIdx.x ^ 1)) & (NST - 1));
    __syncthreads();
    struct vec3 v = P3[(base + threadIdx.x) & (NST - 1)];   // 3 loads, lanes 3 words apart
    out[blockIdx.x * blockDim.x + threadIdx.x] = v.x + v.y + v.z;
}

extern "C" __global__ void bank_vec3_broadcast(const float *in, float *out, int n, int base)
{
    __shared__ struct vec3 P3[NST];
    fill_vec3(P3, in, n, base & (NST - 1));
    __syncthreads();
    struct vec3 v = P3[base & (NST - 1)];                    // 3 broadcast loads
    out[blockIdx.x * blockDim.x + threadIdx.x] = v.x + v.y + v.z;
}

extern "C" __global__ void bank_vec2_linear(const float *in, float *out, int n, int base)
{
    __shared__ struct vec2 Q2[NST];
    fill_vec2(Q2, in, n, (base + (threadIdx.x ^ 1)) & (NST - 1));
    __syncthreads();
    struct vec2 m = Q2[(base + threadIdx.x) & (NST - 1)];    // 2 loads, lanes 2 words apart
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * g] = m.f;
    out[2 * g + 1] = __int_as_float(m.c);
}

extern "C" __global__ void bank_vec2_broadcast(const float *in, float *out, int n, int base)
{
    __shared__ struct vec2 Q2[NST];
    fill_vec2(Q2, in, n, base & (NST - 1));
    __syncthreads();
    struct vec2 m = Q2[base & (NST - 1)];                    // 2 broadcast loads
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * g] = m.f;
    out[2 * g + 1] = __int_as_float(m.c);
}

extern "C" __global__ void bank_u8(const signed char *in, int *out, int n, int base)
{
    __shared__ signed char shared[SH];
    int first = blockIdx.x * SH;
    int w = (base + (threadIdx.x ^ 1)) & (SH - 1);
    shared[w] = (first + w < n) ? in[first + w] : 0;
    __syncthreads();
    signed char foo = shared[(base + threadIdx.x) & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

extern "C" __global__ void bank_s16(const short *in, int *out, int n, int base)
{
    __shared__ short shared[SH];
    int first = blockIdx.x * SH;
    int w = (base + (threadIdx.x ^ 1)) & (SH - 1);
    shared[w] = (first + w < n) ? in[first + w] : 0;
    __syncthreads();
    short foo = shared[(base + threadIdx.x) & (SH - 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = foo;
}

// Tile element (r, c), 0.0f outside the matrix.
__device__ __forceinline__ float tile_elem(const float *in, int width, int height, int r, int c)
{
    int gr = blockIdx.y * 16 + r, gc = blockIdx.x * 16 + c;
    return (gr < height && gc < width) ? in[gr * width + gc] : 0.0f;
}

extern "C" __global__ void bank_2d_16x16_row(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
    Ms[ty][tx ^ 1] = tile_elem(in, width, height, ty, tx ^ 1);   // Ms[ty][tx] = ... (by row)
    __syncthreads();
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[ty][tx];
}

extern "C" __global__ void bank_2d_16x16_col(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
    Ms[tx ^ 1][ty] = tile_elem(in, width, height, tx ^ 1, ty);   // by column
    __syncthreads();
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[tx][ty];
}

extern "C" __global__ void bank_2d_16x17_col(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][17];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
    Ms[tx ^ 1][ty] = tile_elem(in, width, height, tx ^ 1, ty);   // by column, padded rows
    __syncthreads();
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[tx][ty];
}

extern "C" __global__ void bank_2d_diag(const float *in, float *out, int width, int height)
{
    __shared__ float Ms[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * 16 + tx, gy = blockIdx.y * 16 + ty;
    // element (r, c) lives at Ms[r][(c + r) % 16]  (slides: tx = (threadIdx.x + ty) % 16)
    int r = tx ^ 1;
    Ms[r][(ty + r) % 16] = tile_elem(in, width, height, r, ty);
    __syncthreads();
    if (gx < width && gy < height)
        out[gy * width + gx] = Ms[tx][(ty + tx) % 16];
}
