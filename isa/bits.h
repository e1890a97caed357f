/*
 * Floating-point bit patterns, in one place: f32/f64 <-> their IEEE bits, and
 * binary16 (f16) <-> f64/f32. The parser (literals), the printer, the run
 * options (--arg f32:...) and the ALU (registers hold bit patterns) use these.
 */
#ifndef WARPSIM_ISA_BITS_H
#define WARPSIM_ISA_BITS_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t ptx_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline float ptx_bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t ptx_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static inline double ptx_bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* v rounded to binary16 by the host rounding mode fe (FE_TONEAREST: ties to
 * even). Done by hand: scale the magnitude so that the kept bits are the
 * integer part, round that integer, re-encode. A NaN gives 0x7fff (what an
 * H100's cvt gives from f32); callers wanting another NaN test first. */
static inline uint16_t ptx_f64_to_f16(double v, int fe)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isnan(v))
        return 0x7fff;
    if (isinf(a))
        return sign | 0x7c00;
    if (a == 0.0)
        return sign;
    int e;
    frexp(a, &e);
    int exp = e - 1;                       /* 2^exp <= a < 2^(exp+1) */
    int biased;
    double q;
    if (exp < -14) {                       /* subnormal: units of 2^-24 */
        q = ldexp(a, 24);
        biased = 0;
    } else {                               /* 1024 <= q < 2048 */
        q = ldexp(a, 10 - exp);
        biased = exp + 15;
    }
    switch (fe) {
    case FE_TOWARDZERO: q = trunc(q); break;
    case FE_DOWNWARD:   q = sign ? ceil(q) : floor(q); break;
    case FE_UPWARD:     q = sign ? floor(q) : ceil(q); break;
    default:            q = nearbyint(q); break;   /* the process runs round-to-nearest-even */
    }
    uint32_t mant = (uint32_t)q;
    if (biased == 0)                       /* 1024 is the smallest normal, 0x0400 */
        return sign | (uint16_t)mant;
    if (mant == 2048) {
        mant = 1024;
        biased++;
    }
    if (biased >= 31) {                    /* overflow: inf, or the largest finite */
        int to_max = fe == FE_TOWARDZERO || (fe == FE_DOWNWARD && !sign) || (fe == FE_UPWARD && sign);
        return sign | (to_max ? 0x7bff : 0x7c00);
    }
    return sign | (uint16_t)(biased << 10) | (uint16_t)(mant - 1024);
}

/* binary16 -> f32, exact; a NaN keeps its payload (shifted into place). */
static inline float ptx_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = h >> 10 & 0x1f, mant = h & 0x3ff;
    if (e == 0) {
        float f = ldexpf((float)mant, -24);
        return sign ? -f : f;
    }
    if (e == 31)
        return ptx_bits_f32(sign | 0x7f800000u | mant << 13);
    return ptx_bits_f32(sign | (e + 112) << 23 | mant << 13);
}

#endif
