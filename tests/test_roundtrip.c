/*
 * Round trip: every .ptx file in the repository (tests/ and programs/) parses;
 * `dump` prints it back; the dump parses to an EQUAL module (ptx_module_equal)
 * and dumps to the same text again; with ptxas on PATH each dump assembles
 * (ptxas -arch=sm_90). tests/ptx/bad_* must fail with "error:" messages. With
 * nvcc on PATH, the tests/cu_front .cu files go through `nvcc -ptx -arch=sm_90` (plain,
 * -lineinfo and -G) and the same checks.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/ptx.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

typedef struct {
    char **v;
    int n, cap;
} strlist;

static void sl_add(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = strdup(s);
}

static void sl_free(strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void collect(const char *dir, const char *suffix, int depth, strlist *out)
{
    if (depth > 8)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strncmp(e->d_name, "build", 5))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            collect(path, suffix, depth + 1, out);
        else if (S_ISREG(st.st_mode) && ends_with(e->d_name, suffix))
            sl_add(out, path);
    }
    closedir(d);
    qsort(out->v, (size_t)out->n, sizeof *out->v, cmp_str);
}

static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", *dir ? dir : ".", prog);
        found = access(full, X_OK) == 0;
    }
    free(copy);
    return found;
}

/* Run argv with stdout and stderr into log; returns the exit status (or -1). */
static int run(char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void show_file(const char *path, int max_lines)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    for (int i = 0; i < max_lines && fgets(line, sizeof line, f); i++)
        fprintf(stderr, "    %s", line);
    fclose(f);
}

static char *dump_text(const ptx_module *m, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    ptx_print_module(m, f);
    fclose(f);
    return buf;
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* The whole round trip for one good file; 1 when it passes. */
static int roundtrip(const char *path, const char *tmpdir, int use_ptxas)
{
    ptx_diag d = {0};
    ptx_module *m = ptx_parse_file(path, &d);
    if (!m) {
        fprintf(stderr, "FAIL %s: does not parse:\n", path);
        ptx_diag_print(&d, stderr);
        ptx_diag_free(&d);
        return 0;
    }
    ptx_diag_free(&d);
    size_t len;
    char *text = dump_text(m, &len);
    char dumped[4096];
    snprintf(dumped, sizeof dumped, "%s/roundtrip.ptx", tmpdir);
    write_file(dumped, text, len);
    ptx_diag d2 = {0};
    ptx_module *m2 = ptx_parse(text, len, dumped, &d2);
    int ok = 1;
    if (!m2) {
        fprintf(stderr, "FAIL %s: its dump does not parse (kept in %s):\n", path, dumped);
        ptx_diag_print(&d2, stderr);
        ok = 0;
    } else {
        char why[512];
        if (!ptx_module_equal(m, m2, why, sizeof why)) {
            fprintf(stderr, "FAIL %s: the dump parses to a different module: %s\n", path, why);
            ok = 0;
        }
        size_t len2;
        char *text2 = dump_text(m2, &len2);
        if (len2 != len || memcmp(text, text2, len)) {
            fprintf(stderr, "FAIL %s: dumping the dump gives different text\n", path);
            ok = 0;
        }
        free(text2);
    }
    ptx_diag_free(&d2);
    if (ok && use_ptxas) {
        char log[4096];
        snprintf(log, sizeof log, "%s/ptxas.log", tmpdir);
        /* a module calling functions it does not define (the device runtime of nvcc -rdc=true's PTX)
           assembles as relocatable code, as nvcc -rdc=true assembles it, to be linked with cudadevrt, and for
           its own target (CUDA 11's device-side cudaDeviceSynchronize exists only below sm_90) */
        int relocatable = strstr(text, ".extern .func") != NULL;
        char arch[64] = "-arch=sm_90";
        if (relocatable && m->target && !strncmp(m->target, "sm_", 3))
            snprintf(arch, sizeof arch, "-arch=%.*s", (int)strcspn(m->target, ", \t"), m->target);
        char *argv[] = {"ptxas", arch, relocatable ? "-c" : "-o", relocatable ? "-o" : "/dev/null",
                        relocatable ? "/dev/null" : dumped, relocatable ? dumped : NULL, NULL};
        int rc = run(argv, log);
        if (rc != 0) {
            fprintf(stderr, "FAIL %s: ptxas rejects its dump (exit %d):\n", path, rc);
            show_file(log, 10);
            ok = 0;
        }
    }
    free(text);
    ptx_module_free(m);
    ptx_module_free(m2);
    return ok;
}

static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/warpsim-rt-XXXXXX", base && *base ? base : "/tmp");
    char *d = mkdtemp(tmpl);
    ck_assert_msg(d != NULL, "mkdtemp failed");
    return strdup(d);
}

static void remove_tmpdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

START_TEST(repo_ptx_files_round_trip)
{
    strlist files = {0};
    collect(WARPSIM_SOURCE_DIR "/tests", ".ptx", 0, &files);
    collect(WARPSIM_SOURCE_DIR "/programs", ".ptx", 0, &files);
    ck_assert_msg(files.n > 0, "no .ptx files found under tests/ or programs/");
    int use_ptxas = on_path("ptxas");
    if (!use_ptxas)
        fprintf(stderr, "SKIP: ptxas not on PATH: dumps are not assembled\n");
    char *tmp = make_tmpdir();
    int failed = 0, good = 0, bad = 0;
    for (int i = 0; i < files.n; i++) {
        const char *path = files.v[i];
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        if (!strncmp(base, "bad_", 4)) {
            bad++;
            ptx_diag d = {0};
            ptx_module *m = ptx_parse_file(path, &d);
            if (m || d.count == 0 || !strstr(d.lines[0], "error:")) {
                fprintf(stderr, "FAIL %s: a bad_ file must be rejected with an error message\n", path);
                failed++;
            }
            ptx_module_free(m);
            ptx_diag_free(&d);
            continue;
        }
        good++;
        if (!roundtrip(path, tmp, use_ptxas))
            failed++;
    }
    fprintf(stderr, "round trip: %d good files, %d bad files, %d failures\n", good, bad, failed);
    remove_tmpdir(tmp);
    free(tmp);
    sl_free(&files);
    ck_assert_msg(failed == 0, "%d of the repository's .ptx files failed the round trip (see above)", failed);
}
END_TEST

START_TEST(nvcc_front_files_round_trip)
{
    if (!on_path("nvcc")) {
        fprintf(stderr, "SKIP: nvcc not on PATH: tests/cu_front/*.cu are not compiled\n");
        printf("SKIP: nvcc not on PATH\n");
        return;
    }
    strlist files = {0};
    collect(WARPSIM_SOURCE_DIR "/tests/cu_front", ".cu", 0, &files);
    ck_assert_msg(files.n > 0, "no tests/cu_front/*.cu files");
    char *tmp = make_tmpdir();
    int failed = 0;
    for (int i = 0; i < files.n; i++) {
        for (int mode = 0; mode < 3; mode++) { /* plain, -lineinfo, -G */
            char out[4096], log[4096];
            snprintf(out, sizeof out, "%s/nvcc%d.ptx", tmp, mode);
            snprintf(log, sizeof log, "%s/nvcc.log", tmp);
            char *plain[] = {"nvcc", "-ptx", "-arch=sm_90", files.v[i], "-o", out, NULL};
            char *li[] = {"nvcc", "-ptx", "-arch=sm_90", "-lineinfo", files.v[i], "-o", out, NULL};
            char *dbg[] = {"nvcc", "-ptx", "-arch=sm_90", "-G", files.v[i], "-o", out, NULL};
            const char *flag = mode == 0 ? "" : mode == 1 ? " -lineinfo" : " -G";
            int rc = run(mode == 0 ? plain : mode == 1 ? li : dbg, log);
            if (rc != 0) {
                fprintf(stderr, "FAIL %s: nvcc%s exits %d:\n", files.v[i], flag, rc);
                show_file(log, 10);
                failed++;
                continue;
            }
            if (!roundtrip(out, tmp, on_path("ptxas"))) {
                fprintf(stderr, "  (that was %s compiled with nvcc -ptx -arch=sm_90%s)\n", files.v[i], flag);
                failed++;
            }
        }
    }
    fprintf(stderr, "nvcc: %d .cu files compiled plain, with -lineinfo and with -G, %d failures\n", files.n, failed);
    remove_tmpdir(tmp);
    free(tmp);
    sl_free(&files);
    ck_assert_msg(failed == 0, "%d nvcc-compiled tests/cu_front files failed (see above)", failed);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("roundtrip");
    TCase *tc = tcase_create("roundtrip");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, repo_ptx_files_round_trip);
    tcase_add_test(tc, nvcc_front_files_round_trip);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
