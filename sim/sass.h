/* Branches the SASS of an instruction holds at ptxas -O0 that its PTX does not show (sim/sass.c). */
#ifndef WARPSIM_SIM_SASS_H
#define WARPSIM_SIM_SASS_H

#include "sim/state.h"

/* Count them for the lanes of mask. */
void ws_sass_branches(ws_exec *x, const ptx_instr *in, uint32_t mask);
/* Whether ws_sass_branches has anything to count for this instruction (decided once, at decode). */
int ws_sass_has_branches(const ptx_instr *in);
/* The stack check at the entry of a function with local memory: one uniform branch. */
void ws_count_stack_check(ws_launch *l, int32_t fn_index);

#endif
