/*
 * The course exercises in programs/: hand-written PTX, CUDA twins, launch files.
 *
 * 1. Every programs/ ** /X.launch (found by walking the directory, so a new one
 *    is covered without touching this file) parses, runs in the simulator
 *    without error, and leaves every buffer -- inputs included -- equal, bit
 *    for bit, to what a C model of its launch groups computes from the same
 *    initial buffers.  The models (kernel_models[] below) are keyed by kernel
 *    name and read everything (grid, block, arguments, buffers) from the
 *    parsed launch group, so they apply to any launch of the kernel.  A kernel
 *    without a model must be listed in unmodelled_kernels[] with a reason;
 *    every kernel of every programs/ PTX file must be launched by some .launch.
 *
 * 2. The course's own cases (tests/course/cases.c: launch texts designed with
 *    edge cases -- sizes that are not multiples of the block, random output
 *    buffers that catch stray writes) are run again on the HAND-WRITTEN PTX of
 *    programs/: every case whose kernels are all defined by one programs/ PTX
 *    file must reproduce the case's C reference.  (The course references read
 *    their own launch text, not a text passed to them, so they cannot check
 *    the programs' .launch files directly: part 1 does that.)
 *
 * 3. The key figures each exercise's README quotes (wavefronts per shared
 *    request, sectors per global request, divergent branch targets, ...) are
 *    asserted on the runs of part 1, launch group by launch group: figures[]
 *    below, each computed by hand in its comment.
 *
 * That each PTX file assembles with `ptxas -arch=sm_90` is checked
 * separately, by programs/ptxas_check.sh (ptxas is not needed to build or run
 * this test).
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "isa/bits.h"
#include "sim/session.h"
#include "tests/course/cases.h"

/* ------------------------------------------------------------------------ */
/* ref_buf: what tests/course/cases.c's references use                        */

struct ref_buffers {
    int count;
    const char **names;
    size_t *counts;
    uint8_t **bytes;
};

void *ref_buf(ref_buffers *b, const char *name, size_t *count)
{
    for (int i = 0; i < b->count; i++)
        if (!strcmp(b->names[i], name)) {
            if (count)
                *count = b->counts[i];
            return b->bytes[i];
        }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* small helpers                                                              */

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (n < 0 || !s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        fclose(f);
        return NULL;
    }
    s[n] = 0;
    fclose(f);
    if (len)
        *len = (size_t)n;
    return s;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

typedef struct {
    char **items;
    int count, cap;
} strlist;

static void strlist_add(strlist *l, const char *s)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        l->items = realloc(l->items, sizeof *l->items * (size_t)l->cap);
    }
    l->items[l->count++] = strdup(s);
}

static void strlist_free(strlist *l)
{
    for (int i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file under dir (recursively) whose name ends in suffix; paths relative to root. */
static void walk(const char *root, const char *rel, const char *suffix, strlist *out)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[2048], full[4096];
        snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
        snprintf(full, sizeof full, "%s/%s", root, sub);
        struct stat st;
        if (stat(full, &st))
            continue;
        if (S_ISDIR(st.st_mode))
            walk(root, sub, suffix, out);
        else if (has_suffix(e->d_name, suffix))
            strlist_add(out, sub);
    }
    closedir(d);
    qsort(out->items, (size_t)out->count, sizeof *out->items, cmp_str);
}

static strlist launch_files, ptx_files;
/* Every .entry of the programs/ PTX files: kernel_names[k] is defined in ptx_files.items[kernel_file[k]]. */
static strlist kernel_names;
static int *kernel_file;

static int ptx_entries(const char *rel, strlist *out);

static void discover(void)
{
    if (launch_files.count || ptx_files.count)
        return;
    walk(WARPSIM_SOURCE_DIR, "programs", ".launch", &launch_files);
    walk(WARPSIM_SOURCE_DIR, "programs", ".ptx", &ptx_files);
    for (int f = 0; f < ptx_files.count; f++) {
        int before = kernel_names.count;
        if (ptx_entries(ptx_files.items[f], &kernel_names))
            continue;
        kernel_file = realloc(kernel_file, sizeof *kernel_file * (size_t)(kernel_names.count ? kernel_names.count : 1));
        for (int k = before; k < kernel_names.count; k++)
            kernel_file[k] = f;
    }
}

/* The .entry names of a PTX file (text scan: ".entry NAME("). */
static int ptx_entries(const char *rel, strlist *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", WARPSIM_SOURCE_DIR, rel);
    char *s = read_text(path, NULL);
    if (!s)
        return -1;
    for (char *p = strstr(s, ".entry"); p; p = strstr(p + 1, ".entry")) {
        char *q = p + 6;
        while (*q == ' ' || *q == '\t')
            q++;
        size_t n = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$");
        if (n) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)n, q);
            strlist_add(out, name);
        }
    }
    free(s);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* 1. C models of the kernels                                                 */

typedef struct {
    const ws_run_options *o;
    const ws_launch_group *g;
    uint8_t **bytes;          /* the model's copy of every buffer */
    const char *file;
} model;

static jmp_buf model_abort;
static char model_msg[1024];

static void model_fail(model *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(model_msg, sizeof model_msg, "%s: kernel %s: ", m->file, m->g->kernel ? m->g->kernel : "?");
    vsnprintf(model_msg + n, sizeof model_msg - (size_t)n, fmt, ap);
    va_end(ap);
    longjmp(model_abort, 1);
}

/* Argument k as a buffer of elements of `size` bytes holding at least `need` of them. */
static void *arg_buf(model *m, int k, unsigned size, uint64_t need)
{
    if (k >= m->g->arg_count || m->g->args[k].buffer < 0)
        model_fail(m, "argument %d is not a buffer", k + 1);
    const ws_buffer_spec *b = &m->o->buffers[m->g->args[k].buffer];
    if (ptx_types[b->type].size != size)
        model_fail(m, "buffer %s (argument %d) has %u-byte elements, the model expects %u", b->name, k + 1,
                   ptx_types[b->type].size, size);
    if (b->count < need)
        model_fail(m, "buffer %s (argument %d) has %llu elements, the launch uses %llu", b->name, k + 1,
                   (unsigned long long)b->count, (unsigned long long)need);
    return m->bytes[m->g->args[k].buffer];
}

static int32_t arg_int(model *m, int k)
{
    if (k >= m->g->arg_count || m->g->args[k].buffer >= 0)
        model_fail(m, "argument %d is not a scalar", k + 1);
    return (int32_t)(uint32_t)m->g->args[k].bits;
}

#define F32(k, need) ((float *)arg_buf(m, (k), 4, (uint64_t)(need)))
#define S32(k, need) ((int32_t *)arg_buf(m, (k), 4, (uint64_t)(need)))
#define U32(k, need) ((uint32_t *)arg_buf(m, (k), 4, (uint64_t)(need)))
#define S16(k, need) ((int16_t *)arg_buf(m, (k), 2, (uint64_t)(need)))
#define S8(k, need) ((int8_t *)arg_buf(m, (k), 1, (uint64_t)(need)))
#define GX (m->g->grid[0])
#define GY (m->g->grid[1])
#define BX (m->g->block[0])
#define BY (m->g->block[1])
#define NTHREADS_X ((uint64_t)GX * BX)

static float u2f(uint32_t u) { return ptx_bits_f32(u); }

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The number of 1-D threads i < n that exist: min(n, gridDim.x * blockDim.x), never negative. */
static uint64_t covered(model *m, int32_t n)
{
    return n <= 0 ? 0 : min_u64((uint64_t)n, NTHREADS_X);
}

/* ---- 001_vector_add ---- */

static void m_vector_add_naive(model *m)
{
    int32_t n = arg_int(m, 3);
    uint64_t cnt = covered(m, n);
    float *A = F32(0, cnt), *B = F32(1, cnt), *C = F32(2, cnt);
    for (uint64_t i = 0; i < cnt; i++)
        C[i] = A[i] + B[i];
}

static void m_vector_add_optimized(model *m)
{
    int32_t n = arg_int(m, 3);
    uint64_t cnt = n > 0 ? (uint64_t)n : 0;   /* the grid-stride loop covers every element */
    float *A = F32(0, cnt), *B = F32(1, cnt), *C = F32(2, cnt);
    for (uint64_t i = 0; i < cnt; i++)
        C[i] = A[i] + B[i];
}

/* ---- 001_matmul ---- */

static void m_matmul_naive(model *m)
{
    int n = arg_int(m, 3);
    float *A = F32(0, (uint64_t)n * n), *B = F32(1, (uint64_t)n * n), *C = F32(2, (uint64_t)n * n);
    int rows = (int)min_u64((uint64_t)n, (uint64_t)GY * BY), cols = (int)min_u64((uint64_t)n, NTHREADS_X);
    for (int row = 0; row < rows; row++)
        for (int col = 0; col < cols; col++) {
            float sum = 0.0f;
            for (int k = 0; k < n; k++)
                sum = fmaf(A[row * n + k], B[k * n + col], sum);
            C[row * n + col] = sum;
        }
}

static void m_matmul_optimized(model *m)
{
    int n = arg_int(m, 3);
    const int T = 32;
    if (BX != 32 || BY != 32)
        model_fail(m, "the tiled kernel needs a 32x32 block");
    float *A = F32(0, (uint64_t)n * n), *B = F32(1, (uint64_t)n * n), *C = F32(2, (uint64_t)n * n);
    int rows = (int)min_u64((uint64_t)n, (uint64_t)GY * BY), cols = (int)min_u64((uint64_t)n, NTHREADS_X);
    for (int row = 0; row < rows; row++)
        for (int col = 0; col < cols; col++) {
            float sum = 0.0f;   /* the padded zeros are part of the fma chain, as on the GPU */
            for (int t = 0; t < (n + T - 1) / T; t++)
                for (int k = 0; k < T; k++) {
                    int kk = t * T + k;
                    float a = kk < n ? A[row * n + kk] : 0.0f;
                    float b = kk < n ? B[kk * n + col] : 0.0f;
                    sum = fmaf(a, b, sum);
                }
            C[row * n + col] = sum;
        }
}

/* ---- 001_transpose ---- */

/* The seed kernels: out[x*N+y] = tile[tx][ty] = element (by*32+tx, bx*32+ty) of in, 0 outside. */
static void m_transpose_seed(model *m)
{
    int N = arg_int(m, 2);
    if (BX != 32 || BY != 32)
        model_fail(m, "the seed transposes need a 32x32 block");
    float *in = F32(0, (uint64_t)N * N), *out = F32(1, (uint64_t)N * N);
    int xs = (int)min_u64((uint64_t)N, NTHREADS_X), ys = (int)min_u64((uint64_t)N, (uint64_t)GY * BY);
    for (int x = 0; x < xs; x++)
        for (int y = 0; y < ys; y++) {
            int bx = x / 32, tx = x % 32, by = y / 32, ty = y % 32;
            int sr = by * 32 + tx, sc = bx * 32 + ty;
            out[x * N + y] = (sr < N && sc < N) ? in[sr * N + sc] : 0.0f;
        }
}

static void m_transpose_coalesced(model *m)
{
    int w = arg_int(m, 2), h = arg_int(m, 3);
    float *in = F32(0, (uint64_t)w * h), *out = F32(1, (uint64_t)w * h);
    if (BX != 32 || BY != 32 || (uint64_t)GX * 32 < (uint64_t)w || (uint64_t)GY * 32 < (uint64_t)h)
        model_fail(m, "the model expects a 32x32 block and a grid covering the matrix");
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            out[c * h + r] = in[r * w + c];
}

/* ---- 001_reduction, 004_dot, 004_reduction: trees replayed step by step ---- */

static void m_reduce_global(model *m)
{
    unsigned n = (unsigned)arg_int(m, 2), bs = BX, grid = GX;
    float *data = F32(0, n), *out = F32(1, grid);
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned s = bs / 2; s > 0; s >>= 1)
            for (unsigned t = 0; t < s; t++) {
                unsigned i = blk * bs + t;
                if (i + s < n)
                    data[i] = data[i] + data[i + s];
            }
        if (blk * bs >= n)
            model_fail(m, "block %u reads data[%u] past n", blk, blk * bs);
        out[blk] = data[blk * bs];
    }
}

static void block_partials(model *m, unsigned bs, void (*tree)(float *, unsigned))
{
    unsigned n = (unsigned)arg_int(m, 2), grid = GX;
    float *in = F32(0, n), *out = F32(1, grid);
    float *res = malloc(sizeof *res * grid);
    course_block_partials(in, res, n, grid, bs, tree);
    /* blocks run one after another: a block's store may feed a later block
     * when in and out overlap (the seed's in-place relaunch) */
    if (m->g->args[0].buffer == m->g->args[1].buffer && grid > 1)
        model_fail(m, "in-place launch with several blocks: the result depends on the block order");
    memcpy(out, res, sizeof *res * grid);
    free(res);
}

static void m_reduce_interleaved(model *m) { block_partials(m, BX, course_tree_interleaved); }
static void m_reduce_sequential(model *m) { block_partials(m, BX, course_tree_sequential); }

static void m_reduction_004(model *m)
{
    if (BX != 256)
        model_fail(m, "BLOCK_DIM is 256");
    block_partials(m, 256, course_tree_sequential);
}

/* ---- 004_dynamic_parallelism (nvcc -rdc=true's PTX: the .launch names the kernels as the PTX does) ---- */

/* One grid of the tail-launch reductions, its blocks one after another as warpsim runs a grid that launches
 * grids: each block's tree over in[] (0 past n), then its sum stored, so that a later block of an in-place
 * grid reads what an earlier block stored. */
static void tail_grid(const float *in, float *out, unsigned n, unsigned grid)
{
    float r[256];
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned t = 0; t < 256; t++)
            r[t] = blk * 256 + t < n ? in[blk * 256 + t] : 0.0f;
        course_tree_sequential(r, 256);
        out[blk] = r[0];
    }
}

/* The seed's reduction(a, b, n), then its tail launches reduction<<<nb, 256>>>(b, b, nb) (nb = ceil(n/256) of
 * the grid before) until nb is 1. */
static void m_reduction_tail_seed(model *m)
{
    if (BX != 256)
        model_fail(m, "BLOCK_DIM is 256");
    unsigned n = (unsigned)arg_int(m, 2), nb = (n + 255) / 256;
    float *a = F32(0, n), *b = F32(1, GX > nb ? GX : nb);
    tail_grid(a, b, n, GX);
    for (; nb > 1; nb = (nb + 255) / 256)
        tail_grid(b, b, nb, nb);
}

/* reduction_pingpong(in, out, spare, result, n): each grid in -> out, then its tail launch out -> spare with
 * ceil(nb/256) blocks, ...; the grid of one sum also stores it to *result. */
static void m_reduction_pingpong(model *m)
{
    if (BX != 256)
        model_fail(m, "BLOCK_DIM is 256");
    unsigned n = (unsigned)arg_int(m, 4), grid = GX, nb = (n + 255) / 256;
    float *in = F32(0, n), *out = F32(1, grid > nb ? grid : nb), *spare = F32(2, (nb + 255) / 256);
    float *result = F32(3, 1);
    for (;;) {
        nb = (n + 255) / 256;
        tail_grid(in, out, n, grid);
        if (nb == 1) {
            *result = out[grid - 1];   /* every block stores it; the last one's stays */
            break;
        }
        float *next = spare;
        spare = out;
        in = out;
        out = next;
        n = nb;
        grid = (nb + 255) / 256;
    }
}

/* parent(x, n, sum): block b scales x[4096 b ..] by b + 1 (a child grid each), then checksum<<<1, 256>>>
 * (the tail launch) sums x: thread t adds x[t], x[t + 256], ... in order, then the tree over the 256. */
static void m_fire_and_forget_parent(model *m)
{
    unsigned n = (unsigned)arg_int(m, 1);
    float *x = F32(0, n), *sum = F32(2, 1);
    if (GX != (n + 4095) / 4096)
        model_fail(m, "one block per segment of 4096");
    for (unsigned i = 0; i < n; i++)
        x[i] *= (float)(i / 4096 + 1);
    float r[256];
    for (unsigned t = 0; t < 256; t++) {
        r[t] = 0.0f;
        for (unsigned i = t; i < n; i += 256)
            r[t] += x[i];
    }
    course_tree_sequential(r, 256);
    *sum = r[0];
}

static void m_reduce_optimized(model *m)
{
    unsigned n = (unsigned)arg_int(m, 2), grid = GX, bs = BX;
    if (bs < 64 || (bs & (bs - 1)))
        model_fail(m, "blockDim.x must be a power of two >= 64");
    float *in = F32(0, n), *out = F32(1, grid);
    float *sum = malloc(sizeof *sum * bs), *sdata = malloc(sizeof *sdata * bs);
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * (bs * 2) + t;
            sum[t] = i < n ? in[i] : 0.0f;
            if (i + bs < n)
                sum[t] = sum[t] + in[i + bs];
            sdata[t] = sum[t];
        }
        for (unsigned s = bs / 2; s > 32; s >>= 1)
            for (unsigned t = 0; t < s; t++)
                sdata[t] = sum[t] = sum[t] + sdata[t + s];
        float v[32], nv[32];
        for (unsigned t = 0; t < 32; t++)
            v[t] = sum[t] + sdata[t + 32];
        for (unsigned off = 16; off > 0; off >>= 1) {   /* shfl.down: lanes past 31 keep their value */
            for (unsigned l = 0; l < 32; l++)
                nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
            memcpy(v, nv, sizeof v);
        }
        out[blk] = v[0];
    }
    free(sum);
    free(sdata);
}

static void m_dot_product(model *m)
{
    int n = arg_int(m, 3);
    unsigned grid = GX;
    if (BX != 256)
        model_fail(m, "BLOCK_DIM is 256");
    float *a = F32(0, n), *b = F32(1, n), *c = F32(2, grid), r[256];
    for (unsigned blk = 0; blk < grid; blk++) {
        for (unsigned t = 0; t < 256; t++) {
            unsigned i = blk * 256 + t;
            r[t] = i < (unsigned)n ? a[i] * b[i] : 0.0f;   /* mul.rn, then the sums */
        }
        course_tree_sequential(r, 256);
        c[blk] = r[0];
    }
}

/* ---- 002_matmul_g80 ---- */

static void m_MatrixMulKernel(model *m)
{
    int w = arg_int(m, 3), mp = arg_int(m, 4), np = arg_int(m, 5), pp = arg_int(m, 6);
    if (GX != 1 || GY != 1)
        model_fail(m, "a single block");
    float *M = F32(0, (uint64_t)w * mp), *N = F32(1, (uint64_t)w * np), *P = F32(2, (uint64_t)w * pp);
    int ty_max = (int)min_u64((uint64_t)w, BY), tx_max = (int)min_u64((uint64_t)w, BX);
    for (int ty = 0; ty < ty_max; ty++)
        for (int tx = 0; tx < tx_max; tx++) {
            float sum = 0.0f;
            for (int k = 0; k < w; k++)
                sum = fmaf(M[ty * mp + k], N[k * np + tx], sum);
            P[ty * pp + tx] = sum;
        }
}

static void m_blocMatrixMultiply(model *m)
{
    int mw = arg_int(m, 3), mh = arg_int(m, 4), nw = arg_int(m, 5);
    int mp = arg_int(m, 6), np = arg_int(m, 7), pp = arg_int(m, 8);
    if (BX != 16 || BY != 16 || (int)GX * 16 != nw || (int)GY * 16 != mh || mw % 16)
        model_fail(m, "block 16x16, grid (n_width/16, m_height/16), sizes multiples of 16");
    float *M = F32(0, (uint64_t)mh * mp), *N = F32(1, (uint64_t)mw * np), *P = F32(2, (uint64_t)mh * pp);
    for (int r = 0; r < mh; r++)
        for (int c = 0; c < nw; c++) {
            float sum = 0.0f;
            for (int k = 0; k < mw; k++)
                sum = fmaf(M[r * mp + k], N[k * np + c], sum);
            P[r * pp + c] = sum;
        }
}

/* ---- 002_bank_conflicts ---- */

#define SH 2048

/* Word w of block blk's shared array: in[blk*2048 + w], 0 past n. */
static float sh_value(const float *in, int n, unsigned blk, unsigned w)
{
    unsigned g = blk * SH + w;
    return g < (unsigned)n ? in[g] : 0.0f;
}

/* kind: S >= 0 stride S; -1 broadcast; -2 tid % 2; -3 stride from argument 4 */
static void bank_1d(model *m, int S)
{
    int n = arg_int(m, 2);
    uint32_t base = S == -2 ? 0 : (uint32_t)arg_int(m, 3);
    if (S == -3)
        S = arg_int(m, 4);
    unsigned grid = GX, bs = BX;
    float *in = F32(0, n), *out = F32(1, (uint64_t)grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned w = S >= 0 ? (base + (uint32_t)S * t) & (SH - 1) : S == -1 ? base & (SH - 1) : t % 2;
            out[blk * bs + t] = sh_value(in, n, blk, w);
        }
}

static void m_bank_stride1(model *m) { bank_1d(m, 1); }
static void m_bank_stride2(model *m) { bank_1d(m, 2); }
static void m_bank_stride3(model *m) { bank_1d(m, 3); }
static void m_bank_stride8(model *m) { bank_1d(m, 8); }
static void m_bank_stride16(model *m) { bank_1d(m, 16); }
static void m_bank_stride32(model *m) { bank_1d(m, 32); }
static void m_bank_stride_param(model *m) { bank_1d(m, -3); }
static void m_bank_broadcast(model *m) { bank_1d(m, -1); }
static void m_bank_tid_mod2(model *m) { bank_1d(m, -2); }

static void bank_vec3(model *m, int broadcast)
{
    int n = arg_int(m, 2);
    uint32_t base = (uint32_t)arg_int(m, 3);
    unsigned grid = GX, bs = BX;
    float *in = F32(0, n), *out = F32(1, (uint64_t)grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned k = broadcast ? (base & 127u) : ((base + t) & 127u), g = blk * 384 + 3 * k;
            float x = g < (unsigned)n ? in[g] : 0.0f;
            float y = g + 1 < (unsigned)n ? in[g + 1] : 0.0f;
            float z = g + 2 < (unsigned)n ? in[g + 2] : 0.0f;
            out[blk * bs + t] = (x + y) + z;
        }
}

static void bank_vec2(model *m, int broadcast)
{
    int n = arg_int(m, 2);
    uint32_t base = (uint32_t)arg_int(m, 3);
    unsigned grid = GX, bs = BX;
    float *in = F32(0, n), *out = F32(1, 2 * (uint64_t)grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned k = broadcast ? (base & 127u) : ((base + t) & 127u), g = blk * 256 + 2 * k, o = blk * bs + t;
            out[2 * o] = g < (unsigned)n ? in[g] : 0.0f;
            out[2 * o + 1] = g + 1 < (unsigned)n ? in[g + 1] : u2f(0);
        }
}

static void m_bank_vec3_linear(model *m) { bank_vec3(m, 0); }
static void m_bank_vec3_broadcast(model *m) { bank_vec3(m, 1); }
static void m_bank_vec2_linear(model *m) { bank_vec2(m, 0); }
static void m_bank_vec2_broadcast(model *m) { bank_vec2(m, 1); }

static void m_bank_u8(model *m)
{
    int n = arg_int(m, 2);
    uint32_t base = (uint32_t)arg_int(m, 3);
    unsigned grid = GX, bs = BX;
    int8_t *in = S8(0, n);
    int32_t *out = S32(1, (uint64_t)grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned g = blk * SH + ((base + t) & (SH - 1));
            out[blk * bs + t] = g < (unsigned)n ? in[g] : 0;
        }
}

static void m_bank_s16(model *m)
{
    int n = arg_int(m, 2);
    uint32_t base = (uint32_t)arg_int(m, 3);
    unsigned grid = GX, bs = BX;
    int16_t *in = S16(0, n);
    int32_t *out = S32(1, (uint64_t)grid * bs);
    for (unsigned blk = 0; blk < grid; blk++)
        for (unsigned t = 0; t < bs; t++) {
            unsigned g = blk * SH + ((base + t) & (SH - 1));
            out[blk * bs + t] = g < (unsigned)n ? in[g] : 0;
        }
}

/* 2-D tiles: out[gy*w+gx] = tile element (tx, ty) = in[(by*16+tx)*w + bx*16+ty] (0 outside);
 * the row kernel is a plain copy. */
static void bank_2d(model *m, int by_row)
{
    int w = arg_int(m, 2), h = arg_int(m, 3);
    if (BX != 16 || BY != 16 || (int)GX * 16 < w || (int)GY * 16 < h)
        model_fail(m, "block 16x16 and a grid covering the matrix");
    float *in = F32(0, (uint64_t)w * h), *out = F32(1, (uint64_t)w * h);
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

static void m_bank_2d_row(model *m) { bank_2d(m, 1); }
static void m_bank_2d_col(model *m) { bank_2d(m, 0); }

/* ---- 002_coalescing: copies ---- */

static void copy_k(model *m, unsigned K)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n) * K;
    float *in = F32(0, cnt), *out = F32(1, cnt);
    memcpy(out, in, cnt * sizeof(float));
}

static void m_coalesce_float(model *m) { copy_k(m, 1); }
static void m_coalesce_float2(model *m) { copy_k(m, 2); }
static void m_coalesce_float3(model *m) { copy_k(m, 3); }
static void m_coalesce_float4(model *m) { copy_k(m, 4); }

static void m_coalesce_float2_x(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    float *in = F32(0, 2 * cnt), *out = F32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++)
        out[i] = in[2 * i];
}

static void m_coalesce_soa(model *m)
{
    int n = arg_int(m, 3);
    uint64_t cnt = covered(m, n);
    float *X = F32(0, cnt), *Y = F32(1, cnt), *out = F32(2, 2 * cnt);
    for (uint64_t i = 0; i < cnt; i++) {
        out[2 * i] = X[i];
        out[2 * i + 1] = Y[i];
    }
}

static void struct5(model *m, unsigned K)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    float *in = F32(0, K * cnt), *out = F32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++) {
        const float *s = in + K * i;
        out[i] = (((s[0] + s[1]) + s[2]) + s[3]) + s[4];
    }
}

static void m_coalesce_struct5_aligned(model *m) { struct5(m, 8); }
static void m_coalesce_struct5_packed(model *m) { struct5(m, 5); }

static void m_coalesce_offset(model *m)
{
    int n = arg_int(m, 2), off = arg_int(m, 3);
    uint64_t cnt = covered(m, n);
    float *in = F32(0, cnt + (uint64_t)off), *out = F32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++)
        out[i] = in[i + (uint64_t)off];
}

static void m_coalesce_stride(model *m)
{
    int n = arg_int(m, 2), st = arg_int(m, 3);
    uint64_t cnt = covered(m, n);
    float *in = F32(0, cnt ? (cnt - 1) * (uint64_t)st + 1 : 0), *out = F32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++)
        out[i] = in[i * (uint64_t)st];
}

/* ---- 002_predication ---- */

static void m_predication(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    int32_t *X = S32(0, cnt), *C = S32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++)
        if (X[i] == 10)
            C[i] = (int32_t)((uint32_t)C[i] + 1u);
}

/* ---- 003_divergence ---- */

static void m_div_odd_even(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    float *in = F32(0, cnt), *out = F32(1, cnt);
    for (uint64_t tid = 0; tid < cnt; tid++) {
        float t = 1.0f / (float)(int32_t)tid;   /* rcp.rn.f32: correctly rounded; 1/0 = +inf */
        out[tid] = (tid % 2) ? in[tid] + t : in[tid] - t;
    }
}

/* div_branch_warp, div_ternary_warp: the odd/even choice on (tid / 32) % 2, the same for a warp's 32 lanes */
static void m_div_warp_uniform(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    float *in = F32(0, cnt), *out = F32(1, cnt);
    for (uint64_t tid = 0; tid < cnt; tid++) {
        float t = 1.0f / (float)(int32_t)tid;
        out[tid] = ((tid / 32) % 2) ? in[tid] + t : in[tid] - t;
    }
}

static void m_div_two_per_thread(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    float *in = F32(0, cnt), *out = F32(1, cnt);
    for (uint64_t tid = 0; tid < cnt; tid++) {
        int32_t i = (int32_t)(2 * tid);
        float d = 1.0f / (float)i - 1.0f / (float)(i + 1);
        out[tid] = in[tid] + d;
    }
}

/* ---- 003_sync ---- */

static void m_sync_or_loop(model *m)
{
    int n = arg_int(m, 3);
    unsigned grid = GX, bs = BX;
    if (bs > 1024 || GY != 1 || BY != 1)
        model_fail(m, "1-D blocks of at most 1024 threads");
    uint64_t cnt = covered(m, n);
    uint32_t *in = U32(0, cnt), *out = U32(1, cnt), *iters = U32(2, cnt);
    uint32_t x[1024], acc[1024], it[1024], s[1024];
    int p[1024];
    for (unsigned blk = 0; blk < grid; blk++) {
        int any = 0;
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * bs + t;
            x[t] = i < (unsigned)n ? in[i] : 0u;
            acc[t] = it[t] = 0;
            p[t] = x[t] != 0;
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
                    acc[t] += s[(t + 1) % bs] ^ x[t];
                    x[t] >>= 1;
                    it[t]++;
                    p[t] = x[t] != 0;
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

static void m_sync_count_and_or(model *m)
{
    int n = arg_int(m, 2), thr = arg_int(m, 3);
    unsigned grid = GX, bs = BX;
    int32_t *in = S32(0, covered(m, n)), *stats = S32(1, 3 * (uint64_t)grid);
    for (unsigned blk = 0; blk < grid; blk++) {
        int count = 0, all = 1, any = 0;
        for (unsigned t = 0; t < bs; t++) {
            unsigned i = blk * bs + t;
            int v = i < (unsigned)n ? in[i] : 0;
            count += v > thr;
            all &= v < thr;
            any |= v < -thr;
        }
        stats[3 * blk + 0] = count;
        stats[3 * blk + 1] = all;
        stats[3 * blk + 2] = any;
    }
}

/* ---- 003_atomics (and 003_shuffle's warp_reduce_atomic) ---- */

static void m_atomic_int_total(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    int32_t *in = S32(0, cnt), *total = S32(1, 1);
    uint32_t s = (uint32_t)total[0];
    for (uint64_t i = 0; i < cnt; i++)
        s += (uint32_t)in[i];
    total[0] = (int32_t)s;
}

static void m_atomic_float_total(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    int32_t *in = S32(0, cnt);
    float *total = F32(1, 1);
    float s = total[0];
    for (uint64_t i = 0; i < cnt; i++) {
        if (in[i] < -1000 || in[i] > 1000)
            model_fail(m, "the float atomics model needs |in| <= 1000 (exact partial sums)");
        s += (float)in[i];
    }
    if (cnt > 16000)
        model_fail(m, "the float atomics model needs n <= 16000 (partial sums below 2^24)");
    total[0] = s;
}

/* ---- 003_vote ---- */

static void m_warp_vote(model *m)
{
    int n = arg_int(m, 4), thr = arg_int(m, 5);
    uint64_t nthreads = NTHREADS_X;
    if (BX % 32)
        model_fail(m, "blockDim.x must be a multiple of 32");
    int32_t *in = S32(0, covered(m, n)), *all = S32(1, covered(m, n)), *any = S32(2, covered(m, n));
    uint32_t *ballot = U32(3, nthreads / 32);
    for (uint64_t w = 0; w < nthreads / 32; w++) {
        uint32_t bits = 0;
        for (unsigned l = 0; l < 32; l++) {
            uint64_t i = w * 32 + l;
            if (i < (uint64_t)n && in[i] > thr)
                bits |= 1u << l;
        }
        ballot[w] = bits;
        for (unsigned l = 0; l < 32; l++) {
            uint64_t i = w * 32 + l;
            if (i < (uint64_t)n) {
                all[i] = bits == 0xFFFFFFFFu;
                any[i] = bits != 0;
            }
        }
    }
}

static void m_warp_vote_if(model *m)
{
    int n = arg_int(m, 2), thr = arg_int(m, 3);
    uint64_t cnt = covered(m, n);
    int32_t *in = S32(0, cnt), *out = S32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++) {
        uint32_t x = (uint32_t)in[i];
        out[i] = (int32_t)(in[i] > thr ? x * 2u : x - 1u);
    }
}

/* ---- 003_shuffle ---- */

static void m_warp_allreduce_xor(model *m)
{
    int n = arg_int(m, 2);
    if (BX % 32)
        model_fail(m, "blockDim.x must be a multiple of 32");
    uint64_t cnt = covered(m, n);
    float *in = F32(0, cnt), *out = F32(1, cnt);
    for (uint64_t w = 0; w < NTHREADS_X / 32; w++) {
        float a[32], na[32];
        for (unsigned l = 0; l < 32; l++)
            a[l] = w * 32 + l < cnt ? in[w * 32 + l] : 0.0f;
        for (unsigned k = 1; k < 32; k *= 2) {
            for (unsigned l = 0; l < 32; l++)
                na[l] = a[l] + a[l ^ k];
            memcpy(a, na, sizeof a);
        }
        for (unsigned l = 0; l < 32; l++)
            if (w * 32 + l < cnt)
                out[w * 32 + l] = a[l];
    }
}

static void m_warp_scan_up(model *m)
{
    int n = arg_int(m, 2);
    if (BX % 32)
        model_fail(m, "blockDim.x must be a multiple of 32");
    uint64_t cnt = covered(m, n);
    float *in = F32(0, cnt), *out = F32(1, cnt);
    for (uint64_t w = 0; w < NTHREADS_X / 32; w++) {
        float s[32], ns[32];
        for (unsigned l = 0; l < 32; l++)
            s[l] = w * 32 + l < cnt ? in[w * 32 + l] : 0.0f;
        for (unsigned d = 1; d < 32; d *= 2) {
            for (unsigned l = 0; l < 32; l++)
                ns[l] = l >= d ? s[l] + s[l - d] : s[l];
            memcpy(s, ns, sizeof s);
        }
        for (unsigned l = 0; l < 32; l++)
            if (w * 32 + l < cnt)
                out[w * 32 + l] = s[l];
    }
}

static void m_warp_shfl_lookup(model *m)
{
    int n = arg_int(m, 3);
    uint64_t cnt = covered(m, n);
    float *table = F32(0, 32), *out = F32(2, cnt);
    int32_t *idx = S32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++)
        out[i] = table[(uint32_t)idx[i] & 31u];
}

/* ---- 003_multiprecision ---- */

static void m_mp_add(model *m)
{
    int n = arg_int(m, 3);
    if (BX % 32)
        model_fail(m, "blockDim.x must be a multiple of 32");
    uint64_t cnt = covered(m, n);
    uint32_t *A = U32(0, cnt), *B = U32(1, cnt), *R = U32(2, cnt);
    for (uint64_t w = 0; w < NTHREADS_X / 32; w++) {
        uint32_t r[32], c[32], cin[32];
        int any = 0;
        for (unsigned l = 0; l < 32; l++) {
            uint64_t i = w * 32 + l;
            uint32_t a = i < cnt ? A[i] : 0u, b = i < cnt ? B[i] : 0u;
            r[l] = a + b;
            c[l] = r[l] < a;
            any |= (int)c[l];
        }
        while (any) {
            for (unsigned l = 0; l < 32; l++)
                cin[l] = l == 0 ? 0u : c[l - 1];
            any = 0;
            for (unsigned l = 0; l < 32; l++) {
                r[l] = r[l] + cin[l];
                c[l] = r[l] < cin[l];
                any |= (int)c[l];
            }
        }
        for (unsigned l = 0; l < 32; l++)
            if (w * 32 + l < cnt)
                R[w * 32 + l] = r[l];
    }
}

/* ---- 003_local_memory ---- */

static void m_local_array_dynamic(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    int32_t *in = S32(0, cnt), *out = S32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++) {
        uint32_t x = (uint32_t)in[i], a[17];
        for (uint32_t k = 0; k < 17; k++)
            a[k] = (x * (k + 1u)) ^ (k << 4);
        uint32_t j = x % 17u;
        out[i] = (int32_t)(a[j] + a[(j + 5u) % 17u]);
    }
}

static void m_local_array_four(model *m)
{
    int n = arg_int(m, 2);
    uint64_t cnt = covered(m, n);
    int32_t *in = S32(0, cnt), *out = S32(1, cnt);
    for (uint64_t i = 0; i < cnt; i++) {
        uint32_t x = (uint32_t)in[i], a[4];
        for (uint32_t k = 0; k < 4; k++)
            a[k] = 3u * k + x;
        out[i] = (int32_t)(a[0] * a[1] + a[2] * a[3]);
    }
}

/* ---- 004_matmul: i (row) in x ---- */

static void matmul_i_in_x(model *m, int blocked)
{
    int lda = arg_int(m, 0), ncola = arg_int(m, 1), ncolb = arg_int(m, 3);
    float *a = F32(2, (uint64_t)lda * ncola), *b = F32(4, (uint64_t)ncola * ncolb), *c = F32(5, (uint64_t)lda * ncolb);
    if (blocked && (BX != 8 || BY != 8))
        model_fail(m, "block_matmul needs an 8x8 block");
    int imax = (int)min_u64((uint64_t)lda, NTHREADS_X), jmax = (int)min_u64((uint64_t)ncolb, (uint64_t)GY * BY);
    for (int i = 0; i < imax; i++)
        for (int j = 0; j < jmax; j++) {
            float s = 0.0f;
            if (!blocked) {
                for (int k = 0; k < ncola; k++)
                    s = fmaf(a[i * ncola + k], b[k * ncolb + j], s);
            } else {
                for (int k = 0; k < ncola; k += 8) {   /* only the p valid columns of each block */
                    int p = ncola - k < 8 ? ncola - k : 8;
                    for (int l = 0; l < p; l++)
                        s = fmaf(a[i * ncola + k + l], b[(k + l) * ncolb + j], s);
                }
            }
            c[i * ncolb + j] = s;
        }
}

static void m_matmul_004(model *m) { matmul_i_in_x(m, 0); }
static void m_block_matmul(model *m) { matmul_i_in_x(m, 1); }

typedef struct {
    const char *kernel;
    void (*run)(model *m);
} kernel_model;

static const kernel_model kernel_models[] = {
    /* 004_dynamic_parallelism: each model runs the grids the kernel launches too */
    {"_Z9reductionPfS_i", m_reduction_tail_seed},
    {"_Z18reduction_pingpongPfS_S_S_i", m_reduction_pingpong},
    {"_Z6parentPfiS_", m_fire_and_forget_parent},
    /* 001 */
    {"vector_add_naive", m_vector_add_naive},
    {"vector_add_optimized", m_vector_add_optimized},
    {"matmul_naive", m_matmul_naive},
    {"matmul_optimized", m_matmul_optimized},
    {"transpose_with_bank_conflicts", m_transpose_seed},
    {"transpose_without_bank_conflicts", m_transpose_seed},
    {"transpose_coalesced", m_transpose_coalesced},
    {"reduce_global", m_reduce_global},
    {"reduce_interleaved_divergent", m_reduce_interleaved},
    {"reduce_interleaved_strided", m_reduce_interleaved},
    {"reduce_sequential", m_reduce_sequential},
    {"reduce_optimized", m_reduce_optimized},
    /* 002 */
    {"MatrixMulKernel", m_MatrixMulKernel},
    {"blocMatrixMultiply", m_blocMatrixMultiply},
    {"bank_stride1", m_bank_stride1},
    {"bank_stride2", m_bank_stride2},
    {"bank_stride3", m_bank_stride3},
    {"bank_stride8", m_bank_stride8},
    {"bank_stride16", m_bank_stride16},
    {"bank_stride32", m_bank_stride32},
    {"bank_stride_param", m_bank_stride_param},
    {"bank_broadcast", m_bank_broadcast},
    {"bank_tid_mod2", m_bank_tid_mod2},
    {"bank_vec3_linear", m_bank_vec3_linear},
    {"bank_vec3_broadcast", m_bank_vec3_broadcast},
    {"bank_vec2_linear", m_bank_vec2_linear},
    {"bank_vec2_broadcast", m_bank_vec2_broadcast},
    {"bank_u8", m_bank_u8},
    {"bank_s16", m_bank_s16},
    {"bank_2d_16x16_row", m_bank_2d_row},
    {"bank_2d_16x16_col", m_bank_2d_col},
    {"bank_2d_16x17_col", m_bank_2d_col},
    {"bank_2d_diag", m_bank_2d_col},
    {"coalesce_float", m_coalesce_float},
    {"coalesce_float2", m_coalesce_float2},
    {"coalesce_float3", m_coalesce_float3},
    {"coalesce_float4", m_coalesce_float4},
    {"coalesce_float2_x", m_coalesce_float2_x},
    {"coalesce_soa", m_coalesce_soa},
    {"coalesce_struct5_aligned", m_coalesce_struct5_aligned},
    {"coalesce_struct5_packed", m_coalesce_struct5_packed},
    {"coalesce_offset", m_coalesce_offset},
    {"coalesce_stride", m_coalesce_stride},
    {"predication_if", m_predication},
    {"predication_branch", m_predication},
    /* 003 */
    {"div_branch", m_div_odd_even},
    {"div_hoisted", m_div_odd_even},
    {"div_ternary", m_div_odd_even},
    {"div_two_per_thread", m_div_two_per_thread},
    {"div_branch_warp", m_div_warp_uniform},
    {"div_ternary_warp", m_div_warp_uniform},
    {"sync_or_loop", m_sync_or_loop},
    {"sync_count_and_or", m_sync_count_and_or},
    {"atomic_reduce_global", m_atomic_int_total},
    {"atomic_reduce_shared", m_atomic_int_total},
    {"atomic_reduce_float_global", m_atomic_float_total},
    {"atomic_reduce_float_shared", m_atomic_float_total},
    {"warp_vote", m_warp_vote},
    {"warp_vote_if", m_warp_vote_if},
    {"warp_allreduce_xor", m_warp_allreduce_xor},
    {"warp_reduce_atomic", m_atomic_int_total},
    {"warp_scan_up", m_warp_scan_up},
    {"warp_shfl_lookup", m_warp_shfl_lookup},
    {"mp_add", m_mp_add},
    {"local_array_dynamic", m_local_array_dynamic},
    {"local_array_loop", m_local_array_four},
    {"local_array_unrolled", m_local_array_four},
    /* 004 */
    {"matmul", m_matmul_004},
    {"block_matmul", m_block_matmul},
    {"dot_product", m_dot_product},
    {"reduction", m_reduction_004},
};

/* Kernels whose launches are run but not compared, each with its reason.
 * (None today: every programs/ kernel has a model.) */
static const struct { const char *kernel, *reason; } unmodelled_kernels[] = {
    {"_Z5scalePfif", "launched from the device only: its parent's model (_Z6parentPfiS_) computes what it does"},
    {"_Z8checksumPKfiPf", "launched from the device only: its parent's model (_Z6parentPfiS_) computes what it does"},
    {NULL, NULL},
};

static const kernel_model *find_model(const char *kernel)
{
    for (size_t i = 0; i < sizeof kernel_models / sizeof kernel_models[0]; i++)
        if (kernel && !strcmp(kernel_models[i].kernel, kernel))
            return &kernel_models[i];
    return NULL;
}

static const char *unmodelled_reason(const char *kernel)
{
    for (size_t i = 0; unmodelled_kernels[i].kernel; i++)
        if (kernel && !strcmp(unmodelled_kernels[i].kernel, kernel))
            return unmodelled_kernels[i].reason;
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* 3. Figures: launch, group, counter ratio, expected value                   */

enum { EQ, GT };

typedef struct {
    const char *launch;      /* relative to programs/ */
    int group;               /* 0-based launch group */
    int num, den;            /* WS_CTR_* counters: num / den, or num alone when den < 0 */
    int op;                  /* EQ: == expect (within 1e-9); GT: > expect */
    double expect;
    const char *why;         /* the hand computation */
} figure;

#define C(x) WS_CTR_##x
#define NONE (-1)

static const figure figures[] = {
    /* ---- 001_transpose: the flagship demo (hopper: 32 banks x 4 bytes, whole warp) ---- */
    {"001_transpose/demo.launch", 0, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 32,
     "s_data[tx][ty] in float[32][32]: word 32*tx+ty, bank ty for all 32 lanes: 32 words in one bank"},
    {"001_transpose/demo.launch", 0, C(shared_st_wavefronts), C(shared_st_inst), EQ, 1,
     "s_data[ty][tx]: 32 consecutive words, 32 banks"},
    {"001_transpose/demo.launch", 0, C(shared_ld_wavefronts), NONE, EQ, 1048576,
     "32 wavefronts x 1024 blocks x 32 warps"},
    {"001_transpose/demo.launch", 0, C(shared_wavefronts), NONE, EQ, 1081344,
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared (loads and stores): (32 + 1) x 32768 warps; "
     "per request (16.5) it mixes the conflict-free store with the 32-way load"},
    {"001_transpose/demo.launch", 1, C(shared_wavefronts), NONE, EQ, 65536, "(1 + 1) x 32768 warps"},
    {"001_transpose/demo.launch", 0, C(global_ld_sectors), C(global_ld_requests), EQ, 4,
     "in[y*N+x]: 32 consecutive floats at a multiple of 128 bytes"},
    {"001_transpose/demo.launch", 0, C(global_st_sectors), C(global_st_requests), EQ, 32,
     "out[x*N+y]: the 32 lanes store into 32 rows 4 KiB apart: one sector each"},
    {"001_transpose/demo.launch", 1, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 1,
     "s_data[tx][ty] in float[32][33]: word 33*tx+ty, bank (tx+ty)%32: all different"},
    {"001_transpose/demo.launch", 1, C(shared_st_wavefronts), C(shared_st_inst), EQ, 1, "a row: 32 banks"},
    {"001_transpose/demo.launch", 1, C(global_st_sectors), C(global_st_requests), EQ, 32, "still uncoalesced"},
    {"001_transpose/all.launch", 2, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 1, "padded tile, by column"},
    {"001_transpose/all.launch", 2, C(global_st_sectors), C(global_st_requests), EQ, 4,
     "out[y*height+x]: 32 consecutive floats"},
    {"001_transpose/all.launch", 2, C(global_ld_sectors), C(global_ld_requests), EQ, 4, "coalesced load"},

    /* ---- 001_vector_add: every access coalesced ---- */
    {"001_vector_add/vector_add.launch", 0, C(global_ld_sectors), C(global_ld_requests), EQ, 4, "32 x 4 B, aligned"},
    {"001_vector_add/vector_add.launch", 0, C(global_st_sectors), C(global_st_requests), EQ, 4, "32 x 4 B, aligned"},
    {"001_vector_add/vector_add.launch", 0, C(global_ld_requests), NONE, EQ, 65536,
     "2 loads x 32768 warps (N = 2^20, one element per thread)"},
    {"001_vector_add/vector_add.launch", 1, C(global_ld_requests), NONE, EQ, 65536, "the seed's grid: one trip each"},
    {"001_vector_add/vector_add.launch", 2, C(global_ld_sectors), C(global_ld_requests), EQ, 4, "grid-stride: coalesced"},
    {"001_vector_add/vector_add.launch", 2, C(global_ld_requests), NONE, EQ, 65536,
     "264 blocks: the same 2^20 elements, 2 loads per 32 of them"},

    /* ---- 001_matmul: n = 128, 16 blocks of 32 warps = 512 warps ---- */
    {"001_matmul/matmul.launch", 0, C(global_ld_requests), NONE, EQ, 131072, "512 warps x 128 k x 2 loads"},
    {"001_matmul/matmul.launch", 0, C(global_ld_sectors), NONE, EQ, 327680,
     "per k: A[row*n+k] one word for the warp (1 sector) + B[k*n+col] 32 floats (4): 512 x 128 x 5"},
    {"001_matmul/matmul.launch", 1, C(global_ld_requests), NONE, EQ, 4096,
     "512 warps x 4 tiles x 2 loads: 32 times fewer"},
    {"001_matmul/matmul.launch", 1, C(global_ld_sectors), NONE, EQ, 16384, "4096 requests x 4 sectors"},
    {"001_matmul/matmul.launch", 1, C(shared_wavefronts), C(shared_ld_inst), GT, 0, "(shared is used)"},
    {"001_matmul/matmul.launch", 1, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 1,
     "As[ty][k]: one word for the warp; Bs[k][tx]: a row"},

    /* ---- 001_reduction: 512 blocks of 256 (v3: 256 blocks) ---- */
    {"001_reduction/reduction.launch", 0, C(branch_targets_divergent), NONE, EQ, 3072,
     "per block: s = 16..1 split warp 0 (5) + tid == 0 (1): 6 x 512 (ncu on an H100 counts 1 per divergent branch)"},
    {"001_reduction/reduction.launch", 1, C(branch_targets_divergent), NONE, EQ, 24576,
     "tid % 2s: s = 1..16 split all 8 warps (40), s = 32: 4 warps, 64: 2, 128: 1, tid == 0: 1 -> 48 x 512"},
    {"001_reduction/reduction.launch", 1, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 1,
     "the active lanes are spread out, but each reads its own word: no conflict"},
    {"001_reduction/reduction.launch", 2, C(shared_ld_wavefronts), NONE, EQ, 48640,
     "per block: stride 2s: s=1: 4 warps x 2 loads x 2, s=2: 2x2x4, s=4: 2x8, s=8: 2x8, s=16: 2x8, "
     "s=32: 2x4, s=64: 2x2, s=128: 2x1, final sdata[0]: 1 -> 95 x 512"},
    {"001_reduction/reduction.launch", 2, C(shared_ld_inst), NONE, EQ, 12800,
     "per block: 8 + 4 + 2 x 6 load requests + 1 -> 25 x 512"},
    {"001_reduction/reduction.launch", 2, C(branch_targets_divergent), NONE, EQ, 3072,
     "index < 256: s = 8..128 split warp 0 (5) + tid == 0 (1): 6 x 512"},
    {"001_reduction/reduction.launch", 3, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 1, "sequential addressing"},
    {"001_reduction/reduction.launch", 3, C(shared_ld_bank_conflicts), NONE, EQ, 0, "conflict-free"},
    {"001_reduction/reduction.launch", 3, C(branch_targets_divergent), NONE, EQ, 3072,
     "tid < s: s = 16..1 split warp 0 (5) + tid == 0 (1): 6 x 512"},
    {"001_reduction/reduction.launch", 4, C(barriers), NONE, EQ, 6144,
     "per block: 8 warps x (1 + 2 steps s = 128, 64): 24 x 256 blocks"},
    {"001_reduction/reduction.launch", 4, C(shared_ld_bank_conflicts), NONE, EQ, 0, "conflict-free"},

    /* ---- 002_bank_conflicts: the gallery; each launch is one pattern, fill and read ---- */
#define BANK(file, g, v, why) \
    {"002_bank_conflicts/" file, g, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, v, why}, \
    {"002_bank_conflicts/" file, g, C(shared_wavefronts), C(shared_ld_inst) /* + st: same count */, EQ, 2 * (v), \
     "the fill touches the same words: wavefronts per request = " #v}
    /* hopper: cost = the largest number of distinct words one bank holds, over the warp */
    BANK("strides.launch", 0, 1, "stride 1: 32 banks"),
    BANK("strides.launch", 1, 2, "stride 2: 16 banks, 2 words each"),
    BANK("strides.launch", 2, 1, "stride 3, odd: 32 banks"),
    BANK("strides.launch", 3, 8, "stride 8: 4 banks, 8 words each"),
    BANK("strides.launch", 4, 16, "stride 16: 2 banks, 16 words each"),
    BANK("strides.launch", 5, 32, "stride 32: 1 bank, 32 words"),
    BANK("strides.launch", 6, 1, "broadcast: one word"),
    BANK("strides.launch", 7, 1, "tid % 2: two words, banks 0 and 1"),
    BANK("types.launch", 0, 1, "vec3 field: stride 3"),
    BANK("types.launch", 1, 1, "vec3 broadcast"),
    BANK("types.launch", 2, 2, "vec2 field: stride 2"),
    BANK("types.launch", 3, 1, "vec2 broadcast"),
    BANK("types.launch", 4, 1, "char[tid]: 8 words, 4 lanes each"),
    BANK("types.launch", 5, 1, "short[tid]: 16 words, 2 lanes each"),
    BANK("tiles.launch", 0, 1, "a warp = rows ty, ty+1: 32 consecutive words"),
    BANK("tiles.launch", 1, 8, "Ms[tx][ty], 16-wide: words 16tx+ty and 16tx+ty+1: banks ty and 16+ty for the "
                               "first row, ty+1 and 17+ty for the second: 8 words per bank"),
    BANK("tiles.launch", 2, 2, "Ms[tx][ty], 17-wide: words 17tx+ty, 17tx+ty+1: 31 banks hold one word, bank ty "
                               "holds two (tx = 0 of the first row, tx = 15 of the second: 256 apart)"),
    BANK("tiles.launch", 3, 1, "diagonal: 32 different banks"),
    BANK("stride.launch", 0, 1, "stride 7, odd"),
    /* g80: 16 banks, each half-warp on its own, a warp request = the sum over both halves */
    BANK("strides_g80.launch", 0, 2, "1 + 1"),
    BANK("strides_g80.launch", 1, 4, "stride 2: 2-way per half-warp"),
    BANK("strides_g80.launch", 2, 2, "stride 3: conflict-free"),
    BANK("strides_g80.launch", 3, 16, "stride 8: 8-way per half-warp"),
    BANK("strides_g80.launch", 4, 32, "stride 16: 16-way"),
    BANK("strides_g80.launch", 5, 32, "stride 32: 16-way"),
    BANK("strides_g80.launch", 6, 2, "broadcast: 1 per half-warp"),
    BANK("strides_g80.launch", 7, 4, "tid % 2: one broadcast word per step: 2 per half-warp (the slides' 2 cycles)"),
    BANK("types_g80.launch", 0, 2, "vec3 field: stride 3 (the slides: 3 loads x 1 cycle = 3 cycles)"),
    BANK("types_g80.launch", 1, 2, "vec3 broadcast (3 loads: 3 cycles)"),
    BANK("types_g80.launch", 2, 4, "vec2 field: stride 2, 2-way (2 loads x 2 = the slides' 4 cycles)"),
    BANK("types_g80.launch", 3, 2, "vec2 broadcast (2 loads: 2 cycles)"),
    BANK("types_g80.launch", 4, 8, "char: 4 words in 4 banks, 4 lanes each, one broadcast word per step: 4 per half"),
    BANK("types_g80.launch", 5, 4, "short: 8 words, 2 lanes each: 2 per half"),
    BANK("tiles_g80.launch", 0, 2, "a half-warp = one row"),
    BANK("tiles_g80.launch", 1, 32, "a half-warp reads a column of Ms[16][16]: bank ty, 16 words"),
    BANK("tiles_g80.launch", 2, 2, "Ms[16][17] by column: bank (tx+ty)%16"),
    BANK("tiles_g80.launch", 3, 2, "diagonal layout by column: bank (tx+ty)%16"),
#undef BANK

    /* ---- 002_coalescing: sectors per request (hopper) ---- */
    {"002_coalescing/coalescing.launch", 0, C(global_ld_sectors), C(global_ld_requests), EQ, 4, "float: 128 B"},
    {"002_coalescing/coalescing.launch", 1, C(global_ld_sectors), C(global_ld_requests), EQ, 8, "float2: 256 B"},
    {"002_coalescing/coalescing.launch", 2, C(global_ld_sectors), C(global_ld_requests), EQ, 12,
     "float3: each of 3 loads spans 32 x 12 = 384 B"},
    {"002_coalescing/coalescing.launch", 2, C(global_ld_requests), NONE, EQ, 3072, "3 loads x 1024 warps"},
    {"002_coalescing/coalescing.launch", 3, C(global_ld_sectors), C(global_ld_requests), EQ, 16, "float4: 512 B"},
    {"002_coalescing/coalescing.launch", 4, C(global_ld_sectors), C(global_ld_requests), EQ, 8,
     "globalVec2[tid].x: 128 useful bytes spread over 256"},
    {"002_coalescing/coalescing.launch", 5, C(global_ld_sectors), C(global_ld_requests), EQ, 4, "SoA: 2 x 128 B"},
    {"002_coalescing/coalescing.launch", 5, C(global_st_sectors), C(global_st_requests), EQ, 8, "float2 store"},
    {"002_coalescing/coalescing.launch", 6, C(global_ld_sectors), C(global_ld_requests), EQ, 32,
     "aligned struct: 2 x v4 loads, lanes 32 B apart: each lane its own sector"},
    {"002_coalescing/coalescing.launch", 6, C(global_ld_requests), NONE, EQ, 2048, "2 loads x 1024 warps"},
    {"002_coalescing/coalescing.launch", 7, C(global_ld_sectors), C(global_ld_requests), EQ, 20,
     "packed struct: 5 loads, lanes 20 B apart: 640 B each"},
    {"002_coalescing/coalescing.launch", 7, C(global_ld_requests), NONE, EQ, 5120, "5 loads x 1024 warps"},
    {"002_coalescing/coalescing.launch", 8, C(global_ld_sectors), C(global_ld_requests), EQ, 5,
     "in[tid + 3]: 128 B starting 12 B into a sector"},
    {"002_coalescing/coalescing.launch", 9, C(global_ld_sectors), C(global_ld_requests), EQ, 20,
     "in[tid * 5]: lanes 20 B apart"},

    /* ---- 002_matmul_g80 (hopper) ---- */
    {"002_matmul_g80/matmul_g80.launch", 0, C(global_ld_requests), NONE, EQ, 256, "8 warps x 16 k x 2 loads"},
    {"002_matmul_g80/matmul_g80.launch", 1, C(global_ld_requests), NONE, EQ, 8192,
     "64 blocks x 8 warps x 8 steps x 2 loads"},
    {"002_matmul_g80/matmul_g80.launch", 1, C(shared_wavefronts), C(shared_ld_inst), GT, 0, "(shared is used)"},
    {"002_matmul_g80/matmul_g80.launch", 1, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 1,
     "Ms[ty][k], Ms[ty+1][k]: banks 16 apart; Ns[k][tx]: 16 consecutive words"},

    /* ---- 002_predication ---- */
    {"002_predication/predication.launch", 0, C(branch_targets), NONE, EQ, 6144,
     "no bra, but ptxas -O0 branches around the 3 guarded memory accesses: 3 x 2048 warps (as ncu counted on an H100)"},
    {"002_predication/predication.launch", 1, C(branch_targets_divergent), NONE, GT, 0,
     "a warp with one x == 10 lane splits"},
    {"002_predication/predication.launch", 2, C(branch_targets), NONE, EQ, 6144, "the guarded accesses again"},
    {"002_predication/predication.launch", 3, C(branch_targets_divergent), NONE, EQ, 0,
     "x == 10 everywhere: every warp goes the same way"},

    /* ---- 003_divergence: 2048 warps ---- */
    {"003_divergence/divergence.launch", 0, C(branch_targets_divergent), NONE, EQ, 2049,
     "tid % 2 splits every warp: 2048; rcp.rn.f32 of 0 (thread 0) leaves its warp's fast path: 1 (ncu, H100)"},
    {"003_divergence/divergence.launch", 1, C(branch_targets_divergent), NONE, EQ, 2049, "still the same split"},
    {"003_divergence/divergence.launch", 2, C(branch_targets_divergent), NONE, EQ, 1, "selp: only rcp's fast-path test"},
    {"003_divergence/divergence.launch", 3, C(branch_targets_divergent), NONE, EQ, 1, "no condition: only rcp's"},
    {"003_divergence/divergence.launch", 2, C(thread_inst_executed), C(inst_executed), EQ, 32, "SIMT efficiency 100%"},

    /* ---- 003_sync ---- */
    {"003_sync/sync.launch", 1, C(barriers), NONE, EQ, 384, "3 bar.red x 2 warps x 64 blocks"},

    /* ---- 003_atomics: 63 blocks of 8 warps; n = 16000 = 500 full warps ---- */
    {"003_atomics/atomics.launch", 0, C(global_red_inst), NONE, EQ, 500, "one red per warp with a lane i < n"},
    {"003_atomics/atomics.launch", 1, C(global_red_inst), NONE, EQ, 63, "one per block"},
    {"003_atomics/atomics.launch", 1, C(shared_atom_inst), NONE, EQ, 500, "one per warp with a lane i < n"},
    {"003_atomics/atomics.launch", 2, C(global_red_inst), NONE, EQ, 500, "one red per warp"},
    {"003_atomics/atomics.launch", 3, C(global_red_inst), NONE, EQ, 63, "one per block"},

    /* ---- 003_vote ---- */
    {"003_vote/vote.launch", 0, C(branch_targets), NONE, EQ, 1024,
     "votes are no branches; the guarded stores are, at ptxas -O0 (ncu on an H100 counted 1024)"},
    {"003_vote/vote.launch", 2, C(branch_targets_divergent), NONE, EQ, 0, "a vote is warp-uniform"},
    {"003_vote/vote.launch", 3, C(branch_targets_divergent), NONE, EQ, 0, "a vote is warp-uniform"},

    /* ---- 003_shuffle ---- */
    {"003_shuffle/shuffle.launch", 0, C(shared_ld_inst), NONE, EQ, 0, "registers only"},
    {"003_shuffle/shuffle.launch", 1, C(global_red_inst), NONE, EQ, 256, "one atomic per warp: 32 blocks x 8 warps"},
    {"003_shuffle/shuffle.launch", 2, C(branch_targets_divergent), NONE, EQ, 0, "laneid >= d is predicated"},

    /* ---- 003_multiprecision ---- */
    {"003_multiprecision/worst_case.launch", 0, C(inst_executed), NONE, EQ, 285,
     "24 before the loop + 32 rounds x 8 (the carry crosses 31 limbs, then leaves) + last vote and bra 2 + 3"},
    {"003_multiprecision/multiprecision.launch", 2, C(inst_executed), NONE, EQ, 1856,
     "no carry: 24 + 2 + 3 = 29 per warp x 64 warps"},

    /* ---- 003_local_memory: 256 warps ---- */
    {"003_local_memory/local_memory.launch", 0, C(local_st_inst), NONE, EQ, 4352, "17 stores x 256 warps"},
    {"003_local_memory/local_memory.launch", 0, C(local_ld_inst), NONE, EQ, 512, "2 loads x 256 warps"},
    {"003_local_memory/local_memory.launch", 1, C(local_st_inst), NONE, EQ, 1024, "4 stores x 256 warps"},
    {"003_local_memory/local_memory.launch", 1, C(local_ld_inst), NONE, EQ, 256, "1 v4 load x 256 warps"},
    {"003_local_memory/local_memory.launch", 2, C(local_ld_inst), NONE, EQ, 0, "registers only"},
    {"003_local_memory/local_memory.launch", 2, C(local_st_inst), NONE, EQ, 0, "registers only"},

    /* ---- 004 ---- */
    {"004_matmul/matmul.launch", 0, C(global_ld_sectors), C(global_ld_requests), EQ, 4.5,
     "a[i*ncola+k]: 8 rows (8 sectors); b[k*ncolb+j]: 4 consecutive floats (1)"},
    {"004_matmul/matmul.launch", 0, C(global_st_sectors), C(global_st_requests), EQ, 8, "c: 8 rows"},
    {"004_matmul/matmul.launch", 1, C(shared_ld_wavefronts), C(shared_ld_inst), EQ, 1.5,
     "blockA[tx][l]: word 8tx+l, lanes tx and tx+4 share a bank (2); blockB[l][ty]: 4 words of one row (1)"},
    {"004_matmul/matmul.launch", 1, C(shared_st_wavefronts), C(shared_st_inst), EQ, 2,
     "[tx][ty]: word 8tx+ty, tx and tx+4 share a bank"},
    {"004_dot/dot.launch", 0, C(global_st_requests), NONE, EQ, 2048, "every warp stores c[blockIdx.x]: 8 x 256"},
    {"004_dot/dot.launch", 0, C(global_st_sectors), NONE, EQ, 2048, "one word: one sector per request"},
    {"004_reduction/reduction.launch", 0, C(barriers), NONE, EQ, 28152, "(1 + 8 steps) x 8 warps x 391 blocks"},
    {"004_reduction/reduction.launch", 2, C(barriers), NONE, EQ, 72, "(1 + 8) x 8 warps x 1 block"},
};

#undef C

/* ------------------------------------------------------------------------ */
/* running a launch                                                           */

typedef struct {
    ws_run_options o;
    ws_session s;
    ptx_diag diag;
    int opened;
    uint8_t **initial;   /* the buffers before the run */
} run;

static void run_free(run *r)
{
    if (r->initial) {
        for (int b = 0; b < r->o.buffer_count; b++)
            free(r->initial[b]);
        free(r->initial);
    }
    if (r->opened)
        ws_session_close(&r->s);
    ptx_diag_free(&r->diag);
    ws_run_options_free(&r->o);
    memset(r, 0, sizeof *r);
}

/* Parse, open and run a launch text; NULL on success, else a message. */
static const char *run_text(run *r, const char *text, const char *path)
{
    static char msg[4096];
    char err[2048] = "";
    memset(r, 0, sizeof *r);
    if (ws_run_options_parse_launch_text(text, strlen(text), path, &r->o, err, sizeof err) != WS_LAUNCH_OK) {
        snprintf(msg, sizeof msg, "%s", err);
        return msg;
    }
    if (ws_session_open(&r->s, &r->o, &r->diag, err, sizeof err)) {
        snprintf(msg, sizeof msg, "%s %s", r->diag.count ? r->diag.lines[0] : "", err);
        return msg;
    }
    r->opened = 1;
    r->initial = calloc((size_t)r->o.buffer_count, sizeof *r->initial);
    for (int b = 0; b < r->o.buffer_count; b++) {
        r->initial[b] = malloc(r->s.buffers[b]->size);
        memcpy(r->initial[b], r->s.buffers[b]->bytes, r->s.buffers[b]->size);
    }
    if (ws_session_run(&r->s, err, sizeof err)) {
        snprintf(msg, sizeof msg, "run failed: %s", err);
        return msg;
    }
    return NULL;
}

/* First differing element of a buffer, as a message; NULL if equal. */
static const char *compare_buffer(const char *what, const char *name, ptx_type type, const uint8_t *got,
                                  const uint8_t *want, size_t bytes)
{
    static char msg[1024];
    if (!memcmp(got, want, bytes))
        return NULL;
    size_t elem = ptx_types[type].size ? ptx_types[type].size : 1, first = 0;
    while (memcmp(got + first * elem, want + first * elem, elem) == 0)
        first++;
    uint64_t g = 0, w = 0;
    memcpy(&g, got + first * elem, elem);
    memcpy(&w, want + first * elem, elem);
    if (type == PTX_F32)
        snprintf(msg, sizeof msg, "%s: buffer '%s' differs first at element %zu: got %.9g (0x%08x), expected %.9g (0x%08x)",
                 what, name, first, u2f((uint32_t)g), (unsigned)g, u2f((uint32_t)w), (unsigned)w);
    else
        snprintf(msg, sizeof msg, "%s: buffer '%s' differs first at element %zu: got 0x%llx, expected 0x%llx", what,
                 name, first, (unsigned long long)g, (unsigned long long)w);
    return msg;
}

/* The figures of figures[] that belong to this launch file, on its finished run. */
static const char *check_figures(const char *rel, const run *r)
{
    static char msg[2048];
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        const figure *fg = &figures[i];
        if (strncmp(rel, "programs/", 9) || strcmp(rel + 9, fg->launch))
            continue;
        if (fg->group >= r->s.launch_count) {
            snprintf(msg, sizeof msg, "%s: figure for launch group %d, but the file has %d", rel, fg->group,
                     r->s.launch_count);
            return msg;
        }
        const uint64_t *c = r->s.launches[fg->group].counters;
        double value = fg->den >= 0 ? (c[fg->den] ? (double)c[fg->num] / (double)c[fg->den] : NAN) : (double)c[fg->num];
        int ok = fg->op == EQ ? fabs(value - fg->expect) < 1e-9 : value > fg->expect;
        if (!ok) {
            snprintf(msg, sizeof msg, "%s group %d (%s): %s%s%s = %.6g, expected %s %.6g (%s)", rel, fg->group,
                     r->o.groups[fg->group].kernel ? r->o.groups[fg->group].kernel : "?", ws_counters[fg->num].metric,
                     fg->den >= 0 ? " / " : "", fg->den >= 0 ? ws_counters[fg->den].metric : "", value,
                     fg->op == EQ ? "==" : ">", fg->expect, fg->why);
            return msg;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Test 1: every programs/ launch file                                        */

static const char *check_launch_file(const char *rel)
{
    static char msg[4096];
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", WARPSIM_SOURCE_DIR, rel);
    char *text = read_text(path, NULL);
    if (!text) {
        snprintf(msg, sizeof msg, "%s: cannot read", rel);
        return msg;
    }
    run r;
    const char *failure = run_text(&r, text, path);
    free(text);
    if (failure) {
        snprintf(msg, sizeof msg, "%s: %s", rel, failure);
        run_free(&r);
        return msg;
    }
    /* the model: the same groups, in order, over copies of the initial buffers */
    model m = {.o = &r.o, .file = rel};
    m.bytes = calloc((size_t)r.o.buffer_count, sizeof *m.bytes);
    for (int b = 0; b < r.o.buffer_count; b++) {
        m.bytes[b] = malloc(r.s.buffers[b]->size);
        memcpy(m.bytes[b], r.initial[b], r.s.buffers[b]->size);
    }
    const char *result = NULL;
    int compare = 1;
    if (setjmp(model_abort)) {
        result = model_msg;
        compare = 0;
    } else {
        for (int gi = 0; gi < r.o.group_count; gi++) {
            m.g = &r.o.groups[gi];
            const kernel_model *km = find_model(m.g->kernel);
            if (!km) {
                if (unmodelled_reason(m.g->kernel)) {
                    compare = 0;   /* listed, with its reason: run, not compared */
                    break;
                }
                snprintf(msg, sizeof msg, "%s: kernel '%s' has no C model: add one to kernel_models[] "
                         "(or list it in unmodelled_kernels[] with the reason)", rel,
                         m.g->kernel ? m.g->kernel : "(unnamed: name the kernel in the launch file)");
                result = msg;
                compare = 0;
                break;
            }
            km->run(&m);
        }
    }
    for (int b = 0; compare && !result && b < r.o.buffer_count; b++) {
        const char *d = compare_buffer(rel, r.o.buffers[b].name, r.o.buffers[b].type, r.s.buffers[b]->bytes,
                                       m.bytes[b], r.s.buffers[b]->size);
        if (d) {
            snprintf(msg, sizeof msg, "%s", d);
            result = msg;
        }
    }
    if (!result) {
        const char *f = check_figures(rel, &r);
        if (f) {
            snprintf(msg, sizeof msg, "%s", f);
            result = msg;
        }
    }
    for (int b = 0; b < r.o.buffer_count; b++)
        free(m.bytes[b]);
    free(m.bytes);
    run_free(&r);
    return result;
}

START_TEST(launch_file_matches_model)
{
    const char *failure = check_launch_file(launch_files.items[_i]);
    ck_assert_msg(failure == NULL, "%s", failure);
}
END_TEST

/* Add to `launched` the kernels a launched kernel launches from the device (dynamic parallelism: its code
 * takes their address, mov.u64 %rd, kernel), and theirs. */
static void launched_from_device(strlist *launched)
{
    for (int f = 0; f < ptx_files.count; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", WARPSIM_SOURCE_DIR, ptx_files.items[f]);
        ptx_module *m = ptx_parse_file(path, NULL);
        for (int grew = 1; m && grew;) {
            grew = 0;
            for (int fn = 0; fn < m->function_count; fn++) {
                int in_list = 0;
                for (int l = 0; l < launched->count && !in_list; l++)
                    in_list = !strcmp(launched->items[l], m->functions[fn].name);
                for (int i = 0; in_list && i < m->functions[fn].instr_count; i++)
                    for (int k = 0; k < m->functions[fn].instrs[i].operand_count; k++) {
                        const ptx_operand *o = &m->functions[fn].instrs[i].operand[k];
                        if (o->kind != PTX_OPD_FUNCTION)
                            continue;
                        const char *child = m->functions[o->reg].name;
                        int have = 0;
                        for (int l = 0; l < launched->count && !have; l++)
                            have = !strcmp(launched->items[l], child);
                        if (!have) {
                            strlist_add(launched, child);
                            grew = 1;
                        }
                    }
            }
        }
        if (m)
            ptx_module_free(m);
    }
}

/* Every kernel of every programs/ PTX file is launched by some .launch file (or from the device by a kernel
 * one launches), and has a model (or a listed reason). */
START_TEST(every_kernel_is_launched)
{
    strlist launched = {0};
    for (int f = 0; f < launch_files.count; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", WARPSIM_SOURCE_DIR, launch_files.items[f]);
        char *text = read_text(path, NULL);
        ck_assert_msg(text != NULL, "%s: cannot read", launch_files.items[f]);
        ws_run_options o;
        char err[2048];
        ck_assert_msg(ws_run_options_parse_launch_text(text, strlen(text), path, &o, err, sizeof err) == WS_LAUNCH_OK,
                      "%s", err);
        for (int g = 0; g < o.group_count; g++)
            if (o.groups[g].kernel)
                strlist_add(&launched, o.groups[g].kernel);
        ws_run_options_free(&o);
        free(text);
    }
    launched_from_device(&launched);
    int kernels = kernel_names.count;
    for (int k = 0; k < kernel_names.count; k++) {
        const char *name = kernel_names.items[k], *file = ptx_files.items[kernel_file[k]];
        int found = 0;
        for (int l = 0; l < launched.count && !found; l++)
            found = !strcmp(launched.items[l], name);
        ck_assert_msg(found, "%s: kernel %s is not launched by any programs/ .launch file", file, name);
        ck_assert_msg(find_model(name) || unmodelled_reason(name), "%s: kernel %s has no C model", file, name);
    }
    strlist_free(&launched);
    ck_assert_msg(kernels >= 60, "only %d kernels found under programs/", kernels);
}
END_TEST

/* Every figure names a launch file that exists (so a typo cannot skip it). */
START_TEST(every_figure_has_its_launch_file)
{
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        int found = 0;
        for (int f = 0; f < launch_files.count && !found; f++)
            found = !strcmp(launch_files.items[f] + 9, figures[i].launch);
        ck_assert_msg(found, "figures[%zu]: no launch file programs/%s", i, figures[i].launch);
    }
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Test 2: the course's cases on the hand-written PTX                         */

/* The programs/ PTX file that defines every kernel the launch text names, or NULL. */
static const char *program_ptx_for(const char *launch_text)
{
    static char found[4096];
    found[0] = 0;
    const char *p = launch_text;
    int names = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (len > 7 && !strncmp(p, "kernel ", 7)) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(len - 7), p + 7);
            names++;
            const char *where = NULL;
            for (int k = 0; k < kernel_names.count && !where; k++)
                if (!strcmp(kernel_names.items[k], name))
                    where = ptx_files.items[kernel_file[k]];
            if (!where || (found[0] && strcmp(found, where)))
                return NULL;
            snprintf(found, sizeof found, "%s", where);
        }
        p += len + (eol ? 1 : 0);
    }
    return names ? found : NULL;
}

START_TEST(course_case_on_program_ptx)
{
    const course_case *cc = &course_cases[_i];
    const char *ptx = program_ptx_for(cc->launch);
    if (!ptx)
        return;   /* a course kernel the programs do not include (device functions, managed memory, ...) */
    char path[4096];
    snprintf(path, sizeof path, "%s/programs/course_case_%s.launch", WARPSIM_SOURCE_DIR, cc->name);
    size_t len = strlen(cc->launch) + 4096;
    char *text = malloc(len);
    snprintf(text, len, "ptx %s/%s\n%s", WARPSIM_SOURCE_DIR, ptx, cc->launch);
    run r;
    const char *failure = run_text(&r, text, path);
    free(text);
    if (failure) {
        run_free(&r);
        ck_abort_msg("course case %s on %s: %s", cc->name, ptx, failure);
    }
    ref_buffers ref = {r.o.buffer_count, calloc((size_t)r.o.buffer_count, sizeof(char *)),
                       calloc((size_t)r.o.buffer_count, sizeof(size_t)),
                       calloc((size_t)r.o.buffer_count, sizeof(uint8_t *))};
    for (int b = 0; b < r.o.buffer_count; b++) {
        ref.names[b] = r.o.buffers[b].name;
        ref.counts[b] = r.o.buffers[b].count;
        ref.bytes[b] = malloc(r.s.buffers[b]->size);
        memcpy(ref.bytes[b], r.initial[b], r.s.buffers[b]->size);
    }
    cc->reference(&ref);
    char what[512];
    snprintf(what, sizeof what, "course case %s on %s", cc->name, ptx);
    const char *diff = NULL;
    for (int b = 0; b < r.o.buffer_count && !diff; b++)   /* every buffer: outputs and untouched inputs */
        diff = compare_buffer(what, r.o.buffers[b].name, r.o.buffers[b].type, r.s.buffers[b]->bytes, ref.bytes[b],
                              r.s.buffers[b]->size);
    char saved[1024] = "";
    if (diff)
        snprintf(saved, sizeof saved, "%s", diff);
    for (int b = 0; b < r.o.buffer_count; b++)
        free(ref.bytes[b]);
    free(ref.names);
    free(ref.counts);
    free(ref.bytes);
    run_free(&r);
    ck_assert_msg(!saved[0], "%s", saved);
}
END_TEST

/* At least the cases of every exercise whose kernels the course has ran. */
START_TEST(course_cases_cover_the_programs)
{
    int n = 0;
    for (size_t i = 0; i < course_case_count; i++)
        n += program_ptx_for(course_cases[i].launch) != NULL;
    ck_assert_msg(n >= 70, "only %d course cases apply to programs/ PTX", n);
}
END_TEST

/* ------------------------------------------------------------------------ */

int main(void)
{
    discover();
    Suite *suite = suite_create("programs");

    TCase *tc = tcase_create("launch_files");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_kernel_is_launched);
    tcase_add_test(tc, every_figure_has_its_launch_file);
    tcase_add_loop_test(tc, launch_file_matches_model, 0, launch_files.count);
    suite_add_tcase(suite, tc);

    TCase *tc2 = tcase_create("course_cases");
    tcase_set_timeout(tc2, 300);
    tcase_add_test(tc2, course_cases_cover_the_programs);
    tcase_add_loop_test(tc2, course_case_on_program_ptx, 0, (int)course_case_count);
    suite_add_tcase(suite, tc2);

    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
