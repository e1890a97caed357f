/*
 * sim/exec_mem_runs.c's: ld and st in one pass where an access is such (ws_load, ws_store), the handlers
 * decode picks for the commonest loads, and the batches a group of warps takes at one load (sim/lockstep.c).
 */
#ifndef WARPSIM_SIM_EXEC_MEM_RUNS_H
#define WARPSIM_SIM_EXEC_MEM_RUNS_H

#include "sim/exec_mem_lanes.h"
#include "sim/timing_load.h"

/* ld and ldu (exec_ld's work): a one-pass path where the access is such, else the general one (ws_load_lanes).
 * st (exec_st's) the same (ws_store_lanes). */
void ws_load(ws_exec *x, const ptx_instr *in, uint32_t mask);
void ws_store(ws_exec *x, const ptx_instr *in, uint32_t mask);

/* A handler specialised to a memory instruction's space, types and operands, or NULL when exec_ld's
 * serves it (picked once per launch, as sim/exec_fast.h's). */
ws_exec_fn ws_memory_handler(const ptx_module *m, const ptx_function *fn, const ptx_instr *in);
/* The wide form (sim/exec.h: ws_wide_fn) of ws_memory_handler's `run` for in: an ld.param of a kernel
 * parameter inside the buffer, aligned, alike in every lane and warp; NULL for the others. No fault, but not
 * pure: sim/lockstep.c takes it only where the launch's accesses take one pass (as the handler's does). */
ws_wide_fn ws_memory_wide_handler(const ptx_module *m, const ptx_instr *in, ws_exec_fn run);

/* The commonest ld.global (decode gives it exec_ld_global_run) for a group of warps, one after another
 * (sim/lockstep.c): the timing model's batch (sim/timing_load.h), and the counters of each warp's one-pass
 * run summed; ws_ld_global_batch_end adds them to the instruction's counters and the block's sums. The
 * same results as the handler's, warp by warp. */
/* The batch's last warp's one-pass run or rows, when its sectors lie on one line of the L1, in order (or no
 * timing): the next warp whose address register has the same shape (the warps of a 2D block reading one
 * row) reads the same elements and hits the same sectors, so it takes them from here (row NULL: none). */
typedef struct {
    const uint64_t *row;         /* its destination row: the elements */
    ws_shape reg;                /* its address register's shape: the same shape gives the same addresses */
    uint64_t sectors;
    const uint64_t *filled;      /* timing: the line's fill cycles (ws_load_repeat) */
    uint64_t from, to;           /* and its sectors */
    uint64_t latest;             /* their latest fill (ws_load_latest_fill), 0 until a warp repeats the load */
} ws_ld_global_last;
typedef struct {
    ws_load_batch timing;
    uint64_t runs, sectors;
    ws_ld_global_last last;
} ws_ld_global_batch;
/* Which batch form decode's handler has: ws_ld_global_batched's, ws_ld_shared_batched's, or none (0). */
enum { WS_BATCH_GLOBAL = 1, WS_BATCH_SHARED = 2 };
int ws_load_batch_kind(ws_exec_fn run);
void ws_ld_global_batch_start(ws_ld_global_batch *b, const ws_launch *l, ws_block *block);
void ws_ld_global_batched(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_global_batch *b);

/* A load of the same shape as the batch's last warp's (ws_ld_global_batch.last): its counters, hits and
 * elements. */
static inline void ws_ld_global_again(ws_exec *x, const ptx_instr *in, ws_ld_global_batch *b)
{
    b->runs++;
    b->sectors += b->last.sectors;
    if (b->last.filled) {
        if (!b->last.latest)   /* the first warp to repeat it (a latest fill at cycle 0 is worked out again) */
            b->last.latest = ws_load_latest_fill(b->last.filled, b->last.from, b->last.to);
        ws_load_repeat(&b->timing, x->warp, b->last.latest, (unsigned)(b->last.to - b->last.from + 1));
    }
    ws_copy_row(ws_row(x, in->operand[0].reg), b->last.row);
}

/* ws_ld_global_batched's work for a full warp whose address register's shape is known and is not the batch's
 * last load's. */
void ws_ld_global_known(ws_exec *x, const ptx_instr *in, ws_ld_global_batch *b);

/* ws_ld_global_batched for a group's next warp (sim/lockstep.c), its tests inline: the commonest case, the
 * last warp's load again (the warps of a block reading one row), takes no call. A shape not yet known
 * (ws_shape_get looks for it) takes ws_ld_global_batched. */
static inline void ws_ld_global_next(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_global_batch *b)
{
    const ws_shape *s = &x->shape[in->operand[1].reg];
    if (mask != WS_FULL_MASK || !s->known)
        ws_ld_global_batched(x, in, mask, b);
    else if (b->last.row && ws_shape_same(s, &b->last.reg))
        ws_ld_global_again(x, in, b);
    else
        ws_ld_global_known(x, in, b);
}
void ws_ld_global_batch_end(const ws_ld_global_batch *b, uint64_t *counters);

/* The commonest ld.shared (decode gives it exec_ld_shared_run) for a group of warps, one after another: the
 * handler's work for each, but a warp whose address register has the same run as the last warp's (the
 * warps of a block reading one row of a tile) takes its elements, counters and bank cost from it (row NULL:
 * none yet). Nothing writes shared memory between a group's warps at one load. */
typedef struct {
    const uint64_t *row;         /* the last warp's destination row */
    uint64_t a0, stride;         /* its addresses */
    ws_shared_cost cost;         /* and their cost */
    ws_shape reg;                /* its address register's shape: the same shape gives the same addresses */
} ws_ld_shared_batch;
void ws_ld_shared_batched(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_shared_batch *b);
/* ws_ld_shared_batched's work for a full warp, in one pass, whose address register's shape is known and is
 * not the last warp's. */
void ws_ld_shared_known(ws_exec *x, const ptx_instr *in, ws_ld_shared_batch *b);

/* The last warp's shared load again (ws_ld_shared_batch: the same shape, so the same addresses): its
 * counters, timing and elements. */
static inline void ws_ld_shared_again(ws_exec *x, const ptx_instr *in, const ws_ld_shared_batch *b)
{
    ws_count_shared(x, &b->cost, 0);
    if (x->launch->timing)
        ws_timing_shared(x, b->a0, b->stride == 0, ptx_types[in->type].size, 0, b->cost.wavefronts);
    ws_copy_row(ws_row(x, in->operand[0].reg), b->row);
}

/* ws_ld_shared_batched for a group's next warp (sim/lockstep.c), as ws_ld_global_next. Its address may be a
 * variable's alone (no register: decode gives such loads the batch too), which ws_ld_shared_batched takes. */
static inline void ws_ld_shared_next(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_shared_batch *b)
{
    int32_t reg = in->operand[1].reg;
    if (mask != WS_FULL_MASK || reg < 0 || !x->launch->one_pass || x->warp->its.count || !x->shape[reg].known)
        ws_ld_shared_batched(x, in, mask, b);
    else if (b->row && ws_shape_same(&x->shape[reg], &b->reg))
        ws_ld_shared_again(x, in, b);
    else
        ws_ld_shared_known(x, in, b);
}

/* Whether a group's ld.global may take ws_ld_global_word_next (the timing model on, every warp full): a 4-byte
 * element, one-pass accesses, and the group's first warp x's address one word (where it is not, the others'
 * are seldom, and their tests would cost the other loads more than the path saves). Tested once a group. */
static inline int ws_ld_global_words_of(const ws_launch *l, const ptx_instr *in, const ws_exec *x)
{
    return ptx_types[in->type].size == 4 && l->one_pass_global && !l->check_shapes && l->timing &&
           ws_shape_is_one(&x->shape[in->operand[1].reg]);
}

/* ws_ld_global_next for a full warp of a group that ws_ld_global_words_of allows: one aligned word for every
 * lane (the naive matmul's A[row * n + k]), in an allocation whose sectors the L1 model's batch takes, is
 * read here as ws_ld_global_known would, without its call and the tests the group made once. The batch
 * forgets its last load (the next warp of that shape takes the same elements and hits from its own). */
static inline __attribute__((always_inline)) void ws_ld_global_word_next(ws_exec *x, const ptx_instr *in,
                                                                         ws_ld_global_batch *b)
{
    const ptx_operand *op = &in->operand[1];
    const ws_shape *s = &x->shape[op->reg];
    const ws_allocation *al;
    uint64_t a = s->base + (uint64_t)op->imm;
    if (ws_shape_is_one(s) && !(a & 3) &&   /* aligned: a + 3 cannot wrap */
        (al = ws_allocation_of(x->launch, a, a, 4)) && ws_load_batch_applies(&b->timing, al)) {
        const uint64_t *line;
        b->runs++;   /* one request, one sector */
        b->sectors++;
        ws_load_run(&b->timing, x->warp, al, a, a + 3, &line);
        ws_broadcast_word(ws_row(x, in->operand[0].reg), al->bytes + (a - al->base));
        b->last.row = NULL;
        return;
    }
    ws_ld_global_next(x, in, WS_FULL_MASK, b);
}

/* Whether a group's ld.shared may take ws_ld_shared_word_next (the timing model on, every warp full): a
 * 4-byte element from a register's address, sm_50+'s banks (one word is one wavefront, whatever their count),
 * one-pass accesses, and the group's first warp x's address one word (as ws_ld_global_words_of). Tested once
 * a group. */
static inline int ws_ld_shared_words_of(const ws_launch *l, const ptx_instr *in, const ws_exec *x)
{
    int32_t reg = in->operand[1].reg;
    return ptx_types[in->type].size == 4 && reg >= 0 && l->one_pass && !l->check_shapes && l->timing &&
           l->arch->shared_model == SHARED_MODEL_MODERN && ws_shape_is_one(&x->shape[reg]);
}

/* ws_ld_shared_next for a full warp of a group that ws_ld_shared_words_of allows: one aligned word for every
 * lane (the tiled matmul's As[ty][k]) is read here, as uniform_shared_word (sim/exec_mem_runs.c) would, without
 * its call and the tests the group made once; *words counts them (ws_ld_shared_words_end adds their
 * counters). The batch keeps its last load: a later warp of that shape takes the same elements from it. */
static inline void ws_ld_shared_word_next(ws_exec *x, const ptx_instr *in, ws_ld_shared_batch *b, uint64_t *words)
{
    const ptx_operand *op = &in->operand[1];
    const ws_shape *s = &x->shape[op->reg];
    if (ws_shape_is_one(s) && !x->warp->its.count) {
        /* a 32-bit register's address past 2^32 (its low 32 bits the address) is past the limit: the general
         * path takes it */
        uint64_t a = s->base + (uint64_t)op->imm, limit = x->launch->shared_size;
        if (!(a & 3) && limit >= 4 && a <= limit - 4) {
            ws_timing_shared(x, a, 1, 4, 0, 1);
            ws_broadcast_word(ws_row(x, in->operand[0].reg), x->block->shared + a);
            (*words)++;
            return;
        }
    }
    ws_ld_shared_next(x, in, WS_FULL_MASK, b);
}

/* The counters of ws_ld_shared_word_next's `words` loads (ws_count_shared's: one wavefront each, no conflict). */
static inline void ws_ld_shared_words_end(uint64_t *ic, uint64_t words)
{
    ic[WS_CTR_shared_ld_inst] += words;
    ic[WS_CTR_shared_ld_wavefronts] += words;
    ic[WS_CTR_shared_wavefronts] += words;
}

#endif
