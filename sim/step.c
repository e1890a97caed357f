/*
 * One warp-instruction of one warp (ws_step): the decoded handler for the
 * lanes whose guard holds, the instruction's counters, the timing model's
 * issue and retire, the register shapes, and the SIMT stack and call frames
 * settled when the path moved. The block loop is sim/machine.c's; a round's
 * warps that wait at one instruction take sim/lockstep.c's way.
 */
#include "sim/step.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/capture.h"
#include "sim/sass.h"
#include "sim/shape.h"
#include "sim/simt.h"
#include "sim/timing.h"
#include "sim/timing_issue.h"
#include "sim/warp.h"

static void trace_instr(ws_launch *l, ws_warp *w, const ptx_function *fn, const ptx_instr *in,
                        uint32_t active, uint32_t mask, int frame)
{
    char bar[WS_WARP_SIZE + 1];
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        uint32_t bit = 1u << lane;
        bar[lane] = !(w->lanes & bit) || (w->exited & bit) ? ' '
                  : (mask & bit) ? '#' : (active & bit) ? '-' : '.';
    }
    bar[WS_WARP_SIZE] = 0;
    fprintf(l->trace, "%5d  |%s| %2d  %*s", in->line, bar, __builtin_popcount(mask), frame * 2, "");
    ptx_print_instr(l->module, fn, in, l->trace);
    fputc('\n', l->trace);
}

/* WARPSIM_CHECK_SHAPES=1: every shape an instruction leaves known must be its row's. */
void ws_check_shapes(ws_exec *x, const ws_shape_op *op, const ptx_instr *in)
{
    for (unsigned i = 0; i < op->ndst && op->kind != WS_SHAPE_CLEAR; i++) {
        const ws_shape *s = &x->shape[op->dst[i]];
        ws_shape row;
        ws_shape_of_row(ws_row(x, op->dst[i]), &row);
        if (s->known && (!row.known || row.base != s->base || row.stride != s->stride || row.width != s->width ||
                         row.row_step != s->row_step)) {
            fprintf(stderr, "warpsim: internal error: line %d: the shape of register %d (%#" PRIx64 " + lane %% %u * %#"
                    PRIx64 " + lane / %u * %#" PRIx64 ") is not its row's\n", in->line, (int)op->dst[i], s->base,
                    (unsigned)s->width, s->stride, (unsigned)s->width, s->row_step);
            abort();
        }
    }
}

void ws_step(ws_launch *l, ws_block *b, ws_warp *w, int tracing)
{
    ws_simt_entry *top = &w->simt[w->simt_depth - 1];
    ws_frame *frame = &w->frames[w->frame_depth - 1];
    ws_exec *x = &w->exec;
    const ptx_function *fn = x->fn;
    int32_t pc = top->pc;
    uint32_t active = top->mask;
    if ((uint32_t)pc >= (uint32_t)fn->instr_count) {
        /* Falling off the end of a function: an implicit ret, not counted. */
        static const ptx_instr implicit_ret = {.opcode = OP_ret, .guard = -1};
        x->active = active;
        x->pc = fn->instr_count;
        x->next_pc = fn->instr_count + 1;
        x->counters = frame->counters[fn->instr_count];
        exec_ret(x, &implicit_ret, active);
        ws_simt_settle(w);
        ws_frames_settle(x);
        ws_warp_context(l, b, w);
        return;
    }
    const ptx_instr *in = &fn->instrs[pc];
    const ws_decoded *d = &frame->decoded[pc];
    int32_t depth = w->frame_depth;
    uint32_t mask = ws_step_mask(in, frame, active);
    uint64_t *ic = frame->counters[pc];
    ws_step_sums sums = {0};
    ws_step_count(&sums, active, mask);
    ws_step_add_sums(ic, &sums);
    l->steps++;
    b->steps++;
    ws_step_context(w, pc, ic, active);
    if (tracing) {
        if (tracing & 1)
            trace_instr(l, w, fn, in, active, mask, w->frame_depth - 1);
        if (tracing & 2)
            ws_capture_step_of(l, w, frame->fn_index, pc, active, mask);
    }
    if (d->sass_branches)
        ws_sass_branches(x, in, mask);
    if (l->timing)
        ws_timing_issue(x, d, frame, mask);
    if (!d->moves_stack) {
        if (mask) {
            d->run(x, in, mask);
            ws_shape_after(x, &d->shape, in, mask);
            if (l->check_shapes)
                ws_check_shapes(x, &d->shape, in);
        }
        if (l->timing)
            ws_timing_retire(w, &d->timing, frame);
        top->pc = pc + 1;
        /* The stack changes only when this path has reached its merge point. */
        if (top->pc != top->rpc)
            return;
    } else {
        d->run(x, in, mask);
        ws_shape_after(x, &d->shape, in, mask);
        if (l->timing)
            ws_timing_retire(w, &d->timing, frame);
    }
    ws_step_settle(l, b, w, depth);
}

/* ws_step_settle_stack's frames: one to pop, or a call or a return moved the top frame (out of line: the
 * commonest settling, a merge or a warp's end at the kernel's frame, then needs no registers saved). */
static __attribute__((noinline)) void settle_frames(ws_launch *l, ws_block *b, ws_warp *w, int32_t depth)
{
    ws_frames_settle(&w->exec);
    if (w->frame_depth != depth)
        ws_warp_context(l, b, w);
}

void ws_step_settle_stack(ws_launch *l, ws_block *b, ws_warp *w, int32_t depth)
{
    ws_simt_settle(w);
    if (w->frame_depth > 1 || depth != 1) {
        settle_frames(l, b, w, depth);
    } else if (w->simt_depth == 0) {   /* the warp is done (ws_frames_settle's end, without its call) */
        w->state = WS_WARP_DONE;
    }
}
