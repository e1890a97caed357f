/*
 * Register shapes (the design is sim/shape.h's): which shape operation each
 * instruction has, and the shapes of integer results computed from their
 * sources' shapes. Every rule here must give exactly the row the handler
 * wrote: WARPSIM_CHECK_SHAPES=1 makes step() compare them (tests run the
 * course so).
 */
#include "sim/shape.h"

#include <stdlib.h>
#include <string.h>

#include "sim/exec_fast.h"
#include "sim/state.h"

#define MASK_32 UINT64_C(0xffffffff)

/* ---- Decode ---------------------------------------------------------------------- */

static void add_destination(ws_shape_op *op, int32_t reg)
{
    if (reg < 0)
        return;
    if (op->ndst == PTX_MAX_VEC) {   /* cannot happen (a vector has at most PTX_MAX_VEC): forget nothing wrongly */
        op->kind = WS_SHAPE_NONE;
        return;
    }
    op->dst[op->ndst++] = reg;
}

/* How a move of a special register knows its shape: the same in every lane (sim/operand.c), %tid
 * from the warp's layout, the lane masks and %laneid by looking. */
static uint8_t sreg_shape(ptx_sreg r)
{
    switch (r) {
    case PTX_SREG_TID_X: return WS_SHAPE_TID_X;
    case PTX_SREG_TID_Y: return WS_SHAPE_TID_Y;
    case PTX_SREG_TID_Z: return WS_SHAPE_TID_Z;
    case PTX_SREG_LANEID: case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_GT: case PTX_SREG_LANEMASK_GE:
        return WS_SHAPE_SCAN;
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
    if (d->kind == PTX_OPD_REG && in->opcode == OP_ld && in->space == PTX_SPACE_PARAM && in->vec <= 1) {
        /* a kernel's parameter is the same for every thread; a .func's lives in each thread's frame */
        const ptx_symbol *sym = m && a->symbol >= 0 && a->reg < 0 ? &m->symbols[a->symbol] : NULL;
        int kernel = sym && sym->kind == PTX_SYM_PARAM && sym->function >= 0 && m->functions[sym->function].is_entry;
        op->kind = kernel ? WS_SHAPE_UNIFORM : WS_SHAPE_SCAN;
        op->ndst = 1;
        op->dst[0] = d->reg;
        return;
    }
    if (kind != WS_SHAPE_NONE && d->kind == PTX_OPD_REG) {
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
    for (int i = 0; i < fn->instr_count; i++) {
        const ptx_instr *in = &fn->instrs[i];
        if (in->opcode != OP_ld && in->opcode != OP_st)
            continue;
        const ptx_operand *a = &in->operand[in->opcode == OP_ld ? 1 : 0];
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
        if (kept == 0 || (op->kind >= WS_SHAPE_SCAN && kept != 1))
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

WS_LANE_LOOPS void ws_shape_of_row(const uint64_t row[WS_WARP_SIZE], ws_shape *out)
{
    uint64_t base = row[0], stride = row[1] - row[0];
    lane_quad expect = {base, base + stride, base + 2 * stride, base + 3 * stride};
    lane_quad step = {4 * stride, 4 * stride, 4 * stride, 4 * stride}, differs = {0, 0, 0, 0};
    for (int q = 0; q < WS_WARP_SIZE; q += 4, expect += step) {
        lane_quad here;
        memcpy(&here, row + q, sizeof here);
        differs |= here ^ expect;
    }
    out->base = base;
    out->stride = stride;
    out->known = (differs[0] | differs[1] | differs[2] | differs[3]) == 0;
}

/* ws_shape_narrow's rule, for the computations below. */
static inline int narrow(uint64_t base, uint64_t stride, int sign, uint64_t *out_base, uint64_t *out_stride)
{
    /* The low 32 bits step by stride's low 32 bits, as a signed step; lane 0's value is in
     * range, and the lanes are one shape when lane 31's is too (they lie between). */
    int64_t first = sign ? (int64_t)(int32_t)(uint32_t)base : (int64_t)(base & MASK_32);
    int64_t step = (int64_t)(int32_t)(uint32_t)stride;
    int64_t last = first + 31 * step;
    if (sign ? last < INT32_MIN || last > INT32_MAX : last < 0 || last > (int64_t)MASK_32)
        return 0;
    *out_base = (uint64_t)first;
    *out_stride = (uint64_t)step;
    return 1;
}

int ws_shape_narrow(uint64_t base, uint64_t stride, int sign, ws_shape *out)
{
    if (!narrow(base, stride, sign, &out->base, &out->stride))
        return 0;
    out->known = 1;
    return 1;
}

/* An operand's shape: a known register's, or an immediate's (uniform). */
static inline int operand(const ws_exec *x, const ptx_operand *op, uint64_t *base, uint64_t *stride)
{
    if (op->kind == PTX_OPD_REG) {
        const ws_shape *s = &x->shape[op->reg];
        *base = s->base, *stride = s->stride;
        return s->known;
    }
    if (op->kind == PTX_OPD_IMM) {
        *base = (uint64_t)op->imm, *stride = 0;
        return 1;
    }
    return 0;
}

void ws_shape_compute(ws_exec *x, const ws_shape_op *op, const ptx_instr *in, uint32_t mask)
{
    ws_shape *d = &x->shape[op->dst[0]];
    const uint64_t *row = x->reg[op->dst[0]];
    switch (op->kind) {
    case WS_SHAPE_SCAN:
        if (mask == WS_FULL_MASK)
            ws_shape_of_row(row, d);
        else
            d->known = 0;
        return;
    case WS_SHAPE_UNIFORM:
        *d = (ws_shape){row[0], 0, mask == WS_FULL_MASK};
        return;
    case WS_SHAPE_TID_X:
    case WS_SHAPE_TID_Y:
    case WS_SHAPE_TID_Z: {
        /* the move copies the thread indices (under 2^16: no width cuts them) */
        const ws_shape *t = &x->warp->tid_shape[op->kind - WS_SHAPE_TID_X];
        *d = (ws_shape){row[0], t->stride, mask == WS_FULL_MASK && t->known && row[0] == t->base};
        return;
    }
    default:
        break;
    }
    /* the operands' shapes: a (all kinds), b (two or more operands), c (mad) */
    uint64_t ab, as, bb = 0, bs = 0, cb = 0, cs = 0, rb, rs;
    int binary = op->kind != WS_SHAPE_MOV && op->kind != WS_SHAPE_SEXT;
    int ternary = op->kind == WS_SHAPE_MAD_LO || op->kind == WS_SHAPE_MAD_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_U;
    if (mask != WS_FULL_MASK || !operand(x, &in->operand[1], &ab, &as) ||
        (binary && !operand(x, &in->operand[2], &bb, &bs)) || (ternary && !operand(x, &in->operand[3], &cb, &cs)))
        goto unknown;
    switch (op->kind) {
    case WS_SHAPE_ADD:
        rb = ab + bb, rs = as + bs;
        break;
    case WS_SHAPE_SUB:
        rb = ab - bb, rs = as - bs;
        break;
    case WS_SHAPE_MUL_WIDE_S:
    case WS_SHAPE_MAD_WIDE_S:
    case WS_SHAPE_MUL_WIDE_U:
    case WS_SHAPE_MAD_WIDE_U:
        /* the 32-bit operands as the handlers read them (sign-extended, or the low half), then their product */
        if (!narrow(ab, as, op->kind == WS_SHAPE_MUL_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_S, &ab, &as) ||
            !narrow(bb, bs, op->kind == WS_SHAPE_MUL_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_S, &bb, &bs))
            goto unknown;
        /* fall through */
    case WS_SHAPE_MUL_LO:
    case WS_SHAPE_MAD_LO:
        /* a * b, one of them uniform */
        if (bs == 0)
            rs = as * bb;
        else if (as == 0)
            rs = bs * ab;
        else
            goto unknown;
        rb = ab * bb;
        break;
    case WS_SHAPE_SHL: {
        /* by a uniform amount: a multiply by 2^amount, or 0 at or past the width */
        uint32_t amount = (uint32_t)bb;
        if (bs != 0)
            goto unknown;
        if (amount >= op->width)
            rb = 0, rs = 0;
        else
            rb = ab << amount, rs = as << amount;
        break;
    }
    case WS_SHAPE_MOV:
        rb = ab, rs = as;
        break;
    case WS_SHAPE_SEXT:
        if (!narrow(ab, as, 1, &rb, &rs))
            goto unknown;
        break;
    default:
        goto unknown;
    }
    rb += cb, rs += cs;   /* mad's addend (0 otherwise) */
    if (op->width == 32 && !narrow(rb, rs, 0, &rb, &rs))
        goto unknown;
    *d = (ws_shape){rb, rs, 1};
    return;
unknown:
    d->known = 0;
}
