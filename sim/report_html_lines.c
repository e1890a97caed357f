/*
 * The HTML report's per-line parts (sim/report_html_lines.h): which memory
 * instructions get a picture, the pictures of one, and the source with each
 * line's cost as a heat margin. The margin's colour only doubles the number
 * written in it, so it reads in grey too.
 */
#include "sim/report_html_lines.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/capture.h"
#include "sim/platform.h"
#include "sim/report_lines.h"
#include "sim/report_svg.h"
#include "sim/report_time.h"
#include "sim/timing.h"
#include "sim/timing_result.h"

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* What an instruction loses: extra shared passes, or sectors beyond a coalesced 4 per request. */
static uint64_t waste(const uint64_t *c, int shared)
{
    if (shared)
        return c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts] +
               (c[WS_CTR_shared_atom_wavefronts] > c[WS_CTR_shared_atom_inst]
                    ? c[WS_CTR_shared_atom_wavefronts] - c[WS_CTR_shared_atom_inst] : 0);
    uint64_t req = c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests];
    uint64_t sec = c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors];
    return sec > 4 * req ? sec - 4 * req : 0;
}

static uint64_t volume(const uint64_t *c, int shared)
{
    return shared ? c[WS_CTR_shared_wavefronts] : c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors];
}

static int in_space(const ws_capture_line *r, int shared)
{
    uint64_t n = 0;
    for (int b = 0; r && b < WS_CAPTURE_BUCKETS; b++)
        n += r->histogram[b];
    return n && (shared ? r->space == PTX_SPACE_SHARED : r->space == PTX_SPACE_GLOBAL);
}

int ws_html_worst(const ws_launch *l, int shared, ws_html_instr *out)
{
    int n = 0;
    for (int f = 0; f < l->module->function_count; f++) {
        if (!l->instr_counters[f])
            continue;
        for (int i = 0; i < l->module->functions[f].instr_count; i++) {
            if (!in_space(ws_capture_line_of(l->capture, f, i), shared))
                continue;
            /* insertion into the list, worst first; ties keep the source order */
            const uint64_t *c = l->instr_counters[f][i];
            int k = n < WS_HTML_WORST ? n++ : WS_HTML_WORST;
            while (k > 0) {
                const uint64_t *d = l->instr_counters[out[k - 1].fn][out[k - 1].pc];
                if (waste(c, shared) < waste(d, shared) ||
                    (waste(c, shared) == waste(d, shared) && volume(c, shared) <= volume(d, shared)))
                    break;
                if (k < WS_HTML_WORST)
                    out[k] = out[k - 1];
                k--;
            }
            if (k < WS_HTML_WORST)
                out[k] = (ws_html_instr){f, i};
        }
    }
    return n;
}

/* Same opcode, direction and space: the instructions that play one part in two versions. */
static int same_kind(const ws_launch *a, ws_html_instr x, const ws_launch *b, ws_html_instr y)
{
    const ptx_instr *p = &a->module->functions[x.fn].instrs[x.pc], *q = &b->module->functions[y.fn].instrs[y.pc];
    const ws_capture_line *r = ws_capture_line_of(a->capture, x.fn, x.pc), *s = ws_capture_line_of(b->capture, y.fn, y.pc);
    return p->opcode == q->opcode && r && s && r->space == s->space && r->is_store == s->is_store;
}

int ws_html_counterpart(const ws_launch *a, ws_html_instr in, const ws_launch *b, ws_html_instr *out)
{
    int shared = ws_capture_line_of(a->capture, in.fn, in.pc)->space == PTX_SPACE_SHARED, ordinal = 0;
    const ptx_function *K = a->kernel;
    int fa = (int)(K - a->module->functions), fb = (int)(b->kernel - b->module->functions);
    for (int i = 0; in.fn == fa && i < in.pc; i++)
        if (in_space(ws_capture_line_of(a->capture, fa, i), shared) && same_kind(a, in, a, (ws_html_instr){fa, i}))
            ordinal++;
    for (int i = 0; in.fn == fa && i < b->kernel->instr_count; i++)
        if (in_space(ws_capture_line_of(b->capture, fb, i), shared) && same_kind(a, in, b, (ws_html_instr){fb, i}) &&
            ordinal-- == 0) {
            *out = (ws_html_instr){fb, i};
            return 1;
        }
    ws_html_instr worst[WS_HTML_WORST];
    if (!ws_html_worst(b, shared, worst))
        return 0;
    *out = worst[0];
    return 1;
}

static void instr_heading(FILE *f, const ws_launch *l, ws_html_instr in)
{
    const ptx_function *F = &l->module->functions[in.fn];
    char *text = NULL, pos[512];
    size_t len = 0;
    ws_memstream ms;
    FILE *m = ws_memstream_open(&ms, &text, &len);
    if (m) {
        ptx_print_instr(l->module, F, &F->instrs[in.pc], m);
        ws_memstream_close(&ms);
    }
    fprintf(f, "<p class=\"instr\"><b>PTX line %d</b> <code>", F->instrs[in.pc].line);
    ws_html_text(f, text ? text : "");
    fputs("</code>", f);
    if (ws_source_position(l->module, &F->instrs[in.pc], 0, pos, sizeof pos)[0]) {
        fputs(" <span class=\"dim\">from ", f);
        ws_html_text(f, pos);
        fputs("</span>", f);
    }
    fputs("</p>\n", f);
    free(text);
}

void ws_html_instr_pictures(FILE *f, const ws_launch *l, ws_html_instr in, const char *id)
{
    const ws_capture_line *r = ws_capture_line_of(l->capture, in.fn, in.pc);
    const ws_capture_request *q = ws_capture_typical(r);
    int shared = r->space == PTX_SPACE_SHARED;
    const uint64_t *c = l->instr_counters[in.fn][in.pc];
    fprintf(f, "<figure class=\"mem\"%s%s%s>\n", id ? " id=\"" : "", id ? id : "", id ? "\"" : "");
    instr_heading(f, l, in);
    uint64_t req = shared ? c[WS_CTR_shared_ld_inst] + c[WS_CTR_shared_st_inst] + c[WS_CTR_shared_atom_inst]
                          : c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests];
    fprintf(f, "<p class=\"dim\">%" PRIu64 " requests, %.2f %s per request on average; the picture shows a request "
            "with the commonest count.</p>\n", req, ratio(volume(c, shared), req), shared ? "wavefronts" : "sectors");
    if (q) {
        if (shared)
            ws_svg_banks(f, l->arch, q);
        else
            ws_svg_sectors(f, l->arch, q);
    }
    ws_svg_histogram(f, r, shared ? "wavefronts" : "sectors");
    fputs("</figure>\n", f);
}

/* ---- Source with a heat margin ------------------------------------------------------ */

/* A margin cell: the value written, its background as strong as `heat` (0..1). */
static void heat_cell(FILE *f, const char *text, double heat, const char *what)
{
    heat = heat < 0 ? 0 : heat > 1 ? 1 : heat;
    fprintf(f, "<span class=\"m\" title=\"%s\"", what);
    if (heat > 0.02)
        fprintf(f, " style=\"background:rgba(213,94,0,%.2f)\"", 0.15 + 0.7 * heat);
    fprintf(f, ">%s</span>", text);
}

static void line_details(FILE *f, const ws_launch *l, const ws_line_totals *t)
{
    const uint64_t *c = t->c;
    fprintf(f, "<div class=\"more\"><p>%" PRIu64 " warp-instructions, %.1f active lanes each",
            c[WS_CTR_inst_executed], ratio(c[WS_CTR_thread_inst_executed], c[WS_CTR_inst_executed]));
    uint64_t sreq = c[WS_CTR_shared_ld_inst] + c[WS_CTR_shared_st_inst];
    uint64_t greq = c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests];
    if (sreq)
        fprintf(f, "; shared: %" PRIu64 " requests, %" PRIu64 " wavefronts, %" PRIu64 " bank conflicts", sreq,
                c[WS_CTR_shared_ld_wavefronts] + c[WS_CTR_shared_st_wavefronts],
                c[WS_CTR_shared_ld_bank_conflicts] + c[WS_CTR_shared_st_bank_conflicts]);
    if (greq)
        fprintf(f, "; global: %" PRIu64 " requests, %" PRIu64 " sectors", greq,
                c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors]);
    if (c[WS_CTR_branch_targets])
        fprintf(f, "; %" PRIu64 " branch targets, %" PRIu64 " divergent", c[WS_CTR_branch_targets],
                c[WS_CTR_branch_targets_divergent]);
    fputs(".</p>", f);
    uint64_t mine = ws_line_stall_cycles(c);
    if (ws_timing_result_of(l) && mine) {
        fprintf(f, "<p>Warp stall cycles: %" PRIu64 " (%.0f%% of the kernel's):", mine,
                100.0 * ratio(mine, ws_line_stall_cycles(l->counters)));
        for (int s = 0; s < WS_STALL_SELECTED; s++)
            if (c[WS_CTR_stall_long_scoreboard + s] * 20 >= mine)
                fprintf(f, " %s %.0f%%", ws_stall_names[s], 100.0 * ratio(c[WS_CTR_stall_long_scoreboard + s], mine));
        fputs(".</p>", f);
    }
    fputs("</div>", f);
}

/* The source file's lines, or NULL; *count of them. */
static char **read_lines(const char *path, int *count)
{
    FILE *src = fopen(path, "r");
    *count = 0;
    if (!src)
        return NULL;
    char **lines = NULL, buf[4096];
    int n = 0, cap = 0;
    while (fgets(buf, sizeof buf, src)) {
        size_t len = strlen(buf);
        if (len && buf[len - 1] == '\n')
            buf[--len] = 0;
        else   /* the rest of a very long line is left out */
            for (int ch; (ch = fgetc(src)) != EOF && ch != '\n';)
                ;
        if (n == cap) {
            char **grown = realloc(lines, sizeof *lines * (size_t)(cap = cap ? cap * 2 : 256));
            if (!grown)
                break;
            lines = grown;
        }
        lines[n++] = strdup(buf);
    }
    fclose(src);
    *count = n;
    return lines;
}

void ws_html_source(FILE *f, const ws_launch *l, int li)
{
    const char *cuda = ws_cuda_file_of(l), *path = cuda ? cuda : l->module->path;
    int n = 0, nsrc = 0;
    ws_line_totals *lines = cuda ? ws_gather_cuda_lines(l, cuda, &n) : ws_gather_lines(l, &n);
    char **src = read_lines(path, &nsrc);
    fputs("<h3>Source, line by line</h3>\n<p class=\"dim\">", f);
    ws_html_text(f, path);
    fputs(cuda ? " (the CUDA lines the PTX's .loc directives name)" : " (PTX)", f);
    fputs(". Margin: shared wavefronts per request, global sectors per request, divergent branch targets, share of "
          "the warps' stall cycles; the stronger the orange, the worse. Open a line for its counters.</p>\n", f);
    if (!src || !lines || !n) {
        fputs("<p>(the source cannot be read to annotate it)</p>\n", f);
        goto done;
    }
    double max_div = 0, max_stall = 0;
    uint64_t kernel_stall = ws_line_stall_cycles(l->counters);
    for (int k = 0; k < n; k++) {
        max_div = (double)lines[k].c[WS_CTR_branch_targets_divergent] > max_div ? (double)lines[k].c[WS_CTR_branch_targets_divergent] : max_div;
        double st = ratio(ws_line_stall_cycles(lines[k].c), kernel_stall);
        max_stall = st > max_stall ? st : max_stall;
    }
    /* the lines shown: the kernel's (PTX) or those around the counted ones (CUDA) */
    int first = lines[0].line - 3, last = lines[n - 1].line + 2;
    if (!cuda)
        for (int fn = 0; fn < l->module->function_count; fn++)
            if (l->instr_counters[fn] && l->module->functions[fn].line < first + 3)
                first = l->module->functions[fn].line;
    first = first < 1 ? 1 : first;
    last = last > nsrc ? nsrc : last;
    ws_html_instr worst[2][WS_HTML_WORST];
    int nworst[2] = {ws_html_worst(l, 1, worst[0]), ws_html_worst(l, 0, worst[1])};
    fputs("<div class=\"src\"><div class=\"row head\"><span class=\"m\">line</span><span class=\"m\">wf/req</span>"
          "<span class=\"m\">sec/req</span><span class=\"m\">diverg</span><span class=\"m\">stall</span>"
          "<span class=\"code\">source</span></div>\n", f);
    int k = 0;
    for (int ln = first; ln <= last; ln++) {
        while (k < n && lines[k].line < ln)
            k++;
        const ws_line_totals *t = k < n && lines[k].line == ln && lines[k].c[WS_CTR_inst_executed] ? &lines[k] : NULL;
        if (!t) {
            fprintf(f, "<div class=\"row cold\"><span class=\"m\">%d</span><span class=\"m\"></span><span class=\"m\">"
                    "</span><span class=\"m\"></span><span class=\"m\"></span><code class=\"code\">", ln);
            ws_html_text(f, src[ln - 1]);
            fputs("</code></div>\n", f);
            continue;
        }
        const uint64_t *c = t->c;
        uint64_t sreq = c[WS_CTR_shared_ld_inst] + c[WS_CTR_shared_st_inst];
        uint64_t greq = c[WS_CTR_global_ld_requests] + c[WS_CTR_global_st_requests];
        double wf = ratio(c[WS_CTR_shared_ld_wavefronts] + c[WS_CTR_shared_st_wavefronts], sreq);
        double sec = ratio(c[WS_CTR_global_ld_sectors] + c[WS_CTR_global_st_sectors], greq);
        double stall = ratio(ws_line_stall_cycles(c), kernel_stall);
        char a[24] = "", b[24] = "", d[24] = "", s[24] = "";
        if (sreq) snprintf(a, sizeof a, "%.2f", wf);
        if (greq) snprintf(b, sizeof b, "%.2f", sec);
        if (c[WS_CTR_branch_targets_divergent]) snprintf(d, sizeof d, "%" PRIu64, c[WS_CTR_branch_targets_divergent]);
        if (stall >= 0.005) snprintf(s, sizeof s, "%.0f%%", 100 * stall);
        fprintf(f, "<details class=\"row\" id=\"L%d-%d\"><summary><span class=\"m\">%d</span>", li, ln, ln);
        heat_cell(f, a, sreq ? (wf - 1) / 31 : 0, "shared wavefronts per request (1 = conflict-free)");
        heat_cell(f, b, greq ? (sec - 4) / 28 : 0, "global sectors per request (4 = coalesced 32-bit)");
        heat_cell(f, d, max_div > 0 ? (double)c[WS_CTR_branch_targets_divergent] / max_div : 0, "divergent branch targets");
        heat_cell(f, s, max_stall > 0 ? stall / max_stall : 0, "share of the warps' stall cycles");
        fputs("<code class=\"code\">", f);
        ws_html_text(f, src[ln - 1]);
        fputs("</code></summary>", f);
        line_details(f, l, t);
        for (int sp = 0; sp < 2; sp++)   /* links to this line's pictures */
            for (int w = 0; w < nworst[sp]; w++) {
                const ptx_instr *in = &l->module->functions[worst[sp][w].fn].instrs[worst[sp][w].pc];
                if ((cuda ? in->src_line : in->line) == ln)
                    fprintf(f, "<p class=\"more\"><a href=\"#m%d-%d-%d\">the %s picture of PTX line %d</a></p>", li,
                            worst[sp][w].fn, worst[sp][w].pc, sp ? "lanes-to-sectors" : "lanes-to-banks", in->line);
            }
        fputs("</details>\n", f);
    }
    fputs("</div>\n", f);
done:
    for (int i = 0; i < nsrc; i++)
        free(src[i]);
    free(src);
    free(lines);
}
