/*
 * Integer arithmetic: add sub (+ .sat .cc) addc subc mul mad madc mul24 mad24
 * sad div rem abs neg min max, and the integer comparisons of setp.
 *
 * Values are computed modulo 2^64 on chopped sources and truncated to the
 * type width, so one loop serves .16/.32/.64; signed operations see the
 * sources sign-extended (alu_sx). Semantics: PTX ISA 9.7.1 and 9.7.2.
 */
#include "sim/exec_alu.h"
#include "sim/fault.h"

#define WIDTH() \
    unsigned bits = ws_type_bits((ptx_type)in->type), sh = 64 - bits; \
    uint64_t m = alu_wmask(bits); \
    bool sgn = alu_is_signed((ptx_type)in->type); \
    (void)sh; (void)sgn

/* A signed result clamped to MININT..MAXINT of `bits`. */
static inline uint64_t sat_s(alu_s128 v, unsigned bits)
{
    int64_t hi = (int64_t)(alu_wmask(bits) >> 1), lo = -hi - 1;
    return (uint64_t)(int64_t)(v > hi ? hi : v < lo ? lo : v);
}

/* ---- add / sub / addc / subc -------------------------------------------- */

void alu_int_add(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    if ((in->flags & PTX_FLAG_SAT) && sgn) {            /* add.sat.s32 */
        ALU_LANES ALU_PUT(d, mask, sat_s((alu_s128)alu_sx(a[l], sh) + alu_sx(b[l], sh), bits) & m);
    } else if (in->flags & PTX_FLAG_CC) {               /* add.cc: carry-out to CC.CF */
        uint32_t cf = 0;
        ALU_LANES {
            alu_u128 s = (alu_u128)(a[l] & m) + (b[l] & m);
            cf |= (uint32_t)(s >> bits & 1) << l;
            ALU_PUT(d, mask, (uint64_t)s & m);
        }
        alu_set_carry(x, mask, cf);
    } else {
        ALU_LANES ALU_PUT(d, mask, (a[l] + b[l]) & m);
    }
}

void alu_int_sub(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    if ((in->flags & PTX_FLAG_SAT) && sgn) {
        ALU_LANES ALU_PUT(d, mask, sat_s((alu_s128)alu_sx(a[l], sh) - alu_sx(b[l], sh), bits) & m);
    } else if (in->flags & PTX_FLAG_CC) {               /* sub.cc: CC.CF = not borrow (see exec_subc) */
        uint32_t cf = 0;
        ALU_LANES {
            cf |= (uint32_t)((a[l] & m) >= (b[l] & m)) << l;
            ALU_PUT(d, mask, (a[l] - b[l]) & m);
        }
        alu_set_carry(x, mask, cf);
    } else {
        ALU_LANES ALU_PUT(d, mask, (a[l] - b[l]) & m);
    }
}

/* addc: d = a + b + CC.CF (.cc: carry-out to CC.CF) */
void exec_addc(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    uint32_t cin = *x->carry, cf = 0;
    ALU_LANES {
        alu_u128 s = (alu_u128)(a[l] & m) + (b[l] & m) + (cin >> l & 1);
        cf |= (uint32_t)(s >> bits & 1) << l;
        ALU_PUT(d, mask, (uint64_t)s & m);
    }
    if (in->flags & PTX_FLAG_CC)
        alu_set_carry(x, mask, cf);
}

/* subc: d = a - (b + borrow) (.cc: borrow-out).
 * CC.CF is one carry bit, as on the GPU: sub.cc and subc compute a + ~b +
 * carry-in (1 for sub.cc) and keep its carry-out, so the flag holds NOT
 * borrow. Chains of sub.cc/subc give exactly the manual's borrow semantics;
 * where add.cc feeds subc, or sub.cc feeds addc, an H100 computes with the
 * flag this way (add.cc carrying 1, then subc 5, 0 gives 5), and so do we
 * (isa/README.md). */
void exec_subc(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    uint32_t cin = *x->carry, cf = 0;
    ALU_LANES {
        alu_u128 s = (alu_u128)(a[l] & m) + (~b[l] & m) + (cin >> l & 1);
        cf |= (uint32_t)(s >> bits & 1) << l;
        ALU_PUT(d, mask, (uint64_t)s & m);
    }
    if (in->flags & PTX_FLAG_CC)
        alu_set_carry(x, mask, cf);
}

/* ---- mul / mad / madc ---------------------------------------------------- */

/* The part of a*b that mode selects: .lo (and no mode) the low n bits, .hi
 * the high n bits, .wide all 2n bits (n = 16 or 32). */
static inline uint64_t mul_part(uint64_t a, uint64_t b, unsigned mode, unsigned bits, unsigned sh, uint64_t m, bool sgn)
{
    if (mode != PTX_MUL_HI && mode != PTX_MUL_WIDE)
        return (a * b) & m;
    if (bits == 64) {                         /* .hi only (.wide .64 is refused before) */
        alu_s128 p = sgn ? (alu_s128)(int64_t)a * (int64_t)b : (alu_s128)((alu_u128)a * b);
        return (uint64_t)((alu_u128)p >> 64);
    }
    /* n <= 32: the 2n-bit product fits a 64-bit integer */
    uint64_t p = sgn ? (uint64_t)(alu_sx(a, sh) * alu_sx(b, sh)) : (a & m) * (b & m);
    return mode == PTX_MUL_HI ? (p >> bits) & m : p & alu_wmask(2 * bits);
}

static bool wide64(ws_exec *x, const ptx_instr *in, uint32_t mask, unsigned bits)
{
    if (in->mode == PTX_MUL_WIDE && bits == 64) {
        ws_fault(x, in, __builtin_ctz(mask), ".wide is defined for 16- and 32-bit types only");
        return true;
    }
    return false;
}

void alu_int_mul(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    if (wide64(x, in, mask, bits))
        return;
    unsigned mode = in->mode;
    if (mode == PTX_MUL_HI || mode == PTX_MUL_WIDE) {
        ALU_LANES ALU_PUT(d, mask, mul_part(a[l], b[l], mode, bits, sh, m, sgn));
    } else {
        ALU_LANES ALU_PUT(d, mask, (a[l] * b[l]) & m);
    }
}

/* mad / madc: d = part(a*b) + c [+ CC.CF]; .wide: c and d are 2n bits;
 * .hi.sat.s32 clamps the addition; .cc writes the carry-out of the addition. */
static void int_mad(ws_exec *x, const ptx_instr *in, uint32_t mask, bool carry_in)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3);
    WIDTH();
    if (wide64(x, in, mask, bits))
        return;
    unsigned mode = in->mode;
    unsigned rbits = mode == PTX_MUL_WIDE ? 2 * bits : bits;   /* width of c and d */
    uint64_t rm = alu_wmask(rbits);
    if ((in->flags & PTX_FLAG_SAT) && sgn && mode == PTX_MUL_HI) {   /* mad.hi.sat.s32 */
        ALU_LANES {
            uint64_t t = mul_part(a[l], b[l], mode, bits, sh, m, sgn);
            ALU_PUT(d, mask, sat_s((alu_s128)alu_sx(t, sh) + alu_sx(c[l], sh), bits) & m);
        }
        return;
    }
    uint32_t cin = carry_in ? *x->carry : 0, cf = 0;
    if (!(in->flags & PTX_FLAG_CC) && !carry_in && mode != PTX_MUL_HI && mode != PTX_MUL_WIDE) {
        ALU_LANES ALU_PUT(d, mask, (a[l] * b[l] + c[l]) & m);      /* mad.lo: the common case */
        return;
    }
    ALU_LANES {
        alu_u128 s = (alu_u128)mul_part(a[l], b[l], mode, bits, sh, m, sgn) + (c[l] & rm) + (cin >> l & 1);
        cf |= (uint32_t)(s >> rbits & 1) << l;
        ALU_PUT(d, mask, (uint64_t)s & rm);
    }
    if (in->flags & PTX_FLAG_CC)
        alu_set_carry(x, mask, cf);
}

void alu_int_mad(ws_exec *x, const ptx_instr *in, uint32_t mask) { int_mad(x, in, mask, false); }
void exec_madc(ws_exec *x, const ptx_instr *in, uint32_t mask) { int_mad(x, in, mask, true); }

/* ---- mul24 / mad24 ------------------------------------------------------- */

/* The 48-bit product of the low 24 bits of a and b (signed for .s32). */
static inline uint64_t mul24(uint64_t a, uint64_t b, bool sgn)
{
    if (sgn)
        return (uint64_t)(alu_sx(a, 40) * alu_sx(b, 40));
    return (a & 0xffffff) * (b & 0xffffff);
}

/* .lo: t<31..0>, .hi: t<47..16> */
#define PART24(t, hi) ((hi) ? ((t) >> 16) & 0xffffffffu : (t) & 0xffffffffu)

void exec_mul24(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    bool sgn = alu_is_signed((ptx_type)in->type), hi = in->mode == PTX_MUL_HI;
    ALU_LANES ALU_PUT(d, mask, PART24(mul24(a[l], b[l], sgn), hi));
}

void exec_mad24(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3);
    bool sgn = alu_is_signed((ptx_type)in->type), hi = in->mode == PTX_MUL_HI;
    if ((in->flags & PTX_FLAG_SAT) && sgn && hi) {          /* mad24.hi.sat.s32 */
        ALU_LANES {
            uint64_t t = PART24(mul24(a[l], b[l], sgn), hi);
            ALU_PUT(d, mask, sat_s((alu_s128)alu_sx(t, 32) + alu_sx(c[l], 32), 32) & 0xffffffffu);
        }
        return;
    }
    ALU_LANES ALU_PUT(d, mask, (PART24(mul24(a[l], b[l], sgn), hi) + c[l]) & 0xffffffffu);
}

/* sad: d = c + |a - b| */
void exec_sad(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3);
    WIDTH();
    ALU_LANES {
        bool lt = sgn ? alu_sx(a[l], sh) < alu_sx(b[l], sh) : (a[l] & m) < (b[l] & m);
        ALU_PUT(d, mask, (c[l] + (lt ? b[l] - a[l] : a[l] - b[l])) & m);
    }
}

/* ---- div / rem ------------------------------------------------------------
 * Truncating division. Division by zero (unspecified in PTX) gives all ones
 * for div and rem, signed or not; INT_MIN / -1 wraps to INT_MIN with
 * remainder 0. See isa/README.md "Integer division by zero" (to confirm on
 * the GPU). */

static void int_divrem(ws_exec *x, const ptx_instr *in, uint32_t mask, bool rem)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    if (sgn) {
        ALU_LANES {
            int64_t sa = alu_sx(a[l], sh), sb = alu_sx(b[l], sh);
            uint64_t q, r;
            if (sb == 0) {
                q = r = m;                                   /* to confirm on the GPU */
            } else if (sb == -1) {
                q = 0 - (uint64_t)sa;                        /* INT_MIN / -1 = INT_MIN */
                r = 0;
            } else {
                q = (uint64_t)(sa / sb);
                r = (uint64_t)(sa % sb);
            }
            ALU_PUT(d, mask, (rem ? r : q) & m);
        }
    } else {
        ALU_LANES {
            uint64_t ua = a[l] & m, ub = b[l] & m;
            uint64_t v = ub == 0 ? m : rem ? ua % ub : ua / ub;   /* x/0: to confirm on the GPU */
            ALU_PUT(d, mask, v);
        }
    }
}

void alu_int_div(ws_exec *x, const ptx_instr *in, uint32_t mask) { int_divrem(x, in, mask, false); }
void exec_rem(ws_exec *x, const ptx_instr *in, uint32_t mask) { int_divrem(x, in, mask, true); }

/* ---- abs / neg / min / max ----------------------------------------------- */

void alu_int_abs(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    WIDTH();
    ALU_LANES {                               /* |MININT| wraps to MININT */
        int64_t v = alu_sx(a[l], sh);
        ALU_PUT(d, mask, (v < 0 ? 0 - (uint64_t)v : (uint64_t)v) & m);
    }
}

void alu_int_neg(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    WIDTH();
    ALU_LANES ALU_PUT(d, mask, (0 - a[l]) & m);
}

/* An order-preserving unsigned key: signed values get their sign bit flipped. */
#define KEY(v) (sgn ? (uint64_t)alu_sx((v), sh) ^ (UINT64_C(1) << 63) : (v) & m)

void alu_int_min(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    ALU_LANES ALU_PUT(d, mask, (KEY(a[l]) < KEY(b[l]) ? a[l] : b[l]) & m);
}

void alu_int_max(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    ALU_LANES ALU_PUT(d, mask, (KEY(a[l]) > KEY(b[l]) ? a[l] : b[l]) & m);
}

/* ---- setp on integers: the lane mask of (a CMP b) -------------------------
 * eq ne lt le gt ge follow the type's signedness (.b types compare unsigned);
 * lo ls hi hs are the unsigned lt le gt ge. */
uint32_t alu_int_cmp(const ptx_instr *in, const uint64_t *a, const uint64_t *b)
{
    WIDTH();
    if (in->cmp >= PTX_CMP_LO && in->cmp <= PTX_CMP_HS)
        sgn = false;
    uint64_t ka[WS_WARP_SIZE], kb[WS_WARP_SIZE];
    ALU_LANES {
        ka[l] = KEY(a[l]);
        kb[l] = KEY(b[l]);
    }
    uint32_t t = 0;
#define CMP(op) ALU_LANES t |= (uint32_t)(ka[l] op kb[l]) << l; break
    switch (in->cmp) {
    case PTX_CMP_EQ: CMP(==);
    case PTX_CMP_NE: CMP(!=);
    case PTX_CMP_LT: case PTX_CMP_LO: CMP(<);
    case PTX_CMP_LE: case PTX_CMP_LS: CMP(<=);
    case PTX_CMP_GT: case PTX_CMP_HI: CMP(>);
    case PTX_CMP_GE: case PTX_CMP_HS: CMP(>=);
    default: break;   /* float-only comparisons: never true on integers */
    }
#undef CMP
    return t;
}
