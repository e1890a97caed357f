/*
 * --jobs N: blocks simulated on N threads must give what one thread gives.
 * Every course kernel (tests/course/cases.c, nvcc's PTX in tests/nvcc/) runs
 * with 1 and with 2, 3 and 4 jobs: every launch counter, every
 * per-instruction counter and every buffer must be identical, bit for bit --
 * except where blocks meet in global memory, which depends on the order they
 * reach it (as on a GPU): the buffers of kernels that add floats atomically
 * there (rounding depends on the order), and everything of kernels that loop
 * on atom.cas there (how often a block retries depends on the others).
 * Then the cases where one thread and several could part: the fault of the
 * lowest failing block is the one reported, the step budget counts the
 * launch's warp-instructions in block order (and every worker's steps),
 * the timing model's sums that do not depend on the blocks' order are the
 * same, and --trace-warp prints the same trace.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/session.h"
#include "sim/timing_internal.h"
#include "tests/course/cases.h"

/* The course cases' reference functions are not run here. */
void *ref_buf(ref_buffers *b, const char *name, size_t *count)
{
    (void)b; (void)name; (void)count;
    return NULL;
}

/* What one run leaves behind. */
typedef struct {
    int launches;
    uint64_t (*counters)[WS_CTR_COUNT];        /* per launch */
    uint64_t *instr;                           /* every launch's per-instruction counters, flattened */
    size_t instr_count;
    uint8_t **buffers;
    size_t *buffer_sizes;
    int buffer_count;
    char error[2048];
    int status;
    ws_timing_sums timing;                     /* the first launch's, where timed (run_text's `timed`) */
    ws_timing_result result;                   /* and its predicted time */
} run_result;

static void result_free(run_result *r)
{
    for (int b = 0; b < r->buffer_count; b++)
        free(r->buffers[b]);
    free(r->buffers);
    free(r->buffer_sizes);
    free(r->counters);
    free(r->instr);
    memset(r, 0, sizeof *r);
}

/* Run a launch text (with its "ptx" line) on `jobs` threads; `timed`: the timing model on. */
static void run_text_timed(const char *text, int jobs, int timed, run_result *r)
{
    memset(r, 0, sizeof *r);
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/jobs.launch", WARPSIM_SOURCE_DIR);
    ws_run_options o;
    ck_assert_msg(ws_run_options_parse_launch_text(text, strlen(text), path, &o, r->error, sizeof r->error) ==
                  WS_LAUNCH_OK, "launch text: %s", r->error);
    o.jobs = jobs;
    /* The counts are the judges here. The timing model's stalls may differ with --jobs:
     * which block reads a sector first (and waits for DRAM) follows the threads' timing. */
    o.no_timing = !timed;
    ptx_diag diag = {0};
    ws_session s;
    ck_assert_msg(ws_session_open(&s, &o, &diag, r->error, sizeof r->error) == 0, "open: %s %s",
                  diag.count ? diag.lines[0] : "", r->error);
    r->status = ws_session_run(&s, r->error, sizeof r->error);
    r->launches = s.launch_count;
    if (timed && s.launch_count > 0 && s.launches[0].timing) {
        r->timing = s.launches[0].timing->sums;
        r->result = s.launches[0].timing->result;
    }
    r->counters = calloc((size_t)s.launch_count + 1, sizeof *r->counters);
    for (int l = 0; l < s.launch_count; l++) {
        const ws_launch *L = &s.launches[l];
        memcpy(r->counters[l], L->counters, sizeof r->counters[l]);
        for (int f = 0; f < s.module->function_count; f++) {
            if (!L->instr_counters || !L->instr_counters[f])
                continue;
            size_t n = (size_t)(s.module->functions[f].instr_count + 1) * WS_CTR_COUNT;
            r->instr = realloc(r->instr, (r->instr_count + n) * sizeof *r->instr);
            memcpy(r->instr + r->instr_count, L->instr_counters[f], n * sizeof *r->instr);
            r->instr_count += n;
        }
    }
    r->buffer_count = o.buffer_count;
    r->buffers = calloc((size_t)o.buffer_count + 1, sizeof *r->buffers);
    r->buffer_sizes = calloc((size_t)o.buffer_count + 1, sizeof *r->buffer_sizes);
    for (int b = 0; b < o.buffer_count; b++) {
        r->buffer_sizes[b] = s.buffers[b]->size;
        r->buffers[b] = malloc(s.buffers[b]->size);
        memcpy(r->buffers[b], s.buffers[b]->bytes, s.buffers[b]->size);
    }
    ws_session_close(&s);
    ptx_diag_free(&diag);
    ws_run_options_free(&o);
}

static void run_text(const char *text, int jobs, run_result *r) { run_text_timed(text, jobs, 0, r); }

/* What in a kernel depends on the order its blocks run in. */
enum { SAME_COUNTERS = 1, SAME_BUFFERS = 2 };

static int order_independent(const char *ptx_path, const char *kernel)
{
    ptx_diag diag = {0};
    ptx_module *m = ptx_parse_file(ptx_path, &diag);
    int same = SAME_COUNTERS | SAME_BUFFERS;
    for (int f = 0; m && f < m->function_count; f++) {
        if (kernel && m->functions[f].is_entry && strcmp(m->functions[f].name, kernel) != 0)
            continue;
        for (int i = 0; i < m->functions[f].instr_count; i++) {
            const ptx_instr *in = &m->functions[f].instrs[i];
            if ((in->opcode != OP_atom && in->opcode != OP_red) || in->space == PTX_SPACE_SHARED)
                continue;
            if (in->type == PTX_F32 || in->type == PTX_F64)
                same &= ~SAME_BUFFERS;
            if (in->mode == PTX_ATOM_CAS)
                same = 0;
        }
    }
    if (m)
        ptx_module_free(m);
    ptx_diag_free(&diag);
    return same;
}

/* The kernel a case's launch text names first (the cases launch one kernel, or one twice). */
static const char *case_kernel(const course_case *cc, char *name, size_t len)
{
    const char *k = strstr(cc->launch, "kernel ");
    if (!k)
        return NULL;
    k += strlen("kernel ");
    size_t n = strcspn(k, "\n");
    snprintf(name, len, "%.*s", (int)n, k);
    return name;
}

static const char *course_text(const course_case *cc, char *text, size_t len)
{
    snprintf(text, len, "ptx %s/%s\n%s", WARPSIM_SOURCE_DIR, cc->ptx, cc->launch);
    return text;
}

START_TEST(course_kernels_same_with_jobs)
{
    const course_case *cc = &course_cases[_i];
    size_t len = strlen(cc->launch) + 2048;
    char *text = malloc(len);
    course_text(cc, text, len);
    char ptx[1024], kernel[256];
    snprintf(ptx, sizeof ptx, "%s/%s", WARPSIM_SOURCE_DIR, cc->ptx);
    int same = order_independent(ptx, case_kernel(cc, kernel, sizeof kernel));
    run_result one;
    run_text(text, 1, &one);
    ck_assert_msg(one.status == 0, "%s: %s", cc->name, one.error);
    for (int jobs = 2; jobs <= 4; jobs++) {
        run_result many;
        run_text(text, jobs, &many);
        ck_assert_msg(many.status == 0, "%s, %d jobs: %s", cc->name, jobs, many.error);
        ck_assert_int_eq(many.launches, one.launches);
        for (int l = 0; (same & SAME_COUNTERS) && l < one.launches; l++)
            for (int c = 0; c < WS_CTR_COUNT; c++)
                ck_assert_msg(many.counters[l][c] == one.counters[l][c], "%s, %d jobs, launch %d: %s is %llu, not %llu",
                              cc->name, jobs, l, ws_counters[c].metric, (unsigned long long)many.counters[l][c],
                              (unsigned long long)one.counters[l][c]);
        ck_assert_uint_eq(many.instr_count, one.instr_count);
        ck_assert_msg(!(same & SAME_COUNTERS) || memcmp(many.instr, one.instr, one.instr_count * sizeof *one.instr) == 0,
                      "%s, %d jobs: per-instruction counters differ", cc->name, jobs);
        if (same & SAME_BUFFERS)
            for (int b = 0; b < one.buffer_count; b++)
                ck_assert_msg(memcmp(many.buffers[b], one.buffers[b], one.buffer_sizes[b]) == 0,
                              "%s, %d jobs: buffer %d differs", cc->name, jobs, b);
        result_free(&many);
    }
    result_free(&one);
    free(text);
}
END_TEST

/* ---- Where one thread and several could part ----------------------------- */

static const char faulting_ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    "// blocks 5, 9 and 13 write past the end of out; block 2 loops for a while first\n"
    ".visible .entry k(.param .u64 out, .param .u32 spin)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r5, [spin];\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  setp.ne.s32 %p1, %r1, 2;\n"
    "  @%p1 bra DONE_SPIN;\n"
    "  mov.u32 %r6, 0;\n"
    "SPIN:\n"
    "  add.s32 %r6, %r6, 1;\n"
    "  setp.lt.u32 %p2, %r6, %r5;\n"
    "  @%p2 bra SPIN;\n"
    "DONE_SPIN:\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mad.lo.s32 %r3, %r1, 32, %r2;\n"
    "  and.b32 %r4, %r1, 3;\n"
    "  setp.eq.s32 %p3, %r4, 1;\n"
    "  setp.gt.u32 %p1, %r1, 4;\n"
    "  and.pred %p3, %p3, %p1;\n"
    "  @%p3 add.s32 %r3, %r3, 100000;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

static char *write_temp(const char *contents, char *path, size_t len)
{
    snprintf(path, len, "/tmp/warpsim_test_jobs_%d.ptx", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(contents, f);
    fclose(f);
    return path;
}

/* The launch of `text` fails on one thread with an error naming `needle`, and with that same error on
 * 2 to `most` threads (every `step`-th count). */
static void same_fault_with_jobs(const char *text, const char *needle, int most, int step)
{
    run_result one;
    run_text(text, 1, &one);
    ck_assert_int_eq(one.status, 1);
    ck_assert_msg(strstr(one.error, needle) != NULL, "%s", one.error);
    for (int jobs = 2; jobs <= most; jobs += step) {
        run_result many;
        run_text(text, jobs, &many);
        ck_assert_int_eq(many.status, 1);
        ck_assert_str_eq(many.error, one.error);
        result_free(&many);
    }
    result_free(&one);
}

/* Grids of 16 blocks (each worker takes one block at a time) and of 1024 (workers take runs of
 * up to 16 consecutive blocks, sim/grid.c: a run holds the failing block 5 and later ones that
 * fail too, and other runs fail above it). */
static const int fault_grids[] = {16, 1024};

START_TEST(lowest_failing_block_is_reported)
{
    char path[256], text[1024];
    write_temp(faulting_ptx, path, sizeof path);
    int grid = fault_grids[_i];
    snprintf(text, sizeof text, "ptx %s\ngrid %d\nblock 32\nbuf out=u32:%d\narg out\narg u32:20000\n", path, grid,
             grid * 32);
    same_fault_with_jobs(text, "block (5,0,0)", 8, 1);
    remove(path);
}
END_TEST

START_TEST(step_budget_counts_in_block_order)
{
    char path[256], text[1024];
    write_temp(faulting_ptx, path, sizeof path);
    /* Block 2 spins 20000 times (3 warp-instructions each): with a budget of
     * 50000 the launch stops there, before block 5's fault, whatever the number
     * of threads (a thread running block 5 alone would reach the fault first). */
    int grid = fault_grids[_i];
    for (int budget_case = 0; budget_case < 2; budget_case++) {
        snprintf(text, sizeof text, "ptx %s\ngrid %d\nblock 32\nbuf out=u32:%d\narg out\narg u32:20000\n%s", path,
                 grid, grid * 32, budget_case ? "max-steps 50000\n" : "max-steps 1000000\n");
        same_fault_with_jobs(text, budget_case ? "step budget" : "block (5,0,0)", 4, 1);
    }
    remove(path);
}
END_TEST

/* Blocks 2 and 10 spin 13000 times each (some 39000 warp-instructions), block 21 faults. With a
 * budget of 50000 one thread stops in block 10; on 2 or 4 threads, workers take runs of 8 or 4
 * consecutive blocks (256 blocks), so no worker alone passes the budget, and only the step counts
 * each block of a run leaves behind say that blocks 0-20 did: the budget, not block 21's fault. */
static const char two_spins_ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 spin)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r5, [spin];\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  setp.eq.s32 %p1, %r1, 2;\n"
    "  setp.eq.s32 %p2, %r1, 10;\n"
    "  or.pred %p1, %p1, %p2;\n"
    "  @!%p1 bra DONE_SPIN;\n"
    "  mov.u32 %r6, 0;\n"
    "SPIN:\n"
    "  add.s32 %r6, %r6, 1;\n"
    "  setp.lt.u32 %p2, %r6, %r5;\n"
    "  @%p2 bra SPIN;\n"
    "DONE_SPIN:\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mad.lo.s32 %r3, %r1, 32, %r2;\n"
    "  setp.eq.s32 %p3, %r1, 21;\n"
    "  @%p3 add.s32 %r3, %r3, 100000000;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

/* `ptx` (two_spins_ptx or a variant) on 256 blocks with a budget of 50000: the step budget's error on 1, 2 and
 * 4 threads. */
static void spins_over_budget(const char *ptx)
{
    char path[256], text[1024];
    write_temp(ptx, path, sizeof path);
    snprintf(text, sizeof text,
             "ptx %s\ngrid 256\nblock 32\nbuf out=u32:8192\narg out\narg u32:13000\nmax-steps 50000\n", path);
    same_fault_with_jobs(text, "step budget", 4, 2);
    remove(path);
}

START_TEST(step_budget_over_runs_of_blocks)
{
    spins_over_budget(two_spins_ptx);
}
END_TEST

/* The same spins without block 21's fault: the launch passes its budget only when every worker's steps
 * are added up (on 2 or 4 threads no worker alone passes it, as above), and fails as on one thread. */
START_TEST(step_budget_of_all_workers_together)
{
    char ptx[sizeof two_spins_ptx];
    snprintf(ptx, sizeof ptx, "%s", two_spins_ptx);
    char *faulting = strstr(ptx, "%r1, 21;");
    ck_assert_ptr_nonnull(faulting);
    memcpy(faulting, "%r1,999;", 8);   /* no such block */
    spins_over_budget(ptx);
}
END_TEST

/* With the timing model on, what it adds up block by block whatever their order: issue slots, the L1's
 * lookups and hits (each block's own L1), the sectors read from the L2 (every L1 miss). The L2's and
 * DRAM's share of them depends on which block reads a sector first, so those are not compared. */
START_TEST(timing_sums_the_same_with_jobs)
{
    char text[2048];
    snprintf(text, sizeof text,
             "ptx %s/tests/nvcc/001_matmul.ptx\nkernel matmul_optimized\ngrid 4,4\nblock 16,16\n"
             "buf A=f32:4096:random=1\nbuf B=f32:4096:random=2\nbuf C=f32:4096\narg A\narg B\narg C\narg s32:64\n",
             WARPSIM_SOURCE_DIR);
    run_result one;
    run_text_timed(text, 1, 1, &one);
    ck_assert_msg(one.status == 0, "%s", one.error);
    ck_assert_uint_gt(one.timing.issued, 0);
    ck_assert_uint_gt(one.timing.traffic.l1_lookups, 0);
    for (int jobs = 2; jobs <= 5; jobs += 3) {
        run_result many;
        run_text_timed(text, jobs, 1, &many);
        ck_assert_msg(many.status == 0, "%d jobs: %s", jobs, many.error);
        ck_assert_uint_eq(many.timing.issued, one.timing.issued);
        ck_assert_uint_eq(many.timing.traffic.l1_lookups, one.timing.traffic.l1_lookups);
        ck_assert_uint_eq(many.timing.traffic.l1_hits, one.timing.traffic.l1_hits);
        ck_assert_uint_eq(many.timing.traffic.l2_read_sectors, one.timing.traffic.l2_read_sectors);
        ck_assert_uint_eq(many.timing.traffic.l2_write_sectors, one.timing.traffic.l2_write_sectors);
        result_free(&many);
    }
    result_free(&one);
}
END_TEST

/* Blocks of uneven length whose timing does not depend on the order they run in (tests/ptx/uneven_blocks.ptx):
 * placed on the SMs as each is done on one thread, from their records at the end under --jobs
 * (sim/timing_blocks.c), the same predicted time, bound, occupancy and stalls. */
START_TEST(timing_placed_the_same_with_jobs)
{
    char text[1024];
    snprintf(text, sizeof text,
             "ptx %s/tests/ptx/uneven_blocks.ptx\nkernel k\ngrid 2000\nblock 64\nbuf out=f32:128000\narg out\n",
             WARPSIM_SOURCE_DIR);
    run_result one;
    run_text_timed(text, 1, 1, &one);
    ck_assert_msg(one.status == 0, "%s", one.error);
    ck_assert_double_gt(one.result.cycles, 0);
    ck_assert_double_gt(one.result.achieved_occupancy, 0);
    for (int jobs = 2; jobs <= 5; jobs += 3) {
        run_result many;
        run_text_timed(text, jobs, 1, &many);
        ck_assert_msg(many.status == 0, "%d jobs: %s", jobs, many.error);
        ck_assert_msg(memcmp(&many.result, &one.result, sizeof one.result) == 0,
                      "%d jobs: %.1f cycles, one thread %.1f", jobs, many.result.cycles, one.result.cycles);
        result_free(&many);
    }
    result_free(&one);
}
END_TEST

/* `warpsim run ... --trace-warp` with and without jobs: the same output but for the timing line. */
static char *run_cli(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && %s run %s 2>&1 | grep -v 'simulator host time'", WARPSIM_SOURCE_DIR, WARPSIM_BINARY,
             args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    for (size_t got; (got = fread(out + n, 1, cap - n - 1, p)) > 0;) {
        n += got;
        if (n + 1 == cap)
            out = realloc(out, cap *= 2);
    }
    out[n] = 0;
    pclose(p);
    return out;
}

START_TEST(trace_is_the_same_with_jobs)
{
    const char *launch = "tests/nvcc/001_transpose.ptx --kernel transpose_with_bank_conflicts --grid 4,4 --block 32,8 "
                         "--buf in=f32:16384:random=1 --buf out=f32:16384 --arg in --arg out --arg s32:128 "
                         "--trace-warp 9:3 --no-timing";   /* the Time section may differ with --jobs (see run_text) */
    char args[1024];
    snprintf(args, sizeof args, "%s --jobs 1", launch);
    char *one = run_cli(args);
    ck_assert_msg(strstr(one, "trace of block 9 warp 3") != NULL, "%s", one);
    for (int jobs = 2; jobs <= 4; jobs++) {
        snprintf(args, sizeof args, "%s --jobs %d", launch, jobs);
        char *many = run_cli(args);
        ck_assert_str_eq(many, one);
        free(many);
    }
    free(one);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("jobs");
    TCase *tc = tcase_create("course");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, course_kernels_same_with_jobs, 0, (int)course_case_count);
    suite_add_tcase(suite, tc);
    TCase *edges = tcase_create("edges");
    tcase_set_timeout(edges, 120);
    tcase_add_loop_test(edges, lowest_failing_block_is_reported, 0, (int)(sizeof fault_grids / sizeof fault_grids[0]));
    tcase_add_loop_test(edges, step_budget_counts_in_block_order, 0,
                        (int)(sizeof fault_grids / sizeof fault_grids[0]));
    tcase_add_test(edges, step_budget_over_runs_of_blocks);
    tcase_add_test(edges, step_budget_of_all_workers_together);
    tcase_add_test(edges, timing_sums_the_same_with_jobs);
    tcase_add_test(edges, timing_placed_the_same_with_jobs);
    tcase_add_test(edges, trace_is_the_same_with_jobs);
    suite_add_tcase(suite, edges);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}
