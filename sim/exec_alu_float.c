/*
 * Floating point: add sub mul fma/mad div abs neg min max rcp sqrt rsqrt ex2
 * lg2 sin cos on .f32/.f64, and the float comparisons of setp.
 * Semantics: PTX ISA 9.7.3. IEEE binary32/64 through the host's float and
 * double (SSE: no excess precision), one rounding per operation:
 *  - .rn (or no modifier) round-to-nearest-even; .rz .rm .rp through the
 *    host rounding mode (sim/exec_alu.h explains the volatile window);
 *  - fma and mad are fused: fmaf/fma, never a multiply then an add;
 *  - .ftz flushes f32 subnormal inputs and results to the zero of their
 *    sign; .sat clamps to [0, 1] with NaN -> +0;
 *  - f32 NaN results are the canonical 0x7fffffff; f64 results keep a NaN
 *    input's payload (alu_f64_nan), as an H100 does.
 * The .approx functions are computed correctly rounded (or in double and
 * rounded once); each one's documented error bound is noted at it.
 */
#include "sim/exec_alu.h"

uint64_t alu_f64_nan(uint64_t a, uint64_t b, uint64_t c, int n)
{
    const uint64_t quiet = UINT64_C(0x0008000000000000), in[3] = {a, b, c};
    for (int i = 0; i < n; i++)
        if (isnan(ws_f64(in[i])) && !(in[i] & quiet))
            return in[i] | quiet;
    for (int i = 0; i < n; i++)
        if (isnan(ws_f64(in[i])))
            return in[i];
    return ALU_F64_DNAN;
}

#define FLAGS() \
    bool ftz = in->flags & PTX_FLAG_FTZ, sat = in->flags & PTX_FLAG_SAT; \
    int fe = alu_fe_round(in->rounding); \
    (void)ftz; (void)sat

/* Run BODY over the lanes with the rounding mode of fe; VOL is `volatile`
 * inside a directed-rounding window, empty under round-to-nearest. */
#define ROUNDED(fe, BODY) \
    do { \
        if ((fe) == FE_TONEAREST) { \
            BODY(); \
        } else { \
            alu_round_begin(fe); \
            BODY(volatile); \
            alu_round_end(fe); \
        } \
    } while (0)

/* ---- add / sub / mul / fma / div: one rounding each ---------------------- */

#define F32_2(VOL, expr) \
    ALU_LANES { \
        VOL float fa = alu_f32_in(a[l], ftz), fb = alu_f32_in(b[l], ftz); \
        VOL float r = (expr); \
        ALU_PUT(d, mask, alu_f32_out(r, ftz, sat)); \
    }
#define F64_2(VOL, expr) \
    ALU_LANES { \
        VOL double fa = ws_f64(a[l]), fb = ws_f64(b[l]); \
        VOL double r = (expr); \
        ALU_PUT(d, mask, alu_f64_out(r, sat, a[l], b[l], 0, 2)); \
    }

#define FP_BINOP(name) \
void alu_fp_##name(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); \
    FLAGS(); \
    if (in->type == PTX_F32) \
        ROUNDED(fe, name##_f32); \
    else \
        ROUNDED(fe, name##_f64); \
}
#define add_f32(...) F32_2(__VA_ARGS__, fa + fb)
#define add_f64(...) F64_2(__VA_ARGS__, fa + fb)
#define sub_f32(...) F32_2(__VA_ARGS__, fa - fb)
#define sub_f64(...) F64_2(__VA_ARGS__, fa - fb)
#define mul_f32(...) F32_2(__VA_ARGS__, fa * fb)
#define mul_f64(...) F64_2(__VA_ARGS__, fa * fb)
FP_BINOP(add)
FP_BINOP(sub)
FP_BINOP(mul)

/* fma, and mad on floats (the same instruction since sm_20; mad.f32 with no
 * rounding modifier is mad.rn.f32, the errata's default). */
#define FMA_F32(VOL) \
    ALU_LANES { \
        VOL float fa = alu_f32_in(a[l], ftz), fb = alu_f32_in(b[l], ftz), fc = alu_f32_in(c[l], ftz); \
        VOL float r = fmaf(fa, fb, fc); \
        ALU_PUT(d, mask, alu_f32_out(r, ftz, sat)); \
    }
#define FMA_F64(VOL) \
    ALU_LANES { \
        VOL double fa = ws_f64(a[l]), fb = ws_f64(b[l]), fc = ws_f64(c[l]); \
        VOL double r = fma(fa, fb, fc); \
        ALU_PUT(d, mask, alu_f64_out(r, sat, a[l], b[l], c[l], 3)); \
    }

void alu_fp_fma(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3);
    FLAGS();
    if (in->type == PTX_F32)
        ROUNDED(fe, FMA_F32);
    else
        ROUNDED(fe, FMA_F64);
}

void exec_fma(ws_exec *x, const ptx_instr *in, uint32_t mask) { alu_fp_fma(x, in, mask); }

/* The reciprocal inside div.approx: 1/b rounded to nearest, a subnormal
 * result flushed to the zero of its sign -- the manual's div.approx gives +-0
 * for 2^126 < |b| < 2^128 (and an H100 does), while rcp.approx.f32 itself
 * keeps subnormal results. */
static inline float rcp_approx_ftz32(float b)
{
    return ptx_bits_f32(alu_ftz32(ptx_f32_bits(1.0f / b)));
}

/* div: .rn/.rz/.rm/.rp IEEE; .full correctly rounded (documented max error
 * 2 ulp); .approx as the manual defines it, a * (1/b), with the reciprocal
 * above (documented max error 2 ulp for |b| in [2^-126, 2^126]); no
 * modifier is .rn. */
#define DIV_F32(VOL) F32_2(VOL, fa / fb)
#define DIV_F64(VOL) F64_2(VOL, fa / fb)
void alu_fp_div(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    FLAGS();
    if (in->type == PTX_F32 && (in->flags & PTX_FLAG_APPROX)) {
        F32_2(, fa * rcp_approx_ftz32(fb));
    } else if (in->type == PTX_F32) {
        ROUNDED(fe, DIV_F32);
    } else {
        ROUNDED(fe, DIV_F64);
    }
}

/* ---- abs / neg: clear / flip the sign bit; .ftz flushes first ----------
 * A NaN input ("unspecified NaN" for f32 in the manual) gives 0x7fffffff for
 * f32 and, for f64, the input quieted with its sign unchanged -- as an H100
 * does (the manual says abs.f64 passes a NaN through unchanged: it does,
 * except that a signaling NaN comes out quiet). */

static inline bool nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline bool nan64(uint64_t u) { return (u & ~(UINT64_C(1) << 63)) > UINT64_C(0x7ff0000000000000); }

void alu_fp_abs(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    bool ftz = in->flags & PTX_FLAG_FTZ;
    if (in->type == PTX_F32) {
        ALU_LANES {
            uint32_t u = (uint32_t)a[l];
            ALU_PUT(d, mask, nan32(u) ? ALU_F32_QNAN : (ftz ? alu_ftz32(u) : u) & 0x7fffffffu);
        }
    } else {
        ALU_LANES {
            uint64_t u = a[l];
            ALU_PUT(d, mask, nan64(u) ? u | UINT64_C(0x0008000000000000) : u & ~(UINT64_C(1) << 63));
        }
    }
}

void alu_fp_neg(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    bool ftz = in->flags & PTX_FLAG_FTZ;
    if (in->type == PTX_F32) {
        ALU_LANES {
            uint32_t u = (uint32_t)a[l];
            ALU_PUT(d, mask, nan32(u) ? ALU_F32_QNAN : (ftz ? alu_ftz32(u) : u) ^ 0x80000000u);
        }
    } else {
        ALU_LANES {
            uint64_t u = a[l];
            ALU_PUT(d, mask, nan64(u) ? u | UINT64_C(0x0008000000000000) : u ^ (UINT64_C(1) << 63));
        }
    }
}

/* ---- min / max ---------------------------------------------------------------
 * A NaN input yields the other input; two NaNs yield 0x7fffffff for f32 and
 * b quieted for f64 (as on an H100); .NaN: any NaN input yields the
 * canonical NaN; -0.0 < +0.0. Equal values have equal bits except for the
 * two zeros, where OR (min) / AND (max) of the bits picks the sign. */
#define MINMAX(name, lt, pick_eq) \
void alu_fp_##name(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); \
    bool ftz = in->flags & PTX_FLAG_FTZ, nan = in->flags & PTX_FLAG_NAN; \
    bool f32 = in->type == PTX_F32; \
    ALU_LANES { \
        uint64_t ua = a[l], ub = b[l], r; \
        double fa, fb; \
        if (f32) { \
            ua = (uint32_t)ua; ub = (uint32_t)ub; \
            if (ftz) { ua = alu_ftz32((uint32_t)ua); ub = alu_ftz32((uint32_t)ub); } \
            fa = ptx_bits_f32((uint32_t)ua); fb = ptx_bits_f32((uint32_t)ub); \
        } else { \
            fa = ws_f64(ua); fb = ws_f64(ub); \
        } \
        bool na = isnan(fa), nb = isnan(fb); \
        if (na || nb) { \
            if (nan || (na && nb)) \
                r = f32 ? ALU_F32_QNAN : nan ? ALU_F64_DNAN : ub | UINT64_C(0x0008000000000000); \
            else \
                r = nb ? ua : ub; \
        } else if (fa == fb) { \
            r = ua pick_eq ub; \
        } else { \
            r = (fa lt fb) ? ua : ub; \
        } \
        ALU_PUT(d, mask, r); \
    } \
}
MINMAX(min, <, |)
MINMAX(max, >, &)

/* ---- rcp / sqrt / rsqrt ------------------------------------------------- */

/* rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64: computed on the upper 32 bits
 * of a (1.11.20), result's low 32 bits zero, subnormals flushed, NaN ->
 * 0x7fffffff00000000 (manual 9.7.3.14, 9.7.3.17). The 20-bit result is the
 * correctly rounded double result truncated (a "gross approximation"). */
static inline uint64_t approx_ftz64(uint64_t a, bool rsqrt)
{
    uint64_t hi = a & UINT64_C(0xffffffff00000000);
    double v = ws_f64(hi);
    if (isnan(v))
        return UINT64_C(0x7fffffff00000000);
    if (fpclassify(v) == FP_SUBNORMAL)
        v = copysign(0.0, v);
    double r = rsqrt ? 1.0 / sqrt(v) : 1.0 / v;
    if (fpclassify(r) == FP_SUBNORMAL)
        r = copysign(0.0, r);
    if (isnan(r))
        return UINT64_C(0x7fffffff00000000);
    return ws_f64_bits(r) & UINT64_C(0xffffffff00000000);
}

#define RCP_F32(VOL) \
    ALU_LANES { VOL float fa = alu_f32_in(a[l], ftz); VOL float r = 1.0f / fa; ALU_PUT(d, mask, alu_f32_out(r, ftz, false)); }
#define RCP_F64(VOL) \
    ALU_LANES { VOL double fa = ws_f64(a[l]); VOL double r = 1.0 / fa; ALU_PUT(d, mask, alu_f64_out(r, false, a[l], 0, 0, 1)); }

/* rcp: .rn/.rz/.rm/.rp IEEE; rcp.approx.f32 is 1/a rounded to nearest
 * (documented max error 1 ulp; subnormal results kept unless .ftz, as on an
 * H100); rcp.approx.ftz.f64 see approx_ftz64. */
void exec_rcp(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    FLAGS();
    bool approx = in->flags & PTX_FLAG_APPROX;
    if (in->type == PTX_F32 && approx) {
        ALU_LANES ALU_PUT(d, mask, alu_f32_out(1.0f / alu_f32_in(a[l], ftz), ftz, false));
    } else if (in->type == PTX_F32) {
        ROUNDED(fe, RCP_F32);
    } else if (approx) {
        ALU_LANES ALU_PUT(d, mask, approx_ftz64(a[l], false));
    } else {
        ROUNDED(fe, RCP_F64);
    }
}

#define SQRT_F32(VOL) \
    ALU_LANES { VOL float fa = alu_f32_in(a[l], ftz); VOL float r = sqrtf(fa); ALU_PUT(d, mask, alu_f32_out(r, ftz, false)); }
#define SQRT_F64(VOL) \
    ALU_LANES { VOL double fa = ws_f64(a[l]); VOL double r = sqrt(fa); ALU_PUT(d, mask, alu_f64_out(r, false, a[l], 0, 0, 1)); }

/* sqrt: .rn/.rz/.rm/.rp IEEE; sqrt.approx.f32 is computed correctly rounded
 * (documented max relative error 2^-23). sqrt(-0) = -0, sqrt(<0) = NaN. */
void exec_sqrt(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    FLAGS();
    if (in->flags & PTX_FLAG_APPROX)
        fe = FE_TONEAREST;
    if (in->type == PTX_F32)
        ROUNDED(fe, SQRT_F32);
    else
        ROUNDED(fe, SQRT_F64);
}

/* rsqrt.approx: f32 is 1/sqrt(a) in double rounded once to f32 (documented
 * max relative error 2^-22.9); .f64 is computed in long double and rounded
 * once (an H100 gave the correctly rounded result); rsqrt.approx.ftz.f64 see
 * approx_ftz64. rsqrt(-0) = -inf. */
void exec_rsqrt(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    bool ftz = in->flags & PTX_FLAG_FTZ;
    if (in->type == PTX_F32) {
        ALU_LANES {
            double v = alu_f32_in(a[l], ftz);
            ALU_PUT(d, mask, alu_f32_out((float)(1.0 / sqrt(v)), ftz, false));
        }
    } else if (ftz) {
        ALU_LANES ALU_PUT(d, mask, approx_ftz64(a[l], true));
    } else {
        ALU_LANES ALU_PUT(d, mask, alu_f64_out((double)(1.0L / sqrtl(ws_f64(a[l]))), false, a[l], 0, 0, 1));
    }
}

/* ---- ex2 / lg2 / sin / cos (.approx.f32): the function in double, rounded
 * once to f32 -- well inside the documented bounds:
 *   ex2  max 2 ulp across the full range
 *   lg2  max absolute error 2^-22 for a in (0.5, 2), else relative 2^-22
 *   sin, cos  max absolute error 2^-20.5 in [-2pi, 2pi], 2^-14.7 in
 *        [-100pi, 100pi], no bound outside
 * The special values (ex2(-inf) = +0, lg2(+-0) = -inf, lg2(<0) = NaN,
 * sin/cos(+-inf) = NaN, sin(-0) = -0, cos(-0) = 1) are the C library's. */
#define TRANSCENDENTAL(name, fn) \
static inline void transcendental_##name(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    ALU_DST(d, 0); ALU_SRC(a, 1); \
    bool ftz = in->flags & PTX_FLAG_FTZ; \
    ALU_LANES ALU_PUT(d, mask, alu_f32_out((float)fn((double)alu_f32_in(a[l], ftz)), ftz, false)); \
}
TRANSCENDENTAL(ex2, exp2)
TRANSCENDENTAL(lg2, log2)
TRANSCENDENTAL(sin, sin)
TRANSCENDENTAL(cos, cos)

void exec_ex2(ws_exec *x, const ptx_instr *in, uint32_t mask) { transcendental_ex2(x, in, mask); }
void exec_lg2(ws_exec *x, const ptx_instr *in, uint32_t mask) { transcendental_lg2(x, in, mask); }
void exec_sin(ws_exec *x, const ptx_instr *in, uint32_t mask) { transcendental_sin(x, in, mask); }
void exec_cos(ws_exec *x, const ptx_instr *in, uint32_t mask) { transcendental_cos(x, in, mask); }

/* ---- setp on floats: the lane mask of (a CMP b) ------------------------------
 * Ordered eq ne lt le gt ge are false when either input is NaN; the
 * unordered equ neu ltu leu gtu geu are true then; num: neither is NaN;
 * nan: either is. .ftz flushes f32 inputs. */
uint32_t alu_fp_setp(const ptx_instr *in, const uint64_t *a, const uint64_t *b)
{
    bool ftz = in->flags & PTX_FLAG_FTZ;
    double fa[WS_WARP_SIZE], fb[WS_WARP_SIZE];
    if (in->type == PTX_F32) {
        ALU_LANES {
            fa[l] = alu_f32_in(a[l], ftz);
            fb[l] = alu_f32_in(b[l], ftz);
        }
    } else {
        ALU_LANES {
            fa[l] = ws_f64(a[l]);
            fb[l] = ws_f64(b[l]);
        }
    }
    uint32_t t = 0;
#define CMP(expr) ALU_LANES { double p = fa[l], q = fb[l]; t |= (uint32_t)(expr) << l; } break
    switch (in->cmp) {
    case PTX_CMP_EQ:  CMP(p == q);
    case PTX_CMP_NE:  CMP(islessgreater(p, q));
    case PTX_CMP_LT:  CMP(isless(p, q));
    case PTX_CMP_LE:  CMP(islessequal(p, q));
    case PTX_CMP_GT:  CMP(isgreater(p, q));
    case PTX_CMP_GE:  CMP(isgreaterequal(p, q));
    case PTX_CMP_EQU: CMP(p == q || isunordered(p, q));
    case PTX_CMP_NEU: CMP(!(p == q));
    case PTX_CMP_LTU: CMP(!isgreaterequal(p, q));
    case PTX_CMP_LEU: CMP(!isgreater(p, q));
    case PTX_CMP_GTU: CMP(!islessequal(p, q));
    case PTX_CMP_GEU: CMP(!isless(p, q));
    case PTX_CMP_NUM: CMP(!isunordered(p, q));
    case PTX_CMP_NAN: CMP(isunordered(p, q));
    default: break;   /* lo ls hi hs: integer-only, never true on floats */
    }
#undef CMP
    return t;
}
