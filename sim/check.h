/* compute-sanitizer's checks, as far as warpsim has them (sim/check.c):
 * initcheck, reads of global or shared memory no one wrote. */
#ifndef WARPSIM_SIM_CHECK_H
#define WARPSIM_SIM_CHECK_H

#include "sim/state.h"

/* A lane's access of `size` bytes at `offset` of a tracked region (bits: one
 * per byte, set once written): a store marks them, a read of any unwritten
 * byte is reported (space and address name it). */
void ws_check_written(ws_exec *x, const ptx_instr *in, int lane, uint8_t *bits, uint64_t offset, unsigned size,
                      int is_store, ptx_space space, uint64_t address);

/* What the checks print at the end: "========= ERROR SUMMARY: N errors". */
void ws_check_summary(FILE *f, uint64_t errors);

#endif
