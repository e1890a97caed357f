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

void ws_shape_decode(const ptx_instr *in, ws_exec_fn special, ws_handler_shape computes, ws_shape_op *op)
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
        op->kind = WS_SHAPE_SCAN;
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

int ws_shape_narrow(uint64_t base, uint64_t stride, int sign, ws_shape *out)
{
    /* The low 32 bits step by stride's low 32 bits, as a signed step; lane 0's value is in
     * range, and the lanes are one shape when lane 31's is too (they lie between). */
    int64_t first = sign ? (int64_t)(int32_t)(uint32_t)base : (int64_t)(base & MASK_32);
    int64_t step = (int64_t)(int32_t)(uint32_t)stride;
    int64_t last = first + 31 * step;
    int64_t lo = sign ? INT32_MIN : 0, hi = sign ? INT32_MAX : (int64_t)MASK_32;
    if (last < lo || last > hi)
        return 0;
    out->base = (uint64_t)first;
    out->stride = (uint64_t)step;
    out->known = 1;
    return 1;
}

/* An operand's shape: a known register's, or an immediate's (uniform). */
static int source(const ws_exec *x, const ptx_operand *op, ws_shape *s)
{
    if (op->kind == PTX_OPD_REG) {
        *s = x->shape[op->reg];
        return s->known;
    }
    if (op->kind == PTX_OPD_IMM) {
        s->base = (uint64_t)op->imm, s->stride = 0, s->known = 1;
        return 1;
    }
    return 0;
}

/* a * b where one of them is uniform. */
static int product(const ws_shape *a, const ws_shape *b, ws_shape *out)
{
    if (b->stride == 0)
        out->stride = a->stride * b->base;
    else if (a->stride == 0)
        out->stride = b->stride * a->base;
    else
        return 0;
    out->base = a->base * b->base;
    out->known = 1;
    return 1;
}

/* The 32-bit operands of mul.wide and mad.wide, as the handlers read them (sx32, or the low half). */
static int widened(const ws_shape *a, int sign, ws_shape *out)
{
    return ws_shape_narrow(a->base, a->stride, sign, out);
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
    ws_shape a, b = {0, 0, 0}, c = {0, 0, 0}, r = {0, 0, 0}, wa, wb;
    if (op->kind == WS_SHAPE_ADD && op->width == 64) {   /* address arithmetic's commonest: no narrowing */
        if (mask == WS_FULL_MASK && source(x, &in->operand[1], &a) && source(x, &in->operand[2], &b))
            *d = (ws_shape){a.base + b.base, a.stride + b.stride, 1};
        else
            d->known = 0;
        return;
    }
    int ok = mask == WS_FULL_MASK && source(x, &in->operand[1], &a);
    int binary = op->kind != WS_SHAPE_MOV && op->kind != WS_SHAPE_SEXT;
    int ternary = op->kind == WS_SHAPE_MAD_LO || op->kind == WS_SHAPE_MAD_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_U;
    ok = ok && (!binary || source(x, &in->operand[2], &b)) && (!ternary || source(x, &in->operand[3], &c));
    if (ok) {
        switch (op->kind) {
        case WS_SHAPE_ADD:
            r = (ws_shape){a.base + b.base, a.stride + b.stride, 1};
            break;
        case WS_SHAPE_SUB:
            r = (ws_shape){a.base - b.base, a.stride - b.stride, 1};
            break;
        case WS_SHAPE_MUL_LO:
        case WS_SHAPE_MAD_LO:
            ok = product(&a, &b, &r);
            break;
        case WS_SHAPE_MUL_WIDE_S:
        case WS_SHAPE_MAD_WIDE_S:
        case WS_SHAPE_MUL_WIDE_U:
        case WS_SHAPE_MAD_WIDE_U: {
            int sign = op->kind == WS_SHAPE_MUL_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_S;
            ok = widened(&a, sign, &wa) && widened(&b, sign, &wb) && product(&wa, &wb, &r);
            break;
        }
        case WS_SHAPE_SHL: {
            /* by a uniform amount: a multiply by 2^amount, or 0 at or past the width */
            uint32_t amount = (uint32_t)b.base;
            if (b.stride != 0)
                ok = 0;
            else if (amount >= op->width)
                r = (ws_shape){0, 0, 1};
            else
                r = (ws_shape){a.base << amount, a.stride << amount, 1};
            break;
        }
        case WS_SHAPE_MOV:
            r = a;
            break;
        case WS_SHAPE_SEXT:
            ok = widened(&a, 1, &r);
            break;
        default:
            ok = 0;
            break;
        }
    }
    if (ok && ternary)
        r.base += c.base, r.stride += c.stride;
    if (ok && op->width == 32)
        ok = ws_shape_narrow(r.base, r.stride, 0, &r);
    if (!ok) {
        d->known = 0;
        return;
    }
    *d = r;
}
