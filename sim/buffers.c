/*
 * Buffers of a run: sizes, initial contents (zero, iota, const, random,
 * file) and the atomic write --dump uses. Pure C11 + libc + getpid and
 * pthreads (large fills run on every processor), and sim/platform.c's fsync,
 * rename and processor count: validate/'s runner compiles both too.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "sim/buffers.h"

#include "sim/platform.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

size_t ws_buffer_bytes(const ws_buffer_spec *b)
{
    if ((unsigned)b->type >= PTX_TYPE_COUNT)
        return 0;
    return (size_t)(b->count * ptx_types[b->type].size);
}

#define SPLITMIX_GAMMA UINT64_C(0x9E3779B97F4A7C15)

/* splitmix64's output for a state: element i of random=SEED is that of
 * SEED + (i + 1) * gamma, so a fill needs no step-by-step state. */
static inline uint64_t splitmix64_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint64_t ws_splitmix64_next(uint64_t *state)
{
    *state += SPLITMIX_GAMMA;
    return splitmix64_mix(*state);
}

/* One typed store per element, no calls, over elements [lo, hi): `v` is
 * element i's value, computed by EXPR from i (and z, the generator's output,
 * where EXPR uses it). memcpy of a T is one store on a little-endian host, as
 * the GPU. */
#define FILL_ELEMENTS(T, EXPR)                                        \
    do {                                                              \
        uint64_t state = b->seed + lo * SPLITMIX_GAMMA;               \
        for (uint64_t i = lo; i < hi; i++) {                          \
            state += SPLITMIX_GAMMA;                                  \
            uint64_t z = splitmix64_mix(state);                       \
            T v = (T)(EXPR);                                          \
            (void)z;                                                  \
            memcpy(p + i * sizeof(T), &v, sizeof(T));                 \
        }                                                             \
    } while (0)

/* The same, for an integer value stored in the element's width (its low bytes). */
#define FILL_INTEGERS(EXPR)                                           \
    do {                                                              \
        switch (size) {                                               \
        case 1: FILL_ELEMENTS(uint8_t, EXPR); break;                  \
        case 2: FILL_ELEMENTS(uint16_t, EXPR); break;                 \
        case 4: FILL_ELEMENTS(uint32_t, EXPR); break;                 \
        default: FILL_ELEMENTS(uint64_t, EXPR); break;                \
        }                                                             \
    } while (0)

/* On x86-64 Linux with GCC, fill_range comes twice, picked when the program
 * loads (ifunc): plain x86-64, and one for AVX-512 (vpmullq does 64-bit
 * multiplies 4 or 8 at a time), vectorised even at -O2 (the dynamic cost
 * model accepts a loop with a remainder; -O2's cheap one does not). The same
 * operations element by element: the same bytes, 4-5x less host time. */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define FILL_CLONES __attribute__((target_clones("arch=x86-64-v4", "default"), optimize("vect-cost-model=dynamic")))
#else
#define FILL_CLONES
#endif

/* Elements [lo, hi) of a computed INIT (zero, iota, const, random): each
 * element's value depends on i alone, so any split gives the same bytes. */
FILL_CLONES static void fill_range(const ws_buffer_spec *b, unsigned char *p, uint64_t lo, uint64_t hi)
{
    const ptx_type_info *ti = &ptx_types[b->type];
    unsigned size = ti->size;
    /* The generator's z stays unused (and is optimised away) where EXPR ignores it. */
    switch (b->init) {
    case WS_INIT_ZERO:
        memset(p + lo * size, 0, (size_t)((hi - lo) * size));
        return;
    case WS_INIT_IOTA:
        if (b->type == PTX_F32)
            FILL_ELEMENTS(float, (float)i);
        else if (b->type == PTX_F64)
            FILL_ELEMENTS(double, (double)i);
        else
            FILL_INTEGERS(i);
        return;
    case WS_INIT_CONST:
        FILL_INTEGERS(b->const_bits);
        return;
    case WS_INIT_RANDOM:
        /* z >> 40 and z >> 11 fit a signed integer: one conversion instruction,
         * and k * 2^-23 - 1 (k * 2^-52 - 1) is exact, as sim/buffers.h says:
         * in float too (k < 2^24), so f32 needs no double at all. */
        if (b->type == PTX_F32)
            FILL_ELEMENTS(float, (float)(int32_t)(z >> 40) * 0x1p-23f - 1.0f);
        else if (b->type == PTX_F64)
            FILL_ELEMENTS(double, (double)(int64_t)(z >> 11) * 0x1p-52 - 1.0);
        else if (ti->kind == PTX_KIND_SIGNED)
            FILL_INTEGERS((uint64_t)((int64_t)(z % 2000) - 1000));
        else
            FILL_INTEGERS(z % 1000);
        return;
    case WS_INIT_FILE:
        return;
    }
}

/* Bytes per helper thread at least: below that, starting one costs more than
 * it saves (a thread's start is ~10-50 us; 4 MiB take ~1-3 ms to fill). */
#define FILL_MIN_BYTES_PER_THREAD ((uint64_t)4 << 20)
#define FILL_MAX_THREADS 64

typedef struct {
    const ws_buffer_spec *b;
    unsigned char *p;
    uint64_t lo, hi;
    pthread_t thread;
    int started;
} fill_part;

static void *fill_part_main(void *arg)
{
    fill_part *f = arg;
    fill_range(f->b, f->p, f->lo, f->hi);
    return NULL;
}

/* Split [0, count) into `threads` parts; parts 1.. on their own threads,
 * part 0 (and any whose thread could not start) on this one. */
static void fill_parallel(const ws_buffer_spec *b, unsigned char *p, unsigned threads)
{
    fill_part parts[FILL_MAX_THREADS];
    for (unsigned k = 0; k < threads; k++) {
        parts[k] = (fill_part){.b = b, .p = p, .lo = b->count * k / threads, .hi = b->count * (k + 1) / threads};
        parts[k].started = k > 0 && pthread_create(&parts[k].thread, NULL, fill_part_main, &parts[k]) == 0;
    }
    for (unsigned k = 0; k < threads; k++)
        if (!parts[k].started)
            fill_range(b, p, parts[k].lo, parts[k].hi);
    for (unsigned k = 1; k < threads; k++)
        if (parts[k].started)
            pthread_join(parts[k].thread, NULL);
}

/* Threads for a fill: as asked (0: the processors online), never more than
 * FILL_MAX_THREADS or the elements, and for 0 one per FILL_MIN_BYTES_PER_THREAD. */
static unsigned fill_threads(const ws_buffer_spec *b, unsigned asked)
{
    uint64_t n = asked ? asked : ws_cpu_count();
    if (!asked && n > ws_buffer_bytes(b) / FILL_MIN_BYTES_PER_THREAD)
        n = ws_buffer_bytes(b) / FILL_MIN_BYTES_PER_THREAD;
    if (n > b->count)
        n = b->count;
    if (n > FILL_MAX_THREADS)
        n = FILL_MAX_THREADS;
    return n ? (unsigned)n : 1;
}

int ws_buffer_fill(const ws_buffer_spec *b, void *bytes, char *err, size_t errlen)
{
    return ws_buffer_fill_threads(b, bytes, 0, err, errlen);
}

int ws_buffer_fill_threads(const ws_buffer_spec *b, void *bytes, unsigned threads, char *err, size_t errlen)
{
    if ((unsigned)b->type >= PTX_TYPE_COUNT || ptx_types[b->type].size == 0) {
        if (err && errlen)
            snprintf(err, errlen, "buffer '%s': bad element type", b->name ? b->name : "?");
        return -1;
    }
    const ptx_type_info *ti = &ptx_types[b->type];
    unsigned char *p = bytes;
    size_t total = ws_buffer_bytes(b);
    switch (b->init) {
    case WS_INIT_ZERO:
    case WS_INIT_IOTA:
    case WS_INIT_CONST:
    case WS_INIT_RANDOM:
        threads = fill_threads(b, threads);
        if (threads > 1)
            fill_parallel(b, p, threads);
        else
            fill_range(b, p, 0, b->count);
        return 0;
    case WS_INIT_FILE: {
        if (!b->file) {
            if (err && errlen)
                snprintf(err, errlen, "buffer '%s': no file", b->name ? b->name : "?");
            return -1;
        }
        FILE *f = fopen(b->file, "rb");
        if (!f) {
            if (err && errlen)
                snprintf(err, errlen, "buffer '%s': cannot read '%s': %s", b->name, b->file, strerror(errno));
            return -1;
        }
        size_t got = total ? fread(p, 1, total, f) : 0;
        int bad = ferror(f), e = errno;
        unsigned char extra;
        int longer = !bad && fread(&extra, 1, 1, f) == 1;
        fclose(f);
        if (bad || longer) {
            if (err && errlen) {
                if (bad)
                    snprintf(err, errlen, "buffer '%s': cannot read '%s': %s", b->name, b->file, strerror(e ? e : EIO));
                else {
                    struct stat st;
                    unsigned long long fsz = stat(b->file, &st) == 0 ? (unsigned long long)st.st_size : (unsigned long long)total + 1;
                    snprintf(err, errlen, "buffer '%s': file '%s' holds %llu bytes, more than the buffer's %llu (%llu x %s)",
                             b->name, b->file, fsz, (unsigned long long)total, (unsigned long long)b->count, ti->name);
                }
            }
            return -1;
        }
        memset(p + got, 0, total - got);
        return 0;
    }
    }
    if (err && errlen)
        snprintf(err, errlen, "buffer '%s': bad INIT", b->name ? b->name : "?");
    return -1;
}

int ws_write_file_atomic(const char *path, const void *bytes, size_t n, char *err, size_t errlen)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp) {
        if (err && errlen)
            snprintf(err, errlen, "cannot write '%s': out of memory", path);
        return -1;
    }
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        int e = errno;
        if (err && errlen)
            snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
        free(tmp);
        return -1;
    }
    int e = 0;
    if (n && fwrite(bytes, 1, n, f) != n)
        e = errno ? errno : EIO;
    if (!e && fflush(f))
        e = errno ? errno : EIO;
    if (!e && ws_sync_file(f) && errno != EINVAL && errno != ENOTSUP)
        e = errno;
    if (fclose(f) && !e)
        e = errno ? errno : EIO;
    if (!e && ws_rename_replace(tmp, path))
        e = errno;
    if (e) {
        remove(tmp);
        if (err && errlen)
            snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
