/*
 * warpsim's CSV against ncu's own (validate/reference/results/ and
 * validate/results/, recorded on an H100 with ncu 2025.3): the kernel names
 * ncu gives C++ kernels (sim/demangle.c), and the layout of `--csv --page raw`:
 * the fixed columns, the units row, the units of every metric both report,
 * thousands separators, read through one CSV reader.
 */
#include <check.h>
#include <glob.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/demangle.h"

#define REFERENCE WARPSIM_SOURCE_DIR "/validate/reference/results/nvidia-h100-80gb-hbm3"
#define MAX_FIELDS 8192
#define MAX_ROWS 64
#define COMPARED_AVGS 1930   /* the .avg cells of avg_rollups_as_ncu_computes_them whose .sum equals ncu's */

typedef struct {
    int rows, cols[MAX_ROWS];
    char *cell[MAX_ROWS][MAX_FIELDS];
} table;

/* Read ncu's CSV (lines that do not start with a quote, ==PROF== and the program's own, are skipped). */
static void read_csv(FILE *f, table *t)
{
    memset(t, 0, sizeof *t);
    static char line[1 << 20];
    while (fgets(line, sizeof line, f) && t->rows < MAX_ROWS) {
        if (line[0] != '"')
            continue;
        int n = 0;
        for (char *p = line; *p == '"' && n < MAX_FIELDS;) {
            char *start = ++p, *w = start;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"')
                    p++;
                *w++ = *p++;
            }
            *w = 0;
            t->cell[t->rows][n++] = strdup(start);
            p++;                       /* the closing quote */
            if (*p == ',')
                p++;
        }
        t->cols[t->rows++] = n;
    }
}

static void free_table(table *t)
{
    for (int r = 0; r < t->rows; r++)
        for (int c = 0; c < t->cols[r]; c++)
            free(t->cell[r][c]);
}

static int column(const table *t, const char *name)
{
    for (int c = 0; c < t->cols[0]; c++)
        if (!strcmp(t->cell[0][c], name))
            return c;
    return -1;
}

START_TEST(kernel_names_as_ncu_gives_them)
{
    FILE *f = fopen(REFERENCE "/ncu_names.csv", "r");
    ck_assert_ptr_nonnull(f);
    static table t;
    read_csv(f, &t);
    fclose(f);
    /* the launches of validate/reference/cpp_names.cu in order, by the names nvcc gave them in its PTX */
    const char *mangled[] = {"_ZN6course5scaleEPffi", "_Z4fillIfLi32EEvPT_", "_Z4fillIiLi16EEvPT_",
                             "_Z4fillIdLi8EEvPT_", "_Z3addPKfS0_Pfi", "_Z5pairsP4PairS_ydc", "plain_c"};
    int k = column(&t, "Kernel Name");
    ck_assert_int_eq(t.rows, 2 + 7);
    for (int i = 0; i < 7; i++) {
        char out[512];
        int ok = ws_demangle(mangled[i], out, sizeof out);
        ck_assert_int_eq(ok, i < 6);   /* plain_c is not mangled: it stays as it is */
        ck_assert_str_eq(out, t.cell[2 + i][k]);
    }
    free_table(&t);
}
END_TEST

START_TEST(names_ncu_did_not_show_us)
{
    /* the same rules, hand-applied: nested names, template parameters by number, references, std:: */
    const struct { const char *mangled, *want; } cases[] = {
        {"_Z5emptyv", "empty()"},
        {"_Z2f2IiiEvT_T0_", "void f2<int, int>(T1, T2)"},
        {"_ZN2ns5outerINS_5innerEE3runEPKS1_", "ns::outer<ns::inner>::run(const ns::inner *)"},
        {"_Z3fooPPKc", "foo(const char **)"},
        {"_Z3barRKf", "bar(const float &)"},
        {"_Z4flagILb1EEvPi", "void flag<true>(int *)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[512];
        ck_assert_int_eq(ws_demangle(cases[i].mangled, out, sizeof out), 1);
        ck_assert_str_eq(out, cases[i].want);
    }
    char out[64];
    ck_assert_int_eq(ws_demangle("_Z1gPFviE", out, sizeof out), 0);   /* function pointers: left mangled */
    ck_assert_str_eq(out, "_Z1gPFviE");
    ck_assert_int_eq(ws_demangle("_Z3", out, sizeof out), 0);         /* truncated */
}
END_TEST

START_TEST(layout_units_and_numbers_as_ncu_prints_them)
{
    FILE *f = fopen(WARPSIM_SOURCE_DIR "/validate/results/nvidia-h100-80gb-hbm3/O0/001_matmul__matmul.csv", "r");
    ck_assert_ptr_nonnull(f);
    static table ncu, ws;
    read_csv(f, &ncu);
    fclose(f);
    f = popen(WARPSIM_BINARY " run " WARPSIM_SOURCE_DIR "/programs/001_matmul/matmul.launch --csv", "r");
    ck_assert_ptr_nonnull(f);
    read_csv(f, &ws);
    ck_assert_int_eq(pclose(f), 0);
    ck_assert_int_eq(ws.rows, ncu.rows);   /* header, units, one row per launch */
    for (int c = 0; c < 11; c++) {         /* the fixed columns, by name, and their units (none) */
        ck_assert_str_eq(ws.cell[0][c], ncu.cell[0][c]);
        ck_assert_str_eq(ws.cell[1][c], "");
    }
    int shared = 0;
    for (int c = 11; c < ws.cols[0]; c++) {
        if (c > 11)   /* metrics in alphabetical order, as ncu sorts them */
            ck_assert_msg(strcmp(ws.cell[0][c - 1], ws.cell[0][c]) < 0, "%s before %s", ws.cell[0][c - 1], ws.cell[0][c]);
        int n = column(&ncu, ws.cell[0][c]);
        if (n < 0)
            continue;
        shared++;
        ck_assert_msg(!strcmp(ws.cell[1][c], ncu.cell[1][n]), "%s: unit '%s', ncu's '%s'", ws.cell[0][c], ws.cell[1][c],
                      ncu.cell[1][n]);
    }
    ck_assert_int_ge(shared, 20);
    /* the fixed fields of a launch row: the same where they describe the same thing */
    int fields[] = {0, 4, 5, 6, 7, 8, 9, 10};   /* ID, Kernel Name, Context, Stream, Block Size, Grid Size, Device, CC */
    for (int r = 2; r < ws.rows; r++)
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            ck_assert_str_eq(ws.cell[r][fields[i]], ncu.cell[r][fields[i]]);
    /* integers grouped by thousands, as ncu prints them ("1,884,160"); the counters equal here */
    regex_t grouped;
    ck_assert_int_eq(regcomp(&grouped, "^[0-9]{1,3}(,[0-9]{3})*$", REG_EXTENDED), 0);
    int inst = column(&ws, "smsp__sass_inst_executed_op_global_ld.sum");
    int ninst = column(&ncu, "smsp__sass_inst_executed_op_global_ld.sum");
    for (int r = 2; r < ws.rows; r++) {
        ck_assert_int_eq(regexec(&grouped, ws.cell[r][inst], 0, NULL, 0), 0);
        ck_assert_str_eq(ws.cell[r][inst], ncu.cell[r][ninst]);
    }
    regfree(&grouped);
    free_table(&ncu);
    free_table(&ws);
}
END_TEST

/* The rollups ncu prints for a metric named without one (.avg, .max, .min, .sum): warpsim prints the .avg and .sum
 * it can compute. ncu's .avg is the sum over the metric's units (on the H100: 132 SMs x 4 sub-partitions for smsp__,
 * 132 L1TEX units for l1tex__); on every course launch ncu measured at -O0, wherever warpsim's .sum equals ncu's,
 * its .avg must read as ncu's does ("2,482.42"). */
START_TEST(avg_rollups_as_ncu_computes_them)
{
    glob_t g;
    ck_assert_int_eq(glob(WARPSIM_SOURCE_DIR "/validate/results/nvidia-h100-80gb-hbm3/O0/*.csv", 0, NULL, &g), 0);
    static table ncu, ws;
    int compared = 0, launches = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        /* the stem names the launch: 001_transpose__demo is programs/001_transpose/demo.launch */
        const char *stem = strrchr(g.gl_pathv[k], '/') + 1;
        char launch[1024], bases[4096] = "", cmd[8192];
        const char *sep = strstr(stem, "__");
        ck_assert_ptr_nonnull(sep);
        snprintf(launch, sizeof launch, WARPSIM_SOURCE_DIR "/programs/%.*s/%.*s.launch", (int)(sep - stem), stem,
                 (int)(strlen(sep + 2) - 4), sep + 2);
        FILE *f = fopen(launch, "r");
        if (!f)
            continue;   /* the probes: validate/probes/, not programs/ */
        fclose(f);
        f = fopen(g.gl_pathv[k], "r");
        ck_assert_ptr_nonnull(f);
        read_csv(f, &ncu);
        fclose(f);
        /* every smsp__ and l1tex__ metric ncu gave an .avg, named without its rollup */
        for (int c = 0; c < ncu.cols[0]; c++) {
            const char *n = ncu.cell[0][c];
            size_t len = strlen(n);
            if (len > 4 && !strcmp(n + len - 4, ".avg") && (!strncmp(n, "smsp__", 6) || !strncmp(n, "l1tex__", 7)))
                snprintf(bases + strlen(bases), sizeof bases - strlen(bases), "%s%.*s", bases[0] ? "," : "",
                         (int)(len - 4), n);
        }
        ck_assert_msg(bases[0], "%s: no .avg column", stem);
        snprintf(cmd, sizeof cmd, WARPSIM_BINARY " run %s --csv --no-timing --metrics %s", launch, bases);
        f = popen(cmd, "r");
        ck_assert_ptr_nonnull(f);
        read_csv(f, &ws);
        ck_assert_int_eq(pclose(f), 0);
        ck_assert_int_eq(ws.rows, ncu.rows);
        launches++;
        for (int c = 11; c < ws.cols[0]; c++) {
            const char *n = ws.cell[0][c];
            size_t len = strlen(n);
            /* no .max or .min: warpsim has no per-SM counts */
            ck_assert_msg(strcmp(n + len - 4, ".max") && strcmp(n + len - 4, ".min"), "%s", n);
            if (strcmp(n + len - 4, ".avg"))
                continue;
            char sum[512];
            snprintf(sum, sizeof sum, "%.*s.sum", (int)(len - 4), n);
            int ws_sum = column(&ws, sum), ncu_sum = column(&ncu, sum), ncu_avg = column(&ncu, n);
            ck_assert_msg(ws_sum >= 0 && ncu_sum >= 0 && ncu_avg >= 0, "%s: %s", stem, n);
            ck_assert_str_eq(ws.cell[1][c], ncu.cell[1][ncu_avg]);   /* the unit */
            for (int r = 2; r < ws.rows; r++) {
                if (strcmp(ws.cell[r][ws_sum], ncu.cell[r][ncu_sum]))
                    continue;   /* 280 cells: SASS-level counts (smsp__inst_executed...), L1 fill wavefronts */
                ck_assert_msg(!strcmp(ws.cell[r][c], ncu.cell[r][ncu_avg]), "%s launch %d: %s %s, ncu's %s", stem,
                              r - 2, n, ws.cell[r][c], ncu.cell[r][ncu_avg]);
                compared++;
            }
        }
        free_table(&ncu);
        free_table(&ws);
    }
    globfree(&g);
    ck_assert_int_ge(launches, 25);
    ck_assert_int_ge(compared, COMPARED_AVGS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ncu_csv");
    TCase *tc = tcase_create("ncu_csv");
    tcase_add_test(tc, kernel_names_as_ncu_gives_them);
    tcase_add_test(tc, names_ncu_did_not_show_us);
    tcase_add_test(tc, layout_units_and_numbers_as_ncu_prints_them);
    tcase_add_test(tc, avg_rollups_as_ncu_computes_them);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
