/* The specialised handlers (sim/exec_fast.c), picked once per instruction at decode. */
#ifndef WARPSIM_SIM_EXEC_FAST_H
#define WARPSIM_SIM_EXEC_FAST_H

#include "sim/exec.h"
#include "sim/shape_types.h"


/* A handler specialised to this instruction's opcode and types, or NULL
 * when the general one of ws_exec_table serves it. Resolved once per launch,
 * so the hot handlers test no type at run time. */
ws_exec_fn ws_specialised_handler(const ptx_function *fn, const ptx_instr *in, ws_handler_shape *shape);

/* The wide form (sim/exec.h: ws_wide_fn) of in's specialised handler, or NULL where it has none or in's
 * operands are not the registers and immediates it takes. */
ws_wide_fn ws_wide_handler(const ptx_function *fn, const ptx_instr *in);

#endif
