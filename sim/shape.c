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

/* Whether row is one run, base + lane * stride (the commonest: four lanes at a time). */
WS_LANE_LOOPS static int one_run(const uint64_t row[WS_WARP_SIZE], uint64_t base, uint64_t stride)
{
    lane_quad expect = {base, base + stride, base + 2 * stride, base + 3 * stride};
    lane_quad step = {4 * stride, 4 * stride, 4 * stride, 4 * stride}, differs = {0, 0, 0, 0};
    for (int q = 0; q < WS_WARP_SIZE; q += 4, expect += step) {
        lane_quad here;
        memcpy(&here, row + q, sizeof here);
        differs |= here ^ expect;
    }
    return (differs[0] | differs[1] | differs[2] | differs[3]) == 0;
}

void ws_shape_of_row(const uint64_t row[WS_WARP_SIZE], ws_shape *out)
{
    *out = (ws_shape){.base = row[0], .stride = row[1] - row[0], .width = WS_WARP_SIZE};
    if (one_run(row, out->base, out->stride)) {
        out->known = 1;
        return;
    }
    for (unsigned width = WS_WARP_SIZE / 2; width >= 4; width /= 2) {   /* rows of a 2D block */
        uint64_t row_step = row[width] - row[0], differs = 0;
        for (unsigned lane = 0; lane < WS_WARP_SIZE; lane++)
            differs |= row[lane] ^ (out->base + (lane % width) * out->stride + (lane / width) * row_step);
        if (!differs) {
            out->row_step = row_step;
            out->width = (uint8_t)width;
            out->known = 1;
            return;
        }
    }
}

/* One row when the rows step on as the lanes do (the canonical form ws_shape_of_row finds). */
static inline void canonical(ws_shape *s)
{
    if (s->width < WS_WARP_SIZE && s->row_step == s->width * s->stride)
        s->width = WS_WARP_SIZE, s->row_step = 0;
}


/* An operand's shape: a known register's, or an immediate's (uniform). */
static inline int operand(const ws_exec *x, const ptx_operand *op, ws_shape *s)
{
    if (op->kind == PTX_OPD_REG) {
        *s = x->shape[op->reg];
        return s->known;
    }
    if (op->kind == PTX_OPD_IMM) {
        *s = (ws_shape){(uint64_t)op->imm, 0, 0, 1, WS_WARP_SIZE};
        return 1;
    }
    return 0;
}

static inline int uniform(const ws_shape *s) { return s->stride == 0 && s->row_step == 0; }

/* Give a and b the same rows: a uniform value or a one-row shape takes the other's. 0: they cannot. */
static int same_rows(ws_shape *a, ws_shape *b)
{
    if (a->width == b->width)
        return 1;
    ws_shape *wide = a->width > b->width ? a : b;
    unsigned width = a->width > b->width ? b->width : a->width;
    if (wide->width == WS_WARP_SIZE)
        wide->row_step = width * wide->stride;
    else if (!uniform(wide))
        return 0;
    wide->width = (uint8_t)width;
    return 1;
}

/* a * b, one of them uniform. */
static int product(ws_shape *a, ws_shape *b, ws_shape *r)
{
    if (uniform(b))
        *r = (ws_shape){a->base * b->base, a->stride * b->base, a->row_step * b->base, 1, a->width};
    else if (uniform(a))
        *r = (ws_shape){a->base * b->base, b->stride * a->base, b->row_step * a->base, 1, b->width};
    else
        return 0;
    return 1;
}

/* narrow() of a run: lanes 0 and 31 are its corners. */
static inline int narrow_run(uint64_t base, uint64_t stride, int sign, uint64_t *out_base, uint64_t *out_stride)
{
    int64_t first = sign ? (int64_t)(int32_t)(uint32_t)base : (int64_t)(base & MASK_32);
    int64_t step = (int64_t)(int32_t)(uint32_t)stride;
    int64_t last = first + 31 * step;
    if (sign ? last < INT32_MIN || last > INT32_MAX : last < 0 || last > (int64_t)MASK_32)
        return 0;
    *out_base = (uint64_t)first;
    *out_stride = (uint64_t)step;
    return 1;
}

/* The result's shape when every operand is one run (the commonest): ws_shape_compute's rules on
 * (base, stride). Returns 0 when the result has none. */
static int compute_run(const ws_shape_op *op, const ws_shape *a, const ws_shape *b, const ws_shape *c, ws_shape *d)
{
    uint64_t ab = a->base, as = a->stride, bb = b->base, bs = b->stride, rb, rs;
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
        if (!narrow_run(ab, as, op->kind == WS_SHAPE_MUL_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_S, &ab, &as) ||
            !narrow_run(bb, bs, op->kind == WS_SHAPE_MUL_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_S, &bb, &bs))
            return 0;
        /* fall through */
    case WS_SHAPE_MUL_LO:
    case WS_SHAPE_MAD_LO:
        if (bs == 0)
            rs = as * bb;
        else if (as == 0)
            rs = bs * ab;
        else
            return 0;
        rb = ab * bb;
        break;
    case WS_SHAPE_SHL:
        if (bs != 0)
            return 0;
        if ((uint32_t)bb >= op->width)
            rb = 0, rs = 0;
        else
            rb = ab << (uint32_t)bb, rs = as << (uint32_t)bb;
        break;
    case WS_SHAPE_MOV:
        rb = ab, rs = as;
        break;
    case WS_SHAPE_SEXT:
        if (!narrow_run(ab, as, 1, &rb, &rs))
            return 0;
        break;
    default:
        return 0;
    }
    rb += c->base, rs += c->stride;   /* mad's addend (0 otherwise) */
    if (op->width == 32 && !narrow_run(rb, rs, 0, &rb, &rs))
        return 0;
    *d = (ws_shape){rb, rs, 0, 1, WS_WARP_SIZE};
    return 1;
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
        *d = (ws_shape){row[0], 0, 0, mask == WS_FULL_MASK, WS_WARP_SIZE};
        return;
    case WS_SHAPE_TID_X:
    case WS_SHAPE_TID_Y:
    case WS_SHAPE_TID_Z: {
        /* the move copies the thread indices (under 2^16: no width cuts them) */
        const ws_shape *t = &x->warp->tid_shape[op->kind - WS_SHAPE_TID_X];
        *d = *t;
        d->known = mask == WS_FULL_MASK && t->known && row[0] == t->base;
        return;
    }
    default:
        break;
    }
    /* the operands' shapes: a (all kinds), b (two or more operands), c (mad) */
    ws_shape a, b = {0, 0, 0, 1, WS_WARP_SIZE}, c = {0, 0, 0, 1, WS_WARP_SIZE}, r;
    int binary = op->kind != WS_SHAPE_MOV && op->kind != WS_SHAPE_SEXT;
    int ternary = op->kind == WS_SHAPE_MAD_LO || op->kind == WS_SHAPE_MAD_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_U;
    if (mask != WS_FULL_MASK || !operand(x, &in->operand[1], &a) ||
        (binary && !operand(x, &in->operand[2], &b)) || (ternary && !operand(x, &in->operand[3], &c)))
        goto unknown;
    if ((a.width & b.width & c.width) == WS_WARP_SIZE) {   /* all one run: the rules on (base, stride) alone */
        if (!compute_run(op, &a, &b, &c, d))
            goto unknown;
        return;
    }
    switch (op->kind) {
    case WS_SHAPE_ADD:
    case WS_SHAPE_SUB: {
        if (!same_rows(&a, &b))
            goto unknown;
        uint64_t sign = op->kind == WS_SHAPE_SUB ? UINT64_MAX : 1;   /* a + sign * b */
        r = (ws_shape){a.base + sign * b.base, a.stride + sign * b.stride, a.row_step + sign * b.row_step, 1, a.width};
        break;
    }
    case WS_SHAPE_MUL_WIDE_S:
    case WS_SHAPE_MAD_WIDE_S:
    case WS_SHAPE_MUL_WIDE_U:
    case WS_SHAPE_MAD_WIDE_U: {
        /* the 32-bit operands as the handlers read them (sign-extended, or the low half), then their product */
        int sign = op->kind == WS_SHAPE_MUL_WIDE_S || op->kind == WS_SHAPE_MAD_WIDE_S;
        if (!ws_shape_narrow(&a, sign, &a) || !ws_shape_narrow(&b, sign, &b) || !product(&a, &b, &r))
            goto unknown;
        break;
    }
    case WS_SHAPE_MUL_LO:
    case WS_SHAPE_MAD_LO:
        if (!product(&a, &b, &r))
            goto unknown;
        break;
    case WS_SHAPE_SHL: {
        /* by a uniform amount: a multiply by 2^amount, or 0 at or past the width */
        uint32_t amount = (uint32_t)b.base;
        if (!uniform(&b))
            goto unknown;
        if (amount >= op->width)
            r = (ws_shape){0, 0, 0, 1, WS_WARP_SIZE};
        else
            r = (ws_shape){a.base << amount, a.stride << amount, a.row_step << amount, 1, a.width};
        break;
    }
    case WS_SHAPE_MOV:
        r = a;
        break;
    case WS_SHAPE_SEXT:
        if (!ws_shape_narrow(&a, 1, &r))
            goto unknown;
        break;
    default:
        goto unknown;
    }
    if (ternary) {   /* mad's addend */
        if (!same_rows(&r, &c))
            goto unknown;
        r.base += c.base, r.stride += c.stride, r.row_step += c.row_step;
    }
    if (op->width == 32 && !ws_shape_narrow(&r, 0, &r))
        goto unknown;
    canonical(&r);
    *d = r;
    return;
unknown:
    d->known = 0;
}
