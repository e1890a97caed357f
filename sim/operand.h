/* Source operands that are not plain registers or immediates (sim/operand.c). */
#ifndef WARPSIM_SIM_OPERAND_H
#define WARPSIM_SIM_OPERAND_H

#include <stdint.h>

#include "isa/ptx.h"

typedef struct ws_exec ws_exec;

/* An operand that is not a register whose value is the same in every lane (a symbol's address, an
 * immediate, a special register but %tid, %laneid and the lane masks): 1 and *value; 0 otherwise. */
int ws_operand_uniform(ws_exec *x, const ptx_operand *op, uint64_t *value);
/* A %tid.x, .y or .z operand's 32 lane values; NULL for any other operand. */
const uint32_t *ws_operand_tid(ws_exec *x, const ptx_operand *op);
/* The 32 lane values of a special register, symbol address or vector element. */
void ws_read_operand_slow(ws_exec *x, const ptx_operand *op, uint64_t out[32]);

/* The address a symbol names: its space, and the address within that space
 * (.param and .local variables: in the current frame of the thread's local memory). */
ptx_space ws_symbol_location(ws_exec *x, int32_t symbol, uint64_t *addr);

/* Whether symbol s of module m is a kernel's parameter, in the launch's parameter buffer at s->offset
 * (a .func's parameters live in each thread's frame). */
static inline int ws_symbol_is_kernel_param(const ptx_module *m, const ptx_symbol *s)
{
    return s->space == PTX_SPACE_PARAM && s->kind == PTX_SYM_PARAM && s->function >= 0 &&
           m->functions[s->function].is_entry;
}

#endif
