/*
 * Buffers of a run: sizes, initial contents (zero, iota, const, random,
 * file) and the atomic write --dump uses. Pure C11 + libc + getpid, and
 * sim/platform.c's fsync and rename: validate/'s runner compiles both too.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "sim/buffers.h"

#include "isa/bits.h"
#include "sim/platform.h"

#include <errno.h>
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

uint64_t ws_splitmix64_next(uint64_t *state)
{
    *state += UINT64_C(0x9E3779B97F4A7C15);
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void put_le(unsigned char *p, uint64_t v, unsigned size)
{
    for (unsigned k = 0; k < size; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

int ws_buffer_fill(const ws_buffer_spec *b, void *bytes, char *err, size_t errlen)
{
    if ((unsigned)b->type >= PTX_TYPE_COUNT || ptx_types[b->type].size == 0) {
        if (err && errlen)
            snprintf(err, errlen, "buffer '%s': bad element type", b->name ? b->name : "?");
        return -1;
    }
    const ptx_type_info *ti = &ptx_types[b->type];
    unsigned size = ti->size;
    unsigned char *p = bytes;
    size_t total = ws_buffer_bytes(b);
    switch (b->init) {
    case WS_INIT_ZERO:
        memset(p, 0, total);
        return 0;
    case WS_INIT_IOTA:
        for (uint64_t i = 0; i < b->count; i++) {
            uint64_t v = b->type == PTX_F32 ? ptx_f32_bits((float)i) : b->type == PTX_F64 ? ptx_f64_bits((double)i) : i;
            put_le(p + i * size, v, size);
        }
        return 0;
    case WS_INIT_CONST:
        for (uint64_t i = 0; i < b->count; i++)
            put_le(p + i * size, b->const_bits, size);
        return 0;
    case WS_INIT_RANDOM: {
        uint64_t state = b->seed;
        for (uint64_t i = 0; i < b->count; i++) {
            uint64_t z = ws_splitmix64_next(&state), v;
            if (b->type == PTX_F32)
                v = ptx_f32_bits((float)((double)(z >> 40) / 8388608.0 - 1.0));
            else if (b->type == PTX_F64)
                v = ptx_f64_bits((double)(z >> 11) / 4503599627370496.0 - 1.0);
            else if (ti->kind == PTX_KIND_SIGNED)
                v = (uint64_t)((int64_t)(z % 2000) - 1000);
            else
                v = z % 1000;
            put_le(p + i * size, v, size);
        }
        return 0;
    }
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
