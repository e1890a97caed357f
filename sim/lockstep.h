/*
 * Warps in lockstep (sim/lockstep.c): a round of the block loop runs the
 * warps' next instructions in index order, and most of the time the warps
 * wait at the same one. The round's stretch of warps at one instruction is
 * a group; running the instruction group by group, in the same order, gives
 * the same results as warp by warp with the instruction's look-ups made once.
 */
#ifndef WARPSIM_SIM_LOCKSTEP_H
#define WARPSIM_SIM_LOCKSTEP_H

#include "sim/state.h"

/* Runs the instruction warp wi waits at for wi and the warps after it that the round would step next
 * while they wait at it too (those the round passes by, done or at a barrier, are passed by), as
 * ws_step would one after another, stopping after a fault (l->failed) or where the step budget runs out
 * (l->steps reaches l->max_steps). `first_of_round`: no warp before wi ran this round. When the group
 * is then the whole round, the next rounds, as long as the same warps wait at one instruction that
 * leaves the stack alone, are run too: nothing else runs between them. When the round's other warps wait one
 * instruction ahead (after a barrier released them mid-round), the next instructions run for both halves,
 * in the order warp by warp would (sim/lockstep.c: lagged_rounds). Returns the index of the last warp it
 * reached: the round goes on after it. */
int ws_step_group(ws_launch *l, ws_block *b, int wi, int first_of_round);

#endif
