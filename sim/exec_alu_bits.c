/*
 * Bits and logic: and or xor not (also on predicates) cnot lop3 shl shr shf
 * bfe bfi bfind popc clz brev prmt. Semantics: PTX ISA 9.7.1.14-20, 9.7.8, 9.7.9.7.
 */
#include "sim/exec_alu.h"

#define WIDTH() \
    unsigned bits = ws_type_bits((ptx_type)in->type); \
    uint64_t m = alu_wmask(bits)

/* ---- and / or / xor / not ------------------------------------------------ */

#define LOGIC2(name, op) \
static inline void logic_##name(ws_exec *x, const ptx_instr *in, uint32_t mask) \
{ \
    if (in->type == PTX_PRED) { \
        uint32_t p = ws_pred_src(x, &in->operand[1]) op ws_pred_src(x, &in->operand[2]); \
        ws_pred_set(x, &in->operand[0], mask, p); \
        return; \
    } \
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); \
    WIDTH(); \
    ALU_LANES ALU_PUT(d, mask, (a[l] op b[l]) & m); \
}
LOGIC2(and, &)
LOGIC2(or, |)
LOGIC2(xor, ^)

void exec_and(ws_exec *x, const ptx_instr *in, uint32_t mask) { logic_and(x, in, mask); }
void exec_or(ws_exec *x, const ptx_instr *in, uint32_t mask) { logic_or(x, in, mask); }
void exec_xor(ws_exec *x, const ptx_instr *in, uint32_t mask) { logic_xor(x, in, mask); }

void exec_not(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (in->type == PTX_PRED) {
        ws_pred_set(x, &in->operand[0], mask, ~ws_pred_src(x, &in->operand[1]));
        return;
    }
    ALU_DST(d, 0); ALU_SRC(a, 1);
    WIDTH();
    ALU_LANES ALU_PUT(d, mask, ~a[l] & m);
}

/* cnot: d = (a == 0) ? 1 : 0 */
void exec_cnot(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    WIDTH();
    ALU_LANES ALU_PUT(d, mask, (a[l] & m) == 0);
}

/* lop3: bit i of immLut is F at (a,b,c) = (i>>2&1, i>>1&1, i&1), the
 * manual's ta = 0xF0, tb = 0xCC, tc = 0xAA. */
static inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t r = 0;
    for (int i = 0; i < 8; i++)
        if (lut >> i & 1)
            r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return r;
}

void exec_lop3(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3); ALU_SRC(lut, 4);
    ALU_LANES ALU_PUT(d, mask, lop3((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], (uint32_t)lut[l] & 0xff));
}

/* ---- shifts: the amount is the u32 b; amounts >= the width give 0 for shl
 * and shr.u/.b, the sign fill for shr.s ----------------------------------- */

void exec_shl(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    ALU_LANES {
        uint32_t n = (uint32_t)b[l];
        ALU_PUT(d, mask, n < bits ? (a[l] << (n & 63)) & m : 0);
    }
}

void exec_shr(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    WIDTH();
    if (alu_is_signed((ptx_type)in->type)) {
        unsigned sh = 64 - bits;
        ALU_LANES {
            uint32_t n = (uint32_t)b[l];
            ALU_PUT(d, mask, (uint64_t)(alu_sx(a[l], sh) >> (n > 63 ? 63 : n)) & m);
        }
    } else {
        ALU_LANES {
            uint32_t n = (uint32_t)b[l];
            ALU_PUT(d, mask, n < bits ? (a[l] & m) >> (n & 63) : 0);
        }
    }
}

/* shf: shift the 64-bit {b, a} by n = .clamp ? min(c, 32) : c & 31; .l
 * keeps the upper 32 bits, .r the lower. */
void exec_shf(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3);
    bool clamp = in->flags & PTX_FLAG_CLAMP, left = in->mode == PTX_SHF_L;
    ALU_LANES {
        uint64_t v = (b[l] << 32) | (a[l] & 0xffffffffu);
        uint32_t n = (uint32_t)c[l];
        n = clamp ? (n > 32 ? 32 : n) : n & 31;
        ALU_PUT(d, mask, left ? (v << n) >> 32 : (v >> n) & 0xffffffffu);
    }
}

/* ---- bit fields ------------------------------------------------------------ */

/* bfe: len bits of a from pos (both & 0xff), zero-extended for .u, filled
 * with the field's sign bit for .s (the msb of a when the field runs past
 * it); len 0 gives 0. */
void exec_bfe(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3);
    WIDTH();
    bool sgn = alu_is_signed((ptx_type)in->type);
    ALU_LANES {
        unsigned pos = b[l] & 0xff, len = c[l] & 0xff, msb = bits - 1;
        uint64_t v = a[l] & m, r;
        unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
        uint64_t sbit = (sgn && len) ? v >> top & 1 : 0;
        if (pos > msb) {
            r = sbit ? m : 0;
        } else {
            unsigned n = len < bits - pos ? len : bits - pos;   /* bits taken from a */
            uint64_t fm = alu_wmask(n);                          /* n may be 0 */
            r = (v >> pos) & fm;
            if (sbit)
                r |= ~fm & m;
        }
        ALU_PUT(d, mask, r);
    }
}

/* bfi: b with len bits from pos replaced by the low bits of a (pos and len
 * & 0xff); unchanged b when len is 0 or pos is past the msb. */
void exec_bfi(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3); ALU_SRC(e, 4);
    WIDTH();
    ALU_LANES {
        unsigned pos = c[l] & 0xff, len = e[l] & 0xff;
        uint64_t r = b[l] & m;
        if (pos < bits && len) {
            unsigned n = len < bits - pos ? len : bits - pos;
            uint64_t fm = alu_wmask(n) << pos;
            r = (r & ~fm) | ((a[l] << pos) & fm);
        }
        ALU_PUT(d, mask, r);
    }
}

/* ---- counts ---------------------------------------------------------------- */

/* popc: number of one bits (u32 result) */
void exec_popc(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    WIDTH();
    ALU_LANES ALU_PUT(d, mask, (uint64_t)__builtin_popcountll(a[l] & m));
}

/* clz: leading zeros from the type's msb, 0..width (u32 result) */
void exec_clz(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    WIDTH();
    ALU_LANES {
        uint64_t v = a[l] & m;
        ALU_PUT(d, mask, v ? (uint64_t)(__builtin_clzll(v) - (64 - bits)) : bits);
    }
}

/* bfind: position of the most significant non-sign bit (the msb 1, or for
 * a negative signed value the msb 0), 0xffffffff if none; .shiftamt gives
 * msb - position instead (u32 result). */
void exec_bfind(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    unsigned bits = ws_type_bits((ptx_type)in->type), sh = 64 - bits;
    bool sgn = alu_is_signed((ptx_type)in->type), shiftamt = in->flags & PTX_FLAG_SHIFTAMT;
    ALU_LANES {
        uint64_t v = sgn ? (uint64_t)alu_sx(a[l], sh) : a[l] & alu_wmask(bits);
        if ((int64_t)v < 0)
            v = ~v;                               /* only signed values reach here */
        uint64_t r = 0xffffffffu;
        if (v) {
            unsigned pos = 63 - (unsigned)__builtin_clzll(v);
            r = shiftamt ? bits - 1 - pos : pos;
        }
        ALU_PUT(d, mask, r);
    }
}

static inline uint64_t rev64(uint64_t v)
{
    v = __builtin_bswap64(v);
    v = (v >> 4 & UINT64_C(0x0f0f0f0f0f0f0f0f)) | (v & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4;
    v = (v >> 2 & UINT64_C(0x3333333333333333)) | (v & UINT64_C(0x3333333333333333)) << 2;
    v = (v >> 1 & UINT64_C(0x5555555555555555)) | (v & UINT64_C(0x5555555555555555)) << 1;
    return v;
}

/* brev: d[i] = a[msb - i] */
void exec_brev(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1);
    unsigned bits = ws_type_bits((ptx_type)in->type);
    ALU_LANES ALU_PUT(d, mask, rev64(a[l]) >> (64 - bits));
}

/* ---- prmt ------------------------------------------------------------------
 * Bytes 0..7 of {b, a}. Generic mode: nibble k of c picks byte k of d (bit 3:
 * replicate that byte's sign). Other modes: s = c & 3 gives, for byte k,
 * f4e s+k, b4e s-k (mod 8), rc8 s, ecl max(k,s), ecr min(k,s),
 * rc16 2*(s&1) + (k&1)  (the manual's table). */
static inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
    uint64_t src = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    unsigned s = c & 3;
    for (unsigned k = 0; k < 4; k++) {
        unsigned i, sign = 0;
        switch (mode) {
        case PTX_PRMT_F4E:  i = s + k; break;
        case PTX_PRMT_B4E:  i = (s - k) & 7; break;
        case PTX_PRMT_RC8:  i = s; break;
        case PTX_PRMT_ECL:  i = k > s ? k : s; break;
        case PTX_PRMT_ECR:  i = k < s ? k : s; break;
        case PTX_PRMT_RC16: i = 2 * (s & 1) + (k & 1); break;
        default:
            i = c >> (4 * k) & 7;
            sign = c >> (4 * k) & 8;
            break;
        }
        uint32_t byte = src >> (8 * i) & 0xff;
        if (sign)
            byte = byte & 0x80 ? 0xff : 0;
        r |= byte << (8 * k);
    }
    return r;
}

void exec_prmt(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2); ALU_SRC(c, 3);
    unsigned mode = in->mode;
    ALU_LANES ALU_PUT(d, mask, prmt((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], mode));
}
