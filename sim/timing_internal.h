/*
 * The timing model's launch state, shared by sim/timing.c (collecting, while
 * blocks run) and sim/timing_result.c (placing the blocks, the result);
 * sim/timing_load.h's L1 takes its set with ws_fastmod_u32.
 * Blocks record themselves by index; their sums wait in each worker's block until the grid is done.
 */
#ifndef WARPSIM_SIM_TIMING_INTERNAL_H
#define WARPSIM_SIM_TIMING_INTERNAL_H

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
    uint64_t demand[WS_BOUND_COUNT];   /* issue, pipe, shared, l1 */
    uint64_t waits[WS_WAIT_POINT_COUNT];   /* its warps' waits on the L1TEX unit */
    uint32_t warps;
} ws_block_record;

#define WS_HOT_WORDS 1024
typedef struct { uint64_t addr, updates; } ws_hot_word;   /* updates: in hundredths of a float update */

typedef struct ws_launch_timing {
    uint64_t blocks;
    ws_block_record *block;            /* [blocks], by linear index */
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
