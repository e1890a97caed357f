/*
 * The timing model's issue step (the design is sim/timing.h's): before each
 * instruction's handler runs, the warp waits for its operands and takes its
 * issue slots. Inline in ws_step() (sim/step.c) and in sim/lockstep.c's groups, which add its sums
 * (ws_issue_sums) once for the group: it runs once per simulated
 * warp-instruction, and the call cost some 17 host instructions each.
 */
#ifndef WARPSIM_SIM_TIMING_ISSUE_H
#define WARPSIM_SIM_TIMING_ISSUE_H

#include "sim/timing_internal.h"

/* How many times ptxas unrolls a small loop at -O3 (the hand-written matmul's
 * 10-instruction loop: 15.4 us at JIT -O4, 45 us predicted without unrolling). */
#define WS_PTXAS_UNROLL 4
/* ... when its body is this short: nvcc's own unrolled bodies (20 and more
 * instructions) are left as they are */
#define WS_PTXAS_UNROLL_BODY 16

static const uint8_t ws_stall_counter[3] = {
    [WS_WAIT_FIXED] = WS_CTR_stall_wait, [WS_WAIT_SHORT] = WS_CTR_stall_short_scoreboard,
    [WS_WAIT_LONG] = WS_CTR_stall_long_scoreboard,
};

/* The operands' wait, common to both builds: the cycle the instruction may issue, and what
 * it waited on (*wait). `kind`: what the caller knows of op (WS_ISSUE_*, sim/timing.h), so that the tests it
 * settles fold away; `nsrc_known`: op->nsrc where the caller knows it as a constant (the loop over the
 * operands then unrolls), -1 otherwise. */
static inline __attribute__((always_inline)) uint64_t ws_timing_ready_of(ws_warp *w, const ws_timing_op *op,
                                                                         const ws_frame *f, unsigned *wait,
                                                                         const int kind, const int nsrc_known)
{
    const int load = ws_issue_is_load(kind), other = kind == WS_ISSUE_ANY;
    uint64_t ready = w->tm.cycle;
    int shared = load ? kind == WS_ISSUE_LOAD_SHARED : op->pipe == WS_PIPE_SHARED;
    if ((load || (other && (op->mem & WS_MEM_READS))) && w->tm.store_issued[shared] > ready)
        ready = w->tm.store_issued[shared];   /* a load may read what an earlier store wrote: it waits */
    uint64_t kinds = 0;
    const int nsrc = nsrc_known >= 0 ? nsrc_known : op->nsrc;
    for (int i = 0; i < nsrc; i++) {
        uint64_t r = f->ready[(size_t)op->src[i] << f->ready_shift];
        kinds |= r;
        if (r >> 2 > ready) {
            ready = r >> 2;
            *wait = (unsigned)(r & 3);
        }
    }
    /* a shared (short: 1) or global (long: 2) result used: its load is no longer unused */
    _Static_assert(WS_WAIT_SHORT == 1 && WS_WAIT_LONG == 2, "wait kinds are loads_unused's bits");
    w->tm.loads_unused &= (uint8_t)~(kinds & 3);
    w->tm.issue = ready;
    if (other && (op->mem & WS_MEM_WRITES))
        w->tm.store_issued[shared] = ready + 1;
    return ready;
}

static inline uint64_t ws_timing_ready(ws_warp *w, const ws_timing_op *op, const ws_frame *f, unsigned *wait)
{
    return ws_timing_ready_of(w, op, f, wait, WS_ISSUE_ANY, -1);
}

/* What a warp's issue step adds to its instruction's counters and its block's pipes: kept apart so that
 * sim/lockstep.c adds a group's once. */
typedef struct {
    uint64_t slots, stalls[3], branch_resolving;
} ws_issue_sums;

static inline void ws_timing_add_issue_sums(uint64_t *ic, ws_block_timing *bt, const ws_timing_op *op,
                                            const ws_launch_timing *t, const ws_issue_sums *s)
{
    ic[WS_CTR_issue_slots] += s->slots;
    for (int k = 0; k < 3; k++)
        ic[ws_stall_counter[k]] += s->stalls[k];
    ic[WS_CTR_stall_branch_resolving] += s->branch_resolving;
    bt->pipe[op->pipe] += s->slots * t->pipe_cycles[op->pipe];
}

/* What both builds do once the warp's clock has moved: the result's latency, the block's
 * issue slots, a branch's resolution (its latency the arch's, `latency_branch`). `kind`: WS_ISSUE_*. */
static inline __attribute__((always_inline)) void ws_timing_issued(ws_warp *w, ws_block_timing *bt,
                                                                  const ws_timing_op *op, uint32_t mask,
                                                                  unsigned slots, uint32_t latency_branch,
                                                                  ws_issue_sums *s, const int kind)
{
    w->tm.latency = mask ? op->latency : 0;
    w->tm.wait = op->wait;
    bt->issued[w->tm.subpartition] += slots;
    s->slots += slots;
    if (kind == WS_ISSUE_BRANCH ||
        (kind == WS_ISSUE_ANY && op->pipe == WS_PIPE_BRANCH && (op->branch & WS_BRANCH_BRA))) {
        w->tm.cycle += latency_branch;
        s->branch_resolving += latency_branch;
    }
}

/* The real build's issue step for warp w at an instruction whose operands' ready cycles are f's: what it
 * adds to counters goes to *s (ws_timing_add_issue_sums). `kind` and `nsrc_known` as in ws_timing_ready_of. */
static inline __attribute__((always_inline)) void ws_timing_issue_scheduled(ws_warp *w, ws_block_timing *bt,
                                                                            const ws_timing_op *op, const ws_frame *f,
                                                                            uint32_t mask, uint32_t latency_branch,
                                                                            ws_issue_sums *s, const int kind,
                                                                            const int nsrc_known)
{
    uint64_t now = w->tm.cycle;
    unsigned wait = WS_WAIT_FIXED;
    uint64_t ready = ws_timing_ready_of(w, op, f, &wait, kind, nsrc_known);
    unsigned slots = op->sass ? op->sass : 1;
    if (!ws_issue_is_load(kind) && op->folds && w->tm.back_edges % WS_PTXAS_UNROLL != 0)
        slots = 0;   /* an unrolled copy: its address and counter arithmetic and its branch are gone */
    /* ptxas schedules each basic block: an instruction waiting for its operands
     * does not hold back the independent ones after it (loads go early), but
     * the block's last instruction issues before the next block's first. */
    w->tm.cycle = now + slots;
    /* the stall is what waiting adds to the block's critical path */
    uint64_t block_end = w->tm.block_end, before = block_end > now + slots ? block_end : now + slots;
    if (ready + slots > before)
        s->stalls[wait] += ready + slots - before;
    if (ready + slots > block_end)
        w->tm.block_end = block_end = ready + slots;
    /* ptxas unrolls a loop UNROLL times: only every UNROLL-th pass of its back edge
     * orders the iterations (the others' loads overlap, as in the unrolled body) */
    int back_edge = op->branch & WS_BRANCH_BACK_EDGE;
    if ((kind == WS_ISSUE_BRANCH || kind == WS_ISSUE_BARRIER || (kind == WS_ISSUE_ANY && op->pipe >= WS_PIPE_BRANCH)) &&
        !(back_edge && ++w->tm.back_edges % WS_PTXAS_UNROLL != 0) &&
        block_end > w->tm.cycle)
        w->tm.cycle = block_end;
    ws_timing_issued(w, bt, op, mask, slots, latency_branch, s, kind);
}

static inline void ws_timing_issue(ws_exec *x, const ws_decoded *d, ws_frame *f, uint32_t mask)
{
    const ws_launch_timing *t = x->launch->timing;
    if (t->in_order) {
        ws_timing_issue_o0(x, d, f, mask);
        return;
    }
    ws_issue_sums s = {0};
    ws_timing_issue_scheduled(x->warp, &x->block->tm, &d->timing, f, mask, x->launch->arch->latency_branch, &s,
                              WS_ISSUE_ANY, -1);
    ws_timing_add_issue_sums(x->counters, &x->block->tm, &d->timing, t, &s);
}

#endif
