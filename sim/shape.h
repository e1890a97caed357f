/*
 * Register shapes: what a warp knows about a register's 32 lanes without
 * reading them. A known shape says lane i holds base + i * stride (mod 2^64,
 * exactly the value the register row holds): a uniform value (stride 0), or
 * an address that steps through memory, as threadIdx.x-derived addresses do.
 * The rows are always written as well; shapes only let a memory access take
 * its lanes' addresses and span from a formula (sim/exec_mem.c) instead of
 * computing and searching 32 addresses.
 *
 * Who keeps them: step() (sim/machine.c), after each instruction's handler,
 * with the shape operation decode gave it (sim/shape.c). Integer address
 * arithmetic computes the result's shape from its sources' shapes; a move of
 * a special register or a parameter looks at the row once; every other
 * instruction forgets the shapes of the registers it writes, and so does a
 * partial warp. A new frame starts with every shape unknown.
 */
#ifndef WARPSIM_SIM_SHAPE_H
#define WARPSIM_SIM_SHAPE_H

#include <stdint.h>

#include "isa/ptx.h"
#include "sim/exec.h"
#include "sim/exec_fast.h"

/* Value registers of a function, by index (sim/state.h uses it too). */
typedef struct {
    int32_t *regs;
    int32_t count;
} ws_register_list;

typedef struct ws_shape {
    uint64_t base, stride;   /* lane i holds base + i * stride (mod 2^64) */
    uint8_t known;           /* 0: nothing known about the lanes */
} ws_shape;

/* What an instruction does to the shapes of the registers it writes. */
enum {
    WS_SHAPE_NONE,     /* writes no value register */
    WS_SHAPE_CLEAR,    /* writes dst[0..ndst-1]: their shapes are forgotten */
    WS_SHAPE_SCAN,     /* d = a parameter or a lane-dependent special register: the row is looked at once */
    WS_SHAPE_UNIFORM,  /* d = a symbol's address or a special register the same in every lane */
    WS_SHAPE_TID_X, WS_SHAPE_TID_Y, WS_SHAPE_TID_Z,   /* d = %tid.x, .y, .z: the warp's (ws_warp.tid_shape) */
    /* d = f(operands), computed from their shapes (the specialised handlers' operations, sim/exec_fast.c) */
    WS_SHAPE_ADD, WS_SHAPE_SUB, WS_SHAPE_MUL_LO, WS_SHAPE_MAD_LO, WS_SHAPE_MUL_WIDE_S, WS_SHAPE_MUL_WIDE_U,
    WS_SHAPE_MAD_WIDE_S, WS_SHAPE_MAD_WIDE_U, WS_SHAPE_SHL, WS_SHAPE_MOV, WS_SHAPE_SEXT,
};

typedef struct {
    uint8_t kind;              /* WS_SHAPE_* */
    uint8_t width;             /* the result's bits (32 or 64) for the computed kinds */
    uint8_t ndst;              /* WS_SHAPE_CLEAR: the value registers written */
    int32_t dst[PTX_MAX_VEC];
} ws_shape_op;

/* The shape operation of an instruction of module m: `special` its specialised handler (NULL: the
 * general one), `computes` what that handler computes (sim/exec_fast.h). */
void ws_shape_decode(const ptx_module *m, const ptx_instr *in, ws_exec_fn special, ws_handler_shape computes,
                     ws_shape_op *op);

/* Forget the operations on registers whose shape nothing reads (ops: one per instruction of fn);
 * *kept_regs lists the registers whose shapes are kept (a new frame clears those). Returns -1
 * when out of memory. */
int ws_shape_prune(const ptx_function *fn, ws_shape_op *ops, ws_register_list *kept_regs);

/* After the handler ran for the lanes of mask (not 0): the destination shapes. Out of line but for
 * the commonest case, an instruction that only forgets. */
void ws_shape_compute(ws_exec *x, const ws_shape_op *op, const ptx_instr *in, uint32_t mask);
static inline void ws_shape_after(ws_exec *x, const ws_shape_op *op, const ptx_instr *in, uint32_t mask)
{
    if (op->kind == WS_SHAPE_CLEAR) {
        for (unsigned i = 0; i < op->ndst; i++)
            x->shape[op->dst[i]].known = 0;
        return;
    }
    if (op->kind == WS_SHAPE_NONE)
        return;
    /* the commonest outcome where shapes are unknown (a 16 x 16 block's warps): an operand without one */
    const ptx_operand *a = &in->operand[1];
    ws_shape *d = &x->shape[op->dst[0]];
    if (op->kind >= WS_SHAPE_ADD && a->kind == PTX_OPD_REG && !x->shape[a->reg].known) {
        d->known = 0;
        return;
    }
    /* 64-bit address steps (add.s64 %rd, %rd, %rd or an immediate), inline: the commonest in loops */
    const ptx_operand *b = &in->operand[2];
    if (op->kind == WS_SHAPE_ADD && op->width == 64 && mask == WS_FULL_MASK && a->kind == PTX_OPD_REG) {
        const ws_shape *sa = &x->shape[a->reg];
        if (b->kind == PTX_OPD_IMM) {
            *d = (ws_shape){sa->base + (uint64_t)b->imm, sa->stride, 1};
            return;
        }
        if (b->kind == PTX_OPD_REG && x->shape[b->reg].known) {
            const ws_shape *sb = &x->shape[b->reg];
            *d = (ws_shape){sa->base + sb->base, sa->stride + sb->stride, 1};
            return;
        }
    }
    ws_shape_compute(x, op, in, mask);
}

/* The shape a row has, if it is one (*out.known). */
void ws_shape_of_row(const uint64_t row[WS_WARP_SIZE], ws_shape *out);

/* The lanes of a 32-bit result: a shape's values truncated (or, `sign`, sign-extended)
 * from their low 32 bits, when those are again one shape. Returns 0 when they are not. */
int ws_shape_narrow(uint64_t base, uint64_t stride, int sign, ws_shape *out);

#endif
