/* The text report's "Time" section (sim/report_time.c). */
#ifndef WARPSIM_SIM_REPORT_TIME_H
#define WARPSIM_SIM_REPORT_TIME_H

#include <stdio.h>

#include "sim/state.h"

/* One launch's "Time" section, when it ran with the timing model. */
void ws_report_time_text(const ws_launch *l, FILE *f, int color);

/* Under one source line `c` (its counters): its share of the kernel's warp stall cycles, the
 * reasons, and the L1TEX cycles its bank conflicts and extra sectors serialise. Nothing when
 * the launch ran without the timing model or the line neither stalls nor serialises. */
void ws_report_time_line(const ws_launch *l, const uint64_t *c, FILE *f, int color);

/* A line's warp stall cycles, all reasons. */
uint64_t ws_line_stall_cycles(const uint64_t *c);

#endif
