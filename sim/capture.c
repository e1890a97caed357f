/*
 * The records --html draws from (sim/capture.h): a histogram of each memory
 * instruction's cost per request with a few sample requests, and the traced
 * warp's active lanes step by step. All of it is allocated at set-up; the
 * hooks only count and copy.
 */
#include "sim/capture.h"

#include <stdlib.h>
#include <string.h>

static int touches_memory(const ptx_instr *in)
{
    switch (in->opcode) {
    case OP_ld: case OP_ldu: case OP_st: case OP_atom: case OP_red:
        return in->space != PTX_SPACE_PARAM;
    default:
        return 0;
    }
}

struct ws_capture *ws_capture_new(const ws_launch *l, int64_t trace_block, int trace_warp)
{
    const ptx_module *m = l->module;
    struct ws_capture *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->function_count = m->function_count;
    c->trace_block = trace_block < 0 ? 0 : trace_block;
    c->trace_warp = trace_block < 0 ? 0 : trace_warp;
    c->mem = calloc((size_t)m->function_count + 1, sizeof *c->mem);
    c->records = calloc((size_t)m->function_count + 1, sizeof *c->records);
    if (!c->mem || !c->records) {
        ws_capture_free(c);
        return NULL;
    }
    for (int f = 0; f < m->function_count; f++) {
        const ptx_function *F = &m->functions[f];
        if (!l->instr_counters[f])
            continue;
        int n = 0;
        for (int i = 0; i < F->instr_count; i++)
            n += touches_memory(&F->instrs[i]);
        if (!n)
            continue;
        /* one block of records for the function, indexed through a table of pointers */
        ws_capture_line *block = c->records[f] = calloc((size_t)n, sizeof *block);
        c->mem[f] = calloc((size_t)F->instr_count + 1, sizeof **c->mem);
        if (!block || !c->mem[f]) {
            ws_capture_free(c);
            return NULL;
        }
        int k = 0;
        for (int i = 0; i < F->instr_count; i++)
            if (touches_memory(&F->instrs[i])) {
                block[k].is_store = F->instrs[i].opcode == OP_st;
                block[k].atomic = F->instrs[i].opcode == OP_atom || F->instrs[i].opcode == OP_red;
                c->mem[f][i] = &block[k++];
            }
    }
    c->step_capacity = 256;
    c->steps = malloc(sizeof *c->steps * (size_t)c->step_capacity);
    if (!c->steps) {
        ws_capture_free(c);
        return NULL;
    }
    return c;
}

void ws_capture_free(struct ws_capture *c)
{
    if (!c)
        return;
    for (int f = 0; f < c->function_count; f++) {
        if (c->mem)
            free(c->mem[f]);
        if (c->records)
            free(c->records[f]);
    }
    free(c->mem);
    free(c->records);
    free(c->steps);
    free(c);
}

void ws_capture_access(ws_exec *x, ptx_space space, const uint64_t addr[WS_WARP_SIZE], uint32_t mask,
                       unsigned bytes_per_lane, int is_store, uint32_t cost)
{
    struct ws_capture *c = x->launch->capture;
    int fn = x->warp->frames[x->warp->frame_depth - 1].fn_index;
    ws_capture_line *r = c->mem[fn] ? c->mem[fn][x->pc] : NULL;
    (void)is_store;
    if (!r)
        return;
    uint64_t total = 0;
    for (int b = 0; b < WS_CAPTURE_BUCKETS; b++)
        total += r->histogram[b];
    if (!total)
        r->space = (uint8_t)space;
    else if (r->space != space)
        return;   /* a generic access whose lanes went elsewhere this time: one space per line */
    r->histogram[cost < WS_CAPTURE_BUCKETS - 1 ? cost : WS_CAPTURE_BUCKETS - 1]++;
    for (int s = 0; s < r->samples; s++)
        if (r->sample[s].cost == cost)
            return;
    if (r->samples == WS_CAPTURE_SAMPLES)
        return;
    ws_capture_request *q = &r->sample[r->samples++];
    memcpy(q->addr, addr, sizeof q->addr);
    q->mask = mask;
    q->cost = cost;
    q->bytes = bytes_per_lane;
}

void ws_capture_step_of(ws_launch *l, const ws_warp *w, int fn, int pc, uint32_t active, uint32_t mask)
{
    struct ws_capture *c = l->capture;
    if (c->step_count >= WS_CAPTURE_MAX_STEPS) {
        c->steps_dropped++;
        return;
    }
    if (c->step_count == c->step_capacity) {
        ws_capture_step *grown = realloc(c->steps, sizeof *grown * (size_t)c->step_capacity * 2);
        if (!grown) {
            c->steps_dropped++;
            return;
        }
        c->steps = grown;
        c->step_capacity *= 2;
    }
    const ws_simt_entry *top = &w->simt[w->simt_depth - 1];
    c->steps[c->step_count++] = (ws_capture_step){
        .fn = fn, .pc = pc, .rpc = top->rpc, .live = w->lanes & ~w->exited, .active = active, .mask = mask,
        .depth = w->simt_depth,
    };
}

const ws_capture_line *ws_capture_line_of(const struct ws_capture *c, int fn, int pc)
{
    return c && fn >= 0 && fn < c->function_count && c->mem[fn] ? c->mem[fn][pc] : NULL;
}

const ws_capture_request *ws_capture_typical(const ws_capture_line *r)
{
    if (!r || !r->samples)
        return NULL;
    int best = 0;
    for (int s = 1; s < r->samples; s++) {
        uint32_t a = r->sample[s].cost, b = r->sample[best].cost;
        uint64_t na = r->histogram[a < WS_CAPTURE_BUCKETS ? a : WS_CAPTURE_BUCKETS - 1];
        uint64_t nb = r->histogram[b < WS_CAPTURE_BUCKETS ? b : WS_CAPTURE_BUCKETS - 1];
        if (na > nb || (na == nb && a > b))   /* the commonest; on a tie, the costlier */
            best = s;
    }
    return &r->sample[best];
}
