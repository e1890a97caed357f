/*
 * validate/compare_time: warpsim's predicted durations against the GPU's.
 * Plain C11 + POSIX; needs no GPU.  See validate/README.md, "Time".
 *
 *   compare_time --warpsim PATH --results DIR [--root DIR] [--mode real|O4|O0] [--arch hopper] [--markdown]
 *                [--max-mape PCT] [--min-within PCT] [--pairs] [--min-main-stall PCT] [--max-sass-error PCT]
 *                [--skip STEM]
 *
 * For each launch of DIR/manifest.tsv measured in the mode (probes aside), it
 * runs `warpsim run X.launch --csv --metrics gpu__time_duration.sum --build MODE`
 * (with --ptx P for the real build, P the manifest's PTX under --root; O4, the
 * .launch's own PTX at the driver's default -O4, is predicted as a real build) and pairs
 * warpsim's rows with ncu's gpu__time_duration.sum in DIR/MODE/STEM.csv, in
 * launch order (N rows per launch, from run-on-gpu --repeat N: their mean). Printed: each launch's measured and predicted microseconds and
 * the error; then the mean absolute percentage error (MAPE), the share of
 * launches within 25%, and the course's "which version is faster" pairs: every
 * two launches of one file whose measured times differ by more than 10% (and
 * by 0.5 us: launch-bound noise) must be ordered the same way by the prediction.
 * Where the GPU run measured them (--timing): cycles, DRAM bytes, hit rates,
 * occupancy, the main stall reasons' cycles, and the share of launches whose
 * predicted main stall reason (the most cycles per warp) is the measured one.
 *
 * Exit status 1 when a limit given is not met (--max-mape, --min-within,
 * --pairs: every pair right, --min-main-stall: that share, --max-sass-error: the
 * mean error of the predicted SASS instruction count, the build's expansion) or warpsim fails
 * (--skip STEM leaves out one launch file of the manifest);
 * 2 for a bad command line.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/csvtable.h"

/* Launch-bound launches move by a few tenths of a microsecond between runs (the
 * first launch of a process is the slowest): a pair closer than this is noise. */
#define PAIR_MIN_US 0.5

typedef struct {
    char *stem, *kernel;
    double measured_us, predicted_us;
} launch_time;

static launch_time *times;

/* The timing model's other predictions, compared where the GPU run measured them
 * (run-on-gpu --timing): relative error for sizes (points 0), the difference in
 * points for percentages (1) and in cycles per warp for the stall ratios
 * (2, with the measured mean beside it). Byte counts under 1 MiB measured are
 * left out (mostly L2 traffic). */
static const struct {
    const char *metric, *label;
    int points;
    double min_measured;      /* sizes measured below it are left out */
    const char *gpu_metric;   /* ncu's name where it is not warpsim's */
} others[] = {
    /* first (--max-sass-error reads it): the build's expansion of PTX into SASS (sim/pipes.def,
     * sim/sass_o0.def), predicted issue slots against the SASS warp-instructions executed */
    {"warpsim__issue_slots.sum", "SASS instructions", 0, 1, "smsp__inst_executed.sum"},
    {"sm__cycles_elapsed.avg", "SM cycles", 0, 1, NULL},
    {"dram__bytes_read.sum", "DRAM bytes read (>= 1 MiB)", 0, 1048576, NULL},
    {"dram__bytes_write.sum", "DRAM bytes written (>= 1 MiB)", 0, 1048576, NULL},
    {"lts__t_sector_hit_rate.pct", "L2 hit rate", 1, 0, NULL},
    {"l1tex__t_sector_hit_rate.pct", "L1 hit rate", 1, 0, NULL},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy", 1, 0, NULL},
    {"smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio", "stall long_scoreboard", 2, 0, NULL},
    {"smsp__average_warp_latency_issue_stalled_barrier.ratio", "stall barrier", 2, 0, NULL},
    {"smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio", "stall short_scoreboard", 2, 0, NULL},
    {"smsp__average_warp_latency_issue_stalled_wait.ratio", "stall wait", 2, 0, NULL},
};
#define OTHERS (sizeof others / sizeof others[0])
static double other_error[OTHERS], other_measured[OTHERS];
static int other_count[OTHERS];

/* The stall reasons ncu reports (the time model's, sim/timing.h), for "which does a warp
 * wait on most": the predicted main reason against the measured one, per launch. */
static const char *const stall_reasons[] = {
    "long_scoreboard", "short_scoreboard", "wait", "barrier", "branch_resolving", "math_pipe_throttle",
    "mio_throttle", "lg_throttle", "not_selected",
};
#define REASONS (sizeof stall_reasons / sizeof stall_reasons[0])
static int main_stall_right, main_stall_launches;

static char *stall_metric(size_t i)
{
    return xasprintf("smsp__average_warp_latency_issue_stalled_%s.ratio", stall_reasons[i]);
}

static void compare_main_stall(const csv_table *sim, int srow, const csv_table *gpu, int grow, int repeat)
{
    int best_sim = -1, best_gpu = -1;
    double top_sim = 0, top_gpu = 0;
    for (size_t i = 0; i < REASONS; i++) {
        char *m = stall_metric(i);
        int sc = column(sim, m), gc = column(gpu, m);
        free(m);
        if (sc < 0 || gc < 0)
            return;
        double predicted = parse_number(cell(sim, srow, sc)), measured = 0;
        for (int k = 0; k < repeat; k++)
            measured += parse_number(cell(gpu, grow + k, gc)) / repeat;
        if (isnan(predicted) || isnan(measured))
            return;
        if (predicted > top_sim)
            top_sim = predicted, best_sim = (int)i;
        if (measured > top_gpu)
            top_gpu = measured, best_gpu = (int)i;
    }
    main_stall_launches++;
    main_stall_right += best_sim == best_gpu;
}

/* One launch's other predictions against the mean of its rows. */
static void compare_others(const csv_table *sim, int srow, const csv_table *gpu, int grow, int repeat)
{
    for (size_t m = 0; m < OTHERS; m++) {
        int sc = column(sim, others[m].metric),
            gc = column(gpu, others[m].gpu_metric ? others[m].gpu_metric : others[m].metric);
        if (sc < 0 || gc < 0)
            continue;
        double measured = 0, predicted = parse_number(cell(sim, srow, sc));
        for (int k = 0; k < repeat; k++)
            measured += parse_number(cell(gpu, grow + k, gc)) / repeat;
        if (isnan(measured) || isnan(predicted) || (!others[m].points && measured < others[m].min_measured))
            continue;
        other_error[m] += others[m].points ? fabs(predicted - measured) : fabs(predicted - measured) / measured * 100;
        other_measured[m] += measured;
        other_count[m]++;
    }
}
static int ntimes, captimes;

static void add_time(const char *stem, const char *kernel, double measured, double predicted)
{
    if (ntimes == captimes)
        times = xrealloc(times, sizeof *times * (size_t)(captimes = captimes ? 2 * captimes : 64));
    times[ntimes++] = (launch_time){xstrdup(stem), kernel_base(kernel), measured / 1000, predicted / 1000};
}

/* The measured durations of one launch file: ncu's gpu__time_duration.sum per row, in ns. */
static int measured_rows(const char *path, csv_table *t, int *col)
{
    char *text = read_file(path, NULL);
    if (!text || parse_csv(text, t) < 0) {
        free(text);
        return -1;
    }
    free(text);
    *col = column(t, "gpu__time_duration.sum");
    return *col < 0 ? -1 : 0;
}

/* One manifest line: mode, stem, launch, status, seconds, ptx, ... */
static const char *arch = "hopper";   /* --arch: the preset of the GPU measured */

static int compare_launch(const char *warpsim, const char *root, const char *resdir, const char *mode,
                          const char *stem, const char *launch, const char *ptx)
{
    char *path = xasprintf("%s/%s/%s.csv", resdir, mode, stem);
    csv_table gpu = {0};
    int gcol;
    if (measured_rows(path, &gpu, &gcol) < 0) {
        fprintf(stderr, "compare_time: %s: no gpu__time_duration.sum\n", path);
        free(path);
        free_table(&gpu);
        return 0;   /* nothing measured: not an error of the model */
    }
    free(path);
    char *qw = shell_quote(warpsim), *ql = shell_quote(launch);
    char *full_launch = xasprintf("%s/%s", root, launch);
    free(ql);
    ql = shell_quote(full_launch);
    char *ptx_flag = xstrdup("");
    if (strcmp(mode, "real") == 0 && strcmp(ptx, "-") != 0) {
        char *p = xasprintf("%s/%s", root, ptx);
        char *q = shell_quote(p);
        free(ptx_flag);
        ptx_flag = xasprintf(" --ptx %s", q);
        free(p);
        free(q);
    }
    char *metrics = xstrdup("gpu__time_duration.sum");
    for (size_t m = 0; m < OTHERS; m++) {
        char *more = xasprintf("%s,%s", metrics, others[m].metric);
        free(metrics);
        metrics = more;
    }
    for (size_t i = 0; i < REASONS; i++) {
        char *m = stall_metric(i), *more = xasprintf("%s,%s", metrics, m);
        free(m);
        free(metrics);
        metrics = more;
    }
    char *cmd = xasprintf("%s run %s%s --arch %s --build %s --csv --metrics %s 2>&1", qw, ql, ptx_flag, arch,
                          strcmp(mode, "O0") == 0 ? "O0" : "real", metrics);
    free(metrics);
    char *out;
    int status = run_warpsim(cmd, &out);
    csv_table sim = {0};
    int ok = status == 0 && parse_csv(out, &sim) == 0;
    int scol = ok ? column(&sim, "gpu__time_duration.sum") : -1, kcol = ok ? kernel_column(&sim) : -1;
    /* runner --repeat N: each launch N times in a row, N rows: their mean */
    int repeat = ok && sim.nrows > 0 && gpu.nrows % sim.nrows == 0 ? gpu.nrows / sim.nrows : 0;
    if (!ok || scol < 0 || kcol < 0 || repeat == 0) {
        fprintf(stderr, "compare_time: %s: warpsim failed or its launches do not line up with the GPU's (%d vs %d):\n%s\n",
                stem, sim.nrows, gpu.nrows, out);
        ok = 0;
    } else {
        for (int r = 0; r < sim.nrows; r++) {
            double sum = 0;
            for (int k = 0; k < repeat; k++)
                sum += parse_number(cell(&gpu, r * repeat + k, gcol));
            add_time(stem, cell(&sim, r, kcol), sum / repeat, parse_number(cell(&sim, r, scol)));
            compare_others(&sim, r, &gpu, r * repeat, repeat);
            compare_main_stall(&sim, r, &gpu, r * repeat, repeat);
        }
    }
    free_table(&sim);
    free_table(&gpu);
    free(out);
    free(cmd);
    free(qw);
    free(ql);
    free(full_launch);
    free(ptx_flag);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *warpsim = NULL, *resdir = NULL, *root = ".", *mode = "real";
    double max_mape = -1, min_within = -1, min_main_stall = -1, max_sass_error = -1;
    const char *skip = NULL;   /* --skip STEM: a launch file left out (the ctests leave out the slowest) */
    int markdown = 0, pairs_must_hold = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--markdown")) markdown = 1;
        else if (!strcmp(a, "--pairs")) pairs_must_hold = 1;
        else if (v && !strcmp(a, "--warpsim")) warpsim = v, i++;
        else if (v && !strcmp(a, "--results")) resdir = v, i++;
        else if (v && !strcmp(a, "--root")) root = v, i++;
        else if (v && !strcmp(a, "--mode")) mode = v, i++;
        else if (v && !strcmp(a, "--arch")) arch = v, i++;
        else if (v && !strcmp(a, "--max-mape")) max_mape = atof(v), i++;
        else if (v && !strcmp(a, "--min-within")) min_within = atof(v), i++;
        else if (v && !strcmp(a, "--min-main-stall")) min_main_stall = atof(v), i++;
        else if (v && !strcmp(a, "--max-sass-error")) max_sass_error = atof(v), i++;
        else if (v && !strcmp(a, "--skip")) skip = v, i++;
        else {
            fprintf(stderr, "usage: compare_time --warpsim PATH --results DIR [--root DIR] [--mode real|O4|O0] "
                            "[--arch PRESET] [--markdown] [--max-mape PCT] [--min-within PCT] [--pairs]\n"
                            "       [--min-main-stall PCT] [--max-sass-error PCT] [--skip STEM]\n");
            return 2;
        }
    }
    if (!warpsim || !resdir || (strcmp(mode, "real") && strcmp(mode, "O0") && strcmp(mode, "O4"))) {
        fprintf(stderr, "compare_time: --warpsim and --results are needed; --mode is real, O4 or O0\n");
        return 2;
    }
    char *manifest_path = xasprintf("%s/manifest.tsv", resdir);
    char *manifest = read_file(manifest_path, NULL);
    if (!manifest) {
        fprintf(stderr, "compare_time: cannot read %s\n", manifest_path);
        return 2;
    }
    int failures = 0;
    for (char *line = manifest, *end; line && *line; line = end) {
        end = strchr(line, '\n');
        if (end)
            *end++ = '\0';
        if (line[0] == '#')
            continue;
        char *f[6] = {0};
        int n = 0;
        for (char *p = line; n < 6 && p; n++) {
            f[n] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (n < 6 || strcmp(f[0], mode) || strcmp(f[3], "ok") || starts_with(f[1], "probes") ||
            (skip && !strcmp(f[1], skip)))
            continue;
        failures += compare_launch(warpsim, root, resdir, mode, f[1], f[2], f[5]) < 0;
    }
    free(manifest);
    free(manifest_path);

    double sum = 0;
    int within = 0;
    if (markdown)
        printf("| launch | kernel | measured (us) | predicted (us) | error |\n| --- | --- | ---: | ---: | ---: |\n");
    for (int i = 0; i < ntimes; i++) {
        launch_time *t = &times[i];
        double err = (t->predicted_us - t->measured_us) / t->measured_us * 100;
        sum += fabs(err);
        within += fabs(err) <= 25;
        printf(markdown ? "| %s | %s | %.2f | %.2f | %+.0f%% |\n" : "%-36s %-32s %8.2f %8.2f %+5.0f%%\n", t->stem,
               t->kernel, t->measured_us, t->predicted_us, err);
    }
    /* The course's comparisons: pairs of one file more than 10% apart on the GPU. */
    int pairs = 0, right = 0;
    for (int i = 0; i < ntimes; i++)
        for (int j = i + 1; j < ntimes && !strcmp(times[j].stem, times[i].stem); j++) {
            double mi = times[i].measured_us, mj = times[j].measured_us;
            if (fabs(mi - mj) <= 0.10 * (mi < mj ? mi : mj) || fabs(mi - mj) < PAIR_MIN_US)
                continue;
            pairs++;
            int ok = (mi < mj) == (times[i].predicted_us < times[j].predicted_us);
            right += ok;
            if (!ok)
                printf("%swrong order: %s: %s %.2f us vs %s %.2f us measured, %.2f vs %.2f predicted\n",
                       markdown ? "\n" : "", times[i].stem, times[i].kernel, mi, times[j].kernel, mj,
                       times[i].predicted_us, times[j].predicted_us);
        }
    for (size_t m = 0; m < OTHERS; m++) {
        if (!other_count[m])
            continue;
        printf("%s  %s: mean %s %.1f%s over %d launches", markdown ? "-" : "", others[m].label,
               others[m].points ? "difference" : "error", other_error[m] / other_count[m],
               others[m].points == 2 ? " cycles per warp" : others[m].points ? " points" : "%", other_count[m]);
        if (others[m].points == 2)
            printf(" (measured mean %.1f)", other_measured[m] / other_count[m]);
        putchar('\n');
    }
    double main_stall = main_stall_launches ? 100.0 * main_stall_right / main_stall_launches : 0;
    if (main_stall_launches)
        printf("%s  main stall reason: the measured one in %d of %d launches (%.0f%%)\n", markdown ? "-" : "",
               main_stall_right, main_stall_launches, main_stall);
    double mape = ntimes ? sum / ntimes : 0, share = ntimes ? 100.0 * within / ntimes : 0;
    printf("%s%s build: %d launches, MAPE %.1f%%, %.0f%% within 25%%, %d of %d faster/slower pairs right\n",
           markdown ? "\n" : "", mode, ntimes, mape, share, right, pairs);
    int fail = failures > 0;
    if (max_mape >= 0 && mape > max_mape) {
        printf("compare_time: MAPE %.1f%% is above the limit %.1f%%\n", mape, max_mape);
        fail = 1;
    }
    if (min_within >= 0 && share < min_within) {
        printf("compare_time: %.0f%% within 25%% is below the limit %.0f%%\n", share, min_within);
        fail = 1;
    }
    if (min_main_stall >= 0 && main_stall < min_main_stall) {
        printf("compare_time: the main stall reason is right in %.0f%% of the launches, below the limit %.0f%%\n",
               main_stall, min_main_stall);
        fail = 1;
    }
    /* others[0] is the SASS instruction count */
    double sass_error = other_count[0] ? other_error[0] / other_count[0] : 0;
    if (max_sass_error >= 0 && (!other_count[0] || sass_error > max_sass_error)) {
        printf("compare_time: the SASS instruction count is %.1f%% off, above the limit %.1f%%\n", sass_error,
               max_sass_error);
        fail = 1;
    }
    if (pairs_must_hold && right < pairs) {
        printf("compare_time: %d pairs in the wrong order\n", pairs - right);
        fail = 1;
    }
    for (int i = 0; i < ntimes; i++) {
        free(times[i].stem);
        free(times[i].kernel);
    }
    free(times);
    return fail;
}
