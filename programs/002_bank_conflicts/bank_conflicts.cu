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

// ---- Host code (the seed has none): the launches of strides.launch,
// types.launch, tiles.launch and stride.launch, with their sizes and inputs
// (random floats, 8-bit and 16-bit ints, as the .launch files fill them),
// each timed and its output checked against the CPU: every kernel copies the
// words its access pattern reads, so the CPU recomputes which input each
// thread's word came from. The _g80.launch files run the same launches on
// the G80 preset: `warpsim run bank_conflicts.cu --arch g80` does the same here.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // random_f32/random_s32 (random=SEED) and timed (a launch between two events)
// signed: z % 2000 - 1000, kept to the element's width (its low bytes), as the .launch does
template <class T> static std::vector<T> random_signed(uint64_t seed, int n)
{
    std::vector<T> v(n);
    for (T &x : v)
        x = (T)((int)(splitmix64(seed) % 2000) - 1000);
    return v;
}


static bool ok = true;

// out[b * 64 + t] must be in[first + word(t)] (0 past n), first = b * SH: the 1-D float kernels, 2 blocks of 64
template <class Word> static void check_1d(const float *dout, const std::vector<float> &in, Word word)
{
    std::vector<float> got(128);
    cudaMemcpy(got.data(), dout, 128 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 64; t++) {
            int g = b * SH + word(t);
            ok = ok && got[b * 64 + t] == (g < (int)in.size() ? in[g] : 0.0f);
        }
}

int main()
{
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    const int n = 4096, base = 0;
    std::vector<float> in = random_f32(1, n);
    std::vector<signed char> in8 = random_signed<signed char>(2, n);
    std::vector<short> in16 = random_signed<short>(3, n);
    float *din, *dout[14];
    signed char *din8;
    short *din16;
    int *dout_u8, *dout_s16;
    cudaMalloc(&din, n * sizeof(float));
    cudaMalloc(&din8, n);
    cudaMalloc(&din16, n * sizeof(short));
    for (float *&d : dout)
        cudaMalloc(&d, 256 * sizeof(float));
    cudaMalloc(&dout_u8, 128 * sizeof(int));
    cudaMalloc(&dout_s16, 128 * sizeof(int));
    cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(din8, in8.data(), n, cudaMemcpyHostToDevice);
    cudaMemcpy(din16, in16.data(), n * sizeof(short), cudaMemcpyHostToDevice);

    // strides.launch: float foo = shared[base + s * tid], shared[constant], shared[tid % 2]
    dim3 grid(2), block(64);
    timed("shared[base + 1 * tid]", [&] { bank_stride1<<<grid, block>>>(din, dout[0], n, base); });
    timed("shared[base + 2 * tid]", [&] { bank_stride2<<<grid, block>>>(din, dout[1], n, base); });
    timed("shared[base + 3 * tid]", [&] { bank_stride3<<<grid, block>>>(din, dout[2], n, base); });
    timed("shared[base + 8 * tid]", [&] { bank_stride8<<<grid, block>>>(din, dout[3], n, base); });
    timed("shared[base + 16 * tid]", [&] { bank_stride16<<<grid, block>>>(din, dout[4], n, base); });
    timed("shared[base + 32 * tid]", [&] { bank_stride32<<<grid, block>>>(din, dout[5], n, base); });
    timed("shared[constant]", [&] { bank_broadcast<<<grid, block>>>(din, dout[6], n, base); });
    timed("shared[tid % 2]", [&] { bank_tid_mod2<<<grid, block>>>(din, dout[7], n); });
    const int strides[6] = {1, 2, 3, 8, 16, 32};
    for (int k = 0; k < 6; k++)
        check_1d(dout[k], in, [&](int t) { return (base + strides[k] * t) & (SH - 1); });
    check_1d(dout[6], in, [&](int) { return base & (SH - 1); });
    check_1d(dout[7], in, [&](int t) { return t % 2; });

    // types.launch: structs of 3 and 2 words, then 8-bit and 16-bit elements
    timed("struct vec3 v = P3[base + tid]", [&] { bank_vec3_linear<<<grid, block>>>(din, dout[8], n, base); });
    timed("struct vec3 v = P3[constant]", [&] { bank_vec3_broadcast<<<grid, block>>>(din, dout[9], n, base); });
    timed("struct vec2 m = Q2[base + tid]", [&] { bank_vec2_linear<<<grid, block>>>(din, dout[10], n, base); });
    timed("struct vec2 m = Q2[constant]", [&] { bank_vec2_broadcast<<<grid, block>>>(din, dout[11], n, base); });
    timed("char foo = shared[base + tid]", [&] { bank_u8<<<grid, block>>>(din8, dout_u8, n, base); });
    timed("short foo = shared[base + tid]", [&] { bank_s16<<<grid, block>>>(din16, dout_s16, n, base); });
    std::vector<float> got(256);
    std::vector<int> goti(128);
    for (int k = 0; k < 4; k++) {
        cudaMemcpy(got.data(), dout[8 + k], 256 * sizeof(float), cudaMemcpyDeviceToHost);
        for (int b = 0; b < 2; b++)
            for (int t = 0; t < 64; t++) {
                int s = (k % 2 == 0 ? base + t : base) & (NST - 1), g = b * 64 + t;
                if (k < 2) {   // (x + y) + z of struct s
                    const float *v = &in[b * NST * 3 + 3 * s];
                    ok = ok && got[g] == v[0] + v[1] + v[2];
                } else {       // f, then the bits of c
                    const float *v = &in[b * NST * 2 + 2 * s];
                    ok = ok && got[2 * g] == v[0] && got[2 * g + 1] == v[1];
                }
            }
    }
    cudaMemcpy(goti.data(), dout_u8, 128 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int g = 0; g < 128; g++)
        ok = ok && goti[g] == in8[(g / 64) * SH + ((base + g % 64) & (SH - 1))];
    cudaMemcpy(goti.data(), dout_s16, 128 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int g = 0; g < 128; g++)
        ok = ok && goti[g] == in16[(g / 64) * SH + ((base + g % 64) & (SH - 1))];

    // tiles.launch: a 32 x 32 matrix, blocks of 16 x 16 threads
    const int w = 32, h = 32;
    std::vector<float> tile_in = random_f32(1, w * h), tile_out(w * h);
    cudaMemcpy(din, tile_in.data(), w * h * sizeof(float), cudaMemcpyHostToDevice);
    float *dtile[4];
    for (float *&d : dtile)
        cudaMalloc(&d, w * h * sizeof(float));
    dim3 tgrid(2, 2), tblock(16, 16);
    timed("Ms[16][16] read by row", [&] { bank_2d_16x16_row<<<tgrid, tblock>>>(din, dtile[0], w, h); });
    timed("Ms[16][16] read by column", [&] { bank_2d_16x16_col<<<tgrid, tblock>>>(din, dtile[1], w, h); });
    timed("Ms[16][17] read by column", [&] { bank_2d_16x17_col<<<tgrid, tblock>>>(din, dtile[2], w, h); });
    timed("Ms[16][16] diagonal, read by column", [&] { bank_2d_diag<<<tgrid, tblock>>>(din, dtile[3], w, h); });
    for (int k = 0; k < 4; k++) {
        cudaMemcpy(tile_out.data(), dtile[k], w * h * sizeof(float), cudaMemcpyDeviceToHost);
        for (int gy = 0; gy < h; gy++)
            for (int gx = 0; gx < w; gx++) {
                int ty = gy % 16, tx = gx % 16, r0 = gy - ty, c0 = gx - tx;
                // by row: element (ty, tx), a copy; by column: element (tx, ty) of the tile
                float want = k == 0 ? tile_in[gy * w + gx] : tile_in[(r0 + tx) * w + c0 + ty];
                ok = ok && tile_out[gy * w + gx] == want;
            }
    }

    // stride.launch: shared[base + stride * tid] with the stride a parameter, one warp
    std::vector<float> in4 = random_f32(4, 2048);
    cudaMemcpy(din, in4.data(), 2048 * sizeof(float), cudaMemcpyHostToDevice);
    timed("shared[base + stride * tid], stride 7", [&] { bank_stride_param<<<1, 32>>>(din, dout[12], 2048, 0, 7); });
    cudaMemcpy(got.data(), dout[12], 32 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++)
        ok = ok && got[t] == in4[(7 * t) & (SH - 1)];

    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    cudaFree(din8);
    cudaFree(din16);
    for (float *d : dout)
        cudaFree(d);
    for (float *d : dtile)
        cudaFree(d);
    cudaFree(dout_u8);
    cudaFree(dout_s16);
    return ok ? 0 : 1;
}
