/*
 * The end of a timed launch (sim/timing_result.c): occupancy, the blocks
 * placed on the SMs, the launch's predicted time and its verdict.
 */
#ifndef WARPSIM_SIM_TIMING_RESULT_H
#define WARPSIM_SIM_TIMING_RESULT_H

#include "sim/timing.h"

/* The result of a launch that ran with timing on; NULL otherwise. */
const ws_timing_result *ws_timing_result_of(const ws_launch *l);
/* A one-line verdict: "memory-bound: DRAM at 87% of peak". */
void ws_timing_verdict(const ws_timing_result *r, char *out, size_t len);
const char *ws_bound_name(ws_bound b);
/* Registers per thread a real build would likely use: the most live at once, from the PTX. */
uint32_t ws_timing_estimate_registers(const ws_launch *l);
/* The same for a kernel of a module, before any launch (cudaFuncGetAttributes, the occupancy API). */
uint32_t ws_timing_estimate_kernel_registers(const ws_arch *a, const ptx_function *fn);
/* All blocks ran: place them on the SMs and compute l->timing->result. */
void ws_timing_finish(ws_launch *l);

#endif
