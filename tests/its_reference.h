/* tests/its_reference.h: --sched its's record as it was before the per-word
 * records (a 12-byte record per held-back byte, a per-byte head), kept
 * verbatim in its logic as the reference tests/test_its.c compares sim/its.c
 * against. Standalone: no launch, block or warp, only what the record needs. */
#ifndef WARPSIM_TESTS_ITS_REFERENCE_H
#define WARPSIM_TESTS_ITS_REFERENCE_H

#include <stdint.h>
#include <stdlib.h>

struct ref_its_record {
    uint32_t offset;   /* the shared byte */
    uint32_t prev;     /* the previous record of this byte in this warp's list, + 1; 0: none */
    uint8_t lane, old, val;
};

struct ref_its_warp {
    struct ref_its_record *rec;
    uint32_t count, capacity;
};

typedef struct ref_its {
    uint32_t *head;    /* per shared byte */
    struct ref_its_warp *warps;
    int warp_count;
    uint32_t max_records;   /* sim/its.c's MAX_RECORDS then: 1 << 20 */
} ref_its;

#define REF_HEAD_SHIFT 26
#define REF_HEAD_INDEX ((UINT32_C(1) << REF_HEAD_SHIFT) - 1)

static inline void ref_its_init(ref_its *r, uint32_t shared_size, int warp_count)
{
    r->head = calloc((size_t)shared_size + 1, sizeof *r->head);
    r->warps = calloc((size_t)warp_count, sizeof *r->warps);
    r->warp_count = warp_count;
    r->max_records = UINT32_C(1) << 20;
}

static inline void ref_its_free(ref_its *r)
{
    for (int wi = 0; wi < r->warp_count; wi++)
        free(r->warps[wi].rec);
    free(r->warps);
    free(r->head);
}

/* A new block: nothing held back. */
static inline void ref_its_reset(ref_its *r, uint32_t shared_size)
{
    for (uint32_t i = 0; i < shared_size; i++)
        r->head[i] = 0;
    for (int wi = 0; wi < r->warp_count; wi++)
        r->warps[wi].count = 0;
}

static inline void ref_its_flush(ref_its *r, int warp)
{
    struct ref_its_warp *w = &r->warps[warp];
    uint32_t mine = (uint32_t)(warp + 1) << REF_HEAD_SHIFT;
    for (uint32_t i = 0; i < w->count; i++) {
        uint32_t off = w->rec[i].offset;
        if ((r->head[off] & ~REF_HEAD_INDEX) == mine)
            r->head[off] = 0;
    }
    w->count = 0;
}

/* Returns 1 when the warp's records were flushed first (past max_records). */
static inline int ref_its_store(ref_its *r, int warp, int lane, uint32_t offset, const uint8_t *old,
                                const uint8_t *val, unsigned size)
{
    struct ref_its_warp *w = &r->warps[warp];
    int flushed = 0;
    if (w->count + size > r->max_records) {
        ref_its_flush(r, warp);
        flushed = 1;
    }
    if (w->count + size > w->capacity) {
        uint32_t cap = w->capacity ? w->capacity * 2 : 1024;
        while (cap < w->count + size)
            cap *= 2;
        w->rec = realloc(w->rec, cap * sizeof *w->rec);
        if (!w->rec)
            abort();
        w->capacity = cap;
    }
    uint32_t mine = (uint32_t)(warp + 1) << REF_HEAD_SHIFT;
    for (unsigned k = 0; k < size; k++) {
        uint32_t off = offset + k, i = w->count++;
        uint32_t prev = (r->head[off] & ~REF_HEAD_INDEX) == mine ? r->head[off] & REF_HEAD_INDEX : 0;
        w->rec[i] = (struct ref_its_record){off, prev, (uint8_t)lane, old[k], val[k]};
        r->head[off] = mine | (i + 1);
    }
    return flushed;
}

/* `groups`: the lanes of the warp's second group this stretch. */
static inline int ref_its_view(const ref_its *r, int warp, uint32_t groups, int lane, uint32_t offset, uint8_t *bytes,
                               unsigned size)
{
    const struct ref_its_warp *w = &r->warps[warp];
    uint32_t mine = (uint32_t)(warp + 1) << REF_HEAD_SHIFT;
    uint32_t second = (groups >> lane) & 1u;
    int changed = 0;
    for (unsigned k = 0; k < size; k++) {
        uint32_t h = r->head[offset + k];
        if ((h & ~REF_HEAD_INDEX) != mine)
            continue;
        int before = -1;
        for (uint32_t i = h & REF_HEAD_INDEX; i; i = w->rec[i - 1].prev) {
            const struct ref_its_record *rec = &w->rec[i - 1];
            if (((groups >> rec->lane) & 1u) == second) {
                before = rec->val;
                break;
            }
            before = rec->old;
        }
        if (before >= 0 && bytes[k] != (uint8_t)before) {
            bytes[k] = (uint8_t)before;
            changed = 1;
        }
    }
    return changed;
}

#endif
