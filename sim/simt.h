/* The reconvergence policy (sim/simt.c): replaceable as one module. */
#ifndef WARPSIM_SIM_SIMT_H
#define WARPSIM_SIM_SIMT_H

#include "sim/state.h"

/* Immediate post-dominator of each instruction of fn (-1: the function's
 * exit), malloc'd; NULL when out of memory. */
int32_t *ws_postdominators(const ptx_function *fn);

/* Push a path; -1 when the stack is full. */
int ws_simt_push(ws_warp *w, int32_t pc, int32_t rpc, uint32_t mask, int32_t frame);
/* The stack of a warp whose lanes start the kernel: one path, at its first instruction, that only their
 * exit ends (inline: every warp of every block starts so). */
static inline void ws_simt_start(ws_warp *w, uint32_t lanes)
{
    w->simt[0] = (ws_simt_entry){0, -1, lanes, 0};
    w->simt_depth = 1;
}
/* The top path branches: lanes `taken` go to target, the others fall
 * through; they merge at `reconverge`. -1 when the stack is full. */
int ws_simt_branch(ws_warp *w, uint32_t taken, int32_t target, int32_t fallthrough, int32_t reconverge);
/* Lanes leave (exit, or ret from frame `from_frame` and deeper; inline, as ws_simt_settle). */
static inline void ws_simt_remove_lanes(ws_warp *w, uint32_t lanes, int32_t from_frame)
{
    for (int i = 0; i < w->simt_depth; i++)
        if (w->simt[i].frame >= from_frame)
            w->simt[i].mask &= ~lanes;
}
/* Pop the paths that are finished (empty) or have reached their merge point (inline: a warp's stack settles
 * at every merge and at its end, and the call cost more than the loop). */
static inline void ws_simt_settle(ws_warp *w)
{
    while (w->simt_depth > 0) {
        ws_simt_entry *top = &w->simt[w->simt_depth - 1];
        if (top->mask != 0 && top->pc != top->rpc)
            break;
        w->simt_depth--;
    }
}

#endif
