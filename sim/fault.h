/*
 * How a launch stops: the first fault or launch error sets ws_launch.failed
 * and the message; later ones are dropped (the first cause is the one to read).
 */
#ifndef WARPSIM_SIM_FAULT_H
#define WARPSIM_SIM_FAULT_H

#include "sim/state.h"

/* Stop the launch with an error naming the instruction (or, with in NULL, the
 * function), block, thread and lane (lane < 0: the warp). Handlers return right
 * after calling it. */
void ws_fault(ws_exec *x, const ptx_instr *in, int lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same, saying what kind of fault it is (the CUDA runtime maps the kind to its error code). */
void ws_fault_of(ws_exec *x, const ptx_instr *in, int lane, ws_fault_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Stop the launch with a message of its own (set-up, budget, host memory). */
void ws_launch_error(ws_launch *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
