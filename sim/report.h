/* What `warpsim run` prints: text sections like Nsight Compute's, the
 * `ncu --csv --page raw` layout, JSON, and the annotated source. */
#ifndef WARPSIM_SIM_REPORT_H
#define WARPSIM_SIM_REPORT_H

#include <stdio.h>

#include "sim/session.h"

/* A metric warpsim can report: a counter, or a ratio derived from counters. */
typedef ws_counter_info ws_metric;

size_t ws_metric_count(void);
const ws_metric *ws_metric_at(size_t i);
/* The metric's value for a launch (derived ratios included). */
double ws_metric_value(const ws_launch *l, const ws_metric *m);

/* Check a --metrics list ("a,b,c"); -1 with err naming the unknown one. NULL selects all. */
int ws_metrics_select(const char *list, int *selected, char *err, size_t errlen);

void ws_report_text(const ws_session *s, FILE *f, int color);
void ws_report_csv(const ws_session *s, const int *selected, FILE *f);
/* The version of --json's layout (README.md, "The --json output"): raised when a field changes meaning or type. */
#define WS_JSON_SCHEMA_VERSION 1
void ws_report_json(const ws_session *s, const int *selected, FILE *f);
void ws_report_source(const ws_session *s, FILE *f, int color);

#endif
