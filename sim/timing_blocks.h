/*
 * The timing model's blocks placed on the SMs (sim/timing_blocks.c): each block, as it is done, goes to the SM
 * slot that frees first, in launch order, and what it spent behind other warps is spread over its waits. On
 * one thread the blocks are done in that order and placed at once (no record kept a block); under --jobs
 * their records wait in an array until the grid is done (ws_timing_finish). The placement's state is
 * sim/timing_internal.h's.
 */
#ifndef WARPSIM_SIM_TIMING_BLOCKS_H
#define WARPSIM_SIM_TIMING_BLOCKS_H

#include "sim/timing_internal.h"

/* The placement of `blocks` blocks, blocks_per_sm at most on each of the arch's SMs. -1: out of memory. */
int ws_block_placement_start(ws_block_placement *p, const ws_arch *a, uint64_t blocks, uint32_t blocks_per_sm);
/* The next block in launch order placed. */
void ws_block_placement_add(ws_block_placement *p, const ws_block_record *r);

/* A block done: its record (its latency path, its demand on the SM, its waits) placed at once on one thread,
 * else kept for ws_timing_finish; and its sums added to the block's (the worker's). */
void ws_timing_block_done(ws_launch *l, ws_block *b);

/* Spread warp_cycles spent behind a block's busiest resource over its waits (`waits`, by kind) as ncu's stall
 * reasons see them, into behind[]. */
void ws_wait_behind(double *behind, ws_bound busiest, const uint64_t *waits, double warp_cycles);

#endif
