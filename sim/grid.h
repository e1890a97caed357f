/* Running a kernel over its grid (sim/grid.c): the simulator's entry point. */
#ifndef WARPSIM_SIM_GRID_H
#define WARPSIM_SIM_GRID_H

#include "sim/state.h"

/* Run a kernel to completion over `global`. Returns 0, or 1 with the message
 * in launch->error. The launch keeps its counters until ws_launch_free.
 * With cfg->jobs > 1 the blocks run on that many threads; the counters, the
 * memory the blocks write and the error are those of a single-threaded run,
 * except where blocks race: atomics on the same global address from different
 * blocks happen in the order the threads reach them (integer additions still
 * sum the same; float additions may round differently, and atom's returned
 * old values, exch and cas depend on the order). */
int ws_launch_run(ws_launch *launch, const ws_launch_config *cfg, ws_global_memory *global);
void ws_launch_free(ws_launch *launch);

#endif
