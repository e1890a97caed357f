/*
 * The SIMT core on hand-written PTX: divergence and reconvergence, calls,
 * barriers, warp-level operations, atomics, memory errors, deadlocks and the
 * step budget. Expected values are computed by hand (comments show how).
 */
#include "sim/report.h"
#include "sim/timing_internal.h"
#include "tests/sim_run.h"

static const uint32_t *u32(sim_run *r, const char *name)
{
    ws_allocation *a = ws_session_buffer(&r->session, name);
    ck_assert_ptr_nonnull(a);
    return (const uint32_t *)a->bytes;
}

static uint64_t counter(sim_run *r, int launch, ws_counter c)
{
    return r->session.launches[launch].counters[c];
}

/* out[tid] = tid even ? (tid < 16 ? 1 : 2) : 3, through nested ifs; then +100 after the merge. */
static const char nested_if[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.ne.u32 %p1, %r2, 0;\n"
    "  @%p1 bra ODD;\n"
    "  setp.lt.u32 %p2, %r1, 16;\n"
    "  @!%p2 bra HIGH;\n"
    "  mov.u32 %r3, 1;\n"
    "  bra JOIN;\n"
    "HIGH:\n"
    "  mov.u32 %r3, 2;\n"
    "  bra JOIN;\n"
    "ODD:\n"
    "  mov.u32 %r3, 3;\n"
    "JOIN:\n"
    "  add.u32 %r3, %r3, 100;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r3;\n"
    "  ret;\n"
    "}\n";

START_TEST(nested_if_reconverges)
{
    sim_run *r = run(nested_if, "grid 1\nblock 32\nbuf out=u32:32\narg out\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *out = u32(r, "out");
    for (int t = 0; t < 32; t++)
        ck_assert_uint_eq(out[t], (t & 1 ? 3u : t < 16 ? 1u : 2u) + 100);
    /* After JOIN the warp is whole again: the add, the address arithmetic and the store run once with 32 lanes.
     * The store is one request of 32 consecutive words: 128 bytes = 4 sectors. */
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_st_requests), 1);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_st_sectors), 4);
    /* Branches (ncu on an H100 counts 1 per warp-level branch): `@%p1 bra ODD` divergent (16/16);
     * `@!%p2 bra HIGH` divergent among the 16 even lanes; the two `bra JOIN` are uniform within their paths. */
    ck_assert_uint_eq(counter(r, 0, WS_CTR_branch_targets_divergent), 2);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_branch_targets_uniform), 2);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_branch_targets), 4);
    done(r);
}
END_TEST

/* A loop whose trip count is the lane number: out[tid] = 0 + 1 + ... + (tid-1) = tid*(tid-1)/2. */
static const char divergent_loop[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<5>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, 0;\n"            /* i */
    "  mov.u32 %r3, 0;\n"            /* sum */
    "LOOP:\n"
    "  setp.ge.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra DONE;\n"             /* a break-like exit */
    "  add.u32 %r3, %r3, %r2;\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  bra LOOP;\n"
    "DONE:\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r3;\n"
    "  ret;\n"
    "}\n";

START_TEST(divergent_trip_counts)
{
    sim_run *r = run(divergent_loop, "grid 2\nblock 40\nbuf out=u32:40\narg out\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *out = u32(r, "out");
    for (uint32_t t = 0; t < 40; t++)
        ck_assert_uint_eq(out[t], t * (t - 1) / 2 * (t > 0));
    /* Each block: warp 0 (tids 0..31) and warp 1 (tids 32..39, 8 lanes). The final store runs with all
     * lanes merged: one store per warp per block = 4 stores. */
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_st_requests), 4);
    done(r);
}
END_TEST

/* Lanes >= 8 exit early; the others write. exit in divergent code must not wedge the warp. */
static const char early_exit[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 8;\n"
    "  @%p1 exit;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd2, %rd1, %rd2;\n"
    "  add.u32 %r2, %r1, 7;\n"
    "  st.global.u32 [%rd2], %r2;\n"
    "  bar.sync 0;\n"                /* only the 8 remaining threads take part */
    "  ret;\n"
    "}\n";

START_TEST(early_exit_then_barrier)
{
    sim_run *r = run(early_exit, "grid 1\nblock 64\nbuf out=u32:64:const=5\narg out\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *out = u32(r, "out");
    for (uint32_t t = 0; t < 64; t++)
        ck_assert_uint_eq(out[t], t < 8 ? t + 7 : 5);
    /* Only warp 0 reaches the store and the barrier: 8 lanes x 4 bytes = 32 bytes = 1 sector. */
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_st_sectors), 1);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_barriers), 1);
    done(r);
}
END_TEST

/* A device function, called by odd lanes only, returning 3*x+1 through .param; recursion for even lanes. */
static const char calls[] = HEADER
    ".func (.param .b32 ret) triple_plus_one(.param .b32 x)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.b32 %r1, [x];\n"
    "  mad.lo.s32 %r2, %r1, 3, 1;\n"
    "  st.param.b32 [ret], %r2;\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 ret) sum_to(.param .b32 n)\n"   /* sum_to(n) = n + sum_to(n-1), sum_to(0) = 0 */
    "{\n"
    "  .reg .b32 %r<4>; .reg .pred %p<2>;\n"
    "  ld.param.b32 %r1, [n];\n"
    "  setp.eq.s32 %p1, %r1, 0;\n"
    "  @%p1 bra BASE;\n"
    "  sub.s32 %r2, %r1, 1;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r2;\n"
    "  .param .b32 r0;\n"
    "  call (r0), sum_to, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  add.s32 %r3, %r3, %r1;\n"
    "  st.param.b32 [ret], %r3;\n"
    "  ret;\n"
    "BASE:\n"
    "  st.param.b32 [ret], 0;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 1;\n"
    "  @!%p1 bra EVEN;\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r1;\n"
    "  .param .b32 r0;\n"
    "  call (r0), triple_plus_one, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "  bra STORE;\n"
    "EVEN:\n"
    "  {\n"
    "  .param .b32 a0;\n"
    "  st.param.b32 [a0], %r1;\n"
    "  .param .b32 r0;\n"
    "  call (r0), sum_to, (a0);\n"
    "  ld.param.b32 %r3, [r0];\n"
    "  }\n"
    "STORE:\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r3;\n"
    "  ret;\n"
    "}\n";

START_TEST(calls_and_recursion)
{
    sim_run *r = run(calls, "grid 1\nblock 32\nbuf out=u32:32\narg out\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *out = u32(r, "out");
    for (uint32_t t = 0; t < 32; t++)
        ck_assert_uint_eq(out[t], t & 1 ? 3 * t + 1 : t * (t + 1) / 2);
    done(r);
}
END_TEST

/* Two functions called one after the other take the same frame and number their registers alike:
 * `first` loads through %rd1, `second` through %rd1 with ldu. A shape kept from `first`'s %rd1 (the
 * address of a[0]) must not stand for `second`'s (the address of b[0]): out = a[0] + b[0] = 7 + 40.
 * (ldu's address register was once left out of the registers whose shapes are kept.) */
static const char same_registers_in_two_calls[] = HEADER
    ".func (.param .b32 ret) first(.param .b64 p)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<3>;\n"
    "  ld.param.b64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [%rd1];\n"
    "  st.param.b32 [ret], %r1;\n"
    "  ret;\n"
    "}\n"
    ".func (.param .b32 ret) second(.param .b64 p)\n"
    "{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<3>;\n"
    "  ld.param.b64 %rd1, [p];\n"
    "  ldu.global.u32 %r1, [%rd1];\n"
    "  st.param.b32 [ret], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k(.param .u64 out, .param .u64 a, .param .u64 b)\n"
    "{\n"
    "  .reg .b32 %r<5>; .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [a];\n"
    "  ld.param.u64 %rd3, [b];\n"
    "  {\n"
    "  .param .b64 a0;\n"
    "  st.param.b64 [a0], %rd2;\n"
    "  .param .b32 r0;\n"
    "  call (r0), first, (a0);\n"
    "  ld.param.b32 %r1, [r0];\n"
    "  }\n"
    "  {\n"
    "  .param .b64 a0;\n"
    "  st.param.b64 [a0], %rd3;\n"
    "  .param .b32 r0;\n"
    "  call (r0), second, (a0);\n"
    "  ld.param.b32 %r2, [r0];\n"
    "  }\n"
    "  add.u32 %r3, %r1, %r2;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r4, 4;\n"
    "  add.u64 %rd4, %rd1, %rd4;\n"
    "  st.global.u32 [%rd4], %r3;\n"
    "  ret;\n"
    "}\n";

START_TEST(calls_do_not_share_register_shapes)
{
    sim_run *r = run(same_registers_in_two_calls, "grid 2\nblock 32\nbuf out=u32:32\nbuf a=u32:32:const=7\n"
                                                  "buf b=u32:32:const=40\narg out\narg a\narg b\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *out = u32(r, "out");
    for (uint32_t t = 0; t < 32; t++)
        ck_assert_uint_eq(out[t], 47);
    done(r);
}
END_TEST

/* Warp 1 writes shared memory, the barrier, warp 0 reads it; bar.red counts odd tids. */
static const char barrier_exchange[] = HEADER
    ".visible .entry k(.param .u64 out, .param .u64 counts)\n"
    "{\n"
    "  .shared .align 4 .b8 buf[256];\n"
    "  .reg .b32 %r<10>; .reg .b64 %rd<5>; .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd3, [counts];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra WAIT;\n"
    "  sub.u32 %r2, %r1, 32;\n"         /* warp 1 lane i stores i*i at buf[i] */
    "  mul.lo.u32 %r3, %r2, %r2;\n"
    "  shl.b32 %r4, %r2, 2;\n"
    "  mov.u32 %r9, buf;\n"
    "  add.u32 %r4, %r4, %r9;\n"
    "  st.shared.u32 [%r4], %r3;\n"
    "WAIT:\n"
    "  bar.sync 0;\n"
    "  @!%p1 bra RED;\n"
    "  shl.b32 %r4, %r1, 2;\n"          /* warp 0 lane i reads buf[31-i] */
    "  mov.u32 %r5, 124;\n"
    "  sub.u32 %r5, %r5, %r4;\n"
    "  mov.u32 %r9, buf;\n"
    "  add.u32 %r5, %r5, %r9;\n"
    "  ld.shared.u32 %r6, [%r5];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd2, %rd1, %rd2;\n"
    "  st.global.u32 [%rd2], %r6;\n"
    "RED:\n"
    "  and.b32 %r7, %r1, 1;\n"
    "  setp.eq.u32 %p2, %r7, 1;\n"
    "  bar.red.popc.u32 %r8, 0, %p2;\n"
    "  bar.red.and.pred %p3, 0, %p2;\n"
    "  selp.u32 %r7, 1, 0, %p3;\n"
    "  add.u32 %r8, %r8, %r7;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.u64 %rd4, %rd3, %rd4;\n"
    "  st.global.u32 [%rd4], %r8;\n"
    "  ret;\n"
    "}\n";

START_TEST(barrier_and_bar_red)
{
    sim_run *r = run(barrier_exchange, "grid 1\nblock 64\nbuf out=u32:32\nbuf counts=u32:64\narg out\narg counts\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *out = u32(r, "out"), *counts = u32(r, "counts");
    for (uint32_t t = 0; t < 32; t++)
        ck_assert_uint_eq(out[t], (31 - t) * (31 - t));
    /* 64 threads, 32 odd: popc = 32; not all odd: and = 0. */
    for (uint32_t t = 0; t < 64; t++)
        ck_assert_uint_eq(counts[t], 32);
    done(r);
}
END_TEST

/* vote and shfl against hand-computed lanes. */
static const char warp_ops[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<12>; .reg .b64 %rd<3>; .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  setp.lt.u32 %p1, %r1, 5;\n"
    "  vote.sync.ballot.b32 %r2, %p1, -1;\n"             /* 0x1f */
    "  vote.sync.any.pred %p2, %p1, -1;\n"               /* true */
    "  vote.sync.all.pred %p3, %p1, -1;\n"               /* false */
    "  selp.u32 %r3, 2, 0, %p2;\n"
    "  selp.u32 %r4, 1, 0, %p3;\n"
    "  add.u32 %r3, %r3, %r4;\n"                         /* 2 */
    "  mul.lo.u32 %r5, %r1, 10;\n"                       /* value = 10 * lane */
    "  shfl.sync.down.b32 %r6|%p1, %r5, 3, 31, -1;\n"    /* lane+3 if <= 31, else own */
    "  shfl.sync.up.b32 %r7, %r5, 2, 0, -1;\n"           /* lane-2 if >= 0, else own */
    "  shfl.sync.bfly.b32 %r8, %r5, 1, 31, -1;\n"        /* lane^1 */
    "  shfl.sync.idx.b32 %r9, %r5, 7, 31, -1;\n"         /* lane 7 */
    "  selp.u32 %r10, 1000, 0, %p1;\n"                   /* in range for down? */
    "  mul.wide.u32 %rd2, %r1, 32;\n"
    "  add.u64 %rd2, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd2], {%r2, %r3, %r6, %r7};\n"
    "  st.global.v4.u32 [%rd2+16], {%r8, %r9, %r10, %r1};\n"
    "  ret;\n"
    "}\n";

START_TEST(vote_and_shuffle)
{
    sim_run *r = run(warp_ops, "grid 1\nblock 32\nbuf out=u32:256\narg out\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *out = u32(r, "out");
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *o = out + 8 * l;
        ck_assert_uint_eq(o[0], 0x1f);
        ck_assert_uint_eq(o[1], 2);
        ck_assert_uint_eq(o[2], 10 * (l + 3 <= 31 ? l + 3 : l));
        ck_assert_uint_eq(o[3], 10 * (l >= 2 ? l - 2 : l));
        ck_assert_uint_eq(o[4], 10 * (l ^ 1));
        ck_assert_uint_eq(o[5], 70);
        ck_assert_uint_eq(o[6], l + 3 <= 31 ? 1000 : 0);
        ck_assert_uint_eq(o[7], l);
    }
    /* Each v4 store: 32 lanes x 16 bytes spread 32 bytes apart = 32 sectors. */
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_st_sectors), 64);
    done(r);
}
END_TEST

/* Every thread of 4 blocks adds 1 to one counter and keeps the old value: under full contention the
 * old values are exactly 0..N-1, in block order then lane order. */
static const char contention[] = HEADER
    ".visible .entry k(.param .u64 counter, .param .u64 old)\n"
    "{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [counter];\n"
    "  ld.param.u64 %rd2, [old];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "  atom.global.add.u32 %r5, [%rd1], 1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.u64 %rd3, %rd2, %rd3;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "  red.global.add.u32 [%rd1+4], %r4;\n"
    "  ret;\n"
    "}\n";

START_TEST(atomics_under_contention)
{
    sim_run *r = run(contention, "grid 4\nblock 96\nbuf counter=u32:2\nbuf old=u32:384\narg counter\narg old\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    const uint32_t *c = u32(r, "counter"), *old = u32(r, "old");
    ck_assert_uint_eq(c[0], 384);
    ck_assert_uint_eq(c[1], 383 * 384 / 2);   /* sum of 0..383 */
    for (uint32_t t = 0; t < 384; t++)
        ck_assert_uint_eq(old[t], t);          /* blocks in order, warps in order, lanes in order */
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_atom_inst), 12);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_red_inst), 12);
    done(r);
}
END_TEST

/* ---- Errors ---------------------------------------------------------------- */

static const char oob_read[] = HEADER
    ".visible .entry k(.param .u64 in, .param .u32 n)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd2, %rd1, %rd2;\n"
    "  ld.global.u32 %r2, [%rd2];\n"
    "  ret;\n"
    "}\n";

START_TEST(out_of_bounds_is_reported)
{
    sim_run *r = run(oob_read, "grid 1\nblock 32\nbuf in=u32:20\narg in\narg u32:20\n");
    ck_assert_int_eq(r->status, 1);
    /* lane 20 is the first past the 80-byte buffer */
    ck_assert_msg(strstr(r->err, "test.ptx:11:") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "kernel 'k'") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "4-byte read of global address 0x7f0000000050") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "thread (20,0,0)") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "byte 80 of buffer 'in', which has 80") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "block (0,0,0)") != NULL, "%s", r->err);
    done(r);
}
END_TEST

static const char misaligned[] = HEADER
    ".visible .entry k(.param .u64 in)\n"
    "{\n"
    "  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.global.u32 %r1, [%rd1+2];\n"
    "  ret;\n"
    "}\n";

START_TEST(misaligned_is_reported)
{
    sim_run *r = run(misaligned, "grid 1\nblock 1\nbuf in=u32:4\narg in\n");
    ck_assert_int_eq(r->status, 1);
    ck_assert_msg(strstr(r->err, "misaligned 4-byte read of global address 0x7f0000000002") != NULL, "%s", r->err);
    done(r);
}
END_TEST

static const char shared_oob[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .shared .align 4 .b8 s[128];\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 3;\n"
    "  mov.u32 %r3, s;\n"
    "  add.u32 %r2, %r2, %r3;\n"
    "  st.shared.u32 [%r2], %r1;\n"
    "  ret;\n"
    "}\n";

START_TEST(shared_out_of_bounds_is_reported)
{
    sim_run *r = run(shared_oob, "grid 1\nblock 32\n");
    ck_assert_int_eq(r->status, 1);
    /* lane 16 writes at 128, the first byte past s[128] */
    ck_assert_msg(strstr(r->err, "out-of-bounds 4-byte write of shared address 0x80") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "thread (16,0,0)") != NULL, "%s", r->err);
    done(r);
}
END_TEST

/* Warp 0 waits at barrier 0, warp 1 at barrier 1: neither can ever complete. */
static const char deadlock[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<2>; .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra FIRST;\n"
    "  bar.sync 1;\n"
    "  ret;\n"
    "FIRST:\n"
    "  bar.sync 0;\n"
    "  ret;\n"
    "}\n";

START_TEST(deadlock_is_reported)
{
    sim_run *r = run(deadlock, "grid 1\nblock 64\n");
    ck_assert_int_eq(r->status, 1);
    ck_assert_msg(strstr(r->err, "deadlock") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "warp 0 waits at line 13 (barrier 0") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "warp 1 waits at line 10 (barrier 1") != NULL, "%s", r->err);
    done(r);
}
END_TEST

static const char endless[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "LOOP:\n"
    "  bra.uni LOOP;\n"
    "}\n";

START_TEST(step_budget_stops_endless_loops)
{
    sim_run *r = run(endless, "grid 1\nblock 32\nmax-steps 1000\n");
    ck_assert_int_eq(r->status, 1);
    ck_assert_msg(strstr(r->err, "stopped after 1000 warp-instructions") != NULL, "%s", r->err);
    done(r);
}
END_TEST

static const char uni_divergent[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<2>; .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 3;\n"
    "  @%p1 bra.uni OUT;\n"
    "OUT:\n"
    "  ret;\n"
    "}\n";

START_TEST(bra_uni_on_divergent_condition_is_an_error)
{
    sim_run *r = run(uni_divergent, "grid 1\nblock 32\n");
    ck_assert_int_eq(r->status, 1);
    ck_assert_msg(strstr(r->err, "test.ptx:9:") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "bra.uni with a divergent condition: 3 of 32 active lanes jump") != NULL, "%s", r->err);
    done(r);
}
END_TEST

START_TEST(runs_are_deterministic)
{
    sim_run *a = run(divergent_loop, "grid 3\nblock 100\nbuf out=u32:100\narg out\n");
    sim_run *b = run(divergent_loop, "grid 3\nblock 100\nbuf out=u32:100\narg out\n");
    ck_assert_int_eq(memcmp(a->session.launches[0].counters, b->session.launches[0].counters,
                            sizeof a->session.launches[0].counters), 0);
    ck_assert_int_eq(memcmp(u32(a, "out"), u32(b, "out"), 400), 0);
    done(a);
    done(b);
}
END_TEST

/* PTX other compilers write (tests/ptx/good_*.ptx, each made by the compiler its first lines name). */
static char *source_file(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", WARPSIM_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    return text;
}

/* nvcc -G: `if (a <= 0 || b <= 0) return; o[threadIdx.x] = a + b;` through mov.pred %p3, -1 (true). */
START_TEST(nvcc_debug_predicate_true)
{
    const char *ptx = source_file("tests/ptx/good_nvcc_G_pred_true.ptx");
    static const struct { int a, b; uint32_t want; } cases[] = {{2, 3, 5}, {0, 3, 0}, {2, -1, 0}, {-4, -4, 0}, {7, 1, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char launch[256];
        snprintf(launch, sizeof launch, "kernel k\ngrid 1\nblock 40\nbuf o=u32:40\narg o\narg s32:%d\narg s32:%d\n",
                 cases[i].a, cases[i].b);
        sim_run *r = run(ptx, launch);
        ck_assert_msg(r->status == 0, "%s", r->err);
        for (int t = 0; t < 40; t++)
            ck_assert_msg(u32(r, "o")[t] == cases[i].want, "a=%d b=%d: o[%d] = %u, want %u", cases[i].a, cases[i].b, t,
                          u32(r, "o")[t], cases[i].want);
        done(r);
    }
}
END_TEST

/* clang: tsum<64>'s __shared__ float s[64] is a .weak .shared variable; s[t] = t, then thread 0 sums them. */
START_TEST(clang_weak_shared_array)
{
    sim_run *r = run(source_file("tests/ptx/good_clang_weak_shared.ptx"),
                     "kernel _Z4tsumILi64EEvPf\ngrid 3\nblock 64\nbuf out=f32:3\narg out\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    for (int b = 0; b < 3; b++) {
        float v;
        memcpy(&v, &u32(r, "out")[b], 4);
        ck_assert_msg(v == 2016.0f, "out[%d] = %g, want 0 + 1 + ... + 63 = 2016", b, (double)v);
    }
    ck_assert_uint_eq(counter(r, 0, WS_CTR_shared_st_inst), 3 * 2);   /* one store per warp, 2 warps per block */
    done(r);
}
END_TEST

/* Atomics that collide: 64 threads add 1 to one shared bin (32 lanes on one bank: 32 passes per warp) and to
 * their own bin (one pass), then 1 to one global word (31 lanes per warp wait for another's update) and to their
 * own word (none). The report ranks the colliding lines first. */
static const char atomics_collide[] = HEADER
    ".visible .entry hist(.param .u64 one, .param .u64 each)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<6>;\n"
    "  .shared .align 4 .b8 bins[260];\n"
    "  ld.param.u64 %rd1, [one];\n"
    "  ld.param.u64 %rd2, [each];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd3, bins;\n"
    "  atom.shared.add.u32 %r2, [bins], 1;\n"              /* line 12: one bin */
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.u64 %rd5, %rd3, %rd4;\n"
    "  red.shared.add.u32 [%rd5+4], 1;\n"                  /* line 15: own bin, own bank */
    "  red.global.add.u32 [%rd1], 1;\n"                    /* line 16: one word */
    "  add.u64 %rd5, %rd2, %rd4;\n"
    "  red.global.add.u32 [%rd5], 1;\n"                    /* line 18: own word */
    "  ret;\n"
    "}\n";

START_TEST(colliding_atomics_are_counted_and_reported)
{
    sim_run *r = run(atomics_collide, "grid 1\nblock 64\nbuf one=u32:1\nbuf each=u32:64\narg one\narg each\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    ck_assert_uint_eq(u32(r, "one")[0], 64);
    for (int t = 0; t < 64; t++)
        ck_assert_uint_eq(u32(r, "each")[t], 1);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_shared_atom_inst), 2 * 2);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_shared_atom_wavefronts), 2 * (32 + 1));
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_red_inst), 2 * 2);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_global_atom_same_address), 2 * 31);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_report_text(&r->session, f, 0);
    fclose(f);
    ck_assert_msg(strstr(text, "line 12    atom.shared.add.u32") && strstr(text, "32.00 wavefronts per shared atomic"),
                  "%s", text);
    ck_assert_msg(strstr(text, "line 16    red.global.add.u32") && strstr(text, "62 global atomic updates serialised"),
                  "%s", text);
    char *waiting = strstr(text, "Where warps wait");   /* the time ranking lists lines by stalls: not this one's concern */
    if (waiting)
        *waiting = 0;
    ck_assert_msg(!strstr(text, "line 15 ") && !strstr(text, "line 18 "), "a line without collisions is ranked: %s", text);
    ck_assert_ptr_null(strstr(text, "No line loses time"));
    free(text);
    done(r);
}
END_TEST

/* With line information, the report names the CUDA line beside the PTX line: the worst lines, --source and
 * --json. A column-wise shared store (32 lanes, stride 128 bytes: one bank) at "bank.cu:7". */
static const char lineinfo_conflict[] = HEADER
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .shared .align 4 .b8 tile[4096];\n"
    "  .loc 1 6 3\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 7;\n"
    "  mov.u32 %r3, tile;\n"
    "  add.u32 %r2, %r2, %r3;\n"
    "  .loc 1 7 14\n"
    "  st.shared.u32 [%r2], %r1;\n"                      /* line 14 */
    "  ret;\n"
    "}\n"
    ".file 1 \"course/bank.cu\"\n";

START_TEST(reports_name_the_cuda_line)
{
    sim_run *r = run(lineinfo_conflict, "grid 1\nblock 32\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    ck_assert_uint_eq(counter(r, 0, WS_CTR_shared_st_bank_conflicts), 31);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_report_text(&r->session, f, 0);
    fclose(f);
    ck_assert_msg(strstr(text, "line 14    st.shared.u32\t[%r2], %r1;   // bank.cu:7\n"), "%s", text);
    free(text);
    f = open_memstream(&text, &len);
    int all[256];
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        all[i] = 1;
    ws_report_json(&r->session, all, f);
    fclose(f);
    ck_assert_msg(strstr(text, "{\"line\": 14, \"source\": \"course/bank.cu:7\", \"inst_executed\": 1,"), "%s", text);
    ck_assert_msg(strstr(text, "{\"line\": 9, \"source\": \"course/bank.cu:6\","), "%s", text);
    free(text);
    done(r);
}
END_TEST

/* --sched its: lane t stores t+1 to s[t], then reads its neighbour's s[(t+1)%32] and its own s[t];
 * out[2t] = neighbour, out[2t+1] = own. `sync` puts a __syncwarp between the store and the loads. */
#define NEIGHBOURS(sync) HEADER \
    ".visible .entry k(.param .u64 out)\n" \
    "{\n" \
    "  .reg .b32 %r<10>; .reg .b64 %rd<4>;\n" \
    "  .shared .align 4 .b32 s[32];\n" \
    "  ld.param.u64 %rd1, [out];\n" \
    "  mov.u32 %r1, %tid.x;\n" \
    "  add.u32 %r2, %r1, 1;\n" \
    "  mov.u32 %r3, s;\n" \
    "  shl.b32 %r4, %r1, 2;\n" \
    "  add.u32 %r4, %r3, %r4;\n" \
    "  st.shared.u32 [%r4], %r2;\n" \
    sync \
    "  and.b32 %r5, %r2, 31;\n" \
    "  shl.b32 %r5, %r5, 2;\n" \
    "  add.u32 %r5, %r3, %r5;\n" \
    "  ld.shared.u32 %r6, [%r5];\n" \
    "  ld.shared.u32 %r7, [%r4];\n" \
    "  mul.wide.u32 %rd2, %r1, 8;\n" \
    "  add.u64 %rd2, %rd1, %rd2;\n" \
    "  st.global.v2.u32 [%rd2], {%r6, %r7};\n" \
    "  ret;\n" \
    "}\n"
static const char neighbours_racy[] = NEIGHBOURS("");
static const char neighbours_synced[] = NEIGHBOURS("  bar.warp.sync -1;\n");

static uint32_t *neighbours(const char *ptx, const char *flags, uint64_t counters[WS_CTR_COUNT])
{
    char launch[256];
    snprintf(launch, sizeof launch, "grid 1\nblock 32\nbuf out=u32:64\narg out\n%s", flags);
    sim_run *r = run(ptx, launch);
    ck_assert_msg(r->status == 0, "%s", r->err);
    uint32_t *out = malloc(64 * sizeof *out);
    memcpy(out, u32(r, "out"), 64 * sizeof *out);
    if (counters)
        memcpy(counters, r->session.launches[0].counters, sizeof r->session.launches[0].counters);
    done(r);
    return out;
}

START_TEST(its_hides_a_neighbours_store_until_syncwarp)
{
    uint64_t lockstep_counters[WS_CTR_COUNT], its_counters[WS_CTR_COUNT];
    uint32_t *lockstep = neighbours(neighbours_racy, "sched lockstep\n", lockstep_counters);
    uint32_t *its = neighbours(neighbours_racy, "sched its\n", its_counters);
    uint32_t *again = neighbours(neighbours_racy, "sched its\n", NULL);
    uint32_t *by_default = neighbours(neighbours_racy, "", NULL);                  /* sm_90: its */
    uint32_t *g80 = neighbours(neighbours_racy, "arch g80\n", NULL);               /* sm_10: lockstep */
    uint32_t *synced = neighbours(neighbours_synced, "sched its\nseed 7\n", NULL);
    int stale = 0, differs = 0;
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t next = (t + 1) % 32 + 1;
        ck_assert_uint_eq(lockstep[2 * t], next);        /* lockstep: every store seen at once */
        ck_assert_uint_eq(lockstep[2 * t + 1], t + 1);
        ck_assert_uint_eq(g80[2 * t], next);
        ck_assert_uint_eq(synced[2 * t], next);          /* after __syncwarp every lane sees every store */
        ck_assert_uint_eq(its[2 * t + 1], t + 1);        /* a lane always sees its own store */
        /* its: the neighbour's value, or shared memory's 0 from before it when the neighbour is in the other group */
        ck_assert_msg(its[2 * t] == next || its[2 * t] == 0, "lane %u read %u", t, its[2 * t]);
        stale += its[2 * t] == 0;
        ck_assert_uint_eq(again[2 * t], its[2 * t]);     /* the same seed, the same result */
        ck_assert_uint_eq(by_default[2 * t], its[2 * t]);
    }
    ck_assert_int_gt(stale, 0);     /* two groups on a ring of 32: at least two lanes read across */
    ck_assert_int_lt(stale, 32);
    /* another seed splits the lanes another way */
    for (int seed = 1; seed <= 4 && !differs; seed++) {
        char flags[64];
        snprintf(flags, sizeof flags, "sched its\nseed %d\n", seed);
        uint32_t *other = neighbours(neighbours_racy, flags, NULL);
        differs = memcmp(other, its, 64 * sizeof *its) != 0;
        free(other);
    }
    ck_assert_msg(differs, "seeds 1-4 split the warp as seed 0 does");
    /* the warp still issues, counts and is timed as one: every counter is lockstep's */
    for (int c = 0; c < WS_CTR_COUNT; c++)
        ck_assert_msg(its_counters[c] == lockstep_counters[c], "counter %d: %llu under its, %llu lockstep", c,
                      (unsigned long long)its_counters[c], (unsigned long long)lockstep_counters[c]);
    free(lockstep); free(its); free(again); free(by_default); free(g80); free(synced);
}
END_TEST

/* ---- Warps in lockstep (sim/lockstep.c) against warp by warp ---------------------------------- */

/* Run `ptx` twice, warp by warp (WARPSIM_WARP_BY_WARP=1) and in groups. */
static void run_both(const char *ptx, const char *launch, sim_run **alone, sim_run **grouped)
{
    setenv("WARPSIM_WARP_BY_WARP", "1", 1);
    *alone = run(ptx, launch);
    unsetenv("WARPSIM_WARP_BY_WARP");
    *grouped = run(ptx, launch);
}

/* Every counter of the launch and of each of its kernel's instructions, and the predicted time, equal. */
static void assert_same_launch(sim_run *a, sim_run *b)
{
    ck_assert_int_eq(a->status, b->status);
    ck_assert_str_eq(a->err, b->err);
    const ws_launch *la = &a->session.launches[0], *lb = &b->session.launches[0];
    ck_assert_uint_eq(la->steps, lb->steps);
    ck_assert_int_eq(memcmp(la->counters, lb->counters, sizeof la->counters), 0);
    const ptx_function *fn = la->kernel;
    for (int i = 0; i <= fn->instr_count; i++)
        ck_assert_msg(memcmp(la->instr_counters[la->kernel_index][i], lb->instr_counters[lb->kernel_index][i],
                             sizeof(ws_instr_counters)) == 0, "instruction %d's counters differ", i);
    ck_assert(!la->timing == !lb->timing);
    if (la->timing)
        ck_assert_int_eq(memcmp(&la->timing->result, &lb->timing->result, sizeof la->timing->result), 0);
}

/* `ptx` run warp by warp and in groups (run_both): both finish, both leave buffer out equal to want (n words),
 * and every counter and the predicted time are the same. */
static void both_write(const char *ptx, const char *launch, const uint32_t *want, int n)
{
    sim_run *a, *b;
    run_both(ptx, launch, &a, &b);
    ck_assert_msg(a->status == 0, "%s", a->err);
    ck_assert_msg(b->status == 0, "%s", b->err);
    for (int t = 0; t < n; t++) {
        ck_assert_uint_eq(u32(a, "out")[t], want[t]);
        ck_assert_uint_eq(u32(b, "out")[t], want[t]);
    }
    assert_same_launch(a, b);
    done(a);
    done(b);
}

/* Each lane counts up its word, a load, an add and a store a turn, so that a warp-instruction more or
 * less before the step budget runs out shows in the buffer; warps whose bit SPLIT of %tid.x is 0 run one
 * instruction more before the loop (SPLIT 5: the even warps, so that the round's warps wait at two
 * instructions, groups of one; 7: none of a 128-thread block's, all in lockstep). WORD: the index of the
 * lane's word (%r6) from %tid.x (%r1). */
#define COUNTING(SPLIT, WORD) HEADER \
    ".visible .entry k(.param .u64 out)\n" \
    "{\n" \
    "  .reg .b32 %r<7>; .reg .b64 %rd<3>; .reg .pred %p<3>;\n" \
    "  ld.param.u64 %rd1, [out];\n" \
    "  mov.u32 %r1, %tid.x;\n" \
    "  " WORD "\n" \
    "  mul.wide.u32 %rd2, %r6, 4;\n" \
    "  add.u64 %rd2, %rd1, %rd2;\n" \
    "  shr.u32 %r4, %r1, " SPLIT ";\n" \
    "  and.b32 %r4, %r4, 1;\n" \
    "  setp.eq.u32 %p2, %r4, 1;\n" \
    "  @%p2 bra ODD;\n" \
    "  add.u32 %r5, %r1, 1;\n" \
    "ODD:\n" \
    "  mov.u32 %r2, 0;\n" \
    "LOOP:\n" \
    "  ld.global.u32 %r3, [%rd2];\n" \
    "  add.u32 %r3, %r3, 1;\n" \
    "  st.global.u32 [%rd2], %r3;\n" \
    "  add.u32 %r2, %r2, 1;\n" \
    "  setp.lt.u32 %p1, %r2, 6;\n" \
    "  @%p1 bra LOOP;\n" \
    "  ret;\n" \
    "}\n"
static const char counting[] = COUNTING("5", "mov.u32 %r6, %r1;");
/* a block's warps in lockstep: their groups are whole rounds, run one after another (sim/lockstep.c) */
static const char counting_in_lockstep[] = COUNTING("7", "mov.u32 %r6, %r1;");
/* every warp counts in words 0-31, the odd ones an instruction ahead: the round's order decides which of
 * their loads see which stores */
static const char counting_one_row[] = COUNTING("5", "and.b32 %r6, %r1, 31;");

START_TEST(groups_stop_where_warps_stop)
{
    /* 2 blocks of 4 warps: 4 * (10 + 6 * 6 + 1) + 2 * 1 (the even warps' add) = 190 warp-instructions a
     * block; in lockstep, every warp's add: 192 */
    static const struct {
        const char *ptx;
        int steps;
    } kernels[] = {{counting, 190}, {counting_in_lockstep, 192}};
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        sim_run *whole = run(kernels[k].ptx, "grid 2\nblock 128\nbuf out=u32:128\narg out\n");
        ck_assert_msg(whole->status == 0, "%s", whole->err);
        ck_assert_uint_eq(whole->session.launches[0].steps, 2 * kernels[k].steps);
        for (int t = 0; t < 128; t++)
            ck_assert_uint_eq(u32(whole, "out")[t], 2 * 6);   /* both blocks count in the same words */
        done(whole);
        /* the budget spent at every warp-instruction in turn: the same stores made, the same counters */
        for (int budget = 1; budget < 2 * kernels[k].steps; budget++) {
            char launch[256];
            snprintf(launch, sizeof launch, "grid 2\nblock 128\nbuf out=u32:128\narg out\nmax-steps %d\n", budget);
            sim_run *a, *b;
            run_both(kernels[k].ptx, launch, &a, &b);
            ck_assert_int_eq(a->status, 1);
            ck_assert_uint_eq(b->session.launches[0].steps, (uint64_t)budget);
            ck_assert_msg(memcmp(u32(a, "out"), u32(b, "out"), 128 * 4) == 0, "kernel %zu, budget %d: the stores "
                          "differ", k, budget);
            assert_same_launch(a, b);
            done(a);
            done(b);
        }
    }
}
END_TEST

START_TEST(groups_keep_the_rounds_order)
{
    /* One block of 4 warps counting in one row of 32 words, the odd warps a turn ahead. A round runs the
     * even warps (0, 2) at one instruction and the odd ones (1, 3) at the next, in warp order: groups of
     * one. By hand, one pass of the loop: round r, the evens load (both the same value v) and the odds
     * add; r + 1, the evens add and the odds store; r + 2, the evens store v + 1 over the odds' store. So
     * each pass adds 1 to every word: 6 in all. A warp run on ahead of its round would see other stores. */
    sim_run *a, *b;
    run_both(counting_one_row, "grid 1\nblock 128\nbuf out=u32:32\narg out\n", &a, &b);
    ck_assert_msg(b->status == 0, "%s", b->err);
    for (int t = 0; t < 32; t++) {
        ck_assert_uint_eq(u32(a, "out")[t], 6);
        ck_assert_uint_eq(u32(b, "out")[t], 6);
    }
    assert_same_launch(a, b);
    done(a);
    done(b);
}
END_TEST

/* A group's load takes the last warp's elements and hits again only where its address shape is the last's
 * (sim/exec_mem_runs.h: ws_ld_global_last). In a 16x16 block each warp's two rows of 16 lanes start at word 0 with
 * the same stride; the second row of warp w starts 8 >> w words on (8, 4, 2, 1, then 0 for warps 4-7): warps
 * 0-3 each have a row step of their own, on one line, and warps 5-7 repeat warp 4's rows. Each lane copies
 * in[tx + (ty & 1) * (8 >> (ty >> 1))] to out[ty * 16 + tx]. */
static const char same_start_other_rows[] = HEADER
    ".visible .entry k(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<7>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %tid.y;\n"
    "  shr.u32 %r3, %r2, 1;\n"
    "  mov.u32 %r6, 8;\n"
    "  shr.u32 %r3, %r6, %r3;\n"
    "  and.b32 %r7, %r2, 1;\n"
    "  mul.lo.u32 %r3, %r3, %r7;\n"
    "  add.u32 %r3, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r3, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r4, [%rd4];\n"
    "  shl.b32 %r5, %r2, 4;\n"
    "  add.u32 %r5, %r5, %r1;\n"
    "  mul.wide.u32 %rd5, %r5, 4;\n"
    "  add.u64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r4;\n"
    "  ret;\n"
    "}\n";

START_TEST(loads_repeat_only_the_same_shape)
{
    uint32_t want[256];
    for (int ty = 0; ty < 16; ty++)
        for (int tx = 0; tx < 16; tx++)
            want[ty * 16 + tx] = (uint32_t)(tx + (ty & 1) * (8 >> (ty >> 1)));
    both_write(same_start_other_rows, "grid 2\nblock 16,16\nbuf in=u32:32:iota\nbuf out=u32:256\narg in\narg out\n",
               want, 256);
}
END_TEST

/* The shared-load kernels' start: each thread writes its index to sdata[tid] (%r1 the index, %r2 sdata, %r3
 * the index * 4), and the block waits. */
#define EACH_WRITES_ITS_INDEX \
    "  ld.param.u64 %rd1, [out];\n" \
    "  mov.u32 %r1, %tid.x;\n" \
    "  mov.u32 %r2, sdata;\n" \
    "  shl.b32 %r3, %r1, 2;\n" \
    "  add.u32 %r4, %r2, %r3;\n" \
    "  st.shared.u32 [%r4], %r1;\n" \
    "  bar.sync 0;\n"

/* And a shared load (ws_ld_shared_batch): after each thread wrote its index to sdata[tid], warp 0 reads
 * sdata[lane] (a run) and warp 1 sdata[0] (one address for all): the same first address, another stride. */
static const char same_start_other_stride[] = HEADER
    ".shared .align 4 .b32 sdata[64];\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
    EACH_WRITES_ITS_INDEX
    "  shr.u32 %r5, %r1, 5;\n"
    "  xor.b32 %r6, %r5, 1;\n"
    "  mul.lo.u32 %r7, %r3, %r6;\n"
    "  add.u32 %r8, %r2, %r7;\n"
    "  ld.shared.u32 %r9, [%r8];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r9;\n"
    "  ret;\n"
    "}\n";

START_TEST(shared_loads_repeat_only_the_same_run)
{
    uint32_t want[64];
    for (int t = 0; t < 64; t++)
        want[t] = t < 32 ? (uint32_t)t : 0;
    both_write(same_start_other_stride, "grid 2\nblock 64\nbuf out=u32:64\narg out\n", want, 64);
}
END_TEST

/* And rows: warp 0 reads sdata[lane] (a run), warp 1 sdata[lane % 16] (rows of 16 lanes, each like the
 * run's first 16: the same first address, stride and row step 0), warp 2 sdata[0]: warp 1 is no repeat. */
static const char same_start_other_rows_shared[] = HEADER
    ".shared .align 4 .b32 sdata[96];\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<4>;\n"
    EACH_WRITES_ITS_INDEX
    "  and.b32 %r5, %r1, 31;\n"
    "  shr.u32 %r6, %r1, 5;\n"
    "  and.b32 %r7, %r1, 15;\n"
    "  setp.eq.u32 %p1, %r6, 1;\n"
    "  selp.b32 %r8, %r7, %r5, %p1;\n"
    "  setp.eq.u32 %p2, %r6, 2;\n"
    "  selp.b32 %r8, 0, %r8, %p2;\n"
    "  shl.b32 %r9, %r8, 2;\n"
    "  add.u32 %r10, %r2, %r9;\n"
    "  ld.shared.u32 %r11, [%r10];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r11;\n"
    "  ret;\n"
    "}\n";

START_TEST(shared_loads_repeat_only_the_same_rows)
{
    uint32_t want[96];
    for (int t = 0; t < 96; t++)
        want[t] = t < 32 ? (uint32_t)t : t < 64 ? (uint32_t)(t & 15) : 0;
    both_write(same_start_other_rows_shared, "grid 2\nblock 96\nbuf out=u32:96\narg out\n", want, 96);
}
END_TEST

/* %clock (the block's warp-instructions so far) is read warp by warp in a group too: it is no plain
 * operand of a wide or pure group (sim/setup.c), whose steps are counted once for the group. By hand: each
 * of the 4 warps ran 2 instructions before it, and warp k's mov is the block's (8 + k + 1)-th. */
static const char clock_per_warp[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %clock;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r2;\n"
    "  ret;\n"
    "}\n";

START_TEST(clock_read_warp_by_warp_in_groups)
{
    uint32_t want[128];
    for (int t = 0; t < 128; t++)
        want[t] = (uint32_t)(9 + t / 32);
    both_write(clock_per_warp, "grid 2\nblock 128\nbuf out=u32:128\narg out\n", want, 128);
}
END_TEST

/* A kernel parameter's load runs for a whole group at once (sim/exec_mem_runs.c: wide_ld_kernel_param) only where
 * decode found it inside the parameter buffer: `a` read in every lane of 4 warps, and a read 4 bytes past
 * it (bytes 12-15 of 12) the general path's error, as warp by warp. */
#define PARAM_AT(OFFSET) HEADER \
    ".visible .entry k(.param .u64 out, .param .u32 a)\n" \
    "{\n" \
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n" \
    "  ld.param.u64 %rd1, [out];\n" \
    "  ld.param.u32 %r2, [a+" OFFSET "];\n" \
    "  mov.u32 %r1, %tid.x;\n" \
    "  mul.wide.u32 %rd2, %r1, 4;\n" \
    "  add.u64 %rd3, %rd1, %rd2;\n" \
    "  st.global.u32 [%rd3], %r2;\n" \
    "  ret;\n" \
    "}\n"

START_TEST(kernel_parameters_read_at_once_where_they_are)
{
    static const char inside[] = PARAM_AT("0"), past[] = PARAM_AT("4");
    const char *launch = "grid 2\nblock 128\nbuf out=u32:128\narg out\narg u32:7\n";
    uint32_t want[128];
    for (int t = 0; t < 128; t++)
        want[t] = 7;
    both_write(inside, launch, want, 128);
    sim_run *a, *b;
    run_both(past, launch, &a, &b);
    ck_assert_int_eq(b->status, 1);
    ck_assert_msg(strstr(b->err, "out-of-bounds 4-byte read of parameter offset 12") != NULL, "%s", b->err);
    assert_same_launch(a, b);
    done(a);
    done(b);
}
END_TEST

/* Every warp of a block in lockstep reaches a barrier whose thread count is no multiple of the warp size:
 * the first warp faults, and the round stops there, grouped (sim/lockstep.c's moving_group) as warp by warp:
 * one warp-instruction of the barrier counted, not four. */
static const char bad_barrier[] = HEADER
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  bar.sync 0, 48;\n"
    "  ret;\n"
    "}\n";

START_TEST(groups_stop_at_a_fault)
{
    sim_run *a, *b;
    run_both(bad_barrier, "grid 1\nblock 128\nbuf out=u32:1\narg out\n", &a, &b);
    ck_assert_int_ne(b->status, 0);
    ck_assert_msg(strstr(b->err, "not a positive multiple of the warp size") != NULL, "%s", b->err);
    assert_same_launch(a, b);
    const ws_launch *l = &b->session.launches[0];
    ck_assert_uint_eq(l->instr_counters[l->kernel_index][1][WS_CTR_inst_executed], 1);   /* the bar.sync */
    done(a);
    done(b);
}
END_TEST

START_TEST(groups_count_as_warps_do)
{
    static const struct {
        const char *ptx, *launch;
    } cases[] = {
        {divergent_loop, "grid 3\nblock 100\nbuf out=u32:100\narg out\n"},
        {divergent_loop, "grid 3\nblock 100\nbuf out=u32:100\narg out\nno-timing\n"},
        {counting, "grid 3\nblock 96\nbuf out=u32:96\narg out\n"},
        {counting, "grid 3\nblock 96\nbuf out=u32:96\narg out\nbuild O0\n"},
        {nested_if, "grid 2\nblock 64\nbuf out=u32:64\narg out\n"},
        {barrier_exchange, "grid 2\nblock 64\nbuf out=u32:32\nbuf counts=u32:64\narg out\narg counts\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_run *a, *b;
        run_both(cases[i].ptx, cases[i].launch, &a, &b);
        ck_assert_msg(a->status == 0, "case %zu: %s", i, a->err);
        assert_same_launch(a, b);
        done(a);
        done(b);
    }
}
END_TEST

/* ---- The one-pass memory paths (sim/exec_mem_runs.c) against the general ones -------------------------- */

/* tests/ptx/strided_access.ptx's kernels with a run of addresses off a sector, with gaps, at one address, a
 * sector or more apart, and misaligned, in full and partial warps, run with the one-pass paths and without
 * (WARPSIM_ONE_PASS=0): the same counters, buffer, predicted time, and every block's timing record. */
/* Two launches' blocks placed alike on the SMs (sim/timing_blocks.c): every block's record went into these, in
 * launch order (its path and demand into the SMs' busy times and ends, its waits into the sums). */
static void assert_same_placement(const ws_block_placement *a, const ws_block_placement *b, const char *launch)
{
    ck_assert_uint_eq(a->placed, b->placed);
    ck_assert_uint_eq(a->sms, b->sms);
    ck_assert_msg(a->kernel == b->kernel && a->path_max == b->path_max && a->decided_by_demand == b->decided_by_demand,
                  "%s: the blocks' placement", launch);
    ck_assert_msg(memcmp(&a->warp_cycles, &b->warp_cycles, sizeof a->warp_cycles) == 0 &&
                  memcmp(a->behind, b->behind, sizeof a->behind) == 0 &&
                  memcmp(a->demand, b->demand, sizeof a->demand) == 0 &&
                  memcmp(a->waits, b->waits, sizeof a->waits) == 0, "%s: the blocks' sums of time", launch);
    ck_assert_msg(!a->heap || (memcmp(a->sm_busy, b->sm_busy, a->sms * sizeof *a->sm_busy) == 0 &&
                               memcmp(a->sm_end, b->sm_end, a->sms * sizeof *a->sm_end) == 0 &&
                               memcmp(a->heap, b->heap, a->slots * sizeof *a->heap) == 0),
                  "%s: the SMs' times", launch);
}

/* The launch without the one-pass paths (WARPSIM_ONE_PASS=0) and with them: the same status and error, every
 * counter, `bytes` of buffer `buf`, and with the timing model the predicted time, the blocks' placement (every
 * block's timing record, in launch order) and the blocks' sums. `ok`: the launch must succeed. Returns the run
 * without them, for the caller's own checks. */
static sim_run *general_as_one_pass(const char *ptx, const char *launch, const char *buf, size_t bytes, int ok)
{
    setenv("WARPSIM_ONE_PASS", "0", 1);
    sim_run *general = run(ptx, launch);
    unsetenv("WARPSIM_ONE_PASS");
    sim_run *one_pass = run(ptx, launch);
    ck_assert_msg(general->status == 0 || !ok, "%s: %s", launch, general->err);
    assert_same_launch(general, one_pass);
    ck_assert_int_eq(memcmp(u32(general, buf), u32(one_pass, buf), bytes), 0);
    const ws_launch_timing *a = general->session.launches[0].timing, *b = one_pass->session.launches[0].timing;
    ck_assert_msg(!a == !b, "%s: a timing model in one run alone", launch);
    if (a) {   /* none under no-timing */
        ck_assert_uint_eq(a->blocks, b->blocks);
        assert_same_placement(&a->placement, &b->placement, launch);
        ck_assert_msg(memcmp(&a->sums, &b->sums, sizeof a->sums) == 0, "%s: the blocks' sums", launch);
    }
    done(one_pass);
    return general;
}

/* A 2D block's warps load rows: lane (x, y) reads in[y * w + x] (w a parameter), so a warp of a block 16, 8
 * or 4 wide reads rows w words apart: one (w 0), overlapping or sharing sectors (w under the row's span and a
 * sector), or a sector and more apart, lines shared or not (sim/exec_mem_runs.c's load_rows). */
static const char rows_kernel[] = HEADER
    ".visible .entry rows(.param .u64 out, .param .u64 in, .param .u32 w)\n"
    "{\n"
    "  .reg .b32 %r<7>; .reg .b64 %rd<8>; .reg .f32 %f<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [in];\n"
    "  ld.param.u32 %r1, [w];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mov.u32 %r3, %tid.y;\n"
    "  mov.u32 %r6, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r3, %r1, %r2;\n"
    "  mul.wide.u32 %rd4, %r4, 4;\n"
    "  add.s64 %rd5, %rd2, %rd4;\n"
    "  ld.global.f32 %f1, [%rd5];\n"
    "  mad.lo.s32 %r5, %r3, %r6, %r2;\n"
    "  mul.wide.u32 %rd7, %r5, 4;\n"
    "  add.s64 %rd6, %rd1, %rd7;\n"
    "  st.global.f32 [%rd6], %f1;\n"
    "  ret;\n"
    "}\n";

/* A column store across a block's warps: lane (x, y) writes y * 32 + x to out[x * s + y] (s a parameter), so warp
 * y's lanes are s words apart and the warps' first words side by side (the transposes' store). */
static const char columns_kernel[] = HEADER
    ".visible .entry columns(.param .u64 out, .param .u32 s)\n"
    "{\n"
    "  .reg .b32 %r<7>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [s];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mov.u32 %r3, %tid.y;\n"
    "  mad.lo.s32 %r4, %r2, %r1, %r3;\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  shl.b32 %r5, %r3, 5;\n"
    "  add.s32 %r6, %r5, %r2;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "  ret;\n"
    "}\n";

/* The column stores of a run (sim/exec_mem_wide.c writes them a line of all the warps' words at a time where no
 * element is written twice: s >= the warps' count; sim/exec_mem_lanes.c four warps at a time, then the rest) and
 * those whose elements meet (s under it, 0): the buffer of a C loop that writes them warp after warp, lane after
 * lane, and the general path's counters and time. */
START_TEST(column_stores_across_warps_as_warp_after_warp)
{
    static const struct {
        unsigned warps, s, untimed;   /* untimed: no timing model, whose runs take warps in fours alone */
    } cases[] = {{32, 32, 0}, {32, 33, 0}, {32, 40, 0}, {32, 31, 0}, {32, 16, 0}, {32, 1, 0}, {32, 0, 0},
                 {4, 4, 0},   {4, 3, 0},   {8, 1024, 0}, {6, 6, 1},  {7, 9, 1},  {6, 5, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char launch[256];
        snprintf(launch, sizeof launch, "kernel columns\ngrid 1\nblock 32,%u\nbuf out=u32:34000\narg out\n"
                 "arg u32:%u\n%s", cases[i].warps, cases[i].s, cases[i].untimed ? "no-timing\n" : "");
        static uint32_t want[34000];
        memset(want, 0, sizeof want);
        for (unsigned y = 0; y < cases[i].warps; y++)
            for (unsigned x = 0; x < 32; x++)
                want[x * cases[i].s + y] = y * 32 + x;
        sim_run *general = general_as_one_pass(columns_kernel, launch, "out", sizeof want, 1);
        ck_assert_msg(memcmp(u32(general, "out"), want, sizeof want) == 0, "%s", launch);
        done(general);
    }
}
END_TEST

START_TEST(one_pass_accesses_as_the_general_path)
{
    char *ptx = strdup(source_file("tests/ptx/strided_access.ptx"));
    static const struct {
        const char *kernel;
        unsigned offset, stride, block;
    } cases[] = {
        {"strided_f32", 0, 4, 48},  {"strided_f32", 4, 4, 48},   {"strided_f32", 28, 4, 32},
        {"strided_f32", 0, 0, 48},  {"strided_f32", 8, 8, 32},   {"strided_f32", 28, 12, 48},
        {"strided_f32", 0, 32, 32}, {"strided_f32", 4, 64, 32},  {"strided_f32", 0, 40, 48},
        {"strided_f32", 12, 128, 32}, {"strided_u64", 0, 8, 32}, {"strided_u64", 24, 8, 32},
        {"strided_u64", 0, 0, 32},  {"strided_u64", 8, 16, 32},  {"strided_u64", 0, 32, 32},
        {"strided_u64", 8, 72, 32}, {"strided_u64", 4, 8, 32},   /* misaligned: the same fault */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char launch[256];
        snprintf(launch, sizeof launch, "kernel %s\ngrid 3\nblock %u\nbuf out=u32:1024\narg out\narg u32:%u\n"
                 "arg u32:%u\n", cases[i].kernel, cases[i].block, cases[i].offset, cases[i].stride);
        done(general_as_one_pass(ptx, launch, "out", 4096, i < sizeof cases / sizeof cases[0] - 1));
    }
    free(ptx);
    /* nvcc's naive matmul: back-to-back loads (a warp's second issued before it used its first: the L1
     * throttle's waits), one address a warp and a run a warp (32x32 blocks), rows of 16 and 8 (16x16, 8x8) */
    ptx = strdup(source_file("tests/nvcc/001_matmul.ptx"));
    static const char *const blocks[] = {"32,32", "16,16", "8,8"};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        char launch[256];
        snprintf(launch, sizeof launch, "kernel matmul_naive\ngrid 2,2\nblock %s\nbuf A=f32:4096:random=1\n"
                 "buf B=f32:4096:random=2\nbuf C=f32:4096\narg A\narg B\narg C\narg s32:%d\n", blocks[i],
                 2 * atoi(blocks[i]));
        sim_run *general = general_as_one_pass(ptx, launch, "C", 4096 * 4, 1);
        ck_assert_msg(general->session.launches[0].timing->placement.waits[WS_WAIT_GLOBAL_QUEUED] > 0,
                      "block %s: no load waited for the L1", blocks[i]);
        done(general);
    }
    free(ptx);
    /* rows: 16 wide, w 15 (one word and its sector in both rows), 16 (a line shared), 20 (apart by less than
     * a row and a sector), 24 (apart, a line shared), 40; 8 wide, w 7, 8 and 16; 4 wide, w 3, 4, 12 and 40;
     * and w 0 (the rows one) */
    static const struct {
        const char *block;
        unsigned w;
    } rows[] = {
        {"16,2", 15}, {"16,2", 16}, {"16,2", 20}, {"16,2", 24}, {"16,2", 40}, {"16,2", 0}, {"8,4", 7},
        {"8,4", 8}, {"8,4", 16}, {"8,4", 0}, {"4,8", 3}, {"4,8", 4}, {"4,8", 12}, {"4,8", 40}, {"4,8", 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char launch[256];
        snprintf(launch, sizeof launch, "kernel rows\ngrid 2\nblock %s\nbuf out=f32:64\nbuf in=f32:1024:random=3\n"
                 "arg out\narg in\narg u32:%u\n", rows[i].block, rows[i].w);
        done(general_as_one_pass(rows_kernel, launch, "out", 64 * 4, 1));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("simt");
    tcase_add_test(tc, nested_if_reconverges);
    tcase_add_test(tc, reports_name_the_cuda_line);
    tcase_add_test(tc, colliding_atomics_are_counted_and_reported);
    tcase_add_test(tc, nvcc_debug_predicate_true);
    tcase_add_test(tc, clang_weak_shared_array);
    tcase_add_test(tc, divergent_trip_counts);
    tcase_add_test(tc, early_exit_then_barrier);
    tcase_add_test(tc, calls_and_recursion);
    tcase_add_test(tc, calls_do_not_share_register_shapes);
    tcase_add_test(tc, barrier_and_bar_red);
    tcase_add_test(tc, vote_and_shuffle);
    tcase_add_test(tc, atomics_under_contention);
    tcase_add_test(tc, runs_are_deterministic);
    tcase_add_test(tc, its_hides_a_neighbours_store_until_syncwarp);
    suite_add_tcase(s, tc);
    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, out_of_bounds_is_reported);
    tcase_add_test(errors, misaligned_is_reported);
    tcase_add_test(errors, shared_out_of_bounds_is_reported);
    tcase_add_test(errors, deadlock_is_reported);
    tcase_add_test(errors, step_budget_stops_endless_loops);
    tcase_add_test(errors, groups_stop_where_warps_stop);
    tcase_add_test(errors, groups_keep_the_rounds_order);
    tcase_add_test(errors, loads_repeat_only_the_same_shape);
    tcase_add_test(errors, shared_loads_repeat_only_the_same_run);
    tcase_add_test(errors, shared_loads_repeat_only_the_same_rows);
    tcase_add_test(errors, clock_read_warp_by_warp_in_groups);
    tcase_add_test(errors, kernel_parameters_read_at_once_where_they_are);
    tcase_add_test(errors, groups_count_as_warps_do);
    tcase_add_test(errors, one_pass_accesses_as_the_general_path);
    tcase_add_test(errors, column_stores_across_warps_as_warp_after_warp);
    tcase_add_test(errors, groups_stop_at_a_fault);
    tcase_add_test(errors, bra_uni_on_divergent_condition_is_an_error);
    suite_add_tcase(s, errors);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
