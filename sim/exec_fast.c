/*
 * Specialised handlers: the opcode and type combinations that dominate real
 * kernels, each with its type resolved at decode time (ws_specialised_handler)
 * instead of tested on every execution.
 */
#include "sim/exec_alu.h"

ws_exec_fn ws_specialised_handler(const ptx_instr *in)
{
    (void)in;
    return NULL;
}
