/*
 * Shared by the tests that run hand-written PTX through a whole session
 * (test_sim.c, test_timing.c): parse the PTX and a .launch text, open the
 * session, run it, and keep everything for inspection. Header-only: each
 * test program includes it once.
 */
#ifndef WARPSIM_TESTS_SIM_RUN_H
#define WARPSIM_TESTS_SIM_RUN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/session.h"

#define HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

typedef struct {
    ws_run_options options;
    ws_session session;
    int status;           /* ws_session_run's: 0, or the launch failed (r->err says why) */
    char err[4096];
} sim_run;

/* Parse `ptx` and run the launch text over it. */
static inline sim_run *run(const char *ptx, const char *launch)
{
    sim_run *r = calloc(1, sizeof *r);
    char text[8192];
    snprintf(text, sizeof text, "ptx /dev/null\n%s", launch);
    ws_launch_status st = ws_run_options_parse_launch_text(text, strlen(text), "test.launch", &r->options, r->err,
                                                            sizeof r->err);
    ck_assert_msg(st == WS_LAUNCH_OK, "launch text: %s", r->err);
    ptx_diag diag = {0};
    ptx_module *m = ptx_parse(ptx, strlen(ptx), "test.ptx", &diag);
    if (!m) {
        ptx_diag_print(&diag, stderr);
        ck_abort_msg("the test's PTX does not parse: %s", diag.count ? diag.lines[0] : "?");
    }
    ptx_diag_free(&diag);
    r->status = ws_session_open_module(&r->session, &r->options, m, r->err, sizeof r->err);
    ck_assert_msg(r->status == 0, "session: %s", r->err);
    r->status = ws_session_run(&r->session, r->err, sizeof r->err);
    return r;
}

static inline void done(sim_run *r)
{
    ws_session_close(&r->session);
    ws_run_options_free(&r->options);
    free(r);
}

#endif
