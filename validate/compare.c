/*
 * validate/compare: warpsim's predictions against Nsight Compute's measurements.
 * Plain C11 + POSIX; needs no GPU.  See validate/README.md.
 *
 *   compare --warpsim PATH [--results DIR] [--mode O0] [--root DIR] [--exceptions FILE]
 *           [--tolerance PCT] [--arch hopper] [--markdown] [--all]
 *   compare --show FILE.csv [--metrics [ALIAS=]NAME,...] [--labels FILE.out]
 *   compare --self-test
 *
 * For each launch that validate/run-on-gpu measured in the mode (the rows of
 * DIR/manifest.tsv), it re-simulates the same .launch with `warpsim run X.launch
 * --csv --no-timing --arch hopper` (plus a --dump of every buffer, and --ptx P for the real
 * build, P the manifest's reference under --root), joins warpsim's CSV and ncu's raw CSV
 * by launch (row order) and metric name, and prints per kernel and metric:
 * warpsim, GPU, delta, the excess of the tolerance metrics, a status.  Its last
 * line is `N of M exact metrics match (GPU NAME)`.
 *
 * Metric classes:
 *   exact      smsp__sass_inst_executed_op_*, l1tex__t_requests_pipe_lsu_mem_global_op_*,
 *              l1tex__t_sectors_pipe_lsu_mem_global_op_*, l1tex__t_sectors_pipe_lsu_mem_local_op_*,
 *              smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum, smsp__sass_branch_targets*
 *   tolerance  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum: warpsim <= GPU <=
 *              warpsim * (1 + PCT/100); l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum:
 *              warpsim <= GPU <= warpsim + PCT/100 * warpsim's wavefronts of the same op.  These
 *              hardware counters also see L1 fill traffic.
 *   info       everything else (smsp__inst_executed.sum and thread counts are SASS-level)
 * warpsim__* metrics have no GPU counterpart and are skipped.
 *
 * A mismatch is allowed only by a line of the exceptions file (default
 * validate/EXCEPTIONS.txt under --root): `KERNEL METRIC REASON...`, KERNEL a
 * glob matched against the kernel name or STEM:KERNEL, METRIC a glob.
 *
 * Exit status: 0 when everything compared matches (or is excepted); 1 when an
 * exact metric differs, a tolerance metric is out of range, warpsim or the GPU
 * run failed or their launches do not line up; 2 for a bad command line or
 * missing results.  Buffer checksums are reported but never fail the run.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "validate/csvtable.h"

/* ---- Metric classes ------------------------------------------------------------- */

enum { CLASS_SKIP, CLASS_EXACT, CLASS_TOL, CLASS_INFO };

static int metric_class(const char *m)
{
    if (starts_with(m, "warpsim__"))
        return CLASS_SKIP;
    /* the timing model's predictions (n/a here: --no-timing): validate/compare_time compares the times */
    static const char *const predicted[] = {
        "gpu__time_duration", "gpu__compute_memory_throughput", "sm__cycles_elapsed", "sm__throughput",
        "sm__warps_active", "sm__maximum_warps", "launch__", "dram__bytes", "lts__t_sector_hit_rate",
        "l1tex__t_sector_hit_rate", "smsp__average_warp_latency_issue_stalled", "smsp__issue_active",
    };
    for (size_t i = 0; i < sizeof predicted / sizeof predicted[0]; i++)
        if (starts_with(m, predicted[i]))
            return CLASS_SKIP;
    if (starts_with(m, "smsp__sass_inst_executed_op_") || starts_with(m, "l1tex__t_requests_pipe_lsu_mem_global_op_") ||
        starts_with(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_") ||
        starts_with(m, "l1tex__t_sectors_pipe_lsu_mem_local_op_") ||
        !strcmp(m, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum") || starts_with(m, "smsp__sass_branch_targets"))
        return CLASS_EXACT;
    if (starts_with(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") ||
        starts_with(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"))
        return CLASS_TOL;
    return CLASS_INFO;
}

/* ---- Exceptions ------------------------------------------------------------------ */

typedef struct {
    char *kernel, *metric, *reason;
    int line, used;
} exception_t;

static exception_t *exceptions;
static int nexceptions;

static int load_exceptions(const char *path, int required)
{
    char *text = read_file(path, NULL);
    if (!text) {
        if (required) {
            fprintf(stderr, "compare: cannot read exceptions file '%s': %s\n", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    int lineno = 0, cap = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        char *h = line;
        while (isspace((unsigned char)*h))
            h++;
        if (*h && *h != '#') {
            char *k = strtok(h, " \t\r");
            char *m = k ? strtok(NULL, " \t\r") : NULL;
            char *rest = m ? strtok(NULL, "") : NULL;
            while (rest && isspace((unsigned char)*rest))
                rest++;
            if (!k || !m || !rest || !*rest) {
                fprintf(stderr, "%s:%d: error: expected KERNEL METRIC REASON...\n", path, lineno);
                free(text);
                return -1;
            }
            size_t rl = strlen(rest);
            while (rl && isspace((unsigned char)rest[rl - 1]))
                rest[--rl] = '\0';
            if (nexceptions == cap)
                exceptions = xrealloc(exceptions, sizeof *exceptions * (size_t)(cap = cap ? cap * 2 : 16));
            exceptions[nexceptions++] = (exception_t){xstrdup(k), xstrdup(m), xstrdup(rest), lineno, 0};
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return 0;
}

static const exception_t *find_exception(const char *stem, const char *kernel, const char *metric)
{
    char *qualified = xasprintf("%s:%s", stem, kernel);
    const exception_t *found = NULL;
    for (int i = 0; i < nexceptions && !found; i++) {
        exception_t *x = &exceptions[i];
        if ((fnmatch(x->kernel, kernel, 0) == 0 || fnmatch(x->kernel, qualified, 0) == 0) &&
            fnmatch(x->metric, metric, 0) == 0) {
            x->used = 1;
            found = x;
        }
    }
    free(qualified);
    return found;
}

/* ---- Output ------------------------------------------------------------------------ */

static int markdown, show_all;
static const char *sim_arch = "hopper";   /* warpsim's --arch for every launch: the GPUs measured are sm_90 */
static double tolerance = 15.0;

static void fmt_value(char *buf, size_t n, double v)
{
    if (isnan(v))
        snprintf(buf, n, "n/a");
    else if (v == floor(v) && fabs(v) < 1e18)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

/* ---- Counting ---------------------------------------------------------------------- */

static struct {
    int exact_total, exact_match, exact_excepted, exact_bad;
    int tol_total, tol_within, tol_excepted, tol_bad;
    int info, not_measured;
    int launches, launches_bad;   /* compared launch rows; rows that could not be compared */
    int files, files_bad;         /* manifest entries; entries not compared (GPU or warpsim failure) */
    int files_skipped;            /* entries written for another architecture: not measured */
    int buffers, buffers_same, buffers_skipped;
} stats;

typedef struct {
    char *text;   /* a line describing a problem, for the closing list */
} problem_t;
static problem_t *problems;
static int nproblems, capproblems;

static void problem(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    if (nproblems == capproblems)
        problems = xrealloc(problems, sizeof *problems * (size_t)(capproblems = capproblems ? capproblems * 2 : 16));
    problems[nproblems++].text = s;
}

/* ---- One launch file ------------------------------------------------------------- */

typedef struct {
    char *name;
    uint64_t bytes;
    uint64_t fnv;
} gpu_buffer;

/* "buffer NAME bytes N fnv1a64 0x..." lines of the runner's report. */
static int read_gpu_buffers(const char *out_path, gpu_buffer **bufs)
{
    *bufs = NULL;
    char *text = read_file(out_path, NULL);
    if (!text)
        return 0;
    int n = 0, cap = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char name[256];
        unsigned long long bytes, fnv;
        if (sscanf(line, "buffer %255s bytes %llu fnv1a64 %llx", name, &bytes, &fnv) == 3) {
            if (n == cap)
                *bufs = xrealloc(*bufs, sizeof **bufs * (size_t)(cap = cap ? cap * 2 : 8));
            (*bufs)[n++] = (gpu_buffer){xstrdup(name), bytes, fnv};
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return n;
}

static int buffer_name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == '$'))
            return 0;
    return 1;
}


static void print_row_header(void)
{
    if (markdown) {
        printf("| # | kernel | metric | warpsim | GPU | delta | excess | status |\n");
        printf("|---|---|---|---:|---:|---:|---:|---|\n");
    } else {
        printf("    %-58s %12s %12s %10s %9s  %s\n", "metric", "warpsim", "GPU", "delta", "excess", "status");
    }
}

static void compare_file(const char *warpsim, const char *root, const char *resdir, const char *mode,
                         const char *stem, const char *launch, const char *ptx, const char *gpu_status)
{
    stats.files++;
    char *launch_path = launch[0] == '/' ? xstrdup(launch) : xasprintf("%s/%s", root, launch);
    if (markdown)
        printf("\n### %s\n\n`%s`%s%s\n\n", stem, launch, ptx ? " with PTX " : "", ptx ? ptx : "");
    else
        printf("\n== %s  (%s%s%s)\n", stem, launch, ptx ? ", PTX " : "", ptx ? ptx : "");

    if (starts_with(gpu_status, "skipped-arch")) {
        printf("%snot measured: written for another architecture (%s)%s\n", markdown ? "" : "    ", gpu_status + 13,
               markdown ? "" : "");
        stats.files_skipped++;
        free(launch_path);
        return;
    }
    if (strcmp(gpu_status, "ok") != 0) {
        printf("%sGPU run failed: %s (see %s/%s/%s.err)%s\n", markdown ? "**" : "    ", gpu_status, resdir, mode,
               stem, markdown ? "**" : "");
        problem("%s: GPU run failed (%s)", stem, gpu_status);
        stats.files_bad++;
        free(launch_path);
        return;
    }
    char *csv_path = xasprintf("%s/%s/%s.csv", resdir, mode, stem);
    char *out_path = xasprintf("%s/%s/%s.out", resdir, mode, stem);
    char *gtext = read_file(csv_path, NULL);
    csv_table gpu = {0}, ws = {0};
    if (!gtext || parse_csv(gtext, &gpu) != 0) {
        printf("    no ncu CSV in %s\n", csv_path);
        problem("%s: no ncu CSV (%s)", stem, csv_path);
        stats.files_bad++;
        free(gtext);
        free(csv_path);
        free(out_path);
        free(launch_path);
        free_table(&gpu);
        return;
    }

    /* warpsim, with a dump of every buffer the GPU run reported. */
    gpu_buffer *gb = NULL;
    int ngb = read_gpu_buffers(out_path, &gb);
    char tmpl[] = "/tmp/warpsim-compare-XXXXXX";
    char *tmpdir = mkdtemp(tmpl);
    char *q_ws = shell_quote(warpsim), *q_launch = shell_quote(launch_path);
    char *q_arch = shell_quote(sim_arch);
    char *cmd = xasprintf("%s run %s --csv --no-timing --arch %s", q_ws, q_launch, q_arch);
    free(q_arch);
    if (ptx) {
        char *ptx_path = ptx[0] == '/' ? xstrdup(ptx) : xasprintf("%s/%s", root, ptx);   /* a store reference */
        char *q = shell_quote(ptx_path);
        char *c2 = xasprintf("%s --ptx %s", cmd, q);
        free(cmd);
        cmd = c2;
        free(q);
        free(ptx_path);
    }
    for (int b = 0; b < ngb && tmpdir; b++) {
        if (starts_with(gb[b].name, "undef") || !buffer_name_ok(gb[b].name))
            continue;
        char *d = xasprintf("%s=%s/%s.bin", gb[b].name, tmpdir, gb[b].name);
        char *q = shell_quote(d);
        char *c2 = xasprintf("%s --dump %s", cmd, q);
        free(cmd);
        cmd = c2;
        free(q);
        free(d);
    }
    char *wtext = NULL;
    int wst = run_warpsim(cmd, &wtext);
    if (wst != 0 || parse_csv(wtext, &ws) != 0) {
        printf("    warpsim failed (exit %d): %s\n", wst, cmd);
        problem("%s: warpsim failed (exit %d)", stem, wst);
        stats.files_bad++;
        goto done;
    }

    if (ws.nrows != gpu.nrows) {
        printf("    %swarpsim reports %d launches, the GPU %d: compared the first %d%s\n", markdown ? "**" : "",
               ws.nrows, gpu.nrows, ws.nrows < gpu.nrows ? ws.nrows : gpu.nrows, markdown ? "**" : "");
        problem("%s: warpsim reports %d launches, the GPU %d", stem, ws.nrows, gpu.nrows);
        stats.files_bad++;
    }
    int nrows = ws.nrows < gpu.nrows ? ws.nrows : gpu.nrows;
    int ws_kcol = kernel_column(&ws), g_kcol = kernel_column(&gpu);
    if (g_kcol < 0)
        printf("    (the GPU CSV has no kernel-name column: launches are matched by order alone)\n");
    int ws_grid = column(&ws, "Grid Size"), ws_block = column(&ws, "Block Size");
    int first_metric = (column(&ws, "CC") >= 0 ? column(&ws, "CC") : column(&ws, "Device")) + 1;
    if (first_metric <= 0)
        first_metric = 1;
    if (markdown)
        print_row_header();
    for (int r = 0; r < nrows; r++) {
        stats.launches++;
        char *wk = kernel_base(cell(&ws, r, ws_kcol)), *gk = kernel_base(cell(&gpu, r, g_kcol));
        const char *grid = cell(&ws, r, ws_grid), *block = cell(&ws, r, ws_block);
        if (!markdown)
            printf("  [%d] %s  grid %s  block %s\n", r, wk, grid ? grid : "?", block ? block : "?");
        if (g_kcol >= 0 && strcmp(wk, gk) != 0) {
            printf("%s    launch %d: warpsim ran '%s', the GPU row is '%s': not compared%s\n", markdown ? "\n**" : "", r,
                   wk, gk, markdown ? "**\n" : "");
            problem("%s [%d]: kernel names differ (warpsim '%s', GPU '%s')", stem, r, wk, gk);
            stats.launches_bad++;
            free(wk);
            free(gk);
            continue;
        }
        if (!markdown && r == 0)
            print_row_header();
        for (int c = first_metric; c < ws.ncols; c++) {
            const char *m = ws.header[c];
            int cls = metric_class(m);
            if (cls == CLASS_SKIP)
                continue;
            double wv = parse_number(cell(&ws, r, c));
            double gv = parse_number(cell(&gpu, r, column(&gpu, m)));
            char sw[32], sg[32], sd[32] = "", sx[32] = "", status[300];
            fmt_value(sw, sizeof sw, wv);
            fmt_value(sg, sizeof sg, gv);
            int bad = 0, interesting = 0;
            if (isnan(gv)) {
                stats.not_measured++;
                snprintf(status, sizeof status, "not measured");
                interesting = cls != CLASS_INFO;
            } else {
                fmt_value(sd, sizeof sd, gv - wv);
                if (gv - wv > 0)
                    memmove(sd + 1, sd, strlen(sd) + 1), sd[0] = '+';
                if (cls == CLASS_INFO) {
                    stats.info++;
                    snprintf(status, sizeof status, "info");
                } else if (cls == CLASS_EXACT) {
                    stats.exact_total++;
                    if (gv == wv) {
                        stats.exact_match++;
                        snprintf(status, sizeof status, "exact");
                    } else {
                        const exception_t *x = find_exception(stem, wk, m);
                        interesting = 1;
                        if (x) {
                            stats.exact_excepted++;
                            snprintf(status, sizeof status, "excepted: %s", x->reason);
                        } else {
                            stats.exact_bad++;
                            bad = 1;
                            snprintf(status, sizeof status, "MISMATCH");
                        }
                    }
                } else {
                    stats.tol_total++;
                    double limit;
                    int is_conflict = starts_with(m, "l1tex__data_bank_conflicts_");
                    if (is_conflict) {
                        /* allowed excess: a share of the same op's wavefronts */
                        const char *op = strstr(m, "_op_");
                        double wf = NAN;
                        if (op) {
                            char *wfname = xasprintf("l1tex__data_pipe_lsu_wavefronts_mem_shared%s", op);
                            wf = parse_number(cell(&ws, r, column(&ws, wfname)));
                            free(wfname);
                        }
                        limit = wv + tolerance / 100.0 * (isnan(wf) ? wv : wf);
                        if (gv > wv)
                            snprintf(sx, sizeof sx, "+%.0f", gv - wv);
                    } else {
                        limit = wv * (1.0 + tolerance / 100.0);
                        if (gv > wv && wv > 0)
                            snprintf(sx, sizeof sx, "+%.1f%%", 100.0 * (gv - wv) / wv);
                        else if (gv > wv)
                            snprintf(sx, sizeof sx, "+%.0f", gv - wv);
                    }
                    if (gv >= wv && gv <= limit + 1e-9) {
                        stats.tol_within++;
                        snprintf(status, sizeof status, "within +%g%%", tolerance);
                    } else {
                        const exception_t *x = find_exception(stem, wk, m);
                        interesting = 1;
                        if (x) {
                            stats.tol_excepted++;
                            snprintf(status, sizeof status, "excepted: %s", x->reason);
                        } else {
                            stats.tol_bad++;
                            bad = 1;
                            snprintf(status, sizeof status, "%s", gv < wv ? "BELOW WARPSIM" : "OUT OF TOLERANCE");
                        }
                    }
                }
            }
            if (bad)
                problem("%s [%d] %s: %s: warpsim %s, GPU %s: %s", stem, r, wk, m, sw, sg, status);
            /* Rows where both sides are 0 and nothing is wrong are left out unless --all. */
            if (!show_all && !interesting && (wv == 0 || isnan(wv)) && (gv == 0 || isnan(gv)))
                continue;
            if (markdown) {
                for (char *p = status; *p; p++)
                    if (*p == '|')
                        *p = '/';
                printf("| %d | %s | `%s` | %s | %s | %s | %s | %s%s%s |\n", r, wk, m, sw, sg, sd, sx, bad ? "**" : "",
                       status, bad ? "**" : "");
            }
            else
                printf("    %-58s %12s %12s %10s %9s  %s\n", m, sw, sg, sd, sx, status);
        }
        free(wk);
        free(gk);
    }

    /* Buffers: FNV-1a 64 of warpsim's dumps against the GPU's. */
    if (ngb) {
        if (markdown)
            printf("\n| buffer | bytes | warpsim fnv1a64 | GPU fnv1a64 | |\n|---|---:|---|---|---|\n");
        else
            printf("  buffers\n");
        for (int b = 0; b < ngb; b++) {
            char verdict[64];
            char wsum[32] = "-";
            if (starts_with(gb[b].name, "undef") || !buffer_name_ok(gb[b].name) || !tmpdir) {
                stats.buffers_skipped++;
                snprintf(verdict, sizeof verdict, "undefined contents: not compared");
            } else {
                stats.buffers++;
                char *path = xasprintf("%s/%s.bin", tmpdir, gb[b].name);
                size_t len = 0;
                char *bytes = read_file(path, &len);
                if (!bytes) {
                    snprintf(verdict, sizeof verdict, "no warpsim dump");
                } else {
                    uint64_t h = fnv1a64((const unsigned char *)bytes, len);
                    snprintf(wsum, sizeof wsum, "0x%016" PRIx64, h);
                    if (h == gb[b].fnv && len == gb[b].bytes) {
                        stats.buffers_same++;
                        snprintf(verdict, sizeof verdict, "identical");
                    } else {
                        snprintf(verdict, sizeof verdict, "DIFFERENT (informational)");
                    }
                    free(bytes);
                    unlink(path);
                }
                free(path);
            }
            if (markdown)
                printf("| %s | %" PRIu64 " | %s | 0x%016" PRIx64 " | %s |\n", gb[b].name, gb[b].bytes, wsum, gb[b].fnv,
                       verdict);
            else
                printf("    %-20s %10" PRIu64 " bytes  warpsim %-18s  GPU 0x%016" PRIx64 "  %s\n", gb[b].name,
                       gb[b].bytes, wsum, gb[b].fnv, verdict);
        }
    }

done:
    if (tmpdir)
        rmdir(tmpdir);
    for (int b = 0; b < ngb; b++)
        free(gb[b].name);
    free(gb);
    free(wtext);
    free(cmd);
    free(q_ws);
    free(q_launch);
    free(gtext);
    free(csv_path);
    free(out_path);
    free(launch_path);
    free_table(&gpu);
    free_table(&ws);
}

/* ---- --show: a CSV as a table (run-on-gpu's summary) ------------------------------ */

static int show(const char *path, const char *metrics, const char *labels)
{
    char *text = read_file(path, NULL);
    csv_table t;
    if (!text || parse_csv(text, &t) != 0) {
        printf("%s: no CSV table\n", path);
        free(text);
        return 1;
    }
    /* args from the runner's "launch N kernel K ... args A" lines */
    char **args = xmalloc(sizeof(char *) * (size_t)(t.nrows + 1));
    for (int r = 0; r < t.nrows; r++)
        args[r] = NULL;
    char *ltext = labels ? read_file(labels, NULL) : NULL;
    for (char *line = ltext; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        int idx;
        char *a = strstr(line, " args ");
        if (sscanf(line, "launch %d kernel", &idx) == 1 && a && idx >= 0 && idx < t.nrows)
            args[idx] = xstrdup(a + 6);
        line = nl ? nl + 1 : NULL;
    }
    free(ltext);
    int kcol = kernel_column(&t);
    if (!metrics) {
        for (int r = 0; r < t.nrows; r++) {
            char *k = kernel_base(cell(&t, r, kcol));
            printf("[%d] %s%s%s\n", r, k, args[r] ? " " : "", args[r] ? args[r] : "");
            free(k);
            for (int c = 0; c < t.ncols; c++)
                if (c != kcol)
                    printf("    %-60s %s\n", t.header[c], cell(&t, r, c) ? cell(&t, r, c) : "");
        }
    } else {
        char *list = xstrdup(metrics);
        int n = 0;
        char *names[64], *alias[64];
        for (char *tok = strtok(list, ","); tok && n < 64; tok = strtok(NULL, ",")) {
            char *eq = strchr(tok, '=');
            alias[n] = eq ? (*eq = '\0', tok) : tok;
            names[n] = eq ? eq + 1 : tok;
            n++;
        }
        int kw = 6;
        for (int r = 0; r < t.nrows; r++) {
            char *k = kernel_base(cell(&t, r, kcol));
            int w = (int)strlen(k) + (args[r] ? (int)strlen(args[r]) + 1 : 0);
            if (w > kw)
                kw = w;
            free(k);
        }
        printf("%3s %-*s", "#", kw, "kernel");
        for (int i = 0; i < n; i++)
            printf(" %*s", (int)(strlen(alias[i]) > 7 ? strlen(alias[i]) : 7), alias[i]);
        putchar('\n');
        for (int r = 0; r < t.nrows; r++) {
            char *k = kernel_base(cell(&t, r, kcol));
            char *label = args[r] ? xasprintf("%s %s", k, args[r]) : xstrdup(k);
            printf("%3d %-*s", r, kw, label);
            for (int i = 0; i < n; i++) {
                char v[32];
                double x = parse_number(cell(&t, r, column(&t, names[i])));
                fmt_value(v, sizeof v, x);
                printf(" %*s", (int)(strlen(alias[i]) > 7 ? strlen(alias[i]) : 7), isnan(x) ? "-" : v);
            }
            putchar('\n');
            free(label);
            free(k);
        }
        free(list);
    }
    for (int r = 0; r < t.nrows; r++)
        free(args[r]);
    free(args);
    free_table(&t);
    free(text);
    return 0;
}

/* ---- --self-test ------------------------------------------------------------------- */

static int self_test(void)
{
    int fails = 0;
#define EXPECT(cond)                                                          \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "self-test: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            fails++;                                                          \
        }                                                                     \
    } while (0)
    const char *ncu =
        "==PROF== Connected to process 123 (/x/runner)\r\n"
        "==PROF== Profiling \"k\": 0%....50%....100% - 9 passes\n"
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
        "\"Grid Size\",\"Device\",\"CC\",\"a.sum\",\"b.sum\"\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"sector\",\"inst\"\n"
        "\"0\",\"123\",\"runner\",\"h\",\"vec_add(float *, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\",\"9.0\","
        "\"1,024\",\"n/a\"\n"
        "\"1\",\"123\",\"runner\",\"h\",\"say \"\"hi\"\"\",\"1\",\"7\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\","
        "\"12,345,678\",\"3.5\"\n"
        "==PROF== Disconnected from process 123\n";
    csv_table t;
    EXPECT(parse_csv(ncu, &t) == 0);
    EXPECT(t.ncols == 13 && t.nrows == 2);
    EXPECT(t.units && !strcmp(t.units[11], "sector"));
    EXPECT(column(&t, "b.sum") == 12 && column(&t, "nope") == -1);
    EXPECT(parse_number(cell(&t, 0, 11)) == 1024.0);
    EXPECT(isnan(parse_number(cell(&t, 0, 12))));
    EXPECT(parse_number(cell(&t, 1, 11)) == 12345678.0);
    EXPECT(parse_number(cell(&t, 1, 12)) == 3.5);
    EXPECT(!strcmp(cell(&t, 1, 4), "say \"hi\""));
    EXPECT(!strcmp(cell(&t, 0, 7), "(256, 1, 1)"));
    char *k = kernel_base(cell(&t, 0, 4));
    EXPECT(!strcmp(k, "vec_add"));
    free(k);
    k = kernel_base("void foo<int>(int*)");
    EXPECT(!strcmp(k, "foo"));
    free(k);
    free_table(&t);
    EXPECT(parse_csv("no table here\n", &t) == -1);
    free_table(&t);
    EXPECT(isnan(parse_number("")) && isnan(parse_number(NULL)) && parse_number(" 7 ") == 7.0);
    EXPECT(metric_class("smsp__sass_inst_executed_op_shared_ld.sum") == CLASS_EXACT);
    EXPECT(metric_class("smsp__sass_branch_targets_threads_divergent.sum") == CLASS_EXACT);
    EXPECT(metric_class("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum") == CLASS_EXACT);
    EXPECT(metric_class("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == CLASS_TOL);
    EXPECT(metric_class("smsp__inst_executed.sum") == CLASS_INFO);
    EXPECT(metric_class("warpsim__barrier_inst.sum") == CLASS_SKIP);
    char *q = shell_quote("a'b c");
    EXPECT(!strcmp(q, "'a'\\''b c'"));
    free(q);
    EXPECT(fnv1a64((const unsigned char *)"", 0) == UINT64_C(0xcbf29ce484222325));
    EXPECT(fnv1a64((const unsigned char *)"a", 1) == UINT64_C(0xaf63dc4c8601ec8c));
    printf("%d passed, %d failed\n", fails ? 0 : 1, fails ? 1 : 0);
    return fails ? 1 : 0;
#undef EXPECT
}

/* ---- main --------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("usage: compare --warpsim PATH [--results DIR] [--mode O0] [--root DIR] [--exceptions FILE]\n"
          "               [--tolerance PCT] [--arch hopper] [--markdown] [--all]\n"
          "       compare --show FILE.csv [--metrics [ALIAS=]NAME,...] [--labels FILE.out]\n"
          "       compare --self-test\n"
          "  --results DIR  validate/results/<gpu> (default: the only folder under ROOT/validate/results)\n"
          "  --mode M       O0 (default; the exact comparison), O4 or real: a folder of DIR\n"
          "  --arch NAME    warpsim's architecture for every launch (default hopper: the GPUs are sm_90)\n"
          "  --all          also list the metrics that are 0 on both sides\n",
          f);
}

/* The single folder under ROOT/validate/results that holds a manifest.tsv;
 * NULL (with a message) otherwise. */
static char *default_results(const char *root)
{
    char *dir = xasprintf("%s/validate/results", root);
    DIR *d = opendir(dir);
    char *found = NULL;
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *p = xasprintf("%s/%s/manifest.tsv", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0) {
            n++;
            free(found);
            found = xasprintf("%s/%s", dir, e->d_name);
        }
        free(p);
    }
    if (d)
        closedir(d);
    if (n != 1) {
        fprintf(stderr, "compare: %s under %s: name one with --results\n",
                n ? "several result folders" : "no result folder (with a manifest.tsv)", dir);
        free(found);
        found = NULL;
    }
    free(dir);
    return found;
}

static char *gpu_name(const char *resdir)
{
    char *path = xasprintf("%s/env.txt", resdir);
    char *text = read_file(path, NULL);
    free(path);
    char *name = NULL;
    for (char *line = text; line && *line && !name;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (starts_with(line, "gpu: "))
            name = xstrdup(line + 5);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (!name) {
        const char *slash = strrchr(resdir, '/');
        name = xstrdup(slash && slash[1] ? slash + 1 : resdir);
    }
    return name;
}

int main(int argc, char **argv)
{
    const char *warpsim = NULL, *results = NULL, *mode = "O0", *root = ".", *exc = NULL;
    const char *show_path = NULL, *show_metrics = NULL, *show_labels = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **target = NULL;
        if (!strcmp(a, "--markdown")) {
            markdown = 1;
            continue;
        }
        if (!strcmp(a, "--all")) {
            show_all = 1;
            continue;
        }
        if (!strcmp(a, "--self-test"))
            return self_test();
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        const char *names[] = {"--warpsim", "--results", "--mode",    "--root",   "--exceptions",
                               "--tolerance", "--show",  "--metrics", "--labels", "--arch"};
        const char **targets[] = {&warpsim,   &results,   &mode,         &root,        &exc,
                                  NULL,       &show_path, &show_metrics, &show_labels, &sim_arch};
        const char *value = NULL;
        int which = -1;
        for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++) {
            size_t n = strlen(names[k]);
            if (!strncmp(a, names[k], n) && (a[n] == '\0' || a[n] == '=')) {
                which = k;
                if (a[n] == '=')
                    value = a + n + 1;
                else if (i + 1 < argc)
                    value = argv[++i];
                else {
                    fprintf(stderr, "compare: %s: missing value\n", names[k]);
                    return 2;
                }
            }
        }
        if (which < 0) {
            fprintf(stderr, "compare: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
        target = targets[which];
        if (target) {
            *target = value;
        } else {
            char *end;
            tolerance = strtod(value, &end);
            if (*end || !(tolerance >= 0)) {
                fprintf(stderr, "compare: --tolerance: expected a percentage, got '%s'\n", value);
                return 2;
            }
        }
    }
    if (show_path)
        return show(show_path, show_metrics, show_labels);
    if (!warpsim) {
        usage(stderr);
        return 2;
    }
    if (!strchr(warpsim, '/')) {
        /* a bare name is looked up in PATH by the shell: fine */
    } else if (access(warpsim, X_OK) != 0) {
        fprintf(stderr, "compare: --warpsim: '%s' is not an executable\n", warpsim);
        return 2;
    }
    char *resdir = results ? xstrdup(results) : default_results(root);
    if (!resdir)
        return 2;
    char *exc_path = exc ? xstrdup(exc) : xasprintf("%s/validate/EXCEPTIONS.txt", root);
    if (load_exceptions(exc_path, exc != NULL) != 0)
        return 2;
    char *manifest_path = xasprintf("%s/manifest.tsv", resdir);
    char *manifest = read_file(manifest_path, NULL);
    if (!manifest) {
        fprintf(stderr, "compare: cannot read '%s': %s\n", manifest_path, strerror(errno));
        return 2;
    }
    char *gpu = gpu_name(resdir);
    if (markdown)
        printf("# warpsim against %s (mode %s)\n\nResults: `%s`; exact metrics must be equal; shared wavefronts and bank "
               "conflicts may exceed warpsim by up to %g%% of its wavefronts (never fall below it).\n",
               gpu, mode, resdir, tolerance);
    else
        printf("warpsim against %s, mode %s (results %s, tolerance +%g%%)\n", gpu, mode, resdir, tolerance);

    /* manifest.tsv: mode, stem, launch, status, seconds, ptx ('-': the .launch's own, else
     * relative to --root: validate/store), then rows, sass, ptx_sha256 (not read here) */
    int entries = 0;
    for (char *line = manifest; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (*line && *line != '#') {
            char *f[6] = {0};
            int nf = 0;
            for (char *p = line; nf < 6;) {
                f[nf++] = p;
                char *tab = strchr(p, '\t');
                if (!tab)
                    break;
                *tab = '\0';
                p = tab + 1;
            }
            if (nf >= 4 && !strcmp(f[0], mode)) {
                entries++;
                const char *ptx = nf >= 6 && strcmp(f[5], "-") != 0 && f[5][0] ? f[5] : NULL;
                compare_file(warpsim, root, resdir, mode, f[1], f[2], ptx, f[3]);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!entries) {
        fprintf(stderr, "compare: no launch of mode %s in %s\n", mode, manifest_path);
        return 2;
    }

    const char *b = markdown ? "- " : "";
    printf("\n%s\n", markdown ? "## Summary\n" : "== Summary");
    printf("%s%d launch files, %d launches compared%s\n", b, stats.files - stats.files_skipped, stats.launches,
           stats.files_bad || stats.launches_bad ? " (see the problems below)" : "");
    if (stats.files_skipped)
        printf("%s%d launch files written for another architecture were not measured\n", b, stats.files_skipped);
    printf("%stolerance metrics: %d of %d within +%g%% (never below warpsim)\n", b, stats.tol_within, stats.tol_total,
           tolerance);
    if (stats.tol_excepted)
        printf("%stolerance metrics excepted by %s: %d\n", b, exc_path, stats.tol_excepted);
    printf("%sexact mismatches excepted by %s: %d\n", b, exc_path, stats.exact_excepted);
    printf("%sinformational metrics: %d (SASS-level counts); not measured on the GPU: %d\n", b, stats.info,
           stats.not_measured);
    printf("%sbuffers: %d of %d identical to warpsim's dumps (informational; %d with undefined contents skipped)\n", b,
           stats.buffers_same, stats.buffers, stats.buffers_skipped);
    for (int i = 0; i < nexceptions; i++)
        if (!exceptions[i].used)
            printf("%sunused exception (%s:%d): %s %s\n", b, exc_path, exceptions[i].line, exceptions[i].kernel,
                   exceptions[i].metric);
    if (nproblems) {
        printf("%s\n", markdown ? "\n### Problems\n" : "problems:");
        for (int i = 0; i < nproblems; i++)
            printf("%s%s\n", markdown ? "- " : "  ", problems[i].text);
    }
    printf("\n%d of %d exact metrics match (%s)\n", stats.exact_match, stats.exact_total, gpu);

    int fail = stats.exact_bad || stats.tol_bad || stats.files_bad || stats.launches_bad;
    for (int i = 0; i < nproblems; i++)
        free(problems[i].text);
    free(problems);
    for (int i = 0; i < nexceptions; i++) {
        free(exceptions[i].kernel);
        free(exceptions[i].metric);
        free(exceptions[i].reason);
    }
    free(exceptions);
    free(gpu);
    free(manifest);
    free(manifest_path);
    free(exc_path);
    free(resdir);
    return fail ? 1 : 0;
}
