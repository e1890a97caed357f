/*
 * The timing model's launch state, shared by sim/timing.c (collecting, while
 * blocks run), sim/timing_blocks.c (placing the blocks) and sim/timing_result.c (the result);
 * sim/timing_load.h's L1 takes its set with ws_fastmod_u32.
 * On one thread each block is placed on the SMs as it is done (sim/timing_blocks.c); under --jobs blocks record
 * themselves by index, and their sums wait in each worker's block, until the grid is done.
 */
#ifndef WARPSIM_SIM_TIMING_INTERNAL_H
#define WARPSIM_SIM_TIMING_INTERNAL_H

#include <stdlib.h>

#include "sim/timing.h"

/* n % d without a division (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019): exact
 * for every 32-bit n and d > 0, given magic = ws_fastmod_magic(d). The L1's set of a line is such a remainder
 * on every lookup, and a 64-bit division takes some 40 cycles. */
static inline uint64_t ws_fastmod_magic(uint32_t d) { return UINT64_MAX / d + 1; }
static inline uint32_t ws_fastmod_u32(uint32_t n, uint64_t magic, uint32_t d)
{
    return (uint32_t)(((unsigned __int128)(magic * n) * d) >> 64);
}

/* One block: its latency path and its demand on the SM's resources, cycles. */
typedef struct {
    uint64_t path;
    uint64_t demand[WS_BOUND_L1 + 1];      /* issue, pipe, shared, l1 (the others are the chip's) */
    uint64_t waits[WS_WAIT_POINT_COUNT];   /* its warps' waits on the L1TEX unit */
    uint32_t warps;
} ws_block_record;

typedef struct { uint64_t free_at; uint32_t order, sm; } ws_sm_slot;   /* sm: order % the SMs, kept */

/* The placement so far, and the sums ws_timing_finish reads from it. */
typedef struct {
    uint64_t placed;                       /* the blocks placed so far */
    uint64_t sms, slots, co;               /* co: blocks sharing an SM at once */
    uint64_t block_launch_cycles;          /* an SM starts its blocks one by one, this far apart */
    ws_sm_slot *heap;                      /* [slots], the first to free on top */
    uint64_t *sm_busy, *sm_next_start, *sm_end;   /* [sms] */
    uint64_t kernel, path_max, decided_by_demand;
    double warp_cycles;                    /* each block's warps over its time */
    double behind[WS_STALL_COUNT];         /* warp-cycles spent behind other warps, by stall reason */
    double demand[WS_BOUND_L1 + 1];        /* the blocks' demands summed, in launch order */
    uint64_t waits[WS_WAIT_POINT_COUNT];   /* and their waits */
} ws_block_placement;

/* The placement's arrays freed: inline here for ws_timing_free, as sim/timing.c does not depend on
 * sim/timing_blocks.c (which depends on it: tests/test_layers.c). */
static inline void ws_block_placement_free(ws_block_placement *p)
{
    free(p->heap);
    free(p->sm_busy);
    free(p->sm_next_start);
    free(p->sm_end);
    p->heap = NULL;
    p->sm_busy = p->sm_next_start = p->sm_end = NULL;
}

#define WS_HOT_WORDS 1024
typedef struct { uint64_t addr, updates; } ws_hot_word;   /* updates: in hundredths of a float update */

typedef struct ws_launch_timing {
    uint64_t blocks;
    ws_block_record *block;            /* --jobs: [blocks], by linear index, placed once the grid is done; NULL:
                                          blocks done in launch order, each placed at once */
    ws_block_placement placement;
    uint32_t subpartitions;
    int in_order;                      /* --build O0: every instruction waits for the one before */
    uint32_t extra_overhead_ns;        /* --build O0: its larger code's instruction fetch */
    int aggregates_atomics;            /* the real build folds a warp's integer atomic on one word */
    uint32_t pipe_cycles[WS_PIPE_COUNT];
    uint32_t blocks_per_sm, regs;
    int regs_estimated;
    const char *occupancy_limit;
    ws_timing_sums sums;               /* the blocks', added once the grid is done */
    ws_hot_word hot[WS_HOT_WORDS];
    ws_timing_result result;
} ws_launch_timing;

#endif
