/*
 * Specialised handlers: the opcode and type combinations that dominate real
 * kernels (integer address arithmetic, comparisons, moves, f32 arithmetic),
 * each with its width, signedness and modifiers settled when the launch
 * decodes the instruction (ws_specialised_handler) instead of tested on
 * every execution. Everything else, and every instruction with a modifier
 * these do not handle (.sat, .cc, .ftz, directed rounding, a `_`
 * destination, ...), runs the general handler of sim/exec_alu*.c.
 *
 * Each computes all 32 lanes into a scratch array with a plain loop the
 * compiler can vectorise, then writes the lanes of the mask: a full warp in
 * one copy. The results are those of the general handlers bit for bit
 * (tests/test_alu.c and the course kernels check both through these).
 */
#include "sim/exec_fast.h"

#include "sim/exec_alu.h"
#include "sim/state.h"   /* the wide forms read the next warps' %tid lanes */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#define MASK_32 UINT64_C(0xffffffff)
#define MASK_64 UINT64_MAX

/* Four lanes, for copying a register row 32 bytes at a time (one AVX2 or two
 * SSE2 moves): the widths the handlers' loops read registers with, so the
 * next instruction's loads are forwarded from these stores (a library
 * memcpy may store wider chunks). */
typedef uint64_t lane_quad __attribute__((vector_size(32)));

/* The lanes of mask get r. */
static inline void put_lanes(uint64_t *d, const uint64_t r[WS_WARP_SIZE], uint32_t mask)
{
    if (mask == WS_FULL_MASK) {
        for (int l = 0; l < WS_WARP_SIZE; l += 4) {
            lane_quad v;
            memcpy(&v, r + l, sizeof v);
            memcpy(d + l, &v, sizeof v);
        }
        return;
    }
    WS_FOR_LANES(mask, lane) d[lane] = r[lane];
}

static inline int64_t sx32(uint64_t v) { return (int64_t)(int32_t)(uint32_t)v; }

/* ---- Integer arithmetic and logic: d = (a OP b) & width ------------------- */

/* A full warp whose sources are registers or immediates is computed straight into
 * the destination, four lanes at a time: each group reads its sources before it
 * writes, so a destination that is also a source (add %r1, %r1, 4) is right, and
 * an immediate is one value instead of a 32-lane copy. Otherwise the lanes go
 * through a scratch row and the lanes of mask are written. */
#define LANE_QUADS(d, result) \
    _Pragma("GCC unroll 8") /* a warp's 8 quads: the wide forms' loops over warps would otherwise keep them a loop */ \
    for (int q = 0; q < WS_WARP_SIZE; q += 4) { \
        lane_quad out; \
        for (int k = 0; k < 4; k++) \
            out[k] = (result); \
        memcpy((d) + q, &out, sizeof out); \
    }

/* A source for the full-warp path: a register row, or an immediate (*row NULL). */
static inline int direct_src(ws_exec *x, const ptx_operand *op, const uint64_t **row, uint64_t *imm)
{
    if (op->kind == PTX_OPD_REG) {
        *row = ws_row(x, op->reg);
        return 1;
    }
    if (op->kind == PTX_OPD_IMM) {
        *row = NULL, *imm = (uint64_t)op->imm;
        return 1;
    }
    return 0;
}

/* `width` is the result's: mul.wide of two 32-bit values gives 64 bits. The slow path: any mask, any sources;
 * the fast one a full warp's registers and immediates, an immediate b through imm_NAME_WIDTH. */
#define SLOW_BINARY(name, width) \
WS_LANE_LOOPS __attribute__((noinline)) static void slow_##name##_##width(ws_exec *x, const ptx_instr *in, \
                                                                        uint32_t mask) \
{ \
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], r[WS_WARP_SIZE]; \
    const uint64_t *a = ws_src(x, &in->operand[1], ta), *b = ws_src(x, &in->operand[2], tb); \
    for (int l = 0; l < WS_WARP_SIZE; l++) \
        r[l] = op_##name##_##width(a[l], b[l]); \
    put_lanes(ws_row(x, in->operand[0].reg), r, mask); \
}
/* ws_wide_fn's form (ws_wide_handler): a a register, b a register or an immediate. */
#define WIDE_BINARY(name, width) \
WS_LANE_LOOPS static void wide_##name##_##width(ws_exec *x, const ptx_instr *in, int n) \
{ \
    uint64_t *d = ws_row(x, in->operand[0].reg); \
    const uint64_t *a = ws_row(x, in->operand[1].reg); \
    const ptx_operand *ob = &in->operand[2]; \
    if (ob->kind == PTX_OPD_REG) { \
        const uint64_t *b = ws_row(x, ob->reg); \
        for (int i = 0; i < n * WS_WARP_SIZE; i += WS_WARP_SIZE) \
            LANE_QUADS(d + i, op_##name##_##width(a[i + q + k], b[i + q + k])) \
        return; \
    } \
    for (int i = 0; i < n * WS_WARP_SIZE; i += WS_WARP_SIZE) \
        imm_##name##_##width(d + i, a + i, (uint64_t)ob->imm); \
}
#define FAST_BINARY(name, width) \
SLOW_BINARY(name, width) \
WIDE_BINARY(name, width) \
WS_LANE_LOOPS static void fast_##name##_##width(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    uint64_t *d = ws_row(x, in->operand[0].reg), ia = 0, ib = 0; \
    const uint64_t *a, *b; \
    if (mask == WS_FULL_MASK && direct_src(x, &in->operand[1], &a, &ia) && a && \
        direct_src(x, &in->operand[2], &b, &ib)) { \
        if (b) \
            LANE_QUADS(d, op_##name##_##width(a[q + k], b[q + k])) \
        else \
            imm_##name##_##width(d, a, ib); \
        return; \
    } \
    slow_##name##_##width(x, in, mask); \
}
#define BINARY(name, width, expr) \
static inline uint64_t op_##name##_##width(uint64_t a, uint64_t b) { return (expr) & MASK_##width; } \
static inline __attribute__((always_inline)) void imm_##name##_##width(uint64_t *d, const uint64_t *a, uint64_t ib) \
{ \
    LANE_QUADS(d, op_##name##_##width(a[q + k], ib)) \
} \
FAST_BINARY(name, width)
BINARY(add, 32, a + b)
BINARY(add, 64, a + b)
BINARY(sub, 32, a - b)
BINARY(sub, 64, a - b)
BINARY(mul_lo, 32, a * b)
BINARY(mul_lo, 64, a * b)
BINARY(mul_wide_s, 64, (uint64_t)(sx32(a) * sx32(b)))
BINARY(mul_wide_u, 64, (a & MASK_32) * (b & MASK_32))
BINARY(and, 32, a & b)
BINARY(and, 64, a & b)
BINARY(or, 32, a | b)
BINARY(or, 64, a | b)
BINARY(xor, 32, a ^ b)
BINARY(xor, 64, a ^ b)
#undef BINARY

/* Shift amounts are the u32 b; at or past the width shl and shr.u give 0 (`past`: 0), shr.s the sign (`past`:
 * 1, as a shift by 63). An immediate amount is settled before the loop, which then shifts every lane by one
 * count `s` (`by`): the compiler vectorises that, not the per-lane test (bench/README.md, eighth steps). */
#define SHIFT(name, width, expr, by, past) \
static inline uint64_t op_##name##_##width(uint64_t a, uint64_t b) { return (expr) & MASK_##width; } \
static inline uint64_t by_##name##_##width(uint64_t a, unsigned s) { return (by) & MASK_##width; } \
static inline __attribute__((always_inline)) void imm_##name##_##width(uint64_t *d, const uint64_t *a, uint64_t ib) \
{ \
    if ((uint32_t)ib < (width)) { \
        unsigned s = (uint32_t)ib; \
        LANE_QUADS(d, by_##name##_##width(a[q + k], s)) \
    } else if (past) { \
        LANE_QUADS(d, by_##name##_##width(a[q + k], 63)) \
    } else { \
        LANE_QUADS(d, 0) \
    } \
} \
FAST_BINARY(name, width)
SHIFT(shl, 32, (uint32_t)b < 32 ? a << (b & 31) : 0, a << s, 0)
SHIFT(shl, 64, (uint32_t)b < 64 ? a << (b & 63) : 0, a << s, 0)
SHIFT(shr_u, 32, (uint32_t)b < 32 ? (a & MASK_32) >> (b & 31) : 0, (a & MASK_32) >> s, 0)
SHIFT(shr_u, 64, (uint32_t)b < 64 ? a >> (b & 63) : 0, a >> s, 0)
SHIFT(shr_s, 32, (uint64_t)(sx32(a) >> ((uint32_t)b > 63 ? 63 : (uint32_t)b)), (uint64_t)(sx32(a) >> s), 1)
SHIFT(shr_s, 64, (uint64_t)((int64_t)a >> ((uint32_t)b > 63 ? 63 : (uint32_t)b)), (uint64_t)((int64_t)a >> s), 1)
#undef SHIFT
#undef FAST_BINARY
#undef WIDE_BINARY
#undef SLOW_BINARY

/* mad.lo: d = (a * b + c) & width; mad.wide: the full product of two 32-bit values plus a 64-bit c. */
#define TERNARY(name, width, expr) \
static inline uint64_t op_##name##_##width(uint64_t a, uint64_t b, uint64_t c) { return (expr) & MASK_##width; } \
WS_LANE_LOOPS __attribute__((noinline)) static void slow_##name##_##width(ws_exec *x, const ptx_instr *in, \
                                                                        uint32_t mask) \
{ \
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE], r[WS_WARP_SIZE]; \
    const uint64_t *a = ws_src(x, &in->operand[1], ta), *b = ws_src(x, &in->operand[2], tb); \
    const uint64_t *c = ws_src(x, &in->operand[3], tc); \
    for (int l = 0; l < WS_WARP_SIZE; l++) \
        r[l] = op_##name##_##width(a[l], b[l], c[l]); \
    put_lanes(ws_row(x, in->operand[0].reg), r, mask); \
} \
WS_LANE_LOOPS static void fast_##name##_##width(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    uint64_t *d = ws_row(x, in->operand[0].reg), ia = 0, ib = 0, ic = 0; \
    const uint64_t *a, *b, *c; \
    if (mask == WS_FULL_MASK && direct_src(x, &in->operand[1], &a, &ia) && a && \
        direct_src(x, &in->operand[2], &b, &ib) && direct_src(x, &in->operand[3], &c, &ic) && c) { \
        if (b) \
            LANE_QUADS(d, op_##name##_##width(a[q + k], b[q + k], c[q + k])) \
        else \
            LANE_QUADS(d, op_##name##_##width(a[q + k], ib, c[q + k])) \
        return; \
    } \
    slow_##name##_##width(x, in, mask); \
} \
WS_LANE_LOOPS static void wide_##name##_##width(ws_exec *x, const ptx_instr *in, int n)   /* a, c registers */ \
{ \
    uint64_t *d = ws_row(x, in->operand[0].reg); \
    const uint64_t *a = ws_row(x, in->operand[1].reg), *c = ws_row(x, in->operand[3].reg); \
    const ptx_operand *ob = &in->operand[2]; \
    if (ob->kind == PTX_OPD_REG) { \
        const uint64_t *b = ws_row(x, ob->reg); \
        for (int i = 0; i < n * WS_WARP_SIZE; i += WS_WARP_SIZE) \
            LANE_QUADS(d + i, op_##name##_##width(a[i + q + k], b[i + q + k], c[i + q + k])) \
        return; \
    } \
    uint64_t ib = (uint64_t)ob->imm; \
    for (int i = 0; i < n * WS_WARP_SIZE; i += WS_WARP_SIZE) \
        LANE_QUADS(d + i, op_##name##_##width(a[i + q + k], ib, c[i + q + k])) \
}
TERNARY(mad_lo, 32, a * b + c)
TERNARY(mad_lo, 64, a * b + c)
TERNARY(mad_wide_s, 64, (uint64_t)(sx32(a) * sx32(b)) + c)
TERNARY(mad_wide_u, 64, (a & MASK_32) * (b & MASK_32) + c)
#undef TERNARY

/* ---- mov, cvta, integer cvt: one source, d = f(a) ----------------------- */

#define UNARY(name, width, expr) \
static inline uint64_t op_##name##_##width(uint64_t a) { return (expr) & MASK_##width; } \
WS_LANE_LOOPS __attribute__((noinline)) static void slow_##name##_##width(ws_exec *x, const ptx_instr *in, \
                                                                        uint32_t mask) \
{ \
    uint64_t ta[WS_WARP_SIZE], r[WS_WARP_SIZE]; \
    const uint64_t *a = ws_src(x, &in->operand[1], ta); \
    for (int l = 0; l < WS_WARP_SIZE; l++) \
        r[l] = op_##name##_##width(a[l]); \
    put_lanes(ws_row(x, in->operand[0].reg), r, mask); \
} \
WS_LANE_LOOPS static void fast_##name##_##width(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    uint64_t *d = ws_row(x, in->operand[0].reg), ia = 0; \
    const uint64_t *a; \
    const uint32_t *tid; \
    if (mask == WS_FULL_MASK) { \
        if (direct_src(x, &in->operand[1], &a, &ia)) { \
            if (a) \
                LANE_QUADS(d, op_##name##_##width(a[q + k])) \
            else \
                LANE_QUADS(d, op_##name##_##width(ia)) \
            return; \
        } \
        if (ws_operand_uniform(x, &in->operand[1], &ia)) {   /* a special register or symbol alike in all */ \
            LANE_QUADS(d, op_##name##_##width(ia)) \
            return; \
        } \
        if ((tid = ws_operand_tid(x, &in->operand[1])) != NULL) { \
            LANE_QUADS(d, op_##name##_##width(tid[q + k])) \
            return; \
        } \
    } \
    slow_##name##_##width(x, in, mask); \
} \
/* a a register, an immediate, or a special register plain_operands takes: the warps' own %tid lanes (the \
 * group's warps are consecutive in their block), or a value alike in every warp of the block */ \
WS_LANE_LOOPS static void wide_##name##_##width(ws_exec *x, const ptx_instr *in, int n) \
{ \
    uint64_t *d = ws_row(x, in->operand[0].reg), ia; \
    const ptx_operand *oa = &in->operand[1]; \
    if (oa->kind == PTX_OPD_REG) { \
        const uint64_t *a = ws_row(x, oa->reg); \
        for (int i = 0; i < n * WS_WARP_SIZE; i += WS_WARP_SIZE) \
            LANE_QUADS(d + i, op_##name##_##width(a[i + q + k])) \
        return; \
    } \
    if (ws_operand_tid(x, oa) != NULL) { \
        for (int w = 0; w < n; w++) { \
            const uint32_t *tid = x->warp[w].tid[oa->reg - PTX_SREG_TID_X]; \
            LANE_QUADS(d + w * WS_WARP_SIZE, op_##name##_##width(tid[q + k])) \
        } \
        return; \
    } \
    ws_operand_uniform(x, oa, &ia);   /* the immediate, or the block's or grid's value */ \
    for (int i = 0; i < n * WS_WARP_SIZE; i += WS_WARP_SIZE) \
        LANE_QUADS(d + i, op_##name##_##width(ia)) \
}
UNARY(mov, 32, a)
UNARY(mov, 64, a)
UNARY(sext, 64, (uint64_t)sx32(a))   /* cvt.s64.s32 (and .u64.s32) */
#undef UNARY

/* ---- setp on integers, without a BOOLOP ------------------------------------ */

/* The lane mask of (key(a) CMP key(b)); lo ls hi hs compare unsigned. */
#define COMPARE_LANES(fname, key_type, ukey_type, b_type, B) \
WS_LANE_LOOPS static uint32_t fname(unsigned cmp, const uint64_t *a, b_type b) \
{ \
    uint32_t t = 0; \
    switch (cmp) { \
    case PTX_CMP_EQ: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((key_type)a[l] == (key_type)(B)) << l; break; \
    case PTX_CMP_NE: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((key_type)a[l] != (key_type)(B)) << l; break; \
    case PTX_CMP_LT: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((key_type)a[l] < (key_type)(B)) << l; break; \
    case PTX_CMP_LE: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((key_type)a[l] <= (key_type)(B)) << l; break; \
    case PTX_CMP_GT: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((key_type)a[l] > (key_type)(B)) << l; break; \
    case PTX_CMP_GE: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((key_type)a[l] >= (key_type)(B)) << l; break; \
    case PTX_CMP_LO: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((ukey_type)a[l] < (ukey_type)(B)) << l; break; \
    case PTX_CMP_LS: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((ukey_type)a[l] <= (ukey_type)(B)) << l; break; \
    case PTX_CMP_HI: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((ukey_type)a[l] > (ukey_type)(B)) << l; break; \
    case PTX_CMP_HS: for (int l = 0; l < WS_WARP_SIZE; l++) t |= (uint32_t)((ukey_type)a[l] >= (ukey_type)(B)) << l; break; \
    default: break;   /* float-only comparisons: never true on integers */ \
    } \
    return t; \
}
/* b a row of lanes, or (compare_imm_NAME) an immediate: no 32-lane copy of it */
#define COMPARE(name, key_type, ukey_type) \
COMPARE_LANES(compare_##name, key_type, ukey_type, const uint64_t *, b[l]) \
COMPARE_LANES(compare_imm_##name, key_type, ukey_type, uint64_t, b)
COMPARE(s32, int32_t, uint32_t)
COMPARE(u32, uint32_t, uint32_t)
COMPARE(s64, int64_t, uint64_t)
COMPARE(u64, uint64_t, uint64_t)
#undef COMPARE
#undef COMPARE_LANES

/* setp's operand b: p, [q], a, b as exec_setp reads them (operand 1 a second destination q, or a). */
static inline const ptx_operand *setp_b(const ptx_instr *in)
{
    unsigned kind = in->operand[1].kind;
    return &in->operand[kind == PTX_OPD_PRED || kind == PTX_OPD_SINK || kind == PTX_OPD_NONE ? 3 : 2];
}

/* setp writes p = t and, when a second destination is written, q = !t. */
#define SETP_FAST(name) \
static void fast_setp_##name(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    const ptx_operand *q = &in->operand[1], *b = setp_b(in); \
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE]; \
    const uint64_t *a = ws_src(x, b - 1, ta); \
    uint32_t t = b->kind == PTX_OPD_IMM ? compare_imm_##name(in->cmp, a, (uint64_t)b->imm) \
                                        : compare_##name(in->cmp, a, ws_src(x, b, tb)); \
    ws_pred_set(x, &in->operand[0], mask, t); \
    if (b == &in->operand[3]) \
        ws_pred_set(x, q, mask, ~t); \
}
#define SETP(name) \
SETP_FAST(name) \
/* the wide form (a a register, b a register or an immediate): each warp's predicates are its kernel frame's */ \
static void wide_setp_##name(ws_exec *x, const ptx_instr *in, int n) \
{ \
    const ptx_operand *q = &in->operand[1], *b = setp_b(in); \
    const uint64_t *a = ws_row(x, b[-1].reg), *rb = b->kind == PTX_OPD_REG ? ws_row(x, b->reg) : NULL; \
    for (int w = 0; w < n; w++) { \
        ws_exec *xw = &x->warp[w].exec; \
        uint32_t t = rb ? compare_##name(in->cmp, a + w * WS_WARP_SIZE, rb + w * WS_WARP_SIZE) \
                        : compare_imm_##name(in->cmp, a + w * WS_WARP_SIZE, (uint64_t)b->imm); \
        ws_pred_set(xw, &in->operand[0], WS_FULL_MASK, t); \
        if (b == &in->operand[3]) \
            ws_pred_set(xw, q, WS_FULL_MASK, ~t); \
    } \
}
/* and.pred, or.pred, xor.pred d, a, b and not.pred d, a (`binary` 0): exec_and's and exec_not's predicate forms
 * (ws_pred_src's masks: predicates, negated or not, or 0/1 immediates), and their wide forms. */
#define PRED_LOGIC(name, binary, expr) \
static void fast_##name##_pred(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    uint32_t a = ws_pred_src(x, &in->operand[1]), b = binary ? ws_pred_src(x, &in->operand[2]) : 0; \
    (void)b; \
    ws_pred_set(x, &in->operand[0], mask, expr); \
} \
static void wide_##name##_pred(ws_exec *x, const ptx_instr *in, int n) \
{ \
    for (int w = 0; w < n; w++) { \
        ws_exec *xw = &x->warp[w].exec; \
        uint32_t a = ws_pred_src(xw, &in->operand[1]), b = binary ? ws_pred_src(xw, &in->operand[2]) : 0; \
        (void)b; \
        ws_pred_set(xw, &in->operand[0], WS_FULL_MASK, expr); \
    } \
}
PRED_LOGIC(and, 1, a & b)
PRED_LOGIC(or, 1, a | b)
PRED_LOGIC(xor, 1, a ^ b)
PRED_LOGIC(not, 0, ~a)
#undef PRED_LOGIC

SETP(s32)
SETP(u32)
SETP(s64)
SETP(u64)

/* ---- f32 add sub mul fma, round to nearest, no .ftz/.sat ------------------ */

/* An f32 result as its register bits: every NaN is 0x7fffffff (as alu_f32_out). */
static inline uint64_t f32_bits(float r)
{
    return r != r ? ALU_F32_QNAN : ptx_f32_bits(r);
}

/* A source of a wide form (ws_wide_fn) with registers and immediates alike: a register's rows (the next
 * warp's *step = 32 lanes on), or an immediate's one row in tmp (*step 0). */
static inline const uint64_t *wide_src(ws_exec *x, const ptx_operand *op, uint64_t tmp[WS_WARP_SIZE], size_t *step)
{
    if (op->kind == PTX_OPD_REG) {
        *step = WS_WARP_SIZE;
        return ws_row(x, op->reg);
    }
    *step = 0;
    for (int l = 0; l < WS_WARP_SIZE; l++)
        tmp[l] = (uint64_t)op->imm;
    return tmp;
}

#define F32_BINARY(name, op) \
WS_LANE_LOOPS static void fast_##name##_f32(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], r[WS_WARP_SIZE]; \
    const uint64_t *a = ws_src(x, &in->operand[1], ta), *b = ws_src(x, &in->operand[2], tb); \
    for (int l = 0; l < WS_WARP_SIZE; l++) \
        r[l] = f32_bits(ptx_bits_f32((uint32_t)a[l]) op ptx_bits_f32((uint32_t)b[l])); \
    put_lanes(ws_row(x, in->operand[0].reg), r, mask); \
} \
WS_LANE_LOOPS static void wide_##name##_f32(ws_exec *x, const ptx_instr *in, int n) \
{ \
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], r[WS_WARP_SIZE]; \
    size_t sa, sb; \
    const uint64_t *a = wide_src(x, &in->operand[1], ta, &sa), *b = wide_src(x, &in->operand[2], tb, &sb); \
    uint64_t *d = ws_row(x, in->operand[0].reg); \
    for (int k = 0; k < n; k++, a += sa, b += sb, d += WS_WARP_SIZE) { \
        for (int l = 0; l < WS_WARP_SIZE; l++) \
            r[l] = f32_bits(ptx_bits_f32((uint32_t)a[l]) op ptx_bits_f32((uint32_t)b[l])); \
        put_lanes(d, r, WS_FULL_MASK); \
    } \
}
F32_BINARY(add, +)
F32_BINARY(sub, -)
F32_BINARY(mul, *)
#undef F32_BINARY

/* fmaf is a library call per lane; on an x86-64 with FMA the same fused,
 * correctly rounded operation is one instruction, used when the CPU has it
 * (checked once, at decode). */
static void fma_f32_lanes(const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t r[WS_WARP_SIZE])
{
    for (int l = 0; l < WS_WARP_SIZE; l++)
        r[l] = f32_bits(fmaf(ptx_bits_f32((uint32_t)a[l]), ptx_bits_f32((uint32_t)b[l]), ptx_bits_f32((uint32_t)c[l])));
}

static void fast_fma_f32(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE], r[WS_WARP_SIZE];
    fma_f32_lanes(ws_src(x, &in->operand[1], ta), ws_src(x, &in->operand[2], tb), ws_src(x, &in->operand[3], tc), r);
    put_lanes(ws_row(x, in->operand[0].reg), r, mask);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_FMA_VARIANT 1
/* The low 32 bits of eight 64-bit lanes, as eight floats in the order of lanes 0 1 4 5 2 3 6 7 (one shuffle
 * within each 128-bit half): an element-wise operation does not mind, and zero_extend_lanes puts its results
 * back in order. */
__attribute__((target("avx2,fma"))) static inline __m256 low_halves(const uint64_t *lanes)
{
    __m256 lo = _mm256_loadu_ps((const float *)lanes), hi = _mm256_loadu_ps((const float *)(lanes + 4));
    return _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
}

/* low_halves' eight floats (lanes 0 1 4 5 2 3 6 7) zero-extended into eight 64-bit lanes, in order. */
__attribute__((target("avx2,fma"))) static inline void zero_extend_lanes(uint64_t *r, __m256 v)
{
    const __m256 zero = _mm256_setzero_ps();
    _mm256_storeu_ps((float *)r, _mm256_unpacklo_ps(v, zero));
    _mm256_storeu_ps((float *)(r + 4), _mm256_unpackhi_ps(v, zero));
}

/* Eight lanes at a time: the fused multiply-add, every NaN made 0x7fffffff,
 * the result zero-extended into the 64-bit lanes (r may be a, b or c: each eight lanes' sources are read
 * before their results are written). */
__attribute__((target("avx2,fma"))) static inline void fma_f32_lanes_hw(const uint64_t *a, const uint64_t *b,
                                                                    const uint64_t *c, uint64_t r[WS_WARP_SIZE])
{
    const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32((int)ALU_F32_QNAN));
    for (int l = 0; l < WS_WARP_SIZE; l += 8) {
        __m256 v = _mm256_fmadd_ps(low_halves(a + l), low_halves(b + l), low_halves(c + l));
        zero_extend_lanes(r + l, _mm256_blendv_ps(v, nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q)));
    }
}

__attribute__((target("avx2,fma"))) static void fast_fma_f32_hw(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE], r[WS_WARP_SIZE];
    uint64_t *d = ws_row(x, in->operand[0].reg);
    /* a full warp straight into the destination: each group of four lanes reads its sources first */
    fma_f32_lanes_hw(ws_src(x, &in->operand[1], ta), ws_src(x, &in->operand[2], tb), ws_src(x, &in->operand[3], tc),
                     mask == WS_FULL_MASK ? d : r);
    if (mask != WS_FULL_MASK)
        put_lanes(d, r, mask);
}

__attribute__((target("avx2,fma"))) static void wide_fma_f32_hw(ws_exec *x, const ptx_instr *in, int n)
{
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    size_t sa, sb, sc;
    const uint64_t *a = wide_src(x, &in->operand[1], ta, &sa), *b = wide_src(x, &in->operand[2], tb, &sb);
    const uint64_t *c = wide_src(x, &in->operand[3], tc, &sc);
    uint64_t *d = ws_row(x, in->operand[0].reg);
    for (int k = 0; k < n; k++, a += sa, b += sb, c += sc, d += WS_WARP_SIZE)
        fma_f32_lanes_hw(a, b, c, d);
}

/* add, sub and mul.f32 eight lanes at a time, as fma_f32_lanes_hw (the C forms above leave the compiler a lane
 * at a time: some 90 host instructions a warp for a vector add's add.f32). Its target is fma's too, where no
 * product is fused: low_halves and zero_extend_lanes inline only into functions of their target. */
#define F32_BINARY_HW(name, intrinsic) \
__attribute__((target("avx2,fma"))) static inline void name##_f32_lanes_hw(const uint64_t *a, const uint64_t *b, \
                                                                          uint64_t r[WS_WARP_SIZE]) \
{ \
    const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32((int)ALU_F32_QNAN)); \
    for (int l = 0; l < WS_WARP_SIZE; l += 8) { \
        __m256 v = intrinsic(low_halves(a + l), low_halves(b + l)); \
        zero_extend_lanes(r + l, _mm256_blendv_ps(v, nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q))); \
    } \
} \
__attribute__((target("avx2,fma"))) static void fast_##name##_f32_hw(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], r[WS_WARP_SIZE]; \
    uint64_t *d = ws_row(x, in->operand[0].reg); \
    name##_f32_lanes_hw(ws_src(x, &in->operand[1], ta), ws_src(x, &in->operand[2], tb), \
                        mask == WS_FULL_MASK ? d : r); \
    if (mask != WS_FULL_MASK) \
        put_lanes(d, r, mask); \
} \
__attribute__((target("avx2,fma"))) static void wide_##name##_f32_hw(ws_exec *x, const ptx_instr *in, int n) \
{ \
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE]; \
    size_t sa, sb; \
    const uint64_t *a = wide_src(x, &in->operand[1], ta, &sa), *b = wide_src(x, &in->operand[2], tb, &sb); \
    uint64_t *d = ws_row(x, in->operand[0].reg); \
    for (int k = 0; k < n; k++, a += sa, b += sb, d += WS_WARP_SIZE) \
        name##_f32_lanes_hw(a, b, d); \
}
F32_BINARY_HW(add, _mm256_add_ps)
F32_BINARY_HW(sub, _mm256_sub_ps)
F32_BINARY_HW(mul, _mm256_mul_ps)
#undef F32_BINARY_HW

/* 32 by 32-bit products four lanes a step, AVX2's vpmuludq or (`is_signed`) vpmuldq on each 64-bit lane's low
 * half: from the C forms above the compiler emulates a full 64-bit product for mad.lo.32 (three multiplies)
 * and multiplies lane by lane for mul.wide.s32. b NULL: the immediate ib; c NULL: nothing added; `low32`: the
 * result's low 32 bits kept (the .lo forms). d may be a, b or c: each four lanes are read before written. */
__attribute__((target("avx2"))) static inline void product_lanes_hw(const uint64_t *a, const uint64_t *b, uint64_t ib,
                                                                    const uint64_t *c, uint64_t *d,
                                                                    const int is_signed, const int low32)
{
    const __m256i imm = _mm256_set1_epi64x((long long)ib), low = _mm256_set1_epi64x(0xffffffff);
    for (int l = 0; l < WS_WARP_SIZE; l += 4) {
        __m256i va = _mm256_loadu_si256((const __m256i *)(a + l));
        __m256i vb = b ? _mm256_loadu_si256((const __m256i *)(b + l)) : imm;
        __m256i p = is_signed ? _mm256_mul_epi32(va, vb) : _mm256_mul_epu32(va, vb);
        if (c)
            p = _mm256_add_epi64(p, _mm256_loadu_si256((const __m256i *)(c + l)));
        _mm256_storeu_si256((__m256i *)(d + l), low32 ? _mm256_and_si256(p, low) : p);
    }
}
/* fast_NAME_hw and wide_NAME_hw over product_lanes_hw (sources a register, a register or an immediate, and for
 * `with_c` a register), the general path (slow_NAME) for anything else. */
#define PRODUCT_HW(name, is_signed, low32, with_c) \
__attribute__((target("avx2"))) static void fast_##name##_hw(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    uint64_t ia = 0, ib = 0, ic = 0; \
    const uint64_t *a, *b, *c = NULL; \
    if (mask == WS_FULL_MASK && direct_src(x, &in->operand[1], &a, &ia) && a && \
        direct_src(x, &in->operand[2], &b, &ib) && (!(with_c) || (direct_src(x, &in->operand[3], &c, &ic) && c))) { \
        product_lanes_hw(a, b, ib, c, ws_row(x, in->operand[0].reg), is_signed, low32); \
        return; \
    } \
    slow_##name(x, in, mask); \
} \
__attribute__((target("avx2"))) static void wide_##name##_hw(ws_exec *x, const ptx_instr *in, int n) \
{ \
    uint64_t *d = ws_row(x, in->operand[0].reg); \
    const uint64_t *a = ws_row(x, in->operand[1].reg), *c = (with_c) ? ws_row(x, in->operand[3].reg) : NULL; \
    const ptx_operand *ob = &in->operand[2]; \
    const uint64_t *b = ob->kind == PTX_OPD_REG ? ws_row(x, ob->reg) : NULL; \
    for (int i = 0; i < n * WS_WARP_SIZE; i += WS_WARP_SIZE) \
        product_lanes_hw(a + i, b ? b + i : NULL, (uint64_t)ob->imm, c ? c + i : NULL, d + i, is_signed, low32); \
}
PRODUCT_HW(mul_lo_32, 0, 1, 0)
PRODUCT_HW(mad_lo_32, 0, 1, 1)
PRODUCT_HW(mul_wide_s_64, 1, 0, 0)
PRODUCT_HW(mad_wide_s_64, 1, 0, 1)
#undef PRODUCT_HW

/* The low 32 bits of lanes l .. l + 7, in order, as eight 32-bit integers. */
__attribute__((target("avx2"))) static inline __m256i low_words(const uint64_t *lanes)
{
    __m256 v = _mm256_shuffle_ps(_mm256_loadu_ps((const float *)lanes), _mm256_loadu_ps((const float *)(lanes + 4)),
                                 _MM_SHUFFLE(2, 0, 2, 0));   /* lanes 0 1 4 5 2 3 6 7 */
    return _mm256_permute4x64_epi64(_mm256_castps_si256(v), _MM_SHUFFLE(3, 1, 2, 0));
}
/* compare_32_hw's lanes: (x == y) or (x > y) signed, x and y a's and b's keys (b NULL: ib's), `swap`ped, each
 * xored with `bias` (the sign bit: an unsigned comparison as a signed one), eight lanes a mask a step. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint32_t
compare_words_hw(const uint64_t *a, const uint64_t *b, __m256i ib, __m256i bias, const int swap, const int gt)
{
    uint32_t t = 0;
    for (int l = 0; l < WS_WARP_SIZE; l += 8) {
        __m256i x = _mm256_xor_si256(low_words(a + l), bias), y = _mm256_xor_si256(b ? low_words(b + l) : ib, bias);
        __m256i r = gt ? (swap ? _mm256_cmpgt_epi32(y, x) : _mm256_cmpgt_epi32(x, y)) : _mm256_cmpeq_epi32(x, y);
        t |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(r)) << l;
    }
    return t;
}
/* compare_s32's and compare_u32's (or their _imm forms', b NULL) lane mask from AVX2's 32-bit comparisons, a
 * movemask per eight lanes: the compiler's form of COMPARE_LANES builds the mask bit by bit (84 host
 * instructions a warp, the reduction's setp 7% of its run). */
__attribute__((target("avx2"))) static uint32_t compare_32_hw(unsigned cmp, const int is_signed, const uint64_t *a,
                                                             const uint64_t *b, uint64_t ib)
{
    const __m256i imm = _mm256_set1_epi32((int)(uint32_t)ib), sign = _mm256_set1_epi32(INT32_MIN);
    const __m256i bias = is_signed && cmp <= PTX_CMP_GE ? _mm256_setzero_si256() : sign;
    switch (cmp) {
    case PTX_CMP_EQ: return compare_words_hw(a, b, imm, bias, 0, 0);
    case PTX_CMP_NE: return ~compare_words_hw(a, b, imm, bias, 0, 0);
    case PTX_CMP_LT: case PTX_CMP_LO: return compare_words_hw(a, b, imm, bias, 1, 1);
    case PTX_CMP_LE: case PTX_CMP_LS: return ~compare_words_hw(a, b, imm, bias, 0, 1);
    case PTX_CMP_GT: case PTX_CMP_HI: return compare_words_hw(a, b, imm, bias, 0, 1);
    case PTX_CMP_GE: case PTX_CMP_HS: return ~compare_words_hw(a, b, imm, bias, 1, 1);
    default: return 0;   /* float-only comparisons: never true on integers */
    }
}
/* compare_NAME_hw and compare_imm_NAME_hw, compare_32_hw's forms for SETP's fast_setp_NAME_hw and wide_setp_NAME_hw */
#define COMPARE_HW(name, is_signed) \
static inline uint32_t compare_##name##_hw(unsigned cmp, const uint64_t *a, const uint64_t *b) \
{ \
    return compare_32_hw(cmp, is_signed, a, b, 0); \
} \
static inline uint32_t compare_imm_##name##_hw(unsigned cmp, const uint64_t *a, uint64_t b) \
{ \
    return compare_32_hw(cmp, is_signed, a, NULL, b); \
}
COMPARE_HW(s32, 1)
COMPARE_HW(u32, 0)
#undef COMPARE_HW
SETP_FAST(s32_hw)
SETP_FAST(u32_hw)

/* wide_setp_NAME_hw's loop over the group's warps for one comparison (compare_32_hw's case, `negate` its ~),
 * b a register (`reg_b`) or an immediate. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
wide_compare_hw(ws_exec *x, const ptx_instr *in, int n, __m256i bias, const int reg_b, const int swap, const int gt,
                const int negate)
{
    const ptx_operand *p = &in->operand[0], *q = &in->operand[1], *b = setp_b(in);
    const uint64_t *a = ws_row(x, b[-1].reg), *rb = reg_b ? ws_row(x, b->reg) : NULL;
    const __m256i imm = _mm256_set1_epi32((int)(uint32_t)b->imm);
    const int set_p = p->kind == PTX_OPD_PRED, set_q = b == &in->operand[3] && q->kind == PTX_OPD_PRED;
    for (int w = 0; w < n; w++) {
        uint32_t t = compare_words_hw(a + w * WS_WARP_SIZE, reg_b ? rb + w * WS_WARP_SIZE : NULL, imm, bias, swap, gt);
        t = negate ? ~t : t;
        uint32_t *pred = x->warp[w].exec.pred;   /* every lane active: ws_pred_set's with the full mask */
        if (set_p)
            pred[p->reg] = t;
        if (set_q)
            pred[q->reg] = ~t;
    }
}
/* The wide form of setp.s32 and setp.u32 (ws_wide_fn): compare_32_hw's case chosen once for the group. */
__attribute__((target("avx2"))) static void wide_setp_32_hw(ws_exec *x, const ptx_instr *in, int n, const int is_signed)
{
    const unsigned cmp = in->cmp;
    const __m256i bias = is_signed && cmp <= PTX_CMP_GE ? _mm256_setzero_si256() : _mm256_set1_epi32(INT32_MIN);
    const int reg_b = setp_b(in)->kind == PTX_OPD_REG;
#define WIDE_COMPARE(swap, gt, negate) \
    (reg_b ? wide_compare_hw(x, in, n, bias, 1, swap, gt, negate) : wide_compare_hw(x, in, n, bias, 0, swap, gt, negate))
    switch (cmp) {
    case PTX_CMP_EQ: WIDE_COMPARE(0, 0, 0); break;
    case PTX_CMP_NE: WIDE_COMPARE(0, 0, 1); break;
    case PTX_CMP_LT: case PTX_CMP_LO: WIDE_COMPARE(1, 1, 0); break;
    case PTX_CMP_LE: case PTX_CMP_LS: WIDE_COMPARE(0, 1, 1); break;
    case PTX_CMP_GT: case PTX_CMP_HI: WIDE_COMPARE(0, 1, 0); break;
    case PTX_CMP_GE: case PTX_CMP_HS: WIDE_COMPARE(1, 1, 1); break;
    default: {   /* float-only comparisons: never true on integers (compare_32_hw's 0) */
        const ptx_operand *p = &in->operand[0], *q = &in->operand[1], *b = setp_b(in);
        for (int w = 0; w < n; w++) {
            ws_pred_set(&x->warp[w].exec, p, WS_FULL_MASK, 0);
            if (b == &in->operand[3])
                ws_pred_set(&x->warp[w].exec, q, WS_FULL_MASK, ~0u);
        }
    }
    }
#undef WIDE_COMPARE
}
static void wide_setp_s32_hw(ws_exec *x, const ptx_instr *in, int n) { wide_setp_32_hw(x, in, n, 1); }
static void wide_setp_u32_hw(ws_exec *x, const ptx_instr *in, int n) { wide_setp_32_hw(x, in, n, 0); }
#endif
#undef SETP_FAST
#undef SETP

/* ---- Choosing ---------------------------------------------------------------- */

static int int_width(ptx_type t)
{
    if (t == PTX_B32 || t == PTX_U32 || t == PTX_S32)
        return 32;
    if (t == PTX_B64 || t == PTX_U64 || t == PTX_S64)
        return 64;
    return 0;
}

/* A handler's wide form (ws_wide_fn), and what it takes of its sources (operands 1..3): a register (R), a
 * register or an immediate (I), those or a special register %tid, %ntid, %ctaid or %nctaid (S), none (0). */
enum { R = 1, I = 2, S = 3, Q = 4, P = 5 };   /* Q: setp's operands, a second destination q or not (wide_setp_*); P:
                                              * a predicate destination and predicate or 0/1 sources (wide_*_pred) */
typedef struct {
    ws_wide_fn fn;
    uint8_t src[3];
} wide_form;

/* fast_NAME, its wide form noted in *form: a function's address is compared with no other (one taken
 * here and one in a table may differ: target_clones' resolvers). */
#define WITH_WIDE(name, a, b, c) (*form = (wide_form){wide_##name, {a, b, c}}, fast_##name)
#define INT1(name) WITH_WIDE(name, S, 0, 0)
#define INT2(name) WITH_WIDE(name, R, I, 0)
#define INT3(name) WITH_WIDE(name, R, I, R)
#define F32_2(name) WITH_WIDE(name, I, I, 0)
#define F32_3(name) WITH_WIDE(name, I, I, I)
#ifdef HAVE_FMA_VARIANT
#define F32_BY_CPU(name) (avx2_fma ? F32_2(name##_f32_hw) : F32_2(name##_f32))   /* add, sub, mul.f32 */
#else
#define F32_BY_CPU(name) F32_2(name##_f32)
#endif
#define BY_WIDTH(name, FORM) (width == 32 ? FORM(name##_32) : width == 64 ? FORM(name##_64) : NULL)

/* The handler, and in *shape the register-shape operation it computes (sim/shape.h: adds and moves). */
#define SHAPED(kind, bits, handler) (*shape = (ws_handler_shape){(kind), (bits)}, (handler))

/* ws_specialised_handler's choice, and in *form its wide form (fn NULL: none). */
static ws_exec_fn choose(const ptx_function *fn, const ptx_instr *in, ws_handler_shape *shape, wide_form *form)
{
    *shape = (ws_handler_shape){WS_SHAPE_NONE, 0};
    *form = (wide_form){NULL, {0, 0, 0}};
    ptx_type t = (ptx_type)in->type;
    int width = int_width(t);
    int is_signed = ptx_types[t].kind == PTX_KIND_SIGNED;
    int plain_float = t == PTX_F32 && !(in->flags & (PTX_FLAG_FTZ | PTX_FLAG_SAT)) &&
                      (in->rounding == PTX_RND_NONE || in->rounding == PTX_RND_RN);
    const ptx_operand *d = &in->operand[0];

    if (in->opcode == OP_setp) {
        if (in->boolop != PTX_BOOL_NONE || d->kind != PTX_OPD_PRED)
            return NULL;
#ifdef HAVE_FMA_VARIANT
        if (width == 32 && __builtin_cpu_supports("avx2"))
            return is_signed ? WITH_WIDE(setp_s32_hw, Q, 0, 0) : WITH_WIDE(setp_u32_hw, Q, 0, 0);
#endif
        if (width == 32)
            return is_signed ? WITH_WIDE(setp_s32, Q, 0, 0) : WITH_WIDE(setp_u32, Q, 0, 0);
        if (width == 64)
            return is_signed ? WITH_WIDE(setp_s64, Q, 0, 0) : WITH_WIDE(setp_u64, Q, 0, 0);
        return NULL;
    }
    if (t == PTX_PRED && d->kind == PTX_OPD_PRED) {   /* logic on predicates (a bounds test's and, not) */
        switch (in->opcode) {
        case OP_and: return WITH_WIDE(and_pred, P, 0, 0);
        case OP_or: return WITH_WIDE(or_pred, P, 0, 0);
        case OP_xor: return WITH_WIDE(xor_pred, P, 0, 0);
        case OP_not: return WITH_WIDE(not_pred, P, 0, 0);
        default: return NULL;
        }
    }
    if (d->kind != PTX_OPD_REG)
        return NULL;   /* a sink, a vector, another predicate: the general handlers */
    int no_cc_sat = !(in->flags & (PTX_FLAG_CC | PTX_FLAG_SAT));
    int lo = in->mode == PTX_MUL_DEFAULT || in->mode == PTX_MUL_LO;
#ifdef HAVE_FMA_VARIANT
    const int avx2 = __builtin_cpu_supports("avx2");   /* the integer products' AVX2 forms (PRODUCT_HW) */
    const int avx2_fma = avx2 && __builtin_cpu_supports("fma");   /* the f32 forms' (F32_BY_CPU, fma) */
#endif
    switch (in->opcode) {
    case OP_add:
        if (plain_float)
            return F32_BY_CPU(add);
        return no_cc_sat ? SHAPED(WS_SHAPE_ADD, width, BY_WIDTH(add, INT2)) : NULL;
    case OP_sub:
        if (plain_float)
            return F32_BY_CPU(sub);
        return no_cc_sat ? BY_WIDTH(sub, INT2) : NULL;
    case OP_mul:
        if (plain_float)
            return F32_BY_CPU(mul);
        if (!no_cc_sat)
            return NULL;
#ifdef HAVE_FMA_VARIANT
        if (avx2 && lo && width == 32)
            return INT2(mul_lo_32_hw);
        if (avx2 && in->mode == PTX_MUL_WIDE && width == 32 && is_signed)
            return INT2(mul_wide_s_64_hw);
#endif
        if (lo)
            return BY_WIDTH(mul_lo, INT2);
        if (in->mode == PTX_MUL_WIDE && width == 32)
            return is_signed ? INT2(mul_wide_s_64) : INT2(mul_wide_u_64);
        return NULL;
    case OP_mad:
    case OP_fma:
        if (plain_float) {
#ifdef HAVE_FMA_VARIANT
            if (avx2_fma)
                return F32_3(fma_f32_hw);
#endif
            return fast_fma_f32;
        }
        if (in->opcode != OP_mad || !no_cc_sat)
            return NULL;
#ifdef HAVE_FMA_VARIANT
        if (avx2 && lo && width == 32)
            return INT3(mad_lo_32_hw);
        if (avx2 && in->mode == PTX_MUL_WIDE && width == 32 && is_signed)
            return INT3(mad_wide_s_64_hw);
#endif
        if (lo)
            return BY_WIDTH(mad_lo, INT3);
        if (in->mode == PTX_MUL_WIDE && width == 32)
            return is_signed ? INT3(mad_wide_s_64) : INT3(mad_wide_u_64);
        return NULL;
    case OP_and:
        return BY_WIDTH(and, INT2);
    case OP_or:
        return BY_WIDTH(or, INT2);
    case OP_xor:
        return BY_WIDTH(xor, INT2);
    case OP_shl:
        return BY_WIDTH(shl, INT2);
    case OP_shr:
        return is_signed ? BY_WIDTH(shr_s, INT2) : BY_WIDTH(shr_u, INT2);
    case OP_mov:
        if (in->operand[1].kind == PTX_OPD_VEC)
            return NULL;
        if (t == PTX_F32)
            return SHAPED(WS_SHAPE_MOV, 32, INT1(mov_32));
        if (t == PTX_F64)
            return SHAPED(WS_SHAPE_MOV, 64, INT1(mov_64));
        return SHAPED(WS_SHAPE_MOV, width, BY_WIDTH(mov, INT1));
    case OP_cvta:
        /* global and const addresses are the same in both forms */
        if (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_CONST)
            return SHAPED(WS_SHAPE_MOV, width, BY_WIDTH(mov, INT1));
        return NULL;
    case OP_cvt: {
        /* int -> int, no .sat, into a register exactly as wide as the destination type */
        ptx_type st = in->type2 ? (ptx_type)in->type2 : t;
        if ((in->flags & PTX_FLAG_SAT) || !width || !int_width(st) || !fn->value_reg_type ||
            ptx_types[fn->value_reg_type[d->reg]].size * 8 != (unsigned)width)
            return NULL;
        if (int_width(st) == 32 && width == 64)
            return ptx_types[st].kind == PTX_KIND_SIGNED ? INT1(sext_64) : SHAPED(WS_SHAPE_MOV, 32, INT1(mov_32));
        if (width == 32)
            return SHAPED(WS_SHAPE_MOV, 32, INT1(mov_32));   /* from 32 or 64 bits: the low half */
        return SHAPED(WS_SHAPE_MOV, 64, INT1(mov_64));
    }
    default:
        return NULL;
    }
}

ws_exec_fn ws_specialised_handler(const ptx_function *fn, const ptx_instr *in, ws_handler_shape *shape)
{
    wide_form form;
    return choose(fn, in, shape, &form);
}

ws_wide_fn ws_wide_handler(const ptx_function *fn, const ptx_instr *in)
{
    ws_handler_shape shape;
    wide_form form;
    if (!choose(fn, in, &shape, &form) || !form.fn)
        return NULL;
    if (form.src[0] == Q) {   /* setp p[|q], a, b: a a register, b a register or an immediate */
        const ptx_operand *b = setp_b(in);
        return in->operand_count == b - in->operand + 1 && b[-1].kind == PTX_OPD_REG &&
               (b->kind == PTX_OPD_REG || b->kind == PTX_OPD_IMM) ? form.fn : NULL;
    }
    if (form.src[0] == P) {   /* every source a predicate or an immediate, as ws_pred_src reads them */
        for (int k = 1; k < in->operand_count; k++)
            if (in->operand[k].kind != PTX_OPD_PRED && in->operand[k].kind != PTX_OPD_IMM)
                return NULL;
        return form.fn;
    }
    if (in->operand[0].kind != PTX_OPD_REG)
        return NULL;
    for (int k = 0; k < 3; k++) {
        const ptx_operand *op = &in->operand[k + 1];
        unsigned want = form.src[k], kind = op->kind;
        /* a variable's address: sim/setup.c lets through those alike in every thread (shared, global, const) */
        int special = (kind == PTX_OPD_SREG && op->reg >= PTX_SREG_TID_X && op->reg <= PTX_SREG_NCTAID_Z) ||
                      (kind == PTX_OPD_SYMBOL && in->opcode == OP_mov);
        if (want ? kind != PTX_OPD_REG && !(want >= I && kind == PTX_OPD_IMM) && !(want == S && special)
                 : k + 1 < in->operand_count)
            return NULL;   /* a source it does not take, or more operands than it reads */
    }
    return form.fn;
}
