/* What ptxas -O0 makes of PTX that the PTX does not show (sim/sass.c): the branches in an
 * instruction's SASS (counted), and how many SASS instructions it becomes (timed). */
#ifndef WARPSIM_SIM_SASS_H
#define WARPSIM_SIM_SASS_H

#include "sim/state.h"

/* Count them for the lanes of mask. */
void ws_sass_branches(ws_exec *x, const ptx_instr *in, uint32_t mask);
/* Whether ws_sass_branches has anything to count for this instruction (decided once, at decode). */
int ws_sass_has_branches(const ptx_instr *in);
/* The stack check at the entry of a function with local memory: one uniform branch. */
void ws_count_stack_check(ws_launch *l, int32_t fn_index);

/* The classes of sim/sass_o0.def: which one an instruction is in, their names and SASS counts. */
typedef enum {
#define O(name, sass) WS_O0_##name,
#include "sim/sass_o0.def"
#undef O
    WS_O0_CLASS_COUNT
} ws_o0_class;
ws_o0_class ws_o0_class_of(const ptx_instr *in);
extern const char *const ws_o0_class_names[WS_O0_CLASS_COUNT];
extern const uint8_t ws_o0_sass[WS_O0_CLASS_COUNT];

#endif
