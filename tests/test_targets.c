/*
 * Presets refuse what their GPU lacks (sim/targets.def): each instruction on
 * the last preset without it is an error naming the PTX line and column and the
 * first architecture that has it, and runs on the first preset that has it.
 * Expected versions: the "Target ISA notes" of NVIDIA's PTX ISA, one per row.
 */
#include "tests/sim_run.h"

/* One kernel holding `instr` on line 10 (HEADER is lines 1-3). Its registers
 * cover every type the rows use; the shared and global addresses are valid. */
static void kernel(char *out, size_t len, const char *instr)
{
    snprintf(out, len, HEADER
             ".visible .entry k(.param .u64 g)\n"                                          /* 4 */
             "{\n"                                                                         /* 5 */
             "  .reg .b32 %%r<4>; .reg .b64 %%rd<4>; .reg .f32 %%f<4>; .reg .f64 %%fd<4>;\n"   /* 6 */
             "  .reg .pred %%p<3>; .shared .align 8 .b64 s[4];\n"                          /* 7 */
             "  ld.param.u64 %%rd1, [g]; mov.u32 %%r1, 1; mov.f32 %%f1, 0f3F800000; mov.f64 %%fd1, 0d3FF0000000000000;\n"   /* 8 */
             "  mov.u64 %%rd2, s; setp.ne.u32 %%p1, %%r1, 0; mov.u64 %%rd3, 1; mov.f32 %%f2, %%f1;\n"   /* 9 */
             "  %s\n"                                                                      /* 10 */
             "  ret;\n"
             "}\n", instr);
}

typedef struct {
    const char *instr;       /* on line 10, column 3 */
    const char *without;     /* the newest preset without it */
    const char *with;        /* the oldest preset with it */
    const char *message;     /* the error on `without`, after "test.ptx:10:3: error: " */
} refusal;

static const refusal refusals[] = {
    {"shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;", "fermi", "kepler",
     "shfl.sync needs sm_30 or later (Kepler); the fermi preset is sm_20"},
    {"shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;", "g80", "kepler",
     "shfl.sync needs sm_30 or later (Kepler); the g80 preset is sm_10"},
    {"shfl.down.b32 %r2, %r1, 1, 31;", "fermi", "kepler", "shfl needs sm_30 or later (Kepler); the fermi preset is sm_20"},
    {"vote.any.pred %p2, %p1;", "g80", "gt200", "vote needs sm_12 or later (Tesla); the g80 preset is sm_10"},
    {"vote.ballot.b32 %r2, %p1;", "gt200", "fermi", "vote.ballot.b32 needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"vote.sync.all.pred %p2, %p1, -1;", "fermi", "kepler", "vote.sync needs sm_30 or later (Kepler); the fermi preset is sm_20"},
    {"bar.warp.sync -1;", "fermi", "kepler", "bar.warp.sync needs sm_30 or later (Kepler); the fermi preset is sm_20"},
    {"activemask.b32 %r2;", "fermi", "kepler", "activemask needs sm_30 or later (Kepler); the fermi preset is sm_20"},
    {"redux.sync.add.u32 %r2, %r1, -1;", "volta", "ampere", "redux.sync needs sm_80 or later (Ampere); the volta preset is sm_70"},
    {"bar.red.popc.u32 %r2, 0, %p1;", "gt200", "fermi", "bar.red needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"bar.arrive 1, 32;", "gt200", "fermi", "bar.arrive needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"atom.global.add.u32 %r2, [%rd1], 1;", "g80", "gt200", "atom.global needs sm_11 or later (Tesla); the g80 preset is sm_10"},
    {"atom.shared.add.u32 %r2, [%rd2], 1;", "g80", "gt200", "atom.shared needs sm_12 or later (Tesla); the g80 preset is sm_10"},
    /* two rows match (atom.global: sm_11; 64-bit: sm_12): the message names the newer */
    {"atom.global.cas.b64 %rd3, [%rd1], 0, 1;", "g80", "gt200",
     "64-bit atom.global.{add,cas,exch} needs sm_12 or later (Tesla); the g80 preset is sm_10"},
    {"atom.shared.add.u64 %rd3, [%rd2], 1;", "gt200", "fermi",
     "64-bit atom.shared.{add,cas,exch} needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"atom.global.or.b64 %rd3, [%rd1], 1;", "fermi", "kepler",
     "64-bit atom.{and,or,xor,min,max} needs sm_32 or later (Kepler); the fermi preset is sm_20"},
    {"atom.global.add.f32 %f3, [%rd1], %f1;", "gt200", "fermi", "atom.add.f32 needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"atom.global.add.f64 %fd2, [%rd1], %fd1;", "maxwell", "pascal",
     "atom.add.f64 needs sm_60 or later (Pascal); the maxwell preset is sm_50"},
    {"red.shared.add.u32 [%rd2], 1;", "g80", "gt200", "red.shared needs sm_12 or later (Tesla); the g80 preset is sm_10"},
    {"red.global.add.f32 [%rd1], %f1;", "gt200", "fermi", "red.add.f32 needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"add.f64 %fd2, %fd1, %fd1;", "g80", "gt200", "add.f64 needs sm_13 or later (Tesla); the g80 preset is sm_10"},
    {"cvt.rn.f32.f64 %f3, %fd1;", "g80", "gt200", "cvt to or from .f64 needs sm_13 or later (Tesla); the g80 preset is sm_10"},
    {"fma.rn.f32 %f3, %f1, %f2, %f1;", "gt200", "fermi", "fma.f32 needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"div.rn.f32 %f3, %f1, %f2;", "gt200", "fermi", "div.rnd.f32 needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"ld.global.nc.u32 %r2, [%rd1];", "fermi", "kepler", "ld.global.nc needs sm_32 or later (Kepler); the fermi preset is sm_20"},
    {"ldu.global.u32 %r2, [%rd1];", "gt200", "fermi", "ldu needs sm_20 or later (Fermi); the gt200 preset is sm_13"},
    {"fence.sc.gpu;", "pascal", "volta", "fence needs sm_70 or later (Volta); the pascal preset is sm_60"},
};

/* What sm_1x has runs there: the G80's own instructions, and what the table leaves out on purpose (cvta, bfi). */
static const char *const g80_has[] = {
    "mad.f32 %f3, %f1, %f2, %f1;", "div.full.f32 %f3, %f1, %f2;", "div.approx.f32 %f3, %f1, %f2;",
    "add.cc.u32 %r2, %r1, %r1;", "bar.sync 0;", "ld.global.u32 %r2, [%rd1];", "mov.f64 %fd2, %fd1;",
    "cvta.to.global.u64 %rd3, %rd1;", "bfi.b32 %r2, %r1, %r1, 0, 4;", "membar.gl;",
};

static sim_run *run_on(const char *instr, const char *arch)
{
    char ptx[2048], launch[256];
    kernel(ptx, sizeof ptx, instr);
    snprintf(launch, sizeof launch, "arch %s\ngrid 1\nblock 32\nbuf g=u64:4\narg g\n", arch);
    return run(ptx, launch);
}

START_TEST(refused_before_its_first_gpu)
{
    const refusal *t = &refusals[_i];
    sim_run *r = run_on(t->instr, t->without);
    char want[512];
    snprintf(want, sizeof want, "test.ptx:10:3: error: %s", t->message);
    ck_assert_msg(r->status != 0, "%s ran on %s", t->instr, t->without);
    ck_assert_msg(strstr(r->err, want) != NULL, "%s on %s:\n got  %s\n want %s", t->instr, t->without, r->err, want);
    done(r);
    r = run_on(t->instr, t->with);
    ck_assert_msg(r->status == 0, "%s on %s: %s", t->instr, t->with, r->err);
    done(r);
}
END_TEST

START_TEST(g80_instructions_run_on_g80)
{
    sim_run *r = run_on(g80_has[_i], "g80");
    ck_assert_msg(r->status == 0, "%s on g80: %s", g80_has[_i], r->err);
    done(r);
}
END_TEST

/* tex of a texture object (sm_20): never executed here (its guard is false; a .launch has no texture object),
 * but the preset check reads the whole kernel before its first block */
START_TEST(tex_needs_fermi)
{
    const char *instr = "@!%p1 tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd1, {%r1}];";
    sim_run *r = run_on(instr, "gt200");
    ck_assert_int_ne(r->status, 0);
    ck_assert_msg(strstr(r->err, "test.ptx:10:9: error: tex of a texture object needs sm_20 or later (Fermi); the gt200 "
                                 "preset is sm_13") != NULL, "%s", r->err);
    done(r);
    r = run_on(instr, "fermi");
    ck_assert_msg(r->status == 0, "%s", r->err);
    done(r);
}
END_TEST

/* Only what the launch reaches is checked: another kernel's shuffle does not stop this one. */
START_TEST(only_the_kernels_reach_is_checked)
{
    char ptx[4096];
    kernel(ptx, sizeof ptx, "mov.u32 %r2, 2;");
    strcat(ptx, ".visible .entry other()\n{\n  .reg .b32 %r<3>;\n  shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;\n  ret;\n}\n");
    sim_run *r = run(ptx, "arch g80\nkernel k\ngrid 1\nblock 32\nbuf g=u64:4\narg g\n");
    ck_assert_msg(r->status == 0, "%s", r->err);
    done(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("targets");
    TCase *tc = tcase_create("refusals");
    tcase_add_loop_test(tc, refused_before_its_first_gpu, 0, (int)(sizeof refusals / sizeof refusals[0]));
    tcase_add_loop_test(tc, g80_instructions_run_on_g80, 0, (int)(sizeof g80_has / sizeof g80_has[0]));
    tcase_add_test(tc, only_the_kernels_reach_is_checked);
    tcase_add_test(tc, tex_needs_fermi);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
