/*
 * Register shapes (the design is sim/shape.h's): which shape operation each
 * instruction has, and the shapes of integer results computed from their
 * sources' shapes. Every rule here must give exactly the row the handler
 * wrote: WARPSIM_CHECK_SHAPES=1 makes ws_step() compare them (tests run the
 * course so).
 */
#include "sim/shape.h"

#include <stdlib.h>
#include <string.h>

#include "sim/state.h"

#define MASK_32 UINT64_C(0xffffffff)

/* ---- Decode ---------------------------------------------------------------------- */

/* A register the instruction writes (at most PTX_MAX_VEC: a vector's elements, the caller's bound). */
static void add_destination(ws_shape_op *op, int32_t reg)
{
    if (reg >= 0)
        op->dst[op->ndst++] = reg;
}

/* How a move of a special register knows its shape: the same in every lane (sim/operand.c), %tid
 * from the warp's layout, the lane masks and %laneid by looking when needed. */
static uint8_t sreg_shape(ptx_sreg r)
{
    switch (r) {
    case PTX_SREG_TID_X: return WS_SHAPE_TID_X;
    case PTX_SREG_TID_Y: return WS_SHAPE_TID_Y;
    case PTX_SREG_TID_Z: return WS_SHAPE_TID_Z;
    case PTX_SREG_LANEID: case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_GT: case PTX_SREG_LANEMASK_GE:
        return WS_SHAPE_CLEAR;   /* looked at when needed */
    default:
        return WS_SHAPE_UNIFORM;
    }
}

void ws_shape_decode(const ptx_module *m, const ptx_instr *in, ws_exec_fn special, ws_handler_shape computes,
                     ws_shape_op *op)
{
    memset(op, 0, sizeof *op);
    if (!ws_instr_has_destination(in) || in->operand_count == 0)
        return;
    const ptx_operand *d = &in->operand[0];
    unsigned kind = special ? computes.kind : WS_SHAPE_NONE, width = computes.width;
    /* before the handler's kind: a special register or a symbol is no operand it has a shape for */
    const ptx_operand *a = &in->operand[1];
    if (d->kind == PTX_OPD_REG && in->operand_count > 1 && in->opcode == OP_mov &&
        (a->kind == PTX_OPD_SYMBOL || a->kind == PTX_OPD_SREG)) {
        op->kind = a->kind == PTX_OPD_SYMBOL ? WS_SHAPE_UNIFORM : sreg_shape((ptx_sreg)a->reg);
        op->ndst = 1;
        op->dst[0] = d->reg;
        return;
    }
    /* a kernel's parameter is the same for every thread (a .func's lives in each thread's frame) */
    const ptx_symbol *sym = m && in->operand_count > 1 && a->symbol >= 0 && a->reg < 0 ? &m->symbols[a->symbol] : NULL;
    if (d->kind == PTX_OPD_REG && in->opcode == OP_ld && in->space == PTX_SPACE_PARAM && in->vec <= 1 && sym &&
        sym->kind == PTX_SYM_PARAM && sym->function >= 0 && m->functions[sym->function].is_entry) {
        op->kind = WS_SHAPE_UNIFORM;
        op->ndst = 1;
        op->dst[0] = d->reg;
        return;
    }
    /* 64-bit moves and adds (the address steps of loops) keep their result's shape as they run; any
     * other result is looked at when an access needs its shape (ws_shape_get): computing every
     * integer result's shape cost more than it saved (bench/README.md, "Issue 15, third steps") */
    if (kind != WS_SHAPE_NONE && width == 64 && d->kind == PTX_OPD_REG) {
        op->kind = (uint8_t)kind;
        op->width = (uint8_t)width;
        op->ndst = 1;
        op->dst[0] = d->reg;
        return;
    }
    op->kind = WS_SHAPE_CLEAR;
    if (d->kind == PTX_OPD_REG)
        add_destination(op, d->reg);
    else if (d->kind == PTX_OPD_VEC)
        for (int e = 0; e < d->count && e < PTX_MAX_VEC; e++)
            add_destination(op, d->regs[e]);
    /* a d|q pair's q is a predicate: predicates have no shapes */
    if (op->kind == WS_SHAPE_CLEAR && op->ndst == 0)
        op->kind = WS_SHAPE_NONE;
}

/* The instructions every warp of a kernel runs once, all its lanes at once, before any other: those before
 * the first that may move the SIMT stack (a branch, a barrier, a call, an exit) or that a branch may reach.
 * Returns how many. */
static int straight_start(const ptx_function *fn)
{
    int end = fn->instr_count;
    for (int i = 0; i < fn->instr_count; i++) {
        const ptx_instr *in = &fn->instrs[i];
        ptx_class cls = ptx_opcodes[in->opcode].cls;
        if ((cls == PTX_CLASS_CTRL || cls == PTX_CLASS_SYNC) && i < end)
            end = i;
        for (int k = 0; k < in->operand_count; k++)
            if (in->operand[k].kind == PTX_OPD_LABEL && in->operand[k].imm < end)
                end = in->operand[k].imm < 0 ? 0 : (int)in->operand[k].imm;
    }
    return end;
}

/* A kernel's 64-bit moves (cvta of a parameter) of a register whose one writer is a uniform value's
 * (a kernel parameter's load) before them, at the kernel's straight start and unguarded: a full warp's
 * move has all its lanes, so they all ran that load, and the move is a uniform value too
 * (WS_SHAPE_UNIFORM), the load's shape no longer needed. ops: decode's, not yet pruned. Returns -1 when
 * out of memory. */
static int uniform_moves(const ptx_function *fn, ws_shape_op *ops)
{
    if (!fn->is_entry)
        return 0;
    int32_t *writer = malloc((size_t)fn->value_reg_count * sizeof *writer);   /* -1 none, -2 several */
    if (!writer)
        return -1;
    for (int r = 0; r < fn->value_reg_count; r++)
        writer[r] = -1;
    for (int j = 0; j < fn->instr_count; j++)
        for (unsigned k = 0; k < ops[j].ndst; k++) {
            int32_t r = ops[j].dst[k];
            if (r >= 0 && r < fn->value_reg_count)
                writer[r] = writer[r] == -1 ? j : -2;
        }
    int start = straight_start(fn);
    for (int i = 0; i < fn->instr_count; i++) {
        const ptx_operand *a = &fn->instrs[i].operand[1];
        if (ops[i].kind != WS_SHAPE_MOV || a->kind != PTX_OPD_REG || a->reg < 0 || a->reg >= fn->value_reg_count)
            continue;
        int32_t w = writer[a->reg];
        if (w >= 0 && w < i && w < start && ops[w].kind == WS_SHAPE_UNIFORM && fn->instrs[w].guard < 0)
            ops[i].kind = WS_SHAPE_UNIFORM;
    }
    free(writer);
    return 0;
}

/* Which shapes are ever read: those of registers a load or store takes its address from,
 * and, in turn, of the registers their shapes are computed from. Every other register's
 * shape is never looked at, so its writers need not keep it (WS_SHAPE_NONE): a loop
 * counter or a float costs nothing. */
int ws_shape_prune(const ptx_function *fn, ws_shape_op *ops, ws_register_list *kept_regs)
{
    kept_regs->regs = NULL;
    kept_regs->count = 0;
    if (fn->value_reg_count <= 0)
        return 0;
    uint8_t *read = calloc((size_t)fn->value_reg_count, 1);
    if (!read)
        return -1;
    if (uniform_moves(fn, ops) < 0) {
        free(read);
        return -1;
    }
    for (int i = 0; i < fn->instr_count; i++) {
        const ptx_instr *in = &fn->instrs[i];
        if (in->opcode != OP_ld && in->opcode != OP_ldu && in->opcode != OP_st)
            continue;   /* the instructions whose addresses sim/exec_mem_runs.c takes from shapes */
        const ptx_operand *a = &in->operand[in->opcode == OP_st ? 0 : 1];
        if (a->kind == PTX_OPD_ADDR && a->reg >= 0 && a->reg < fn->value_reg_count)
            read[a->reg] = 1;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < fn->instr_count; i++) {
            const ws_shape_op *op = &ops[i];
            if (op->kind < WS_SHAPE_ADD || !read[op->dst[0]])
                continue;
            const ptx_instr *in = &fn->instrs[i];
            for (int k = 1; k < in->operand_count; k++) {
                const ptx_operand *o = &in->operand[k];
                if (o->kind == PTX_OPD_REG && o->reg >= 0 && o->reg < fn->value_reg_count && !read[o->reg])
                    read[o->reg] = 1, changed = 1;
            }
        }
    }
    for (int i = 0; i < fn->instr_count; i++) {
        ws_shape_op *op = &ops[i];
        int kept = 0;
        for (unsigned k = 0; k < op->ndst; k++)
            if (op->dst[k] >= 0 && op->dst[k] < fn->value_reg_count && read[op->dst[k]])
                op->dst[kept++] = op->dst[k];
        op->ndst = (uint8_t)kept;
        if (kept == 0 || (op->kind >= WS_SHAPE_UNIFORM && kept != 1))
            memset(op, 0, sizeof *op);
    }
    int n = 0;
    for (int r = 0; r < fn->value_reg_count; r++)
        n += read[r];
    if (n && !(kept_regs->regs = malloc((size_t)n * sizeof *kept_regs->regs))) {
        free(read);
        return -1;
    }
    for (int r = 0; r < fn->value_reg_count; r++)
        if (read[r])
            kept_regs->regs[kept_regs->count++] = r;
    free(read);
    return 0;
}

/* ---- Shapes of results -------------------------------------------------------------- */

/* Four lanes at a time (GNU C vector extension). */
typedef uint64_t lane_quad __attribute__((vector_size(32)));
typedef uint64_t lane_pair __attribute__((vector_size(16)));

/* Whether row is one run, base + lane * stride (the commonest: four lanes at a time). Inline in its callers'
 * AVX2 clones. */
static inline int one_run(const uint64_t row[WS_WARP_SIZE], uint64_t base, uint64_t stride)
{
    lane_quad expect = {base, base + stride, base + 2 * stride, base + 3 * stride};
    lane_quad step = {4 * stride, 4 * stride, 4 * stride, 4 * stride}, differs = {0, 0, 0, 0};
    for (int q = 0; q < WS_WARP_SIZE; q += 4, expect += step) {
        lane_quad here;
        memcpy(&here, row + q, sizeof here);
        differs |= here ^ expect;
    }
    lane_pair low, high;   /* two lanes at a time, then one */
    memcpy(&low, &differs, sizeof low);
    memcpy(&high, (const char *)&differs + sizeof low, sizeof high);
    low |= high;
    return (low[0] | low[1]) == 0;
}

/* Whether row is base + (lane % width) * stride + (lane / width) * row_step, four lanes at a time (a
 * width of 4 or more: no four lanes cross a row). */
WS_LANE_LOOPS static int in_rows(const uint64_t row[WS_WARP_SIZE], uint64_t base, uint64_t stride, uint64_t row_step,
                                 unsigned width)
{
    const lane_quad steps = {0, stride, 2 * stride, 3 * stride};
    lane_quad differs = {0, 0, 0, 0};
    for (unsigned q = 0; q < WS_WARP_SIZE; q += 4) {
        lane_quad here;
        memcpy(&here, row + q, sizeof here);
        differs |= here ^ (steps + (base + (q % width) * stride + (q / width) * row_step));
    }
    return (differs[0] | differs[1] | differs[2] | differs[3]) == 0;
}

/* ws_shape_of_row's rows of 16, 8 or 4 lanes (a 2D block's), the widest first, once the row is no run
 * (out: its lane 0 and stride). Lane 31 is tried first: rows of another width are told by it alone. Out of
 * line: the run's path stays short. */
__attribute__((noinline)) static void of_rows(const uint64_t row[WS_WARP_SIZE], ws_shape *out)
{
    const uint64_t base = out->base, stride = out->stride, last = WS_WARP_SIZE - 1;
    for (unsigned width = WS_WARP_SIZE / 2; width >= 4; width /= 2) {
        uint64_t row_step = row[width] - base;
        if (row[last] == base + (last % width) * stride + (last / width) * row_step &&
            in_rows(row, base, stride, row_step, width)) {
            out->row_step = row_step;
            out->width = (uint8_t)width;
            out->known = 1;
            return;
        }
    }
}

/* ws_shape_of_row, inline in ws_shape_look (each an AVX2 clone: the run's test inline in it). */
static inline void of_row(const uint64_t row[WS_WARP_SIZE], ws_shape *out)
{
    *out = (ws_shape){.base = row[0], .stride = row[1] - row[0], .width = WS_WARP_SIZE};
    if (one_run(row, out->base, out->stride)) {
        out->known = 1;
        return;
    }
    of_rows(row, out);
}

WS_LANE_LOOPS void ws_shape_of_row(const uint64_t row[WS_WARP_SIZE], ws_shape *out)
{
    of_row(row, out);
}

/* ws_shape_get's look at the row. */
WS_LANE_LOOPS void ws_shape_look(ws_exec *x, int32_t reg)
{
    ws_shape *s = &x->shape[reg];
    of_row(ws_row(x, reg), s);
    s->looked = 1;
}

/* One row when the rows step on as the lanes do (the canonical form ws_shape_of_row finds). */
static inline void canonical(ws_shape *s)
{
    if (s->width < WS_WARP_SIZE && s->row_step == s->width * s->stride)
        s->width = WS_WARP_SIZE, s->row_step = 0;
}

/* An operand's shape: a register's (looked at if need be), or an immediate's (uniform). */
static inline int operand(ws_exec *x, const ptx_operand *op, int32_t dst, ws_shape *s)
{
    if (op->kind == PTX_OPD_REG) {
        *s = *ws_shape_source(x, op->reg, dst);
        return s->known;
    }
    if (op->kind == PTX_OPD_IMM) {
        *s = (ws_shape){(uint64_t)op->imm, 0, 0, 1, WS_WARP_SIZE, 0};
        return 1;
    }
    return 0;
}

/* Give a and b the same rows: a uniform value or a one-row shape takes the other's. 0: they cannot. */
static int same_rows(ws_shape *a, ws_shape *b)
{
    if (a->width == b->width)
        return 1;
    ws_shape *wide = a->width > b->width ? a : b;
    unsigned width = a->width > b->width ? b->width : a->width;
    if (wide->width == WS_WARP_SIZE)
        wide->row_step = width * wide->stride;
    else if (wide->stride != 0 || wide->row_step != 0)
        return 0;
    wide->width = (uint8_t)width;
    return 1;
}

void ws_shape_compute(ws_exec *x, const ws_shape_op *op, const ptx_instr *in)
{
    ws_shape *d = &x->shape[op->dst[0]];
    const uint64_t *row = ws_row(x, op->dst[0]);
    ws_shape a, b;
    switch (op->kind) {
    case WS_SHAPE_UNIFORM:
        ws_shape_set_uniform(x, op->dst[0]);
        return;
    case WS_SHAPE_TID_X:
    case WS_SHAPE_TID_Y:
    case WS_SHAPE_TID_Z: {
        /* the move copies the thread indices (under 2^16: no width cuts them) */
        const ws_shape *t = &x->warp->tid_shape[op->kind - WS_SHAPE_TID_X];
        *d = *t;
        d->known = t->known && row[0] == t->base;
        return;
    }
    case WS_SHAPE_MOV:   /* 64 bits: the value itself */
        if (!operand(x, &in->operand[1], op->dst[0], &a))
            break;
        *d = a;
        return;
    case WS_SHAPE_ADD:   /* 64 bits, mod 2^64 as the lanes add: the shapes add, once in the same rows */
        if (!operand(x, &in->operand[1], op->dst[0], &a) || !operand(x, &in->operand[2], op->dst[0], &b) ||
            !same_rows(&a, &b))
            break;
        *d = (ws_shape){a.base + b.base, a.stride + b.stride, a.row_step + b.row_step, 1, a.width, 0};
        canonical(d);
        return;
    default:
        break;
    }
    ws_shape_forget(d);
}
