/* `warpsim run`: simulate a launch (or a .launch file's launches) and report;
 * `warpsim flags`: its flags, as --help shows them or as README.md's table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli.h"
#include "sim/report.h"
#include "sim/session.h"

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
        fputs("\nmetrics (--metrics a,b,c; --csv/--json print all of them by default):\n", stdout);
        for (size_t i = 0; i < ws_metric_count(); i++)
            printf("  %s\n", ws_metric_at(i)->metric);
        ws_run_options_free(&o);
        return 0;
    }
    int *selected = calloc(ws_metric_count(), sizeof(int));
    if (!selected || ws_metrics_select(o.metrics, selected, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", selected ? err : "warpsim: out of memory");
        free(selected);
        ws_run_options_free(&o);
        return EXIT_USAGE;
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
            /* auto: on a terminal, unless NO_COLOR is set (https://no-color.org) */
            int color = o.color == WS_COLOR_ALWAYS ||
                        (o.color == WS_COLOR_AUTO && isatty(fileno(stdout)) && getenv("NO_COLOR") == NULL);
            int reported = status ? s.launch_count - 1 : s.launch_count;
            int saved = s.launch_count;
            s.launch_count = reported;
            /* --quiet drops the text report only: what else was asked for still prints */
            if (o.format == WS_OUT_CSV)
                ws_report_csv(&s, selected, stdout);
            else if (o.format == WS_OUT_JSON)
                ws_report_json(&s, selected, stdout);
            else if (!o.quiet)
                ws_report_text(&s, stdout, color);
            if (o.source)
                ws_report_source(&s, stdout, color);
            s.launch_count = saved;
            if (o.stats)
                ws_session_print_stats(&s, stderr);
        }
    }
    ws_session_close(&s);
    ptx_diag_free(&diag);
    free(selected);
    ws_run_options_free(&o);
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
