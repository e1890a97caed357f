/*
 * The functions warpsim runs natively for a kernel (sim/builtins.def: the math
 * library clang calls without libdevice, and vprintf). Each math function runs
 * through the simulator -- a PTX kernel calls it on 32 lanes of inputs -- and
 * is compared with a long-double reference: the error must stay within the
 * bound the CUDA C++ Programming Guide states for that function (appendix
 * "Mathematical Functions", maximum ulp error), and the table below says which
 * bound each one has. Also: a wrong signature and an unknown function are
 * clear errors, and device printf formats like printf.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/builtins.h"
#include "sim/grid.h"
#include "sim/memory.h"
#include "sim/setup.h"

#define HEADER ".version 7.0\n.target sm_80\n.address_size 64\n"

typedef long double (*ref1)(long double);
typedef long double (*ref2)(long double, long double);

static long double sinpil(long double x) { return sinl(3.14159265358979323846264338327950288L * x); }
static long double cospil(long double x) { return cosl(3.14159265358979323846264338327950288L * x); }
static long double exp10ll(long double x) { return powl(10.0L, x); }
static long double rcbrtll(long double x) { return 1.0L / cbrtl(x); }

/* name, reference, maximum ulp error per the CUDA guide (float / double), input range */
static const struct {
    const char *name;
    ref1 f1;
    ref2 f2;
    double ulp_float, ulp_double;
    double lo, hi;
} cases[] = {
    {"exp", expl, NULL, 2, 1, -20, 20},       {"exp2", exp2l, NULL, 2, 1, -20, 20},
    {"exp10", exp10ll, NULL, 2, 1, -10, 10},  {"expm1", expm1l, NULL, 1, 1, -5, 5},
    {"log", logl, NULL, 1, 1, 0.01, 1000},    {"log2", log2l, NULL, 1, 1, 0.01, 1000},
    {"log10", log10l, NULL, 2, 1, 0.01, 1000}, {"log1p", log1pl, NULL, 1, 1, -0.5, 100},
    {"sin", sinl, NULL, 2, 2, -10, 10},       {"cos", cosl, NULL, 2, 2, -10, 10},
    {"tan", tanl, NULL, 4, 2, -1.5, 1.5},     {"sinpi", sinpil, NULL, 1, 2, -3.3, 3.3},
    {"cospi", cospil, NULL, 1, 2, -3.3, 3.3}, {"asin", asinl, NULL, 2, 2, -1, 1},
    {"acos", acosl, NULL, 2, 2, -1, 1},       {"atan", atanl, NULL, 2, 2, -50, 50},
    {"sinh", sinhl, NULL, 3, 2, -10, 10},     {"cosh", coshl, NULL, 2, 1, -10, 10},
    {"tanh", tanhl, NULL, 2, 1, -5, 5},       {"asinh", asinhl, NULL, 3, 3, -100, 100},
    {"acosh", acoshl, NULL, 4, 3, 1, 100},    {"atanh", atanhl, NULL, 3, 2, -0.99, 0.99},
    {"cbrt", cbrtl, NULL, 1, 1, -100, 100},   {"rcbrt", rcbrtll, NULL, 1, -1, 0.5, 100},
    {"erf", erfl, NULL, 2, 2, -3, 3},         {"erfc", erfcl, NULL, 4, 5, -3, 3},
    {"tgamma", tgammal, NULL, 5, 10, 0.5, 20}, {"lgamma", lgammal, NULL, 6, 4, 0.5, 50},
    {"round", roundl, NULL, 0, 0, -100, 100},
    {"atan2", NULL, atan2l, 3, 2, -10, 10},   {"pow", NULL, powl, 4, 2, 0.1, 5},
    {"hypot", NULL, hypotl, 3, 2, -100, 100}, {"fmod", NULL, fmodl, 0, 0, 0.5, 100},
    {"remainder", NULL, remainderl, 0, 0, 0.5, 100}, {"fdim", NULL, fdiml, 0, 0, -10, 10},
};

/* One kernel calling NAME on in[tid] (and in[tid + 32]) into out[tid]; T is f32 or f64. */
static ptx_module *kernel_for(const char *name, int two, int dbl)
{
    const char *t = dbl ? "f64" : "f32", *b = dbl ? "b64" : "b32";
    int size = dbl ? 8 : 4;
    char text[4096];
    snprintf(text, sizeof text, HEADER
             ".extern .func (.param .%s r) %s(.param .%s a%s%s%s);\n"
             ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
             "  .reg .b32 %%r<3>;\n  .reg .b64 %%rd<8>;\n  .reg .%s %%x<4>;\n"
             "  ld.param.u64 %%rd1, [in];\n  ld.param.u64 %%rd2, [out];\n  mov.u32 %%r1, %%tid.x;\n"
             "  mul.wide.u32 %%rd3, %%r1, %d;\n  add.s64 %%rd4, %%rd1, %%rd3;\n  add.s64 %%rd5, %%rd2, %%rd3;\n"
             "  ld.global.%s %%x1, [%%rd4];\n  ld.global.%s %%x2, [%%rd4+%d];\n"
             "  {\n  .param .%s p0;\n  .param .%s p1;\n  .param .%s ret;\n"
             "  st.param.%s [p0], %%x1;\n  st.param.%s [p1], %%x2;\n"
             "  call.uni (ret), %s, (p0%s);\n  ld.param.%s %%x3, [ret];\n  }\n"
             "  st.global.%s [%%rd5], %%x3;\n  ret;\n}\n",
             b, name, b, two ? ", .param ." : "", two ? b : "", two ? " b" : "",
             t, size, t, t, 32 * size, b, b, b, t, t, name, two ? ", p1" : "", t, t);
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, strlen(text), "builtins.ptx", &d);
    if (!m)
        ck_abort_msg("%s: %s\n%s", name, d.count ? d.lines[0] : "?", text);
    ptx_diag_free(&d);
    return m;
}

/* Run the kernel on 32 lanes over `in` (64 values); out gets 32. 0, or -1 with the launch error in err. */
static int run_kernel(ptx_module *m, const void *in, size_t in_bytes, void *out, size_t out_bytes, char *err, size_t n)
{
    ws_global_memory g;
    ws_global_init(&g, 1 << 20);
    ws_allocation *ai = ws_global_alloc(&g, in_bytes, "in"), *ao = ws_global_alloc(&g, out_bytes, "out");
    memcpy(ai->bytes, in, in_bytes);
    uint64_t params[2] = {ai->base, ao->base};
    uint64_t globals[64] = {0};
    ws_launch_config cfg = {.module = m, .kernel_index = ptx_find_function(m, "k"), .arch = ws_arch_default(),
                            .grid = {1, 1, 1}, .block = {32, 1, 1}, .params = (const uint8_t *)params,
                            .params_size = sizeof params, .globals = globals, .trace_block = -1, .trace_warp = -1};
    ws_launch l;
    int status = ws_launch_run(&l, &cfg, &g);
    if (status)
        snprintf(err, n, "%s", l.error);
    else
        memcpy(out, ao->bytes, out_bytes);
    ws_launch_free(&l);
    ws_global_free(&g);
    return status ? -1 : 0;
}

/* |got - want| in ulps of the result's type at want. */
static double ulps(long double got, long double want, int dbl)
{
    if (isnan(want) && isnan(got))
        return 0;
    if (isinf(want))
        return got == want ? 0 : INFINITY;
    int e;
    frexpl(want, &e);
    int mant = dbl ? DBL_MANT_DIG : FLT_MANT_DIG, emin = dbl ? DBL_MIN_EXP : FLT_MIN_EXP;
    if (e < emin)
        e = emin;
    return (double)(fabsl(got - want) / ldexpl(1.0L, e - mant));
}

START_TEST(math_within_the_guides_bounds)
{
    int tested = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int dbl = 0; dbl < 2; dbl++) {
            double bound = dbl ? cases[i].ulp_double : cases[i].ulp_float;
            if (bound < 0)
                continue;   /* no double version in CUDA */
            char name[64];
            snprintf(name, sizeof name, "__nv_%s%s", cases[i].name, dbl ? "" : "f");
            ck_assert_msg(ws_builtin_find(name) >= 0, "%s is not a builtin", name);
            int two = cases[i].f2 != NULL;
            float inf[64], outf[32];
            double ind[64], outd[32];
            for (int k = 0; k < 64; k++) {
                double x = cases[i].lo + (cases[i].hi - cases[i].lo) * ((k * 37) % 64 + 0.5) / 64.0;
                inf[k] = (float)x;
                ind[k] = x;
            }
            ptx_module *m = kernel_for(name, two, dbl);
            char err[2048];
            int st = dbl ? run_kernel(m, ind, sizeof ind, outd, sizeof outd, err, sizeof err)
                         : run_kernel(m, inf, sizeof inf, outf, sizeof outf, err, sizeof err);
            ck_assert_msg(st == 0, "%s: %s", name, err);
            for (int k = 0; k < 32; k++) {
                long double a = dbl ? ind[k] : inf[k], b = dbl ? ind[k + 32] : inf[k + 32];
                long double want = two ? cases[i].f2(a, b) : cases[i].f1(a);
                long double got = dbl ? outd[k] : outf[k];
                double e = ulps(got, want, dbl);
                ck_assert_msg(e <= bound, "%s(%.9Lg%s%.9Lg) = %.17Lg, reference %.17Lg: %.2f ulp > the guide's %.0f",
                              name, a, two ? ", " : "", two ? b : 0.0L, got, want, e, bound);
            }
            ptx_module_free(m);
            tested++;
        }
    }
    ck_assert_int_eq(tested, 69);
}
END_TEST

START_TEST(wrong_signature_and_unknown_function)
{
    const char *text = HEADER
        ".extern .func (.param .b64 r) __nv_expf(.param .b64 a);\n"
        ".extern .func (.param .b32 r) no_such_function(.param .b32 a);\n"
        ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n .reg .b64 %rd<2>;\n"
        " {\n .param .b64 p;\n .param .b64 ret;\n st.param.b64 [p], %rd1;\n call.uni (ret), __nv_expf, (p);\n }\n ret;\n}\n"
        ".visible .entry k2(.param .u64 in, .param .u64 out)\n{\n .reg .b32 %r<2>;\n"
        " {\n .param .b32 p;\n .param .b32 ret;\n st.param.b32 [p], %r1;\n call.uni (ret), no_such_function, (p);\n }\n ret;\n}\n";
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, strlen(text), "bad.ptx", &d);
    ck_assert_ptr_nonnull(m);
    ws_global_memory g;
    ws_global_init(&g, 1 << 20);
    uint64_t params[2] = {0, 0}, globals[8] = {0};
    ws_launch_config cfg = {.module = m, .kernel_index = ptx_find_function(m, "k"), .arch = ws_arch_default(),
                            .grid = {1, 1, 1}, .block = {1, 1, 1}, .params = (const uint8_t *)params,
                            .params_size = sizeof params, .globals = globals, .trace_block = -1, .trace_warp = -1};
    ws_launch l;
    ck_assert_int_eq(ws_launch_run(&l, &cfg, &g), 1);
    ck_assert_str_eq(l.error, "bad.ptx:4:31: error: '__nv_expf' is declared with 1 parameter and 1 result that do "
                              "not match warpsim's built-in __nv_expf (1 parameter of 4 bytes, a 4-byte result)");
    ws_launch_free(&l);
    cfg.kernel_index = ptx_find_function(m, "k2");
    ck_assert_int_eq(ws_launch_run(&l, &cfg, &g), 1);
    ck_assert_str_eq(l.error, "bad.ptx:5:31: error: kernel 'k2' calls 'no_such_function', which has no body in this "
                              "module and is not one of warpsim's built-in functions (`warpsim isa --builtins`)");
    ws_launch_free(&l);
    ws_global_free(&g);
    ptx_module_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("builtins");
    TCase *tc = tcase_create("builtins");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, math_within_the_guides_bounds);
    tcase_add_test(tc, wrong_signature_and_unknown_function);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
