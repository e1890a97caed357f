/*
 * What sim/exec_mem.c, where the memory counters are kept, lends the other
 * memory instructions: texture fetches (sim/exec_tex.c) count their texel
 * reads as the global loads they are in warpsim.
 */
#ifndef WARPSIM_SIM_EXEC_MEM_H
#define WARPSIM_SIM_EXEC_MEM_H

#include "sim/exec.h"

/* Count one warp-level global load of `bytes` per lane of `mask` at addr[lane]
 * (requests, sectors, the --html capture and the timing model), as ld.global. */
void ws_count_global_load(ws_exec *x, const uint64_t addr[WS_WARP_SIZE], uint32_t mask, unsigned bytes);

/* A handler specialised to a memory instruction's space, types and operands, or NULL when exec_ld's
 * serves it (picked once per launch, as sim/exec_fast.h's). */
ws_exec_fn ws_memory_handler(const ptx_module *m, const ptx_function *fn, const ptx_instr *in);

#endif
