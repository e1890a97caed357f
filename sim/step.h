/* One warp-instruction of one warp (sim/step.c). */
#ifndef WARPSIM_SIM_STEP_H
#define WARPSIM_SIM_STEP_H

#include "sim/state.h"

/* Run warp w's next instruction. tracing: bit 0, --trace-warp prints it; bit 1, --html records it. */
void ws_step(ws_launch *l, ws_block *b, ws_warp *w, int tracing);
/* The SIMT stack and the call frames settled once the warp's path moved: its merge point reached, the warp
 * done, a frame to pop, and the handlers' context when a call or a return moved the top frame (`depth`: the
 * warp's frame depth before the instruction ran). */
void ws_step_settle_stack(ws_launch *l, ws_block *b, ws_warp *w, int32_t depth);
static inline void ws_step_settle(ws_launch *l, ws_block *b, ws_warp *w, int32_t depth)
{
    if (w->simt_depth > 0 && w->frame_depth == 1 && depth == 1) {
        const ws_simt_entry *top = &w->simt[w->simt_depth - 1];
        if (top->mask != 0 && top->pc != top->rpc)
            return;   /* the commonest: nothing to settle */
    }
    ws_step_settle_stack(l, b, w, depth);
}

/* The lanes of the active mask whose guard holds. */
static inline uint32_t ws_step_mask(const ptx_instr *in, const ws_frame *frame, uint32_t active)
{
    if (in->guard < 0)
        return active;
    uint32_t g = frame->pred[in->guard];
    return active & (in->guard_negated ? ~g : g);
}

/* The three counters every step adds to, summed over one warp or a group of them (sim/lockstep.c). */
typedef struct {
    uint64_t warps, threads, pred_on;
} ws_step_sums;

static inline void ws_step_count(ws_step_sums *s, uint32_t active, uint32_t mask)
{
    unsigned active_lanes = active == WS_FULL_MASK ? WS_WARP_SIZE : ws_popcount(active);
    s->warps++;
    s->threads += active_lanes;
    s->pred_on += mask == active ? active_lanes : ws_popcount(mask);
}

static inline void ws_step_add_sums(uint64_t *ic, const ws_step_sums *s)
{
    ic[WS_CTR_inst_executed] += s->warps;
    ic[WS_CTR_thread_inst_executed] += s->threads;
    ic[WS_CTR_thread_inst_pred_on] += s->pred_on;
}

/* The handlers' view of warp w running instruction pc, whose counters are ic. */
static inline ws_exec *ws_step_context(ws_warp *w, int32_t pc, uint64_t *ic, uint32_t active)
{
    ws_exec *x = &w->exec;
    x->active = active;
    x->pc = pc;
    x->next_pc = pc + 1;
    x->counters = ic;
    return x;
}
/* WARPSIM_CHECK_SHAPES=1: every shape the instruction left known must be its row's; an internal error
 * otherwise (it aborts). */
void ws_check_shapes(ws_exec *x, const ws_shape_op *op, const ptx_instr *in);

#endif
