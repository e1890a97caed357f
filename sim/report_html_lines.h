/* The HTML report's per-line parts (sim/report_html_lines.c): the source with
 * each line's cost in its margin, and the memory instructions worth a picture. */
#ifndef WARPSIM_SIM_REPORT_HTML_LINES_H
#define WARPSIM_SIM_REPORT_HTML_LINES_H

#include <stdio.h>

#include "sim/state.h"

/* The memory instructions --html draws, worst first. */
#define WS_HTML_WORST 3
typedef struct {
    int fn, pc;
} ws_html_instr;

/* Up to WS_HTML_WORST instructions of the launch with a record in the space (shared: bank
 * conflicts first; global: sectors beyond 4 per request first), into out; their number. */
int ws_html_worst(const ws_launch *l, int shared, ws_html_instr *out);
/* The instruction of launch b that plays the part `in` plays in launch a: the same opcode,
 * direction and space, the same ordinal among those; else b's worst. 0 when b has none. */
int ws_html_counterpart(const ws_launch *a, ws_html_instr in, const ws_launch *b, ws_html_instr *out);

/* One instruction's pictures: its line, the typical request drawn, its requests by cost.
 * id: the anchor to give it, or NULL. */
void ws_html_instr_pictures(FILE *f, const ws_launch *l, ws_html_instr in, const char *id);

/* The source (the CUDA file where the PTX has .loc lines, else the PTX) with each line's cost
 * in its margin; a line opens to its counters and links to its pictures. li: the launch's index. */
void ws_html_source(FILE *f, const ws_launch *l, int li);

#endif
