/*
 * The counters: one id per line of sim/counters.def (WS_CTR_<id>), and the
 * one table of their metric names, units and descriptions (sim/counters.c).
 */
#ifndef WARPSIM_SIM_COUNTERS_H
#define WARPSIM_SIM_COUNTERS_H

typedef enum {
#define C(id, metric, unit, description) WS_CTR_##id,
#include "sim/counters.def"
#undef C
    WS_CTR_COUNT
} ws_counter;

/* A metric warpsim reports: a counter (counter = its WS_CTR_*), or, in
 * sim/report.c, a ratio derived from counters (counter < 0). */
typedef struct {
    const char *metric;   /* "smsp__inst_executed.sum" */
    const char *unit;
    const char *description;
    int counter;
} ws_counter_info;

extern const ws_counter_info ws_counters[WS_CTR_COUNT];

#endif
