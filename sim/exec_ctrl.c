/* Control flow: branches split and merge the warp through the SIMT stack
 * (sim/simt.c); calls push a frame; ret and exit retire lanes. */
#include <string.h>

#include "sim/builtins.h"
#include "sim/fault.h"
#include "sim/sass.h"
#include "sim/simt.h"
#include "sim/warp.h"

/* Branch counting, as ncu did on an H100 (validate/probes/branch.ptx, 2026-11-22):
 * every warp-level bra adds 1 to smsp__sass_branch_targets and 1 to either the
 * uniform or the divergent count; ret and exit add nothing. */
void exec_bra(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_warp *w = x->warp;
    uint64_t *ic = ws_icounters(x);
    int32_t target = (int32_t)in->operand[0].imm;
    int divergent = mask != 0 && mask != x->active;
    if (divergent && (in->flags & PTX_FLAG_UNI)) {
        ws_fault(x, in, -1, "bra.uni with a divergent condition: %d of %d active lanes jump (use bra)",
                 __builtin_popcount(mask), __builtin_popcount(x->active));
        return;
    }
    ws_count_branch(ic, mask, x->active);
    int32_t reconverge = x->launch->reconverge[w->frames[w->frame_depth - 1].fn_index][x->pc];
    if (ws_simt_branch(w, mask, target, x->pc + 1, reconverge) < 0)
        ws_fault(x, in, -1, "divergence nested deeper than %d paths", WS_MAX_SIMT_DEPTH);
}

void exec_call(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_warp *w = x->warp;
    ws_launch *l = x->launch;
    ws_advance(x);   /* lanes that do not call, and those that return, continue after the call */
    if (!mask)
        return;
    ws_frame *caller = &w->frames[w->frame_depth - 1];
    const ptx_call *call = &caller->fn->calls[in->call];
    const ptx_function *callee = &l->module->functions[call->function];
    if (!callee->defined) {   /* a builtin (sim/builtins.def): run natively, no frame */
        ws_builtin_call(x, in, mask, l->builtin[call->function], call);
        return;
    }
    if (w->frame_depth >= WS_MAX_CALL_DEPTH) {
        ws_fault(x, in, -1, "calls nested deeper than %d frames", WS_MAX_CALL_DEPTH);
        return;
    }
    uint64_t caller_size = (ws_frame_param_offset(caller->fn) + caller->fn->local_size + 15) / 16 * 16;
    uint64_t base = caller->local_base + caller_size;
    uint64_t need = ws_frame_param_offset(callee) + callee->local_size;
    if (base + need > l->local_stack_size) {
        ws_fault_of(x, in, -1, WS_FAULT_STACK, "call stack overflow calling '%s' (each thread has %llu bytes of local memory)",
                    callee->name, (unsigned long long)l->local_stack_size);
        return;
    }
    /* Arguments: the caller's .param variables, copied into the callee's parameters. */
    for (int a = 0; a < call->arg_count && a < callee->param_count; a++) {
        uint64_t src;
        ws_symbol_location(x, caller->fn->call_symbols[call->arg_first + a], &src);
        const ptx_symbol *arg = &l->module->symbols[caller->fn->call_symbols[call->arg_first + a]];
        const ptx_symbol *param = &l->module->symbols[callee->params[a]];
        uint64_t n = arg->size < param->size ? arg->size : param->size;
        WS_FOR_LANES(mask, lane) {
            uint8_t *thread = w->local + (uint64_t)lane * l->local_stack_size;
            memmove(thread + base + param->offset, thread + src, n);
        }
    }
    ws_frame *f = &w->frames[w->frame_depth];
    if (w->frame_depth == w->frames_ready) {   /* the first call to reach this depth: its frame set up */
        memset(f, 0, sizeof *f);
        w->frames_ready++;
    }
    f->fn = callee;
    f->fn_index = call->function;
    f->counters = l->instr_counters[call->function];
    f->decoded = l->decoded[call->function];
    f->call_pc = x->pc;
    f->return_pc = x->pc + 1;
    f->simt_base = w->simt_depth;
    f->returned = 0;
    f->local_base = base;
    if (ws_frame_registers(l, f, call->function) < 0) {
        ws_fault(x, in, -1, "out of host memory for the registers of '%s'", callee->name);
        return;
    }
    if (ws_simt_push(w, 0, -1, mask, w->frame_depth) < 0) {
        ws_fault(x, in, -1, "divergence nested deeper than %d paths", WS_MAX_SIMT_DEPTH);
        return;
    }
    w->frame_depth++;
    ws_count_stack_check(l, call->function);
}

void exec_ret(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_warp *w = x->warp;
    (void)in;
    ws_advance(x);
    if (w->frame_depth == 1) {          /* ret from the kernel ends the threads */
        ws_simt_remove_lanes(w, mask, 0);
        ws_threads_exited(x, mask);
        return;
    }
    ws_frame *f = &w->frames[w->frame_depth - 1];
    f->returned |= mask;
    ws_simt_remove_lanes(w, mask, w->frame_depth - 1);
}

void exec_exit(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    (void)in;
    ws_advance(x);
    ws_simt_remove_lanes(x->warp, mask, 0);
    ws_threads_exited(x, mask);
}

void exec_trap(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_advance(x);
    if (mask)
        ws_fault_of(x, in, __builtin_ctz(mask), WS_FAULT_TRAP, "trap instruction executed");
}
