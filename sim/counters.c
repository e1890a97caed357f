/* The counters' metric names, units and descriptions, from sim/counters.def. */
#include "sim/counters.h"

const ws_counter_info ws_counters[WS_CTR_COUNT] = {
#define C(id, metric, unit, description) [WS_CTR_##id] = {metric, unit, description, WS_CTR_##id},
#include "sim/counters.def"
#undef C
};
