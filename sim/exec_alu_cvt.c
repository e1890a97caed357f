/*
 * cvt: conversions between the integer, f16, f32 and f64 types, and the
 * binary16 helpers. Semantics: PTX ISA 9.7.9.21 (cvt) and 9.4.1.
 *
 *  int -> int    chop the source to its type, sign- or zero-extend by the
 *                source type, truncate to the destination; .sat clamps to
 *                the destination's MININT..MAXINT.
 *  int -> float  rounded by .rn .rz .rm .rp (none: .rn).
 *  float -> int  rounded to an integer by .rni .rzi .rmi .rpi (none: .rzi),
 *                then clamped to the destination range (always: .sat is
 *                redundant); NaN gives 0, or 1 << (width - 1) when the
 *                source is .f64 or the destination is 64-bit.
 *  float -> float  widening is exact; narrowing rounds by .rn .rz .rm .rp;
 *                same size with .rni .rzi .rmi .rpi rounds to an integral
 *                value. .ftz flushes f32 subnormal inputs and results, .sat
 *                clamps to [0, 1] (NaN -> +0).
 *  A destination register wider than the type gets the result sign-extended
 *  for signed integer types, zero-extended otherwise (9.4.1).
 */
#include "sim/exec_alu.h"

/* ---- binary16 ---------------------------------------------------------- */

/* Exact; a NaN becomes the canonical f32 NaN (an H100 gives 0x7fffffff for
 * cvt.f32.f16 and 0x7fffffffe0000000 for cvt.f64.f16 of 0x7e01). f16 from
 * f64 is isa/bits.h's ptx_f64_to_f16 (its NaN, 0x7fff, is the H100's too). */
float alu_f16_to_f32(uint16_t h)
{
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
        return ptx_bits_f32(ALU_F32_QNAN);
    return ptx_f16_to_f32(h);
}

/* ---- helpers --------------------------------------------------------------- */

/* Width of the destination register when wider than the type (ld/st/cvt may
 * write a wider register), else the type's width. */
static unsigned dst_reg_bits(ws_exec *x, const ptx_operand *op, unsigned dbits)
{
    if (op->kind != PTX_OPD_REG || !x->fn || !x->fn->value_reg_type)
        return dbits;
    unsigned r = ws_type_bits((ptx_type)x->fn->value_reg_type[op->reg]);
    return r > dbits ? r : dbits;
}

/* An integer source as a 64-bit two's complement value (sign-extended for
 * signed types) clamped to the destination type's range. */
static inline uint64_t sat_int(uint64_t v, bool ssgn, unsigned dbits, bool dsgn)
{
    uint64_t dm = alu_wmask(dbits);
    if (dsgn) {
        int64_t hi = (int64_t)(dm >> 1), lo = -hi - 1;
        if (ssgn)
            return (uint64_t)((int64_t)v > hi ? hi : (int64_t)v < lo ? lo : (int64_t)v);
        return v > (uint64_t)hi ? (uint64_t)hi : v;
    }
    if (ssgn && (int64_t)v < 0)
        return 0;
    return v > dm ? dm : v;
}

/* A float rounded to an integer by .rni/.rzi/.rmi/.rpi (none: .rzi). */
static inline double round_int(double v, unsigned rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: return nearbyint(v);   /* ties to even: the process's mode */
    case PTX_RND_RMI: return floor(v);
    case PTX_RND_RPI: return ceil(v);
    default:          return trunc(v);
    }
}

/* A source float lane as a double (exact for all three formats). */
static inline double float_in(uint64_t v, ptx_type t, bool ftz)
{
    if (t == PTX_F16)
        return alu_f16_to_f32((uint16_t)v);
    if (t == PTX_F32)
        return alu_f32_in(v, ftz);
    return ws_f64(v);
}

/* ---- the conversions, one lane loop each ----------------------------------- */

/* Write v (a dbits-wide result) to the lanes of mask, extended to rbits. */
#define PUT(v) ALU_PUT(d, mask, dext ? (uint64_t)alu_sx((v), 64 - dbits) & rm : (v) & dm)

void exec_cvt(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    ptx_type dt = (ptx_type)in->type, st = in->type2 ? (ptx_type)in->type2 : dt;
    unsigned dbits = ws_type_bits(dt), sbits = ws_type_bits(st);
    unsigned rbits = dst_reg_bits(x, &in->operand[0], dbits);
    uint64_t dm = alu_wmask(dbits), sm = alu_wmask(sbits), rm = alu_wmask(rbits);
    bool dsgn = alu_is_signed(dt), ssgn = alu_is_signed(st);
    bool dext = dsgn && rbits > dbits;
    bool dfl = alu_is_float(dt), sfl = alu_is_float(st);
    bool ftz = in->flags & PTX_FLAG_FTZ, sat = in->flags & PTX_FLAG_SAT;
    unsigned ssh = 64 - sbits;
    int fe = alu_fe_round(in->rounding);

    if (!sfl && !dfl) {                                   /* int -> int */
        if (sat) {
            ALU_LANES {
                uint64_t v = ssgn ? (uint64_t)alu_sx(a[l], ssh) : a[l] & sm;
                PUT(sat_int(v, ssgn, dbits, dsgn));
            }
        } else if (ssgn) {
            ALU_LANES PUT((uint64_t)alu_sx(a[l], ssh));
        } else {
            ALU_LANES PUT(a[l] & sm);
        }
        return;
    }

    if (!sfl) {                                           /* int -> float */
#define I2F(VOL) \
        ALU_LANES { \
            uint64_t v = ssgn ? (uint64_t)alu_sx(a[l], ssh) : a[l] & sm; \
            if (dt == PTX_F32) { \
                VOL float r = ssgn ? (float)(int64_t)v : (float)v; \
                ALU_PUT(d, mask, alu_f32_out(r, false, sat)); \
            } else { \
                VOL double r = ssgn ? (double)(int64_t)v : (double)v; \
                ALU_PUT(d, mask, alu_f64_out(r, sat, 0, 0, 0, 0)); \
            } \
        }
        if (dt == PTX_F16) {
            /* int -> double is exact below 2^53; above, f16 overflows whatever the rounding */
            ALU_LANES {
                uint64_t v = ssgn ? (uint64_t)alu_sx(a[l], ssh) : a[l] & sm;
                double r = ssgn ? (double)(int64_t)v : (double)v;
                ALU_PUT(d, mask, ptx_f64_to_f16(sat ? alu_sat64(r) : r, fe));
            }
        } else if (fe == FE_TONEAREST) {
            I2F();
        } else {
            alu_round_begin(fe);
            I2F(volatile);
            alu_round_end(fe);
        }
#undef I2F
        return;
    }

    if (!dfl) {                                           /* float -> int */
        uint64_t nanval = (st == PTX_F64 || dbits == 64) ? UINT64_C(1) << (dbits - 1) : 0;
        double lim = ldexp(1.0, dsgn ? (int)dbits - 1 : (int)dbits);
        uint64_t maxint = dsgn ? dm >> 1 : dm, minint = dsgn ? (dm >> 1) + 1 : 0;
        unsigned rnd = in->rounding;
        ALU_LANES {
            double v = float_in(a[l], st, ftz);
            uint64_t r;
            if (isnan(v)) {
                r = nanval;
            } else {
                v = round_int(v, rnd);
                if (v >= lim)
                    r = maxint;
                else if (dsgn ? v <= -lim : v <= 0.0)
                    r = minint;
                else
                    r = dsgn ? (uint64_t)(int64_t)v : (uint64_t)v;
            }
            PUT(r);
        }
        return;
    }

    /* float -> float */
    bool to_int = in->rounding >= PTX_RND_RNI && in->rounding <= PTX_RND_RPI;
    if (dt == PTX_F16) {
        ALU_LANES {
            double v = float_in(a[l], st, ftz);
            if (to_int)
                v = round_int(v, in->rounding);
            uint64_t r;
            if (isnan(v) && st == PTX_F64 && !sat)        /* sign and top payload bits, quiet (H100) */
                r = (a[l] >> 48 & 0x8000) | 0x7e00 | (a[l] >> 42 & 0x1ff);
            else
                r = ptx_f64_to_f16(sat ? alu_sat64(v) : v, fe);
            ALU_PUT(d, mask, r);
        }
    } else if (dt == PTX_F32 && st == PTX_F64 && !to_int) {  /* narrowing */
        /* a NaN keeps the top of its payload, quieted (the host's conversion
         * does what an H100 does), where other f32 results are canonical */
#define F64_TO_F32(VOL) \
        ALU_LANES { \
            VOL double v = ws_f64(a[l]); \
            VOL float r = (float)v; \
            ALU_PUT(d, mask, isnan(r) && !sat ? ptx_f32_bits(r) : alu_f32_out(r, ftz, sat)); \
        }
        if (fe == FE_TONEAREST) {
            F64_TO_F32();
        } else {
            alu_round_begin(fe);
            F64_TO_F32(volatile);
            alu_round_end(fe);
        }
#undef F64_TO_F32
    } else if (dt == PTX_F32) {                           /* f32, f16, f64 to an integer */
        ALU_LANES {
            double v = float_in(a[l], st, ftz);
            if (to_int)
                v = round_int(v, in->rounding);
            ALU_PUT(d, mask, alu_f32_out((float)v, ftz, sat));
        }
    } else {                                              /* to f64: exact */
        ALU_LANES {
            double v = float_in(a[l], st, ftz);
            if (to_int)
                v = round_int(v, in->rounding);
            uint64_t r;
            if (isnan(v) && !sat)                         /* payload kept, quieted: f32 0x7fc00001 -> 0x7ff8000020000000 */
                r = st == PTX_F64 ? alu_f64_nan(a[l], 0, 0, 1) : ws_f64_bits(v);
            else
                r = ws_f64_bits(sat ? alu_sat64(v) : v);
            ALU_PUT(d, mask, r);
        }
    }
}
