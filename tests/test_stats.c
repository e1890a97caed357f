/*
 * What --stats reports (ws_session_print_stats): peak host memory and the
 * simulated global memory in use, buffers and .global/.const variables apart;
 * and the message when a module's variables do not fit in --mem-limit.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/session.h"

static const char module_text[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".global .align 4 .b8 table[4096];\n"
    ".const .align 4 .u32 scale = 3;\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.const.u32 %r1, [scale];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mul.lo.s32 %r3, %r2, %r1;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "}\n";

static int open_run(const char *extra, ws_run_options *o, ws_session *s, ptx_diag *diag, char *err, size_t errlen)
{
    char path[256], text[1024];
    snprintf(path, sizeof path, "/tmp/warpsim_test_stats_%d.ptx", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(module_text, f);
    fclose(f);
    snprintf(text, sizeof text, "ptx %s\ngrid 1\nblock 32\nbuf out=u32:1000\narg out\n%s", path, extra);
    ck_assert_int_eq(ws_run_options_parse_launch_text(text, strlen(text), "/tmp/x.launch", o, err, errlen),
                     WS_LAUNCH_OK);
    int status = ws_session_open(s, o, diag, err, errlen);
    remove(path);
    return status;
}

START_TEST(stats_report_memory)
{
    ws_run_options o;
    ws_session s;
    ptx_diag diag = {0};
    char err[2048] = "";
    ck_assert_int_eq(open_run("", &o, &s, &diag, err, sizeof err), 0);
    ck_assert_int_eq(ws_session_run(&s, err, sizeof err), 0);
    ck_assert_uint_eq(s.buffer_bytes, 4000);
    ck_assert_uint_eq(s.variable_bytes, 4096 + 4);
    ck_assert_int_eq(s.variable_count, 2);
    ck_assert_uint_gt(s.peak_rss_kib, 0);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ws_session_print_stats(&s, out);
    fclose(out);
    ck_assert_msg(strstr(text, "peak host memory") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "simulated global memory  8100 bytes of 1024.0 MiB (--mem-limit): 1 buffer 4000 bytes, "
                               "2 .global/.const variables 4100 bytes") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "launch 1 (k): shared 0 bytes per block, local 0 bytes per thread") != NULL, "%s", text);
    free(text);
    ws_session_close(&s);
    ptx_diag_free(&diag);
    ws_run_options_free(&o);
}
END_TEST

START_TEST(variables_past_the_limit)
{
    ws_run_options o;
    ws_session s;
    ptx_diag diag = {0};
    char err[2048] = "";
    ck_assert_int_eq(open_run("mem-limit 6K\n", &o, &s, &diag, err, sizeof err), 1);
    ck_assert_msg(strstr(err, ":4:") != NULL && strstr(err, "error: .global variable 'table' (4096 bytes) does not fit in "
                  "the simulated global memory (4000 of 6144 bytes in use by the buffers and earlier variables; "
                  "raise --mem-limit)") != NULL, "%s", err);
    ws_session_close(&s);
    ptx_diag_free(&diag);
    ws_run_options_free(&o);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("stats");
    TCase *tc = tcase_create("memory");
    tcase_add_test(tc, stats_report_memory);
    tcase_add_test(tc, variables_past_the_limit);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}
