/*
 * Register shapes' data (the design is sim/shape.h's): what a warp knows of a
 * register's lanes, and what decode gives each instruction. Types only, so that
 * sim/state.h can hold them without depending on sim/shape.c.
 */
#ifndef WARPSIM_SIM_SHAPE_TYPES_H
#define WARPSIM_SIM_SHAPE_TYPES_H

#include <stdint.h>

#include "isa/ptx.h"

#define WS_SHAPE_LANES 32   /* a warp's lanes (WS_WARP_SIZE) */

/* Value registers of a function, by index (sim/state.h uses it too). */
typedef struct {
    int32_t *regs;
    int32_t count;
} ws_register_list;

/* Lane i holds base + (i % width) * stride + (i / width) * row_step (mod 2^64): one run of 32
 * lanes (width 32, row_step 0), or rows of 16, 8 or 4 lanes, as the warps of a block 16, 8 or 4
 * threads wide are. A one-row shape is never written as rows (ws_shape_of_row's form). */
typedef struct ws_shape {
    uint64_t base, stride, row_step;
    uint8_t known;           /* 0: nothing known about the lanes */
    uint8_t width;           /* lanes per row */
    uint8_t looked;          /* known 0: the row was looked at since it was last written, and has no shape */
} ws_shape;

/* The register was written: nothing is known of its lanes. */
static inline void ws_shape_forget(ws_shape *s)
{
    s->known = 0;
    s->looked = 0;
}

/* Whether known shapes a and b give every lane the same value. */
static inline int ws_shape_same(const ws_shape *a, const ws_shape *b)
{
    return a->base == b->base && a->stride == b->stride && a->width == b->width && a->row_step == b->row_step;
}

/* One run: lane i holds base + i * stride. */
static inline int ws_shape_is_run(const ws_shape *s)
{
    return s->known && s->width == WS_SHAPE_LANES;
}

/* One run of stride 0: every lane holds base (one address for the warp). */
static inline int ws_shape_is_one(const ws_shape *s)
{
    return ws_shape_is_run(s) && s->stride == 0;
}

/* What an instruction does to the shapes of the registers it writes. */
enum {
    WS_SHAPE_NONE,     /* writes no value register */
    WS_SHAPE_CLEAR,    /* writes dst[0..ndst-1]: their shapes are forgotten (looked for again when needed) */
    WS_SHAPE_UNIFORM,  /* d = a kernel parameter, a symbol's address or a special register the same in every lane */
    WS_SHAPE_TID_X, WS_SHAPE_TID_Y, WS_SHAPE_TID_Z,   /* d = %tid.x, .y, .z: the warp's (ws_warp.tid_shape) */
    /* d = f(operands) from their shapes, 64 bits (sim/exec_fast.c's handlers say which compute what) */
    WS_SHAPE_ADD, WS_SHAPE_MOV,
};

typedef struct {
    uint8_t kind;              /* WS_SHAPE_* */
    uint8_t width;             /* the result's bits for the computed kinds (64) */
    uint8_t ndst;              /* WS_SHAPE_CLEAR: the value registers written */
    int32_t dst[PTX_MAX_VEC];
} ws_shape_op;

/* What a specialised handler computes, for the register shapes (sim/exec_fast.c): a WS_SHAPE_*
 * operation and its result's bits; WS_SHAPE_NONE for the others. */
typedef struct {
    uint8_t kind, width;
} ws_handler_shape;

#endif
