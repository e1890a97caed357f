/*
 * The HTML report's pictures as inline SVG (sim/report_svg.h). Each is drawn
 * in its own coordinates (a viewBox) and scales to its column, so the page
 * never scrolls sideways; colours come from the page's CSS classes (w0..w7:
 * the Okabe-Ito palette, which stays distinct under the common colour-vision
 * deficiencies), and every colour is doubled by text: counts, lane and bank
 * numbers, the pass number in a conflicting cell.
 */
#include "sim/report_svg.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/platform.h"

void ws_html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\t': fputs("    ", f); break;
        default: fputc(*s, f);
        }
    }
}

static void svg_open(FILE *f, double w, double h, const char *cls, const char *title)
{
    fprintf(f, "<svg class=\"pic %s\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" role=\"img\" "
            "xmlns=\"http://www.w3.org/2000/svg\"><title>", cls, w, h, w);
    ws_html_text(f, title);
    fputs("</title>\n", f);
}

/* ---- Lanes to banks -------------------------------------------------------------- */

enum { LABEL_W = 56, TOP = 50 };

void ws_svg_banks(FILE *f, const ws_arch *a, const ws_capture_request *q)
{
    int banks = (int)(a->shared_banks ? a->shared_banks : 32), phase = (int)(a->shared_phase_lanes ? a->shared_phase_lanes : 32);
    uint64_t width = a->bank_width_bytes ? a->bank_width_bytes : 4;
    double cw = 512.0 / banks, ch = 13;
    int phases = WS_WARP_SIZE / phase;
    /* per phase and bank, the distinct units (bank-wide words) in order of first use */
    static const int max_units = WS_WARP_SIZE * 4;
    uint64_t units[2][64][WS_WARP_SIZE * 4];
    int nunits[2][64];
    memset(nunits, 0, sizeof nunits);
    int rank[WS_WARP_SIZE][64];
    for (int lane = 0; lane < WS_WARP_SIZE; lane++)
        for (int b = 0; b < 64; b++)
            rank[lane][b] = -1;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        if (!(q->mask >> lane & 1u))
            continue;
        int p = lane / phase;
        uint64_t first = q->addr[lane] / width, last = (q->addr[lane] + (q->bytes ? q->bytes : 4) - 1) / width;
        for (uint64_t u = first; u <= last && u < first + 64; u++) {
            int b = (int)(u % (uint64_t)banks), k;
            for (k = 0; k < nunits[p][b] && units[p][b][k] != u; k++)
                ;
            if (k == nunits[p][b] && k < max_units)
                units[p][b][nunits[p][b]++] = u;
            rank[lane][b] = k;
        }
    }
    double w = LABEL_W + banks * cw + 8, h = TOP + WS_WARP_SIZE * ch + 18 * phases + 8;
    char title[256];
    snprintf(title, sizeof title, "Lanes to banks of one request: %u wavefront%s", q->cost, q->cost == 1 ? "" : "s");
    svg_open(f, w, h, "banks", title);
    fprintf(f, "<text class=\"wavefronts big\" x=\"%d\" y=\"16\" data-wavefronts=\"%u\">%u wavefront%s</text>\n",
            LABEL_W, q->cost, q->cost, q->cost == 1 ? "" : "s");
    fprintf(f, "<text class=\"small\" x=\"%.0f\" y=\"16\" text-anchor=\"end\">%d banks of %" PRIu64 " bytes%s</text>\n",
            w - 8, banks, width, phase < WS_WARP_SIZE ? ", by half-warp" : "");
    fprintf(f, "<text class=\"small\" x=\"4\" y=\"%d\">bank</text>\n", TOP - 6);
    for (int b = 0; b < banks; b++)
        fprintf(f, "<text class=\"tiny\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>", LABEL_W + (b + 0.5) * cw,
                TOP - 6, b);
    fputc('\n', f);
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        double y = TOP + lane * ch;
        int p = lane / phase;
        fprintf(f, "<g class=\"lane\" data-lane=\"%d\"><text class=\"tiny\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
                "lane %d</text><rect class=\"grid\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
                lane, LABEL_W - 4, y + ch - 3, lane, LABEL_W, y, banks * cw, ch);
        for (int b = 0; b < banks; b++) {
            int k = rank[lane][b];
            if (k < 0)
                continue;
            fprintf(f, "<rect class=\"w%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", k % 8,
                    LABEL_W + b * cw + 0.5, y + 0.5, cw - 1, ch - 1);
            if (nunits[p][b] > 1)   /* the pass that serves it, where its bank needs several */
                fprintf(f, "<text class=\"cell\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>",
                        LABEL_W + (b + 0.5) * cw, y + ch - 3, k + 1);
        }
        fputs("</g>\n", f);
        if (phase < WS_WARP_SIZE && lane % phase == phase - 1 && lane + 1 < WS_WARP_SIZE)
            fprintf(f, "<line class=\"sep\" x1=\"0\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", w, y + ch, y + ch);
    }
    for (int p = 0; p < phases; p++) {
        double y = TOP + WS_WARP_SIZE * ch + 14 + 18 * p;
        fprintf(f, "<text class=\"tiny\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LABEL_W - 4, y,
                phases > 1 ? (p ? "words, 2nd" : "words, 1st") : "words");
        for (int b = 0; b < banks; b++)
            if (nunits[p][b])
                fprintf(f, "<text class=\"tiny%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>",
                        nunits[p][b] > 1 ? " hot" : "", LABEL_W + (b + 0.5) * cw, y, nunits[p][b]);
        fputc('\n', f);
    }
    fputs("</svg>\n", f);
}

/* ---- Lanes to sectors ------------------------------------------------------------ */

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void ws_svg_sectors(FILE *f, const ws_arch *a, const ws_capture_request *q)
{
    enum { MAX_COLS = 64 };
    uint64_t sb = a->sector_bytes ? a->sector_bytes : 32, lb = a->line_bytes ? a->line_bytes : 128;
    uint64_t sectors[MAX_COLS];
    int n = 0, more = 0;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        if (!(q->mask >> lane & 1u))
            continue;
        for (uint64_t s = q->addr[lane] / sb; s <= (q->addr[lane] + q->bytes - 1) / sb; s++) {
            int k;
            for (k = 0; k < n && sectors[k] != s; k++)
                ;
            if (k == n) {
                if (n < MAX_COLS)
                    sectors[n++] = s;
                else
                    more = 1;
            }
        }
    }
    qsort(sectors, (size_t)n, sizeof *sectors, u64_cmp);
    int line_of[MAX_COLS], lines = 0;
    for (int k = 0; k < n; k++) {
        if (k == 0 || sectors[k] * sb / lb != sectors[k - 1] * sb / lb)
            lines++;
        line_of[k] = lines - 1;
    }
    double cw = n > 32 ? 8 : n > 16 ? 16 : 24, ch = 13, w = LABEL_W + (n ? n : 1) * cw + 8, h = TOP + 14 + WS_WARP_SIZE * ch + 8;
    if (w < 300)
        w = 300;
    char title[256];
    snprintf(title, sizeof title, "Lanes to sectors of one request: %u sectors in %d lines", q->cost, lines);
    svg_open(f, w, h, "sectors", title);
    fprintf(f, "<text class=\"sectorcount big\" x=\"%d\" y=\"16\" data-sectors=\"%u\">%u sector%s, %d line%s%s</text>\n",
            LABEL_W, q->cost, q->cost, q->cost == 1 ? "" : "s", lines, lines == 1 ? "" : "s",
            more ? " (first 64 drawn)" : "");
    fprintf(f, "<text class=\"small\" x=\"%d\" y=\"30\">%" PRIu64 "-byte sectors, %" PRIu64 "-byte lines</text>\n",
            LABEL_W, sb, lb);
    fprintf(f, "<text class=\"tiny\" x=\"4\" y=\"%d\">line</text><text class=\"tiny\" x=\"4\" y=\"%d\">sector</text>\n",
            TOP - 6, TOP + 8);
    for (int k = 0; k < n; k++) {
        double x = LABEL_W + k * cw;
        if (k == 0 || line_of[k] != line_of[k - 1]) {
            int span = 1;
            while (k + span < n && line_of[k + span] == line_of[k])
                span++;
            fprintf(f, "<rect class=\"band%d\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\"/>", line_of[k] % 2, x,
                    TOP - 16, span * cw, 30 + WS_WARP_SIZE * ch);
            if (span * cw >= 14 || n <= 32)
                fprintf(f, "<text class=\"tiny\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>",
                        x + span * cw / 2, TOP - 6, line_of[k]);
        }
        fprintf(f, "<text class=\"tiny\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>", x + cw / 2, TOP + 8,
                (int)(sectors[k] * sb % lb / sb));
    }
    fputc('\n', f);
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        double y = TOP + 14 + lane * ch;
        fprintf(f, "<g class=\"lane\" data-lane=\"%d\"><text class=\"tiny\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">lane %d"
                "</text>", lane, LABEL_W - 4, y + ch - 3, lane);
        if (q->mask >> lane & 1u)
            for (int k = 0; k < n; k++) {
                uint64_t s0 = q->addr[lane] / sb, s1 = (q->addr[lane] + q->bytes - 1) / sb;
                if (sectors[k] >= s0 && sectors[k] <= s1)
                    fprintf(f, "<rect class=\"w%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
                            (line_of[k] % 8), LABEL_W + k * cw + 0.5, y + 0.5, cw - 1, ch - 1);
            }
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
}

/* ---- Bars ------------------------------------------------------------------------ */

void ws_svg_bars(FILE *f, const char *title, int n, const char *const *labels, const double *values,
                 const char *const *value_text)
{
    double max = 0, bh = 16, lw = 170, bw = 300, w = lw + bw + 170, h = n * (bh + 4) + 6;
    for (int i = 0; i < n; i++)
        max = values[i] > max ? values[i] : max;
    svg_open(f, w, h, "bars", title);
    for (int i = 0; i < n; i++) {
        double y = 3 + i * (bh + 4), len = max > 0 ? bw * values[i] / max : 0;
        fprintf(f, "<text class=\"small\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", lw - 6, y + bh - 4);
        ws_html_text(f, labels[i]);
        fprintf(f, "</text><rect class=\"bar\" x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\"/>"
                "<text class=\"small\" x=\"%.1f\" y=\"%.1f\">", lw, y, len < 1 && values[i] > 0 ? 1 : len, bh,
                lw + len + 6, y + bh - 4);
        ws_html_text(f, value_text[i]);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
}

void ws_svg_histogram(FILE *f, const ws_capture_line *r, const char *unit)
{
    const char *labels[WS_CAPTURE_BUCKETS], *texts[WS_CAPTURE_BUCKETS];
    char lbuf[WS_CAPTURE_BUCKETS][48], tbuf[WS_CAPTURE_BUCKETS][64];
    double values[WS_CAPTURE_BUCKETS];
    uint64_t total = 0;
    int n = 0;
    for (int b = 0; b < WS_CAPTURE_BUCKETS; b++)
        total += r->histogram[b];
    for (int b = 0; b < WS_CAPTURE_BUCKETS; b++) {
        if (!r->histogram[b])
            continue;
        snprintf(lbuf[n], sizeof lbuf[n], "%d%s %s", b, b == WS_CAPTURE_BUCKETS - 1 ? "+" : "", unit);
        snprintf(tbuf[n], sizeof tbuf[n], "%" PRIu64 " requests (%.0f%%)", r->histogram[b],
                 100.0 * (double)r->histogram[b] / (double)(total ? total : 1));
        labels[n] = lbuf[n];
        texts[n] = tbuf[n];
        values[n++] = (double)r->histogram[b];
    }
    char title[96];
    snprintf(title, sizeof title, "All %" PRIu64 " requests of this instruction by %s per request", total, unit);
    ws_svg_bars(f, title, n, labels, values, texts);
}

/* ---- Divergence timeline ------------------------------------------------------------ */

/* "73 ld.shared.f32 v, [s_addr];" cut to fit its column. */
static void instr_label(const ws_launch *l, const ws_capture_step *s, char *out, size_t n)
{
    const ptx_function *F = &l->module->functions[s->fn];
    char *text = NULL;
    size_t len = 0;
    ws_memstream ms;
    FILE *m = ws_memstream_open(&ms, &text, &len);
    if (m) {
        ptx_print_instr(l->module, F, &F->instrs[s->pc], m);
        ws_memstream_close(&ms);
    }
    snprintf(out, n, "%d  %.26s%s", F->instrs[s->pc].line, text ? text : "", text && strlen(text) > 26 ? "…" : "");
    free(text);
}

void ws_svg_divergence(FILE *f, const ws_launch *l, const struct ws_capture *c, int max_rows)
{
    int rows = c->step_count < max_rows ? c->step_count : max_rows;
    double lw = 215, cw = 12, ch = 15, mw = 215, w = lw + WS_WARP_SIZE * cw + mw, h = 30 + rows * ch + 6;
    char title[160];
    snprintf(title, sizeof title, "Warp %d of block %" PRId64 ": its active lanes, instruction by instruction",
             c->trace_warp, c->trace_block);
    svg_open(f, w, h, "divergence", title);
    fprintf(f, "<text class=\"tiny\" x=\"4\" y=\"22\">PTX line  instruction</text>"
            "<text class=\"tiny\" x=\"%.0f\" y=\"22\">what the path does</text>", lw + WS_WARP_SIZE * cw + 8);
    for (int lane = 0; lane < WS_WARP_SIZE; lane++)
        fprintf(f, "<text class=\"tiny\" x=\"%.1f\" y=\"22\" text-anchor=\"middle\">%d</text>", lw + (lane + 0.5) * cw, lane);
    fputc('\n', f);
    for (int r = 0; r < rows; r++) {
        const ws_capture_step *s = &c->steps[r];
        double y = 28 + r * ch;
        char label[96];
        instr_label(l, s, label, sizeof label);
        fprintf(f, "<g class=\"step\" data-line=\"%d\"><text class=\"mono\" x=\"4\" y=\"%.1f\">", 
                l->module->functions[s->fn].instrs[s->pc].line, y + ch - 3);
        ws_html_text(f, label);
        fputs("</text>", f);
        for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
            uint32_t bit = 1u << lane;
            const char *cls = !(s->live & bit) ? NULL : (s->mask & bit) ? "run" : (s->active & bit) ? "guard" : "wait";
            if (cls)
                fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", cls,
                        lw + lane * cw + 1, y + 1, cw - 2, ch - 2);
        }
        /* a split: a deeper SIMT stack; a merge: a shallower one whose lanes include the path's
         * before; the other side of a split: lanes disjoint from the path's before */
        const ws_capture_step *p = r ? &c->steps[r - 1] : s;
        int now = __builtin_popcount(s->active);
        double mx = lw + WS_WARP_SIZE * cw + 8, my = y + ch - 3;
        if (r && s->depth > p->depth) {
            char at[32] = "exit";
            if (s->rpc >= 0)
                snprintf(at, sizeof at, "line %d", l->module->functions[s->fn].instrs[s->rpc].line);
            fprintf(f, "<text class=\"mark split\" x=\"%.0f\" y=\"%.1f\">&#x25BC; split: %d run; rejoin %s</text>",
                    mx, my, now, at);
        } else if (r && s->depth < p->depth && (s->active & p->active) == p->active && s->active != p->active) {
            fprintf(f, "<line class=\"merge\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                    "<text class=\"mark merge\" x=\"%.0f\" y=\"%.1f\">&#x25B2; reconverged: %d lanes</text>",
                    lw, lw + WS_WARP_SIZE * cw, y, y, mx, my, now);
        } else if (r && !(s->active & p->active)) {
            fprintf(f, "<text class=\"mark split\" x=\"%.0f\" y=\"%.1f\">&#x25BD; other path: %d lanes</text>",
                    mx, my, now);
        }
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
}
