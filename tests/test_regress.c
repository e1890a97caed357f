/*
 * Regression inputs: every file under tests/regress/HARNESS/ once made the
 * fuzz harness of that name (fuzz/fuzz_HARNESS.c) crash or report a finding.
 * Each goes through the same target function again (fuzz/targets.c, included
 * below) and must give the status its name ends in (.0, .1 or .2: see
 * tests/regress/README.md) -- and not crash, which the sanitizer build
 * (WARPSIM_SANITIZE=1 scripts/test) checks for memory errors too.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/targets.c"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

typedef int (*target_fn)(const uint8_t *, size_t, char *, size_t);

static const struct {
    const char *dir;
    target_fn fn;
} harnesses[] = {
    {"ptx", fuzz_ptx},
    {"launch", fuzz_launch},
    {"argv", fuzz_argv},
    {"exec", fuzz_exec},
    {"names", fuzz_names},
};
#define HARNESS_COUNT (int)(sizeof harnesses / sizeof harnesses[0])

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The files of tests/regress/DIR (not README.md), sorted; returns how many. */
static int list_dir(const char *dir, char ***out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/regress/%s", WARPSIM_SOURCE_DIR, dir);
    *out = NULL;
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            *out = realloc(*out, (size_t)cap * sizeof **out);
            ck_assert_ptr_nonnull(*out);
        }
        (*out)[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(*out, (size_t)n, sizeof **out, cmp_str);
    return n;
}

START_TEST(regress_inputs)
{
    const char *dir = harnesses[_i].dir;
    char **names;
    int n = list_dir(dir, &names);
    for (int i = 0; i < n; i++) {
        const char *name = names[i];
        size_t nl = strlen(name);
        ck_assert_msg(nl >= 3 && name[nl - 2] == '.' && name[nl - 1] >= '0' && name[nl - 1] <= '2',
                      "tests/regress/%s/%s: the name must end in .0, .1 or .2 (the expected status)", dir, name);
        int expect = name[nl - 1] - '0';
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/regress/%s/%s", WARPSIM_SOURCE_DIR, dir, name);
        size_t len = 0;
        uint8_t *data = read_all(path, &len);
        ck_assert_msg(data != NULL, "cannot read %s", path);
        static char why[16384];
        why[0] = '\0';
        int status = harnesses[_i].fn(data, len, why, sizeof why);
        ck_assert_msg(status != FUZZ_FINDING, "tests/regress/%s/%s: finding: %s", dir, name, why);
        ck_assert_msg(status == expect, "tests/regress/%s/%s: status %d, expected %d", dir, name, status, expect);
        free(data);
        free(names[i]);
    }
    free(names);
}
END_TEST

/* The harness functions themselves, on inputs whose outcome is known. */
START_TEST(targets_smoke)
{
    char why[4096];
    const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 p)\n{\n .reg .b64 %rd<3>;\n .reg .b32 %r<2>;\n"
                      " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, %tid.x;\n"
                      " st.global.u8 [%rd2], %r1;\n ret;\n}\n";
    ck_assert_int_eq(fuzz_ptx((const uint8_t *)ptx, strlen(ptx), why, sizeof why), FUZZ_OK);
    ck_assert_int_eq(fuzz_exec((const uint8_t *)ptx, strlen(ptx), why, sizeof why), FUZZ_OK);
    const char *body = "mov.u32 %r1, %tid.x;\nst.shared.u32 [smem], %r1;\nld.param.u64 %rd1, [p0];\n"
                       "cvta.to.global.u64 %rd2, %rd1;\nst.global.u32 [%rd2], %r1;\nld.param.u32 %r2, [p4];\n"
                       "st.local.u32 [lmem], %r2;\nret;\n";
    ck_assert_int_eq(fuzz_exec((const uint8_t *)body, strlen(body), why, sizeof why), FUZZ_OK);
    ck_assert_int_eq(fuzz_exec((const uint8_t *)"ld.global.u32 %r1, [0];", 23, why, sizeof why), FUZZ_USAGE_ERROR);
    ck_assert_int_eq(fuzz_ptx((const uint8_t *)"garbage", 7, why, sizeof why), FUZZ_INPUT_ERROR);
    ck_assert_int_eq(fuzz_exec((const uint8_t *)"garbage", 7, why, sizeof why), FUZZ_INPUT_ERROR);
    const char *launch = "ptx k.ptx\ngrid 1\nblock 32\n";
    ck_assert_int_eq(fuzz_launch((const uint8_t *)launch, strlen(launch), why, sizeof why), FUZZ_OK);
    ck_assert_int_eq(fuzz_launch((const uint8_t *)"grid 0\n", 7, why, sizeof why), FUZZ_INPUT_ERROR);
    const char argv[] = "k.ptx\0--grid\0" "1\0--block\0" "32";
    ck_assert_int_eq(fuzz_argv((const uint8_t *)argv, sizeof argv - 1, why, sizeof why), FUZZ_OK);
    ck_assert_int_eq(fuzz_argv((const uint8_t *)"--nope", 6, why, sizeof why), FUZZ_USAGE_ERROR);
    ck_assert_int_eq(fuzz_argv((const uint8_t *)"", 0, why, sizeof why), FUZZ_USAGE_ERROR);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("regress");
    TCase *tc = tcase_create("regress");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, regress_inputs, 0, HARNESS_COUNT);
    tcase_add_test(tc, targets_smoke);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
