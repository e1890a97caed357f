/* The real build's issue and retire steps for four warps of a wide group at once (sim/timing_wide.c). */
#ifndef WARPSIM_SIM_TIMING_WIDE_H
#define WARPSIM_SIM_TIMING_WIDE_H

#include "sim/timing.h"
#include "sim/timing_issue.h"
#include "sim/timing_load.h"

/* The most instructions, and warps, ws_timing_wide_issue_run takes at once (the warps of 1024 threads: every
 * preset's largest block; an arch file may allow more, and sim/lockstep.c takes no run then). */
#define WS_WIDE_RUN_MAX 16
#define WS_WIDE_RUN_WARPS 32

/* A load in a run (sim/lockstep.c, every lane active, its elements read before the run's timing): a shared load's
 * result latency for each warp, the access's (ws_timing_shared's); or a global load's accesses, warp by warp, whose
 * L1 and L2 the run's timing looks up at each warp's issue cycle (NULL: a shared load); or a store's (its elements
 * written before the run's timing): a shared store's latency for each warp, or a global store's accesses, whose L2
 * the run's timing marks at each warp's issue cycle. */
typedef struct {
    uint32_t latency[WS_WIDE_RUN_WARPS];
    const ws_global_plan *global;
    unsigned store;   /* a store of elements of this many bytes (global, or shared where `global` is NULL); 0: a load */
} ws_run_load;

#if defined(__x86_64__) && defined(__GNUC__)
#define WS_TIMING_WIDE_AVX2 1
/* Whether ws_timing_wide_issue may run on this CPU. */
static inline int ws_timing_wide_available(void) { return __builtin_cpu_supports("avx2"); }
/* ws_timing_issue_scheduled then ws_timing_retire_of (arithmetic, every lane active, one destination) for
 * the n & ~3 warps from w on, consecutive warps of block timing bt in their kernel frames, at op (nsrc
 * operands). Their sums go to *s, their issue slots to bt's sub-partitions: 4 must be a multiple of
 * `subpartitions`, each warp's being its index modulo their number. */
void ws_timing_wide_issue(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op, uint32_t subpartitions,
                          ws_issue_sums *s);
/* ws_timing_wide_issue for k instructions in a row (ops[0 .. k-1], each wide: arithmetic, one destination; no
 * branch among them), the same n warps (a multiple of 4, WS_WIDE_RUN_WARPS at most), their clocks read and
 * stored once for the run: instruction i's sums go to s[i]. k is WS_WIDE_RUN_MAX at most. */
void ws_timing_wide_issue_run(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *const *ops, int k,
                              uint32_t subpartitions, ws_issue_sums *s);
/* ws_timing_wide_issue_run for a run with loads and stores: loads[i] where instruction i is one (a load:
 * one address register, one destination), whose issue, wait and retire steps are taken in the run's order
 * (ws_timing_issue_scheduled as WS_ISSUE_LOAD_SHARED or WS_ISSUE_LOAD_GLOBAL, ws_load_wait, a global load's access
 * in the batch lb at its issue cycle, warp after warp, then ws_timing_retire_of at each warp's latency; a store's
 * issue step as WS_ISSUE_ANY, a global one's ws_timing_store_span in lb's block and launch, its retire step), NULL
 * for the others. */
void ws_timing_wide_issue_run_loads(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *const *ops,
                                    const ws_run_load *const *loads, int k, uint32_t subpartitions,
                                    ws_issue_sums *s, ws_load_batch *lb);
/* ws_timing_issue_scheduled alone for a load (WS_ISSUE_LOAD_GLOBAL, or WS_ISSUE_LOAD_SHARED where `shared`), every
 * lane active, for the n & ~3 warps from w on, as ws_timing_wide_issue's: each warp's issue cycle, latency and
 * wait are left for its access and its retire step (ws_timing_retire_of). */
void ws_timing_wide_issue_load(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op,
                               uint32_t subpartitions, ws_issue_sums *s, int shared);
#else
#define WS_TIMING_WIDE_AVX2 0
static inline int ws_timing_wide_available(void) { return 0; }
/* Where there is no AVX2 the callers take their warp-by-warp paths (ws_timing_wide_available); these, the
 * same steps warp by warp, keep those callers compiling. */
static inline void ws_timing_wide_issue(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op,
                                        uint32_t subpartitions, ws_issue_sums *s)
{
    (void)subpartitions;
    for (int k = 0; k < (n & ~3); k++) {
        ws_timing_issue_scheduled(&w[k], bt, op, w[k].frames, WS_FULL_MASK, 0, s, WS_ISSUE_ARITHMETIC, -1);
        ws_timing_retire_of(&w[k], op, w[k].frames, WS_ISSUE_ARITHMETIC, 1);
    }
}
static inline void ws_timing_wide_issue_run(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *const *ops,
                                            int k, uint32_t subpartitions, ws_issue_sums *s)
{
    for (int i = 0; i < k; i++)
        ws_timing_wide_issue(w, n, bt, ops[i], subpartitions, &s[i]);
}
static inline void ws_timing_wide_issue_run_loads(ws_warp *w, int n, ws_block_timing *bt,
                                                  const ws_timing_op *const *ops, const ws_run_load *const *loads,
                                                  int k, uint32_t subpartitions, ws_issue_sums *s, ws_load_batch *lb)
{
    for (int i = 0; i < k; i++) {
        if (!loads[i]) {
            ws_timing_wide_issue(w, n, bt, ops[i], subpartitions, &s[i]);
            continue;
        }
        const ws_global_plan *global = loads[i]->global;
        const unsigned store = loads[i]->store;
        const int kind = store ? WS_ISSUE_ANY : global ? WS_ISSUE_LOAD_GLOBAL : WS_ISSUE_LOAD_SHARED;
        ws_load_last last = {NULL, NULL, 0};
        for (int j = 0; j < (n & ~3); j++) {
            ws_timing_issue_scheduled(&w[j], bt, ops[i], w[j].frames, WS_FULL_MASK, 0, &s[i], kind, -1);
            if (store) {
                w[j].tm.latency = global ? ws_timing_store_span(lb->launch, bt, global[j].al, global[j].a0,
                                                                global[j].stride, store)
                                         : loads[i]->latency[j];
                w[j].tm.wait = global ? WS_WAIT_LONG : WS_WAIT_SHORT;
                ws_timing_retire_of(&w[j], ops[i], w[j].frames, kind, 0);
                continue;
            }
            if (global) {
                ws_load_begin(lb, &w[j]);
                w[j].tm.latency = ws_load_planned(lb, &w[j], &global[j], w[j].tm.issue, &last);
                w[j].tm.wait = WS_WAIT_LONG;
            } else {
                bt->waits[ws_load_wait(&w[j], 1)]++;
                w[j].tm.latency = loads[i]->latency[j];
                w[j].tm.wait = WS_WAIT_SHORT;
            }
            ws_timing_retire_of(&w[j], ops[i], w[j].frames, kind, 1);
        }
    }
}
static inline void ws_timing_wide_issue_load(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op,
                                             uint32_t subpartitions, ws_issue_sums *s, int shared)
{
    (void)subpartitions;
    for (int k = 0; k < (n & ~3); k++)
        ws_timing_issue_scheduled(&w[k], bt, op, w[k].frames, WS_FULL_MASK, 0, s,
                                  shared ? WS_ISSUE_LOAD_SHARED : WS_ISSUE_LOAD_GLOBAL, -1);
}
#endif

#endif
