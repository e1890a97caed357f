/* Functions a kernel calls without a body that warpsim runs natively: the
 * math library and device printf (sim/builtins.def lists them). */
#ifndef WARPSIM_SIM_BUILTINS_H
#define WARPSIM_SIM_BUILTINS_H

#include <stddef.h>

#include "sim/state.h"

/* The builtin named `name`, or -1. */
int ws_builtin_find(const char *name);
size_t ws_builtin_count(void);
const char *ws_builtin_name(int builtin);
/* Whether it is one of the device runtime's (sim/device_runtime.def): a kernel calling it launches grids. */
int ws_builtin_is_device_runtime(int builtin);
/* Whether `fn`'s declared parameters and return match the builtin's; if not,
 * err says how. */
int ws_builtin_matches(const ptx_module *m, const ptx_function *fn, int builtin, char *err, size_t errlen);
/* Run the builtin for the lanes of mask: the arguments are the call's
 * call-scope .params in each thread's frame, the result goes to its return one. */
void ws_builtin_call(ws_exec *x, const ptx_instr *in, uint32_t mask, int builtin, const ptx_call *call);

#endif
