/* Reports: text (sections like Nsight Compute's), CSV (ncu --csv --page raw
 * layout), JSON, and PTX annotated line by line. */
#include "sim/report.h"
#include "sim/json.h"
#include "sim/report_lines.h"
#include "sim/sass.h"
#include "sim/platform.h"
#include "sim/report_time.h"
#include "sim/timing_result.h"

#include "sim/values.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- Metrics ------------------------------------------------------------------ */

enum { DERIVED_SIMT_EFFICIENCY = -2, DERIVED_WAVEFRONTS_PER_REQUEST = -3, DERIVED_SECTORS_PER_REQUEST = -4 };
/* The timing model's metrics (sim/timing.h): ids from -100 down, n/a without timing. */
enum {
    TIME_DURATION = -100, TIME_CYCLES = -101, TIME_ACHIEVED = -102, TIME_THEORETICAL = -103, TIME_REGS = -104,
    TIME_WAVES = -105, TIME_DRAM_READ = -106, TIME_DRAM_WRITE = -107, TIME_L2_HIT = -108, TIME_L1_HIT = -109,
    TIME_MEMORY = -110, TIME_SM = -111, TIME_ISSUE = -112, TIME_STALL = -120   /* - reason */
};

/* The metrics beyond the counters (sim/counters.c has those). */
static const ws_metric derived[] = {
    {"warpsim__simt_efficiency.pct", "%", "active lanes per warp-instruction, in % of 32", DERIVED_SIMT_EFFICIENCY},
    {"warpsim__shared_wavefronts_per_request.ratio", "wavefront", "shared wavefronts per shared load or store", DERIVED_WAVEFRONTS_PER_REQUEST},
    {"warpsim__global_sectors_per_request.ratio", "sector", "global sectors per global load or store request", DERIVED_SECTORS_PER_REQUEST},
    {"gpu__time_duration.sum", "ns", "predicted duration of the launch, launch overhead included", TIME_DURATION},
    {"sm__cycles_elapsed.avg", "cycle", "predicted SM cycles over the launch's duration", TIME_CYCLES},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "%", "predicted achieved occupancy", TIME_ACHIEVED},
    {"sm__maximum_warps_per_active_cycle_pct", "%", "theoretical occupancy", TIME_THEORETICAL},
    {"launch__registers_per_thread", "register/thread", "registers per thread the occupancy used (--regs, or estimated)", TIME_REGS},
    {"launch__waves_per_multiprocessor", "", "blocks over the blocks all SMs hold at once", TIME_WAVES},
    {"dram__bytes_read.sum", "byte", "predicted DRAM bytes read (cold caches, as ncu's --cache-control all)", TIME_DRAM_READ},
    {"dram__bytes_write.sum", "byte", "predicted DRAM bytes written", TIME_DRAM_WRITE},
    {"lts__t_sector_hit_rate.pct", "%", "predicted L2 sector hit rate", TIME_L2_HIT},
    {"l1tex__t_sector_hit_rate.pct", "%", "predicted L1 sector hit rate of global and local loads", TIME_L1_HIT},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "%", "predicted busiest memory unit, % of its peak", TIME_MEMORY},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", "predicted busiest SM unit (issue, pipes), % of its peak", TIME_SM},
    {"smsp__issue_active.avg.pct_of_peak_sustained_active", "%", "predicted share of cycles a scheduler issues", TIME_ISSUE},
#define X(id, name, what) {"smsp__average_warp_latency_issue_stalled_" name ".ratio", "", "predicted: " what, TIME_STALL - WS_STALL_##id},
    WS_STALL_REASONS(X)
#undef X
};

size_t ws_metric_count(void) { return WS_CTR_COUNT + sizeof derived / sizeof derived[0]; }
const ws_metric *ws_metric_at(size_t i)
{
    return i < WS_CTR_COUNT ? &ws_counters[i] : i < ws_metric_count() ? &derived[i - WS_CTR_COUNT] : NULL;
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static double counters_value(const uint64_t *c, int counter)
{
    switch (counter) {
    case DERIVED_SIMT_EFFICIENCY:
        return 100.0 * ratio(c[WS_CTR_thread_inst_executed], c[WS_CTR_inst_executed] * WS_WARP_SIZE);
    case DERIVED_WAVEFRONTS_PER_REQUEST:
        return ratio(c[WS_CTR_shared_wavefronts], c[WS_CTR_shared_ld_inst] + c[WS_CTR_shared_st_inst]);
    case DERIVED_SECTORS_PER_REQUEST:
        return ratio(c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors],
                     c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests]);
    default:
        return (double)c[counter];
    }
}

static double timing_value(const ws_timing_result *r, int metric)
{
    switch (metric) {
    case TIME_DURATION: return r->duration_ns;
    case TIME_CYCLES: return r->elapsed_cycles;
    case TIME_ACHIEVED: return r->achieved_occupancy;
    case TIME_THEORETICAL: return r->theoretical_occupancy;
    case TIME_REGS: return r->regs;
    case TIME_WAVES: return r->waves;
    case TIME_DRAM_READ: return (double)r->dram_read_bytes;
    case TIME_DRAM_WRITE: return (double)r->dram_write_bytes;
    case TIME_L2_HIT: return r->l2_hit_rate;
    case TIME_L1_HIT: return r->l1_hit_rate;
    case TIME_MEMORY: return r->memory_throughput;
    case TIME_SM: return r->sm_throughput;
    case TIME_ISSUE: return r->issue_active;
    default: return r->stall[TIME_STALL - metric];
    }
}

/* NaN for a timing metric of a launch that ran without the timing model. */
double ws_metric_value(const ws_launch *l, const ws_metric *m)
{
    if (m->counter <= TIME_DURATION) {
        const ws_timing_result *r = ws_timing_result_of(l);
        return r ? timing_value(r, m->counter) : NAN;
    }
    return counters_value(l->counters, m->counter);
}

/* ---- Rollups (ncu's .avg, .max, .min, .sum and .sum.per_second) ---------------------
 * A counter's entry is its .sum; ncu also reports it over its units: .avg (the sum over the
 * number of units: SM sub-partitions for smsp__, L1TEX units, one per SM, for l1tex__, SMs for
 * sm__, one GPU for gpu__), .max and .min (the busiest and idlest unit) and .per_second (over
 * gpu__time_duration). warpsim keeps its counters per instruction, not per SM, so .max and .min
 * exist only where there is one unit (gpu__). selected[i] holds these bits: the entry as named,
 * and the rollups asked of it. */
enum { ROLL_NAMED = 1, ROLL_AVG = 2, ROLL_MAX = 4, ROLL_MIN = 8, ROLL_SUM_PER_SECOND = 16, ROLL_AVG_PER_SECOND = 32 };
static const struct { int roll; const char *suffix; } rollups[] = {
    {ROLL_AVG, ".avg"}, {ROLL_MAX, ".max"}, {ROLL_MIN, ".min"},
    {ROLL_SUM_PER_SECOND, ".sum.per_second"}, {ROLL_AVG_PER_SECOND, ".avg.per_second"},
};
#define ROLLUP_COUNT (sizeof rollups / sizeof rollups[0])

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static int has_prefix(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* The units a metric's .avg divides by (0: none warpsim knows: dram__, lts__, warpsim__'s own). */
static uint64_t rollup_units(const ws_arch *a, const char *metric)
{
    uint64_t sms = a && a->sm_count ? a->sm_count : 1;
    if (has_prefix(metric, "smsp__"))
        return sms * (a && a->subpartitions ? a->subpartitions : 1);
    if (has_prefix(metric, "l1tex__") || has_prefix(metric, "sm__"))
        return sms;
    if (has_prefix(metric, "gpu__"))
        return 1;
    return 0;
}

/* The rollups a table entry has (its .sum's: a counter, DRAM bytes, the duration). */
static int rollups_of(const ws_metric *m)
{
    if (!ends_with(m->metric, ".sum"))
        return 0;
    int r = m->counter == TIME_DURATION ? 0 : ROLL_SUM_PER_SECOND;
    if (rollup_units(NULL, m->metric)) {
        r |= ROLL_AVG | (m->counter == TIME_DURATION ? 0 : ROLL_AVG_PER_SECOND);
        if (has_prefix(m->metric, "gpu__"))   /* one unit: its .max and .min are its .sum */
            r |= ROLL_MAX | ROLL_MIN;
    }
    return r;
}

static const char *rollup_suffix(int roll)
{
    for (size_t k = 0; k < ROLLUP_COUNT; k++)
        if (rollups[k].roll == roll)
            return rollups[k].suffix;
    return "";
}

/* A column's name: the entry's, or its base (the name less .sum) and the rollup. */
static const char *column_name(const ws_metric *m, int roll, char *buf, size_t n)
{
    if (roll == ROLL_NAMED)
        return m->metric;
    snprintf(buf, n, "%.*s%s", (int)(strlen(m->metric) - 4), m->metric, rollup_suffix(roll));
    return buf;
}

static const char *column_unit(const ws_metric *m, int roll, char *buf, size_t n)
{
    if (roll != ROLL_SUM_PER_SECOND && roll != ROLL_AVG_PER_SECOND)
        return m->unit;
    snprintf(buf, n, "%s/s", m->unit[0] ? m->unit : "1");
    return buf;
}

/* A column's value for a launch: NaN where it needs the timing model and the launch ran without. */
static double column_value(const ws_launch *l, const ws_metric *m, int roll)
{
    double v = ws_metric_value(l, m);
    if (roll == ROLL_NAMED || roll == ROLL_MAX || roll == ROLL_MIN)
        return v;
    if (roll == ROLL_AVG || roll == ROLL_AVG_PER_SECOND)
        v /= (double)rollup_units(l->arch, m->metric);
    if (roll == ROLL_AVG)
        return v;
    const ws_timing_result *r = ws_timing_result_of(l);
    return r && r->duration_ns > 0 ? v / (r->duration_ns * 1e-9) : NAN;
}

/* "a .sum, .avg, ..." of what entry m has, for messages. */
static void list_rollups(const ws_metric *m, char *buf, size_t n)
{
    int have = rollups_of(m);
    size_t k = (size_t)snprintf(buf, n, ".sum");
    for (size_t i = 0; i < ROLLUP_COUNT && k < n; i++)
        if (have & rollups[i].roll)
            k += (size_t)snprintf(buf + k, n - k, ", %s", rollups[i].suffix);
}

static size_t find_metric(const char *name, size_t len)
{
    size_t n = ws_metric_count();
    for (size_t i = 0; i < n; i++)
        if (strlen(ws_metric_at(i)->metric) == len && !strncmp(ws_metric_at(i)->metric, name, len))
            return i;
    return n;
}

/* One name of a --metrics list: a table entry, a rollup of one, or a base name without a rollup
 * (every rollup of it warpsim has, as ncu then prints .avg, .max, .min and .sum). */
static int select_name(const char *p, size_t len, int *selected, char *err, size_t errlen)
{
    size_t n = ws_metric_count(), i = find_metric(p, len);
    char name[512], have[160];
    if (i < n) {
        selected[i] |= ROLL_NAMED;
        return 0;
    }
    snprintf(name, sizeof name, "%.*s", (int)len, p);
    /* a base name: its .sum entry and that entry's rollups, or its .avg entry (sm__cycles_elapsed) */
    char with[520];
    snprintf(with, sizeof with, "%s.sum", name);
    if ((i = find_metric(with, strlen(with))) < n) {
        selected[i] |= ROLL_NAMED | (rollups_of(ws_metric_at(i)) & (ROLL_AVG | ROLL_MAX | ROLL_MIN));
        return 0;
    }
    snprintf(with, sizeof with, "%s.avg", name);
    if ((i = find_metric(with, strlen(with))) < n) {
        selected[i] |= ROLL_NAMED;
        return 0;
    }
    /* a rollup of an entry: BASE.avg, .max, .min, .sum.per_second, .avg.per_second; else the
     * rollups and submetrics ncu has and warpsim does not (.per_second alone, .pct_of_peak_...) */
    static const char *const others[] = {".per_second", ".avg.pct_of_peak_sustained_active",
        ".avg.pct_of_peak_sustained_elapsed", ".sum.pct_of_peak_sustained_active",
        ".sum.pct_of_peak_sustained_elapsed", ".max.pct_of_peak_sustained_active",
        ".max.pct_of_peak_sustained_elapsed", ".avg.per_cycle_active", ".avg.per_cycle_elapsed",
        ".sum.per_cycle_active", ".sum.per_cycle_elapsed", ".sum.peak_sustained", ".avg.peak_sustained"};
    int roll = 0;
    size_t base = 0;
    for (size_t k = 0; k < ROLLUP_COUNT && !roll; k++)
        if (ends_with(name, rollups[k].suffix))
            roll = rollups[k].roll, base = strlen(name) - strlen(rollups[k].suffix);
    for (size_t k = 0; k < sizeof others / sizeof others[0] && !roll && !base; k++)
        if (ends_with(name, others[k]))
            base = strlen(name) - strlen(others[k]);
    if (!base) {
        snprintf(err, errlen, "warpsim run: --metrics: unknown metric '%s' (`warpsim run --help` lists them)", name);
        return -1;
    }
    snprintf(with, sizeof with, "%.*s.sum", (int)base, name);
    if ((i = find_metric(with, strlen(with))) == n) {
        snprintf(err, errlen, "warpsim run: --metrics: unknown metric '%s': warpsim has no %.*s (`warpsim run --help` "
                 "lists what it has)", name, (int)base, name);
        return -1;
    }
    const ws_metric *m = ws_metric_at(i);
    if (roll && (rollups_of(m) & roll)) {
        selected[i] |= roll;
        return 0;
    }
    list_rollups(m, have, sizeof have);
    const char *why = "";
    if (roll == ROLL_MAX || roll == ROLL_MIN)
        why = ": .max and .min need each unit's own count, and warpsim keeps its counters per instruction, not per "
              "SM or sub-partition (keeping them per block costs up to 3% more host time, and which SM the card's "
              "scheduler gives each block is not modelled)";
    else if (roll == ROLL_AVG || roll == ROLL_AVG_PER_SECOND)
        why = ": warpsim does not know how many units this metric's counts spread over";
    else if (ends_with(name, ".per_second") && !roll)
        why = ": ncu names the rate of a rollup (.sum.per_second)";
    else if (strstr(name, "pct_of_peak") || strstr(name, "per_cycle") || strstr(name, "peak_sustained"))
        why = ": warpsim does not know this counter's sustained peak per unit and cycle";
    snprintf(err, errlen, "warpsim run: --metrics: cannot compute '%s'%s; %.*s has %s", name, why, (int)base, name,
             have);
    return -1;
}

int ws_metrics_select(const char *list, int *selected, char *err, size_t errlen)
{
    size_t n = ws_metric_count();
    for (size_t i = 0; i < n; i++)
        selected[i] = list == NULL ? ROLL_NAMED : 0;
    if (!list)
        return 0;
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        size_t i;
        if (len > 6 && !strncmp(p, "regex:", 6)) {   /* ncu's form: every metric the expression matches */
            char expr[512];
            ws_regex re;
            snprintf(expr, sizeof expr, "%.*s", (int)(len - 6), p + 6);
            if (ws_regex_compile(&re, expr) != 0) {
                snprintf(err, errlen, "warpsim run: --metrics: 'regex:%s' is not a regular expression", expr);
                return -1;
            }
            int matched = 0;
            for (i = 0; i < n; i++)
                if (ws_regex_match(&re, ws_metric_at(i)->metric))
                    selected[i] |= ROLL_NAMED, matched = 1;
            ws_regex_free(&re);
            if (!matched) {
                snprintf(err, errlen, "warpsim run: --metrics: 'regex:%s' matches no metric (`warpsim run --help` "
                         "lists them)", expr);
                return -1;
            }
            p += len + (end ? 1 : 0);
            continue;
        }
        if (select_name(p, len, selected, err, errlen) < 0)
            return -1;
        p += len + (end ? 1 : 0);
    }
    return 0;
}

/* The columns a selection makes: (entry, rollup) pairs, in the table's order. */
typedef struct { size_t metric; int roll; char name[192]; } column;

static column *selected_columns(const int *selected, size_t *count)
{
    size_t n = ws_metric_count(), k = 0;
    column *c = malloc(sizeof *c * (n * (ROLLUP_COUNT + 1) + 1));
    if (!c)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        for (size_t r = 0; r <= ROLLUP_COUNT; r++) {
            int roll = r ? rollups[r - 1].roll : ROLL_NAMED;
            if (!(selected[i] & roll))
                continue;
            c[k].metric = i;
            c[k].roll = roll;
            char buf[192];
            snprintf(c[k].name, sizeof c[k].name, "%s", column_name(ws_metric_at(i), roll, buf, sizeof buf));
            k++;
        }
    }
    *count = k;
    return c;
}

/* ---- CSV and JSON ------------------------------------------------------------ */

static void csv_field(FILE *f, const char *s, int last)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputs(last ? "\"\n" : "\",", f);
}

/* A value as ncu's CSV prints it: numbers with thousands separators, integers
 * without decimals ("1,884,160"), other numbers with two ("2,110.06"). */
static const char *csv_number(double v, char *buf, size_t n)
{
    if (isnan(v))
        return "n/a";   /* as ncu prints a metric it could not collect */
    if (v == (double)(uint64_t)v && v < 1e19)
        return ws_grouped_u64((uint64_t)v, buf, n);
    if (!(v >= 0 && v < 1e16)) {   /* beyond, llround of the hundredths would overflow */
        snprintf(buf, n, "%.2f", v);
        return buf;
    }
    uint64_t hundredths = (uint64_t)llround(v * 100);
    char whole[40];
    snprintf(buf, n, "%s.%02u", ws_grouped_u64(hundredths / 100, whole, sizeof whole), (unsigned)(hundredths % 100));
    return buf;
}

static int by_column_name(const void *a, const void *b)
{
    return strcmp(((const column *)a)->name, ((const column *)b)->name);
}

/* The layout of `ncu --csv --page raw` (validate/reference/results/ holds ncu's
 * own): the fixed columns, then the metrics in alphabetical order; a units
 * row; one row per launch. warpsim is the "process" for a .ptx run, the
 * program for a .cu one; context 1, stream 7 and host 127.0.0.1 as ncu reports
 * a local process's default stream. */
void ws_report_csv(const ws_session *s, const int *selected, FILE *f)
{
    size_t count = 0;
    column *cols = selected_columns(selected, &count);
    if (!cols)
        return;
    qsort(cols, count, sizeof *cols, by_column_name);
    static const char *fixed[] = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
                                  "Stream", "Block Size", "Grid Size", "Device", "CC"};
    const size_t nfixed = sizeof fixed / sizeof fixed[0];
    for (size_t i = 0; i < nfixed; i++)
        csv_field(f, fixed[i], i + 1 == nfixed && count == 0);
    for (size_t i = 0; i < count; i++)
        csv_field(f, cols[i].name, i + 1 == count);
    for (size_t i = 0; i < nfixed; i++)
        csv_field(f, "", i + 1 == nfixed && count == 0);
    for (size_t i = 0; i < count; i++) {
        char unit[64];
        csv_field(f, column_unit(ws_metric_at(cols[i].metric), cols[i].roll, unit, sizeof unit), i + 1 == count);
    }
    char pid[32], cc[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    snprintf(cc, sizeof cc, "%u.%u", s->arch.cc_major, s->arch.cc_minor);
    for (int li = 0; li < s->launch_count; li++) {
        const ws_launch *l = &s->launches[li];
        char id[32], grid[96], block[96], device[16];
        snprintf(id, sizeof id, "%d", li);
        snprintf(device, sizeof device, "%d", l->device);
        snprintf(grid, sizeof grid, "(%u, %u, %u)", l->grid[0], l->grid[1], l->grid[2]);
        snprintf(block, sizeof block, "(%u, %u, %u)", l->block_dim[0], l->block_dim[1], l->block_dim[2]);
        const char *row[] = {id, pid, s->process_name ? s->process_name : "warpsim", "127.0.0.1", ws_launch_name(l),
                             "1", "7", block, grid, device, cc};
        for (size_t i = 0; i < nfixed; i++)
            csv_field(f, row[i], i + 1 == nfixed && count == 0);
        for (size_t i = 0; i < count; i++) {
            char value[48];
            csv_field(f, csv_number(column_value(l, ws_metric_at(cols[i].metric), cols[i].roll), value, sizeof value),
                      i + 1 == count);
        }
    }
    free(cols);
}

/* A metric's value in JSON, of a type that depends on the metric alone: counters are
 * integers, ratios numbers with a fraction (1.0000, never 1), so a schema can say which. */
static void json_metric_value(FILE *f, const ws_launch *l, const ws_metric *m, int roll)
{
    double v = m->counter >= 0 && roll == ROLL_NAMED ? 0 : column_value(l, m, roll);
    if (m->counter >= 0 && roll == ROLL_NAMED)
        fprintf(f, "%" PRIu64, l->counters[m->counter]);
    else if (isnan(v))
        fputs("null", f);   /* a timing metric of a launch run with --no-timing */
    else
        fprintf(f, "%.4f", v);
}

void ws_report_json(const ws_session *s, const int *selected, FILE *f)
{
    /* the layout is README.md's "The --json output"; schema_version changes when it does */
    fprintf(f, "{\n  \"tool\": \"warpsim\",\n  \"schema_version\": %d,\n  \"arch\": ", WS_JSON_SCHEMA_VERSION);
    ws_json_string(f, s->arch.name);
    fputs(",\n  \"ptx\": ", f);
    ws_json_string(f, s->module->path);
    fputs(",\n  \"launches\": [", f);
    for (int li = 0; li < s->launch_count; li++) {
        const ws_launch *l = &s->launches[li];
        fprintf(f, "%s\n    {\n      \"id\": %d,\n      \"kernel\": ", li ? "," : "", li);
        ws_json_string(f, ws_launch_name(l));
        if (l->display_name) {
            fputs(", \"mangled_name\": ", f);
            ws_json_string(f, l->kernel->name);
        }
        if (l->device_launched && l->parent >= 0)
            fprintf(f, ", \"parent\": %d", l->parent);
        else if (l->device_launched)
            fputs(", \"parent\": null", f);
        fprintf(f, ",\n      \"grid\": [%u, %u, %u],\n      \"block\": [%u, %u, %u],\n",
                l->grid[0], l->grid[1], l->grid[2], l->block_dim[0], l->block_dim[1], l->block_dim[2]);
        if (s->options->stats)   /* wall-clock time only when asked: the rest is the same run after run */
            fprintf(f, "      \"seconds\": %.6f,\n", s->seconds[li]);
        fputs("      \"metrics\": {", f);
        size_t count = 0;
        column *cols = selected_columns(selected, &count);
        for (size_t i = 0; cols && i < count; i++) {
            fprintf(f, "%s\n        ", i ? "," : "");
            ws_json_string(f, cols[i].name);
            fputs(": ", f);
            json_metric_value(f, l, ws_metric_at(cols[i].metric), cols[i].roll);
        }
        free(cols);
        fputs("\n      },\n      \"lines\": [", f);
        int n;
        ws_line_totals *lines = ws_gather_lines(l, &n);
        for (int k = 0; k < n; k++) {
            const uint64_t *c = lines[k].c;
            char pos[512];
            const ptx_function *F = &l->module->functions[lines[k].function];
            ws_source_position(l->module, &F->instrs[lines[k].first_instr], 1, pos, sizeof pos);
            fprintf(f, "%s\n        {\"line\": %d, ", k ? "," : "", lines[k].line);
            if (pos[0]) {
                fputs("\"source\": ", f);
                ws_json_string(f, pos);
                fputs(", ", f);
            }
            fprintf(f, "\"inst_executed\": %" PRIu64 ", \"thread_inst_executed\": %" PRIu64
                    ", \"shared_wavefronts\": %" PRIu64 ", \"shared_bank_conflicts\": %" PRIu64
                    ", \"global_requests\": %" PRIu64 ", \"global_sectors\": %" PRIu64
                    ", \"divergent_branch_targets\": %" PRIu64,
                    c[WS_CTR_inst_executed], c[WS_CTR_thread_inst_executed],
                    c[WS_CTR_shared_wavefronts], c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts],
                    c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests],
                    c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors], c[WS_CTR_branch_targets_divergent]);
            if (ws_timing_result_of(l)) {   /* the timing model's cycles on this line */
                fprintf(f, ", \"issue_slots\": %" PRIu64 ", \"stall_cycles\": {", c[WS_CTR_issue_slots]);
                for (int r = 0; r < WS_STALL_SELECTED; r++)
                    fprintf(f, "%s\"%s\": %" PRIu64, r ? ", " : "", ws_stall_names[r], c[WS_CTR_stall_long_scoreboard + r]);
                fputc('}', f);
            }
            fputc('}', f);
        }
        free(lines);
        fputs("\n      ],\n      \"instruction_mix\": [", f);
        ws_mix_totals *mix = ws_gather_mix(l, &n);
        for (int k = 0; k < n; k++) {
            fprintf(f, "%s\n        {\"kind\": ", k ? "," : "");
            ws_json_string(f, mix[k].kind);
            fputs(", \"o0_class\": ", f);
            ws_json_string(f, ws_o0_class_names[mix[k].o0_class]);
            fprintf(f, ", \"inst_executed\": %" PRIu64, mix[k].c[WS_CTR_inst_executed]);
            if (ws_timing_result_of(l))
                fprintf(f, ", \"issue_slots\": %" PRIu64, mix[k].c[WS_CTR_issue_slots]);
            fputc('}', f);
        }
        free(mix);
        fputs("\n      ]\n    }", f);
    }
    fputs("\n  ]\n}\n", f);
}

/* ---- Text ------------------------------------------------------------------------ */

#define RED(c) ((c) ? "\033[31m" : "")
#define BOLD(c) ((c) ? "\033[1m" : "")
#define DIM(c) ((c) ? "\033[2m" : "")
#define RESET(c) ((c) ? "\033[0m" : "")

static void row(FILE *f, const char *label, uint64_t value, const char *metric, int color)
{
    fprintf(f, "    %-34s %14" PRIu64 "   %s%s%s\n", label, value, DIM(color), metric, RESET(color));
}

/* Cycles a line loses, for ranking: extra wavefronts, extra sectors, divergence. */
static uint64_t line_cost(const uint64_t *c)
{
    uint64_t req = c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests];
    uint64_t sec = c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors];
    uint64_t extra_sectors = sec > 4 * req ? sec - 4 * req : 0;
    uint64_t atom_passes = c[WS_CTR_shared_atom_wavefronts], atoms = c[WS_CTR_shared_atom_inst];
    uint64_t extra_atom_passes = atom_passes > atoms ? atom_passes - atoms : 0;
    return c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts] + extra_sectors +
           c[WS_CTR_local_ld_sectors] + c[WS_CTR_local_st_sectors] + c[WS_CTR_branch_targets_divergent] +
           extra_atom_passes + c[WS_CTR_global_atom_same_address];
}

static int cost_cmp(const void *a, const void *b)
{
    uint64_t x = line_cost(((const ws_line_totals *)a)->c), y = line_cost(((const ws_line_totals *)b)->c);
    return x < y ? 1 : x > y ? -1 : ((const ws_line_totals *)a)->line - ((const ws_line_totals *)b)->line;
}

/* A line as the worst-lines lists show it: its number, its first instruction, its CUDA line. */
static void line_heading(FILE *f, const ws_launch *l, const ws_line_totals *t, int color)
{
    const ptx_function *F = &l->module->functions[t->function];
    char pos[512];
    fprintf(f, "    %sline %-5d%s ", BOLD(color), t->line, RESET(color));
    ptx_print_instr(l->module, F, &F->instrs[t->first_instr], f);
    if (ws_source_position(l->module, &F->instrs[t->first_instr], 0, pos, sizeof pos)[0])
        fprintf(f, "   %s// %s%s", DIM(color), pos, RESET(color));   /* the CUDA line it came from */
    fputc('\n', f);
}

static int stall_cmp(const void *a, const void *b)
{
    uint64_t x = ws_line_stall_cycles(((const ws_line_totals *)a)->c), y = ws_line_stall_cycles(((const ws_line_totals *)b)->c);
    return x < y ? 1 : x > y ? -1 : ((const ws_line_totals *)a)->line - ((const ws_line_totals *)b)->line;
}

/* The timing model's lines where warps wait most (ncu's Source page, by warp stalls):
 * up to 3 that hold a tenth of the kernel's stall cycles or more. */
static void waiting_lines(FILE *f, const ws_launch *l, ws_line_totals *lines, int n, int color)
{
    uint64_t kernel = ws_line_stall_cycles(l->counters);
    if (!ws_timing_result_of(l) || !kernel)
        return;
    qsort(lines, (size_t)n, sizeof *lines, stall_cmp);
    for (int k = 0; k < n && k < 3 && 10 * ws_line_stall_cycles(lines[k].c) >= kernel; k++) {
        if (!k)
            fprintf(f, "  Where warps wait (predicted stall cycles by line)\n");
        line_heading(f, l, &lines[k], color);
        ws_report_time_line(l, lines[k].c, f, color);
    }
}

static void describe_line(FILE *f, const ws_launch *l, const ws_line_totals *t, int color)
{
    const uint64_t *c = t->c;
    line_heading(f, l, t, color);
    uint64_t shared_req = c[WS_CTR_shared_ld_inst] + c[WS_CTR_shared_st_inst];
    uint64_t global_req = c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests];
    if (shared_req)
        fprintf(f, "               %s%.2f wavefronts per request%s (%" PRIu64 " requests, %" PRIu64 " bank conflicts)\n",
                RED(color && c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts]),
                ratio(c[WS_CTR_shared_wavefronts], shared_req), RESET(color), shared_req,
                c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts]);
    if (global_req)
        fprintf(f, "               %.2f sectors per request (%" PRIu64 " requests)\n",
                ratio(c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors], global_req), global_req);
    if (c[WS_CTR_shared_atom_inst])
        fprintf(f, "               %s%.2f wavefronts per shared atomic%s (%" PRIu64 " requests; lanes on one bank are "
                "serialised)\n", RED(color && c[WS_CTR_shared_atom_wavefronts] > c[WS_CTR_shared_atom_inst]),
                ratio(c[WS_CTR_shared_atom_wavefronts], c[WS_CTR_shared_atom_inst]), RESET(color), c[WS_CTR_shared_atom_inst]);
    if (c[WS_CTR_global_atom_same_address])
        fprintf(f, "               %s%" PRIu64 " global atomic updates serialised%s (a lane on a word another lane of its "
                "warp updates)\n", RED(color), c[WS_CTR_global_atom_same_address], RESET(color));
    if (c[WS_CTR_local_ld_inst] + c[WS_CTR_local_st_inst])
        fprintf(f, "               local memory: %" PRIu64 " sectors\n", c[WS_CTR_local_ld_sectors] + c[WS_CTR_local_st_sectors]);
    if (c[WS_CTR_branch_targets_divergent])
        fprintf(f, "               %s%" PRIu64 " divergent branch targets%s\n", RED(color),
                c[WS_CTR_branch_targets_divergent], RESET(color));
    ws_report_time_line(l, c, f, color);
}

/* Several launches: one line each, side by side, so a class can compare versions. */
static void summary_table(const ws_session *s, FILE *f, int color)
{
    size_t width = 6;
    for (int li = 0; li < s->launch_count; li++)
        if (strlen(ws_launch_name(&s->launches[li])) > width)
            width = strlen(ws_launch_name(&s->launches[li]));
    fprintf(f, "\n%sSide by side%s\n  %-*s %12s %9s %9s %12s %9s %9s %8s\n", BOLD(color), RESET(color), (int)width, "kernel",
            "warp-inst", "SIMT eff", "sh ld wf", "bank confl", "sh st wf", "sectors", "diverg");
    fprintf(f, "  %-*s %12s %9s %9s %12s %9s %9s %8s\n", (int)width, "", "", "", "/request", "", "/request", "/request",
            "branches");
    for (int li = 0; li < s->launch_count; li++) {
        const uint64_t *c = s->launches[li].counters;
        char ld[16] = "-", st[16] = "-", sec[16] = "-";
        if (c[WS_CTR_shared_ld_inst])
            snprintf(ld, sizeof ld, "%.2f", ratio(c[WS_CTR_shared_ld_wavefronts], c[WS_CTR_shared_ld_inst]));
        if (c[WS_CTR_shared_st_inst])
            snprintf(st, sizeof st, "%.2f", ratio(c[WS_CTR_shared_st_wavefronts], c[WS_CTR_shared_st_inst]));
        if (c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests])
            snprintf(sec, sizeof sec, "%.2f", counters_value(c, DERIVED_SECTORS_PER_REQUEST));
        uint64_t conflicts = c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts];
        fprintf(f, "  %-*s %12" PRIu64 " %8.1f%% %s%9s%s %12" PRIu64 " %9s %9s %8" PRIu64 "\n", (int)width,
                ws_launch_name(&s->launches[li]), c[WS_CTR_inst_executed], counters_value(c, DERIVED_SIMT_EFFICIENCY),
                RED(color && conflicts), ld, RESET(color && conflicts), conflicts, st, sec,
                c[WS_CTR_branch_targets_divergent]);
    }
}

void ws_report_text(const ws_session *s, FILE *f, int color)
{
    for (int li = 0; li < s->launch_count; li++) {
        const ws_launch *l = &s->launches[li];
        const uint64_t *c = l->counters;
        uint32_t threads = l->block_dim[0] * l->block_dim[1] * l->block_dim[2];
        fprintf(f, "%s%s%s  grid (%u,%u,%u)  block (%u,%u,%u)  on %s (%s)", BOLD(color), ws_launch_name(l), RESET(color),
                l->grid[0], l->grid[1], l->grid[2], l->block_dim[0], l->block_dim[1], l->block_dim[2],
                s->arch.name, s->arch.display_name);
        if (l->display_name)
            fprintf(f, "\n  PTX name %s", l->kernel->name);
        if (s->launch_count > 1)
            fprintf(f, "  [launch %d of %d]", li + 1, s->launch_count);
        if (l->device_launched && l->parent >= 0 && l->parent < s->launch_count)
            fprintf(f, "\n  launched from the device by launch %d (%s)", l->parent + 1,
                    ws_launch_name(&s->launches[l->parent]));
        else if (l->device_launched)
            fputs("\n  launched from the device by a grid the report leaves out", f);
        fputc('\n', f);
        ws_report_time_text(l, f, color);
        fprintf(f, "  Launch\n");
        fprintf(f, "    %-34s %14u\n", "warps per block", (threads + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
        fprintf(f, "    %-34s %14" PRIu64 "\n", "shared memory per block (bytes)", l->shared_size);
        if (!ws_timing_result_of(l)) {   /* the Time section gives it with registers counted */
            const char *limit;
            uint32_t resident = ws_arch_blocks_per_sm(&s->arch, threads, l->shared_size, &limit);
            fprintf(f,
                    "    %-34s %14u   %s(limited by %s; registers not counted under --no-timing: the Time section "
                    "counts them)%s\n",
                    "blocks resident per SM", resident, DIM(color), limit, RESET(color));
        }
        row(f, "warp-instructions", c[WS_CTR_inst_executed], ws_counters[WS_CTR_inst_executed].metric, color);
        row(f, "thread-instructions", c[WS_CTR_thread_inst_executed], ws_counters[WS_CTR_thread_inst_executed].metric, color);
        fprintf(f, "    %-34s %13.1f%%   %swarpsim__simt_efficiency.pct%s\n", "SIMT efficiency (active lanes)",
                counters_value(c, DERIVED_SIMT_EFFICIENCY), DIM(color), RESET(color));
        fprintf(f, "    %-34s %14.3f   %s(%.1f million warp-instructions per second)%s\n", "simulator host time (s)",
                s->seconds[li], DIM(color), s->seconds[li] > 0 ? (double)c[WS_CTR_inst_executed] / s->seconds[li] / 1e6 : 0.0,
                RESET(color));
        fprintf(f, "  Memory workload\n");
        uint64_t sh_ld = c[WS_CTR_shared_ld_inst], sh_st = c[WS_CTR_shared_st_inst];
        if (sh_ld || sh_st) {
            row(f, "shared load requests", sh_ld, ws_counters[WS_CTR_shared_ld_inst].metric, color);
            row(f, "shared load wavefronts", c[WS_CTR_shared_ld_wavefronts], ws_counters[WS_CTR_shared_ld_wavefronts].metric, color);
            row(f, "shared load bank conflicts", c[WS_CTR_shared_ld_bank_conflicts], ws_counters[WS_CTR_shared_ld_bank_conflicts].metric, color);
            row(f, "shared store requests", sh_st, ws_counters[WS_CTR_shared_st_inst].metric, color);
            row(f, "shared store wavefronts", c[WS_CTR_shared_st_wavefronts], ws_counters[WS_CTR_shared_st_wavefronts].metric, color);
            row(f, "shared store bank conflicts", c[WS_CTR_shared_st_bank_conflicts], ws_counters[WS_CTR_shared_st_bank_conflicts].metric, color);
            if (sh_ld)
                fprintf(f, "    %s%-34s %14.2f%s   (1 = conflict-free; 32 = fully serialised)\n", BOLD(color),
                        "shared load wavefronts per request", ratio(c[WS_CTR_shared_ld_wavefronts], sh_ld), RESET(color));
            if (sh_st)
                fprintf(f, "    %s%-34s %14.2f%s\n", BOLD(color), "shared store wavefronts per request",
                        ratio(c[WS_CTR_shared_st_wavefronts], sh_st), RESET(color));
        }
        uint64_t g_ld = c[WS_CTR_global_ld_requests], g_st = c[WS_CTR_global_st_requests];
        if (g_ld || g_st) {
            row(f, "global load requests", g_ld, ws_counters[WS_CTR_global_ld_requests].metric, color);
            row(f, "global load sectors", c[WS_CTR_global_ld_sectors], ws_counters[WS_CTR_global_ld_sectors].metric, color);
            row(f, "global store requests", g_st, ws_counters[WS_CTR_global_st_requests].metric, color);
            row(f, "global store sectors", c[WS_CTR_global_st_sectors], ws_counters[WS_CTR_global_st_sectors].metric, color);
            if (g_ld)
                fprintf(f, "    %s%-34s %14.2f%s   (4 = coalesced 32-bit accesses; 32 = one sector per lane)\n",
                        BOLD(color), "global load sectors per request", ratio(c[WS_CTR_global_ld_sectors], g_ld),
                        RESET(color));
            if (g_st)
                fprintf(f, "    %s%-34s %14.2f%s\n", BOLD(color), "global store sectors per request",
                        ratio(c[WS_CTR_global_st_sectors], g_st), RESET(color));
        }
        if (c[WS_CTR_local_ld_inst] || c[WS_CTR_local_st_inst]) {
            row(f, "local loads", c[WS_CTR_local_ld_inst], ws_counters[WS_CTR_local_ld_inst].metric, color);
            row(f, "local load sectors", c[WS_CTR_local_ld_sectors], ws_counters[WS_CTR_local_ld_sectors].metric, color);
            row(f, "local stores", c[WS_CTR_local_st_inst], ws_counters[WS_CTR_local_st_inst].metric, color);
            row(f, "local store sectors", c[WS_CTR_local_st_sectors], ws_counters[WS_CTR_local_st_sectors].metric, color);
        }
        if (c[WS_CTR_global_atom_inst] || c[WS_CTR_global_red_inst] || c[WS_CTR_shared_atom_inst]) {
            row(f, "global atomics", c[WS_CTR_global_atom_inst], ws_counters[WS_CTR_global_atom_inst].metric, color);
            row(f, "global reductions", c[WS_CTR_global_red_inst], ws_counters[WS_CTR_global_red_inst].metric, color);
            row(f, "shared atomics", c[WS_CTR_shared_atom_inst], ws_counters[WS_CTR_shared_atom_inst].metric, color);
            row(f, "shared atomic wavefronts", c[WS_CTR_shared_atom_wavefronts],
                ws_counters[WS_CTR_shared_atom_wavefronts].metric, color);
            row(f, "global atomic updates serialised", c[WS_CTR_global_atom_same_address],
                ws_counters[WS_CTR_global_atom_same_address].metric, color);
        }
        if (c[WS_CTR_transactions_64b] || c[WS_CTR_transactions_128b]) {
            row(f, "32-byte transactions", c[WS_CTR_transactions_32b], ws_counters[WS_CTR_transactions_32b].metric, color);
            row(f, "64-byte transactions", c[WS_CTR_transactions_64b], ws_counters[WS_CTR_transactions_64b].metric, color);
            row(f, "128-byte transactions", c[WS_CTR_transactions_128b], ws_counters[WS_CTR_transactions_128b].metric, color);
        }
        fprintf(f, "  Divergence and synchronisation\n");
        row(f, "branch targets", c[WS_CTR_branch_targets], ws_counters[WS_CTR_branch_targets].metric, color);
        row(f, "uniform branch targets", c[WS_CTR_branch_targets_uniform], ws_counters[WS_CTR_branch_targets_uniform].metric, color);
        row(f, "divergent branch targets", c[WS_CTR_branch_targets_divergent], ws_counters[WS_CTR_branch_targets_divergent].metric, color);
        row(f, "barriers", c[WS_CTR_barriers], ws_counters[WS_CTR_barriers].metric, color);
        int n;
        ws_line_totals *lines = ws_gather_lines(l, &n);
        if (lines) {
            qsort(lines, (size_t)n, sizeof *lines, cost_cmp);
            int shown = 0;
            for (int k = 0; k < n && shown < 3; k++) {
                if (!line_cost(lines[k].c))
                    break;
                if (!shown)
                    fprintf(f, "  Worst lines (bank conflicts, extra sectors, local memory, divergence, serialised atomics)\n");
                describe_line(f, l, &lines[k], color);
                shown++;
            }
            if (!shown)
                fprintf(f, "  No line loses time to bank conflicts, uncoalesced accesses, divergence or serialised atomics.\n");
            waiting_lines(f, l, lines, n, color);
            free(lines);
        }
        if (li + 1 < s->launch_count)
            fputc('\n', f);
    }
    if (s->launch_count > 1)
        summary_table(s, f, color);
}

/* ---- Annotated source -------------------------------------------------------------- */

void ws_report_source(const ws_session *s, FILE *f, int color)
{
    FILE *src = fopen(s->module->path, "r");
    if (!src) {
        fprintf(f, "(cannot reopen %s to annotate it)\n", s->module->path);
        return;
    }
    for (int li = 0; li < s->launch_count; li++) {
        const ws_launch *l = &s->launches[li];
        int n;
        ws_line_totals *lines = ws_gather_lines(l, &n);
        fprintf(f, "\n%s%s: %s annotated%s\n", BOLD(color), ws_launch_name(l), s->module->path, RESET(color));
        fprintf(f, "%6s %10s %6s %14s %12s %5s  %s\n", "line", "warp-inst", "lanes", "wavefronts/req", "sectors/req",
                "div", "source");
        rewind(src);
        char buf[4096];
        int lineno = 0, k = 0;
        while (fgets(buf, sizeof buf, src)) {
            size_t len = strlen(buf);
            int whole_line = len > 0 && buf[len - 1] == '\n';
            if (whole_line)
                buf[--len] = 0;
            lineno++;
            while (k < n && lines[k].line < lineno)
                k++;
            const ws_line_totals *t = (k < n && lines[k].line == lineno) ? &lines[k] : NULL;
            if (t && t->c[WS_CTR_inst_executed]) {
                const uint64_t *c = t->c;
                uint64_t shared_req = c[WS_CTR_shared_ld_inst] + c[WS_CTR_shared_st_inst];
                uint64_t global_req = c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests];
                uint64_t conflicts = c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts];
                char wf[32] = "", sec[32] = "", div[24] = "";
                if (shared_req)
                    snprintf(wf, sizeof wf, "%.2f", ratio(c[WS_CTR_shared_wavefronts], shared_req));
                if (global_req)
                    snprintf(sec, sizeof sec, "%.2f",
                             ratio(c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors], global_req));
                if (c[WS_CTR_branch_targets_divergent])
                    snprintf(div, sizeof div, "%" PRIu64, c[WS_CTR_branch_targets_divergent]);
                int hot = conflicts || c[WS_CTR_branch_targets_divergent];
                char pos[512];
                const ptx_function *F = &l->module->functions[t->function];
                ws_source_position(l->module, &F->instrs[t->first_instr], 0, pos, sizeof pos);
                fprintf(f, "%6d %10" PRIu64 " %6.1f %s%14s%s %12s %s%5s%s  %s%s%s%s%s\n", lineno, c[WS_CTR_inst_executed],
                        ratio(c[WS_CTR_thread_inst_executed], c[WS_CTR_inst_executed]), RED(color && conflicts), wf,
                        RESET(color && conflicts), sec, RED(color && hot), div, RESET(color && hot), buf,
                        pos[0] ? "   " : "", DIM(color && pos[0]), pos[0] ? "// " : "", pos);
                if (pos[0] && color)
                    fputs(RESET(color), f);
            } else {
                fprintf(f, "%6d %10s %6s %14s %12s %5s  %s%s%s\n", lineno, "", "", "", "", "", DIM(color), buf, RESET(color));
            }
            while (!whole_line && fgets(buf, sizeof buf, src)) {   /* skip the rest of a very long line */
                len = strlen(buf);
                if (len && buf[len - 1] == '\n')
                    break;
            }
        }
        free(lines);
    }
    fclose(src);
}
