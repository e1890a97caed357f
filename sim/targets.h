/* Which GPUs have an instruction: the table of sim/targets.def, checked once
 * per launch when its functions are decoded (sim/setup.c). */
#ifndef WARPSIM_SIM_TARGETS_H
#define WARPSIM_SIM_TARGETS_H

#include <stddef.h>

#include "isa/ptx.h"
#include "sim/arch.h"

/* 0 if arch has `in`; otherwise -1 and msg says what it needs, e.g.
 * "shfl.sync needs sm_30 or later (Kepler); the g80 preset is sm_10". */
int ws_target_check(const ws_arch *arch, const ptx_instr *in, char *msg, size_t msglen);

#endif
