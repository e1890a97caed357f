/* A launch's set-up, before its first block (sim/setup.c). */
#ifndef WARPSIM_SIM_SETUP_H
#define WARPSIM_SIM_SETUP_H

#include "sim/state.h"

/* The general handler of each opcode (sim/exec_*.c). */
extern const ws_exec_fn ws_exec_table[OP_COUNT];

/* Fill the launch from cfg: decode the functions the kernel reaches, lay out
 * shared and local memory, place the module's variables. 0, or -1 with the
 * launch's error set. */
int ws_launch_setup(ws_launch *l, const ws_launch_config *cfg);

/* Module-scope .global and .const variables get allocations (with their
 * initial bytes) once per module; their addresses go in symbol_address. */
int ws_module_globals(const ptx_module *m, ws_global_memory *g, uint64_t *symbol_address, char *err, size_t errlen);

#endif
