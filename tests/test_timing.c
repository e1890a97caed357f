/*
 * The timing model (sim/timing.c) on hand-written PTX whose cycles can be
 * counted by hand from the preset's parameters: a dependent chain, a
 * barrier, cache hits and misses, DRAM bytes, occupancy with registers, and
 * the opcode table. Comments show each count.
 */
#include <math.h>
#include <unistd.h>

#include "sim/report.h"
#include "sim/report_lines.h"
#include "sim/sass.h"
#include "sim/timing.h"
#include "sim/timing_internal.h"
#include "sim/timing_result.h"
#include "sim/timing_wide.h"
#include "tests/sim_run.h"

static const ws_timing_result *result(sim_run *r, int launch)
{
    const ws_timing_result *t = ws_timing_result_of(&r->session.launches[launch]);
    ck_assert_msg(r->status == 0, "run: %s", r->err);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* mov, then ten adds each reading the one before: with the ALU's latency L,
 * add k issues at k*L, the last result is ready at 10*L + 1 (its issue slot). */
static const char chain[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .f32 %f<2>;\n"
    "  mov.f32 %f1, 0f3F800000;\n"
    "  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n"
    "  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n"
    "  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n"
    "  ret;\n"
    "}\n";

/* The L1's set index without a division: the remainder itself, for set counts the blocks get and the ends
 * of both ranges. */
START_TEST(fastmod_is_the_remainder)
{
    static const uint32_t divisors[] = {1, 2, 3, 4, 7, 48, 96, 112, 224, 447, 448, 1000, 65535, 65536, 65537,
                                        0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        uint32_t d = divisors[i];
        uint64_t magic = ws_fastmod_magic(d);
        static const uint32_t edges[] = {0, 1, 2, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
            ck_assert_uint_eq(ws_fastmod_u32(edges[e], magic, d), edges[e] % d);
            ck_assert_uint_eq(ws_fastmod_u32(d * 5u + edges[e], magic, d), (d * 5u + edges[e]) % d);
        }
        for (int k = 0; k < 100000; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
            uint32_t n = (uint32_t)(x >> 32);
            ck_assert_uint_eq(ws_fastmod_u32(n, magic, d), n % d);
        }
    }
}
END_TEST

START_TEST(dependent_chain)
{
    sim_run *r = run(chain, "kernel k\ngrid 1\nblock 32\n");
    const ws_arch *a = ws_arch_default();
    const ws_timing_result *t = result(r, 0);
    double cycles = 10.0 * a->latency_alu + 1;   /* 41 on hopper */
    ck_assert_double_eq_tol(t->cycles, cycles, 1e-9);
    ck_assert_double_eq_tol(t->duration_ns, cycles * 1000.0 / a->timing_clock_mhz + a->launch_overhead_ns, 1e-6);
    /* 12 warp-instructions, one slot each */
    ck_assert_uint_eq(r->session.launches[0].counters[WS_CTR_issue_slots], 12);
    ck_assert_int_eq(t->bound, WS_BOUND_LAUNCH);   /* 41 cycles against 2.2 us */
    ck_assert_uint_eq(t->dram_read_bytes + t->dram_write_bytes, 0);
    done(r);
}
END_TEST

/* The same chain at --build O0: in order, each PTX instruction becomes its class's SASS
 * instructions (sim/sass_o0.def: mov 4, float arithmetic 2, ret 1: 4 + 10*2 + 1 = 25
 * slots) and each SASS instruction holds the warp o0_sass_cycles (H: 14 on hopper). The
 * mov ends at 4H, each add (its operand long ready) 2H later, ret H later: 25H = 350
 * cycles, 24 of each 25 in ncu's wait (H - 1 per slot: 25 * 13 = 325). */
START_TEST(dependent_chain_at_o0)
{
    sim_run *r = run(chain, "kernel k\ngrid 1\nblock 32\nbuild O0\n");
    const ws_arch *a = ws_arch_default();
    const ws_timing_result *t = result(r, 0);
    ck_assert_uint_eq(a->o0_sass_cycles, 14);
    ck_assert_uint_eq(r->session.launches[0].counters[WS_CTR_issue_slots], 25);
    ck_assert_double_eq_tol(t->cycles, 350, 1e-9);
    ck_assert_uint_eq(r->session.launches[0].counters[WS_CTR_stall_wait], 325);
    done(r);
}
END_TEST

/* The classes of sim/sass_o0.def, as the H100's -O0 listings show them. */
START_TEST(o0_classes)
{
    static const struct { const char *ptx; ws_o0_class cls; } cases[] = {
        {"mov.u32 %r1, %tid.x;", WS_O0_mov},           {"mov.u64 %rd1, %rd2;", WS_O0_mov64},
        {"add.s64 %rd1, %rd1, %rd2;", WS_O0_int64},     {"add.s32 %r1, %r1, %r2;", WS_O0_int},
        {"ld.global.f32 %f1, [%rd1];", WS_O0_ld_global}, {"ld.f32 %f1, [%rd1];", WS_O0_ld_global},
        {"st.shared.f32 [%rd1], %f1;", WS_O0_st_shared}, {"ld.param.u64 %rd1, [p];", WS_O0_ld_param},
        {"div.rn.f32 %f1, %f1, %f1;", WS_O0_fdiv},      {"div.approx.f32 %f1, %f1, %f1;", WS_O0_float},
        {"div.full.f32 %f1, %f1, %f1;", WS_O0_float},   {"rem.u32 %r1, %r1, %r2;", WS_O0_idiv},
        {"red.shared.add.f32 [%rd1], %f1;", WS_O0_atom_shared}, {"bra L;", WS_O0_branch},
        {"shfl.sync.bfly.b32 %r1, %r1, 1, 31, -1;", WS_O0_warp}, {"ret;", WS_O0_exit},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 HEADER ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %%r<3>; .reg .b64 %%rd<3>; "
                        ".reg .f32 %%f<2>;\nL:\n  %s\n  ret;\n}\n", cases[i].ptx);
        ptx_diag diag = {0};
        ptx_module *m = ptx_parse(ptx, strlen(ptx), "test.ptx", &diag);
        ck_assert_msg(m != NULL, "%s does not parse", cases[i].ptx);
        ck_assert_msg(ws_o0_class_of(&m->functions[0].instrs[0]) == cases[i].cls, "%s: class %s", cases[i].ptx,
                      ws_o0_class_names[ws_o0_class_of(&m->functions[0].instrs[0])]);
        ptx_module_free(m);
        ptx_diag_free(&diag);
    }
}
END_TEST

/* The instruction mix of the chain (one warp): 1 mov.f32, 10 add.f32, 1 ret, by kind, the most
 * executed first, each with its -O0 class; at --build O0 their issue slots are 4, 20 and 1. */
START_TEST(instruction_mix_by_kind)
{
    sim_run *r = run(chain, "kernel k\ngrid 1\nblock 32\nbuild O0\n");
    ck_assert_int_eq(r->status, 0);
    int n = 0;
    ws_mix_totals *mix = ws_gather_mix(&r->session.launches[0], &n);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(mix[0].kind, "add.f32");
    ck_assert_uint_eq(mix[0].c[WS_CTR_inst_executed], 10);
    ck_assert_uint_eq(mix[0].c[WS_CTR_issue_slots], 20);
    ck_assert_str_eq(ws_o0_class_names[mix[0].o0_class], "float");
    ck_assert_str_eq(mix[1].kind, "mov.f32");   /* ties: by name */
    ck_assert_uint_eq(mix[1].c[WS_CTR_issue_slots], 4);
    ck_assert_str_eq(mix[2].kind, "ret");
    ck_assert_uint_eq(mix[2].c[WS_CTR_issue_slots], 1);
    free(mix);
    done(r);
}
END_TEST

/* A block of one warp whose only instruction is ret takes 1 cycle. 10 of them per SM
 * (1320 blocks on hopper's 132 SMs, 32 fit at once): the SM starts one every
 * block_launch_cycles B, so the last starts at 9B and ends at 9B + 1; the verdict is the
 * block starts, whose bound is 10B. */
static const char ret_only[] = HEADER ".visible .entry k()\n{\n  ret;\n}\n";

START_TEST(blocks_start_one_at_a_time)
{
    const ws_arch *a = ws_arch_default();
    char launch[128];
    snprintf(launch, sizeof launch, "kernel k\ngrid %u\nblock 32\n", 10 * a->sm_count);
    sim_run *r = run(ret_only, launch);
    const ws_timing_result *t = result(r, 0);
    ck_assert_uint_eq(a->block_launch_cycles, 165);
    ck_assert_double_eq_tol(t->cycles, 9.0 * a->block_launch_cycles + 1, 1e-9);
    ck_assert_double_eq_tol(t->bound_cycles[WS_BOUND_BLOCKS], 10.0 * a->block_launch_cycles, 1e-9);
    done(r);
}
END_TEST

/* Four warps, one per sub-partition, read c[tid % k] from constant memory: the same
 * instructions for k = 1 (a broadcast) and k = 4 (four words a warp), which the constant
 * cache serves in 4 passes: 3 replays of const_replay_cycles (8) on each sub-partition,
 * so the issue bound (the block's slots over its 4 sub-partitions) grows by 24 cycles. (The
 * warp's own clock moves too, but the cold load's DRAM latency hides it here.) */
static const char const_read[] = HEADER
    ".const .align 4 .b32 c[4] = {1, 2, 3, 4};\n"
    ".visible .entry k(.param .u32 k, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<5>; .reg .b64 %rd<4>;\n"
    "  ld.param.u32 %r1, [k];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  rem.u32 %r3, %r2, %r1;\n"
    "  mul.wide.u32 %rd1, %r3, 4;\n"
    "  mov.u64 %rd2, c;\n"
    "  add.s64 %rd2, %rd2, %rd1;\n"
    "  ld.const.u32 %r4, [%rd2];\n"
    "  ld.param.u64 %rd3, [out];\n"
    "  st.global.u32 [%rd3], %r4;\n"
    "  ret;\n"
    "}\n";

START_TEST(constant_reads_replay_per_word)
{
    const ws_arch *a = ws_arch_default();
    sim_run *one = run(const_read, "kernel k\ngrid 1\nblock 128\nbuf o=u32:1\narg u32:1\narg o\n");
    sim_run *four = run(const_read, "kernel k\ngrid 1\nblock 128\nbuf o=u32:1\narg u32:4\narg o\n");
    ck_assert_uint_eq(a->const_replay_cycles, 8);
    ck_assert_uint_eq(a->subpartitions, 4);
    ck_assert_double_eq_tol(result(four, 0)->bound_cycles[WS_BOUND_ISSUE] - result(one, 0)->bound_cycles[WS_BOUND_ISSUE],
                            3.0 * a->const_replay_cycles, 1e-9);
    done(one);
    done(four);
}
END_TEST

/* Warp 0 runs the chain, then waits at bar.sync; warp 1 arrives at once. Warp 0
 * arrives at 10L+1, the barrier releases both at 10L+1 + B; each then issues
 * its ret (one slot). Warp 1 waited 10L+1+B - 1 cycles, warp 0 B. */
static const char barrier[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .f32 %f<2>; .reg .b32 %r<2>; .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra WAIT;\n"
    "  mov.f32 %f1, 0f3F800000;\n"
    "  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n"
    "  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n"
    "  add.f32 %f1, %f1, %f1;\n  add.f32 %f1, %f1, %f1;\n"
    "WAIT:\n"
    "  bar.sync 0;\n"
    "  ret;\n"
    "}\n";

START_TEST(barrier_release)
{
    sim_run *r = run(barrier, "kernel k\ngrid 1\nblock 64\n");
    const ws_arch *a = ws_arch_default();
    const ws_timing_result *t = result(r, 0);
    const uint64_t *c = r->session.launches[0].counters;
    /* Both warps: mov %tid (issue 0, ready L), setp (issue L, ready 2L), bra (issue 2L,
     * then the branch latency Br): the next block starts at 2L + 1 + Br. */
    uint64_t start = 2 * a->latency_alu + 1 + a->latency_branch;
    /* warp 0: mov.f32 at start, adds at start + k*L, the block ends at start + 10L + 1 = its arrival;
     * warp 1 arrives after its bar's slot: start + 1 */
    uint64_t arrive0 = start + 10 * a->latency_alu + 1, arrive1 = start + 1;
    uint64_t release = arrive0 + a->latency_barrier;
    ck_assert_uint_eq(c[WS_CTR_stall_barrier], (release - arrive0) + (release - arrive1));
    ck_assert_double_eq_tol(t->cycles, (double)(release + 1), 1e-9);   /* the rets issue at the release */
    done(r);
}
END_TEST

/* Each lane copies in[i] to out[i], then reads in[i] again: n = 4096 floats. The first
 * reads miss everywhere (cold caches): 4096*4 bytes from DRAM; the second reads hit L1
 * (the block's own lines); the stores write 4096*4 bytes, which the write-back L2 keeps
 * (up to a quarter of its capacity: hopper's 50 MiB holds them all). */
static const char copy_twice[] = HEADER
    ".visible .entry k(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<6>; .reg .f32 %f<3>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  ld.global.f32 %f2, [%rd4];\n"
    "  add.f32 %f1, %f1, %f2;\n"
    "  st.global.f32 [%rd5], %f1;\n"
    "  ret;\n"
    "}\n";

/* On 4 threads (--jobs) too: no block reads another's sectors, so which runs first changes nothing, and
 * the sums each worker keeps reach the launch's. */
START_TEST(caches_and_dram)
{
    sim_run *r = run(copy_twice, _i ? "buf in=f32:4096:random=1\nbuf out=f32:4096\njobs 4\n"
                                      "kernel k\ngrid 16\nblock 256\narg in\narg out\n"
                                    : "buf in=f32:4096:random=1\nbuf out=f32:4096\n"
                                      "kernel k\ngrid 16\nblock 256\narg in\narg out\n");
    const ws_timing_result *t = result(r, 0);
    ck_assert_uint_eq(t->dram_read_bytes, 4096 * 4);
    ck_assert_uint_eq(t->dram_write_bytes, 0);
    /* L1: 512 sectors looked up twice, the second time all hits */
    ck_assert_double_eq_tol(t->l1_hit_rate, 50.0, 1e-9);
    /* L2: 512 read sectors all miss, 512 written sectors count as hits */
    ck_assert_double_eq_tol(t->l2_hit_rate, 50.0, 1e-9);
    ck_assert_uint_eq(t->blocks_per_sm, 8);   /* 256 threads: 2048 / 256, registers are few */
    done(r);
}
END_TEST

/* The L1's replacement: first in, first out. Five lines of one set (found with the model's hash, from the
 * block's share of the L1), one lane loading: L0..L3 miss and fill the set's four ways, L0 hits, L4 misses
 * and takes the oldest way (L0's, though L0 was used last), L0 misses and takes L1's, L1 misses: 1 hit of 8
 * lookups. Least-recently-used would keep L0 (2 hits); always the first way would keep L1 (2 hits). */
START_TEST(l1_first_in_first_out)
{
    static const char one_load[] = HEADER
        ".visible .entry k(.param .u64 in)\n{\n  .reg .b64 %rd<2>; .reg .f32 %f<2>;\n"
        "  ld.param.u64 %rd1, [in];\n  ld.global.f32 %f1, [%rd1];\n  ret;\n}\n";
    const char *launch = "buf in=f32:65536\nkernel k\ngrid 1\nblock 1\narg in\n";
    sim_run *probe = run(one_load, launch);   /* where the buffer lies, and the block's L1 */
    const ws_launch *l = &probe->session.launches[0];
    uint64_t base = probe->session.buffers[0]->base;
    uint32_t resident = result(probe, 0)->blocks_per_sm;
    uint32_t sets = (uint32_t)((uint64_t)l->arch->l1_kib * 1024 / resident / l->arch->line_bytes / 4);
    ck_assert_uint_eq(l->arch->line_bytes, 128);
    ck_assert_uint_ge(sets, 2);
    done(probe);
    uint64_t first = (base >> 7) + 1, want = UINT64_MAX, line[5];   /* line numbers as the tags keep them (+ 1) */
    int found = 0;
    for (uint64_t n = first; found < 5 && n < first + 65536 * 4 / 128; n++) {
        uint64_t set = (n * UINT64_C(0x9E3779B97F4A7C15) >> 32) % sets;
        if (want == UINT64_MAX)
            want = set;
        if (set == want)
            line[found++] = n;
    }
    ck_assert_int_eq(found, 5);
    static const int order[] = {0, 1, 2, 3, 0, 4, 0, 1};
    char ptx[4096];
    int at = snprintf(ptx, sizeof ptx, HEADER ".visible .entry k(.param .u64 in)\n{\n"
                      "  .reg .b64 %%rd<2>; .reg .f32 %%f<9>;\n  ld.param.u64 %%rd1, [in];\n");
    for (int i = 0; i < 8; i++)
        at += snprintf(ptx + at, sizeof ptx - (size_t)at, "  ld.global.f32 %%f%d, [%%rd1+%llu];\n", i + 1,
                       (unsigned long long)(((line[order[i]] - 1) << 7) - base));
    snprintf(ptx + at, sizeof ptx - (size_t)at, "  ret;\n}\n");
    sim_run *r = run(ptx, launch);
    ck_assert_double_eq_tol(result(r, 0)->l1_hit_rate, 100.0 * 1 / 8, 1e-9);
    done(r);
}
END_TEST

/* Every block starts with an empty L1 (the block's reset empties the ways the last block used, or all of
 * them): a warp reading n lines twice, every block the same lines, gives every block the same hits, so
 * 4 blocks in turn on one worker give the L1 hit rate of one block alone. 1 line (the reset's short list)
 * and 12 (more than an eighth of the 64 ways of a 32-thread block's share, 32 blocks an SM: it empties them
 * all; both caught by mutation). */
START_TEST(each_block_starts_with_an_empty_l1)
{
    static const char lines_twice[] = HEADER
        ".visible .entry k(.param .u64 in, .param .u32 n)\n"
        "{\n"
        "  .reg .b32 %r<5>; .reg .b64 %rd<5>; .reg .f32 %f<2>; .reg .pred %p<3>;\n"
        "  ld.param.u64 %rd1, [in];\n"
        "  ld.param.u32 %r1, [n];\n"
        "  mov.u32 %r2, %tid.x;\n"
        "  mul.wide.u32 %rd2, %r2, 4;\n"
        "  add.s64 %rd1, %rd1, %rd2;\n"
        "  mov.u32 %r4, 0;\n"
        "PASS:\n"
        "  mov.u64 %rd3, %rd1;\n"
        "  mov.u32 %r3, 0;\n"
        "LINE:\n"
        "  ld.global.f32 %f1, [%rd3];\n"
        "  add.s64 %rd3, %rd3, 128;\n"
        "  add.u32 %r3, %r3, 1;\n"
        "  setp.lt.u32 %p1, %r3, %r1;\n"
        "  @%p1 bra LINE;\n"
        "  add.u32 %r4, %r4, 1;\n"
        "  setp.lt.u32 %p2, %r4, 2;\n"
        "  @%p2 bra PASS;\n"
        "  ret;\n"
        "}\n";
    static const unsigned lines[] = {1, 12};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char one[256], four[256];
        snprintf(one, sizeof one, "buf in=f32:2048:random=1\nkernel k\ngrid 1\nblock 32\narg in\narg u32:%u\n",
                 lines[i]);
        snprintf(four, sizeof four, "buf in=f32:2048:random=1\nkernel k\ngrid 4\nblock 32\narg in\narg u32:%u\n"
                 "jobs 1\n", lines[i]);
        sim_run *a = run(lines_twice, one), *b = run(lines_twice, four);
        ck_assert_double_gt(result(a, 0)->l1_hit_rate, 0);
        ck_assert_double_eq_tol(result(b, 0)->l1_hit_rate, result(a, 0)->l1_hit_rate, 1e-9);
        if (lines[i] == 1)
            ck_assert_double_eq_tol(result(a, 0)->l1_hit_rate, 50.0, 1e-9);   /* 4 sectors missed, then hit */
        done(a);
        done(b);
    }
}
END_TEST

/* The launch text `launch` on an H100 whose L2 has l2_kib KiB (an --arch-file written for the run): the run's
 * DRAM bytes written. */
static uint64_t dram_writes_with_l2(const char *ptx, unsigned l2_kib, const char *launch)
{
    char path[] = "/tmp/warpsim_test_timing_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    char arch[64], text[1024];
    int len = snprintf(arch, sizeof arch, "base = hopper\nl2_kib = %u\n", l2_kib);
    ck_assert_int_eq(write(fd, arch, (size_t)len), len);
    close(fd);
    snprintf(text, sizeof text, "arch-file %s\n%s", path, launch);
    sim_run *r = run(ptx, text);
    unlink(path);
    uint64_t bytes = result(r, 0)->dram_write_bytes;
    done(r);
    return bytes;
}

/* The same with an L2 of 32 KiB: it keeps 8 KiB of the 16 KiB written, the rest reaches DRAM. */
START_TEST(writes_beyond_the_l2)
{
    ck_assert_uint_eq(dram_writes_with_l2(copy_twice, 32, "buf in=f32:4096:random=1\nbuf out=f32:4096\n"
                                                          "kernel k\ngrid 16\nblock 256\narg in\narg out\n"),
                      4096 * 4 - 32 * 1024 / 4);
}
END_TEST

/* Columns stored, a sector a lane: out is 32 rows of 64 floats, block b's warp w stores column 16b + 2w (lane l
 * its row l), so warps 0-3 of a block write the same 32 sectors (8 floats each), warps 4-7 the next 32, and the
 * 4 blocks cover all 256 sectors of out, half of each sector's floats. The timing model marks a sector written
 * once (sim/timing.c: a far store to the sectors of the block's last one marks nothing): with an L2 of 1 KiB,
 * which keeps 256 bytes of what is written, DRAM takes 256 * 32 - 256 = 7936 bytes. */
static const char column_stores[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .f32 %f<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 31;\n"
    "  shr.u32 %r3, %r1, 5;\n"
    "  shl.b32 %r4, %r3, 1;\n"
    "  mov.u32 %r5, %ctaid.x;\n"
    "  shl.b32 %r6, %r5, 4;\n"
    "  add.s32 %r4, %r4, %r6;\n"
    "  shl.b32 %r7, %r2, 6;\n"
    "  add.s32 %r7, %r7, %r4;\n"
    "  mul.wide.u32 %rd2, %r7, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  cvt.rn.f32.u32 %f1, %r7;\n"
    "  st.global.f32 [%rd3], %f1;\n"
    "  ret;\n"
    "}\n";

/* On 1 and 4 threads (--jobs): each block's sectors are its own. */
START_TEST(column_stores_beyond_the_l2)
{
    char launch[256];
    snprintf(launch, sizeof launch, "buf out=f32:2048\nkernel k\ngrid 4\nblock 256\narg out\njobs %d\n", _i ? 4 : 1);
    ck_assert_uint_eq(dram_writes_with_l2(column_stores, 1, launch), 256 * 32 - 1024 / 4);
}
END_TEST

/* The same sectors' first one by another step: block b's warp w stores column 8b + w of 32 rows of 64 floats
 * (every warp of a block the same 32 sectors, lane l's sector 8l + b), then of 32 rows of 128 floats from the
 * same first float (lane l's sector 16l + b: lanes 0-15 on sectors the first store wrote, lanes 16-31 on 16 new
 * ones). The 8 blocks write 256 + 128 sectors: DRAM takes 384 * 32 - 256 = 12032 bytes past the 1 KiB L2. */
static const char column_steps[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<6>; .reg .f32 %f<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 31;\n"
    "  shr.u32 %r3, %r1, 5;\n"
    "  mov.u32 %r5, %ctaid.x;\n"
    "  shl.b32 %r6, %r5, 3;\n"
    "  add.s32 %r4, %r3, %r6;\n"
    "  shl.b32 %r7, %r2, 6;\n"
    "  add.s32 %r7, %r7, %r4;\n"
    "  mul.wide.u32 %rd2, %r7, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  cvt.rn.f32.u32 %f1, %r7;\n"
    "  st.global.f32 [%rd3], %f1;\n"
    "  shl.b32 %r7, %r2, 7;\n"
    "  add.s32 %r7, %r7, %r4;\n"
    "  mul.wide.u32 %rd4, %r7, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.f32 [%rd5], %f1;\n"
    "  ret;\n"
    "}\n";

/* A column of 8-byte words stored by the rows of a block 8 threads wide: lane (x, y) writes out[8x] (y alike in
 * every row, the last row's value kept), a sector a lane in each row. With 4 rows every sector gets 4 x 8 = 32
 * bytes, none partly written; with one row (a partial warp) each of the 8 gets 8: the L1's demand differs by 8
 * partly written sectors (the preset's partial_write_cycles each), their lines (4) alike. sim/timing.c takes the
 * first row's sectors alone where the rows read alike (ws_rows_alike), each with every row's bytes. */
static const char rows_store_column[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %tid.y;\n"
    "  mul.wide.u32 %rd2, %r1, 64;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  cvt.u64.u32 %rd4, %r2;\n"
    "  st.global.u64 [%rd3], %rd4;\n"
    "  ret;\n"
    "}\n";

START_TEST(rows_alike_store_their_bytes_together)
{
    uint64_t demand[2];
    for (int rows = 1, k = 0; rows <= 4; rows += 3, k++) {
        char launch[128];
        snprintf(launch, sizeof launch, "buf out=u64:64\nkernel k\ngrid 1\nblock 8,%d\narg out\n", rows);
        sim_run *r = run(rows_store_column, launch);
        ck_assert_msg(r->status == 0, "%s", r->err);
        demand[k] = r->session.launches[0].timing->placement.demand[WS_BOUND_L1];
        const uint64_t *out = (const uint64_t *)r->session.buffers[0]->bytes;
        for (int x = 0; x < 8; x++)
            ck_assert_uint_eq(out[8 * x], (uint64_t)(rows - 1));   /* the last row's */
        done(r);
    }
    ck_assert_uint_eq(demand[0] - demand[1], 8 * ws_arch_find("hopper")->partial_write_cycles);
}
END_TEST

START_TEST(column_steps_beyond_the_l2)
{
    ck_assert_uint_eq(dram_writes_with_l2(column_steps, 1, "buf out=f32:4096\nkernel k\ngrid 8\nblock 256\narg out\n"),
                      384 * 32 - 1024 / 4);
}
END_TEST

/* Each lane loads in[lane]: both warps of a 64-thread block read the same 4 sectors. Warp 0's
 * load misses to DRAM; warp 1's, issued at the same cycle of its own clock, finds the sectors
 * in L1 but still on their way, and waits for them as long: twice one warp's stall. */
static const char shared_sectors[] = HEADER
    ".visible .entry k(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<6>; .reg .f32 %f<3>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 31;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  add.f32 %f2, %f1, %f1;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n"
    "  add.s64 %rd5, %rd2, %rd5;\n"
    "  st.global.f32 [%rd5], %f2;\n"
    "  ret;\n"
    "}\n";

START_TEST(a_hit_on_a_sector_in_flight_waits_for_it)
{
    sim_run *one = run(shared_sectors, "buf in=f32:32:random=1\nbuf out=f32:64\nkernel k\ngrid 1\nblock 32\narg in\narg out\n");
    sim_run *two = run(shared_sectors, "buf in=f32:32:random=1\nbuf out=f32:64\nkernel k\ngrid 1\nblock 64\narg in\narg out\n");
    uint64_t stall1 = one->session.launches[0].counters[WS_CTR_stall_long_scoreboard];
    uint64_t stall2 = two->session.launches[0].counters[WS_CTR_stall_long_scoreboard];
    ck_assert_uint_ge(stall1, ws_arch_default()->latency_global);
    ck_assert_uint_eq(stall2, 2 * stall1);
    ck_assert_double_eq_tol(result(two, 0)->l1_hit_rate, 50.0, 1e-9);   /* warp 1's lookups hit */
    done(one);
    done(two);
}
END_TEST

/* 8 warps, each lane storing twice and loading once at tid*128: all 32 lanes on bank 0,
 * 32 wavefronts per request, 8*3*32 = 768 cycles of the SM's L1TEX, far beyond the block's
 * own latency path. Its warps spend (768 - path) * 8 warp-cycles behind each other, spread
 * over their waits on the L1TEX: 2 of 3 are room for a shared store (MIO throttle), 1 of 3
 * the load's result (short scoreboard, on the load's line). */
static const char conflicted[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<6>; .reg .f32 %f<3>;\n"
    "  .shared .align 4 .b8 s[32768];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 7;\n"
    "  mov.u32 %r3, s;\n"
    "  add.s32 %r4, %r3, %r2;\n"
    "  st.shared.u32 [%r4], %r1;\n"
    "  st.shared.u32 [%r4+4], %r1;\n"
    "  ld.shared.f32 %f1, [%r4];\n"
    "  add.f32 %f2, %f1, %f1;\n"
    "  ret;\n"
    "}\n";

START_TEST(time_behind_other_warps_goes_to_their_waits)
{
    sim_run *r = run(conflicted, "kernel k\ngrid 1\nblock 256\n");
    const ws_timing_result *t = result(r, 0);
    const ws_launch *l = &r->session.launches[0];
    uint64_t path = l->timing->placement.path_max;   /* the one block's */
    ck_assert_uint_lt(path, 768);
    double behind = (768.0 - (double)path) * 8;
    const uint64_t *c = l->counters;
    ck_assert_uint_eq(c[WS_CTR_shared_wavefronts], 768);
    /* floor per line: within a cycle per line of the exact share */
    ck_assert_double_le(fabs((double)c[WS_CTR_stall_mio_throttle] - behind * 2 / 3), 3);
    const uint64_t *load = l->instr_counters[l->kernel_index][6];   /* ld.shared */
    ck_assert_double_le(fabs((double)load[WS_CTR_stall_short_scoreboard] - behind / 3), 1);
    ck_assert_uint_eq(c[WS_CTR_stall_long_scoreboard] + c[WS_CTR_stall_lg_throttle] + c[WS_CTR_stall_barrier], 0);
    /* the kernel's stall per warp is its lines' sum over its 8 warps */
    ck_assert_double_eq_tol(t->stall[WS_STALL_MIO_THROTTLE], (double)c[WS_CTR_stall_mio_throttle] / 8, 1e-9);
    done(r);
}
END_TEST

/* Every thread adds 1 to one float: 16384 updates queue at L2, the launch is atomic-bound.
 * red returns nothing, so warps wait for it only at their exit (ncu's drain, not a reported
 * reason): no long scoreboard. atom's result, stored, is waited for. */
static const char one_word[] = HEADER
    ".visible .entry k(.param .u64 sum, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<5>; .reg .f32 %f<3>;\n"
    "  ld.param.u64 %rd1, [sum];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n";   /* then the update, "ret;" and "}" */

START_TEST(atomics_waited_for_at_exit_or_for_their_result)
{
    char ptx[1024];
    const char *launch = "buf sum=f32:1\nbuf out=f32:256\nkernel k\ngrid 64\nblock 256\narg sum\narg out\n";
    snprintf(ptx, sizeof ptx, "%s%s", one_word, "  red.global.add.f32 [%rd1], 0f3F800000;\n  ret;\n}\n");
    sim_run *red = run(ptx, launch);
    ck_assert_int_eq(result(red, 0)->bound, WS_BOUND_ATOMIC);
    ck_assert_uint_eq(red->session.launches[0].counters[WS_CTR_stall_long_scoreboard], 0);
    snprintf(ptx, sizeof ptx, "%s%s", one_word,
             "  atom.global.add.f32 %f1, [%rd1], 0f3F800000;\n  st.global.f32 [%rd4], %f1;\n  ret;\n}\n");
    sim_run *atom = run(ptx, launch);
    const ws_timing_result *t = result(atom, 0);
    ck_assert_int_eq(t->bound, WS_BOUND_ATOMIC);
    /* the time the atomics' queue adds beyond the SMs' own, over the warps resident on average */
    ck_assert_double_gt(t->stall[WS_STALL_LONG_SCOREBOARD], t->cycles / 2);
    done(red);
    done(atom);
}
END_TEST

START_TEST(no_timing_gives_no_result)
{
    sim_run *r = run(chain, "kernel k\ngrid 1\nblock 32\nno-timing\n");
    ck_assert_ptr_null(ws_timing_result_of(&r->session.launches[0]));
    ck_assert_uint_eq(r->session.launches[0].counters[WS_CTR_issue_slots], 0);
    done(r);
}
END_TEST

START_TEST(occupancy_with_registers)
{
    const ws_arch *a = ws_arch_default();   /* 65536 registers, 256 per allocation, warps in fours */
    const char *limit = NULL;
    /* 64 registers: 2048 per warp, 32 warps fit, 256-thread blocks have 8: 4 blocks */
    ck_assert_uint_eq(ws_arch_blocks_per_sm_regs(a, 256, 0, 64, &limit), 4);
    ck_assert_str_eq(limit, "registers");
    /* 32 registers: 64 warps fit, the 2048-thread limit (8 blocks) decides */
    ck_assert_uint_eq(ws_arch_blocks_per_sm_regs(a, 256, 0, 32, &limit), 8);
    ck_assert_str_eq(limit, "threads");
    /* 255 registers: 8192 per warp (rounded to 256), 8 warps fit: one 256-thread block */
    ck_assert_uint_eq(ws_arch_blocks_per_sm_regs(a, 256, 0, 255, &limit), 1);
}
END_TEST

/* The four-at-a-time issue and retire steps of a wide group (sim/timing_wide.c) against the warp-by-warp ones
 * (ws_timing_issue_scheduled, ws_timing_retire_of) on random warps: clocks, basic blocks' ends, registers'
 * ready cycles and waits, unused loads, back edges; instructions of 0 to 4 operands (repeated, or the
 * destination), folding or not; 1, 2 or 4 sub-partitions, groups starting at any warp. Every warp's clock,
 * block end, unused loads and ready cycles, the block's slots per sub-partition and the sums must be equal. */
#define WIDE_WARPS 13
#define WIDE_REGS 9
#define WIDE_SHIFT 4   /* 16 >= WIDE_WARPS */
START_TEST(wide_issue_matches_warp_by_warp)
{
    if (!ws_timing_wide_available()) {
        printf("wide_issue_matches_warp_by_warp: no AVX2 here, nothing to compare\n");
        return;
    }
    ws_warp *one = calloc(WIDE_WARPS, sizeof *one), *four = calloc(WIDE_WARPS, sizeof *four);
    /* ready cycles by register, the warps' side by side (as ws_block.kernel_ready's: a power of two apart) */
    uint64_t ready_one[WIDE_REGS][1 << WIDE_SHIFT] = {{0}}, ready_four[WIDE_REGS][1 << WIDE_SHIFT] = {{0}};
    ck_assert(one && four);
    uint64_t x = 0x2545f4914f6cdd1du;
#define DRAW(n) (x ^= x << 13, x ^= x >> 7, x ^= x << 17, (x >> 11) % (n))
    for (int round = 0; round < 3000; round++) {
        static const uint32_t subpartition_counts[] = {1, 2, 4};
        uint32_t subpartitions = subpartition_counts[DRAW(3)];
        int first = (int)DRAW(4), n = 4 * (1 + (int)DRAW((WIDE_WARPS - first) / 4));
        ws_timing_op op = {.pipe = (uint8_t)DRAW(WS_PIPE_SHARED), .sass = (uint8_t)DRAW(4),
                           .nsrc = (uint8_t)DRAW(5), .ndst = 1, .latency = (uint16_t)(1 + DRAW(30)),
                           .wait = (uint8_t)DRAW(3), .folds = (uint8_t)DRAW(2)};
        for (int i = 0; i < op.nsrc; i++)
            op.src[i] = (uint16_t)DRAW(WIDE_REGS);
        op.dst[0] = (uint16_t)DRAW(WIDE_REGS);
        for (int k = 0; k < WIDE_WARPS; k++) {
            one[k].index = k;
            one[k].tm = (ws_warp_timing){.cycle = DRAW(1000), .block_end = DRAW(1200),
                                         .back_edges = (uint32_t)DRAW(9), .loads_unused = (uint8_t)DRAW(4),
                                         .subpartition = (uint8_t)((uint32_t)k % subpartitions)};
            for (int r = 0; r < WIDE_REGS; r++)
                ready_four[r][k] = ready_one[r][k] = DRAW(1300) << 2 | DRAW(3);
            four[k] = one[k];
            one[k].frames[0].ready = &ready_one[0][k];
            four[k].frames[0].ready = &ready_four[0][k];
            one[k].frames[0].ready_shift = four[k].frames[0].ready_shift = WIDE_SHIFT;
        }
        ws_block_timing bt_one = {0}, bt_four = {0};
        ws_issue_sums sums_one = {0}, sums_four = {0};
        for (int k = first; k < first + n; k++) {
            ws_timing_issue_scheduled(&one[k], &bt_one, &op, one[k].frames, WS_FULL_MASK, 7, &sums_one, 1, -1);
            ws_timing_retire_of(&one[k], &op, one[k].frames, 1, 1);
        }
        ws_timing_wide_issue(&four[first], n, &bt_four, &op, subpartitions, &sums_four);
        for (int k = 0; k < WIDE_WARPS; k++) {
            ck_assert_uint_eq(four[k].tm.cycle, one[k].tm.cycle);
            ck_assert_uint_eq(four[k].tm.block_end, one[k].tm.block_end);
            ck_assert_uint_eq(four[k].tm.loads_unused, one[k].tm.loads_unused);
            ck_assert_uint_eq(four[k].tm.back_edges, one[k].tm.back_edges);
        }
        ck_assert_mem_eq(ready_four, ready_one, sizeof ready_one);
        ck_assert_mem_eq(bt_four.issued, bt_one.issued, sizeof bt_one.issued);
        ck_assert_uint_eq(sums_four.slots, sums_one.slots);
        ck_assert_mem_eq(sums_four.stalls, sums_one.stalls, sizeof sums_one.stalls);
        ck_assert_uint_eq(sums_four.branch_resolving, sums_one.branch_resolving);
    }
#undef DRAW
    free(one);
    free(four);
}
END_TEST

START_TEST(every_opcode_has_a_pipe)
{
    for (int op = 0; op < OP_COUNT; op++)
        ck_assert_msg(ws_timing_pipe_known(op), "opcode %s has no line in sim/pipes.def", ptx_opcodes[op].spelling);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("timing");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, dependent_chain);
    tcase_add_test(tc, dependent_chain_at_o0);
    tcase_add_test(tc, o0_classes);
    tcase_add_test(tc, instruction_mix_by_kind);
    tcase_add_test(tc, blocks_start_one_at_a_time);
    tcase_add_test(tc, constant_reads_replay_per_word);
    tcase_add_test(tc, barrier_release);
    tcase_add_loop_test(tc, caches_and_dram, 0, 2);
    tcase_add_test(tc, writes_beyond_the_l2);
    tcase_add_loop_test(tc, column_stores_beyond_the_l2, 0, 2);
    tcase_add_test(tc, column_steps_beyond_the_l2);
    tcase_add_test(tc, rows_alike_store_their_bytes_together);
    tcase_add_test(tc, a_hit_on_a_sector_in_flight_waits_for_it);
    tcase_add_test(tc, time_behind_other_warps_goes_to_their_waits);
    tcase_add_test(tc, atomics_waited_for_at_exit_or_for_their_result);
    tcase_add_test(tc, no_timing_gives_no_result);
    tcase_add_test(tc, occupancy_with_registers);
    tcase_add_test(tc, every_opcode_has_a_pipe);
    tcase_add_test(tc, fastmod_is_the_remainder);
    tcase_add_test(tc, wide_issue_matches_warp_by_warp);
    tcase_add_test(tc, l1_first_in_first_out);
    tcase_add_test(tc, each_block_starts_with_an_empty_l1);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
