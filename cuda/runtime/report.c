/* The report at exit, as `ncu ./prog` prints one after the program ends:
 * every kept launch (--kernel, --launch-skip, --launch-count), through the
 * same report code as `warpsim run FILE.ptx`, on stdout or --log-file. */
#include "cuda/runtime/runtime.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report.h"
#include "sim/report_html.h"
#include "sim/session.h"

/* The program's own name, as ncu's "Process Name" column gives it. */
static const char *program_name(void)
{
#if defined(__APPLE__)
    return getprogname();
#else
    static char name[64];
    FILE *f = fopen("/proc/self/comm", "r");
    if (!f || !fgets(name, sizeof name, f)) {
        if (f)
            fclose(f);
        return "program";
    }
    fclose(f);
    name[strcspn(name, "\n")] = 0;
    return name;
#endif
}

int ws_cuda_report(ws_cuda *c)
{
    const ws_run_options *o = &c->options;
    FILE *f = c->report ? c->report : stdout;
    if (c->launch_count == 0) {
        if (!o->quiet && o->format == WS_OUT_TEXT)
            fprintf(f, "==WARPSIM== %llu kernel launch%s, none %s\n", (unsigned long long)c->total_launches,
                    c->total_launches == 1 ? "" : "es",
                    c->total_launches ? "selected for the report (--kernel, --launch-skip)" : "to report");
        return 0;
    }
    ws_session s = {0};
    s.options = o;
    s.module = c->modules[0].module;
    s.arch = c->arch;
    s.launches = c->launches;
    s.launch_count = c->launch_count;
    s.seconds = c->seconds;
    s.process_name = program_name();
    int color = o->color == WS_COLOR_ALWAYS ||
                (o->color == WS_COLOR_AUTO && f == stdout && isatty(fileno(stdout)) && getenv("NO_COLOR") == NULL);
    if (o->format == WS_OUT_CSV) {
        ws_report_csv(&s, c->selected_metrics, f);
    } else if (o->format == WS_OUT_JSON) {
        ws_report_json(&s, c->selected_metrics, f);
    } else if (!o->quiet) {
        fprintf(f, "==WARPSIM== %llu kernel launch%s; the report covers %d\n", (unsigned long long)c->total_launches,
                c->total_launches == 1 ? "" : "es", c->launch_count);
        ws_report_text(&s, f, color);
    }
    if (o->source)
        ws_report_source(&s, f, color);
    fflush(f);
    char err[4400];
    if (o->html && ws_report_html(&s, o->html, err, sizeof err)) {
        fprintf(stderr, "warpsim: --html: %s\n", err);
        return 1;
    }
    return 0;
}
