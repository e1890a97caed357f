/*
 * The text report's "Time" section: the timing model's prediction for one
 * launch (sim/timing.h), in ncu's names where ncu has them.
 */
#include "sim/report_time.h"

#include <inttypes.h>

#include "sim/timing_result.h"

void ws_report_time_text(const ws_launch *l, FILE *f, int color)
{
    const ws_timing_result *r = ws_timing_result_of(l);
    const char *dim = color ? "\033[2m" : "", *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    if (!r)
        return;
    char verdict[256];
    ws_timing_verdict(r, verdict, sizeof verdict);
    fprintf(f, "  Time %s(predicted for %s%s)%s\n", dim, l->arch->display_name,
            l->arch->timing_validated ? "" : "; this preset's timing is not validated on a card", reset);
    fprintf(f, "    %s%-34s %14.2f%s   %sgpu__time_duration.sum (us)%s\n", bold, "duration (us)", r->duration_ns / 1000,
            reset, dim, reset);
    fprintf(f, "    %s%s%s\n", bold, verdict, reset);
    fprintf(f, "    %-34s %14.0f   %ssm__cycles_elapsed.avg; %.0f of them the kernel's, the rest the %.1f us launch overhead%s\n",
            "cycles", r->elapsed_cycles, dim, r->cycles, r->overhead_ns / 1000, reset);
    fprintf(f, "    %-34s %13.1f%%   %s%u blocks per SM, limited by %s; %u registers per thread (%s)%s\n",
            "theoretical occupancy", r->theoretical_occupancy, dim, r->blocks_per_sm,
            r->occupancy_limit ? r->occupancy_limit : "?", r->regs,
            r->regs_estimated ? "estimated from the PTX; --regs N to set" : "--regs", reset);
    fprintf(f, "    %-34s %13.1f%%   %ssm__warps_active.avg.pct_of_peak_sustained_active%s\n", "achieved occupancy",
            r->achieved_occupancy, dim, reset);
    fprintf(f, "    %-34s %14.2f   %slaunch__waves_per_multiprocessor%s\n", "waves", r->waves, dim, reset);
    fprintf(f, "    %-34s %14" PRIu64 "   %sdram__bytes_read.sum%s\n", "DRAM bytes read", r->dram_read_bytes, dim, reset);
    fprintf(f, "    %-34s %14" PRIu64 "   %sdram__bytes_write.sum%s\n", "DRAM bytes written", r->dram_write_bytes, dim,
            reset);
    fprintf(f, "    %-34s %13.1f%%   %sl1tex__t_sector_hit_rate.pct%s\n", "L1 hit rate", r->l1_hit_rate, dim, reset);
    fprintf(f, "    %-34s %13.1f%%   %slts__t_sector_hit_rate.pct%s\n", "L2 hit rate", r->l2_hit_rate, dim, reset);
    fprintf(f, "    %-34s %13.1f%%   %sgpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed%s\n",
            "memory throughput", r->memory_throughput, dim, reset);
    fprintf(f, "    %-34s %13.1f%%   %ssm__throughput.avg.pct_of_peak_sustained_elapsed%s\n", "compute throughput",
            r->sm_throughput, dim, reset);
    fprintf(f, "    %-34s", "warp stalls (cycles per warp)");
    int shown = 0;
    for (int s = 0; s < WS_STALL_COUNT; s++)
        if (r->stall[s] >= 0.5)
            fprintf(f, "%s%s %.1f", shown++ ? ", " : " ", ws_stall_names[s], r->stall[s]);
    fprintf(f, "\n    %s", dim);
    fprintf(f, "bounds (cycles):");
    for (int b = WS_BOUND_LATENCY; b < WS_BOUND_COUNT; b++)
        if (r->bound_cycles[b] >= 1)
            fprintf(f, " %s %.0f;", ws_bound_name((ws_bound)b), r->bound_cycles[b]);
    fprintf(f, "%s\n", reset);
}

uint64_t ws_line_stall_cycles(const uint64_t *c)
{
    uint64_t sum = 0;
    for (int s = 0; s < WS_STALL_SELECTED; s++)
        sum += c[WS_CTR_stall_long_scoreboard + s];
    return sum;
}

void ws_report_time_line(const ws_launch *l, const uint64_t *c, FILE *f, int color)
{
    const char *dim = color ? "\033[2m" : "", *reset = color ? "\033[0m" : "";
    uint64_t kernel = ws_line_stall_cycles(l->counters), mine = ws_line_stall_cycles(c);
    uint64_t conflicts = c[WS_CTR_shared_conflict_cycles], sectors = c[WS_CTR_extra_transaction_cycles];
    if (!ws_timing_result_of(l) || (!mine && !conflicts && !sectors))
        return;
    fprintf(f, "               time: %.0f%% of the warps' stall cycles", kernel ? 100.0 * (double)mine / (double)kernel : 0);
    /* its main reason, and the next where it is a tenth of the line's stalls or more */
    int first = -1, second = -1;
    for (int s = 0; s < WS_STALL_SELECTED; s++) {
        uint64_t v = c[WS_CTR_stall_long_scoreboard + s];
        if (first < 0 || v > c[WS_CTR_stall_long_scoreboard + first])
            second = first, first = s;
        else if (second < 0 || v > c[WS_CTR_stall_long_scoreboard + second])
            second = s;
    }
    if (mine) {
        fprintf(f, " (%s %.0f%%", ws_stall_names[first], 100.0 * (double)c[WS_CTR_stall_long_scoreboard + first] / (double)mine);
        if (10 * c[WS_CTR_stall_long_scoreboard + second] >= mine)
            fprintf(f, ", %s %.0f%%", ws_stall_names[second],
                    100.0 * (double)c[WS_CTR_stall_long_scoreboard + second] / (double)mine);
        fputc(')', f);
    }
    if (conflicts)
        fprintf(f, "; %s%" PRIu64 " L1TEX cycles serialised by bank conflicts%s", dim, conflicts, reset);
    if (sectors)
        fprintf(f, "; %s%" PRIu64 " L1TEX cycles serialised by extra transactions%s", dim, sectors, reset);
    fputc('\n', f);
}
