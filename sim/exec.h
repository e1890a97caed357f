/*
 * The executor's view of one warp-instruction.
 *
 * Every opcode of isa/opcodes.def has one handler, exec_<id>, that runs the
 * instruction for the lanes of `mask` (active lanes whose guard predicate is
 * true). Handlers work on 32-lane arrays: a register's row holds its 32 lanes
 * side by side (ws_row), so the loops over lanes are tight and vectorisable.
 * Rows are reg_stride lanes apart: a kernel's frame keeps register r of a
 * block's warps together (row r of warp k at reg + (r * warps + k) * 32), so
 * that a group of warps at one instruction reads each operand as one stream
 * (sim/lockstep.c); a called function's frame has the warp's rows alone.
 *
 * Register values are kept zero-extended from their width (a .b32 register
 * holding -1 reads 0x00000000ffffffff); floats are their IEEE bit patterns
 * (an f32 in the low 32 bits). Handlers write results truncated to the
 * destination's width with ws_set().
 */
#ifndef WARPSIM_SIM_EXEC_H
#define WARPSIM_SIM_EXEC_H

#include <stdint.h>
#include <string.h>

#include "isa/bits.h"
#include "isa/ptx.h"
#include "sim/operand.h"

#define WS_WARP_SIZE 32
#define WS_FULL_MASK 0xffffffffu

typedef struct ws_launch ws_launch;   /* sim/state.h */
typedef struct ws_block ws_block;
typedef struct ws_warp ws_warp;

/* What a handler may touch. */
typedef struct ws_exec {
    ws_launch *launch;
    ws_block *block;
    ws_warp *warp;
    const ptx_function *fn;                  /* the function the warp is executing */
    uint64_t *reg;                           /* value registers of the current frame: row 0 (ws_row) */
    uint32_t reg_stride;                     /* lanes from one row to the next: 32 x the warps that share them */
    uint32_t *pred;                          /* predicate registers (lane masks) of the current frame */
    uint32_t *carry;                         /* the warp's carry flag (CC.CF), one bit per lane */
    uint32_t active;                         /* lanes active at this instruction (before the guard) */
    int32_t pc;                              /* index of the instruction being executed */
    int32_t next_pc;                         /* control handlers set it; others leave pc + 1 */
    uint64_t *counters;                      /* this instruction's counters (WS_CTR_*) */
    struct ws_shape *shape;                  /* the value registers' shapes (sim/shape.h) */
} ws_exec;

typedef void (*ws_exec_fn)(ws_exec *x, const ptx_instr *in, uint32_t mask);
/* A specialised handler's wide form (sim/exec_fast.c): a group's n warps at once (sim/lockstep.c), every
 * lane active, their rows side by side (a kernel frame's): x is the first warp's context, and the
 * handler's full-warp path runs over the n * 32 lanes, with no call and no operand test between warps.
 * The same results as the handler on each warp in turn. */
typedef void (*ws_wide_fn)(ws_exec *x, const ptx_instr *in, int n);

/* One handler per opcode. */
#define OP(id, spelling, cls, shape, types, groups, rules, semantics) \
    void exec_##id(ws_exec *x, const ptx_instr *in, uint32_t mask);
#define ALIAS(spelling, id, rules)
#include "isa/opcodes.def"
#undef OP
#undef ALIAS

/* ---- Operands ------------------------------------------------------------ */

/* Value register r's 32 lanes. */
static inline uint64_t *ws_row(const ws_exec *x, int32_t r)
{
    return x->reg + (size_t)r * x->reg_stride;
}

/* The 32 lane values of a source operand: a register's own array, or `tmp` filled in. */
static inline const uint64_t *ws_src(ws_exec *x, const ptx_operand *op, uint64_t tmp[WS_WARP_SIZE])
{
    if (op->kind == PTX_OPD_REG)
        return ws_row(x, op->reg);
    if (op->kind == PTX_OPD_IMM) {
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            tmp[lane] = (uint64_t)op->imm;
        return tmp;
    }
    ws_read_operand_slow(x, op, tmp);
    return tmp;
}

/* A predicate source as a lane mask, negation applied. */
static inline uint32_t ws_pred_src(ws_exec *x, const ptx_operand *op)
{
    uint32_t m;
    if (op->kind == PTX_OPD_PRED)
        m = x->pred[op->reg];
    else /* an immediate 0/1 */
        m = op->imm ? WS_FULL_MASK : 0;
    return op->negated ? ~m : m;
}

/* Write predicate destination `op` for the lanes of mask. */
static inline void ws_pred_set(ws_exec *x, const ptx_operand *op, uint32_t mask, uint32_t value)
{
    if (op->kind != PTX_OPD_PRED)
        return; /* a sink */
    x->pred[op->reg] = (x->pred[op->reg] & ~mask) | (value & mask);
}

/* The destination register's lane array, or NULL for a sink. */
static inline uint64_t *ws_dst(ws_exec *x, const ptx_operand *op)
{
    return op->kind == PTX_OPD_REG ? ws_row(x, op->reg) : NULL;
}

/* ---- Values by type --------------------------------------------------------- */

static inline unsigned ws_type_bits(ptx_type t) { return ptx_types[t].size * 8; }

/* Keep the low `bits` bits (bits = 8, 16, 32 or 64). */
static inline uint64_t ws_trunc(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

/* Sign-extend the low `bits` bits. */
static inline int64_t ws_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t sign = UINT64_C(1) << (bits - 1);
    v = ws_trunc(v, bits);
    return (int64_t)((v ^ sign) - sign);
}

/* A register's f32 (low 32 bits) or f64 value, and back (isa/bits.h). */
static inline float ws_f32(uint64_t v) { return ptx_bits_f32((uint32_t)v); }
static inline uint64_t ws_f32_bits(float f) { return ptx_f32_bits(f); }
static inline double ws_f64(uint64_t v) { return ptx_bits_f64(v); }
static inline uint64_t ws_f64_bits(double d) { return ptx_f64_bits(d); }

/* Lanes in a mask. Written out rather than __builtin_popcount, which is a
 * library call on baseline x86-64 (no popcnt instruction there). */
static inline unsigned ws_popcount(uint32_t v)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
    return (unsigned)__builtin_popcount(v);
#else
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
#endif
}

/* On a lane loop that dominates run time: on x86-64 Linux with GCC, also
 * compile it for AVX2 (4 lanes per instruction instead of SSE2's 2); the
 * dynamic loader picks the version the CPU runs. Elsewhere nothing; nor
 * under ThreadSanitizer, whose instrumented resolvers crash before it starts. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__) && !defined(WARPSIM_NO_CLONES)
#define WS_LANE_LOOPS __attribute__((target_clones("avx2", "default")))
#else
#define WS_LANE_LOOPS
#endif

#define WS_FOR_LANES(mask, lane) \
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) \
        if ((mask) >> lane & 1u)

/* The same lanes in the same order, visiting only the set bits: for masks
 * that are often sparse or empty, where 32 tests would cost more. */
#define WS_FOR_SET_LANES(mask, lane) \
    for (uint32_t lane##_left = (mask), lane = 0; \
         lane##_left && (lane = (uint32_t)__builtin_ctz(lane##_left), 1); lane##_left &= lane##_left - 1)

#endif
