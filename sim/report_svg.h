/* The pictures of the HTML report, as inline SVG (sim/report_svg.c): which
 * bank or sector each lane of a request touches, a line's requests by cost,
 * a warp's active lanes instruction by instruction, bars. Every picture has
 * text labels and a <title>, and uses the page's CSS classes for colour
 * (sim/report_html.c: an Okabe-Ito palette, light and dark). */
#ifndef WARPSIM_SIM_REPORT_SVG_H
#define WARPSIM_SIM_REPORT_SVG_H

#include <stdio.h>

#include "sim/capture.h"

/* HTML-escaped text. */
void ws_html_text(FILE *f, const char *s);

/* Lanes (rows) to banks (columns) of one shared request; a cell is coloured by the pass
 * (wavefront) of its bank that serves it, lanes on one word share it. The request's
 * wavefront count, the model's, is written on it. */
void ws_svg_banks(FILE *f, const ws_arch *a, const ws_capture_request *q);

/* Lanes (rows) to the 32-byte sectors (columns, grouped by 128-byte line) of one global request. */
void ws_svg_sectors(FILE *f, const ws_arch *a, const ws_capture_request *q);

/* A line's requests by cost: one bar per cost that occurred. unit: "wavefronts", "sectors". */
void ws_svg_histogram(FILE *f, const ws_capture_line *r, const char *unit);

/* The traced warp: one row per instruction it ran (at most max_rows), 32 lane columns;
 * lanes that run filled, lanes whose guard is false hatched, lanes waiting on another
 * path outlined; splits and reconvergence marked at the right. */
void ws_svg_divergence(FILE *f, const ws_launch *l, const struct ws_capture *c, int max_rows);

/* Horizontal bars with their labels and values (value_text[i] written at the bar's end). */
void ws_svg_bars(FILE *f, const char *title, int n, const char *const *labels, const double *values,
                 const char *const *value_text);

#endif
