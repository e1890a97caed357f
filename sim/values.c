/*
 * The numbers and typed values of run flags: counts and sizes (K/M/G
 * suffixes), decimal or hex integers range-checked per type, floats as strtod
 * reads them. Pure C11 + libc (validate/'s runner compiles it).
 */
#include "sim/values.h"

#include "isa/bits.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int digit_value(char c, int base)
{
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return -1;
    return d < base ? d : -1;
}

/* s[0..n): decimal digits, or 0x hex when allow_hex; no sign, no blanks.
 * 0 ok, -1 not a number, -2 a number above 2^64-1. */
int ws_parse_u64n(const char *s, size_t n, int allow_hex, uint64_t *out)
{
    int base = 10;
    if (allow_hex && n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        n -= 2;
    }
    if (n == 0)
        return -1;
    uint64_t v = 0;
    int over = 0;
    for (size_t i = 0; i < n; i++) {
        int d = digit_value(s[i], base);
        if (d < 0)
            return -1;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            over = 1;
        else
            v = v * (uint64_t)base + (uint64_t)d;
    }
    if (over)
        return -2;
    *out = v;
    return 0;
}

/* Digits with an optional K/M/G (or KiB/MiB/GiB, KB/MB/GB, any case) suffix, binary. */
int ws_parse_size_n(const char *s, size_t n, uint64_t *out)
{
    size_t k = 0;
    while (k < n && is_digit(s[k]))
        k++;
    unsigned shift = 0;
    if (k < n) {
        char c = s[k];
        if (c == 'k' || c == 'K') shift = 10;
        else if (c == 'm' || c == 'M') shift = 20;
        else if (c == 'g' || c == 'G') shift = 30;
        else return -1;
        size_t rest = n - k - 1;
        const char *r = s + k + 1;
        if (!(rest == 0 || (rest == 1 && (r[0] == 'b' || r[0] == 'B')) ||
              (rest == 2 && (r[0] == 'i' || r[0] == 'I') && (r[1] == 'b' || r[1] == 'B'))))
            return -1;
    }
    uint64_t v;
    int rc = ws_parse_u64n(s, k, 0, &v);
    if (rc)
        return rc;
    if (shift && v > (UINT64_MAX >> shift))
        return -2;
    *out = v << shift;
    return 0;
}

int ws_parse_u64(const char *s, int allow_hex, uint64_t *out)
{
    return ws_parse_u64n(s, strlen(s), allow_hex, out);
}

static const ptx_type value_types[] = {
    PTX_U8, PTX_S8, PTX_U16, PTX_S16, PTX_U32, PTX_S32, PTX_U64, PTX_S64, PTX_F32, PTX_F64,
};

ptx_type ws_value_type(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof value_types / sizeof value_types[0]; i++) {
        const char *name = ptx_types[value_types[i]].name;
        if (strlen(name) == n && memcmp(name, s, n) == 0)
            return value_types[i];
    }
    return PTX_TYPE_NONE;
}

int ws_parse_value(ptx_type t, const char *s, uint64_t *bits)
{
    if ((unsigned)t >= PTX_TYPE_COUNT || !s || !*s)
        return -1;
    const ptx_type_info *ti = &ptx_types[t];
    unsigned width = ti->size * 8;
    if (ti->kind == PTX_KIND_FLOAT) {
        if (t != PTX_F32 && t != PTX_F64)
            return -1;
        if (is_blank(s[0]) || s[0] == '\n')
            return -1;
        char *end;
        errno = 0;
        double d = strtod(s, &end);
        if (end == s || *end)
            return -1;
        if (errno == ERANGE && isinf(d))
            return -1;
        if (t == PTX_F32) {
            float f = (float)d;
            if (isinf(f) && !isinf(d))
                return -1;
            *bits = ptx_f32_bits(f);
        } else
            *bits = ptx_f64_bits(d);
        return 0;
    }
    if (ti->kind == PTX_KIND_PRED || width == 0 || width > 64)
        return -1;
    int neg = 0;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        s++;
    }
    uint64_t mag;
    if (ws_parse_u64(s, 1, &mag))
        return -1;
    uint64_t umax = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
    if (ti->kind == PTX_KIND_SIGNED) {
        uint64_t lim = UINT64_C(1) << (width - 1);   /* |min| */
        if (neg ? mag > lim : mag >= lim)
            return -1;
    } else if (neg ? mag != 0 : mag > umax)
        return -1;
    uint64_t v = neg ? (uint64_t)0 - mag : mag;
    *bits = v & umax;
    return 0;
}

/* "an integer from 0 to 255, decimal or 0x hex" */
const char *ws_value_expect(ptx_type t, char *buf, size_t n)
{
    const ptx_type_info *ti = &ptx_types[t];
    unsigned width = ti->size * 8;
    if (ti->kind == PTX_KIND_FLOAT)
        snprintf(buf, n, "a number within the %s range, e.g. 0.5 or -1e3", ti->name);
    else if (ti->kind == PTX_KIND_SIGNED)
        snprintf(buf, n, "an integer from %lld to %lld, decimal or 0x hex",
                 (long long)(width == 64 ? INT64_MIN : -(INT64_C(1) << (width - 1))),
                 (long long)(width == 64 ? INT64_MAX : (INT64_C(1) << (width - 1)) - 1));
    else
        snprintf(buf, n, "an integer from 0 to %llu, decimal or 0x hex",
                 (unsigned long long)(width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1));
    return buf;
}

const char *ws_grouped_u64(uint64_t v, char *buf, size_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t k = 0;
    for (int i = 0; i < len && k + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    if (n)
        buf[k < n ? k : n - 1] = 0;
    return buf;
}
