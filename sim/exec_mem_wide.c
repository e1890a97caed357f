/*
 * Memory instructions for a group of warps in a run of wide instructions (sim/lockstep.c): each warp's
 * access planned from its address register's shape where sim/exec_mem_runs.c would take it in one pass
 * (ws_*_plan), then done for the group (ws_*_wide): elements read or written and counters summed; the run's
 * timing pass (sim/timing_wide.c) times the plans. The same results as the one-warp paths, warp by warp.
 */
#include <string.h>

#include "sim/exec_mem_wide.h"

#include "sim/exec_mem_helpers.h"
#include "sim/its.h"
#include "sim/timing.h"
#include "sim/timing_wide.h"

/* ws_ld_shared_plan's for one warp x, through ws_ld_shared_known's tests. */
static int shared_plan_of(ws_exec *x, const ptx_operand *op, unsigned size, ws_shared_plan *p)
{
    ws_lane_span span;
    ws_shared_cost cost;
    if (!(uniform_shared_at(x, op, size, &span, &cost) || shared_run_at(x, op, size, &span, &cost)) ||
        span.hi > UINT32_MAX)
        return 0;
    /* the run lies in the block's shared memory below 2^32, its step below 2^32 (shared_run_at's) */
    *p = (ws_shared_plan){(uint32_t)span.lo, (uint32_t)span.stride, cost};
    return 1;
}

uint32_t ws_ld_shared_plan(ws_warp *w, int n, const ptx_instr *in, ws_shared_plan *p)
{
    const ptx_operand *op = &in->operand[1];
    const ws_launch *l = w->exec.launch;
    const unsigned size = ptx_types[in->type].size;
    const int32_t reg = op->reg;
    const uint64_t imm = (uint64_t)op->imm, limit = l->shared_size;
    const int wide_register = op->reg_is_64;
    /* uniform_shared_word's case: one 4-byte word for every lane, one wavefront on sm_50+'s 32 banks, at an
     * address up to `last_word` (uniform_shared_address's bound, and below 2^32) */
    const int words = size == 4 && l->arch->shared_model == SHARED_MODEL_MODERN && l->arch->shared_banks == 32 &&
                      limit >= 4;
    const uint64_t last_word = limit - 4 < UINT32_MAX ? limit - 4 : UINT32_MAX;
    const ws_shape *before = NULL;   /* the warp before's shape */
    uint32_t most = 1;
    if (!l->one_pass || l->check_shapes || reg < 0 || op->symbol >= 0)
        return 0;
    for (int j = 0; j < n; j++) {
        ws_exec *x = &w[j].exec;
        const ws_shape *s = ws_shape_get(x, reg);
        if (w[j].its.count || !s->known)
            return 0;
        if (before && ws_shape_same(s, before)) {   /* the warp before's addresses (a tile's row) */
            p[j] = p[j - 1];
            continue;
        }
        before = s;
        if (words && ws_shape_is_one(s)) {   /* uniform_shared_address's tests */
            uint64_t a = s->base + imm;
            a = wide_register ? a : (uint32_t)a;
            if ((a & 3) || a > last_word)
                return 0;
            p[j] = (ws_shared_plan){(uint32_t)a, 0, {1, 1}};
            continue;
        }
        if (!shared_plan_of(x, op, size, &p[j]))
            return 0;
        most = p[j].cost.wavefronts > most ? p[j].cost.wavefronts : most;
    }
    return most;
}

void ws_ld_shared_wide(ws_warp *w, int n, const ptx_instr *in, const ws_shared_plan *p, uint64_t *ic,
                       ws_block_timing *bt)
{
    unsigned size = ptx_types[in->type].size;
    int32_t d = in->operand[0].reg;
    uint64_t wavefronts = 0, conflicts = 0, merged = 0, cycles = 0;
    for (int j = 0; j < n; j++) {
        ws_exec *x = &w[j].exec;
        const ws_shared_cost *cost = &p[j].cost;
        wavefronts += cost->wavefronts;   /* ws_count_shared's, summed */
        conflicts += ws_shared_conflicts(cost);
        /* ws_timing_shared's access: a broadcast word merged into the LDS.128 before, or its wavefronts */
        if (p[j].stride == 0 && size == 4) {
            if (bt && ws_merges_into_vector(&w[j], p[j].a0))
                merged++;
            else
                cycles += cost->wavefronts;
            ws_broadcast_word(ws_row(x, d), x->block->shared + p[j].a0);
            continue;
        }
        cycles += cost->wavefronts;
        if (j > 0 && p[j].a0 == p[j - 1].a0 && p[j].stride == p[j - 1].stride)   /* the warp before's elements */
            ws_copy_row(ws_row(x, d), ws_row(&w[j - 1].exec, d));
        else
            ws_read_run(ws_row(x, d), x->block->shared + p[j].a0, size, p[j].stride);
    }
    ic[WS_CTR_shared_ld_inst] += (uint64_t)n;
    ic[WS_CTR_shared_ld_wavefronts] += wavefronts;
    ic[WS_CTR_shared_ld_bank_conflicts] += conflicts;
    ic[WS_CTR_shared_wavefronts] += wavefronts;
    ic[WS_CTR_shared_conflict_cycles] += conflicts;
    if (bt) {
        bt->shared_merged += merged;
        bt->shared_cycles += cycles;
    }
}

/* ws_ld_global_plan's for a warp whose address register's shape s is known and not the warp before's: as
 * ws_ld_global_known would take it in one pass (load_run, load_row_words_of, or load_rows_of's rows read alike),
 * into *p; 0 for any other access. `al`: the warp before's allocation (NULL: none), tried first. */
static inline __attribute__((always_inline)) int global_plan_of(ws_launch *l, const ws_shape *s, uint64_t imm,
                                                                unsigned size, int timing, const ws_allocation *al,
                                                                ws_global_plan *p)
{
    uint64_t a0 = s->base + imm, stride = s->stride, step = s->row_step, end;
    uint32_t width = s->width, words = 0, sectors;
    if (width == WS_SHAPE_LANES) {   /* one run: run_allocation's tests, a sector apart at most */
        uint64_t a31 = a0 + 31 * stride;
        if (stride > 32 || ((a0 | stride) & (size - 1)) || a31 < a0 || a31 + (size - 1) < a31)
            return 0;
        step = 0;
        end = a31 + (size - 1);
        sectors = (uint32_t)((end >> 5) - (a0 >> 5) + 1);
    } else if (width != 16 && width != 8 && width != 4) {
        return 0;   /* none other (ws_shape_of_row's) */
    } else if (step == 0) {   /* rows that read alike (load_rows_of's tests, its rows the first one) */
        uint64_t last = a0 + (width - 1) * stride;
        if (stride > 32 || ((a0 | stride) & (size - 1)) || last < a0 || last + (size - 1) < last)
            return 0;
        end = last + (size - 1);
        sectors = (uint32_t)((end >> 5) - (a0 >> 5) + 1);
    } else if (stride == 0 && size == 4) {   /* rows of one word (load_row_words_of's tests) */
        unsigned rows = WS_WARP_SIZE / width;
        if (((a0 | step) & 3) || step < 32 || step > (UINT64_MAX - 3 - a0) / (rows - 1))
            return 0;
        words = 1;
        end = a0 + (rows - 1) * step + 3;
        sectors = rows;
    } else {
        return 0;
    }
    /* the warp before's allocation where it holds these bytes (ws_allocation_of's own test), else the search */
    if (!al || a0 < al->base || end - al->base >= al->size) {
        al = ws_allocation_of(l, a0, end - (size - 1), size);
        if (!al || (timing && !ws_sectors_own(al)))
            return 0;
    }
    *p = (ws_global_plan){al, a0, stride, step, end, width, words, sectors, 0};
    return 1;
}

uint64_t ws_ld_global_plan(ws_warp *w, int n, const ptx_instr *in, ws_global_plan *p)
{
    const ptx_operand *op = &in->operand[1];
    ws_launch *l = w->exec.launch;
    const unsigned size = ptx_types[in->type].size;
    const int32_t reg = op->reg;
    const uint64_t imm = (uint64_t)op->imm;
    const int timing = l->timing != NULL;
    const ws_shape *before = NULL;   /* the last warp's shape */
    const ws_allocation *al = NULL;  /* and allocation */
    uint64_t sectors = 0, last = 0;
    if (!l->one_pass_global || l->check_shapes || (timing && !ws_l1_caches_loads(l, &w->exec.block->tm)))
        return 0;
    for (int j = 0; j < n; j++) {
        const ws_shape *s = ws_shape_get(&w[j].exec, reg);
        if (!s->known)
            return 0;
        if (before && ws_shape_same(s, before)) {   /* the warp before's addresses (a matmul's column of B) */
            p[j].again = 1;
            sectors += last;
            continue;
        }
        before = s;
        uint64_t a0 = s->base + imm;
        if (al && s->width == WS_SHAPE_LANES && s->stride == 0 && !(a0 & (size - 1)) && a0 >= al->base &&
            a0 + (size - 1) - al->base < al->size) {   /* one word in the warp before's allocation (a matmul's A) */
            p[j] = (ws_global_plan){al, a0, 0, 0, a0 + (size - 1), WS_SHAPE_LANES, 0, 1, 0};
            last = 1;
            sectors++;
            continue;
        }
        uint64_t step = s->row_step;
        if (al && s->width == 16 && s->stride == 0 && size == 4 && !((a0 | step) & 3) && step >= 32 &&
            a0 >= al->base && step <= al->size && a0 + step + 3 - al->base < al->size) {
            /* two rows of one word (a 16x16 block's A) in the warp before's allocation: global_plan_of's, the second
             * row's word inside it (no wrap: the step is within its size) */
            p[j] = (ws_global_plan){al, a0, 0, step, a0 + step + 3, 16, 1, 2, 0};
            last = 2;
            sectors += 2;
            continue;
        }
        if (!global_plan_of(l, s, imm, size, timing, al, &p[j]))
            return 0;
        al = p[j].al;
        last = p[j].sectors;
        sectors += last;
    }
    return sectors;
}

void ws_ld_global_wide(ws_warp *w, int n, const ptx_instr *in, const ws_global_plan *p, uint64_t sectors,
                       uint64_t *ic)
{
    const unsigned size = ptx_types[in->type].size;
    uint64_t *row = ws_row(&w->exec, in->operand[0].reg);   /* warp j's: the rows lie side by side (sim/exec.h) */
    for (int j = 0; j < n; j++, row += WS_WARP_SIZE) {
        const ws_global_plan *q = &p[j];
        if (q->again) {   /* the warp before's elements */
            ws_copy_row(row, row - WS_WARP_SIZE);
            continue;
        }
        const uint8_t *first = q->al->bytes + (q->a0 - q->al->base);
        if (q->words) {   /* load_row_words_of's rows: a sector each, each row's word broadcast */
            switch (q->width) {   /* known, its loops unroll */
            case 16: broadcast_rows(row, first, q->row_step, 16); break;
            case 8: broadcast_rows(row, first, q->row_step, 8); break;
            default: broadcast_rows(row, first, q->row_step, 4); break;
            }
        } else if (q->width != WS_SHAPE_LANES) {   /* rows read alike: the first one's elements in each */
            uint64_t start[WS_WARP_SIZE / 4];
            for (unsigned r = 0; r < WS_WARP_SIZE / q->width; r++)
                start[r] = q->a0;
            ws_read_rows(row, q->al->bytes, q->al->base, start, size, q->stride, q->width);
        } else if (q->stride == 0 && size == 4) {
            ws_broadcast_word(row, first);
        } else {
            ws_read_run(row, first, size, q->stride);
        }
    }
    count_global_runs(ic, (uint64_t)n, sectors, 0);
}

/* Whether the n warps' runs of words (plans p) lie side by side, warp j's first element 4 * j bytes after warp 0's,
 * their lanes' elements a stride apart that leaves room for all n (no element written twice: the order of the
 * writes cannot be seen), in one allocation: ws_write_words_across's. */
static int words_across(const ws_global_plan *p, int n)
{
    if (n < 2 || n > WS_WIDE_RUN_WARPS || (int64_t)p->stride < 4 * (int64_t)n)
        return 0;
    for (int j = 1; j < n; j++)
        if (p[j].al != p->al || p[j].stride != p->stride || p[j].a0 != p->a0 + 4 * (uint64_t)j)
            return 0;
    return 1;
}

uint64_t ws_st_global_plan(ws_warp *w, int n, const ptx_instr *in, ws_global_plan *p)
{
    const ptx_operand *op = &in->operand[0];
    ws_launch *l = w->exec.launch;
    const unsigned size = ptx_types[in->type].size;
    const int timing = l->timing != NULL;
    uint64_t sectors = 0;
    if (!l->one_pass_global || l->check_shapes)
        return 0;
    for (int j = 0; j < n; j++) {
        ws_exec *x = &w[j].exec;
        uint64_t a0, stride;
        const ws_allocation *al;
        ws_shape_get(x, op->reg);   /* looked for where not known: run_allocation reads it as it is */
        if (!(al = run_allocation(x, op, size, 1, &a0, &stride)) || (timing && !ws_sectors_own(al)))
            return 0;
        uint32_t n_sectors = (uint32_t)run_sectors(a0, stride, size);
        p[j] = (ws_global_plan){al, a0, stride, 0, a0 + 31 * stride + (size - 1), WS_SHAPE_LANES, 0, n_sectors, 0};
        sectors += n_sectors;
    }
    return sectors;
}

void ws_st_global_wide(ws_warp *w, int n, const ptx_instr *in, const ws_global_plan *p, uint64_t sectors,
                       uint64_t *ic)
{
    const unsigned size = ptx_types[in->type].size;
    if (size == 4 && in->operand[1].kind == PTX_OPD_REG && words_across(p, n)) {   /* a line of all at a time */
        const uint64_t *rows[WS_WIDE_RUN_WARPS];
        for (int j = 0; j < n; j++)
            rows[j] = ws_row(&w[j].exec, in->operand[1].reg);
        ws_write_words_across(p->al->bytes + (p->a0 - p->al->base), rows, n, p->stride);
    } else {
        for (int j = 0; j < n; j++) {
            uint64_t tmp[WS_WARP_SIZE];
            const ws_global_plan *q = &p[j];
            ws_write_run(q->al->bytes + (q->a0 - q->al->base), ws_src(&w[j].exec, &in->operand[1], tmp), size,
                         q->stride);
        }
    }
    count_global_runs(ic, (uint64_t)n, sectors, 1);
}

uint32_t ws_st_shared_plan(ws_warp *w, int n, const ptx_instr *in, ws_shared_plan *p)
{
    const ptx_operand *op = &in->operand[0];
    const ws_launch *l = w->exec.launch;
    const unsigned size = ptx_types[in->type].size;
    uint32_t most = 1;
    if (!l->one_pass || l->check_shapes || op->reg < 0 || op->symbol >= 0)
        return 0;
    for (int j = 0; j < n; j++) {
        ws_lane_span span;
        ws_shared_cost cost;
        if (!shared_run_at(&w[j].exec, op, size, &span, &cost) || span.hi > UINT32_MAX)
            return 0;
        p[j] = (ws_shared_plan){(uint32_t)span.lo, (uint32_t)span.stride, cost};
        most = cost.wavefronts > most ? cost.wavefronts : most;
    }
    return most;
}

void ws_st_shared_wide(ws_warp *w, int n, const ptx_instr *in, const ws_shared_plan *p, uint64_t *ic,
                       ws_block_timing *bt)
{
    const unsigned size = ptx_types[in->type].size;
    uint64_t wavefronts = 0, conflicts = 0;
    for (int j = 0; j < n; j++) {
        ws_exec *x = &w[j].exec;
        uint64_t tmp[WS_WARP_SIZE];
        const uint64_t *values = ws_src(x, &in->operand[1], tmp);
        wavefronts += p[j].cost.wavefronts;   /* ws_count_shared's, summed */
        conflicts += ws_shared_conflicts(&p[j].cost);
        if (x->launch->its)   /* --sched its: the warp's other lanes do not see it yet */
            ws_its_store_run(x, WS_FULL_MASK, p[j].a0, p[j].stride, values, size);
        ws_write_run(x->block->shared + p[j].a0, values, size, p[j].stride);
    }
    ic[WS_CTR_shared_st_inst] += (uint64_t)n;
    ic[WS_CTR_shared_st_wavefronts] += wavefronts;
    ic[WS_CTR_shared_st_bank_conflicts] += conflicts;
    ic[WS_CTR_shared_wavefronts] += wavefronts;
    ic[WS_CTR_shared_conflict_cycles] += conflicts;
    if (bt) {   /* ws_timing_shared's for a store: its wait, its wavefronts */
        bt->waits[WS_WAIT_SHARED_STORE] += (uint64_t)n;
        bt->shared_cycles += wavefronts;
    }
}

