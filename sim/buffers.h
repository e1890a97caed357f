/*
 * Buffers of a run: their specs (TYPE, COUNT, INIT), their initial contents,
 * and the atomic write of --dump (sim/buffers.c). Pure C11 + libc + a little
 * POSIX; validate/'s runner fills its device buffers with the same code.
 *
 * ---- The random generator (random=SEED) -- a contract shared with validate/ ---
 *
 *   state = SEED; for each element i in order:
 *     state += 0x9E3779B97F4A7C15; z = state;
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *     z ^= z >> 31;                                  (splitmix64, all uint64_t)
 *   element = unsigned types: z % 1000
 *             signed types:   (int64_t)(z % 2000) - 1000
 *             (both stored in the element's width: the low bytes, two's complement)
 *             f32: (float)((z >> 40) / 8388608.0 - 1.0)        = k/2^23 - 1, exact, in [-1, 1)
 *             f64: (z >> 11) / 4503599627370496.0 - 1.0        = k/2^52 - 1, exact, in [-1, 1)
 *   All buffers are stored little-endian.
 */
#ifndef WARPSIM_SIM_BUFFERS_H
#define WARPSIM_SIM_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "isa/ptx.h"

typedef enum { WS_INIT_ZERO, WS_INIT_IOTA, WS_INIT_CONST, WS_INIT_RANDOM, WS_INIT_FILE } ws_init_kind;

/* line/col: where the item was written in the .launch file (1-based);
 * line 0 means the command line. */
typedef struct {
    char *name;
    ptx_type type;           /* one of the ten buffer types */
    uint64_t count;          /* elements, 1 to 2^40 */
    ws_init_kind init;
    uint64_t const_bits;     /* WS_INIT_CONST: the value's bit pattern in TYPE */
    uint64_t seed;           /* WS_INIT_RANDOM */
    char *file;              /* WS_INIT_FILE: the path, resolved; else NULL */
    int line, col;
} ws_buffer_spec;

/* A buffer's size in bytes: count * element size. */
size_t ws_buffer_bytes(const ws_buffer_spec *b);

/* Fill bytes (ws_buffer_bytes(b) of them) per b's INIT.  0 on success; -1
 * with err set when file=PATH cannot be read or is longer than the buffer. */
int ws_buffer_fill(const ws_buffer_spec *b, void *bytes, char *err, size_t errlen);

/* The same on up to `threads` threads (0: as ws_buffer_fill picks, one per
 * processor online and per 4 MiB; 1: this thread only). Every element's value
 * depends on its index alone: the bytes are the same for any count. */
int ws_buffer_fill_threads(const ws_buffer_spec *b, void *bytes, unsigned threads, char *err, size_t errlen);

/* One step of the random generator above: advances *state, returns z. */
uint64_t ws_splitmix64_next(uint64_t *state);

/* Write n bytes to path through PATH.tmp.PID, fsync'd, then renamed over
 * path: never a half-written file.  0 on success; -1 with err set, the tmp
 * file removed and path untouched on failure. */
int ws_write_file_atomic(const char *path, const void *bytes, size_t n, char *err, size_t errlen);

#endif
