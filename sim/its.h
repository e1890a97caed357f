/* --sched its (sim/its.c): what the lanes of a warp see of each other's
 * shared-memory stores when they may run apart (Volta's independent thread
 * scheduling). Data only: the warp still issues, counts and is timed as one. */
#ifndef WARPSIM_SIM_ITS_H
#define WARPSIM_SIM_ITS_H

#include "sim/state.h"

/* One held-back store of a lane to one 4-byte word of shared memory, or to
 * one byte of a word kept byte by byte (sim/its.c). */
struct ws_its_record {
    uint32_t where;    /* the word's first byte or the byte, | lane << 26, | 1 << 31 for a word */
    uint32_t prev;     /* this warp's previous record of these bytes, + 1; 0: none */
    uint8_t old[4];    /* the bytes before the store (a byte's record: old[0]) */
    uint8_t val[4];    /* and after it */
};

/* A block's record of which warp's unsynchronised store each shared byte holds. */
int ws_its_block_alloc(const ws_launch *l, ws_block *b);
void ws_its_block_free(ws_block *b);
/* A block starts: no stores held back, each warp's first split of its lanes drawn from the seed. */
void ws_its_block_reset(const ws_launch *l, ws_block *b);

/* A lane's shared store of `size` bytes at `offset`, before it lands: `old`
 * the bytes there now, `val` the new ones. */
void ws_its_store(ws_exec *x, int lane, uint64_t offset, const uint8_t *old, const uint8_t *val, unsigned size);
/* The same for the lanes of `mask` at once, each storing the `size` (4 or 8)
 * bytes of values[lane] at shared offset addr[lane] + at, before they land. */
void ws_its_store_lanes(ws_exec *x, uint32_t mask, const uint64_t *addr, unsigned at, const uint64_t *values,
                        unsigned size);
/* The same for the lanes of mask storing at a0 + lane * stride (a0 lane 0's address, whether it stores or not;
 * aligned to `size`), as ws_its_store_lanes; a full warp's run of distinct words (4 bytes, stride a multiple
 * of 4) without a dependence from lane to lane, the others one lane after another. */
void ws_its_store_run(ws_exec *x, uint32_t mask, uint64_t a0, uint64_t stride, const uint64_t *values, unsigned size);
/* A lane's shared load of `size` bytes at `offset`, `bytes` holding memory's
 * (lockstep's) value: replaced by what the lane's group sees. 1 when that differs. */
int ws_its_view(const ws_exec *x, int lane, uint64_t offset, uint8_t *bytes, unsigned size);
/* The warp synchronises (__syncwarp, a block barrier, a *_sync warp operation):
 * every store it held back becomes visible to all its lanes; a new split. */
void ws_its_flush(ws_exec *x);

static inline void ws_its_sync(ws_exec *x)
{
    if (x->warp->its.count)
        ws_its_flush(x);
}

#endif
