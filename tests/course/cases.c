/* Course kernels (the exercises' programs/NNN_x/X.cu and the extra ones in tests/cu, their
 * PTX in tests/nvcc, made by tests/cu/regen.sh) with their launch descriptions and exact
 * C references.
 *
 * Each reference receives the buffers as initialised before the run and
 * rewrites the output buffers in place with what the GPU produces, bit for
 * bit.  The rules followed everywhere:
 *  - float arithmetic is done in float (FLT_EVAL_METHOD 0 on x86-64/SSE and
 *    aarch64), one IEEE operation per PTX instruction: nvcc contracts
 *    "s += a * b" into fma.rn.f32, so the references call fmaf() in the same
 *    order; where the PTX has a separate mul.rn/add.rn the C code does the
 *    same, and the compiler must not contract it (see the pragmas below);
 *  - reductions replay the kernel's own tree (block by block, step by step,
 *    warp shuffles lane by lane);
 *  - integer arithmetic that wraps on the GPU is done on uint32_t;
 *  - the sizes, grids, blocks and scalar arguments are read back from the
 *    case's own launch text (launch_parse), so the text and the reference
 *    cannot disagree.
 * Output buffers are often larger than what the kernel writes and are
 * initialised with random data, so that a stray write past n is caught.
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "isa/bits.h"
#include "cases.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* helpers                                                             */

#define MAX_ARGS 16

typedef struct {
    unsigned grid[3], block[3];
    unsigned shared;
    int nargs;
    long long arg[MAX_ARGS]; /* scalar argument values (0 for a buffer) */
} launch_info;

static void parse_dims(const char *s, unsigned d[3])
{
    char *end;
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        d[k] = (unsigned)strtoul(s, &end, 10);
        if (*end != ',')
            break;
        s = end + 1;
    }
}

/* Read launch group `group` (0 = first `kernel` line) of a launch text. */
static launch_info launch_parse(const char *text, int group)
{
    launch_info L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = L.block[1] = L.block[2] = 1;
    int g = -1;
    const char *p = text;
    while (*p) {
        char line[256];
        size_t len = strcspn(p, "\n");
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p += strcspn(p, "\n");
        if (*p)
            p++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        char *key = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!strcmp(key, "kernel")) {
            g++;
            continue;
        }
        if (g != group)
            continue;
        if (!strcmp(key, "grid"))
            parse_dims(s, L.grid);
        else if (!strcmp(key, "block"))
            parse_dims(s, L.block);
        else if (!strcmp(key, "shared"))
            L.shared = (unsigned)strtoul(s, NULL, 10);
        else if (!strcmp(key, "arg") && L.nargs < MAX_ARGS) {
            const char *colon = strchr(s, ':');
            L.arg[L.nargs] = colon ? strtoll(colon + 1, NULL, 0) : 0;
            L.nargs++;
        }
    }
    if (g < group) {
        fprintf(stderr, "course reference: launch group %d missing\n", group);
        abort();
    }
    return L;
}

static void *need(ref_buffers *b, const char *name, size_t min_count)
{
    size_t n = 0;
    void *p = ref_buf(b, name, &n);
    if (!p || n < min_count) {
        fprintf(stderr, "course reference: buffer %s missing or too small (%zu < %zu)\n",
                name, p ? n : (size_t)0, min_count);
        abort();
    }
    return p;
}

#define F32(name, n) ((float *)need(b, (name), (size_t)(n)))
#define S32(name, n) ((int32_t *)need(b, (name), (size_t)(n)))
#define U32(name, n) ((uint32_t *)need(b, (name), (size_t)(n)))
#define S16(name, n) ((int16_t *)need(b, (name), (size_t)(n)))
#define S8(name, n) ((int8_t *)need(b, (name), (size_t)(n)))
#define U64(name, n) ((uint64_t *)need(b, (name), (size_t)(n)))

#define ARG(L, k) ((int)(L).arg[(k)])

static float u2f(uint32_t u) { return ptx_bits_f32(u); }

/* Sequential-addressing tree on r[0..bs): for s = bs/2 .. 1: r[t] += r[t+s], t < s. */
void course_tree_sequential(float *r, unsigned bs)
{
    for (unsigned s = bs / 2; s > 0; s >>= 1)
        for (unsigned t = 0; t < s; t++)
            r[t] = r[t] + r[t + s];
}

/* Interleaved tree: for s = 1, 2, 4 ..: r[t] += r[t+s] for t multiple of 2s.
 * (reduce_interleaved_divergent with tid % (2s) == 0 and
 * reduce_interleaved_strided with index = 2*s*tid do exactly these adds.) */
void course_tree_interleaved(float *r, unsigned bs)
{
    for (unsigned s = 1; s < bs; s *= 2)
        for (unsigned t = 0; t + s < bs; t += 2 * s)
            r[t] = r[t] + r[t + s];
}

/* ================================================================== */
/* 001_vector_add                                                      */

static const char L_vector_add_naive[] =
    "# C is larger than N and random: the 240 threads past N must not write\n"
    "kernel vector_add_naive\n"
    "grid 40\n"
    "block 256\n"
    "buf A=f32:10000:random=1\n"
    "buf B=f32:10000:random=2\n"
    "buf C=f32:10240:random=3\n"
    "arg A\n"
    "arg B\n"
    "arg C\n"
    "arg s32:10000\n";

static void ref_vector_add_naive(ref_buffers *b)
{
    launch_info L = launch_parse(L_vector_add_naive, 0);
    int n = ARG(L, 3);
    float *A = F32("A", n), *B = F32("B", n), *C = F32("C", n);
    for (int i = 0; i < n; i++)
        C[i] = A[i] + B[i];
}

static const char L_vector_add_optimized[] =
    "# grid-stride loop: 8 x 128 threads cover 10007 elements\n"
    "kernel vector_add_optimized\n"
    "grid 8\n"
    "block 128\n"
    "buf A=f32:10007:random=4\n"
    "buf B=f32:10007:random=5\n"
    "buf C=f32:10050:random=6\n"
    "arg A\n"
    "arg B\n"
    "arg C\n"
    "arg s32:10007\n";

static void ref_vector_add_optimized(ref_buffers *b)
{
    launch_info L = launch_parse(L_vector_add_optimized, 0);
    int n = ARG(L, 3);
    float *A = F32("A", n), *B = F32("B", n), *C = F32("C", n);
    for (int i = 0; i < n; i++)
        C[i] = A[i] + B[i];
}

/* ================================================================== */
/* 001_matmul                                                          */

static const char L_matmul_naive[] =
    "kernel matmul_naive\n"
    "grid 3,3\n"
    "block 32,32\n"
    "buf A=f32:4900:random=11\n"
    "buf B=f32:4900:random=12\n"
    "buf C=f32:4900:random=13\n"
    "arg A\n"
    "arg B\n"
    "arg C\n"
    "arg s32:70\n";

static void ref_matmul_naive(ref_buffers *b)
{
    launch_info L = launch_parse(L_matmul_naive, 0);
    int n = ARG(L, 3);
    float *A = F32("A", n * n), *B = F32("B", n * n), *C = F32("C", n * n);
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            float sum = 0.0f;
            for (int k = 0; k < n; k++)
                sum = fmaf(A[row * n + k], B[k * n + col], sum);
            C[row * n + col] = sum;
        }
}

static const char L_matmul_optimized[] =
    "kernel matmul_optimized\n"
    "grid 3,3\n"
    "block 32,32\n"
    "buf A=f32:4900:random=14\n"
    "buf B=f32:4900:random=15\n"
    "buf C=f32:4900:random=16\n"
    "arg A\n"
    "arg B\n"
    "arg C\n"
    "arg s32:70\n";

static void ref_matmul_optimized(ref_buffers *b)
{
    launch_info L = launch_parse(L_matmul_optimized, 0);
    int n = ARG(L, 3);
    const int T = 32;
    float *A = F32("A", n * n), *B = F32("B", n * n), *C = F32("C", n * n);
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            float sum = 0.0f;
            /* the padded zeros are part of the fma chain, as on the GPU */
            for (int t = 0; t < (n + T - 1) / T; t++)
                for (int k = 0; k < T; k++) {
                    int kk = t * T + k;
                    float a = (kk < n) ? A[row * n + kk] : 0.0f;
                    float bb = (kk < n) ? B[kk * n + col] : 0.0f;
                    sum = fmaf(a, bb, sum);
                }
            C[row * n + col] = sum;
        }
}

/* ================================================================== */
/* 001_transpose                                                       */

/* The seed kernels: out[x*N+y] = tile[tx][ty] = element (by*32+tx, bx*32+ty)
 * of in, or 0.0f when that source lies outside the matrix. */
static void seed_transpose(float *in, float *out, int N)
{
    for (int x = 0; x < N; x++)
        for (int y = 0; y < N; y++) {
            int bx = x / 32, tx = x % 32, by = y / 32, ty = y % 32;
            int sr = by * 32 + tx, sc = bx * 32 + ty; /* source row, column */
            out[x * N + y] = (sr < N && sc < N) ? in[sr * N + sc] : 0.0f;
        }
}

static const char L_transpose_with_bank_conflicts[] =
    "kernel transpose_with_bank_conflicts\n"
    "grid 3,3\n"
    "block 32,32\n"
    "buf in=f32:4900:random=21\n"
    "buf out=f32:4900:random=22\n"
    "arg in\n"
    "arg out\n"
    "arg s32:70\n";

static void ref_transpose_with_bank_conflicts(ref_buffers *b)
{
    launch_info L = launch_parse(L_transpose_with_bank_conflicts, 0);
    int n = ARG(L, 2);
    seed_transpose(F32("in", n * n), F32("out", n * n), n);
}

static const char L_transpose_without_bank_conflicts[] =
    "kernel transpose_without_bank_conflicts\n"
    "grid 3,3\n"
    "block 32,32\n"
    "buf in=f32:4900:random=23\n"
    "buf out=f32:4900:random=24\n"
    "arg in\n"
    "arg out\n"
    "arg s32:70\n";

static void ref_transpose_without_bank_conflicts(ref_buffers *b)
{
    launch_info L = launch_parse(L_transpose_without_bank_conflicts, 0);
    int n = ARG(L, 2);
    seed_transpose(F32("in", n * n), F32("out", n * n), n);
}

static const char L_transpose_coalesced[] =
    "# in: 50 rows x 75 columns; out: 75 x 50\n"
    "kernel transpose_coalesced\n"
    "grid 3,2\n"
    "block 32,32\n"
    "buf in=f32:3750:random=25\n"
    "buf out=f32:3750:random=26\n"
    "arg in\n"
    "arg out\n"
    "arg s32:75\n"
    "arg s32:50\n";

static void ref_transpose_coalesced(ref_buffers *b)
{
    launch_info L = launch_parse(L_transpose_coalesced, 0);
    int w = ARG(L, 2), h = ARG(L, 3);
    float *in = F32("in", w * h), *out = F32("out", w * h);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            out[c * h + r] = in[r * w + c];
}

/* ================================================================== */
/* 001_reduction                                                       */

static const char L_reduce_global[] =
    "kernel reduce_global\n"
    "grid 40\n"
    "block 256\n"
    "buf data=f32:10000:random=31\n"
    "buf out=f32:40:random=32\n"
    "arg data\n"
    "arg out\n"
    "arg s32:10000\n";

static void ref_reduce_global(ref_buffers *b)
{
    launch_info L = launch_parse(L_reduce_global, 0);
    unsigned n = (unsigned)ARG(L, 2), bs = L.block[0], grid = L.grid[0];
    float *data = F32("data", n), *out = F32("out", grid);
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned s = bs / 2; s > 0; s >>= 1)
            for (unsigned t = 0; t < s; t++) {
                unsigned i = blk * bs + t;
                if (i + s < n)
                    data[i] = data[i] + data[i + s];
            }
        out[blk] = data[blk * bs];
    }
}

/* Shared-memory kernels: one partial per block of blockDim.x elements. */
void course_block_partials(const float *in, float *out, unsigned n, unsigned grid, unsigned bs,
                           void (*tree)(float *, unsigned))
{
    float r[1024];
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * bs + t;
            r[t] = (i < n) ? in[i] : 0.0f;
        }
        tree(r, bs);
        out[blk] = r[0];
    }
}

#define SHARED_REDUCTION_CASE(NAME, SEED, TREE)                                 \
    static const char L_##NAME[] =                                              \
        "kernel " #NAME "\n"                                                    \
        "grid 40\n"                                                             \
        "block 256\n"                                                           \
        "shared 1024\n"                                                         \
        "buf in=f32:10000:random=" #SEED "\n"                                   \
        "buf out=f32:40:random=99\n"                                            \
        "arg in\n"                                                              \
        "arg out\n"                                                             \
        "arg s32:10000\n";                                                      \
    static void ref_##NAME(ref_buffers *b)                                      \
    {                                                                           \
        launch_info L = launch_parse(L_##NAME, 0);                              \
        unsigned n = (unsigned)ARG(L, 2);                                       \
        course_block_partials(F32("in", n), F32("out", L.grid[0]), n, L.grid[0],       \
                       L.block[0], TREE);                                       \
    }

SHARED_REDUCTION_CASE(reduce_interleaved_divergent, 33, course_tree_interleaved)
SHARED_REDUCTION_CASE(reduce_interleaved_strided, 34, course_tree_interleaved)
SHARED_REDUCTION_CASE(reduce_sequential, 35, course_tree_sequential)

/* reduce_optimized: 2*blockDim.x elements per block, registers, sequential
 * addressing while s > 32, then sum += sdata[tid+32] and a shuffle-down tree. */
static void optimized_partials(const float *in, float *out, unsigned n, unsigned grid, unsigned bs)
{
    float sum[1024], sdata[1024];
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * (bs * 2) + t;
            sum[t] = (i < n) ? in[i] : 0.0f;
            if (i + bs < n)
                sum[t] = sum[t] + in[i + bs];
            sdata[t] = sum[t];
        }
        for (unsigned s = bs / 2; s > 32; s >>= 1)
            for (unsigned t = 0; t < s; t++)
                sdata[t] = sum[t] = sum[t] + sdata[t + s];
        float v[32];
        for (unsigned t = 0; t < 32; t++)
            v[t] = sum[t] + sdata[t + 32];
        for (unsigned off = 16; off > 0; off >>= 1) {
            float nv[32];
            for (unsigned l = 0; l < 32; l++)
                nv[l] = v[l] + ((l + off < 32) ? v[l + off] : v[l]);
            memcpy(v, nv, sizeof v);
        }
        out[blk] = v[0];
    }
}

static const char L_reduce_optimized[] =
    "# 2*256 elements per block: grid = ceil(10000/512)\n"
    "kernel reduce_optimized\n"
    "grid 20\n"
    "block 256\n"
    "shared 1024\n"
    "buf in=f32:10000:random=36\n"
    "buf out=f32:20:random=37\n"
    "arg in\n"
    "arg out\n"
    "arg s32:10000\n";

static void ref_reduce_optimized(ref_buffers *b)
{
    launch_info L = launch_parse(L_reduce_optimized, 0);
    unsigned n = (unsigned)ARG(L, 2);
    optimized_partials(F32("in", n), F32("out", L.grid[0]), n, L.grid[0], L.block[0]);
}

static const char L_reduce_optimized_2pass[] =
    "# pass 1: 50000 -> 98 partials; pass 2: one 64-thread block sums them\n"
    "kernel reduce_optimized\n"
    "grid 98\n"
    "block 256\n"
    "shared 1024\n"
    "buf in=f32:50000:random=38\n"
    "buf P=f32:98:random=39\n"
    "buf Q=f32:2:random=40\n"
    "arg in\n"
    "arg P\n"
    "arg s32:50000\n"
    "kernel reduce_optimized\n"
    "grid 1\n"
    "block 64\n"
    "shared 256\n"
    "arg P\n"
    "arg Q\n"
    "arg s32:98\n";

static void ref_reduce_optimized_2pass(ref_buffers *b)
{
    launch_info L1 = launch_parse(L_reduce_optimized_2pass, 0);
    launch_info L2 = launch_parse(L_reduce_optimized_2pass, 1);
    unsigned n1 = (unsigned)ARG(L1, 2), n2 = (unsigned)ARG(L2, 2);
    float *P = F32("P", n2);
    optimized_partials(F32("in", n1), P, n1, L1.grid[0], L1.block[0]);
    optimized_partials(P, F32("Q", 1), n2, L2.grid[0], L2.block[0]);
}

/* ================================================================== */
/* 002_matmul_g80                                                      */

static const char L_MatrixMulKernel[] =
    "# one 24x24 block for a 20x20 product (threads with tx or ty >= 20 return);\n"
    "# row pitches 23, 21 and 25 floats; P's padding columns must stay untouched\n"
    "kernel MatrixMulKernel\n"
    "grid 1\n"
    "block 24,24\n"
    "buf M=f32:460:random=41\n"
    "buf N=f32:420:random=42\n"
    "buf P=f32:500:random=43\n"
    "arg M\n"
    "arg N\n"
    "arg P\n"
    "arg s32:20\n"
    "arg s32:23\n"
    "arg s32:21\n"
    "arg s32:25\n";

static void ref_MatrixMulKernel(ref_buffers *b)
{
    launch_info L = launch_parse(L_MatrixMulKernel, 0);
    int w = ARG(L, 3), mp = ARG(L, 4), np = ARG(L, 5), pp = ARG(L, 6);
    float *M = F32("M", w * mp), *N = F32("N", w * np), *P = F32("P", w * pp);
    for (int ty = 0; ty < w; ty++)
        for (int tx = 0; tx < w; tx++) {
            float sum = 0.0f;
            for (int k = 0; k < w; k++)
                sum = fmaf(M[ty * mp + k], N[k * np + tx], sum);
            P[ty * pp + tx] = sum;
        }
}

static const char L_blocMatrixMultiply[] =
    "# M 48x80 (pitch 83), N 80x64 (pitch 64), P 48x64 (pitch 70); multiples of 16\n"
    "# as the slides require; 2*16*16*4 bytes of dynamic shared as in the slides\n"
    "kernel blocMatrixMultiply\n"
    "grid 4,3\n"
    "block 16,16\n"
    "shared 2048\n"
    "buf M=f32:3984:random=44\n"
    "buf N=f32:5120:random=45\n"
    "buf P=f32:3360:random=46\n"
    "arg M\n"
    "arg N\n"
    "arg P\n"
    "arg s32:80\n"
    "arg s32:48\n"
    "arg s32:64\n"
    "arg s32:83\n"
    "arg s32:64\n"
    "arg s32:70\n";

static void ref_blocMatrixMultiply(ref_buffers *b)
{
    launch_info L = launch_parse(L_blocMatrixMultiply, 0);
    int mw = ARG(L, 3), mh = ARG(L, 4), nw = ARG(L, 5);
    int mp = ARG(L, 6), np = ARG(L, 7), pp = ARG(L, 8);
    float *M = F32("M", mh * mp), *N = F32("N", mw * np), *P = F32("P", mh * pp);
    for (int r = 0; r < mh; r++)
        for (int c = 0; c < nw; c++) {
            float sum = 0.0f;
            for (int m = 0; m < mw / 16; m++)
                for (int k = 0; k < 16; k++)
                    sum = fmaf(M[r * mp + m * 16 + k], N[(m * 16 + k) * np + c], sum);
            P[r * pp + c] = sum;
        }
}

/* ================================================================== */
/* 002_predication                                                     */

static void predication_ref(ref_buffers *b, const char *text)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2);
    int32_t *X = S32("X", n), *C = S32("C", n);
    for (int i = 0; i < n; i++)
        if (X[i] == 10)
            C[i] = (int32_t)((uint32_t)C[i] + 1u);
}

static const char L_predication_if_random[] =
    "# X random in [-1000,1000): X == 10 for about 1 element in 2000\n"
    "kernel predication_if\n"
    "grid 79\n"
    "block 256\n"
    "buf X=s32:20000:random=51\n"
    "buf C=s32:20224:random=52\n"
    "arg X\n"
    "arg C\n"
    "arg s32:20000\n";

static void ref_predication_if_random(ref_buffers *b)
{
    predication_ref(b, L_predication_if_random);
}

static const char L_predication_if_all[] =
    "kernel predication_if\n"
    "grid 4\n"
    "block 256\n"
    "buf X=s32:1000:const=10\n"
    "buf C=s32:1024:random=53\n"
    "arg X\n"
    "arg C\n"
    "arg s32:1000\n";

static void ref_predication_if_all(ref_buffers *b)
{
    predication_ref(b, L_predication_if_all);
}

static const char L_predication_if_iota[] =
    "# X[i] = i: only C[10] changes\n"
    "kernel predication_if\n"
    "grid 1\n"
    "block 64\n"
    "buf X=s32:50:iota\n"
    "buf C=s32:64:random=54\n"
    "arg X\n"
    "arg C\n"
    "arg s32:50\n";

static void ref_predication_if_iota(ref_buffers *b)
{
    predication_ref(b, L_predication_if_iota);
}

/* predication_branch: the same C code as predication_if, which nvcc also
 * compiles to a guarded store; the result must be the same. */
static const char L_predication_branch_random[] =
    "kernel predication_branch\n"
    "grid 79\n"
    "block 256\n"
    "buf X=s32:20000:random=55\n"
    "buf C=s32:20224:random=56\n"
    "arg X\n"
    "arg C\n"
    "arg s32:20000\n";

static void ref_predication_branch_random(ref_buffers *b)
{
    predication_ref(b, L_predication_branch_random);
}

/* ================================================================== */
/* 002_bank_conflicts                                                  */
/* 1-D float kernels: block blk fills sh[k] = in[blk*2048 + k] (0 past n),
 * thread t reads sh[idx(t)] and stores it to out[blk*blockDim + t]. */

#define SH 2048

static float sh_value(const float *in, int n, unsigned blk, unsigned idx)
{
    unsigned g = blk * SH + idx;
    return (g < (unsigned)n) ? in[g] : 0.0f;
}

/* mode: S >= 0: index (base + S*t) & 2047; -1: broadcast base & 2047; -2: t % 2 */
static void bank_1d_ref(ref_buffers *b, const char *text, int S, int mode_base_arg)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2);
    int base = mode_base_arg ? ARG(L, 3) : 0;
    unsigned grid = L.grid[0], bs = L.block[0];
    float *in = F32("in", n), *out = F32("out", grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned idx;
            if (S >= 0)
                idx = ((uint32_t)base + (uint32_t)S * t) & (SH - 1);
            else if (S == -1)
                idx = (uint32_t)base & (SH - 1);
            else
                idx = t % 2;
            out[blk * bs + t] = sh_value(in, n, blk, idx);
        }
}

#define BANK_STRIDE_CASE(S, SEED)                                               \
    static const char L_bank_stride##S[] =                                      \
        "kernel bank_stride" #S "\n"                                            \
        "grid 3\n"                                                              \
        "block 64\n"                                                            \
        "buf in=f32:5000:random=" #SEED "\n"                                    \
        "buf out=f32:192:random=60\n"                                           \
        "arg in\n"                                                              \
        "arg out\n"                                                             \
        "arg s32:5000\n"                                                        \
        "arg s32:5\n";                                                          \
    static void ref_bank_stride##S(ref_buffers *b)                              \
    {                                                                           \
        bank_1d_ref(b, L_bank_stride##S, S, 1);                                 \
    }

BANK_STRIDE_CASE(1, 61)
BANK_STRIDE_CASE(2, 62)
BANK_STRIDE_CASE(3, 63)
BANK_STRIDE_CASE(8, 64)
BANK_STRIDE_CASE(16, 65)
BANK_STRIDE_CASE(32, 66)

static const char L_bank_stride_param[] =
    "# stride 7 (odd: conflict-free), base 9\n"
    "kernel bank_stride_param\n"
    "grid 3\n"
    "block 64\n"
    "buf in=f32:5000:random=67\n"
    "buf out=f32:192:random=60\n"
    "arg in\n"
    "arg out\n"
    "arg s32:5000\n"
    "arg s32:9\n"
    "arg s32:7\n";

static void ref_bank_stride_param(ref_buffers *b)
{
    launch_info L = launch_parse(L_bank_stride_param, 0);
    bank_1d_ref(b, L_bank_stride_param, ARG(L, 4), 1);
}

static const char L_bank_broadcast[] =
    "kernel bank_broadcast\n"
    "grid 3\n"
    "block 64\n"
    "buf in=f32:5000:random=68\n"
    "buf out=f32:192:random=60\n"
    "arg in\n"
    "arg out\n"
    "arg s32:5000\n"
    "arg s32:37\n";

static void ref_bank_broadcast(ref_buffers *b)
{
    bank_1d_ref(b, L_bank_broadcast, -1, 1);
}

static const char L_bank_tid_mod2[] =
    "kernel bank_tid_mod2\n"
    "grid 3\n"
    "block 64\n"
    "buf in=f32:5000:random=69\n"
    "buf out=f32:192:random=60\n"
    "arg in\n"
    "arg out\n"
    "arg s32:5000\n";

static void ref_bank_tid_mod2(ref_buffers *b)
{
    bank_1d_ref(b, L_bank_tid_mod2, -2, 0);
}

/* struct vec3 {x,y,z}: 128 per block from in[blk*384 ...]; out = (x + y) + z */
static void bank_vec3_ref(ref_buffers *b, const char *text, int broadcast)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2), base = ARG(L, 3);
    unsigned grid = L.grid[0], bs = L.block[0];
    float *in = F32("in", n), *out = F32("out", grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned k = broadcast ? ((uint32_t)base & 127u) : (((uint32_t)base + t) & 127u);
            unsigned g = blk * 384 + 3 * k;
            float x = (g < (unsigned)n) ? in[g] : 0.0f;
            float y = (g + 1 < (unsigned)n) ? in[g + 1] : 0.0f;
            float z = (g + 2 < (unsigned)n) ? in[g + 2] : 0.0f;
            out[blk * bs + t] = (x + y) + z;
        }
}

/* struct vec2 {float f; int c}: 128 per block from in[blk*256 ...];
 * out[2g] = f, out[2g+1] = c (the bits of the second float) */
static void bank_vec2_ref(ref_buffers *b, const char *text, int broadcast)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2), base = ARG(L, 3);
    unsigned grid = L.grid[0], bs = L.block[0];
    float *in = F32("in", n), *out = F32("out", 2 * grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned k = broadcast ? ((uint32_t)base & 127u) : (((uint32_t)base + t) & 127u);
            unsigned g = blk * 256 + 2 * k;
            unsigned o = blk * bs + t;
            out[2 * o] = (g < (unsigned)n) ? in[g] : 0.0f;
            out[2 * o + 1] = (g + 1 < (unsigned)n) ? in[g + 1] : u2f(0);
        }
}

#define BANK_STRUCT_CASE(NAME, NIN, NOUT, SEED, REF, BC)                        \
    static const char L_##NAME[] =                                              \
        "kernel " #NAME "\n"                                                    \
        "grid 3\n"                                                              \
        "block 64\n"                                                            \
        "buf in=f32:" #NIN ":random=" #SEED "\n"                                \
        "buf out=f32:" #NOUT ":random=60\n"                                     \
        "arg in\n"                                                              \
        "arg out\n"                                                             \
        "arg s32:" #NIN "\n"                                                    \
        "arg s32:3\n";                                                          \
    static void ref_##NAME(ref_buffers *b)                                      \
    {                                                                           \
        REF(b, L_##NAME, BC);                                                   \
    }

/* 3 blocks cover 3*384 = 1152 floats (vec3) or 3*256 = 768 (vec2): n is smaller */
BANK_STRUCT_CASE(bank_vec3_linear, 1000, 192, 71, bank_vec3_ref, 0)
BANK_STRUCT_CASE(bank_vec3_broadcast, 1000, 192, 72, bank_vec3_ref, 1)
BANK_STRUCT_CASE(bank_vec2_linear, 700, 384, 73, bank_vec2_ref, 0)
BANK_STRUCT_CASE(bank_vec2_broadcast, 700, 384, 74, bank_vec2_ref, 1)

static const char L_bank_u8[] =
    "kernel bank_u8\n"
    "grid 3\n"
    "block 64\n"
    "buf in=s8:5000:random=75\n"
    "buf out=s32:192:random=76\n"
    "arg in\n"
    "arg out\n"
    "arg s32:5000\n"
    "arg s32:5\n";

static void ref_bank_u8(ref_buffers *b)
{
    launch_info L = launch_parse(L_bank_u8, 0);
    int n = ARG(L, 2), base = ARG(L, 3);
    unsigned grid = L.grid[0], bs = L.block[0];
    int8_t *in = S8("in", n);
    int32_t *out = S32("out", grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned g = blk * SH + (((uint32_t)base + t) & (SH - 1));
            out[blk * bs + t] = (g < (unsigned)n) ? in[g] : 0;
        }
}

static const char L_bank_s16[] =
    "kernel bank_s16\n"
    "grid 3\n"
    "block 64\n"
    "buf in=s16:5000:random=77\n"
    "buf out=s32:192:random=78\n"
    "arg in\n"
    "arg out\n"
    "arg s32:5000\n"
    "arg s32:5\n";

static void ref_bank_s16(ref_buffers *b)
{
    launch_info L = launch_parse(L_bank_s16, 0);
    int n = ARG(L, 2), base = ARG(L, 3);
    unsigned grid = L.grid[0], bs = L.block[0];
    int16_t *in = S16("in", n);
    int32_t *out = S32("out", grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned g = blk * SH + (((uint32_t)base + t) & (SH - 1));
            out[blk * bs + t] = (g < (unsigned)n) ? in[g] : 0;
        }
}

/* 2-D 16x16 tiles: out[gy*w+gx] = in[(by*16+tx)*w + bx*16+ty] or 0 (row-read
 * kernel: a plain copy). */
static void bank_2d_ref(ref_buffers *b, const char *text, int by_row)
{
    launch_info L = launch_parse(text, 0);
    int w = ARG(L, 2), h = ARG(L, 3);
    float *in = F32("in", w * h), *out = F32("out", w * h);
    for (int gy = 0; gy < h; gy++)
        for (int gx = 0; gx < w; gx++) {
            if (by_row) {
                out[gy * w + gx] = in[gy * w + gx];
                continue;
            }
            int bx = gx / 16, tx = gx % 16, by = gy / 16, ty = gy % 16;
            int sr = by * 16 + tx, sc = bx * 16 + ty;
            out[gy * w + gx] = (sr < h && sc < w) ? in[sr * w + sc] : 0.0f;
        }
}

#define BANK_2D_CASE(NAME, SEED, ROW)                                           \
    static const char L_##NAME[] =                                              \
        "# in and out: 35 rows x 40 columns\n"                                  \
        "kernel " #NAME "\n"                                                    \
        "grid 3,3\n"                                                            \
        "block 16,16\n"                                                         \
        "buf in=f32:1400:random=" #SEED "\n"                                    \
        "buf out=f32:1400:random=80\n"                                          \
        "arg in\n"                                                              \
        "arg out\n"                                                             \
        "arg s32:40\n"                                                          \
        "arg s32:35\n";                                                         \
    static void ref_##NAME(ref_buffers *b)                                      \
    {                                                                           \
        bank_2d_ref(b, L_##NAME, ROW);                                          \
    }

BANK_2D_CASE(bank_2d_16x16_row, 81, 1)
BANK_2D_CASE(bank_2d_16x16_col, 82, 0)
BANK_2D_CASE(bank_2d_16x17_col, 83, 0)
BANK_2D_CASE(bank_2d_diag, 84, 0)

/* ================================================================== */
/* 002_coalescing: copies (n = 1000, 4 blocks of 256 threads)          */

/* out[k] = in[k] for k < count */
static void copy_ref(ref_buffers *b, size_t count)
{
    float *in = F32("in", count), *out = F32("out", count);
    memcpy(out, in, count * sizeof(float));
}

#define COALESCE_COPY_CASE(NAME, K, SEED)                                       \
    static const char L_##NAME[] =                                              \
        "# " #K " float(s) per element; out has spare random elements\n"        \
        "kernel " #NAME "\n"                                                    \
        "grid 4\n"                                                              \
        "block 256\n"                                                           \
        "buf in=f32:" #K "000:random=" #SEED "\n"                               \
        "buf out=f32:" #K "024:random=90\n"                                     \
        "arg in\n"                                                              \
        "arg out\n"                                                             \
        "arg s32:1000\n";                                                       \
    static void ref_##NAME(ref_buffers *b)                                      \
    {                                                                           \
        launch_info L = launch_parse(L_##NAME, 0);                              \
        copy_ref(b, (size_t)(K) * (size_t)ARG(L, 2));                           \
    }

COALESCE_COPY_CASE(coalesce_float, 1, 91)
COALESCE_COPY_CASE(coalesce_float2, 2, 92)
COALESCE_COPY_CASE(coalesce_float3, 3, 93)
COALESCE_COPY_CASE(coalesce_float4, 4, 94)

static const char L_coalesce_float2_x[] =
    "kernel coalesce_float2_x\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:2000:random=95\n"
    "buf out=f32:1024:random=90\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_coalesce_float2_x(ref_buffers *b)
{
    launch_info L = launch_parse(L_coalesce_float2_x, 0);
    int n = ARG(L, 2);
    float *in = F32("in", 2 * n), *out = F32("out", n);
    for (int i = 0; i < n; i++)
        out[i] = in[2 * i];
}

static const char L_coalesce_soa[] =
    "kernel coalesce_soa\n"
    "grid 4\n"
    "block 256\n"
    "buf X=f32:1000:random=96\n"
    "buf Y=f32:1000:random=97\n"
    "buf out=f32:2048:random=90\n"
    "arg X\n"
    "arg Y\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_coalesce_soa(ref_buffers *b)
{
    launch_info L = launch_parse(L_coalesce_soa, 0);
    int n = ARG(L, 3);
    float *X = F32("X", n), *Y = F32("Y", n), *out = F32("out", 2 * n);
    for (int i = 0; i < n; i++) {
        out[2 * i] = X[i];
        out[2 * i + 1] = Y[i];
    }
}

/* struct of 5 floats, K floats apart (8 when __align__(16), 5 packed) */
static void struct5_ref(ref_buffers *b, const char *text, int K)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2);
    float *in = F32("in", K * n), *out = F32("out", n);
    for (int i = 0; i < n; i++) {
        const float *s = in + (size_t)K * i;
        out[i] = (((s[0] + s[1]) + s[2]) + s[3]) + s[4];
    }
}

static const char L_coalesce_struct5_aligned[] =
    "# sizeof(struct __align__(16) {float a,b,c,d,e;}) = 32 bytes = 8 floats\n"
    "kernel coalesce_struct5_aligned\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:8000:random=98\n"
    "buf out=f32:1024:random=90\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_coalesce_struct5_aligned(ref_buffers *b)
{
    struct5_ref(b, L_coalesce_struct5_aligned, 8);
}

static const char L_coalesce_struct5_packed[] =
    "kernel coalesce_struct5_packed\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:5000:random=99\n"
    "buf out=f32:1024:random=90\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_coalesce_struct5_packed(ref_buffers *b)
{
    struct5_ref(b, L_coalesce_struct5_packed, 5);
}

static const char L_coalesce_offset[] =
    "kernel coalesce_offset\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:1003:random=100\n"
    "buf out=f32:1024:random=90\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n"
    "arg s32:3\n";

static void ref_coalesce_offset(ref_buffers *b)
{
    launch_info L = launch_parse(L_coalesce_offset, 0);
    int n = ARG(L, 2), off = ARG(L, 3);
    float *in = F32("in", n + off), *out = F32("out", n);
    for (int i = 0; i < n; i++)
        out[i] = in[i + off];
}

static const char L_coalesce_stride[] =
    "kernel coalesce_stride\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:5000:random=101\n"
    "buf out=f32:1024:random=90\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n"
    "arg s32:5\n";

static void ref_coalesce_stride(ref_buffers *b)
{
    launch_info L = launch_parse(L_coalesce_stride, 0);
    int n = ARG(L, 2), st = ARG(L, 3);
    float *in = F32("in", (n - 1) * st + 1), *out = F32("out", n);
    for (int i = 0; i < n; i++)
        out[i] = in[i * st];
}

/* ================================================================== */
/* 003_divergence (n = 3000; out has 72 spare random elements)         */

#define DIVERGENCE_CASE(NAME, SEED)                                             \
    static const char L_##NAME[] =                                              \
        "kernel " #NAME "\n"                                                    \
        "grid 12\n"                                                             \
        "block 256\n"                                                           \
        "buf in=f32:3000:random=" #SEED "\n"                                    \
        "buf out=f32:3072:random=110\n"                                         \
        "arg in\n"                                                              \
        "arg out\n"                                                             \
        "arg s32:3000\n";

DIVERGENCE_CASE(div_branch, 111)
DIVERGENCE_CASE(div_hoisted, 112)
DIVERGENCE_CASE(div_ternary, 113)
DIVERGENCE_CASE(div_two_per_thread, 114)

/* s +/- 1.0f/tid  (rcp.rn.f32 is the correctly rounded 1/x; 1/0 = +inf) */
static void odd_even_ref(ref_buffers *b, const char *text)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2);
    float *in = F32("in", n), *out = F32("out", n);
    for (int tid = 0; tid < n; tid++) {
        float t = 1.0f / (float)tid;
        out[tid] = (tid % 2) ? in[tid] + t : in[tid] - t;
    }
}

static void ref_div_branch(ref_buffers *b) { odd_even_ref(b, L_div_branch); }
static void ref_div_hoisted(ref_buffers *b) { odd_even_ref(b, L_div_hoisted); }
static void ref_div_ternary(ref_buffers *b) { odd_even_ref(b, L_div_ternary); }

static void ref_div_two_per_thread(ref_buffers *b)
{
    launch_info L = launch_parse(L_div_two_per_thread, 0);
    int n = ARG(L, 2);
    float *in = F32("in", n), *out = F32("out", n);
    for (int tid = 0; tid < n; tid++) {
        int i = 2 * tid;
        float d = 1.0f / (float)i - 1.0f / (float)(i + 1);
        out[tid] = in[tid] + d;
    }
}

/* ================================================================== */
/* 003_sync                                                            */

static const char L_sync_or_loop[] =
    "# in[i] in [0,1000): up to 10 iterations, different in every thread\n"
    "kernel sync_or_loop\n"
    "grid 4\n"
    "block 256\n"
    "buf in=u32:1000:random=121\n"
    "buf out=u32:1024:random=122\n"
    "buf iters=u32:1024:random=123\n"
    "arg in\n"
    "arg out\n"
    "arg iters\n"
    "arg s32:1000\n";

static void ref_sync_or_loop(ref_buffers *b)
{
    launch_info L = launch_parse(L_sync_or_loop, 0);
    int n = ARG(L, 3);
    unsigned grid = L.grid[0], bs = L.block[0];
    uint32_t *in = U32("in", n), *out = U32("out", n), *iters = U32("iters", n);
    uint32_t x[1024], acc[1024], it[1024], s[1024];
    int p[1024];
    for (unsigned blk = 0; blk < grid; blk++) {
        int any = 0;
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * bs + t;
            x[t] = (i < (unsigned)n) ? in[i] : 0u;
            acc[t] = it[t] = 0;
            p[t] = (x[t] != 0);
            s[t] = x[t];
            any |= p[t];
        }
        while (any) {
            for (unsigned t = 0; t < bs; t++)
                if (p[t])
                    s[t] = x[t];
            any = 0;
            for (unsigned t = 0; t < bs; t++)
                if (p[t]) {
                    uint32_t nb = s[(t + 1) % bs];
                    acc[t] += nb ^ x[t];
                    x[t] >>= 1;
                    it[t]++;
                    p[t] = (x[t] != 0);
                    any |= p[t];
                }
        }
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * bs + t;
            if (i < (unsigned)n) {
                out[i] = acc[t];
                iters[i] = it[t];
            }
        }
    }
}

static const char L_sync_count_and_or[] =
    "# thr 990: some blocks have all v < 990, some have a v < -990\n"
    "kernel sync_count_and_or\n"
    "grid 16\n"
    "block 64\n"
    "buf in=s32:1000:random=124\n"
    "buf stats=s32:48:random=125\n"
    "arg in\n"
    "arg stats\n"
    "arg s32:1000\n"
    "arg s32:990\n";

static void ref_sync_count_and_or(ref_buffers *b)
{
    launch_info L = launch_parse(L_sync_count_and_or, 0);
    int n = ARG(L, 2), thr = ARG(L, 3);
    unsigned grid = L.grid[0], bs = L.block[0];
    int32_t *in = S32("in", n), *stats = S32("stats", 3 * grid);
    for (unsigned blk = 0; blk < grid; blk++) {
        int count = 0, all = 1, any = 0;
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * bs + t;
            int v = (i < (unsigned)n) ? in[i] : 0;
            count += (v > thr);
            all &= (v < thr);
            any |= (v < -thr);
        }
        stats[3 * blk + 0] = count;
        stats[3 * blk + 1] = all;
        stats[3 * blk + 2] = any;
    }
}

/* ================================================================== */
/* 003_atomics                                                         */

#define ATOMIC_REDUCE_CASE(NAME, TOTAL, SEED)                                   \
    static const char L_##NAME[] =                                              \
        "kernel " #NAME "\n"                                                    \
        "grid 20\n"                                                             \
        "block 256\n"                                                           \
        "buf in=s32:5000:random=" #SEED "\n"                                    \
        "buf total=" TOTAL "\n"                                                 \
        "arg in\n"                                                              \
        "arg total\n"                                                           \
        "arg s32:5000\n";

/* int totals start random (the kernel adds to them); float totals start at 0
 * so that every partial sum is an exact integer (|sum| < 2^24) */
ATOMIC_REDUCE_CASE(atomic_reduce_global, "s32:1:random=131", 132)
ATOMIC_REDUCE_CASE(atomic_reduce_shared, "s32:1:random=133", 134)
ATOMIC_REDUCE_CASE(atomic_reduce_float_global, "f32:1", 135)
ATOMIC_REDUCE_CASE(atomic_reduce_float_shared, "f32:1", 136)

static void int_total_ref(ref_buffers *b, const char *text)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2);
    int32_t *in = S32("in", n), *total = S32("total", 1);
    uint32_t s = (uint32_t)total[0];
    for (int i = 0; i < n; i++)
        s += (uint32_t)in[i];
    total[0] = (int32_t)s;
}

static void float_total_ref(ref_buffers *b, const char *text)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2);
    int32_t *in = S32("in", n);
    float *total = F32("total", 1);
    float s = total[0];
    for (int i = 0; i < n; i++)
        s += (float)in[i]; /* exact: integers below 2^24 */
    total[0] = s;
}

static void ref_atomic_reduce_global(ref_buffers *b) { int_total_ref(b, L_atomic_reduce_global); }
static void ref_atomic_reduce_shared(ref_buffers *b) { int_total_ref(b, L_atomic_reduce_shared); }
static void ref_atomic_reduce_float_global(ref_buffers *b) { float_total_ref(b, L_atomic_reduce_float_global); }
static void ref_atomic_reduce_float_shared(ref_buffers *b) { float_total_ref(b, L_atomic_reduce_float_shared); }

/* ------------------------------------------------------------------ */
/* 003_atomics_gallery                                                 */

/* Apply the gallery's operators for every v in vals[0..count) to o[0..15]. */
static void gallery_ref(int32_t *o32, uint64_t *sum64, const int32_t *vals, int count)
{
    uint32_t o[16];
    for (int k = 0; k < 16; k++)
        o[k] = (uint32_t)o32[k];
    uint32_t ticket_base = o[13];
    for (int j = 0; j < count; j++) {
        int32_t v = vals[j];
        uint32_t u = (uint32_t)v;
        o[0] += u;
        o[1] -= u;
        if (v > (int32_t)o[2]) o[2] = u;
        if (v < (int32_t)o[3]) o[3] = u;
        o[4] &= u | 0xFFFF0000u;
        o[5] |= u & 0x0F0F0u;
        o[6] ^= u;
        o[7] = (o[7] >= 1000u) ? 0u : o[7] + 1u;
        o[8] = (o[8] == 0u || o[8] > 1000u) ? 1000u : o[8] - 1u;
        o[9] = 12345u;
        if (v > (int32_t)o[10]) o[10] = u;
        if (u > o[11]) o[11] = u;
        if (u < o[12]) o[12] = u;
        o[14] += ticket_base + (uint32_t)j; /* the tickets are base .. base+count-1 */
        o[13] += 1u;
        o[15] += 1u;
        if (sum64)
            *sum64 += (uint64_t)(int64_t)v;
    }
    for (int k = 0; k < 16; k++)
        o32[k] = (int32_t)o[k];
}

static const char L_atomic_gallery_global[] =
    "kernel atomic_gallery_global\n"
    "grid 12\n"
    "block 256\n"
    "buf in=s32:3000:random=137\n"
    "buf o=s32:16:random=138\n"
    "buf sum64=u64:1:random=139\n"
    "arg in\n"
    "arg o\n"
    "arg sum64\n"
    "arg s32:3000\n";

static void ref_atomic_gallery_global(ref_buffers *b)
{
    launch_info L = launch_parse(L_atomic_gallery_global, 0);
    int n = ARG(L, 3);
    gallery_ref(S32("o", 16), U64("sum64", 1), S32("in", n), n);
}

static const char L_atomic_gallery_shared[] =
    "# 4 blocks; the last one has 232 active threads\n"
    "kernel atomic_gallery_shared\n"
    "grid 4\n"
    "block 256\n"
    "buf in=s32:1000:random=140\n"
    "buf init=s32:16:random=141\n"
    "buf o=s32:64:random=142\n"
    "arg in\n"
    "arg init\n"
    "arg o\n"
    "arg s32:1000\n";

static void ref_atomic_gallery_shared(ref_buffers *b)
{
    launch_info L = launch_parse(L_atomic_gallery_shared, 0);
    int n = ARG(L, 3);
    unsigned grid = L.grid[0], bs = L.block[0];
    int32_t *in = S32("in", n), *init = S32("init", 16), *o = S32("o", 16 * grid);
    for (unsigned blk = 0; blk < grid; blk++) {
        int first = (int)(blk * bs);
        int count = n - first;
        if (count > (int)bs) count = (int)bs;
        if (count < 0) count = 0;
        memcpy(o + 16 * blk, init, 16 * sizeof(int32_t));
        gallery_ref(o + 16 * blk, NULL, in + first, count);
    }
}

static const char L_reduce_threadfence[] =
    "kernel reduce_threadfence\n"
    "grid 40\n"
    "block 256\n"
    "buf in=f32:10000:random=143\n"
    "buf partial=f32:40:random=144\n"
    "buf count=u32:1\n"
    "buf total=f32:1:random=145\n"
    "arg in\n"
    "arg partial\n"
    "arg count\n"
    "arg total\n"
    "arg s32:10000\n";

static void ref_reduce_threadfence(ref_buffers *b)
{
    launch_info L = launch_parse(L_reduce_threadfence, 0);
    unsigned n = (unsigned)ARG(L, 4), grid = L.grid[0];
    float *partial = F32("partial", grid);
    course_block_partials(F32("in", n), partial, n, grid, 256, course_tree_sequential);
    float s = 0.0f;
    for (unsigned blk = 0; blk < grid; blk++)
        s += partial[blk];
    F32("total", 1)[0] = s;
    U32("count", 1)[0] = 0;
}

/* ================================================================== */
/* 003_vote (n = 1000, 4 blocks of 256: 32 warps, the last one partial) */

static void warp_vote_ref(ref_buffers *b, const char *text)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 4), thr = ARG(L, 5);
    unsigned nthreads = L.grid[0] * L.block[0];
    int32_t *in = S32("in", n), *all = S32("all", n), *any = S32("any", n);
    uint32_t *ballot = U32("ballot", nthreads / 32);
    for (unsigned w = 0; w < nthreads / 32; w++) {
        uint32_t m = 0;
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (i < (unsigned)n && in[i] > thr)
                m |= 1u << l;
        }
        ballot[w] = m;
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (i < (unsigned)n) {
                all[i] = (m == 0xFFFFFFFFu);
                any[i] = (m != 0);
            }
        }
    }
}

#define WARP_VOTE_CASE(NAME, THR, SEED)                                         \
    static const char L_##NAME[] =                                              \
        "kernel warp_vote\n"                                                    \
        "grid 4\n"                                                              \
        "block 256\n"                                                           \
        "buf in=s32:1000:random=" #SEED "\n"                                    \
        "buf all=s32:1024:random=150\n"                                         \
        "buf any=s32:1024:random=151\n"                                         \
        "buf ballot=u32:32:random=152\n"                                        \
        "arg in\n"                                                              \
        "arg all\n"                                                             \
        "arg any\n"                                                             \
        "arg ballot\n"                                                          \
        "arg s32:1000\n"                                                        \
        "arg s32:" #THR "\n";                                                   \
    static void ref_##NAME(ref_buffers *b) { warp_vote_ref(b, L_##NAME); }

/* thr -960: p true with probability 0.98, so about half the warps are "all";
 * thr 960: p true with probability 0.02, about half the warps are "any" */
WARP_VOTE_CASE(warp_vote_mostly_true, -960, 153)
WARP_VOTE_CASE(warp_vote_mostly_false, 960, 154)
WARP_VOTE_CASE(warp_vote_half, 0, 155)

static const char L_warp_vote_if[] =
    "kernel warp_vote_if\n"
    "grid 4\n"
    "block 256\n"
    "buf in=s32:1000:random=156\n"
    "buf out=s32:1024:random=157\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n"
    "arg s32:900\n";

static void ref_warp_vote_if(ref_buffers *b)
{
    launch_info L = launch_parse(L_warp_vote_if, 0);
    int n = ARG(L, 2), thr = ARG(L, 3);
    int32_t *in = S32("in", n), *out = S32("out", n);
    for (int i = 0; i < n; i++) {
        uint32_t x = (uint32_t)in[i];
        out[i] = (int32_t)((in[i] > thr) ? x * 2u : x - 1u);
    }
}

/* ================================================================== */
/* 003_shuffle (n = 1000, 4 blocks of 256)                              */

static const char L_warp_allreduce_xor[] =
    "kernel warp_allreduce_xor\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:1000:random=161\n"
    "buf out=f32:1024:random=162\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_warp_allreduce_xor(ref_buffers *b)
{
    launch_info L = launch_parse(L_warp_allreduce_xor, 0);
    int n = ARG(L, 2);
    unsigned nthreads = L.grid[0] * L.block[0];
    float *in = F32("in", n), *out = F32("out", n);
    for (unsigned w = 0; w < nthreads / 32; w++) {
        float a[32], na[32];
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            a[l] = (i < (unsigned)n) ? in[i] : 0.0f;
        }
        for (unsigned m = 1; m < 32; m *= 2) {
            for (unsigned l = 0; l < 32; l++)
                na[l] = a[l] + a[l ^ m];
            memcpy(a, na, sizeof a);
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (i < (unsigned)n)
                out[i] = a[l];
        }
    }
}

static const char L_warp_reduce_atomic[] =
    "kernel warp_reduce_atomic\n"
    "grid 4\n"
    "block 256\n"
    "buf in=s32:1000:random=163\n"
    "buf total=s32:1:random=164\n"
    "arg in\n"
    "arg total\n"
    "arg s32:1000\n";

static void ref_warp_reduce_atomic(ref_buffers *b)
{
    int_total_ref(b, L_warp_reduce_atomic);
}

static const char L_warp_scan_up[] =
    "kernel warp_scan_up\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:1000:random=165\n"
    "buf out=f32:1024:random=166\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_warp_scan_up(ref_buffers *b)
{
    launch_info L = launch_parse(L_warp_scan_up, 0);
    int n = ARG(L, 2);
    unsigned nthreads = L.grid[0] * L.block[0];
    float *in = F32("in", n), *out = F32("out", n);
    for (unsigned w = 0; w < nthreads / 32; w++) {
        float s[32], ns[32];
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            s[l] = (i < (unsigned)n) ? in[i] : 0.0f;
        }
        for (unsigned d = 1; d < 32; d *= 2) {
            for (unsigned l = 0; l < 32; l++)
                ns[l] = (l >= d) ? s[l] + s[l - d] : s[l];
            memcpy(s, ns, sizeof s);
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (i < (unsigned)n)
                out[i] = s[l];
        }
    }
}

static const char L_warp_shfl_lookup[] =
    "kernel warp_shfl_lookup\n"
    "grid 4\n"
    "block 256\n"
    "buf table=f32:32:random=167\n"
    "buf idx=s32:1000:random=168\n"
    "buf out=f32:1024:random=169\n"
    "arg table\n"
    "arg idx\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_warp_shfl_lookup(ref_buffers *b)
{
    launch_info L = launch_parse(L_warp_shfl_lookup, 0);
    int n = ARG(L, 3);
    float *table = F32("table", 32), *out = F32("out", n);
    int32_t *idx = S32("idx", n);
    for (int i = 0; i < n; i++)
        out[i] = table[(uint32_t)idx[i] & 31u];
}

/* ================================================================== */
/* 003_multiprecision: 64 numbers of 1024 bits (2048 limbs)            */

static void mp_add_ref(ref_buffers *b, const char *text)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 3);
    unsigned nthreads = L.grid[0] * L.block[0];
    uint32_t *A = U32("A", n), *B = U32("B", n), *R = U32("R", n);
    for (unsigned w = 0; w < nthreads / 32; w++) {
        uint32_t r[32], c[32], cin[32];
        int any = 0;
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            uint32_t a = (i < (unsigned)n) ? A[i] : 0u;
            uint32_t bb = (i < (unsigned)n) ? B[i] : 0u;
            r[l] = a + bb;
            c[l] = r[l] < a;
            any |= (int)c[l];
        }
        while (any) {
            for (unsigned l = 0; l < 32; l++)
                cin[l] = (l == 0) ? 0u : c[l - 1];
            any = 0;
            for (unsigned l = 0; l < 32; l++) {
                r[l] = r[l] + cin[l];
                c[l] = r[l] < cin[l];
                any |= (int)c[l];
            }
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned i = w * 32 + l;
            if (i < (unsigned)n)
                R[i] = r[l];
        }
    }
}

#define MP_ADD_CASE(NAME, AINIT, BINIT)                                         \
    static const char L_##NAME[] =                                              \
        "kernel mp_add\n"                                                       \
        "grid 8\n"                                                              \
        "block 256\n"                                                           \
        "buf A=" AINIT "\n"                                                     \
        "buf B=" BINIT "\n"                                                     \
        "buf R=u32:2048:random=170\n"                                           \
        "arg A\n"                                                               \
        "arg B\n"                                                               \
        "arg R\n"                                                               \
        "arg s32:2048\n";                                                       \
    static void ref_##NAME(ref_buffers *b) { mp_add_ref(b, L_##NAME); }

/* s32 random limbs in [-1000,1000) seen as u32: about a quarter of the limbs
 * carry out, and a limb summing to 0xFFFFFFFF propagates a carry further.
 * A = all ones (s32 -1) plus random B: nearly every limb carries; B = 0: no
 * carry, the while loop is not entered. */
MP_ADD_CASE(mp_add_random, "s32:2048:random=171", "s32:2048:random=172")
MP_ADD_CASE(mp_add_ones_plus_random, "s32:2048:const=-1", "u32:2048:random=173")
MP_ADD_CASE(mp_add_ones_plus_zero, "s32:2048:const=-1", "u32:2048")

/* ================================================================== */
/* 003_local_memory (n = 1000, in s32 random in [-1000,1000))           */

#define LOCAL_CASE(NAME, SEED)                                                  \
    static const char L_##NAME[] =                                              \
        "kernel " #NAME "\n"                                                    \
        "grid 4\n"                                                              \
        "block 256\n"                                                           \
        "buf in=s32:1000:random=" #SEED "\n"                                    \
        "buf out=s32:1024:random=180\n"                                         \
        "arg in\n"                                                              \
        "arg out\n"                                                             \
        "arg s32:1000\n";

LOCAL_CASE(local_array_dynamic, 181)
LOCAL_CASE(local_array_loop, 182)
LOCAL_CASE(local_array_unrolled, 183)

static void ref_local_array_dynamic(ref_buffers *b)
{
    launch_info L = launch_parse(L_local_array_dynamic, 0);
    int n = ARG(L, 2);
    int32_t *in = S32("in", n), *out = S32("out", n);
    for (int i = 0; i < n; i++) {
        uint32_t x = (uint32_t)in[i], a[17];
        for (uint32_t k = 0; k < 17; k++)
            a[k] = (x * (k + 1u)) ^ (k << 4);
        uint32_t j = x % 17u;
        out[i] = (int32_t)(a[j] + a[(j + 5u) % 17u]);
    }
}

static void four_ref(ref_buffers *b, const char *text)
{
    launch_info L = launch_parse(text, 0);
    int n = ARG(L, 2);
    int32_t *in = S32("in", n), *out = S32("out", n);
    for (int i = 0; i < n; i++) {
        uint32_t x = (uint32_t)in[i], a[4];
        for (uint32_t k = 0; k < 4; k++)
            a[k] = 3u * k + x;
        out[i] = (int32_t)(a[0] * a[1] + a[2] * a[3]);
    }
}

static void ref_local_array_loop(ref_buffers *b) { four_ref(b, L_local_array_loop); }
static void ref_local_array_unrolled(ref_buffers *b) { four_ref(b, L_local_array_unrolled); }

/* ================================================================== */
/* 003_device_functions                                                */

static const char L_device_calls[] =
    "kernel device_calls\n"
    "grid 4\n"
    "block 256\n"
    "buf in=s32:1000:random=191\n"
    "buf out=s32:1024:random=192\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_device_calls(ref_buffers *b)
{
    launch_info L = launch_parse(L_device_calls, 0);
    int n = ARG(L, 2);
    int32_t *in = S32("in", n), *out = S32("out", n);
    for (int i = 0; i < n; i++) {
        int32_t x = in[i];
        uint32_t foo = 3u * (uint32_t)x + 1u;
        int32_t sh = (x >= 0) ? (x >> 3) : ~(~x >> 3); /* arithmetic shift */
        uint32_t bar = (uint32_t)(x ^ sh);
        out[i] = (int32_t)(foo + bar);
    }
}

static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int k = 0; k < 32; k++)
        if (x & (1u << k))
            r |= 1u << (31 - k);
    return r;
}

static uint32_t popc32(uint32_t x)
{
    uint32_t c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

static uint32_t clz32(uint32_t x)
{
    uint32_t c = 0;
    for (int k = 31; k >= 0 && !(x & (1u << k)); k--)
        c++;
    return c;
}

static uint32_t ffs32(uint32_t x)
{
    for (uint32_t k = 0; k < 32; k++)
        if (x & (1u << k))
            return k + 1;
    return 0;
}

static const char L_int_intrinsics[] =
    "kernel int_intrinsics\n"
    "grid 4\n"
    "block 256\n"
    "buf in=s32:1000:random=193\n"
    "buf out=u32:4096:random=194\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_int_intrinsics(ref_buffers *b)
{
    launch_info L = launch_parse(L_int_intrinsics, 0);
    int n = ARG(L, 2);
    int32_t *in = S32("in", n);
    uint32_t *out = U32("out", 4 * n);
    for (int i = 0; i < n; i++) {
        uint32_t x = (uint32_t)in[i] * 2654435761u;
        out[4 * i + 0] = brev32(x);
        out[4 * i + 1] = popc32(x);
        out[4 * i + 2] = clz32(x);
        out[4 * i + 3] = ffs32(x);
    }
}

static const char L_float_exact_math[] =
    "kernel float_exact_math\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:1000:random=195\n"
    "buf out=f32:8192:random=196\n"
    "arg in\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_float_exact_math(ref_buffers *b)
{
    launch_info L = launch_parse(L_float_exact_math, 0);
    int n = ARG(L, 2);
    float *in = F32("in", n), *out = F32("out", 8 * n);
    for (int i = 0; i < n; i++) {
        float x = in[i], y = in[n - 1 - i], x8 = 8.0f * x;
        out[8 * i + 0] = sqrtf(fabsf(x));
        out[8 * i + 1] = fminf(x, y);
        out[8 * i + 2] = fmaxf(x, y);
        out[8 * i + 3] = floorf(x8);
        out[8 * i + 4] = ceilf(x8);
        out[8 * i + 5] = truncf(x8);
        out[8 * i + 6] = rintf(x8); /* round to nearest even, like cvt.rni */
        out[8 * i + 7] = x / y;
    }
}

/* fast_math_intrinsics (same file) has no case: its approximate results
 * (ex2.approx, lg2.approx, sin/cos.approx, rsqrt.approx, div.approx) have no
 * exact C reference. */

/* ================================================================== */
/* 003_constant_memory                                                 */

static const float course_coeffs[8] = { 0.5f, -1.25f, 2.0f, 0.125f, 1.0f, -2.0f, 3.5f, -0.75f };

static const char L_const_poly[] =
    "kernel const_poly\n"
    "grid 4\n"
    "block 256\n"
    "buf in=f32:1000:random=201\n"
    "buf idx=s32:1000:random=202\n"
    "buf out=f32:2048:random=203\n"
    "arg in\n"
    "arg idx\n"
    "arg out\n"
    "arg s32:1000\n";

static void ref_const_poly(ref_buffers *b)
{
    launch_info L = launch_parse(L_const_poly, 0);
    int n = ARG(L, 3);
    const float *c = course_coeffs;
    float *in = F32("in", n), *out = F32("out", 2 * n);
    int32_t *idx = S32("idx", n);
    for (int i = 0; i < n; i++) {
        float x = in[i];
        float y = fmaf(c[0], x, c[1]);
        y = fmaf(y, x, c[2]);
        y = fmaf(y, x, c[3]);
        out[2 * i] = y;
        out[2 * i + 1] = c[4 + ((uint32_t)idx[i] & 3u)];
    }
}

/* ================================================================== */
/* 003_unified: one single-thread block per element                    */

static const char L_vectorAdd2[] =
    "kernel vectorAdd2\n"
    "grid 3010\n"
    "block 1\n"
    "buf A=f32:3000:random=211\n"
    "buf B=f32:3000:random=212\n"
    "buf C=f32:3010:random=213\n"
    "arg A\n"
    "arg B\n"
    "arg C\n"
    "arg s32:3000\n";

static void ref_vectorAdd2(ref_buffers *b)
{
    launch_info L = launch_parse(L_vectorAdd2, 0);
    int n = ARG(L, 3);
    float *A = F32("A", n), *B = F32("B", n), *C = F32("C", n);
    for (int i = 0; i < n; i++)
        C[i] = A[i] + B[i];
}

/* ================================================================== */
/* 004_matmul: a 45x37, b 37x29, c 45x29; 8x8 blocks, i (row) in x     */

static void matmul_i_in_x_ref(ref_buffers *b, const char *text, int blocked)
{
    launch_info L = launch_parse(text, 0);
    int lda = ARG(L, 0), ncola = ARG(L, 1), ncolb = ARG(L, 3);
    float *a = F32("a", lda * ncola), *bb = F32("b", ncola * ncolb), *c = F32("c", lda * ncolb);
    for (int i = 0; i < lda; i++)
        for (int j = 0; j < ncolb; j++) {
            float s = 0.0f;
            if (!blocked) {
                for (int k = 0; k < ncola; k++)
                    s = fmaf(a[i * ncola + k], bb[k * ncolb + j], s);
            } else {
                /* only the p valid columns of each 8-wide block are summed */
                for (int k = 0; k < ncola; k += 8) {
                    int p = (ncola - k < 8) ? ncola - k : 8;
                    for (int l = 0; l < p; l++)
                        s = fmaf(a[i * ncola + k + l], bb[(k + l) * ncolb + j], s);
                }
            }
            c[i * ncolb + j] = s;
        }
}

#define MATMUL4_CASE(NAME, BLOCKED, SEED)                                       \
    static const char L_##NAME[] =                                              \
        "# grid (ceil(45/8), ceil(29/8))\n"                                     \
        "kernel " #NAME "\n"                                                    \
        "grid 6,4\n"                                                            \
        "block 8,8\n"                                                           \
        "buf a=f32:1665:random=" #SEED "\n"                                     \
        "buf b=f32:1073:random=221\n"                                           \
        "buf c=f32:1305:random=222\n"                                           \
        "arg s32:45\n"                                                          \
        "arg s32:37\n"                                                          \
        "arg a\n"                                                               \
        "arg s32:29\n"                                                          \
        "arg b\n"                                                               \
        "arg c\n";                                                              \
    static void ref_##NAME(ref_buffers *b) { matmul_i_in_x_ref(b, L_##NAME, BLOCKED); }

MATMUL4_CASE(matmul, 0, 223)
MATMUL4_CASE(block_matmul, 1, 224)

/* ================================================================== */
/* 004_dot                                                             */

static const char L_dot_product[] =
    "kernel dot_product\n"
    "grid 40\n"
    "block 256\n"
    "buf a=f32:10000:random=231\n"
    "buf b=f32:10000:random=232\n"
    "buf c=f32:40:random=233\n"
    "arg a\n"
    "arg b\n"
    "arg c\n"
    "arg s32:10000\n";

static void ref_dot_product(ref_buffers *b)
{
    launch_info L = launch_parse(L_dot_product, 0);
    int n = ARG(L, 3);
    unsigned grid = L.grid[0];
    float *a = F32("a", n), *bb = F32("b", n), *c = F32("c", grid);
    float r[256];
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned t = 0; t < 256; t++) {
            unsigned i = blk * 256 + t;
            r[t] = (i < (unsigned)n) ? a[i] * bb[i] : 0.0f; /* mul.rn, not fused */
        }
        course_tree_sequential(r, 256);
        c[blk] = r[0];
    }
}

/* ================================================================== */
/* 004_reduction: the recursive reduction, relaunched by the host      */

static const char L_reduction_3pass[] =
    "# 100000 -> 391 -> 2 -> 1, each pass into its own buffer\n"
    "kernel reduction\n"
    "grid 391\n"
    "block 256\n"
    "buf A=f32:100000:random=241\n"
    "buf B=f32:391:random=242\n"
    "buf C=f32:2:random=243\n"
    "buf D=f32:1:random=244\n"
    "arg A\n"
    "arg B\n"
    "arg s32:100000\n"
    "kernel reduction\n"
    "grid 2\n"
    "block 256\n"
    "arg B\n"
    "arg C\n"
    "arg s32:391\n"
    "kernel reduction\n"
    "grid 1\n"
    "block 256\n"
    "arg C\n"
    "arg D\n"
    "arg s32:2\n";

static void ref_reduction_3pass(ref_buffers *b)
{
    const char *names[4] = { "A", "B", "C", "D" };
    for (int g = 0; g < 3; g++) {
        launch_info L = launch_parse(L_reduction_3pass, g);
        unsigned n = (unsigned)ARG(L, 2);
        course_block_partials(F32(names[g], n), F32(names[g + 1], L.grid[0]), n, L.grid[0], 256,
                       course_tree_sequential);
    }
}

static const char L_reduction_inplace[] =
    "# as the seed's tail launch: reduction(b, b, nb) with a single block\n"
    "kernel reduction\n"
    "grid 196\n"
    "block 256\n"
    "buf A=f32:50000:random=245\n"
    "buf B=f32:200:random=246\n"
    "arg A\n"
    "arg B\n"
    "arg s32:50000\n"
    "kernel reduction\n"
    "grid 1\n"
    "block 256\n"
    "arg B\n"
    "arg B\n"
    "arg s32:196\n";

static void ref_reduction_inplace(ref_buffers *b)
{
    launch_info L1 = launch_parse(L_reduction_inplace, 0);
    launch_info L2 = launch_parse(L_reduction_inplace, 1);
    unsigned n1 = (unsigned)ARG(L1, 2), n2 = (unsigned)ARG(L2, 2);
    float *B = F32("B", n2);
    float total;
    course_block_partials(F32("A", n1), B, n1, L1.grid[0], 256, course_tree_sequential);
    course_block_partials(B, &total, n2, 1, 256, course_tree_sequential);
    B[0] = total;
}

/* ================================================================== */
/* 004_managed                                                         */
/* `add` writes the module's __managed__ global c[10000] (PTX: .global
 * .attribute(.managed) c[40000]): a launch text cannot name it, so only
 * add_ptr, the same kernel with c as a parameter, has a case. */

static const char L_add_ptr[] =
    "kernel add_ptr\n"
    "grid 40\n"
    "block 256\n"
    "buf a=f32:10000:random=251\n"
    "buf b=f32:10000:random=252\n"
    "buf c=f32:10240:random=253\n"
    "arg a\n"
    "arg b\n"
    "arg c\n"
    "arg s32:10000\n";

static void ref_add_ptr(ref_buffers *b)
{
    launch_info L = launch_parse(L_add_ptr, 0);
    int n = ARG(L, 3);
    float *a = F32("a", n), *bb = F32("b", n), *c = F32("c", n);
    for (int i = 0; i < n; i++)
        c[i] = a[i] + bb[i];
}

/* ================================================================== */
/* the table                                                           */

#define P(file) "tests/nvcc/" file ".ptx"
#define CASE(name, file, outputs) { #name, P(file), L_##name, ref_##name, outputs }

const course_case course_cases[] = {
    /* 001 */
    CASE(vector_add_naive, "001_vector_add", "C"),
    CASE(vector_add_optimized, "001_vector_add", "C"),
    CASE(matmul_naive, "001_matmul", "C"),
    CASE(matmul_optimized, "001_matmul", "C"),
    CASE(transpose_with_bank_conflicts, "001_transpose", "out"),
    CASE(transpose_without_bank_conflicts, "001_transpose", "out"),
    CASE(transpose_coalesced, "001_transpose", "out"),
    CASE(reduce_global, "001_reduction", "data,out"),
    CASE(reduce_interleaved_divergent, "001_reduction", "out"),
    CASE(reduce_interleaved_strided, "001_reduction", "out"),
    CASE(reduce_sequential, "001_reduction", "out"),
    CASE(reduce_optimized, "001_reduction", "out"),
    CASE(reduce_optimized_2pass, "001_reduction", "P,Q"),
    /* 002 */
    CASE(MatrixMulKernel, "002_matmul_g80", "P"),
    CASE(blocMatrixMultiply, "002_matmul_g80", "P"),
    CASE(predication_if_random, "002_predication", "C"),
    CASE(predication_if_all, "002_predication", "C"),
    CASE(predication_if_iota, "002_predication", "C"),
    CASE(predication_branch_random, "002_predication", "C"),
    CASE(bank_stride1, "002_bank_conflicts", "out"),
    CASE(bank_stride2, "002_bank_conflicts", "out"),
    CASE(bank_stride3, "002_bank_conflicts", "out"),
    CASE(bank_stride8, "002_bank_conflicts", "out"),
    CASE(bank_stride16, "002_bank_conflicts", "out"),
    CASE(bank_stride32, "002_bank_conflicts", "out"),
    CASE(bank_stride_param, "002_bank_conflicts", "out"),
    CASE(bank_broadcast, "002_bank_conflicts", "out"),
    CASE(bank_tid_mod2, "002_bank_conflicts", "out"),
    CASE(bank_vec3_linear, "002_bank_conflicts", "out"),
    CASE(bank_vec3_broadcast, "002_bank_conflicts", "out"),
    CASE(bank_vec2_linear, "002_bank_conflicts", "out"),
    CASE(bank_vec2_broadcast, "002_bank_conflicts", "out"),
    CASE(bank_u8, "002_bank_conflicts", "out"),
    CASE(bank_s16, "002_bank_conflicts", "out"),
    CASE(bank_2d_16x16_row, "002_bank_conflicts", "out"),
    CASE(bank_2d_16x16_col, "002_bank_conflicts", "out"),
    CASE(bank_2d_16x17_col, "002_bank_conflicts", "out"),
    CASE(bank_2d_diag, "002_bank_conflicts", "out"),
    CASE(coalesce_float, "002_coalescing", "out"),
    CASE(coalesce_float2, "002_coalescing", "out"),
    CASE(coalesce_float3, "002_coalescing", "out"),
    CASE(coalesce_float4, "002_coalescing", "out"),
    CASE(coalesce_float2_x, "002_coalescing", "out"),
    CASE(coalesce_soa, "002_coalescing", "out"),
    CASE(coalesce_struct5_aligned, "002_coalescing", "out"),
    CASE(coalesce_struct5_packed, "002_coalescing", "out"),
    CASE(coalesce_offset, "002_coalescing", "out"),
    CASE(coalesce_stride, "002_coalescing", "out"),
    /* 003 */
    CASE(div_branch, "003_divergence", "out"),
    CASE(div_hoisted, "003_divergence", "out"),
    CASE(div_ternary, "003_divergence", "out"),
    CASE(div_two_per_thread, "003_divergence", "out"),
    CASE(sync_or_loop, "003_sync", "out,iters"),
    CASE(sync_count_and_or, "003_sync", "stats"),
    CASE(atomic_reduce_global, "003_atomics", "total"),
    CASE(atomic_reduce_shared, "003_atomics", "total"),
    CASE(atomic_reduce_float_global, "003_atomics", "total"),
    CASE(atomic_reduce_float_shared, "003_atomics", "total"),
    CASE(atomic_gallery_global, "003_atomics_gallery", "o,sum64"),
    CASE(atomic_gallery_shared, "003_atomics_gallery", "o"),
    CASE(reduce_threadfence, "003_atomics_gallery", "partial,count,total"),
    CASE(warp_vote_mostly_true, "003_vote", "all,any,ballot"),
    CASE(warp_vote_mostly_false, "003_vote", "all,any,ballot"),
    CASE(warp_vote_half, "003_vote", "all,any,ballot"),
    CASE(warp_vote_if, "003_vote", "out"),
    CASE(warp_allreduce_xor, "003_shuffle", "out"),
    CASE(warp_reduce_atomic, "003_shuffle", "total"),
    CASE(warp_scan_up, "003_shuffle", "out"),
    CASE(warp_shfl_lookup, "003_shuffle", "out"),
    CASE(mp_add_random, "003_multiprecision", "R"),
    CASE(mp_add_ones_plus_random, "003_multiprecision", "R"),
    CASE(mp_add_ones_plus_zero, "003_multiprecision", "R"),
    CASE(local_array_dynamic, "003_local_memory", "out"),
    CASE(local_array_loop, "003_local_memory", "out"),
    CASE(local_array_unrolled, "003_local_memory", "out"),
    CASE(device_calls, "003_device_functions", "out"),
    CASE(int_intrinsics, "003_device_functions", "out"),
    CASE(float_exact_math, "003_device_functions", "out"),
    CASE(const_poly, "003_constant_memory", "out"),
    CASE(vectorAdd2, "003_unified", "C"),
    /* 004 */
    CASE(matmul, "004_matmul", "c"),
    CASE(block_matmul, "004_matmul", "c"),
    CASE(dot_product, "004_dot", "c"),
    CASE(reduction_3pass, "004_reduction", "B,C,D"),
    CASE(reduction_inplace, "004_reduction", "B"),
    CASE(add_ptr, "004_managed", "c"),
};

const size_t course_case_count = sizeof course_cases / sizeof course_cases[0];
