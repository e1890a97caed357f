/*
 * Register shapes: what a warp knows about a register's 32 lanes without
 * reading them. A known shape says lane i holds base + i * stride (mod 2^64,
 * exactly the value the register row holds): a uniform value (stride 0), or
 * an address that steps through memory, as threadIdx.x-derived addresses do;
 * or the same in rows of 16, 8 or 4 lanes (sim/shape_types.h). The rows are
 * always written as well; shapes only let a memory access take its lanes'
 * addresses and span from a formula (sim/exec_mem_runs.c) instead of computing and
 * searching 32 addresses, and go in one pass.
 *
 * Who keeps them: ws_step() (sim/step.c) and sim/lockstep.c, after each instruction's handler,
 * with the shape operation decode gave it (sim/shape.c), for the registers
 * whose shapes are ever read (ws_shape_prune). A move of a kernel parameter,
 * a symbol or a special register knows its shape, and so does a cvta of a
 * kernel parameter loaded at the kernel's start; 64-bit adds and moves (the
 * address steps of loops) compute theirs from their operands'; every other
 * writer forgets the register's shape, and so does a partial warp. A shape
 * nothing knows is looked for in the row the first time an access needs it
 * (ws_shape_get), and kept until the register is written again. A new frame
 * starts with every shape unknown.
 */
#ifndef WARPSIM_SIM_SHAPE_H
#define WARPSIM_SIM_SHAPE_H

#include <stdint.h>

#include "isa/ptx.h"
#include "sim/exec.h"
#include "sim/shape_types.h"

/* The shape operation of an instruction of module m: `special` its specialised handler (NULL: the
 * general one), `computes` what that handler computes (sim/exec_fast.h). */
void ws_shape_decode(const ptx_module *m, const ptx_instr *in, ws_exec_fn special, ws_handler_shape computes,
                     ws_shape_op *op);

/* Forget the operations on registers whose shape nothing reads (ops: one per instruction of fn);
 * *kept_regs lists the registers whose shapes are kept (a new frame clears those). Returns -1
 * when out of memory. */
int ws_shape_prune(const ptx_function *fn, ws_shape_op *ops, ws_register_list *kept_regs);

/* The shape a row has, if it is one (*out.known). */
void ws_shape_of_row(const uint64_t row[WS_WARP_SIZE], ws_shape *out);

/* A kept register's shape (sim/shape.c: ws_shape_prune keeps it), its row looked at the first time
 * nothing is known since it was written: any row's shape is its own, whatever wrote it, until the
 * register is written again (its writers forget it then). */
void ws_shape_look(ws_exec *x, int32_t reg);
static inline const ws_shape *ws_shape_get(ws_exec *x, int32_t reg)
{
    ws_shape *s = &x->shape[reg];
    if (!s->known && !s->looked)
        ws_shape_look(x, reg);   /* out of line: the callers' common path stays short */
    return s;
}

/* The lanes of a 32-bit result: a shape's values truncated (or, `sign`, sign-extended)
 * from their low 32 bits, when those are again one shape (out may be in). Returns 0 when
 * they are not. */
static inline int ws_shape_narrow(const ws_shape *in, int sign, ws_shape *out)
{
    /* The low 32 bits step by the steps' low 32 bits, as signed steps; lane 0's value is in
     * range, and every lane's is when the corners' are (the values are linear in the lane's
     * column and row). */
    int64_t first = sign ? (int64_t)(int32_t)(uint32_t)in->base : (int64_t)(in->base & UINT64_C(0xffffffff));
    int64_t step = (int64_t)(int32_t)(uint32_t)in->stride, row_step = 0;
    int64_t lo = sign ? INT32_MIN : 0, hi = sign ? INT32_MAX : (int64_t)UINT64_C(0xffffffff);
    int64_t last_column = first + (in->width - 1) * step;
    if (last_column < lo || last_column > hi)
        return 0;
    if (in->width < WS_WARP_SIZE) {   /* the last row's first and last lanes */
        int64_t rows = WS_WARP_SIZE / in->width - 1;
        row_step = (int64_t)(int32_t)(uint32_t)in->row_step;
        if (first + rows * row_step < lo || first + rows * row_step > hi ||
            last_column + rows * row_step < lo || last_column + rows * row_step > hi)
            return 0;
    }
    *out = (ws_shape){(uint64_t)first, (uint64_t)step, (uint64_t)row_step, 1, in->width, 0};
    return 1;
}

/* A source operand's shape after its instruction ran: looked for as ws_shape_get does, but for the
 * destination itself, whose row already holds the result. */
static inline const ws_shape *ws_shape_source(ws_exec *x, int32_t reg, int32_t dst)
{
    return reg == dst ? &x->shape[reg] : ws_shape_get(x, reg);
}

/* A 64-bit add's destination shape d from its sources' sa and sb, both known, when they are the same rows, or
 * one run and rows (a uniform base and a 2D block's rows): the run taken as the rows, as ws_shape_compute's
 * same_rows does. Returns 0, having done nothing, when they are neither. */
static inline int ws_shape_add_rows(const ws_shape *sa, const ws_shape *sb, ws_shape *d)
{
    /* rows and a uniform step (a 2D block's address steps in loops): the rows, moved. d may be either. */
    const ws_shape *rows = sa->width < sb->width ? sa : sb, *other = sa->width < sb->width ? sb : sa;
    if (rows->width != other->width && other->width == WS_SHAPE_LANES && other->stride == 0) {
        *d = (ws_shape){sa->base + sb->base, rows->stride, rows->row_step, 1, rows->width, 0};
        return 1;
    }
    if (!(sb->width == sa->width || sa->width == WS_SHAPE_LANES || sb->width == WS_SHAPE_LANES))
        return 0;
    unsigned width = sa->width < sb->width ? sa->width : sb->width;
    uint64_t stride = sa->stride + sb->stride;
    uint64_t row_step = (sa->width == width ? sa->row_step : width * sa->stride) +
                        (sb->width == width ? sb->row_step : width * sb->stride);
    int run = width == WS_SHAPE_LANES || row_step == width * stride;   /* rows that make one run */
    *d = (ws_shape){sa->base + sb->base, stride, run ? 0 : row_step, 1, run ? WS_SHAPE_LANES : width, 0};
    return 1;
}

/* Register reg was written with one value for every lane (WS_SHAPE_UNIFORM): its shape is lane 0's value. */
static inline void ws_shape_set_uniform(ws_exec *x, int32_t reg)
{
    x->shape[reg] = (ws_shape){ws_row(x, reg)[0], 0, 0, 1, WS_SHAPE_LANES, 0};
}

/* After the handler ran for the lanes of mask (not 0): the destination shapes. Out of line
 * (ws_shape_compute, for a full warp: ws_shape_after forgets a partial warp's) but for the commonest cases:
 * an instruction that only forgets, a partial warp, a uniform value, a 64-bit move and a 64-bit add of an
 * immediate or of the same rows. */
void ws_shape_compute(ws_exec *x, const ws_shape_op *op, const ptx_instr *in);
static inline __attribute__((always_inline)) void ws_shape_after(ws_exec *x, const ws_shape_op *op,
                                                                  const ptx_instr *in, uint32_t mask)
{
    if (op->kind == WS_SHAPE_CLEAR) {
        for (unsigned i = 0; i < op->ndst; i++)
            ws_shape_forget(&x->shape[op->dst[i]]);
        return;
    }
    if (op->kind == WS_SHAPE_NONE)
        return;
    ws_shape *d = &x->shape[op->dst[0]];
    /* every rule needs every lane's value (the others keep their old ones): nothing is looked at */
    if (mask != WS_FULL_MASK) {
        ws_shape_forget(d);
        return;
    }
    if (op->kind == WS_SHAPE_UNIFORM) {   /* a kernel parameter's load, a symbol's address, a uniform %sreg */
        ws_shape_set_uniform(x, op->dst[0]);
        return;
    }
    const ptx_operand *a = &in->operand[1], *b = &in->operand[2];
    if (op->kind >= WS_SHAPE_ADD && a->kind == PTX_OPD_REG) {
        const ws_shape *sa = ws_shape_source(x, a->reg, op->dst[0]);
        if (!sa->known) {   /* the commonest outcome where shapes are unknown: an operand without one */
            ws_shape_forget(d);
            return;
        }
        if (op->kind == WS_SHAPE_MOV) {   /* 64 bits (decode's only width): the value itself (cvta too) */
            *d = *sa;
            return;
        }
        /* 64-bit address steps (add.s64 %rd, %rd, %rd of the same rows, or an immediate): the commonest in
         * loops */
        if (op->kind == WS_SHAPE_ADD && op->width == 64) {
            if (b->kind == PTX_OPD_IMM) {
                *d = *sa;
                d->base += (uint64_t)b->imm;
                return;
            }
            const ws_shape *sb = b->kind == PTX_OPD_REG ? ws_shape_source(x, b->reg, op->dst[0]) : NULL;
            if (sb && sb->known && ws_shape_add_rows(sa, sb, d))
                return;
        }
    }
    ws_shape_compute(x, op, in);
}

#endif
