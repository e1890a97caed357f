/*
 * Shared helpers of the ALU handlers (sim/exec_alu*.c): operand fetch, lane
 * loops, integer widths, the f32/f64/f16 bit-level helpers and the rounding
 * mode plumbing. Private to those files.
 *
 * Conventions
 *  - Sources are read with ws_src and always chopped to the instruction
 *    width (an immediate may arrive sign-extended to 64 bits, a register may
 *    be wider than the instruction type); signed values are sign-extended
 *    with alu_sx.
 *  - Results are truncated to the result width and written for the lanes
 *    of `mask` only (ALU_PUT blends, so the loops stay branch-free).
 *  - Every expression is computed for all 32 lanes (inactive ones too), so
 *    it must be free of undefined behaviour for any input: unsigned
 *    arithmetic, clamped shift counts, guarded divisions.
 *  - Directed rounding (.rz/.rm/.rp) sets the host rounding mode around the
 *    lane loop; inside it every operand and result goes through a volatile
 *    so the compiler can neither fold nor move the operation out of the
 *    window (no -frounding-math needed). Round-to-nearest needs no care:
 *    it is the mode the process always runs in.
 */
#ifndef WARPSIM_SIM_EXEC_ALU_H
#define WARPSIM_SIM_EXEC_ALU_H

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "isa/bits.h"
#include "sim/exec.h"

__extension__ typedef unsigned __int128 alu_u128;
__extension__ typedef __int128 alu_s128;

/* ---- Widths and integers ------------------------------------------------- */

/* All ones in the low `bits` bits (bits = 0..64). */
static inline uint64_t alu_wmask(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* Sign-extend from the width whose complement is sh = 64 - bits (branch-free). */
static inline int64_t alu_sx(uint64_t v, unsigned sh)
{
    return (int64_t)(v << sh) >> sh;
}

static inline bool alu_is_signed(ptx_type t) { return ptx_types[t].kind == PTX_KIND_SIGNED; }
static inline bool alu_is_float(ptx_type t) { return ptx_types[t].kind == PTX_KIND_FLOAT; }

/* ---- Operands ------------------------------------------------------------- */

/* The destination register of operand i, or `sink` for `_`. */
static inline uint64_t *alu_dst(ws_exec *x, const ptx_instr *in, int i, uint64_t sink[WS_WARP_SIZE])
{
    uint64_t *d = ws_dst(x, &in->operand[i]);
    if (d)
        return d;
    memset(sink, 0, WS_WARP_SIZE * sizeof sink[0]);   /* the blend reads it */
    return sink;
}

#define ALU_DST(name, i) \
    uint64_t name##_sink_[WS_WARP_SIZE]; \
    uint64_t *name = alu_dst(x, in, (i), name##_sink_)
#define ALU_SRC(name, i) \
    uint64_t name##_tmp_[WS_WARP_SIZE]; \
    const uint64_t *name = ws_src(x, &in->operand[i], name##_tmp_)

/* Lane loop over all 32 lanes; write r to d[l] for the lanes of mask. */
#define ALU_LANES for (int l = 0; l < WS_WARP_SIZE; l++)
#define ALU_PUT(d, mask, r) ((d)[l] = ((mask) >> l & 1u) ? (uint64_t)(r) : (d)[l])

/* Write the carry flag (CC.CF) for the lanes of mask. */
static inline void alu_set_carry(ws_exec *x, uint32_t mask, uint32_t cf)
{
    *x->carry = (*x->carry & ~mask) | (cf & mask);
}

/* ---- Floating point: bits ------------------------------------------------ */

/* NaN encodings measured on an H100 (isa/README.md): every f32 NaN result is
 * 0x7fffffff; an f64 NaN made from no NaN input is 0xfff8000000000000. */
#define ALU_F32_QNAN UINT32_C(0x7fffffff)
#define ALU_F64_DNAN UINT64_C(0xfff8000000000000)

/* .ftz: a subnormal f32 (bit pattern) becomes the zero of its sign. */
static inline uint32_t alu_ftz32(uint32_t u)
{
    return (u & 0x7f800000u) ? u : (u & 0x80000000u);
}

/* An f32 source lane: flushed when ftz. */
static inline float alu_f32_in(uint64_t v, bool ftz)
{
    uint32_t u = (uint32_t)v;
    return ptx_bits_f32(ftz ? alu_ftz32(u) : u);
}

/* .sat: clamp to [0.0, 1.0]; NaN and -0.0 give +0.0 (-0.0 as on an H100). */
static inline float alu_sat32(float r)
{
    if (!(r > 0.0f))
        return 0.0f;
    return r > 1.0f ? 1.0f : r;
}
static inline double alu_sat64(double r)
{
    if (!(r > 0.0))
        return 0.0;
    return r > 1.0 ? 1.0 : r;
}

/* An f32 result: NaN made canonical, then .ftz and .sat. */
static inline uint64_t alu_f32_out(float r, bool ftz, bool sat)
{
    if (sat)
        r = alu_sat32(r);
    uint32_t u = ptx_f32_bits(r);
    if (isnan(r))
        return ALU_F32_QNAN;
    return ftz ? alu_ftz32(u) : u;
}

/* An f64 NaN result (PTX keeps f64 payloads): the first signaling NaN input,
 * quieted, else the first quiet NaN input, else 0xfff8000000000000 -- the
 * order an H100 showed. Not the host's order, which depends on how the
 * compiler placed the operands. Cold path. */
uint64_t alu_f64_nan(uint64_t a, uint64_t b, uint64_t c, int n);

static inline uint64_t alu_f64_out(double r, bool sat, uint64_t a, uint64_t b, uint64_t c, int n)
{
    if (sat)
        r = alu_sat64(r);
    if (isnan(r))
        return alu_f64_nan(a, b, c, n);
    return ws_f64_bits(r);
}

/* ---- Floating point: rounding -------------------------------------------- */

/* The host rounding mode of a PTX rounding modifier (.rni etc. map to their
 * float counterparts; none is round-to-nearest-even). */
static inline int alu_fe_round(unsigned rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: return FE_TOWARDZERO;
    case PTX_RND_RM: case PTX_RND_RMI: return FE_DOWNWARD;
    case PTX_RND_RP: case PTX_RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Set / restore the host rounding mode around a lane loop. */
static inline void alu_round_begin(int fe)
{
    if (fe != FE_TONEAREST)
        fesetround(fe);
}
static inline void alu_round_end(int fe)
{
    if (fe != FE_TONEAREST)
        fesetround(FE_TONEAREST);
}

/* f16 (binary16) <-> wider formats, by hand (sim/exec_alu_cvt.c). */
float alu_f16_to_f32(uint16_t h);              /* exact; a NaN becomes the canonical one */

/* ---- The handlers' halves -------------------------------------------------
 * exec_<op> in sim/exec_alu.c dispatches on the type to these. */
void alu_int_add(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_sub(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_mul(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_mad(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_div(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_abs(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_neg(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_min(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_int_max(ws_exec *x, const ptx_instr *in, uint32_t mask);

void alu_fp_add(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_sub(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_mul(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_fma(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_div(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_abs(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_neg(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_min(ws_exec *x, const ptx_instr *in, uint32_t mask);
void alu_fp_max(ws_exec *x, const ptx_instr *in, uint32_t mask);
uint32_t alu_fp_setp(const ptx_instr *in, const uint64_t *a, const uint64_t *b);
uint32_t alu_int_cmp(const ptx_instr *in, const uint64_t *a, const uint64_t *b);

#endif
