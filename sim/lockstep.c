/*
 * Warps in lockstep (sim/lockstep.h says why): ws_step_group runs one
 * instruction for a group of warps, as ws_step would for each in turn.
 * Three paths: instructions that leave the SIMT stack alone (ws_step's work
 * for each warp, the timing model's issue sums and the instruction counters
 * added once for the group), the uniform branch, and the other instructions
 * that move the stack (barriers, returns: ws_step's work warp by warp). A
 * round's two halves an instruction apart run as one group (lagged_rounds).
 */
#include "sim/lockstep.h"

#include <string.h>

#include "sim/exec_mem_runs.h"
#include "sim/exec_mem_wide.h"
#include "sim/step.h"
#include "sim/shape.h"
#include "sim/timing.h"
#include "sim/timing_issue.h"
#include "sim/timing_wide.h"

/* ---- The group's warps ------------------------------------------------------------------------ */

/* What the group shares: its instruction, where its counters are, and how far the step budget lets it go. */
typedef struct {
    ws_launch *l;
    ws_block *b;
    int32_t pc;
    const ptx_instr *in;
    const ws_decoded *d;
    ws_instr_counters *counters;
    uint64_t room;   /* steps left in the budget: the round stops at the warp that spends the last */
    const ws_group_member *m;   /* the members, in the order they run (b->group, or lagged_rounds' orders) */
} group;

/* Whether warp w waits at pc in g's function (a function's counters are its own): *top and *frame, its path's
 * top entry and its top frame, either way. */
static inline int waits_at(const group *g, ws_warp *w, int32_t pc, ws_simt_entry **top, ws_frame **frame)
{
    *top = &w->simt[w->simt_depth - 1];
    *frame = &w->frames[w->frame_depth - 1];
    return (*top)->pc == pc && (*frame)->counters == g->counters;
}

/* Whether the n members' rows lie side by side (sim/exec.h), so that a wide form (ws_decoded.wide) may run
 * them at once: consecutive warps, each in its kernel frame. */
static inline int rows_side_by_side(const ws_group_member *m, int n)
{
    for (int i = 0; i < n; i++)
        if (m[i].w != m->w + i || m[i].frame != m[i].w->frames)
            return 0;
    return 1;
}

/* The round's next warp from *k on, if it waits at the group's instruction (in the same function): those
 * the round passes by (done, or at a barrier) are passed by. *last: the last warp reached. NULL past the
 * block's warps, or at the first warp that waits elsewhere. */
static inline ws_warp *next_member(const group *g, int *k, int *last, ws_simt_entry **top, ws_frame **frame)
{
    for (; *k < g->b->warp_count; ++*k) {
        ws_warp *w = &g->b->warps[*k];
        if (w->state != WS_WARP_READY) {
            *last = *k;
            continue;
        }
        if (!waits_at(g, w, g->pc, top, frame))
            return NULL;
        *last = *k;
        return w;
    }
    return NULL;
}

/* ---- The paths ------------------------------------------------------------------------------- */

/* The round's warps from wi on that wait at g's instruction, at most g->room of them, into b->group. *last:
 * the last warp reached; *whole: no warp after them waits elsewhere (the scan reached the block's end);
 * *full: every one's lanes all active; *together: they are consecutive warps in their kernel frames, whose
 * rows lie side by side (sim/exec.h), so a wide form (ws_decoded.wide) may run them at once. Returns how many. */
static int gather(const group *g, int wi, int *last, int *whole, int *full, int *together)
{
    ws_group_member *m = g->b->group;
    uint32_t all = WS_FULL_MASK;
    int n = 0, k = wi;
    ws_simt_entry *top;
    ws_frame *frame;
    ws_warp *w;
    *last = wi;
    for (; (uint64_t)n < g->room && (w = next_member(g, &k, last, &top, &frame)); k++) {
        m[n++] = (ws_group_member){w, top, frame};
        all &= top->mask;
    }
    *whole = k == g->b->warp_count;
    *full = all == WS_FULL_MASK;
    *together = *full && rows_side_by_side(m, n);   /* looked at only when full: a wide form runs full warps alone */
    return n;
}

/* ws_shape_after for each of a wide group's n warps (m), every lane active: the 64-bit address steps, the
 * commonest, with the instruction's tests made once for the group. */
static void group_shapes(const ws_group_member *m, int n, const ws_shape_op *op, const ptx_instr *in)
{
    const ptx_operand *a = &in->operand[1], *b = &in->operand[2];
    int32_t dst = op->dst[0], ra = a->reg, rb = b->reg;
    if (op->kind == WS_SHAPE_UNIFORM) {   /* ws_shape_after's, its tests made once (a kernel parameter's load) */
        for (int k = 0; k < n; k++)
            ws_shape_set_uniform(&m[k].w->exec, dst);
        return;
    }
    if (op->kind != WS_SHAPE_ADD || op->width != 64 || a->kind != PTX_OPD_REG ||
        (b->kind != PTX_OPD_IMM && b->kind != PTX_OPD_REG)) {
        for (int k = 0; k < n; k++)
            ws_shape_after(&m[k].w->exec, op, in, WS_FULL_MASK);
        return;
    }
    const int two_regs = b->kind == PTX_OPD_REG;
    for (int k = 0; k < n; k++) {
        ws_exec *x = &m[k].w->exec;
        const ws_shape *ka = &x->shape[ra], *kb = &x->shape[rb];
        if (two_regs && ka->known && kb->known) {   /* the commonest (an address and a step): nothing looked for */
            /* two runs: ws_shape_add_rows's run, inline (1% of the naive matmul's host instructions) */
            if (ka->width == WS_SHAPE_LANES && kb->width == WS_SHAPE_LANES)
                x->shape[dst] = (ws_shape){ka->base + kb->base, ka->stride + kb->stride, 0, 1, WS_SHAPE_LANES, 0};
            else if (!ws_shape_add_rows(ka, kb, &x->shape[dst]))
                ws_shape_compute(x, op, in);
            continue;
        }
        const ws_shape *sa = ws_shape_source(x, ra, dst), *sb;
        ws_shape *d = &x->shape[dst];
        if (!sa->known) {
            ws_shape_forget(d);
        } else if (b->kind == PTX_OPD_IMM) {
            *d = *sa;
            d->base += (uint64_t)b->imm;
        } else if (!((sb = ws_shape_source(x, rb, dst))->known && ws_shape_add_rows(sa, sb, d))) {
            ws_shape_compute(x, op, in);
        }
    }
}

/* An instruction that leaves the SIMT stack alone, for the group's n warps (gathered): ws_step's work for
 * each. `scheduled`: the timing model's real-build issue step (not --build O0, not --no-timing), its sums
 * added once for the group; `pure` (ws_decoded.pure: registers alone, no fault, no memory): the steps
 * counted once (for the whole group where its lanes are all active and the instruction has no guard), no
 * fault looked for, no context but the registers; `batched`: the commonest global or shared load's batch
 * form (WS_BATCH_GLOBAL, WS_BATCH_SHARED: sim/exec_mem_runs.h), 0 none; `nsrc`: the instruction's operand count
 * for the issue step, where the variant knows it (-1: read from it), and `ndst` its destinations' for the
 * retire step;
 * `wide`: a pure instruction's wide form runs the group's lanes and shapes first, all at once (full and
 * together, as gather says, and no guard), then each warp's own work follows (wide_timed does that with
 * the real build's issue step); `words`: the batched load's warps whose address is one word for every lane
 * take ws_ld_*_word_next (every warp full, no guard, the real build's issue step). Returns 0 when each warp
 * ran it and still waits at the next one, with the
 * same stack; 1 when one reached its path's merge point (its stack settled) or a fault stopped the group. */
static inline __attribute__((always_inline)) int plain_group(const group *g, int n, int full, const int scheduled,
                                                             const int pure, const int batched, const int checkable,
                                                             const int nsrc, const int ndst, const int wide,
                                                             const int words, const int issued)
{
    ws_launch *l = g->l;
    ws_block *b = g->b;
    const ptx_instr *in = g->in;
    const ws_decoded *d = g->d;
    const ws_timing_op op_copy = d->timing, *op = &op_copy;   /* a copy no handler can change: read once */
    const ws_shape_op shape = d->shape;   /* likewise */
    const int32_t pc = g->pc;
    uint64_t *const ic = g->counters[pc];
    const ws_exec_fn run = d->run;
    const int timing = scheduled || l->timing != NULL, check = checkable && l->check_shapes;
    const int guard = in->guard;   /* ws_step_mask's, read once */
    const uint32_t negated = in->guard_negated ? ~0u : 0;
    const uint32_t latency_branch = l->arch->latency_branch;
    /* every warp's steps alike: counted once, for those that ran, where the instruction does not read them
     * (a pure one, a batched load; %clock does) */
    const int counted = full && guard < 0 && (pure || batched);
    int ran = 0;
    ws_block_timing *bt = &b->tm;
    ws_step_sums steps = {0};
    ws_issue_sums sums = {0};
    int moved = 0;
    const ws_group_member *m = g->m, *end = m + n;
    ws_ld_global_batch batch;
    ws_ld_shared_batch shared_batch = {NULL, 0, 0, {0}, {0}};
    const int kind = batched == WS_BATCH_GLOBAL ? WS_ISSUE_LOAD_GLOBAL   /* what the issue step may take as known */
                   : batched == WS_BATCH_SHARED ? WS_ISSUE_LOAD_SHARED : pure ? WS_ISSUE_ARITHMETIC : WS_ISSUE_ANY;
    if (batched == WS_BATCH_GLOBAL)
        ws_ld_global_batch_start(&batch, l, b);
    uint64_t word_loads = 0;
    if (issued) {   /* every warp's issue step first: nothing in another warp's access reads them */
        const int n4 = n & ~3;
        ws_timing_wide_issue_load(m->w, n4, bt, op, l->timing->subpartitions, &sums, batched == WS_BATCH_SHARED);
        for (const ws_group_member *r = m + n4; r < end; r++)
            ws_timing_issue_scheduled(r->w, bt, op, r->frame, WS_FULL_MASK, latency_branch, &sums, kind, nsrc);
    }
    if (wide) {   /* the warps' timing does not read the values, nor does the form read the warps' clocks */
        d->wide(&m->w->exec, in, n);
        if (shape.kind != WS_SHAPE_NONE)
            group_shapes(m, n, &shape, in);
    }
    for (; m < end; m++) {
        ws_warp *w = m->w;
        ws_simt_entry *top = m->top;
        ws_frame *frame = m->frame;
        uint32_t active = wide ? WS_FULL_MASK : top->mask;   /* wide: full warps, no guard */
        uint32_t mask = wide || guard < 0 ? active : active & (frame->pred[guard] ^ negated);
        ran++;
        if (!counted) {
            ws_step_count(&steps, active, mask);
            if (!pure)
                l->steps++, b->steps++;
        }
        ws_exec *x = pure ? &w->exec : ws_step_context(w, pc, ic, active);
        if (scheduled && !issued)
            ws_timing_issue_scheduled(w, bt, op, frame, mask, latency_branch, &sums, kind, nsrc);
        else if (timing && !issued)
            ws_timing_issue(x, d, frame, mask);
        if (mask) {
            if (batched == WS_BATCH_GLOBAL && words)
                ws_ld_global_word_next(x, in, &batch);
            else if (batched == WS_BATCH_GLOBAL)
                ws_ld_global_next(x, in, mask, &batch);
            else if (batched == WS_BATCH_SHARED && words)
                ws_ld_shared_word_next(x, in, &shared_batch, &word_loads);
            else if (batched == WS_BATCH_SHARED)
                ws_ld_shared_next(x, in, mask, &shared_batch);
            else if (!wide)
                run(x, in, mask);
            if (!wide)
                ws_shape_after(x, &shape, in, mask);
            if (check)
                ws_check_shapes(x, &shape, in);
        }
        if (timing)
            ws_timing_retire_of(w, op, frame, kind, ndst);
        top->pc = pc + 1;
        if (top->pc == top->rpc) {   /* this path's merge point: the stack changes */
            ws_step_settle(l, b, w, w->frame_depth);   /* the instruction moved no frame */
            moved = 1;
        }
        if (!pure && l->failed) {
            moved = 1;
            break;   /* the round stops at the fault */
        }
    }
    if (batched == WS_BATCH_GLOBAL)
        ws_ld_global_batch_end(&batch, ic);
    if (batched == WS_BATCH_SHARED)
        ws_ld_shared_words_end(ic, word_loads);
    if (counted)
        steps = (ws_step_sums){(uint64_t)ran, (uint64_t)ran * WS_WARP_SIZE, (uint64_t)ran * WS_WARP_SIZE};
    if (pure || counted)
        l->steps += steps.warps, b->steps += steps.warps;
    ws_step_add_sums(ic, &steps);
    if (scheduled)
        ws_timing_add_issue_sums(ic, bt, op, l->timing, &sums);
    return moved;
}

/* The variants: the real build's issue step, or no timing (--no-timing: `untimed`), for pure instructions, the
 * batched load and the others; the general one (--build O0, WARPSIM_CHECK_SHAPES=1) for every instruction. */
static int scheduled_pure_group(const group *g, int n, int full)
{
    switch (g->d->timing.nsrc) {   /* the operands' count known: the issue step's loop over them unrolls */
    case 1: return plain_group(g, n, full, 1, 1, 0, 0, 1, -1, 0, 0, 0);
    case 2: return plain_group(g, n, full, 1, 1, 0, 0, 2, -1, 0, 0, 0);
    case 3: return plain_group(g, n, full, 1, 1, 0, 0, 3, -1, 0, 0, 0);
    default: return plain_group(g, n, full, 1, 1, 0, 0, -1, -1, 0, 0, 0);
    }
}
/* A wide group (plain_group's `wide`) with the real build's issue step: the lanes and shapes at once, then
 * each warp's issue step and retire, as plain_group's scheduled pure variant does them (an arithmetic
 * instruction, every lane active, one destination), `vector`: four warps at a time where the CPU can
 * (sim/timing_wide.c), then each warp's next instruction. */
static inline __attribute__((always_inline)) int wide_timed(const group *g, int n, const int nsrc,
                                                             const int vector)
{
    ws_launch *l = g->l;
    ws_block *b = g->b;
    const ws_decoded *d = g->d;
    const ws_timing_op op_copy = d->timing, *op = &op_copy;   /* read once, as plain_group's */
    const int32_t pc = g->pc;
    uint64_t *const ic = g->counters[pc];
    ws_block_timing *bt = &b->tm;
    const ws_group_member *m = g->m;
    const uint32_t latency_branch = l->arch->latency_branch;
    ws_issue_sums sums = {0};
    int moved = 0;
    d->wide(&m->w->exec, g->in, n);
    if (d->shape.kind != WS_SHAPE_NONE)
        group_shapes(m, n, &d->shape, g->in);
    int k = 0;
    if (vector) {   /* the stacks move below: settling one warp's moves no other's clock */
        k = n & ~3;
        ws_timing_wide_issue(m->w, k, bt, op, l->timing->subpartitions, &sums);
    }
    for (; k < n; k++) {
        ws_timing_issue_scheduled(m[k].w, bt, op, m[k].frame, WS_FULL_MASK, latency_branch, &sums, WS_ISSUE_ARITHMETIC,
                                  nsrc);
        ws_timing_retire_of(m[k].w, op, m[k].frame, WS_ISSUE_ARITHMETIC, 1);
    }
    for (k = 0; k < n; k++) {
        ws_warp *w = m[k].w;
        ws_simt_entry *top = m[k].top;
        top->pc = pc + 1;
        if (top->pc == top->rpc) {   /* this path's merge point: the stack changes */
            ws_step_settle(l, b, w, w->frame_depth);
            moved = 1;
        }
    }
    l->steps += (uint64_t)n, b->steps += (uint64_t)n;
    ws_step_sums steps = {(uint64_t)n, (uint64_t)n * WS_WARP_SIZE, (uint64_t)n * WS_WARP_SIZE};
    ws_step_add_sums(ic, &steps);
    ws_timing_add_issue_sums(ic, bt, op, l->timing, &sums);
    return moved;
}
static int scheduled_wide_group(const group *g, int n)
{
    if (n >= 4 && 4 % g->l->timing->subpartitions == 0 && ws_timing_wide_available())
        return wide_timed(g, n, -1, 1);
    switch (g->d->timing.nsrc) {   /* as scheduled_pure_group's */
    case 0: return wide_timed(g, n, 0, 0);
    case 1: return wide_timed(g, n, 1, 0);
    case 2: return wide_timed(g, n, 2, 0);
    case 3: return wide_timed(g, n, 3, 0);
    default: return wide_timed(g, n, g->d->timing.nsrc, 0);
    }
}
static int scheduled_load_group(const group *g, int n, int full, int together)
{
    int one = g->d->timing.nsrc == 1 && g->d->timing.ndst == 1;   /* an address register, a destination */
    /* every warp full, no guard, the first warp's address one word for every lane: ws_ld_*_word_next */
    const ws_exec *first = &g->m->w->exec;
    int words = one && full && g->in->guard < 0;
    /* and the warps' issue steps four at a time where they are consecutive warps in their kernel frames */
    int issued = words && together && n >= 4 && 4 % g->l->timing->subpartitions == 0 && ws_timing_wide_available();
    if (g->d->batched_load == WS_BATCH_SHARED && words && ws_ld_shared_words_of(g->l, g->in, first))
        return issued ? plain_group(g, n, full, 1, 0, WS_BATCH_SHARED, 0, 1, 1, 0, 1, 1)
                      : plain_group(g, n, full, 1, 0, WS_BATCH_SHARED, 0, 1, 1, 0, 1, 0);
    if (g->d->batched_load == WS_BATCH_GLOBAL && words && ws_ld_global_words_of(g->l, g->in, first))
        return issued ? plain_group(g, n, full, 1, 0, WS_BATCH_GLOBAL, 0, 1, 1, 0, 1, 1)
                      : plain_group(g, n, full, 1, 0, WS_BATCH_GLOBAL, 0, 1, 1, 0, 1, 0);
    if (g->d->batched_load == WS_BATCH_SHARED)
        return issued ? plain_group(g, n, full, 1, 0, WS_BATCH_SHARED, 0, 1, 1, 0, 0, 1)
             : one    ? plain_group(g, n, full, 1, 0, WS_BATCH_SHARED, 0, 1, 1, 0, 0, 0)
                      : plain_group(g, n, full, 1, 0, WS_BATCH_SHARED, 0, -1, -1, 0, 0, 0);
    return issued ? plain_group(g, n, full, 1, 0, WS_BATCH_GLOBAL, 0, 1, 1, 0, 0, 1)
         : one    ? plain_group(g, n, full, 1, 0, WS_BATCH_GLOBAL, 0, 1, 1, 0, 0, 0)
                  : plain_group(g, n, full, 1, 0, WS_BATCH_GLOBAL, 0, -1, -1, 0, 0, 0);
}
static int scheduled_group(const group *g, int n, int full)
{
    return plain_group(g, n, full, 1, 0, 0, 0, -1, -1, 0, 0, 0);
}
static int untimed_pure_group(const group *g, int n, int full)
{
    return plain_group(g, n, full, 0, 1, 0, 0, -1, -1, 0, 0, 0);
}
static int untimed_wide_group(const group *g, int n) { return plain_group(g, n, 1, 0, 1, 0, 0, -1, 1, 1, 0, 0); }
static int untimed_load_group(const group *g, int n, int full)
{
    if (g->d->batched_load == WS_BATCH_SHARED)
        return plain_group(g, n, full, 0, 0, WS_BATCH_SHARED, 0, -1, -1, 0, 0, 0);
    return plain_group(g, n, full, 0, 0, WS_BATCH_GLOBAL, 0, -1, -1, 0, 0, 0);
}
static int general_group(const group *g, int n, int full) { return plain_group(g, n, full, 0, 0, 0, 1, -1, -1, 0, 0, 0); }

/* Whether instruction pc of the group's function leaves the SIMT stack alone (and SASS adds no branches). */
static int plain_at(const ptx_function *fn, const ws_decoded *decoded, int32_t pc)
{
    return (uint32_t)pc < (uint32_t)fn->instr_count && !decoded[pc].sass_branches && !decoded[pc].moves_stack;
}

/* Whether instruction pc of the group's function is a bra that branch_round may run (SASS adds no branches). */
static int branch_at(const ptx_function *fn, const ws_decoded *decoded, int32_t pc)
{
    return (uint32_t)pc < (uint32_t)fn->instr_count && !decoded[pc].sass_branches && fn->instrs[pc].opcode == OP_bra;
}

/* Whether in is a bar.sync that WS_ISSUE_BARRIER describes: an immediate barrier number alone, no guard, and a
 * timing op of pipe BARRIER with no memory, no registers, no fold and no branch. */
static inline int barrier_at(const ptx_instr *in, const ws_decoded *d)
{
    const ws_timing_op *op = &d->timing;
    return in->opcode == OP_bar_sync && in->operand_count == 1 && in->operand[0].kind == PTX_OPD_IMM &&
           in->guard < 0 && op->pipe == WS_PIPE_BARRIER && !op->mem && !op->nsrc && !op->ndst && !op->folds &&
           !op->branch;
}

/* Which variant runs the launch's groups: 1, the real build's issue step; 0, no timing; -1, the general group. */
static int variant_of(const ws_launch *l)
{
    return l->check_shapes ? -1 : !l->timing ? 0 : !l->timing->in_order ? 1 : -1;
}

/* g's instruction (one that leaves the stack alone) for its n members; `wide`: its wide form may run them
 * (wide_at). Returns plain_group's. */
static inline __attribute__((always_inline)) int plain_variant(const group *g, int n, int full, int wide, int kind,
                                                               int together)
{
    const ws_decoded *d = g->d;
    return kind < 0 ? general_group(g, n, full)
         : kind > 0 ? (wide ? scheduled_wide_group(g, n)
                       : d->pure ? scheduled_pure_group(g, n, full)
                       : d->batched_load ? scheduled_load_group(g, n, full, together) : scheduled_group(g, n, full))
         : wide ? untimed_wide_group(g, n)
         : d->pure ? untimed_pure_group(g, n, full)
         : d->batched_load ? untimed_load_group(g, n, full) : general_group(g, n, full);
}

/* Whether a wide form runs instruction `in` (decoded d) for members whose rows lie side by side, all full: a
 * kernel parameter's load (not pure) only where accesses take one pass. */
static inline int wide_instr(const ws_launch *l, const ptx_instr *in, const ws_decoded *d)
{
    return d->wide && in->guard < 0 && (d->pure || l->one_pass);
}

/* wide_instr for g's instruction, its members' rows side by side and all full (`rows_at_once`). */
static inline int wide_at(const group *g, int rows_at_once)
{
    return rows_at_once && wide_instr(g->l, g->in, g->d);
}

static int lagged_rounds(group *g, int wi, int lead, int kind);
static inline __attribute__((always_inline)) int moving_group(const group *g, int wi, const int branch,
                                                              const int barrier, const int listed, int count);

/* The branch at g's instruction for its n members (g->m) that were the whole round: 1 where each went one
 * way, and all to one instruction that leaves the stack alone, with their paths' entries as they were (their
 * next round is then these warps at that instruction: g moves there); 0 otherwise (the round ends here, every
 * member having run the branch). */
static int branch_round(group *g, int n, const ptx_function *fn, const ws_decoded *decoded)
{
    moving_group(g, 0, 1, 0, 1, n);
    if (g->l->failed)
        return 0;
    const ws_group_member *m = g->m;
    const int32_t to = m->top->pc;
    for (int k = 0; k < n; k++) {   /* a branch moves no frame and leaves a warp ready; one that split pushed */
        const ws_warp *w = m[k].w;
        if (&w->simt[w->simt_depth - 1] != m[k].top || m[k].top->pc != to)
            return 0;
    }
    if (!plain_at(fn, decoded, to))
        return 0;
    g->pc = to;
    g->in = &fn->instrs[to];
    g->d = &decoded[to];
    return 1;
}

/* A run's loads and stores (load_run finds them, wide_run_of plans and runs them): instruction i's, where it is
 * one, each warp's access (plan[i]) and timing (timing[i]); loads[i] points at timing[i] then, NULL for the
 * others. The data pass runs the run's instructions one after another, each for every warp in order, as the
 * groups would: a store's elements are in memory before any warp's later load, and nothing in the timing pass
 * reads them. */
typedef struct {
    union {
        ws_shared_plan shared[WS_WIDE_RUN_WARPS];
        ws_global_plan global[WS_WIDE_RUN_WARPS];
    } plan[WS_WIDE_RUN_MAX];
    ws_run_load timing[WS_WIDE_RUN_MAX];
    const ws_run_load *loads[WS_WIDE_RUN_MAX];
} run_loads;

/* Whether instruction `in` (decoded d) may join a run as a load: the commonest ld.shared or ld.global (decode's
 * batch), no guard, one address register, one destination, accesses that may take one pass (with the timing model,
 * its real build: plain_rounds' kind 1; or none, kind 0). */
static inline int run_load_at(const ws_launch *l, const ptx_instr *in, const ws_decoded *d)
{
    const ptx_operand *op = &in->operand[1];
    const int batched = d->batched_load;
    return batched && in->guard < 0 && (batched == WS_BATCH_SHARED ? l->one_pass : l->one_pass_global) &&
           op->reg >= 0 && op->symbol < 0 && d->timing.nsrc == 1 && d->timing.ndst == 1;
}

/* Whether instruction `in` (decoded d) may join a run as a store: store_global_run's or store_shared_run's
 * instruction (one element of 4 or 8 bytes, a register's or an immediate value, through an address register, 64-bit
 * for a global one), no guard, accesses that may take one pass, and the timing model's store (the LSU's or the
 * shared memory's, no destination). */
static inline int run_store_at(const ws_launch *l, const ptx_instr *in, const ws_decoded *d)
{
    const ptx_operand *op = &in->operand[0], *v = &in->operand[1];
    const unsigned size = ptx_types[in->type].size;
    const int global = in->space == PTX_SPACE_GLOBAL;
    return in->opcode == OP_st && (global || in->space == PTX_SPACE_SHARED) && in->guard < 0 && in->vec <= 1 &&
           (size == 4 || size == 8) && op->reg >= 0 && op->symbol < 0 && (op->reg_is_64 || !global) &&
           (v->kind == PTX_OPD_REG || v->kind == PTX_OPD_IMM) && (global ? l->one_pass_global : l->one_pass) &&
           d->timing.ndst == 0 && d->timing.pipe == (global ? WS_PIPE_LSU : WS_PIPE_SHARED);
}

/* A load or a store that may join a run. */
static inline int run_memory_at(const ws_launch *l, const ptx_instr *in, const ws_decoded *d)
{
    return d->batched_load ? run_load_at(l, in, d) : run_store_at(l, in, d);
}

/* With the timing model, each of n warps' latency for its shared access p[j] (ws_timing_shared's), `most` the
 * most wavefronts of one, into t. */
static inline void shared_latencies(const ws_launch *l, int n, const ws_shared_plan *p, uint32_t most,
                                    ws_run_load *t)
{
    if (l->timing && most == 1) {   /* no conflict (the commonest): one latency, stored in a loop that widens */
        const uint32_t latency = ws_shared_latency(l->arch, 1);
        for (int j = 0; j < n; j++)
            t->latency[j] = latency;
    } else if (l->timing) {
        for (int j = 0; j < n; j++)
            t->latency[j] = ws_shared_latency(l->arch, p[j].cost.wavefronts);
    }
}

/* The load or store `in` (decoded d, run_memory_at's) at place i of a run, for g's n members, their address
 * registers as the run's instructions before it left them: each one's access planned (ws_ld_shared_plan,
 * ws_ld_global_plan, ws_st_shared_plan, ws_st_global_plan), then done (its elements and counters; a shared
 * access's latency for the timing model, ws_timing_shared's). 0, having done nothing, where a member's access takes
 * another path (the run ends before it). */
static int run_memory_of(const group *g, int n, const ptx_instr *in, const ws_decoded *d, int i, run_loads *rl)
{
    const ws_launch *l = g->l;
    ws_warp *w = g->m->w;
    ws_run_load *t = &rl->timing[i];
    uint64_t *ic = g->counters[g->pc + i];
    const int store = !d->batched_load;   /* run_store_at's, else run_load_at's */
    if (in->space == PTX_SPACE_SHARED) {
        ws_shared_plan *p = rl->plan[i].shared;
        uint32_t most = store ? ws_st_shared_plan(w, n, in, p) : ws_ld_shared_plan(w, n, in, p);
        if (!most)
            return 0;
        shared_latencies(l, n, p, most, t);
        if (store)
            ws_st_shared_wide(w, n, in, p, ic, l->timing ? &g->b->tm : NULL);
        else
            ws_ld_shared_wide(w, n, in, p, ic, l->timing ? &g->b->tm : NULL);
        t->global = NULL;
    } else {
        ws_global_plan *p = rl->plan[i].global;
        uint64_t sectors = store ? ws_st_global_plan(w, n, in, p) : ws_ld_global_plan(w, n, in, p);
        if (!sectors)
            return 0;
        if (store)
            ws_st_global_wide(w, n, in, p, sectors, ic);
        else
            ws_ld_global_wide(w, n, in, p, sectors, ic);
        t->global = p;
    }
    t->store = store ? ptx_types[in->type].size : 0;
    rl->loads[i] = t;
    return 1;
}

/* How many instructions from g's on a wide run (wide_run) may take for g's n members, the whole round, their rows
 * side by side: wide forms all, within the step budget; 0 or 1 where the group is not for a run (with the timing
 * model, the real build's issue step four warps at a time). `kind`: plain_rounds' (0 or 1 here); *load: 1 where a
 * load or store that may join a run (run_memory_at) follows them, for WS_WIDE_RUN_WARPS members at most (load_run
 * decides whether the run takes it). No merge point ends a run: a full warp's path merges nowhere (sim/simt.c gives
 * a merge point only to the entries of part of a warp). */
static int wide_run_length(const group *g, int n, const ptx_function *fn, const ws_decoded *decoded, int kind,
                           int *load)
{
    const ws_launch *l = g->l;
    const int32_t pc = g->pc;
    *load = 0;
    const int wide = wide_instr(l, g->in, g->d);
    if ((!wide && !(kind >= 0 && n <= WS_WIDE_RUN_WARPS && run_memory_at(l, g->in, g->d))) ||
        (l->timing && ((n & 3) || n > WS_WIDE_RUN_WARPS || 4 % l->timing->subpartitions != 0 ||
                       !ws_timing_wide_available())))
        return 0;
    uint64_t room = (l->max_steps - l->steps) / (uint64_t)n;
    int k = wide;
    while (k && k < WS_WIDE_RUN_MAX && (uint64_t)k < room && plain_at(fn, decoded, pc + k) &&
           wide_instr(l, &fn->instrs[pc + k], &decoded[pc + k]))
        k++;
    /* decoded[] has an entry past the function's last instruction (none of its fields set) */
    *load = kind >= 0 && n <= WS_WIDE_RUN_WARPS && (uint64_t)k < room && k < WS_WIDE_RUN_MAX &&
            (k == 0 || plain_at(fn, decoded, pc + k)) && run_memory_at(l, &fn->instrs[pc + k], &decoded[pc + k]);
    return k;
}

static inline __attribute__((always_inline)) int wide_run_of(group *g, int n, int k, run_loads *rl,
                                                              const int with_loads);

/* A run from g's instruction on for its n members, where wide_run_length found its first k instructions wide
 * and a load or store after them: the run goes on over wide instructions, loads and stores (run_memory_at), as
 * long as every member's access takes one pass (run_memory_of, the address registers as the run's instructions
 * before it leave them). Returns how many instructions it ran (wide_run_of), 0 for none. Out of line, its plans on
 * its own stack (ws_step_group's frame, which inlines plain_rounds, stays small). */
static __attribute__((noinline)) int load_run(group *g, int n, int k, const ptx_function *fn,
                                              const ws_decoded *decoded)
{
    const ws_launch *l = g->l;
    const int32_t pc = g->pc;
    uint64_t room = (l->max_steps - l->steps) / (uint64_t)n;
    run_loads rl;
    for (; k < WS_WIDE_RUN_MAX && (uint64_t)k < room && (k == 0 || plain_at(fn, decoded, pc + k)); k++) {
        const ptx_instr *in = &fn->instrs[pc + k];
        const ws_decoded *d = &decoded[pc + k];
        if (!wide_instr(l, in, d) && !run_memory_at(l, in, d))
            break;
    }
    return wide_run_of(g, n, k, &rl, 1);
}

/* k wide instructions, loads and stores from g's on for its n members (wide_run_length's, and load_run's
 * with_loads): each one's lanes and shapes at once (an access planned first, run_memory_of: where it takes another
 * path, the run ends before it), then the warps' issue steps for all of them (ws_timing_wide_issue_run, or
 * ws_timing_wide_issue_run_loads with the accesses' timing; none under --no-timing), each warp moved past the run;
 * g is left at the run's last instruction. Returns how many ran. */
static inline __attribute__((always_inline)) int wide_run_of(group *g, int n, int k, run_loads *rl,
                                                              const int with_loads)
{
    ws_launch *l = g->l;
    ws_block *b = g->b;
    const ws_group_member *m = g->m;
    const ws_decoded *d = g->d;
    const ptx_instr *in = g->in;
    int any = 0;   /* a load or store among them */
    for (int i = 0; i < k; i++) {   /* nothing of the warps' timing reads the values, nor a load's access */
        if (with_loads && !d[i].wide) {   /* a load or a store (load_run's) */
            if (!run_memory_of(g, n, &in[i], &d[i], i, rl)) {
                k = i;
                break;
            }
            any = 1;
        } else {
            if (with_loads)
                rl->loads[i] = NULL;
            d[i].wide(&m->w->exec, &in[i], n);
        }
        if (d[i].shape.kind != WS_SHAPE_NONE)
            group_shapes(m, n, &d[i].shape, &in[i]);
    }
    if (k <= 0)
        return 0;
    ws_issue_sums sums[WS_WIDE_RUN_MAX];
    if (l->timing) {
        const ws_timing_op *ops[WS_WIDE_RUN_MAX];
        for (int i = 0; i < k; i++)
            ops[i] = &d[i].timing;
        memset(sums, 0, (size_t)k * sizeof *sums);
        if (with_loads && any) {
            ws_load_batch lb;
            ws_load_batch_start(&lb, l, &b->tm);
            ws_timing_wide_issue_run_loads(m->w, n, &b->tm, ops, rl->loads, k, l->timing->subpartitions, sums, &lb);
            if (lb.loads)
                ws_load_batch_flush(&lb);
        } else {
            ws_timing_wide_issue_run(m->w, n, &b->tm, ops, k, l->timing->subpartitions, sums);
        }
    }
    for (int j = 0; j < n; j++)
        m[j].top->pc = g->pc + k;   /* full warps: no merge point to settle (wide_run_length) */
    l->steps += (uint64_t)n * (uint64_t)k, b->steps += (uint64_t)n * (uint64_t)k;
    const ws_step_sums steps = {(uint64_t)n, (uint64_t)n * WS_WARP_SIZE, (uint64_t)n * WS_WARP_SIZE};
    for (int i = 0; i < k; i++) {
        uint64_t *ic = g->counters[g->pc + i];
        ws_step_add_sums(ic, &steps);
        if (l->timing)
            ws_timing_add_issue_sums(ic, &b->tm, &d[i].timing, l->timing, &sums[i]);
    }
    g->pc += k - 1;
    g->in += k - 1;
    g->d += k - 1;
    return k;
}
static __attribute__((noinline)) int wide_run(group *g, int n, int k) { return wide_run_of(g, n, k, NULL, 0); }

/* Instructions that leave the stack alone, from g's on: the round's group, then, while it was the whole
 * round (`whole_round`), the next rounds' as long as each is the same warps at the next such instruction,
 * or at a branch that sends them all one way to such an instruction (branch_round); where the round's other
 * warps wait at the next instruction, lagged_rounds. */
/* (Inline in ws_step_group, its one caller: where the compiler left it out of line the reduction ran 2% more.) */
static inline __attribute__((always_inline)) int plain_rounds(group *g, int wi, int whole_round)
{
    ws_launch *l = g->l;
    const ptx_function *fn = g->b->warps[wi].exec.fn;
    const ws_decoded *decoded = g->d - g->pc;
    const int kind = variant_of(l);
    int last, whole, full, together;
    int n = gather(g, wi, &last, &whole, &full, &together);
    /* the round's first group, another after it: perhaps the warps a barrier's release ran on */
    const int lead = whole_round && !whole && (uint64_t)n < g->room;
    whole_round = whole_round && whole;
    const int rows_at_once = full && together;   /* a wide form may run the group's lanes */
    for (;;) {
        int load = 0, moved = 0;
        int k = kind >= 0 && whole_round && rows_at_once ? wide_run_length(g, n, fn, decoded, kind, &load) : 0;
        int ran = 0;   /* a run's instructions, the group left at its last */
        if (load)
            ran = load_run(g, n, k, fn, decoded);
        else if (k > 1)
            ran = wide_run(g, n, k);
        if (!ran)
            moved = plain_variant(g, n, full, wide_at(g, rows_at_once), kind, rows_at_once);
        if (lead && !moved && l->steps < l->max_steps)
            return lagged_rounds(g, wi, last + 1, kind);
        if (moved || !whole_round || l->steps >= l->max_steps)
            return last;
        /* the next round: the same warps, each at the next instruction, nothing between */
        g->pc++;
        g->in++;
        g->d++;
        g->room = l->max_steps - l->steps;
        if (!plain_at(fn, decoded, g->pc)) {
            if (!branch_at(fn, decoded, g->pc) || (uint64_t)n > g->room || !branch_round(g, n, fn, decoded) ||
                l->steps >= l->max_steps)
                return last;
            g->room = l->max_steps - l->steps;
        }
        if ((uint64_t)n > g->room)
            n = (int)g->room;   /* the round stops at the warp that spends the last step */
    }
}

/* An instruction that moves the stack, for the round's warps that wait at it: ws_step's work for each in turn,
 * the instruction read once and its counters and issue sums added once for the group; each warp's stack and
 * frames settled before the next runs, as ws_step would, and the group stops at a fault. `branch`: a bra,
 * which the warps whose lanes all go one way take here, moving their path's pc as exec_bra and
 * ws_simt_branch would (a uniform branch pushes nothing), and a warp whose lanes split takes ws_step.
 * Otherwise any other (a barrier, a return, an exit, a call): its handler runs; `barrier`: a bar.sync that
 * barrier_at admits, whose issue and retire steps know it (WS_ISSUE_BARRIER). */
static inline __attribute__((always_inline)) int moving_group(const group *g, int wi, const int branch,
                                                              const int barrier, const int listed, int count)
{
    ws_launch *l = g->l;
    ws_block *b = g->b;
    const ptx_instr *in = g->in;
    const ws_decoded *d = g->d;
    const int scheduled = l->timing && !l->timing->in_order;
    const int32_t target = branch ? (int32_t)in->operand[0].imm : 0;
    const uint32_t latency_branch = l->arch->latency_branch;
    const int kind = branch ? WS_ISSUE_BRANCH : barrier ? WS_ISSUE_BARRIER : WS_ISSUE_ANY;
    ws_step_sums steps = {0};
    ws_issue_sums sums = {0};
    uint64_t used = 0;
    int last = wi;
    ws_simt_entry *top;
    ws_frame *frame;
    ws_warp *w;
    for (int k = wi; listed ? k < count : used < g->room && (w = next_member(g, &k, &last, &top, &frame)); k++) {
        if (listed)
            w = g->m[k].w, top = g->m[k].top, frame = g->m[k].frame;
        used++;
        uint32_t active = top->mask, mask = ws_step_mask(in, frame, active);
        if (branch && mask != 0 && mask != active) {   /* divergent */
            ws_step(l, b, w, 0);
            if (l->failed)
                break;
            continue;
        }
        int32_t depth = w->frame_depth;
        ws_step_count(&steps, active, mask);
        l->steps++, b->steps++;
        ws_exec *x = ws_step_context(w, g->pc, g->counters[g->pc], active);
        if (scheduled)
            ws_timing_issue_scheduled(w, &b->tm, &d->timing, frame, mask, latency_branch, &sums, kind,
                                      barrier ? 0 : -1);
        else if (l->timing)
            ws_timing_issue(x, d, frame, mask);
        if (branch)
            top->pc = mask ? target : g->pc + 1;
        else
            d->run(x, in, mask);
        ws_shape_after(x, &d->shape, in, mask);
        if (l->timing)
            ws_timing_retire_of(w, &d->timing, frame, kind, barrier ? 0 : -1);
        ws_step_settle(l, b, w, depth);
        if (l->failed)
            break;   /* the round stops at the fault */
    }
    uint64_t *ic = g->counters[g->pc];
    ws_step_add_sums(ic, &steps);
    if (branch) {
        ic[WS_CTR_branch_targets] += steps.warps;   /* ws_count_branch: every one uniform */
        ic[WS_CTR_branch_targets_uniform] += steps.warps;
    }
    if (scheduled)
        ws_timing_add_issue_sums(ic, &b->tm, &d->timing, l->timing, &sums);
    return last;
}

/* Inline in ws_step_group: as calls of their own they cost the reduction 1% (the compiler's choice, once the
 * wide groups made this file's code larger). */
static inline __attribute__((always_inline)) int branch_group(const group *g, int wi)
{
    return moving_group(g, wi, 1, 0, 0, 0);
}
static inline __attribute__((always_inline)) int stack_group(const group *g, int wi)
{
    return barrier_at(g->in, g->d) ? moving_group(g, wi, 0, 1, 0, 0) : moving_group(g, wi, 0, 0, 0, 0);
}

/* ---- Two halves an instruction apart ------------------------------------------------------------ */

/* A barrier released in the middle of a round: the warps after the one that released it run their next
 * instruction in that round, and from then on each round runs its first warps (A) at an instruction and
 * the others (B) at the next. Warp by warp that is A:k, B:k+1, A:k+1, B:k+2, A:k+2, ...: after A's k,
 * each instruction for B then A, one after the other, a group of both in that order (B's warps first).
 * Pure instructions and wide forms, which nothing of another warp sees, run them in index order (the wide
 * forms need it). */

/* The warps of [from, to) that the round steps (ready), into m, when each waits at pc in g's function
 * (all: their active lanes and'ed); how many, -1 where one waits elsewhere. */
static int members_at(const group *g, int32_t pc, int from, int to, ws_group_member *m, uint32_t *all)
{
    int n = 0;
    for (int k = from; k < to; k++) {
        ws_warp *w = &g->b->warps[k];
        ws_simt_entry *top;
        ws_frame *frame;
        if (w->state != WS_WARP_READY)
            continue;
        if (!waits_at(g, w, pc, &top, &frame))
            return -1;
        m[n++] = (ws_group_member){w, top, frame};
        *all &= top->mask;
    }
    return n;
}

/* A's group (the ready warps of [wi, lead)) ran g's instruction, and now waits at the next; the round's
 * warps from `lead` on (B), if all wait there, ran it in this round already. Runs B then A at that
 * instruction and the next ones, as long as they leave the stack alone or are a branch and the warps
 * still wait at one instruction together. Returns lead - 1, where the round goes on: B's next
 * instruction comes next. `kind`: variant_of's. */
static int lagged_rounds(group *g, int wi, int lead, int kind)
{
    ws_launch *l = g->l;
    ws_block *b = g->b;
    const ptx_function *fn = b->warps[wi].exec.fn;
    const ws_decoded *decoded = g->d - g->pc;
    ws_group_member *index_order = b->group, *run_order = b->group + b->warp_count;
    int32_t pc = g->pc + 1;
    int n = 0, full = 0, rows_at_once = 0, gathered = 0;
    while ((uint32_t)pc < (uint32_t)fn->instr_count && !decoded[pc].sass_branches) {
        const ws_decoded *d = &decoded[pc];
        const int branch = fn->instrs[pc].opcode == OP_bra;
        if (d->moves_stack && !branch)
            break;
        if (!gathered) {   /* at the start and after a branch: B's warps, then A's, all at pc */
            uint32_t all = WS_FULL_MASK;
            int nb = members_at(g, pc, lead, b->warp_count, run_order, &all), na;
            if (nb <= 0 || (na = members_at(g, pc, wi, lead, run_order + nb, &all)) <= 0)
                break;
            n = na + nb;
            memcpy(index_order, run_order + nb, (size_t)na * sizeof *index_order);
            memcpy(index_order + na, run_order, (size_t)nb * sizeof *index_order);
            full = all == WS_FULL_MASK;
            rows_at_once = full && rows_side_by_side(index_order, n);
            gathered = 1;
        }
        if ((uint64_t)n > l->max_steps - l->steps)
            break;   /* the budget runs out inside the group: the rounds find where */
        g->pc = pc, g->in = &fn->instrs[pc], g->d = d, g->room = l->max_steps - l->steps;
        if (branch) {
            g->m = run_order;
            moving_group(g, 0, 1, 0, 1, n);
            if (l->failed)
                break;
            pc = run_order->w->simt[run_order->w->simt_depth - 1].pc;   /* where B's first warp went */
            gathered = 0;
        } else {
            const int wide = wide_at(g, rows_at_once);
            g->m = kind >= 0 && (wide || d->pure) ? index_order : run_order;
            if (plain_variant(g, n, full, wide, kind, 0))   /* run_order: not side by side */
                break;
            pc++;
        }
        if (l->steps >= l->max_steps)
            break;
    }
    g->m = b->group;
    return lead - 1;
}

int ws_step_group(ws_launch *l, ws_block *b, int wi, int first_of_round)
{
    ws_warp *w = &b->warps[wi];
    const ws_frame *first = &w->frames[w->frame_depth - 1];
    const ptx_function *fn = w->exec.fn;
    int32_t pc = w->simt[w->simt_depth - 1].pc;
    if ((uint32_t)pc >= (uint32_t)fn->instr_count || first->decoded[pc].sass_branches) {
        ws_step(l, b, w, 0);   /* the implicit return; SASS's own branches */
        return wi;
    }
    const ws_decoded *d = &first->decoded[pc];
    group g = {l, b, pc, &fn->instrs[pc], d, first->counters, l->max_steps - l->steps, b->group};
    if (d->moves_stack)
        return g.in->opcode == OP_bra ? branch_group(&g, wi) : stack_group(&g, wi);
    return plain_rounds(&g, wi, first_of_round);
}
