/* The real build's issue and retire steps for four warps of a wide group at once (sim/timing_wide.c). */
#ifndef WARPSIM_SIM_TIMING_WIDE_H
#define WARPSIM_SIM_TIMING_WIDE_H

#include "sim/timing_issue.h"

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
#else
#define WS_TIMING_WIDE_AVX2 0
static inline int ws_timing_wide_available(void) { return 0; }
#endif

#endif
