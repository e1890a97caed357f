/* compute-sanitizer's checks, as far as warpsim has them (sim/check.c):
 * initcheck, reads of global or shared memory no one wrote; racecheck,
 * shared-memory accesses of two threads with no barrier between. */
#ifndef WARPSIM_SIM_CHECK_H
#define WARPSIM_SIM_CHECK_H

#include "sim/state.h"

/* A lane's access of `size` bytes at `offset` of a tracked region (bits: one
 * per byte, set once written): a store marks them, a read of any unwritten
 * byte is reported (space and address name it). */
void ws_check_written(ws_exec *x, const ptx_instr *in, int lane, uint8_t *bits, uint64_t offset, unsigned size,
                      int is_store, ptx_space space, uint64_t address);

/* racecheck: the per-byte record of a block's shared memory, and the launch's hazards. */
struct ws_race_cell;
struct ws_race_groups;
struct ws_race_cell *ws_race_cells_new(uint64_t shared_bytes);
void ws_race_reset(struct ws_race_cell *cells, uint64_t shared_bytes);
struct ws_race_groups *ws_race_groups_new(void);
void ws_race_groups_free(struct ws_race_groups *g);
/* A lane's shared access of `size` bytes at addr: a hazard with the last
 * access of another thread since the block's last barrier is recorded (an
 * error between warps; a warning between lanes of one warp with no
 * __syncwarp between, as compute-sanitizer tells them apart). */
void ws_check_race(ws_exec *x, const ptx_instr *in, int lane, uint64_t addr, unsigned size, int is_store);
/* --racecheck-global yes: the same for a lane's access of `size` bytes at `offset` of global allocation a,
 * between threads of one block (blocks are not ordered by anything racecheck sees). */
void ws_check_race_global(ws_exec *x, const ptx_instr *in, int lane, ws_allocation *a, uint64_t offset, unsigned size,
                          int is_store);
/* Print a launch's hazards, one per pair of instructions, as compute-sanitizer's
 * racecheck does; adds what it displayed to *shown, *errors and *warnings. */
void ws_race_report(const ws_launch *l, uint64_t *shown, uint64_t *errors, uint64_t *warnings);
void ws_race_summary(FILE *f, uint64_t shown, uint64_t errors, uint64_t warnings);

/* synccheck: a block stuck at a barrier some of its threads never reach (the
 * others are on a divergent path): each waiting thread is reported as
 * compute-sanitizer does, "Divergent thread(s) in warp." where its warp split
 * ("in block." where the whole warp waits for others), counted in the launch's
 * check errors. Threads that exited do not count
 * (sm_70 and later let them skip the barrier). */
void ws_sync_divergent_block(ws_launch *l, const ws_block *b);
/* synccheck of a warp-synchronous instruction (bar.warp.sync, shfl.sync,
 * vote.sync, redux.sync) with membermask `members`, executed by the lanes of
 * `mask`: a lane outside the mask is "Invalid arguments"; a member lane that
 * is alive but on another path is "Divergent thread(s) in warp". */
void ws_sync_warp(ws_exec *x, const ptx_instr *in, uint32_t mask, uint32_t members);

/* What the checks print at the end: "========= ERROR SUMMARY: N errors". */
void ws_check_summary(FILE *f, uint64_t errors);

#endif
