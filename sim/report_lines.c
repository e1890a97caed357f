/* A launch's per-instruction counters summed line by line, and by kind of
 * instruction (sim/report_lines.h): the text, JSON and HTML reports rank and
 * annotate lines from these. */
#include "sim/report_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sass.h"

const char *ws_source_position(const ptx_module *m, const ptx_instr *in, int full, char *buf, size_t n)
{
    const char *path = in->src_file ? ptx_source_path(m, in->src_file) : NULL;
    if (!path) {
        buf[0] = 0;
        return buf;
    }
    const char *base = strrchr(path, '/');
    snprintf(buf, n, "%s:%d", full || !base ? path : base + 1, in->src_line);
    return buf;
}

static int line_cmp(const void *a, const void *b)
{
    const ws_line_totals *x = a, *y = b;
    return x->line != y->line ? x->line - y->line : x->function != y->function ? x->function - y->function
                                                                                : x->first_instr - y->first_instr;
}

/* The key an instruction is summed under: its PTX line, or its CUDA line when path is
 * given (0: not of that file). */
static int line_key(const ptx_module *m, const ptx_instr *in, const char *path)
{
    if (!path)
        return in->line;
    const char *p = in->src_file ? ptx_source_path(m, in->src_file) : NULL;
    return p && !strcmp(p, path) ? in->src_line : 0;
}

/* How many instructions the launch has counters for: the most rows a gathering can make. */
static int counted_instructions(const ws_launch *l)
{
    int total = 0;
    for (int f = 0; f < l->module->function_count; f++)
        if (l->instr_counters[f])
            total += l->module->functions[f].instr_count;
    return total;
}

static ws_line_totals *gather(const ws_launch *l, const char *path, int *count)
{
    const ptx_module *m = l->module;
    ws_line_totals *lines = calloc((size_t)counted_instructions(l) + 1, sizeof *lines);
    int n = 0;
    *count = 0;
    if (!lines)
        return NULL;
    for (int f = 0; f < m->function_count; f++) {
        if (!l->instr_counters[f])
            continue;
        const ptx_function *F = &m->functions[f];
        for (int i = 0; i < F->instr_count; i++) {
            int key = line_key(m, &F->instrs[i], path);
            if (key <= 0)
                continue;
            ws_line_totals *t = (n > 0 && lines[n - 1].line == key) ? &lines[n - 1] : &lines[n++];
            if (t->line != key) {
                t->line = key;
                t->function = f;
                t->first_instr = i;
            }
            for (int c = 0; c < WS_CTR_COUNT; c++)
                t->c[c] += l->instr_counters[f][i][c];
        }
    }
    qsort(lines, (size_t)n, sizeof *lines, line_cmp);
    /* a CUDA line's instructions need not be consecutive: merge equal keys */
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k > 0 && lines[k - 1].line == lines[i].line) {
            for (int c = 0; c < WS_CTR_COUNT; c++)
                lines[k - 1].c[c] += lines[i].c[c];
        } else {
            lines[k++] = lines[i];
        }
    }
    *count = k;
    return lines;
}

ws_line_totals *ws_gather_lines(const ws_launch *l, int *count) { return gather(l, NULL, count); }

ws_line_totals *ws_gather_cuda_lines(const ws_launch *l, const char *path, int *count)
{
    return gather(l, path, count);
}

const char *ws_cuda_file_of(const ws_launch *l)
{
    const ptx_function *k = l->kernel;
    for (int i = 0; i < k->instr_count; i++)
        if (k->instrs[i].src_file)
            return ptx_source_path(l->module, k->instrs[i].src_file);
    return NULL;
}

static void mix_kind(const ptx_instr *in, char *buf, size_t n)
{
    const char *space = in->space < PTX_SPACE_COUNT ? ptx_space_names[in->space] : "";
    const char *type = in->type < PTX_TYPE_COUNT ? ptx_types[in->type].name : "";
    snprintf(buf, n, "%s%s%s%s%s", ptx_opcodes[in->opcode].spelling, *space ? "." : "", space, *type ? "." : "",
             type);
}

static int mix_cmp(const void *a, const void *b)
{
    const ws_mix_totals *x = a, *y = b;
    uint64_t u = x->c[WS_CTR_inst_executed], v = y->c[WS_CTR_inst_executed];
    return u != v ? (u < v ? 1 : -1) : strcmp(x->kind, y->kind);
}

ws_mix_totals *ws_gather_mix(const ws_launch *l, int *count)
{
    const ptx_module *m = l->module;
    int n = 0;
    ws_mix_totals *mix = calloc((size_t)counted_instructions(l) + 1, sizeof *mix);
    *count = 0;
    if (!mix)
        return NULL;
    for (int f = 0; f < m->function_count; f++) {
        if (!l->instr_counters[f])
            continue;
        const ptx_function *F = &m->functions[f];
        for (int i = 0; i < F->instr_count; i++) {
            const uint64_t *c = l->instr_counters[f][i];
            if (!c[WS_CTR_inst_executed])
                continue;
            char kind[sizeof mix->kind];
            mix_kind(&F->instrs[i], kind, sizeof kind);
            int o0_class = (int)ws_o0_class_of(&F->instrs[i]);
            int k = 0;   /* a few tens of kinds: a linear search */
            while (k < n && (strcmp(mix[k].kind, kind) || mix[k].o0_class != o0_class))
                k++;
            if (k == n) {
                memcpy(mix[n].kind, kind, sizeof kind);
                mix[n++].o0_class = o0_class;
            }
            for (int j = 0; j < WS_CTR_COUNT; j++)
                mix[k].c[j] += c[j];
        }
    }
    qsort(mix, (size_t)n, sizeof *mix, mix_cmp);
    *count = n;
    return mix;
}
