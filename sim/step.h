/* One warp-instruction of one warp (sim/step.c). */
#ifndef WARPSIM_SIM_STEP_H
#define WARPSIM_SIM_STEP_H

#include "sim/state.h"

/* Run warp w's next instruction. tracing: bit 0, --trace-warp prints it; bit 1, --html records it. */
void ws_step(ws_launch *l, ws_block *b, ws_warp *w, int tracing);
/* WARPSIM_CHECK_SHAPES=1: every shape the instruction left known must be its row's; an internal error
 * otherwise (it aborts). */
void ws_check_shapes(ws_exec *x, const ws_shape_op *op, const ptx_instr *in);

#endif
