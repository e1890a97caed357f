/*
 * --sched its: independent thread scheduling, as far as data can tell.
 *
 * Since Volta the threads of a warp have their own program counters: between
 * two points where the warp synchronises (__syncwarp, a block barrier, a
 * *_sync shuffle, vote or reduction) nothing orders one lane's shared-memory
 * store before another lane's load, and code that relied on the warp running
 * in lockstep (the unrolled last-warp reduction without __syncwarp) reads
 * stale values. warpsim keeps issuing, counting and timing the warp as one
 * (every counter and predicted time stays lockstep's), and models only what
 * the lanes see: at each synchronisation the warp's lanes are split into two
 * groups, drawn from --seed, the block, the warp and how many stretches it has
 * run; until the next one each group sees its own stores and memory as it was
 * before the other group's (as if each group had run the stretch before the
 * other's stores landed). Memory itself always holds lockstep's values, so at
 * the synchronisation every store is there, in lockstep's order.
 *
 * The record: each held-back store is kept as records in its warp's list, one
 * per 4-byte word it covers (a word's record: the lane, the word, its four
 * old and four new bytes), and each shared word names the newest record of
 * the warp that last stored it (its_word: the warp and the record's index);
 * a word's records of one warp are chained newest to oldest. The chain is the
 * word's, not each byte's: the four bytes had the same head when a record was
 * made, so they share its previous record too. A store of 1 or 2 bytes (or
 * one not on a word boundary) puts its word in byte mode for the rest of the
 * block: its bytes get heads of their own (its_byte, each starting from the
 * word's head), its_word says WS_ITS_BYTES, and every later store to it makes
 * a record per byte, chained per byte (a byte's previous record may be a
 * word's: the byte reads its own byte of it).
 *
 * A flush only forgets the warp's records: the heads it leaves behind are
 * stale, and a head is the warp's current one only if it names a record the
 * warp holds now that covers that word or byte. That is exact: in the stretch
 * the only writer of the head value (warp, i) is record i's store, which
 * overwrote whatever stale copy the word held, and byte mode starts from the
 * word's head of that moment. A record links to its bytes' previous head
 * only when that is the same warp's current one, as a store of another warp
 * in between cuts a byte's chain.
 *
 * Per byte this is the chain the first version kept with a 12-byte record and
 * a head per byte, cleared at the flush (tests/its_reference.h keeps it;
 * tests/test_its.c runs random stores, loads, flushes and block starts of
 * several warps through both and compares every view). The first version cost
 * 16-35% more host instructions than lockstep on the benchmark's shared-memory
 * kernels; a lane's 4-byte store is now one 16-byte record and one head, made
 * in a loop over the warp's lanes (ws_its_store_lanes), and a flush costs
 * nothing per record. Two other designs were weighed: a record per lane-store
 * of up to 8 bytes needs a previous record per byte anyway (the bytes' heads
 * differ after narrower stores), and a lazier log, read only when a load finds
 * a byte its warp stored in the stretch, still needs to know, per byte, which
 * warp stored it last to answer such a load exactly when another warp stored
 * in between, which is a head per byte by another name. Kernels store whole
 * words, so the head is kept per word and byte mode is the exception.
 *
 * A load walks the chain only when its warp holds something back: a program
 * that synchronises before it reads another lane's data never walks one, and
 * reads what lockstep reads. A warp holding back more than MAX_BYTES bytes
 * (counted per store, as before: not per record) synchronises first.
 */
#include "sim/its.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A head packs (warp index + 1) above the record index + 1; 0: none. */
#define HEAD_SHIFT 26
#define HEAD_INDEX ((UINT32_C(1) << HEAD_SHIFT) - 1)
/* its_word: this word's bytes have heads of their own in its_byte. */
#define BYTES UINT32_MAX
/* Past this many held-back bytes the warp's stores are let through (see README.md: limits). */
#define MAX_BYTES (UINT32_C(1) << 20)
/* ws_its_record.where: shared memory is at most a preset's shared_per_block (228 KB), below 1 << 26 */
#define WHERE_OFFSET ((UINT32_C(1) << 26) - 1)
#define WHERE_LANE_SHIFT 26
#define WHERE_WORD (UINT32_C(1) << 31)

static inline unsigned rec_lane(const struct ws_its_record *r) { return (r->where >> WHERE_LANE_SHIFT) & 31u; }

/* Whether head (or link) h, found at byte `at`, names a record of warp `mine` made in
 * this stretch, before record `bound`, that covers the byte (see above: then it is
 * the byte's genuine head, or genuine previous record, and not a stale copy). */
static inline int current(const ws_warp *w, uint32_t h, uint32_t mine, uint32_t at, uint32_t bound)
{
    uint32_t i = (h & HEAD_INDEX) - 1;
    if ((h & ~HEAD_INDEX) != mine || i >= bound)
        return 0;
    uint32_t where = w->its.rec[i].where;
    return where & WHERE_WORD ? (where & WHERE_OFFSET) == (at & ~3u) : (where & WHERE_OFFSET) == at;
}

/* A record's link to its bytes' previous head h: checked when it is followed (current()). */
static inline uint32_t link(uint32_t h, uint32_t mine)
{
    return (h & ~HEAD_INDEX) == mine ? h & HEAD_INDEX : 0;
}

static uint64_t mix(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The lanes of the second group for this stretch of the warp: a function of
 * the seed and where the warp is only, so --jobs and reruns draw the same. */
static void draw_groups(const ws_launch *l, const ws_block *b, ws_warp *w)
{
    uint64_t z = mix(l->seed ^ mix(b->linear_index ^ mix((uint64_t)w->index << 32 | w->its.stretch)));
    uint32_t g = (uint32_t)z & w->lanes;
    if (g == 0 || g == w->lanes)   /* one group would be lockstep: split the halves instead */
        g = UINT32_C(0xffff0000) & w->lanes;
    w->its.groups = g;
}

int ws_its_block_alloc(const ws_launch *l, ws_block *b)
{
    size_t words = (size_t)(l->shared_size + 3) / 4;
    if (l->shared_size > WHERE_OFFSET)
        return -1;
    b->its_word = calloc(words + 2, sizeof *b->its_word);
    b->its_byte = calloc(4 * words + 8, sizeof *b->its_byte);
    return b->its_word && b->its_byte ? 0 : -1;
}

void ws_its_block_free(ws_block *b)
{
    for (int wi = 0; b->warps && wi < b->warp_count; wi++)
        free(b->warps[wi].its.rec);
    free(b->its_word);
    free(b->its_byte);
}

void ws_its_block_reset(const ws_launch *l, ws_block *b)
{
    /* its_byte is read only for words in byte mode, and set when a word enters it */
    memset(b->its_word, 0, (size_t)(l->shared_size + 3) / 4 * sizeof *b->its_word);
    b->its_byte_words = 0;
    for (int wi = 0; wi < b->warp_count; wi++) {
        ws_warp *w = &b->warps[wi];
        w->its.count = 0;
        w->its.bytes = 0;
        w->its.stretch = 0;
        w->its.drawn = 0;   /* drawn when a load first needs them (ws_its_view) */
    }
}

void ws_its_flush(ws_exec *x)
{
    ws_warp *w = x->warp;
    w->its.count = 0;   /* every head naming a record of the warp is stale now */
    w->its.bytes = 0;
    w->its.stretch++;
    w->its.drawn = 0;
}

/* Room for `records` more records; 0 when memory ran out. */
static int reserve(ws_warp *w, uint32_t records)
{
    if (w->its.count + records <= w->its.capacity)
        return 1;
    uint32_t cap = w->its.capacity ? w->its.capacity * 2 : 1024;
    while (cap < w->its.count + records)
        cap *= 2;
    struct ws_its_record *p = realloc(w->its.rec, cap * sizeof *p);
    if (!p)
        return 0;
    w->its.rec = p;
    w->its.capacity = cap;
    return 1;
}

void ws_its_store(ws_exec *x, int lane, uint64_t offset, const uint8_t *old, const uint8_t *val, unsigned size)
{
    ws_warp *w = x->warp;
    if (w->its.bytes + size > MAX_BYTES)
        ws_its_flush(x);
    if (!reserve(w, size)) {   /* out of memory: let this store through, as lockstep would */
        ws_its_flush(x);
        return;
    }
    w->its.bytes += size;
    uint32_t mine = (uint32_t)(w->index + 1) << HEAD_SHIFT, lane_bits = (uint32_t)lane << WHERE_LANE_SHIFT;
    uint32_t *word = x->block->its_word, *byte = x->block->its_byte;
    for (uint64_t at = offset, end = offset + size; at < end;) {
        uint32_t wi = (uint32_t)(at >> 2), lo = (uint32_t)(at & 3), n = 4 - lo;
        if (n > end - at)
            n = (uint32_t)(end - at);
        if (n == 4 && word[wi] != BYTES) {   /* a whole word in word mode */
            uint32_t h = word[wi], i = w->its.count++;
            struct ws_its_record *r = &w->its.rec[i];
            r->where = WHERE_WORD | lane_bits | 4 * wi;
            r->prev = link(h, mine);
            memcpy(r->old, old, 4);
            memcpy(r->val, val, 4);
            word[wi] = mine | (i + 1);
        } else {
            uint32_t *bh = byte + 4 * (size_t)wi;
            if (word[wi] != BYTES) {   /* into byte mode: each byte starts from the word's head */
                bh[0] = bh[1] = bh[2] = bh[3] = word[wi];
                word[wi] = BYTES;
                x->block->its_byte_words++;
            }
            for (uint32_t k = 0; k < n; k++) {
                uint32_t at_k = 4 * wi + lo + k, h = bh[lo + k], i = w->its.count++;
                struct ws_its_record *r = &w->its.rec[i];
                r->where = lane_bits | at_k;
                r->prev = link(h, mine);
                r->old[0] = old[k];
                r->val[0] = val[k];
                bh[lo + k] = mine | (i + 1);
            }
        }
        old += n;
        val += n;
        at += n;
    }
}

/* Warp `mine`'s record of a lane's store to word `off` (where: its where field), the word in word mode. */
static inline uint32_t put_word(struct ws_its_record *rec, uint32_t count, uint32_t *word, uint32_t mine,
                                uint32_t where, uint32_t off, const uint8_t *shared, const uint8_t *val)
{
    uint32_t h = word[off >> 2];
    struct ws_its_record *r = &rec[count];
    r->where = where;
    r->prev = link(h, mine);
    memcpy(r->old, shared + off, 4);
    memcpy(r->val, val, 4);
    word[off >> 2] = mine | (count + 1);
    return count + 1;
}

/* Lane `lane`'s shared offset: addr[lane] + at, or, addr NULL, its run's a0 + lane * stride (ws_its_store_run's
 * lanes: their addresses are not written out). */
static inline uint32_t lane_offset(const uint64_t *addr, uint64_t a0, uint64_t stride, unsigned at, uint32_t lane)
{
    return (uint32_t)(addr ? addr[lane] : a0 + lane * stride) + at;
}

/* The lanes' records when no word of the block is in byte mode (their offsets lane_offset's): inline with a
 * constant `size` and `addr` NULL or not. */
static inline __attribute__((always_inline)) uint32_t put_lanes(struct ws_its_record *rec, uint32_t count,
                                                                uint32_t *word, uint32_t mine, uint32_t mask,
                                                                const uint64_t *addr, uint64_t a0, uint64_t stride,
                                                                unsigned at, const uint64_t *values,
                                                                const uint8_t *shared, unsigned size)
{
    if (mask == WS_FULL_MASK) {   /* the common case: no lane to skip */
        uint32_t lane_bits = WHERE_WORD;   /* WHERE_WORD | lane << WHERE_LANE_SHIFT */
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++, lane_bits += UINT32_C(1) << WHERE_LANE_SHIFT) {
            uint32_t off = lane_offset(addr, a0, stride, at, lane), where = lane_bits | off;
            const uint8_t *val = (const uint8_t *)&values[lane];
            count = put_word(rec, count, word, mine, where, off, shared, val);
            if (size == 8)
                count = put_word(rec, count, word, mine, where + 4, off + 4, shared, val + 4);
        }
        return count;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m), off = lane_offset(addr, a0, stride, at, lane);
        uint32_t where = WHERE_WORD | lane << WHERE_LANE_SHIFT | off;
        const uint8_t *val = (const uint8_t *)&values[lane];
        count = put_word(rec, count, word, mine, where, off, shared, val);
        if (size == 8)
            count = put_word(rec, count, word, mine, where + 4, off + 4, shared, val + 4);
    }
    return count;
}

/* ws_its_store_lanes's work, the lanes' offsets lane_offset's (addr NULL: a run's): inline, so that each caller
 * has its own form. */
static inline __attribute__((always_inline)) void store_lanes(ws_exec *x, uint32_t mask, const uint64_t *addr,
                                                              uint64_t a0, uint64_t stride, unsigned at,
                                                              const uint64_t *values, unsigned size)
{
    ws_warp *w = x->warp;
    const uint8_t *shared = x->block->shared;
    if ((size != 4 && size != 8) || w->its.bytes + WS_WARP_SIZE * size > MAX_BYTES ||
        !reserve(w, WS_WARP_SIZE * size / 4)) {   /* near the limit (or out of memory): lane by lane */
        WS_FOR_LANES(mask, lane) {
            uint32_t off = lane_offset(addr, a0, stride, at, (uint32_t)lane);
            ws_its_store(x, lane, off, shared + off, (const uint8_t *)&values[lane], size);
        }
        return;
    }
    uint32_t mine = (uint32_t)(w->index + 1) << HEAD_SHIFT, count = w->its.count;
    uint32_t *word = x->block->its_word;
    if (!x->block->its_byte_words) {   /* the common case: room reserved for every lane */
        struct ws_its_record *rec = w->its.rec;
        uint32_t start = count;
        count = size == 4 ? put_lanes(rec, count, word, mine, mask, addr, a0, stride, at, values, shared, 4)
                          : put_lanes(rec, count, word, mine, mask, addr, a0, stride, at, values, shared, 8);
        w->its.bytes += 4 * (count - start);
        w->its.count = count;
        return;
    }
    /* some words in byte mode: a lane storing to one goes through ws_its_store (records per byte) */
    w->its.count = count;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m), off = lane_offset(addr, a0, stride, at, lane);
        const uint8_t *val = (const uint8_t *)&values[lane];
        if (word[off >> 2] == BYTES || (size == 8 && word[(off >> 2) + 1] == BYTES) || !reserve(w, 2)) {
            ws_its_store(x, (int)lane, off, shared + off, val, size);
            continue;
        }
        uint32_t where = WHERE_WORD | lane << WHERE_LANE_SHIFT | off;
        w->its.count = put_word(w->its.rec, w->its.count, word, mine, where, off, shared, val);
        if (size == 8)
            w->its.count = put_word(w->its.rec, w->its.count, word, mine, where + 4, off + 4, shared, val + 4);
        w->its.bytes += size;
    }
}

/* The lanes' addresses are aligned to `size` (sim/exec_mem.c's region path). */
void ws_its_store_lanes(ws_exec *x, uint32_t mask, const uint64_t *addr, unsigned at, const uint64_t *values,
                        unsigned size)
{
    store_lanes(x, mask, addr, 0, 0, at, values, size);
}

typedef uint32_t word_oct __attribute__((vector_size(32)));   /* eight 32-bit lanes (GNU C vector extension) */
typedef uint64_t dword_quad __attribute__((vector_size(32)));
#if defined(__clang__) || __GNUC__ >= 12
#define SHUFFLE(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define SHUFFLE(a, b, ...) __builtin_shuffle(a, b, (__typeof__(a)){__VA_ARGS__})
#endif

/* write_records's record as two 64-bit halves, little-endian: where | prev << 32, then old | val << 32 */
_Static_assert(sizeof(struct ws_its_record) == 16 && offsetof(struct ws_its_record, prev) == 4 &&
               offsetof(struct ws_its_record, old) == 8 && offsetof(struct ws_its_record, val) == 12,
               "ws_its_record's layout");

/* ws_its_store_run's records of a full warp's run (lane l's word at first + l * step, its head head[l], its old
 * word the l-th of old_words, its new one values[l]'s low bytes), eight lanes at a time: the four fields as
 * rows, interleaved into records by shuffles that stay inside 16-byte halves but the last (the record loop
 * as fields cost some 9 host instructions a lane). */
static inline __attribute__((always_inline)) void write_records(struct ws_its_record *r, uint32_t first,
                                                                uint32_t step, uint32_t mine, const uint32_t *head,
                                                                const void *old_words, const uint64_t *values)
{
    const uint8_t *old = old_words;   /* 32 words, perhaps shared memory's own (copied out, not aliased as words) */
    for (uint32_t l = 0; l < WS_WARP_SIZE; l += 8) {
        word_oct lane = (word_oct){0, 1, 2, 3, 4, 5, 6, 7} + l, h, o;
        dword_quad v0, v1;
        memcpy(&h, head + l, sizeof h);
        memcpy(&o, old + 4 * l, sizeof o);
        memcpy(&v0, values + l, sizeof v0);
        memcpy(&v1, values + l + 4, sizeof v1);
        word_oct where = WHERE_WORD | lane << WHERE_LANE_SHIFT | (first + lane * step);
        word_oct prev = h & HEAD_INDEX & (word_oct)((h & ~HEAD_INDEX) == mine);   /* link() */
        word_oct val = SHUFFLE((word_oct)v0, (word_oct)v1, 0, 2, 4, 6, 8, 10, 12, 14);   /* the low words */
        /* where and prev, old and val, in pairs: lanes 0, 1 | 4, 5 and 2, 3 | 6, 7 */
        dword_quad wp_a = (dword_quad)SHUFFLE(where, prev, 0, 8, 1, 9, 4, 12, 5, 13);
        dword_quad wp_b = (dword_quad)SHUFFLE(where, prev, 2, 10, 3, 11, 6, 14, 7, 15);
        dword_quad ov_a = (dword_quad)SHUFFLE(o, val, 0, 8, 1, 9, 4, 12, 5, 13);
        dword_quad ov_b = (dword_quad)SHUFFLE(o, val, 2, 10, 3, 11, 6, 14, 7, 15);
        /* records l and l + 4, l + 1 and l + 5, ... */
        dword_quad r04 = SHUFFLE(wp_a, ov_a, 0, 4, 2, 6), r15 = SHUFFLE(wp_a, ov_a, 1, 5, 3, 7);
        dword_quad r26 = SHUFFLE(wp_b, ov_b, 0, 4, 2, 6), r37 = SHUFFLE(wp_b, ov_b, 1, 5, 3, 7);
        dword_quad r01 = SHUFFLE(r04, r15, 0, 1, 4, 5), r23 = SHUFFLE(r26, r37, 0, 1, 4, 5);
        dword_quad r45 = SHUFFLE(r04, r15, 2, 3, 6, 7), r67 = SHUFFLE(r26, r37, 2, 3, 6, 7);
        memcpy(r + l, &r01, sizeof r01);
        memcpy(r + l + 2, &r23, sizeof r23);
        memcpy(r + l + 4, &r45, sizeof r45);
        memcpy(r + l + 6, &r67, sizeof r67);
    }
}

WS_LANE_LOOPS void ws_its_store_run(ws_exec *x, uint32_t mask, uint64_t a0, uint64_t stride, const uint64_t *values,
                                   unsigned size)
{
    ws_warp *w = x->warp;
    if (mask != WS_FULL_MASK || size != 4 || stride == 0 || (stride & 3) || x->block->its_byte_words ||
        w->its.bytes + WS_WARP_SIZE * 4 > MAX_BYTES || !reserve(w, WS_WARP_SIZE)) {
        store_lanes(x, mask, NULL, a0, stride, 0, values, size);   /* one lane after another */
        return;
    }
    /* Every lane stores its own word (stride 4 or more): no lane's record links to another's, so the
     * heads and old words are read first, the records written, then the heads: loops without a carried
     * dependence (a run of words, stride 4, is read and written as rows). */
    const uint8_t *shared = x->block->shared;
    uint32_t *word = x->block->its_word, mine = (uint32_t)(w->index + 1) << HEAD_SHIFT, count = w->its.count;
    uint32_t first = (uint32_t)a0, step = (uint32_t)stride, head[WS_WARP_SIZE], old[WS_WARP_SIZE];
    if (step == 4) {   /* rows of words: read in place */
        write_records(w->its.rec + count, first, step, mine, word + (first >> 2), shared + first, values);
    } else {
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) {
            uint32_t off = first + lane * step;
            head[lane] = word[off >> 2];
            memcpy(&old[lane], shared + off, 4);
        }
        write_records(w->its.rec + count, first, step, mine, head, old, values);
    }
    if (step == 4) {
        uint32_t *heads = word + (first >> 2);
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
            heads[lane] = mine | (count + lane + 1);
    } else {
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
            word[(first + lane * step) >> 2] = mine | (count + lane + 1);
    }
    w->its.count = count + WS_WARP_SIZE;
    w->its.bytes += 4 * WS_WARP_SIZE;
}

int ws_its_view(const ws_exec *x, int lane, uint64_t offset, uint8_t *bytes, unsigned size)
{
    ws_warp *w = x->warp;
    uint32_t mine = (uint32_t)(w->index + 1) << HEAD_SHIFT;
    const uint32_t *word = x->block->its_word, *byte = x->block->its_byte;
    int changed = 0;
    if (!w->its.drawn) {
        draw_groups(x->launch, x->block, w);
        w->its.drawn = 1;
    }
    uint32_t second = (w->its.groups >> lane) & 1u;
    for (unsigned k = 0; k < size; k++) {
        uint32_t at = (uint32_t)(offset + k), h = word[at >> 2];
        if (h == BYTES)
            h = byte[at];
        int before = -1;   /* the byte before the other group's oldest store */
        for (uint32_t bound = w->its.count; current(w, h, mine, at, bound);) {
            const struct ws_its_record *r = &w->its.rec[(h & HEAD_INDEX) - 1];
            unsigned b = r->where & WHERE_WORD ? at & 3u : 0;
            if (((w->its.groups >> rec_lane(r)) & 1u) == second) {   /* its own group's newest store */
                before = r->val[b];
                break;
            }
            before = r->old[b];
            bound = (h & HEAD_INDEX) - 1;
            h = mine | r->prev;   /* 0: none (mine | 0 is never current) */
        }
        if (before >= 0 && bytes[k] != (uint8_t)before) {
            bytes[k] = (uint8_t)before;
            changed = 1;
        }
    }
    return changed;
}
