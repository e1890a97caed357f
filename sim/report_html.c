/*
 * `--html FILE.html`: one page that opens from disk in any browser and
 * prints: inline CSS and SVG, no script, no font or file from elsewhere (a
 * Content-Security-Policy meta forbids fetching anything). Per launch: the
 * summary and the Time section, the source with each line's cost in its
 * margin (sim/report_html_lines.c), the lanes-to-banks and lanes-to-sectors
 * pictures of the worst memory instructions, the traced warp's divergence
 * (sim/report_svg.c); with several launches, a side-by-side table and each
 * launch's pictures beside the next one's, as the course compares versions.
 * Written to memory first, then to the file atomically, as --dump writes.
 */
#include "sim/report_html.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/buffers.h"
#include "sim/capture.h"
#include "sim/platform.h"
#include "sim/report_html_lines.h"
#include "sim/report_lines.h"
#include "sim/report_svg.h"
#include "sim/timeline.h"
#include "sim/timing.h"
#include "sim/timing_result.h"

/* Okabe-Ito's eight colours (w0..w7), kept apart under the common colour-vision deficiencies;
 * dark mode swaps black for grey and lightens the page. Wide pictures scale to their column. */
static const char css[] =
    ":root{--bg:#fff;--fg:#1a1a1a;--dim:#5a5a5a;--line:#c8c8c8;--panel:#f4f4f4;--band0:#eef3f8;--band1:#f8f1e8;"
    "--w0:#E69F00;--w1:#56B4E9;--w2:#009E73;--w3:#F0E442;--w4:#0072B2;--w5:#D55E00;--w6:#CC79A7;--w7:#000000;"
    "--run:#0072B2;--guard:#E69F00;--hot:#D55E00;color-scheme:light dark}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e8e8e8;--dim:#a8a8a8;--line:#4a4a4a;"
    "--panel:#22252b;--band0:#1f2a36;--band1:#33291d;--w7:#9a9a9a;--run:#56B4E9}}\n"
    "*{box-sizing:border-box}body{margin:0 auto;max-width:1240px;padding:12px 16px;background:var(--bg);"
    "color:var(--fg);font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}\n"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.3em;border-top:2px solid var(--line);padding-top:.5em;"
    "margin-top:1.5em}h3{font-size:1.1em;margin:1em 0 .3em}code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',"
    "Menlo,Consolas,monospace;font-size:13px}.dim{color:var(--dim)}a{color:var(--run)}\n"
    "table{border-collapse:collapse;margin:.4em 0;width:100%}th,td{border-bottom:1px solid var(--line);"
    "padding:2px 8px;text-align:right;vertical-align:top}th:first-child,td:first-child{text-align:left}"
    "td.metric{color:var(--dim);font-size:12px;text-align:left;overflow-wrap:anywhere}\n"
    ".verdict{font-weight:600;font-size:1.1em}.grid2{display:grid;grid-template-columns:1fr 1fr;gap:16px}"
    ".grid2>*{min-width:0}figure{margin:.5em 0;padding:8px;background:var(--panel);border-radius:6px;"
    "break-inside:avoid}svg.pic{display:block;max-width:100%;height:auto;margin:.3em 0}\n"
    "svg text{fill:var(--fg);font-family:system-ui,sans-serif}svg .tiny{font-size:9px}svg .small{font-size:11px}"
    "svg .big{font-size:15px;font-weight:700}svg .mono{font-size:11px;font-family:ui-monospace,monospace}"
    "svg .cell{font-size:8px;fill:#000;paint-order:stroke;stroke:#fff;stroke-width:2px}"
    "svg .hot{fill:var(--hot);font-weight:700}svg .mark{font-size:11.5px;font-weight:600}\n"
    "svg .grid{fill:none;stroke:var(--line)}svg .sep{stroke:var(--fg);stroke-dasharray:4 3}"
    "svg .band0{fill:var(--band0)}svg .band1{fill:var(--band1)}svg .bar{fill:var(--w4)}"
    "svg .run{fill:var(--run)}svg .guard{fill:var(--guard)}svg .wait{fill:none;stroke:var(--dim);stroke-width:.8}"
    "svg line.merge{stroke:var(--w2);stroke-width:2}\n"
    ".w0{fill:var(--w0)}.w1{fill:var(--w1)}.w2{fill:var(--w2)}.w3{fill:var(--w3)}.w4{fill:var(--w4)}"
    ".w5{fill:var(--w5)}.w6{fill:var(--w6)}.w7{fill:var(--w7)}\n"
    ".src{font-size:13px;border:1px solid var(--line);border-radius:4px}.src .row{display:block}"
    ".src summary,.src .row.head,.src .row.cold{display:grid;grid-template-columns:3.2em 4.6em 4.6em 4.2em 3.8em 1fr;"
    "align-items:start;list-style:none;cursor:pointer}.src summary::-webkit-details-marker{display:none}"
    ".src .m{text-align:right;padding:0 4px;font-variant-numeric:tabular-nums;border-right:1px solid var(--line)}"
    ".src .code{padding-left:8px;white-space:pre-wrap;overflow-wrap:anywhere}.src .cold{color:var(--dim);cursor:default}"
    ".src .head{font-weight:600;border-bottom:1px solid var(--line);cursor:default}"
    ".src details[open]>summary{background:var(--panel)}.src .more{margin:0 0 0 20.4em;font-size:12px}"
    ".src .more p{margin:.2em 0}.src details:target>summary{outline:2px solid var(--hot)}\n"
    "nav ul{columns:2;margin:.3em 0}.legend span{display:inline-block;width:1em;height:1em;vertical-align:-2px;"
    "margin:0 .3em 0 .8em;border:1px solid var(--line)}\n"
    "@media (max-width:900px){.grid2{grid-template-columns:1fr}}\n"
    "@media print{:root{--bg:#fff;--fg:#000;--dim:#444;--panel:#fff;--w7:#000}body{max-width:none;font-size:11pt}"
    "h2{break-before:page}h2:first-of-type{break-before:auto}.src details>.more{display:none}"
    "figure{border:1px solid #ccc}a{color:inherit;text-decoration:none}}\n";

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void row(FILE *f, const char *label, const char *value, const char *metric)
{
    fprintf(f, "<tr><th scope=\"row\">%s</th><td>%s</td><td class=\"metric\">%s</td></tr>\n", label, value, metric);
}

static void row_u64(FILE *f, const char *label, uint64_t v, const char *metric)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRIu64, v);
    row(f, label, b, metric);
}

static void time_section(FILE *f, const ws_launch *l)
{
    const ws_timing_result *r = ws_timing_result_of(l);
    if (!r) {
        fputs("<p class=\"dim\">Run with --no-timing: no predicted time.</p>\n", f);
        return;
    }
    char v[256], b[64];
    ws_timing_verdict(r, v, sizeof v);
    fprintf(f, "<h3>Time <span class=\"dim\">(predicted for %s%s)</span></h3>\n<p class=\"verdict\">%.2f us: ",
            l->arch->display_name, l->arch->timing_validated ? "" : "; not validated on a card", r->duration_ns / 1000);
    ws_html_text(f, v);
    fputs("</p>\n<table>\n", f);
    snprintf(b, sizeof b, "%.0f", r->elapsed_cycles);
    row(f, "cycles", b, "sm__cycles_elapsed.avg");
    snprintf(b, sizeof b, "%.1f%% (%u blocks/SM, by %s)", r->theoretical_occupancy, r->blocks_per_sm,
             r->occupancy_limit ? r->occupancy_limit : "?");
    row(f, "theoretical occupancy", b, "sm__maximum_warps_per_active_cycle_pct");
    snprintf(b, sizeof b, "%.1f%%", r->achieved_occupancy);
    row(f, "achieved occupancy", b, "sm__warps_active.avg.pct_of_peak_sustained_active");
    snprintf(b, sizeof b, "%.2f", r->waves);
    row(f, "waves", b, "launch__waves_per_multiprocessor");
    row_u64(f, "DRAM bytes read", r->dram_read_bytes, "dram__bytes_read.sum");
    snprintf(b, sizeof b, "%.1f%% / %.1f%%", r->l1_hit_rate, r->l2_hit_rate);
    row(f, "L1 / L2 hit rate", b, "l1tex__t_sector_hit_rate.pct, lts__t_sector_hit_rate.pct");
    snprintf(b, sizeof b, "%.1f%% / %.1f%%", r->memory_throughput, r->sm_throughput);
    row(f, "memory / compute throughput", b, "of peak");
    fputs("</table>\n", f);
    const char *labels[WS_STALL_COUNT], *texts[WS_STALL_COUNT];
    char tbuf[WS_STALL_COUNT][32];
    double values[WS_STALL_COUNT];
    int n = 0;
    for (int s = 0; s < WS_STALL_COUNT; s++)
        if (r->stall[s] >= 0.5) {
            labels[n] = ws_stall_names[s];
            snprintf(tbuf[n], sizeof tbuf[n], "%.1f cycles", r->stall[s]);
            texts[n] = tbuf[n];
            values[n++] = r->stall[s];
        }
    fputs("<p class=\"dim\">Warp stalls, cycles per warp (ncu's Warp State Statistics):</p>\n", f);
    ws_svg_bars(f, "Warp stall reasons, cycles per warp", n, labels, values, texts);
}

static void summary(FILE *f, const ws_launch *l)
{
    const uint64_t *c = l->counters;
    char b[64];
    fputs("<table>\n", f);
    row_u64(f, "warp-instructions", c[WS_CTR_inst_executed], "smsp__inst_executed.sum");
    snprintf(b, sizeof b, "%.1f%%", 100 * ratio(c[WS_CTR_thread_inst_executed], c[WS_CTR_inst_executed] * WS_WARP_SIZE));
    row(f, "SIMT efficiency", b, "warpsim__simt_efficiency.pct");
    uint64_t sld = c[WS_CTR_shared_ld_inst], sst = c[WS_CTR_shared_st_inst];
    if (sld + sst) {
        snprintf(b, sizeof b, "%.2f / %.2f", ratio(c[WS_CTR_shared_ld_wavefronts], sld), ratio(c[WS_CTR_shared_st_wavefronts], sst));
        row(f, "shared wavefronts per load / store", b, "1 = conflict-free; 32 = fully serialised");
        row_u64(f, "shared bank conflicts", c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts],
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum");
    }
    uint64_t gld = c[WS_CTR_global_ld_requests], gst = c[WS_CTR_global_st_requests];
    if (gld + gst) {
        snprintf(b, sizeof b, "%.2f / %.2f", ratio(c[WS_CTR_global_ld_sectors], gld), ratio(c[WS_CTR_global_st_sectors], gst));
        row(f, "global sectors per load / store", b, "4 = coalesced 32-bit accesses; 32 = a sector per lane");
    }
    row_u64(f, "divergent branch targets", c[WS_CTR_branch_targets_divergent], "smsp__sass_branch_targets_threads_divergent.sum");
    row_u64(f, "barriers", c[WS_CTR_barriers], "warpsim__barrier_inst.sum");
    fputs("</table>\n", f);
}

static void side_by_side(FILE *f, const ws_session *s)
{
    fputs("<h2 id=\"side\">Side by side</h2>\n<table><tr><th>kernel</th><th>duration (us)</th><th>warp-inst</th>"
          "<th>SIMT eff</th><th>shared ld wf/req</th><th>bank conflicts</th><th>sectors/req</th><th>divergent</th></tr>\n", f);
    for (int li = 0; li < s->launch_count; li++) {
        const ws_launch *l = &s->launches[li];
        const uint64_t *c = l->counters;
        const ws_timing_result *r = ws_timing_result_of(l);
        fprintf(f, "<tr><td><a href=\"#launch%d\">", li);
        ws_html_text(f, ws_launch_name(l));
        fprintf(f, "</a></td><td>%s%.2f</td><td>%" PRIu64 "</td><td>%.1f%%</td><td>%.2f</td><td>%" PRIu64 "</td><td>%.2f</td>"
                "<td>%" PRIu64 "</td></tr>\n", r ? "" : "n/a ", r ? r->duration_ns / 1000 : 0.0, c[WS_CTR_inst_executed],
                100 * ratio(c[WS_CTR_thread_inst_executed], c[WS_CTR_inst_executed] * WS_WARP_SIZE),
                ratio(c[WS_CTR_shared_ld_wavefronts], c[WS_CTR_shared_ld_inst]),
                c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts],
                ratio(c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors],
                      c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests]),
                c[WS_CTR_branch_targets_divergent]);
    }
    fputs("</table>\n", f);
}

static void launch_title(FILE *f, const ws_launch *l)
{
    ws_html_text(f, ws_launch_name(l));
    fprintf(f, " <span class=\"dim\">grid (%u,%u,%u) block (%u,%u,%u)</span>", l->grid[0], l->grid[1], l->grid[2],
            l->block_dim[0], l->block_dim[1], l->block_dim[2]);
}

static void divergence(FILE *f, const ws_launch *l)
{
    const struct ws_capture *c = l->capture;
    fprintf(f, "<figure class=\"warp\"><p class=\"legend\">Warp %d of block %" PRId64 ", one row per instruction it ran:"
            "<span style=\"background:var(--run)\"></span>lane runs<span style=\"background:var(--guard)\"></span>"
            "guard false<span></span>waits on another path; blank: exited. &#x25BC; a split, &#x25B2; reconvergence "
            "(green line).</p>\n", c->trace_warp, c->trace_block);
    if (!c->step_count)
        fputs("<p>(that warp did not run: --trace-warp B:W picks another)</p>\n", f);
    else
        ws_svg_divergence(f, l, c, 400);
    if (c->step_count > 400 || c->steps_dropped)
        fprintf(f, "<p class=\"dim\">The first 400 of its %" PRIu64 " instructions are drawn.</p>\n",
                (uint64_t)c->step_count + c->steps_dropped);
    fputs("</figure>\n", f);
}

/* Launch a's pictures beside launch b's: the worst shared and global instruction of a and
 * the one playing its part in b. */
static void compare(FILE *f, const ws_session *s, int a, int b)
{
    const ws_launch *la = &s->launches[a], *lb = &s->launches[b];
    fprintf(f, "<h2 id=\"cmp%d-%d\">Compare: launch %d and launch %d</h2>\n<div class=\"grid2\"><div><h3>", a, b, a + 1, b + 1);
    launch_title(f, la);
    fputs("</h3></div><div><h3>", f);
    launch_title(f, lb);
    fputs("</h3></div></div>\n", f);
    for (int shared = 1; shared >= 0; shared--) {
        ws_html_instr wa[WS_HTML_WORST], wb;
        if (!ws_html_worst(la, shared, wa) || !ws_html_counterpart(la, wa[0], lb, &wb))
            continue;
        const ws_capture_request *qa = ws_capture_typical(ws_capture_line_of(la->capture, wa[0].fn, wa[0].pc));
        const ws_capture_request *qb = ws_capture_typical(ws_capture_line_of(lb->capture, wb.fn, wb.pc));
        if (qa && qb && qa->cost == qb->cost && qa->cost <= (shared ? 1u : 4u)) {   /* nothing to tell apart */
            fprintf(f, "<p class=\"dim\">%s memory: the same in both, %u %s per request, conflict-free.</p>\n",
                    shared ? "Shared" : "Global", qa->cost, shared ? "wavefronts" : "sectors");
            continue;
        }
        fputs("<div class=\"grid2\"><div>", f);
        ws_html_instr_pictures(f, la, wa[0], NULL);
        fputs("</div><div>", f);
        ws_html_instr_pictures(f, lb, wb, NULL);
        fputs("</div></div>\n", f);
    }
    if (la->counters[WS_CTR_branch_targets_divergent] || lb->counters[WS_CTR_branch_targets_divergent]) {
        fputs("<div class=\"grid2\"><div>", f);
        divergence(f, la);
        fputs("</div><div>", f);
        divergence(f, lb);
        fputs("</div></div>\n", f);
    }
}

static void launch_section(FILE *f, const ws_session *s, int li)
{
    const ws_launch *l = &s->launches[li];
    fprintf(f, "<h2 id=\"launch%d\">%d. ", li, li + 1);
    launch_title(f, l);
    fputs("</h2>\n<div class=\"grid2\"><div><h3>Summary</h3>\n", f);
    summary(f, l);
    fputs("</div><div>\n", f);
    time_section(f, l);
    fputs("</div></div>\n", f);
    ws_html_source(f, l, li);
    for (int shared = 1; shared >= 0; shared--) {
        ws_html_instr w[WS_HTML_WORST];
        int n = ws_html_worst(l, shared, w);
        if (!n)
            continue;
        fprintf(f, "<h3>%s</h3>\n<div class=\"grid2\">", shared ? "Shared memory: lanes to banks, worst first"
                                                             : "Global memory: lanes to sectors, worst first");
        for (int k = 0; k < n; k++) {
            char id[64];
            snprintf(id, sizeof id, "m%d-%d-%d", li, w[k].fn, w[k].pc);
            fputs("<div>", f);
            ws_html_instr_pictures(f, l, w[k], id);
            fputs("</div>", f);
        }
        fputs("</div>\n", f);
    }
    fputs("<h3>Divergence</h3>\n", f);
    divergence(f, l);
}

static void page(FILE *f, const ws_session *s)
{
    /* a .cu program's report names its CUDA file, not the PTX compiled from it into a temporary folder */
    const char *cuda = s->launch_count ? ws_cuda_file_of(&s->launches[0]) : NULL;
    const char *input = s->options && s->options->cu_path ? s->options->cu_path
                      : s->options && s->options->launch_path ? s->options->launch_path : cuda ? cuda : s->module->path;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "img-src data:\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>warpsim: ", f);
    ws_html_text(f, input);
    fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<h1>warpsim report: ", css);
    ws_html_text(f, input);
    fputs("</h1>\n<p class=\"dim\">Simulated on ", f);
    ws_html_text(f, s->arch.display_name);
    fprintf(f, " (%s); %d launch%s. Counters are ncu's metrics; times are the timing model's predictions.</p>\n",
            s->arch.name, s->launch_count, s->launch_count == 1 ? "" : "es");
    fputs("<nav><ul>", f);
    for (int li = 0; li < s->launch_count; li++) {
        fprintf(f, "<li><a href=\"#launch%d\">%d. ", li, li + 1);
        ws_html_text(f, ws_launch_name(&s->launches[li]));
        fputs("</a></li>", f);
    }
    fputs("</ul></nav>\n", f);
    if (s->launch_count > 1) {
        side_by_side(f, s);
        for (int li = 0; li + 1 < s->launch_count && li < 4; li++)
            compare(f, s, li, li + 1);
    }
    for (int li = 0; li < s->launch_count; li++)
        launch_section(f, s, li);
    fputs("<p class=\"dim\">Made by warpsim run --html.</p>\n</body></html>\n", f);
}

int ws_report_html_check_path(const char *path, char *err, size_t errlen)
{
    return ws_timeline_check_path(path, err, errlen);   /* the same test: a file beside it can be made */
}

int ws_report_html(const ws_session *s, const char *path, char *err, size_t errlen)
{
    for (int li = 0; li < s->launch_count; li++)
        if (!s->launches[li].capture) {
            snprintf(err, errlen, "cannot write '%s': launch %d ran without --html's records", path, li + 1);
            return -1;
        }
    char *text = NULL;
    size_t len = 0;
    ws_memstream ms;
    FILE *m = ws_memstream_open(&ms, &text, &len);
    if (!m) {
        snprintf(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    page(m, s);
    ws_memstream_close(&ms);
    int status = ws_write_file_atomic(path, text, len, err, errlen);
    free(text);
    return status;
}
