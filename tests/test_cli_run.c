/*
 * `warpsim run` and `warpsim arch` as a user sees them: the report formats
 * (text, the ncu --csv --page raw layout, JSON, --source, --trace-warp),
 * --metrics, --dump, exit statuses and error messages.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define TRANSPOSE WARPSIM_SOURCE_DIR "/programs/001_transpose/demo.launch"

/* Run a shell command; returns its exit status, stdout+stderr in *out (malloc'd). */
static int sh(const char *cmd, char **out)
{
    char full[4096];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 4096)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int status = pclose(p);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define RUN(args, out) sh(WARPSIM_BINARY " " args, out)

START_TEST(text_report_shows_the_transpose_figures)
{
    char *out;
    ck_assert_int_eq(RUN("run " TRANSPOSE, &out), 0);
    /* 32 wavefronts per shared load for the 32x32 tile, 1 for the padded one (by hand: a warp reads a
     * column s_data[tx][ty]: 32 words 32 words apart, all in bank ty; with 33 columns they hit 32 banks). */
    ck_assert_msg(strstr(out, "transpose_with_bank_conflicts         1081344    100.0%     32.00      1015808") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "transpose_without_bank_conflicts      1081344    100.0%      1.00            0") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "shared load wavefronts per request          32.00") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "Worst lines") != NULL, "%s", out);
    /* 32 x 32 threads per block: 2048 threads per SM on hopper allow 2 blocks */
    ck_assert_msg(strstr(out, "2 blocks per SM, limited by threads") != NULL, "%s", out);
    free(out);
}
END_TEST

START_TEST(csv_has_the_ncu_raw_layout)
{
    char *out;
    ck_assert_int_eq(RUN("run " TRANSPOSE " --csv --metrics smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum,"
                         "smsp__sass_inst_executed_op_shared_ld.sum", &out), 0);
    char pid[32], expected[2048];
    /* the report's process is the warpsim that ran: its ID is read from the row */
    const char *row = strstr(out, "\"0\",\"");
    ck_assert_ptr_nonnull(row);
    sscanf(row, "\"0\",\"%31[0-9]\"", pid);
    snprintf(expected, sizeof expected,
        /* ncu's fixed columns, then the metrics in alphabetical order (validate/reference/results/) */
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
        "\"Grid Size\",\"Device\",\"CC\",\"smsp__sass_inst_executed_op_shared_ld.sum\","
        "\"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum\"\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst\",\"\"\n"   /* ncu prints no unit for wavefronts */
        /* 1024 blocks x 32 warps = 32768 loads; wavefronts 32768 x 32 (loads) + 32768 (stores) */
        "\"0\",\"%s\",\"warpsim\",\"127.0.0.1\",\"transpose_with_bank_conflicts\",\"1\",\"7\",\"(32, 32, 1)\","
        "\"(32, 32, 1)\",\"0\",\"9.0\",\"32,768\",\"1,081,344\"\n"
        "\"1\",\"%s\",\"warpsim\",\"127.0.0.1\",\"transpose_without_bank_conflicts\",\"1\",\"7\",\"(32, 32, 1)\","
        "\"(32, 32, 1)\",\"0\",\"9.0\",\"32,768\",\"65,536\"\n", pid, pid);
    ck_assert_str_eq(out, expected);
    free(out);
}
END_TEST

START_TEST(metrics_by_regex_as_ncu_selects_them)
{
    char *out;
    ck_assert_int_eq(RUN("run " TRANSPOSE " --csv --metrics regex:bank_conflicts_pipe", &out), 0);
    ck_assert_msg(strstr(out, ",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","
                              "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\"\n") != NULL, "%s", out);
    ck_assert_ptr_null(strstr(out, "smsp__inst_executed.sum"));
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --csv --metrics 'regex:(' 2>&1", &out), 2);
    ck_assert_str_eq(out, "warpsim run: --metrics: 'regex:(' is not a regular expression\n");
    free(out);
}
END_TEST

START_TEST(metrics_rollups_as_ncu_names_them)
{
    char *out;
    /* a name without a rollup gets the rollups warpsim has (ncu prints .avg, .max, .min, .sum); .avg is the sum over
     * the units: 1,081,344 warp-instructions over hopper's 132 SMs x 4 sub-partitions = 2,048, 131,072 sectors over
     * its 132 L1TEX units = 992.97 (ncu's own figure for this launch, validate/results/) */
    ck_assert_int_eq(RUN("run " TRANSPOSE " --csv --no-timing --metrics smsp__inst_executed,"
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.avg,warpsim__barrier_inst", &out), 0);
    ck_assert_msg(strstr(out, ",\"CC\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.avg\",\"smsp__inst_executed.avg\","
                              "\"smsp__inst_executed.sum\",\"warpsim__barrier_inst.sum\"\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, ",\"sector\",\"inst\",\"inst\",\"inst\"\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"9.0\",\"992.97\",\"2,048\",\"1,081,344\",\"32,768\"\n") != NULL, "%s", out);
    free(out);
    /* one GPU: gpu__'s .avg, .max and .min are its .sum; a rate is the sum over the predicted duration */
    ck_assert_int_eq(RUN("run " TRANSPOSE " --csv --metrics gpu__time_duration,smsp__inst_executed.sum.per_second,"
                         "smsp__inst_executed.sum", &out), 0);
    ck_assert_msg(strstr(out, "\"gpu__time_duration.avg\",\"gpu__time_duration.max\",\"gpu__time_duration.min\","
                              "\"gpu__time_duration.sum\",\"smsp__inst_executed.sum\",\"smsp__inst_executed.sum.per_second\"\n")
                  != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"ns\",\"ns\",\"ns\",\"ns\",\"inst\",\"inst/s\"\n") != NULL, "%s", out);
    const char *row = strstr(out, "\"transpose_with_bank_conflicts\"");
    ck_assert_ptr_nonnull(row);
    char f[4][64];
    ck_assert_int_eq(sscanf(row, "%*[^,],\"%*[^\"]\",\"%*[^\"]\",\"%*[^\"]\",\"%*[^\"]\",\"%*[^\"]\",\"%*[^\"]\","
                            "\"%63[^\"]\",\"%63[^\"]\",\"%63[^\"]\",\"%*[^\"]\",\"%*[^\"]\",\"%63[^\"]\"",
                            f[0], f[1], f[2], f[3]), 4);
    ck_assert_str_eq(f[0], f[1]);
    ck_assert_str_eq(f[1], f[2]);
    double v[4];
    for (int i = 0; i < 4; i++) {   /* without the thousands separators */
        char *w = f[i];
        for (char *r = f[i]; *r; r++)
            if (*r != ',')
                *w++ = *r;
        *w = 0;
        v[i] = strtod(f[i], NULL);
    }
    double expected = 1081344 / (v[0] * 1e-9);
    ck_assert_msg(v[3] > expected * 0.9999 && v[3] < expected * 1.0001, "%s per second, %s ns", f[3], f[0]);
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --csv --no-timing --metrics smsp__inst_executed.sum.per_second", &out), 0);
    ck_assert_msg(strstr(out, "\"9.0\",\"n/a\"\n") != NULL, "%s", out);   /* no duration without the timing model */
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --json --no-timing --metrics smsp__inst_executed", &out), 0);
    ck_assert_msg(strstr(out, "\"smsp__inst_executed.sum\": 1081344,\n        \"smsp__inst_executed.avg\": 2048.0000")
                  != NULL, "%s", out);
    free(out);
    /* what warpsim cannot compute: named, with what exists */
    ck_assert_int_eq(RUN("run " TRANSPOSE " --metrics smsp__inst_executed.max", &out), 2);
    ck_assert_str_eq(out, "warpsim run: --metrics: cannot compute 'smsp__inst_executed.max': .max and .min need each "
                          "unit's own count, and warpsim keeps its counters per instruction, not per SM or sub-partition (keeping "
                          "them per block costs up to 3% more host time, and which SM the card's scheduler gives each "
                          "block is not modelled); "
                          "smsp__inst_executed has .sum, .avg, .sum.per_second, .avg.per_second\n");
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --metrics warpsim__barrier_inst.avg", &out), 2);
    ck_assert_msg(strstr(out, "cannot compute 'warpsim__barrier_inst.avg': warpsim does not know how many units this "
                              "metric's counts spread over; warpsim__barrier_inst has .sum, .sum.per_second\n") != NULL,
                  "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.pct_of_peak_sustained_elapsed", &out), 2);
    ck_assert_msg(strstr(out, "does not know this counter's sustained peak") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --metrics smsp__inst_executed.per_second", &out), 2);
    ck_assert_msg(strstr(out, "ncu names the rate of a rollup (.sum.per_second)") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --metrics no_such_metric.max", &out), 2);
    ck_assert_msg(strstr(out, "unknown metric 'no_such_metric.max': warpsim has no no_such_metric") != NULL, "%s", out);
    free(out);
}
END_TEST

START_TEST(json_holds_metrics_and_lines)
{
    char *out;
    ck_assert_int_eq(RUN("run " TRANSPOSE " --json --metrics smsp__sass_inst_executed_op_shared_ld.sum", &out), 0);
    ck_assert_msg(strstr(out, "\"kernel\": \"transpose_with_bank_conflicts\"") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"smsp__sass_inst_executed_op_shared_ld.sum\": 32768") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"grid\": [32, 32, 1]") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\"shared_bank_conflicts\": 1015808") != NULL, "%s", out);
    ck_assert_ptr_null(strstr(out, "smsp__inst_executed.sum"));   /* not selected */
    free(out);
}
END_TEST

/* --json's layout is versioned, its types fixed by the metric (counters integers, ratios with a fraction even
 * when whole), and two runs print the same bytes: wall-clock seconds only under --stats. */
START_TEST(json_is_versioned_typed_and_repeatable)
{
    char *a, *b;
    ck_assert_int_eq(RUN("run " TRANSPOSE " --json", &a), 0);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --json", &b), 0);
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, "\"schema_version\": 1,"));
    ck_assert_ptr_null(strstr(a, "\"seconds\""));
    /* every lane active: 100 %, written as a number with a fraction; the padded tile: 1 wavefront per request */
    ck_assert_ptr_nonnull(strstr(a, "\"warpsim__simt_efficiency.pct\": 100.0000"));
    ck_assert_ptr_nonnull(strstr(a, "\"warpsim__shared_wavefronts_per_request.ratio\": 1.0000"));
    ck_assert_ptr_nonnull(strstr(a, "\"smsp__sass_inst_executed_op_shared_ld.sum\": 32768,"));
    free(a);
    free(b);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --json --stats", &a), 0);
    ck_assert_ptr_nonnull(strstr(a, "\"seconds\": "));
    free(a);
}
END_TEST

/* --color: always colours the text report even through a pipe, never and auto (not a terminal) do not;
 * NO_COLOR does not override an explicit always; a bad value is a usage error. --version / -V. */
START_TEST(color_and_version)
{
    char *out;
    ck_assert_int_eq(RUN("run " TRANSPOSE " --color=always", &out), 0);
    ck_assert_ptr_nonnull(strstr(out, "\033["));
    free(out);
    ck_assert_int_eq(sh("NO_COLOR=1 " WARPSIM_BINARY " run " TRANSPOSE " --color always", &out), 0);
    ck_assert_ptr_nonnull(strstr(out, "\033["));
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --color=never", &out), 0);
    ck_assert_ptr_null(strstr(out, "\033["));
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --color=auto", &out), 0);
    ck_assert_ptr_null(strstr(out, "\033["));
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --color=sometimes", &out), 2);
    ck_assert_ptr_nonnull(strstr(out, "warpsim run: --color: expected auto, always or never, got 'sometimes'"));
    free(out);
    ck_assert_int_eq(RUN("--version", &out), 0);
    ck_assert_str_eq(out, "warpsim " WARPSIM_VERSION "\n");
    free(out);
    ck_assert_int_eq(RUN("-V", &out), 0);
    ck_assert_str_eq(out, "warpsim " WARPSIM_VERSION "\n");
    free(out);
    /* `warpsim flags`: the run help's flag list; a stray argument is a usage error */
    ck_assert_int_eq(RUN("flags", &out), 0);
    ck_assert_ptr_nonnull(strstr(out, "  --trace-warp B:W    trace warp W of (linear) block B\n"));
    free(out);
    ck_assert_int_eq(RUN("flags --bogus", &out), 2);
    ck_assert_ptr_nonnull(strstr(out, "warpsim flags: unknown argument '--bogus'"));
    free(out);
}
END_TEST

START_TEST(source_annotates_the_conflicting_line)
{
    char *out;
    ck_assert_int_eq(RUN("run " TRANSPOSE " --source --quiet", &out), 0);
    /* when piped: no colour codes */
    ck_assert_ptr_null(strstr(out, "\033["));
    /* the line of the column-wise shared load carries 32.00 wavefronts per request */
    int found = 0;
    for (char *line = strtok(out, "\n"); line && !found; line = strtok(NULL, "\n")) {
        const char *ld = strstr(line, "ld.shared.f32");
        const char *figure = strstr(line, " 32.00 ");
        const char *comment = strstr(line, "//");
        found = ld && figure && figure < ld && (!comment || comment > ld);
    }
    ck_assert_msg(found, "no annotated ld.shared.f32 line with 32.00 wavefronts per request");
    free(out);
}
END_TEST

START_TEST(trace_shows_a_warp_split_and_merge)
{
    char *out;
    /* the divergence program's first kernel: odd and even lanes take different paths */
    ck_assert_int_eq(RUN("run " WARPSIM_SOURCE_DIR "/programs/003_divergence/divergence.launch --trace-warp 0:0 --quiet", &out), 0);
    ck_assert_msg(strstr(out, "|################################| 32") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "|#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.| 16") != NULL ||
                  strstr(out, "|.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#| 16") != NULL, "no half-warp path in:\n%.3000s", out);
    free(out);
}
END_TEST

START_TEST(dump_writes_the_final_bytes)
{
    char *out;
    const char *path = "/tmp/warpsim_test_cli_run_dump.bin";
    remove(path);
    ck_assert_int_eq(RUN("run " WARPSIM_SOURCE_DIR "/tests/nvcc/001_vector_add.ptx --kernel vector_add_naive --grid 1 "
                         "--block 64 --buf A=s32:50:iota --buf B=s32:50:const=10 --buf C=s32:50 --arg A --arg B --arg C "
                         "--arg s32:50 --quiet --dump C=/tmp/warpsim_test_cli_run_dump.bin", &out), 0);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    float c[50];
    ck_assert_int_eq(fread(c, 4, 50, f), 50);
    fclose(f);
    /* vector_add_naive adds floats: the int bit patterns of i and 10 read as tiny denormals... so check
     * against the same float addition done here. */
    for (int i = 0; i < 50; i++) {
        int32_t ai = i, bi = 10;
        float a, b;
        memcpy(&a, &ai, 4);
        memcpy(&b, &bi, 4);
        float want = a + b;
        ck_assert_int_eq(memcmp(&c[i], &want, 4), 0);
    }
    remove(path);
    free(out);
}
END_TEST

START_TEST(exit_statuses_and_messages)
{
    char *out;
    /* usage errors: 2 */
    ck_assert_int_eq(RUN("run " TRANSPOSE " --metrics no_such_metric", &out), 2);
    ck_assert_msg(strstr(out, "--metrics: unknown metric 'no_such_metric'") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --arch pentium", &out), 2);
    ck_assert_msg(strstr(out, "--arch: unknown architecture 'pentium'") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run", &out), 2);
    free(out);
    ck_assert_int_eq(RUN("frobnicate", &out), 2);
    free(out);
    /* input errors: 1 */
    ck_assert_int_eq(RUN("run /nonexistent.ptx --grid 1 --block 1", &out), 1);
    free(out);
    ck_assert_int_eq(RUN("run " WARPSIM_SOURCE_DIR "/tests/nvcc/001_vector_add.ptx --kernel nope --grid 1 --block 1", &out), 1);
    ck_assert_msg(strstr(out, "no kernel 'nope'") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run " WARPSIM_SOURCE_DIR "/tests/nvcc/001_vector_add.ptx --kernel vector_add_naive --grid 1 "
                         "--block 32 --buf A=f32:8 --arg A --arg A --arg A --arg s32:32", &out), 1);
    ck_assert_msg(strstr(out, "kernel 'vector_add_naive'") != NULL && strstr(out, "global address") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run " WARPSIM_SOURCE_DIR "/tests/nvcc/001_vector_add.ptx --kernel vector_add_naive --grid 1 "
                         "--block 32 --buf A=f32:8 --arg A --arg A", &out), 1);
    ck_assert_msg(strstr(out, "takes 4 parameters, got 2 --arg") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("run " TRANSPOSE " --arch g80", &out), 1);
    ck_assert_msg(strstr(out, "a block of 1024 threads does not fit on g80: it allows 1 to 512 threads per block") != NULL,
                  "%s", out);
    free(out);
    /* --stats reports memory on stderr */
    ck_assert_int_eq(RUN("run " TRANSPOSE " --stats --quiet", &out), 0);
    ck_assert_msg(strstr(out, "peak host memory") != NULL, "%s", out);
    free(out);
    /* help teaches: 0 */
    ck_assert_int_eq(RUN("run --help", &out), 0);
    ck_assert_msg(strstr(out, "--grid") != NULL && strstr(out, "smsp__inst_executed.sum") != NULL, "%s", out);
    free(out);
    ck_assert_int_eq(RUN("--help", &out), 0);
    ck_assert_msg(strstr(out, "demo.launch") != NULL, "%s", out);
    free(out);
}
END_TEST

/* The CSV with each row's Process ID (the second field) blanked: two runs are two processes. */
static void blank_process_ids(char *csv)
{
    for (char *line = csv; line && *line;) {
        char *first = strstr(line, "\",\"");   /* end of the ID field */
        char *eol = strchr(line, '\n');
        if (first && (!eol || first < eol)) {
            char *pid = first + 3, *end = strchr(pid, '"');
            if (end && (!eol || end < eol)) {   /* drop the digits: the two PIDs may differ in length */
                memmove(pid, end, strlen(end) + 1);
                eol = strchr(line, '\n');
            }
        }
        line = eol ? eol + 1 : NULL;
    }
}

START_TEST(arch_presets_and_files)
{
    char *out;
    ck_assert_int_eq(RUN("arch list", &out), 0);
    const char *names[] = {"hopper", "ampere", "volta", "pascal", "maxwell", "kepler", "fermi", "gt200", "g80"};
    for (size_t i = 0; i < 9; i++)
        ck_assert_msg(strstr(out, names[i]) != NULL, "%s missing from:\n%s", names[i], out);
    free(out);
    /* show -> file -> run with it: the same figures as the preset */
    const char *path = "/tmp/warpsim_test_cli_run_g80.arch";
    char cmd[512];
    snprintf(cmd, sizeof cmd, WARPSIM_BINARY " arch show g80 > %s", path);
    ck_assert_int_eq(system(cmd), 0);
    char *with_file, *with_preset;
    snprintf(cmd, sizeof cmd, WARPSIM_BINARY " run " WARPSIM_SOURCE_DIR "/programs/002_bank_conflicts/strides.launch --csv --arch-file %s", path);
    ck_assert_int_eq(sh(cmd, &with_file), 0);
    ck_assert_int_eq(RUN("run " WARPSIM_SOURCE_DIR "/programs/002_bank_conflicts/strides.launch --csv --arch g80", &with_preset), 0);
    blank_process_ids(with_file);
    blank_process_ids(with_preset);
    ck_assert_str_eq(with_file, with_preset);
    remove(path);
    free(with_file);
    free(with_preset);
    ck_assert_int_eq(RUN("arch show nothing", &out), 2);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_run");
    TCase *tc = tcase_create("run");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, text_report_shows_the_transpose_figures);
    tcase_add_test(tc, csv_has_the_ncu_raw_layout);
    tcase_add_test(tc, metrics_by_regex_as_ncu_selects_them);
    tcase_add_test(tc, json_holds_metrics_and_lines);
    tcase_add_test(tc, metrics_rollups_as_ncu_names_them);
    tcase_add_test(tc, json_is_versioned_typed_and_repeatable);
    tcase_add_test(tc, source_annotates_the_conflicting_line);
    tcase_add_test(tc, color_and_version);
    tcase_add_test(tc, trace_shows_a_warp_split_and_merge);
    tcase_add_test(tc, dump_writes_the_final_bytes);
    tcase_add_test(tc, exit_statuses_and_messages);
    tcase_add_test(tc, arch_presets_and_files);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
