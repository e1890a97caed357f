/* `warpsim run`: simulate a launch (or a .launch file's launches) and report;
 * `warpsim flags`: its flags, as --help shows them or as README.md's table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/compile.h"
#include "sim/check.h"
#include "sim/cli.h"
#include "sim/report.h"
#include "sim/report_html.h"
#include "sim/session.h"
#include "sim/timeline.h"
#include "sim/timing_result.h"

/* Single-quote a word for WARPSIM_FLAGS (options.c splits it back). */
static void append_quoted(char *out, size_t n, const char *w)
{
    size_t k = strlen(out);
    if (k + 4 >= n)
        return;
    out[k++] = ' ';
    out[k++] = '\'';
    for (; *w && k + 6 < n; w++) {
        if (*w == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *w;
        }
    }
    out[k++] = '\'';
    out[k] = 0;
}

/* The flags of the command line (without the file and the program's
 * arguments), for the program's runtime to read from WARPSIM_FLAGS. */
static void program_flags(int argc, char **argv, char *out, size_t n)
{
    out[0] = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (a[0] != '-' || a[1] == 0)
            continue;   /* the .cu file */
        append_quoted(out, n, a);
        int id = a[1] == '-' && !strchr(a, '=') ? ws_flag_lookup(a + 2, strlen(a + 2)) : -1;
        if (id >= 0 && ws_flags[id].scope != WS_SCOPE_SWITCH && ws_flags[id].scope != WS_SCOPE_CLI && i + 1 < argc)
            append_quoted(out, n, argv[++i]);
    }
}

/* A .cu file that is a whole program: build it and run its main(). */
static int run_program(const ws_run_options *o, int argc, char **argv)
{
    ws_cu_build b;
    char err[2048];
    int status = ws_cu_build_open(&b, o->cu_path, err, sizeof err);
    /* --ptx: the device code as given (nvcc -rdc=true's, say), not compiled here */
    const char *ptx = o->ptx_path ? o->ptx_path : b.ptx;
    if (!status && !o->ptx_path)
        status = ws_cu_compile_ptx(o->cu_path, o->cc, NULL, o->cflags, b.ptx, err, sizeof err);
    if (!status)
        status = ws_cu_link_program(o->cu_path, ptx, o->cflags, b.object, b.exe, err, sizeof err);
    if (status) {
        fprintf(stderr, "warpsim run: %s\n", err);
        ws_cu_build_close(&b);
        return status < 0 ? 1 : status;
    }
    static char flags[16384], flags_env[16400], ptx_env[4200], cu_env[4200];
    program_flags(argc, argv, flags, sizeof flags);
    snprintf(flags_env, sizeof flags_env, "WARPSIM_FLAGS=%s", flags);
    snprintf(ptx_env, sizeof ptx_env, "WARPSIM_PTX_PATH=%s", ptx);
    snprintf(cu_env, sizeof cu_env, "WARPSIM_CU_PATH=%s", o->cu_path);
    const char *env[] = {flags_env, ptx_env, cu_env, NULL};
    char **pargv = calloc((size_t)o->program_argc + 2, sizeof *pargv);
    char name[4096];
    snprintf(name, sizeof name, "%.*s", (int)(strlen(o->cu_path) - 3), o->cu_path);
    pargv[0] = name;
    for (int i = 0; i < o->program_argc; i++)
        pargv[i + 1] = o->program_argv[i];
    status = ws_cu_run_program(b.exe, pargv, env);
    free(pargv);
    ws_cu_build_close(&b);
    return status;
}

/* --timeline for a .ptx or .launch run: its launches back to back on the
 * default stream, as one host thread issuing them would place them. */
static int write_session_timeline(const ws_session *s, const char *path)
{
    ws_timeline t;
    ws_tl_host host = {0};
    ws_timeline_init(&t, &s->arch, 0, 1, &host);
    double end = 0;
    for (int i = 0; i < s->launch_count; i++) {
        const ws_launch *l = &s->launches[i];
        const ws_timing_result *r = ws_timing_result_of(l);
        /* a grid launched from the device: after the one before it in the list (an order CUDA allows) */
        ws_tl_work w = {.kind = WS_TL_KERNEL, .duration_ns = r ? r->duration_ns : 0, .name = ws_launch_name(l),
                        .device_side = l->device_launched, .after_ns = end};
        memcpy(w.grid, l->grid, sizeof w.grid);
        memcpy(w.block, l->block_dim, sizeof w.block);
        end = ws_timeline_issue(&t, WS_TL_LEGACY_STREAM, &w).end_ns;
    }
    ws_timeline *ts[1] = {&t};
    char err[4400];
    int status = ws_timeline_write_json(ts, 1, path, err, sizeof err);
    if (status)
        fprintf(stderr, "warpsim run: --timeline: %s\n", err);
    ws_timeline_free(&t);
    return status ? 1 : 0;
}

int cli_run(int argc, char **argv)
{
    ws_run_options o;
    char err[2048] = "";
    ws_launch_status st = ws_run_options_parse_argv(argc, argv, &o, err, sizeof err);
    if (st != WS_LAUNCH_OK) {
        fprintf(stderr, "%s\n", err);
        if (st == WS_LAUNCH_USAGE)
            fprintf(stderr, "(`warpsim run --help` explains the flags)\n");
        ws_run_options_free(&o);
        return (int)st;
    }
    if (o.help) {
        ws_run_print_help(stdout);
        fputs("\nmetrics (--metrics a,b,c; --csv/--json print all of them by default; of a counter X.sum, ncu's rollups\n"
              "X.avg (smsp__, l1tex__, sm__, gpu__), X.sum.per_second, X.avg.per_second, and X alone for its .avg and .sum):\n",
              stdout);
        for (size_t i = 0; i < ws_metric_count(); i++)
            printf("  %s\n", ws_metric_at(i)->metric);
        ws_run_options_free(&o);
        return 0;
    }
    /* an unwritable --timeline fails before anything runs, not after a long run */
    if (o.timeline && ws_timeline_check_path(o.timeline, err, sizeof err)) {
        fprintf(stderr, "warpsim run: --timeline: %s\n", err);
        ws_run_options_free(&o);
        return 1;
    }
    if (o.html && ws_report_html_check_path(o.html, err, sizeof err)) {
        fprintf(stderr, "warpsim run: --html: %s\n", err);
        ws_run_options_free(&o);
        return 1;
    }
    int *selected = calloc(ws_metric_count(), sizeof(int));
    if (!selected || ws_metrics_select(o.metrics, selected, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", selected ? err : "warpsim: out of memory");
        free(selected);
        ws_run_options_free(&o);
        return EXIT_USAGE;
    }
    if (o.program) {
        free(selected);
        int status = run_program(&o, argc, argv);
        ws_run_options_free(&o);
        return status;
    }
    /* A .cu file's kernels run as a .ptx's: compile them first. */
    ws_cu_build build = {0};
    if (o.cu_path && !o.ptx_path) {   /* --ptx: its device code as given */
        int st = ws_cu_build_open(&build, o.cu_path, err, sizeof err);
        if (!st)
            st = ws_cu_compile_ptx(o.cu_path, o.cc, NULL, o.cflags, build.ptx, err, sizeof err);
        if (st || !(o.ptx_path = strdup(build.ptx))) {
            fprintf(stderr, "warpsim run: %s\n", st ? err : "out of memory");
            ws_cu_build_close(&build);
            free(selected);
            ws_run_options_free(&o);
            return st ? st : 1;
        }
    }
    ptx_diag diag = {0};
    ws_session s;
    int status = ws_session_open(&s, &o, &diag, err, sizeof err);
    if (status) {
        ptx_diag_print(&diag, stderr);
        if (err[0])
            fprintf(stderr, "%s\n", err);
    } else {
        status = ws_session_run(&s, err, sizeof err);
        if (status)
            fprintf(stderr, "%s\n", err);
        /* Report what ran, also when a later launch failed. */
        if (s.launch_count > (status ? 1 : 0) || !status) {
            /* --log-file: the report there instead of stdout */
            FILE *out = o.log_file ? fopen(o.log_file, "w") : stdout;
            if (!out) {
                fprintf(stderr, "warpsim run: --log-file: cannot write '%s'\n", o.log_file);
                out = stdout;
            }
            /* auto: on a terminal, unless NO_COLOR is set (https://no-color.org) */
            int color = o.color == WS_COLOR_ALWAYS ||
                        (o.color == WS_COLOR_AUTO && out == stdout && isatty(fileno(stdout)) && getenv("NO_COLOR") == NULL);
            int reported = status ? s.launch_count - 1 : s.launch_count;
            int saved = s.launch_count;
            s.launch_count = reported;
            /* --quiet drops the text report only: what else was asked for still prints */
            if (o.format == WS_OUT_CSV)
                ws_report_csv(&s, selected, out);
            else if (o.format == WS_OUT_JSON)
                ws_report_json(&s, selected, out);
            else if (!o.quiet)
                ws_report_text(&s, out, color);
            if (o.source)
                ws_report_source(&s, out, color);
            if (out != stdout)
                fclose(out);
            if (o.html && ws_report_html(&s, o.html, err, sizeof err)) {
                fprintf(stderr, "warpsim run: --html: %s\n", err);
                status = status ? status : 1;
            }
            s.launch_count = saved;
            if (o.timeline && write_session_timeline(&s, o.timeline) && !status)
                status = 1;
            if (o.stats)
                ws_session_print_stats(&s, stderr);
        }
        if (o.racecheck) {   /* compute-sanitizer's endings, and its --error-exitcode */
            ws_race_summary(stderr, s.races_shown, s.race_errors, s.race_warnings);
            if (s.race_errors && !status)
                status = 1;
        }
        if (o.initcheck || o.synccheck) {
            ws_check_summary(stderr, s.check_errors);
            if (s.check_errors && !status)
                status = 1;
        }
    }
    ws_session_close(&s);
    ptx_diag_free(&diag);
    free(selected);
    ws_run_options_free(&o);
    ws_cu_build_close(&build);
    return status;
}

int cli_flags(int argc, char **argv)
{
    int markdown = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: warpsim flags [--markdown]\n\n"
                 "The flags of `warpsim run` (sim/flags.def): as `warpsim run --help` lists them, or with\n"
                 "--markdown as the table in README.md (a test checks that the two agree).");
            return 0;
        }
        if (!strcmp(argv[i], "--markdown")) {
            markdown = 1;
            continue;
        }
        fprintf(stderr, "warpsim flags: unknown argument '%s' (try `warpsim flags --help`)\n", argv[i]);
        return EXIT_USAGE;
    }
    if (markdown)
        ws_run_print_flags_markdown(stdout);
    else
        ws_run_print_help(stdout);
    return 0;
}
