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
 * The record: each held-back store byte is a record in its warp's list, and
 * each shared byte names the newest record of the warp that last stored it
 * (its_head); a byte's records of one warp are chained newest to oldest.
 * A load walks the chain only when its warp holds something back: a program
 * that synchronises before it reads another lane's data never walks one, and
 * reads what lockstep reads.
 */
#include "sim/its.h"

#include <stdlib.h>
#include <string.h>

struct ws_its_record {
    uint32_t offset;   /* the shared byte */
    uint32_t prev;     /* the previous record of this byte in this warp's list, + 1; 0: none */
    uint8_t lane, old, val;
};

/* its_head packs (warp index + 1) above the record index + 1. */
#define HEAD_SHIFT 26
#define HEAD_INDEX ((UINT32_C(1) << HEAD_SHIFT) - 1)
/* Past this many held-back bytes the warp's stores are let through (see README.md: limits). */
#define MAX_RECORDS (UINT32_C(1) << 20)

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
    b->its_head = calloc((size_t)l->shared_size + 1, sizeof *b->its_head);
    return b->its_head ? 0 : -1;
}

void ws_its_block_free(ws_block *b)
{
    for (int wi = 0; b->warps && wi < b->warp_count; wi++)
        free(b->warps[wi].its.rec);
    free(b->its_head);
}

void ws_its_block_reset(const ws_launch *l, ws_block *b)
{
    memset(b->its_head, 0, (size_t)l->shared_size * sizeof *b->its_head);
    for (int wi = 0; wi < b->warp_count; wi++) {
        ws_warp *w = &b->warps[wi];
        w->its.count = 0;
        w->its.stretch = 0;
        draw_groups(l, b, w);
    }
}

void ws_its_flush(ws_exec *x)
{
    ws_warp *w = x->warp;
    uint32_t mine = (uint32_t)(w->index + 1) << HEAD_SHIFT;
    uint32_t *head = x->block->its_head;
    for (uint32_t i = 0; i < w->its.count; i++) {
        uint32_t off = w->its.rec[i].offset;
        if ((head[off] & ~HEAD_INDEX) == mine)   /* another warp's newer store keeps its record */
            head[off] = 0;
    }
    w->its.count = 0;
    w->its.stretch++;
    draw_groups(x->launch, x->block, w);
}

void ws_its_store(ws_exec *x, int lane, uint64_t offset, const uint8_t *old, const uint8_t *val, unsigned size)
{
    ws_warp *w = x->warp;
    if (w->its.count + size > MAX_RECORDS)
        ws_its_flush(x);
    if (w->its.count + size > w->its.capacity) {
        uint32_t cap = w->its.capacity ? w->its.capacity * 2 : 1024;
        while (cap < w->its.count + size)
            cap *= 2;
        struct ws_its_record *p = realloc(w->its.rec, cap * sizeof *p);
        if (!p) {   /* out of memory: let this store through, as lockstep would */
            ws_its_flush(x);
            return;
        }
        w->its.rec = p;
        w->its.capacity = cap;
    }
    uint32_t mine = (uint32_t)(w->index + 1) << HEAD_SHIFT;
    uint32_t *head = x->block->its_head;
    for (unsigned k = 0; k < size; k++) {
        uint32_t off = (uint32_t)(offset + k), i = w->its.count++;
        uint32_t prev = (head[off] & ~HEAD_INDEX) == mine ? head[off] & HEAD_INDEX : 0;
        w->its.rec[i] = (struct ws_its_record){off, prev, (uint8_t)lane, old[k], val[k]};
        head[off] = mine | (i + 1);
    }
}

int ws_its_view(const ws_exec *x, int lane, uint64_t offset, uint8_t *bytes, unsigned size)
{
    const ws_warp *w = x->warp;
    uint32_t mine = (uint32_t)(w->index + 1) << HEAD_SHIFT;
    uint32_t second = (w->its.groups >> lane) & 1u;
    const uint32_t *head = x->block->its_head;
    int changed = 0;
    for (unsigned k = 0; k < size; k++) {
        uint32_t h = head[offset + k];
        if ((h & ~HEAD_INDEX) != mine)
            continue;   /* no store of this warp held back here */
        int before = -1;   /* the byte before the other group's oldest store */
        for (uint32_t r = h & HEAD_INDEX; r; r = w->its.rec[r - 1].prev) {
            const struct ws_its_record *rec = &w->its.rec[r - 1];
            if (((w->its.groups >> rec->lane) & 1u) == second) {   /* its own group's newest store */
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
