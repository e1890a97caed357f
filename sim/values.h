/*
 * The numbers and typed values of run flags (sim/values.c): counts and sizes,
 * integers range-checked per type, floats. Pure C11 + libc.
 */
#ifndef WARPSIM_SIM_VALUES_H
#define WARPSIM_SIM_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "isa/ptx.h"

/* The ten buffer and argument types, for messages. */
#define TYPE_LIST "u8 s8 u16 s16 u32 s32 u64 s64 f32 f64"

/* s[0..n): decimal digits, or 0x hex when allow_hex; no sign, no blanks.
 * 0 ok, -1 not a number, -2 a number above 2^64-1. */
int ws_parse_u64n(const char *s, size_t n, int allow_hex, uint64_t *out);
/* The same over a whole string. */
int ws_parse_u64(const char *s, int allow_hex, uint64_t *out);
/* Digits with an optional K/M/G (or KiB/MiB/GiB, KB/MB/GB, any case) suffix, binary. */
int ws_parse_size_n(const char *s, size_t n, uint64_t *out);
/* One of the ten types named s[0..n), or PTX_TYPE_NONE. */
ptx_type ws_value_type(const char *s, size_t n);
/* Parse a value of type t (u/s/b 8-64 bits, f32, f64; b as unsigned) as const=V
 * and TYPE:VALUE do; *bits gets its bit pattern, zero-extended.  0 or -1. */
int ws_parse_value(ptx_type t, const char *text, uint64_t *bits);

/* v with thousands separators, as ncu and compute-sanitizer print counts: "1,884,160". Returns buf. */
const char *ws_grouped_u64(uint64_t v, char *buf, size_t n);

/* What a value of type t looks like, for messages: "an integer from 0 to 255, decimal or 0x hex". */
const char *ws_value_expect(ptx_type t, char *buf, size_t n);

#endif
