/*
 * The block loop: the warps of a block take turns one warp-instruction at a
 * time, in index order, so every run interleaves the same way (sim/step.c
 * runs one). A round's warps that wait at one instruction run it together
 * (sim/lockstep.c), in the same order. The grid of blocks is sim/grid.c's;
 * set-up is sim/setup.c's.
 */
#include "sim/machine.h"

#include <inttypes.h>
#include <stdio.h>

#include "sim/capture.h"
#include "sim/check.h"
#include "sim/fault.h"
#include "sim/lockstep.h"
#include "sim/step.h"
#include "sim/timing.h"
#include "sim/timing_blocks.h"
#include "sim/warp.h"

static void report_deadlock(ws_launch *l, ws_block *b)
{
    char *p = l->error;
    size_t left = sizeof l->error;
    int n = snprintf(p, left, "%s: error: kernel '%s': deadlock in block (%u,%u,%u): the barrier can never complete;",
                     l->module->path, ws_launch_name(l), b->ctaid[0], b->ctaid[1], b->ctaid[2]);
    for (int wi = 0; wi < b->warp_count && n > 0 && (size_t)n < left; wi++) {
        ws_warp *w = &b->warps[wi];
        if (w->state != WS_WARP_AT_BARRIER)
            continue;
        const ptx_function *fn = w->frames[w->frame_depth - 1].fn;
        p += n; left -= (size_t)n;
        n = snprintf(p, left, " warp %d waits at line %d (barrier %d, %d of its threads arrived%s);", wi,
                     fn->instrs[w->barrier_pc].line, w->barrier_id, __builtin_popcount(w->barrier_mask),
                     w->simt_depth > 1 ? ", the others are on a divergent path" : "");
    }
    l->failed = 1;
    l->fault_kind = WS_FAULT_DEADLOCK;
}

void ws_budget_error(ws_launch *l)
{
    ws_launch_error(l, "%s: error: kernel '%s' stopped after %" PRIu64 " warp-instructions (the step budget): "
                    "an endless loop? raise it with --max-steps N",
                    l->module->path, ws_launch_name(l), l->max_steps);
    l->fault_kind = WS_FAULT_BUDGET;
}

int ws_run_block(ws_launch *l, ws_block *b)
{
    int tracing_block = l->trace && (int64_t)b->linear_index == l->trace_block;
    int capturing_block = l->capture && (int64_t)b->linear_index == l->capture->trace_block;
    if (tracing_block && l->trace_warp < b->warp_count)
        fprintf(l->trace, "trace of block %d warp %d (kernel %s): line |lanes: # runs, - guard false, . waits on another path| count  instruction\n",
                l->trace_block, l->trace_warp, ws_launch_name(l));
    for (;;) {
        int live = 0, progressed = 0;
        for (int wi = 0; wi < b->warp_count; wi++) {
            ws_warp *w = &b->warps[wi];
            if (w->state == WS_WARP_DONE)
                continue;
            live = 1;
            if (w->state == WS_WARP_AT_BARRIER)
                continue;
            int first_of_round = !progressed;
            progressed = 1;
            if (!tracing_block && !capturing_block && !l->warp_by_warp) {
                wi = ws_step_group(l, b, wi, first_of_round);   /* the warps up to wi ran this round's instruction */
            } else {
                ws_step(l, b, w, (tracing_block && wi == l->trace_warp) |
                                 (capturing_block && wi == l->capture->trace_warp) << 1);
            }
            if (l->failed)
                return WS_BLOCK_FAULT;
            if (l->steps >= l->max_steps) {
                ws_budget_error(l);
                return WS_BLOCK_OUT_OF_STEPS;
            }
        }
        if (!live) {
            if (l->timing)
                ws_timing_block_done(l, b);
            return WS_BLOCK_DONE;
        }
        if (!progressed) {
            report_deadlock(l, b);
            if (l->synccheck) {   /* compute-sanitizer's verdict, and its "unspecified launch failure" */
                ws_sync_divergent_block(l, b);
                l->fault_kind = WS_FAULT_OTHER;
            }
            return WS_BLOCK_DEADLOCK;
        }
    }
}
