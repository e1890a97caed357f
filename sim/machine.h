/* The block loop (sim/machine.c). */
#ifndef WARPSIM_SIM_MACHINE_H
#define WARPSIM_SIM_MACHINE_H

#include "sim/state.h"

/* How a block ended. */
enum { WS_BLOCK_DONE, WS_BLOCK_FAULT, WS_BLOCK_DEADLOCK, WS_BLOCK_OUT_OF_STEPS };

/* Run block b (set up by ws_block_reset) until every warp is done, a fault,
 * a deadlock, or the launch's step budget; returns how it ended (WS_BLOCK_*). */
int ws_run_block(ws_launch *l, ws_block *b);
/* The launch's error when the step budget ran out. */
void ws_budget_error(ws_launch *l);

#endif
