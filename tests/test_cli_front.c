/*
 * The front end's commands through the real binary: `warpsim check`, `dump`
 * and `isa`, their --help, usage errors (exit 2), bad inputs (exit 1 with the
 * error on stderr), and `dump -o` leaving no file behind on error.
 */
#include <check.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif
#ifndef WARPSIM_BINARY
#define WARPSIM_BINARY "build/warpsim"
#endif

#define SRC WARPSIM_SOURCE_DIR

typedef struct {
    int status;
    char *out, *err;
} result;

static char tmpdir[4096];

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4097 > cap) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    buf[len] = 0;
    return buf;
}

/* Run warpsim with up to 6 arguments (NULL-terminated). */
static result run(const char *a1, ...)
{
    const char *argv[12];
    int n = 0;
    argv[n++] = WARPSIM_BINARY;
    va_list ap;
    va_start(ap, a1);
    for (const char *a = a1; a && n < 11; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    char outp[4200], errp[4200];
    snprintf(outp, sizeof outp, "%s/stdout", tmpdir);
    snprintf(errp, sizeof errp, "%s/stderr", tmpdir);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        close(o);
        close(e);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    result r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(outp);
    r.err = slurp(errp);
    return r;
}

static void done(result *r)
{
    free(r->out);
    free(r->err);
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void setup(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/warpsim-cli-XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    const char *names[] = {"stdout", "stderr", "out.ptx", "out.ptx.tmp", "keep.ptx", "keep.ptx.tmp"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
}

#define HAS(s, needle) ck_assert_msg((s) && strstr((s), (needle)), "expected '%s' in:\n%s", (needle), (s) ? (s) : "")

START_TEST(check_lists_kernels)
{
    result r = run("check", SRC "/tests/nvcc/001_vector_add.ptx", NULL);
    ck_assert_int_eq(r.status, 0);
    HAS(r.out, SRC "/tests/nvcc/001_vector_add.ptx: PTX 9.0, target sm_90, 64-bit addresses\n");
    HAS(r.out, "kernel vector_add_naive(.u64 vector_add_naive_param_0, .u64 vector_add_naive_param_1, "
               ".u64 vector_add_naive_param_2, .u32 vector_add_naive_param_3)\n");
    HAS(r.out, " instructions, 0 bytes static shared, 0 bytes local per thread");
    ck_assert_str_eq(r.err, "");
    done(&r);

    r = run("check", SRC "/tests/ptx/good_features.ptx", NULL);
    ck_assert_int_eq(r.status, 0);
    HAS(r.out, "func _Z3addii(.b32 _Z3addii_param_0, .b32 _Z3addii_param_1) -> (.b32 func_retval0)\n"
               "    5 instructions, 0 bytes static shared, 0 bytes local per thread\n");
    HAS(r.out, "func vprintf(.b64 vprintf_param_0, .b64 vprintf_param_1) -> (.b32 func_retval0)\n"
               "    declaration only (.extern): no body\n");
    HAS(r.out, "kernel features(.u64 features_param_0, .u32 features_param_1, .b8 features_param_2[12], "
               ".f64 features_param_3)\n");
    HAS(r.out, "1024 bytes static shared, 52 bytes local per thread\n    uses dynamic shared memory");
    HAS(r.out, "    .maxntid 256, 1, 1\n");
    done(&r);
}
END_TEST

START_TEST(check_bad_inputs)
{
    result r = run("check", SRC "/tests/ptx/bad_unsupported.ptx", NULL);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, SRC "/tests/ptx/bad_unsupported.ptx:10:5: error: unsupported instruction 'foo.bar'\n");
    ck_assert_str_eq(r.out, "");
    done(&r);

    r = run("check", SRC "/tests/ptx/bad_undefined_label.ptx", NULL);
    ck_assert_int_eq(r.status, 1);
    HAS(r.err, "bad_undefined_label.ptx:11:11: error: undefined label '$L__BB0_9'\n");
    done(&r);

    r = run("check", SRC "/tests/ptx/bad_empty.ptx", NULL);
    ck_assert_int_eq(r.status, 1);
    HAS(r.err, "bad_empty.ptx:1:1: error: no .version directive");
    done(&r);

    r = run("check", SRC "/tests/ptx/bad_binary.ptx", NULL);
    ck_assert_int_eq(r.status, 1);
    HAS(r.err, "bad_binary.ptx:2:1: error: binary data");
    done(&r);

    r = run("check", SRC "/tests", NULL);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, SRC "/tests: error: is a directory\n");
    done(&r);

    r = run("check", SRC "/tests/ptx/does_not_exist.ptx", NULL);
    ck_assert_int_eq(r.status, 1);
    HAS(r.err, "does_not_exist.ptx: error: cannot open: No such file or directory");
    done(&r);
}
END_TEST

START_TEST(usage_errors)
{
    result r = run("check", NULL);
    ck_assert_int_eq(r.status, 2);
    HAS(r.err, "missing the PTX file");
    done(&r);
    r = run("check", "--frobnicate", SRC "/tests/nvcc/001_vector_add.ptx", NULL);
    ck_assert_int_eq(r.status, 2);
    HAS(r.err, "unknown option '--frobnicate'");
    done(&r);
    r = run("check", SRC "/tests/nvcc/001_vector_add.ptx", SRC "/tests/nvcc/001_matmul.ptx", NULL);
    ck_assert_int_eq(r.status, 2);
    HAS(r.err, "one PTX file at a time");
    done(&r);
    r = run("dump", NULL);
    ck_assert_int_eq(r.status, 2);
    done(&r);
    r = run("dump", SRC "/tests/nvcc/001_vector_add.ptx", "-o", NULL);
    ck_assert_int_eq(r.status, 2);
    HAS(r.err, "-o needs a file name");
    done(&r);
    r = run("dump", "-x", SRC "/tests/nvcc/001_vector_add.ptx", NULL);
    ck_assert_int_eq(r.status, 2);
    done(&r);
    r = run("isa", "--json", NULL);
    ck_assert_int_eq(r.status, 2);
    HAS(r.err, "unknown argument '--json'");
    done(&r);
}
END_TEST

START_TEST(help_texts)
{
    const char *cmds[] = {"check", "dump", "isa"};
    for (int i = 0; i < 3; i++) {
        result r = run(cmds[i], "--help", NULL);
        ck_assert_int_eq(r.status, 0);
        char want[64];
        snprintf(want, sizeof want, "usage: warpsim %s", cmds[i]);
        HAS(r.out, want);
        HAS(r.out, "example:");
        HAS(r.out, "exit status:");
        ck_assert_str_eq(r.err, "");
        done(&r);
        r = run(cmds[i], "-h", NULL);
        ck_assert_int_eq(r.status, 0);
        done(&r);
    }
}
END_TEST

START_TEST(dump_stdout_and_file)
{
    result r = run("dump", SRC "/tests/ptx/good_features.ptx", NULL);
    ck_assert_int_eq(r.status, 0);
    HAS(r.out, ".version 9.0\n.target sm_90\n.address_size 64\n");
    HAS(r.out, "\tcall.uni\t(retval0), _Z3addii, (param0, param1);\n");
    HAS(r.out, "\t.reg .b32 %r<40>;\n");
    HAS(r.out, "\tadd.f32\t%f5, %f1, 0f3F800000;\n");
    char out[4200], tmp[4200];
    snprintf(out, sizeof out, "%s/out.ptx", tmpdir);
    snprintf(tmp, sizeof tmp, "%s/out.ptx.tmp", tmpdir);
    result w = run("dump", SRC "/tests/ptx/good_features.ptx", "-o", out, NULL);
    ck_assert_int_eq(w.status, 0);
    ck_assert_str_eq(w.out, "");
    ck_assert(!exists(tmp));
    char *text = slurp(out);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, r.out);
    free(text);
    done(&w);
    /* the dump itself checks clean */
    w = run("check", out, NULL);
    ck_assert_int_eq(w.status, 0);
    done(&w);
    done(&r);
}
END_TEST

START_TEST(dump_leaves_no_file_on_error)
{
    char out[4200], tmp[4200];
    snprintf(out, sizeof out, "%s/out.ptx", tmpdir);
    snprintf(tmp, sizeof tmp, "%s/out.ptx.tmp", tmpdir);
    result r = run("dump", SRC "/tests/ptx/bad_operand_count.ptx", "-o", out, NULL);
    ck_assert_int_eq(r.status, 1);
    HAS(r.err, "bad_operand_count.ptx:10:2: error: 'add' expects 3 operands, got 2");
    ck_assert(!exists(out));
    ck_assert(!exists(tmp));
    done(&r);
    /* an existing OUT is left as it was */
    char keep[4200];
    snprintf(keep, sizeof keep, "%s/keep.ptx", tmpdir);
    FILE *f = fopen(keep, "w");
    fputs("previous contents\n", f);
    fclose(f);
    r = run("dump", SRC "/tests/ptx/bad_truncated.ptx", "-o", keep, NULL);
    ck_assert_int_eq(r.status, 1);
    char *text = slurp(keep);
    ck_assert_str_eq(text, "previous contents\n");
    free(text);
    done(&r);
    /* an OUT that cannot be written */
    r = run("dump", SRC "/tests/ptx/good_features.ptx", "-o", "/nonexistent-dir/x.ptx", NULL);
    ck_assert_int_eq(r.status, 1);
    HAS(r.err, "cannot write");
    done(&r);
}
END_TEST

START_TEST(isa_tables)
{
    result r = run("isa", NULL);
    ck_assert_int_eq(r.status, 0);
    HAS(r.out, "shfl ");
    HAS(r.out, "    types:");
    HAS(r.out, "bar.sync (also barrier.sync, bar)");
    done(&r);
    r = run("isa", "--markdown", NULL);
    ck_assert_int_eq(r.status, 0);
    const char *head = "| Instruction | Executed by | Operands | Types | Modifiers | Semantics |\n";
    ck_assert_int_eq(strncmp(r.out, head, strlen(head)), 0);
    HAS(r.out, "| setp | sim/exec_alu.c | D\\|q?, a, b, p? |");
    HAS(r.out, "| cvta | sim/exec_mem.c |");
    done(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_front");
    TCase *tc = tcase_create("cli_front");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, check_lists_kernels);
    tcase_add_test(tc, check_bad_inputs);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, help_texts);
    tcase_add_test(tc, dump_stdout_and_file);
    tcase_add_test(tc, dump_leaves_no_file_on_error);
    tcase_add_test(tc, isa_tables);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
