/* `--html FILE.html` (sim/report_html.c): one self-contained page per run,
 * with the launches' summaries, time, annotated source and pictures. */
#ifndef WARPSIM_SIM_REPORT_HTML_H
#define WARPSIM_SIM_REPORT_HTML_H

#include <stddef.h>

#include "sim/session.h"

/* Whether path can be written (a file beside it is created and removed): 0, or -1 with
 * err naming the path, so that an unwritable --html fails before anything runs. */
int ws_report_html_check_path(const char *path, char *err, size_t errlen);

/* Write the page for the session's launches (run with --html, so they hold their
 * records) to path, atomically (a temporary file, then a rename): 0, or -1 with err. */
int ws_report_html(const ws_session *s, const char *path, char *err, size_t errlen);

#endif
