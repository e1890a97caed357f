/* The text report's "Time" section (sim/report_time.c). */
#ifndef WARPSIM_SIM_REPORT_TIME_H
#define WARPSIM_SIM_REPORT_TIME_H

#include <stdio.h>

#include "sim/state.h"

/* One launch's "Time" section, when it ran with the timing model. */
void ws_report_time_text(const ws_launch *l, FILE *f, int color);

#endif
