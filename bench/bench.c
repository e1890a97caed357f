/*
 * warpsim_bench: how fast the simulator runs the course's kernels.
 *
 * For each workload it simulates the kernel from nvcc's PTX (tests/nvcc/)
 * with every counter on, as `warpsim run` does, and runs the same
 * computation as plain C on the CPU (bench/native.c); it checks that both
 * computed the same result and prints, per workload, the simulated
 * warp-instructions per second and how many times longer the simulation
 * took than the native run.
 *
 *   build/bench/warpsim_bench [--quick] [--repeat N] [--jobs N] [--only NAME]
 *
 * --quick runs small sizes (the ctest smoke run); --repeat keeps the best of
 * N simulations; --jobs simulates blocks on N threads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/native.h"
#include "sim/session.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The initial contents of the session's buffers, for the native run. */
typedef struct {
    ws_session *session;
    float *copy[8];
    int count;
} native_buffers;

static float *buf(native_buffers *b, int i) { return b->copy[i]; }

typedef struct {
    const char *name;
    const char *ptx;                  /* relative to the source directory */
    int full_size, quick_size;        /* the problem size n */
    /* The launch text for size n (buffers in the order the native run takes them). */
    void (*launch)(int n, char *text, size_t len);
    void (*native)(native_buffers *b, int n);
    int output;                       /* index of the buffer compared */
    int exact;                        /* bit for bit; else within a relative 1e-4 */
} workload;

/* ---- The workloads ---------------------------------------------------------- */

static void launch_vector_add(int n, char *t, size_t len)
{
    snprintf(t, len,
             "kernel vector_add_naive\ngrid %d\nblock 256\n"
             "buf A=f32:%d:random=1\nbuf B=f32:%d:random=2\nbuf C=f32:%d\n"
             "arg A\narg B\narg C\narg s32:%d\n", (n + 255) / 256, n, n, n, n);
}
static void native_vector_add_run(native_buffers *b, int n) { native_vector_add(buf(b, 0), buf(b, 1), buf(b, 2), n); }

static void launch_matmul(const char *kernel, int n, char *t, size_t len)
{
    snprintf(t, len,
             "kernel %s\ngrid %d,%d\nblock 32,32\n"
             "buf A=f32:%d:random=1\nbuf B=f32:%d:random=2\nbuf C=f32:%d\n"
             "arg A\narg B\narg C\narg s32:%d\n", kernel, (n + 31) / 32, (n + 31) / 32, n * n, n * n, n * n, n);
}
static void launch_matmul_naive(int n, char *t, size_t len) { launch_matmul("matmul_naive", n, t, len); }
static void launch_matmul_tiled(int n, char *t, size_t len) { launch_matmul("matmul_optimized", n, t, len); }
static void native_matmul_naive_run(native_buffers *b, int n) { native_matmul_naive(buf(b, 0), buf(b, 1), buf(b, 2), n); }
static void native_matmul_tiled_run(native_buffers *b, int n) { native_matmul_tiled(buf(b, 0), buf(b, 1), buf(b, 2), n); }

static void launch_transpose(const char *kernel, int n, char *t, size_t len)
{
    snprintf(t, len,
             "kernel %s\ngrid %d,%d\nblock 32,32\n"
             "buf in=f32:%d:random=1\nbuf out=f32:%d\n"
             "arg in\narg out\narg s32:%d\n", kernel, n / 32, n / 32, n * n, n * n, n);
}
static void launch_transpose_conflicts(int n, char *t, size_t len)
{
    launch_transpose("transpose_with_bank_conflicts", n, t, len);
}
static void launch_transpose_padded(int n, char *t, size_t len)
{
    launch_transpose("transpose_without_bank_conflicts", n, t, len);
}
static void native_transpose_run(native_buffers *b, int n) { native_transpose_tiled(buf(b, 0), buf(b, 1), n); }

static void launch_reduction(int n, char *t, size_t len)
{
    snprintf(t, len,
             "kernel reduce_sequential\ngrid %d\nblock 256\nshared 1024\n"
             "buf in=f32:%d:random=1\nbuf out=f32:%d\n"
             "arg in\narg out\narg s32:%d\n", (n + 255) / 256, n, (n + 255) / 256, n);
}
static void native_reduction_run(native_buffers *b, int n) { native_reduce_blocks(buf(b, 0), buf(b, 1), n, 256); }

static const workload workloads[] = {
    {"vector_add", "tests/nvcc/001_vector_add.ptx", 1 << 20, 1 << 14, launch_vector_add, native_vector_add_run, 2, 1},
    {"matmul naive", "tests/nvcc/001_matmul.ptx", 512, 64, launch_matmul_naive, native_matmul_naive_run, 2, 0},
    {"matmul tiled", "tests/nvcc/001_matmul.ptx", 512, 64, launch_matmul_tiled, native_matmul_tiled_run, 2, 0},
    {"transpose conflicts", "tests/nvcc/001_transpose.ptx", 1024, 64, launch_transpose_conflicts,
     native_transpose_run, 1, 1},
    {"transpose padded", "tests/nvcc/001_transpose.ptx", 1024, 64, launch_transpose_padded,
     native_transpose_run, 1, 1},
    {"reduction", "tests/nvcc/001_reduction.ptx", 1 << 20, 1 << 14, launch_reduction, native_reduction_run, 1, 1},
};

/* ---- Running one -------------------------------------------------------------- */

typedef struct {
    uint64_t warp_instructions;
    double sim_seconds, native_seconds;
    int ok;
    char message[512];
} result;

static int outputs_match(const float *got, const float *want, size_t count, int exact, char *msg, size_t len)
{
    for (size_t i = 0; i < count; i++) {
        int same = exact ? memcmp(&got[i], &want[i], sizeof(float)) == 0
                         : fabsf(got[i] - want[i]) <= 1e-4f * (1.0f + fabsf(want[i]));
        if (!same) {
            snprintf(msg, len, "output differs from the native run at element %zu: %.9g, native %.9g", i,
                     (double)got[i], (double)want[i]);
            return 0;
        }
    }
    return 1;
}

static result run_workload(const workload *w, int n, int repeat, int jobs)
{
    result r = {0};
    char text[2048], path[1024], err[2048] = "";
    snprintf(path, sizeof path, "%s/bench/bench.launch", WARPSIM_SOURCE_DIR);
    int len = snprintf(text, sizeof text, "ptx %s/%s\n", WARPSIM_SOURCE_DIR, w->ptx);
    w->launch(n, text + len, sizeof text - (size_t)len);
    for (int attempt = 0; attempt < repeat; attempt++) {
        ws_run_options o;
        if (ws_run_options_parse_launch_text(text, strlen(text), path, &o, err, sizeof err) != WS_LAUNCH_OK) {
            snprintf(r.message, sizeof r.message, "launch text: %s", err);
            return r;
        }
        o.jobs = jobs;
        ptx_diag diag = {0};
        ws_session s;
        if (ws_session_open(&s, &o, &diag, err, sizeof err)) {
            snprintf(r.message, sizeof r.message, "%s %s", diag.count ? diag.lines[0] : "", err);
            ptx_diag_free(&diag);
            ws_run_options_free(&o);
            return r;
        }
        native_buffers nb = {&s, {0}, o.buffer_count};
        for (int b = 0; b < o.buffer_count && b < 8; b++) {
            nb.copy[b] = malloc(s.buffers[b]->size);
            memcpy(nb.copy[b], s.buffers[b]->bytes, s.buffers[b]->size);
        }
        int failed = ws_session_run(&s, err, sizeof err);
        double sim = 0;
        uint64_t instructions = 0;
        for (int l = 0; l < s.launch_count; l++) {
            sim += s.seconds[l];
            instructions += s.launches[l].counters[WS_CTR_inst_executed];
        }
        if (failed) {
            snprintf(r.message, sizeof r.message, "simulation failed: %s", err);
        } else if (attempt == 0) {
            /* The native run: repeated until it has taken a measurable time; the best run counts. */
            double best = 1e30, spent = 0;
            for (int k = 0; k < 3 || spent < 0.3; k++) {
                double t0 = now_seconds();
                w->native(&nb, n);
                double t = now_seconds() - t0;
                best = t < best ? t : best;
                spent += t;
            }
            r.native_seconds = best;
            const ws_allocation *out = s.buffers[w->output];
            r.ok = outputs_match((const float *)out->bytes, nb.copy[w->output], out->size / sizeof(float), w->exact,
                                 r.message, sizeof r.message);
            r.warp_instructions = instructions;
            r.sim_seconds = sim;
        } else if (sim < r.sim_seconds) {
            r.sim_seconds = sim;
        }
        for (int b = 0; b < 8; b++)
            free(nb.copy[b]);
        ws_session_close(&s);
        ptx_diag_free(&diag);
        ws_run_options_free(&o);
        if (failed) {
            r.ok = 0;
            return r;
        }
    }
    return r;
}

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--quick] [--repeat N] [--jobs N] [--only NAME]\n", argv0);
    return 2;
}

int main(int argc, char **argv)
{
    int quick = 0, repeat = 1, jobs = 1;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
            jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else
            return usage(argv[0]);
    }
    if (repeat < 1 || jobs < 1)
        return usage(argv[0]);
    printf("%-26s %12s %10s %12s %11s %10s\n", "workload", "warp-instr", "sim (s)", "M w-inst/s", "native (s)",
           "sim/native");
    int failures = 0;
    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; i++) {
        const workload *w = &workloads[i];
        if (only && !strstr(w->name, only))
            continue;
        int n = quick ? w->quick_size : w->full_size;
        char label[64];
        if (n % (1 << 20) == 0)
            snprintf(label, sizeof label, "%s %dM", w->name, n >> 20);
        else
            snprintf(label, sizeof label, "%s %d", w->name, n);
        result r = run_workload(w, n, repeat, jobs);
        if (!r.ok) {
            printf("%-26s FAILED: %s\n", label, r.message);
            failures++;
            continue;
        }
        printf("%-26s %12llu %10.3f %12.1f %11.5f %10.1f\n", label, (unsigned long long)r.warp_instructions,
               r.sim_seconds, r.warp_instructions / r.sim_seconds / 1e6, r.native_seconds,
               r.sim_seconds / r.native_seconds);
        fflush(stdout);
    }
    return failures ? 1 : 0;
}
