/*
 * sim/exec_mem_wide.c's: the memory instructions of a group of warps in a run of wide instructions
 * (sim/lockstep.c), each warp's access planned before the group does it.
 */
#ifndef WARPSIM_SIM_EXEC_MEM_WIDE_H
#define WARPSIM_SIM_EXEC_MEM_WIDE_H

#include "sim/exec_mem_lanes.h"
#include "sim/timing_load.h"

/* A full warp's ld.shared in a run of wide instructions (sim/lockstep.c), found before the run: lane i reads
 * a0 + i * stride (stride 0: one address for every lane), at that cost. */
typedef struct {
    uint32_t a0, stride;
    ws_shared_cost cost;
} ws_shared_plan;
/* Whether the ld.shared `in` (decode gave it the batch: WS_BATCH_SHARED) of the n consecutive warps from w on,
 * every lane active, takes one pass in each: its address register's shape known, the run in the block's shared
 * memory, aligned, with no store held back (--sched its); p[j] then says where warp j's lies and at what cost,
 * and it returns the most wavefronts of a warp (1 or more). 0: the load's own paths decide. */
uint32_t ws_ld_shared_plan(ws_warp *w, int n, const ptx_instr *in, ws_shared_plan *p);
/* The loads that ws_ld_shared_plan found (p[j] warp j's) for n consecutive warps from w on: their elements,
 * their counters into ic, and with the timing model (its real build) their access's part of it (the merged
 * broadcasts and wavefronts of block timing bt; NULL: no timing model); what their warps wait on, their
 * latency and their retire step are the run's (ws_timing_wide_issue_run_loads). The same as
 * load_shared_access's, warp by warp. */
void ws_ld_shared_wide(ws_warp *w, int n, const ptx_instr *in, const ws_shared_plan *p, uint64_t *ic,
                       ws_block_timing *bt);

/* Whether the ld.global `in` (decode gave it the batch: WS_BATCH_GLOBAL) of the n consecutive warps from w on, in
 * their kernel frames, every lane active, takes one pass in each as ws_ld_global_known would (its address register's
 * shape a run or rows, forward by a sector at most or rows of one word, aligned, inside one allocation whose sectors
 * the timing model's batch takes); p[j] then says where warp j's lies, and it returns their sectors. 0: the load's
 * own paths decide. */
uint64_t ws_ld_global_plan(ws_warp *w, int n, const ptx_instr *in, ws_global_plan *p);
/* The loads that ws_ld_global_plan found (p[j] warp j's, on `sectors` sectors in all): their elements and their
 * counters into ic; their timing is the run's (ws_timing_wide_issue_run_loads). The same as ws_ld_global_known's,
 * warp by warp. */
void ws_ld_global_wide(ws_warp *w, int n, const ptx_instr *in, const ws_global_plan *p, uint64_t sectors,
                       uint64_t *ic);

/* Whether the st.global `in` (a register's address; run_store_at's, sim/lockstep.c) of the n consecutive warps from
 * w on, every lane active, takes one pass in each as store_global_run would (its address register's shape a run,
 * aligned, without wrapping, inside one writable allocation whose sectors the timing model's store path takes);
 * p[j] then says where warp j's lies (its sectors the run's), and it returns their sectors. 0: the store's own
 * paths decide. */
uint64_t ws_st_global_plan(ws_warp *w, int n, const ptx_instr *in, ws_global_plan *p);
/* The stores that ws_st_global_plan found, warp after warp: their elements written and their counters into ic;
 * their timing is the run's (ws_timing_wide_issue_run_loads). The same as store_global_run's. */
void ws_st_global_wide(ws_warp *w, int n, const ptx_instr *in, const ws_global_plan *p, uint64_t sectors,
                       uint64_t *ic);

/* Whether the st.shared `in` (a register's address; run_store_at's, sim/lockstep.c) of the n consecutive warps from
 * w on, every lane active, takes one pass in each as store_shared_run would (shared_run_at's); p[j] then says where
 * warp j's lies and at what cost, and it returns the most wavefronts of a warp (1 or more). 0: the store's own
 * paths decide. */
uint32_t ws_st_shared_plan(ws_warp *w, int n, const ptx_instr *in, ws_shared_plan *p);
/* The stores that ws_st_shared_plan found, warp after warp: their elements written (and held back from the warp's
 * other lanes under --sched its), their counters into ic, and with the timing model (its real build) their
 * access's part of it in block timing bt (NULL: none); their latency and retire step are the run's. The same as
 * store_shared_run's. */
void ws_st_shared_wide(ws_warp *w, int n, const ptx_instr *in, const ws_shared_plan *p, uint64_t *ic,
                       ws_block_timing *bt);

#endif
