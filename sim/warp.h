/*
 * Warps and their threads (sim/warp.c): set-up for each block, call frames,
 * thread exit and barrier release. The narrow interface through which the
 * control and barrier handlers change a warp beyond its SIMT stack.
 */
#ifndef WARPSIM_SIM_WARP_H
#define WARPSIM_SIM_WARP_H

#include "sim/state.h"

/* A block's warps, shared memory and local memory, reused block after block, and what of its warps is the
 * same in every block (their thread indices, their kernel frames). */
int ws_block_alloc(ws_launch *l, ws_block *b);
void ws_block_free(ws_block *b);
/* Make b the block of linear index `linear`: its ids, barriers, shared memory
 * zeroed, every warp at the kernel's first instruction. l is the launch b was
 * allocated for, and b's last block, if any, ran to its end. */
void ws_block_reset(ws_launch *l, ws_block *b, uint64_t linear);

/* Give frame f the registers of fn: predicates zeroed, and those value
 * registers that some path reads before writing (l->zeroed); the others are
 * always written first, so whatever they hold is never seen. A called
 * function's frame gets value registers of its own; the kernel's frame
 * (depth 0) has its warp's rows of the block's (ws_block_reset zeroes them). */
int ws_frame_registers(ws_launch *l, ws_frame *f, int32_t fn_index);
/* Pop finished call frames (copying their return values); a warp with no path left is done. */
void ws_frames_settle(ws_exec *x);

/* Threads that exited no longer count toward barriers: those that now can release. */
void ws_threads_exited(ws_exec *x, uint32_t lanes);
/* Release barrier `id` of block b once every thread expected has arrived. */
void ws_barrier_check(ws_launch *l, ws_block *b, int id);
/* Whether every thread barrier `id` of block b expects has arrived (ws_barrier_check's test, inline: each
 * warp's arrival asks, and all but the last are told no). */
static inline int ws_barrier_complete(const ws_block *b, int id)
{
    uint32_t expected = b->barrier[id].expected ? b->barrier[id].expected : b->thread_count;
    return b->barrier[id].arrived >= expected;
}

/* The handlers' context for the warp's top frame: set when a block starts,
 * and again whenever a call or a return may have moved the top frame. */
static inline void ws_warp_context(ws_launch *l, ws_block *b, ws_warp *w)
{
    ws_frame *f = &w->frames[w->frame_depth - 1];
    w->exec = (ws_exec){
        .launch = l, .block = b, .warp = w, .fn = f->fn,
        .reg = f->reg, .reg_stride = f->reg_stride, .pred = f->pred, .carry = &w->carry, .shape = f->shape,
    };
}

#endif
