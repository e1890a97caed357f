/*
 * Memory instructions in one pass, warp by warp: an ld or st whose address register has a shape (sim/shape.h)
 * that gives its lanes' addresses as a run or rows, inside one region, aligned, is checked, counted, timed and
 * done from the shape alone, in the general path's order (sim/exec_mem.c, which takes every other access);
 * the batches a group's loads take warp after warp (sim/lockstep.c); and the handlers decode picks for the
 * commonest loads. sim/exec_mem.c's ld, ldu and st enter here (ws_load, ws_store).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/exec_mem_runs.h"

#include "sim/exec_mem_helpers.h"
#include "sim/its.h"
#include "sim/timing.h"

/* Whether a loaded element must be sign-extended into its register (the one-pass paths leave that to the
 * general one). */
static int widens(const ptx_function *fn, const ptx_instr *in, unsigned size, int32_t reg)
{
    unsigned reg_bits = ws_type_bits((ptx_type)fn->value_reg_type[reg]);
    return ptx_types[in->type].kind == PTX_KIND_SIGNED && (size == 8 ? reg_bits < 64 : reg_bits > 32);
}

/* A one-run global access (load_global_run, store_global_run): run_allocation's, for one element of 4 or
 * 8 bytes through a 64-bit address register, when the launch lets global accesses take one pass. */
static inline const ws_allocation *global_run(ws_exec *x, const ptx_instr *in, const ptx_operand *op,
                                              unsigned size, int is_store, uint64_t *first, uint64_t *step)
{
    if (in->space != PTX_SPACE_GLOBAL || in->vec > 1 || (size != 4 && size != 8) || op->symbol >= 0 || op->reg < 0 ||
        !op->reg_is_64 || !x->launch->one_pass_global)
        return NULL;
    return run_allocation(x, op, size, is_store, first, step);
}

/* count_global_runs for one warp's access. */
static void count_global(ws_exec *x, uint64_t sectors, int is_store)
{
    count_global_runs(ws_icounters(x), 1, sectors, is_store);
}

/* A batch's last load, for the next warp (ws_ld_global_last): field by field (a compound literal is built on
 * the stack, then copied: twice the host instructions). */
static inline void remember_load(ws_ld_global_last *last, const uint64_t *row, const ws_shape *reg, uint64_t sectors,
                                 const uint64_t *filled, uint64_t from, uint64_t to)
{
    last->row = row;
    last->reg = *reg;
    last->sectors = sectors;
    last->filled = filled;
    last->from = from;
    last->to = to;
    last->latest = 0;
}

/* load_global_run's access, once it is known to be one (global_run). */
static inline __attribute__((always_inline)) void load_run(ws_exec *x, const ptx_instr *in,
                                                           const ws_allocation *al, uint64_t a0, uint64_t stride,
                                                           unsigned size, ws_ld_global_batch *b)
{
    ws_launch *l = x->launch;
    if (l->check_shapes)
        ws_check_shape_lanes(x, in, &in->operand[1], a0, stride, 0, WS_WARP_SIZE);
    uint64_t sectors = run_sectors(a0, stride, size), end = a0 + 31 * stride + size - 1;
    b->runs++;   /* count_global's counters, added by ws_ld_global_batch_end */
    b->sectors += sectors;
    const uint64_t *one_line = NULL;   /* the run's line, for the next warp (ws_ld_global_batch.last) */
    if (l->timing) {
        if (stride > 32) {   /* run_allocation found the batch applies */
            uint64_t sector[WS_WARP_SIZE];
            unsigned lines = ws_timing_far_sectors(a0, stride, sector);
            ws_load_sectors(&b->timing, x->warp, al, sector, WS_WARP_SIZE, lines, NULL);
        } else if (ws_load_batch_applies(&b->timing, al)) {
            ws_load_run(&b->timing, x->warp, al, a0, end, &one_line);
        } else {
            ws_timing_load_run_general(x, a0, end);
        }
    }
    uint64_t *row = ws_row(x, in->operand[0].reg);
    if (stride == 0 && size == 4) {   /* one word for every lane (a matmul's A): ws_read_run's, without its call */
        ws_broadcast_word(row, al->bytes + (a0 - al->base));
    } else {
        ws_read_run(row, al->bytes + (a0 - al->base), size, stride);
    }
    int again = (one_line || !l->timing) && !l->check_shapes;   /* the next warp may take it from here */
    remember_load(&b->last, again ? row : NULL, &x->shape[in->operand[1].reg], sectors, one_line, a0 >> 5, end >> 5);
}

/* The commonest load in one pass: a full warp's ld.global of one 4- or 8-byte element whose
 * address register has a shape (sim/shape.h) stepping forward by a sector at most (one
 * address, consecutive elements, a small stride), inside one allocation, aligned, with
 * nothing to widen, no check and no --html on. Everything the general path does, in its
 * order (the allocation, the counters of count_access, the timing model, the data), from
 * the span alone (load_run). Returns 0, having done nothing, when the access is not such. */
static int load_global_run(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_global_batch *b)
{
    const ptx_operand *op = &in->operand[1], *d = &in->operand[0];
    unsigned size = ptx_types[in->type].size;
    uint64_t a0, stride;
    const ws_allocation *al;
    if (mask != WS_FULL_MASK || d->kind != PTX_OPD_REG || !(al = global_run(x, in, op, size, 0, &a0, &stride)) ||
        widens(x->fn, in, size, d->reg))
        return 0;
    load_run(x, in, al, a0, stride, size, b);
    return 1;
}

/* load_global_rows's access once the instruction and the launch are known to let it (decode and the
 * handler checked them): the address alone, its register's shape rows, is looked at. */
static inline __attribute__((always_inline)) int load_rows_of(ws_exec *x, const ptx_instr *in, ws_ld_global_batch *b,
                                                              const unsigned width)
{
    ws_launch *l = x->launch;
    const ptx_operand *op = &in->operand[1], *d = &in->operand[0];
    unsigned size = ptx_types[in->type].size;
    const ws_shape *s = &x->shape[op->reg];
    const unsigned rows = WS_WARP_SIZE / width;
    uint64_t base = s->base + (uint64_t)op->imm, stride = s->stride, start[WS_WARP_SIZE / 4], lo = UINT64_MAX, hi = 0;
    if (stride > 32 || ((base | stride | s->row_step) & (size - 1)))
        return 0;
    for (unsigned j = 0; j < rows; j++) {
        uint64_t first = base + j * s->row_step, last = first + (width - 1) * stride;
        if (last < first || last + (size - 1) < last)
            return 0;   /* a row that wraps */
        start[j] = first;
        lo = first < lo ? first : lo;
        hi = last > hi ? last : hi;
    }
    const ws_allocation *al = ws_allocation_of(l, lo, hi, size);
    if (!al || (l->timing && !ws_load_batch_applies(&b->timing, al)))
        return 0;
    if (l->check_shapes)
        ws_check_shape_lanes(x, in, op, base, stride, s->row_step, width);
    /* the distinct sectors as the rows meet them, each row from its first lane's to its last's, and their lines */
    uint64_t sector[WS_WARP_SIZE], line[WS_WARP_SIZE];
    unsigned n = 0, lines = 0;
    /* rows a sector or more apart meet each sector once, in order, and a line again only right after; rows
     * that are one (a row step of 0: the lanes of a column read alike) meet only the first row's */
    uint64_t span = (width - 1) * stride;
    int apart = s->row_step >= span + 32 && s->row_step <= hi - lo, same = s->row_step == 0;   /* no wrap */
    if (apart && span == 0) {   /* one element a row (a 2D block's rows of a matmul's A): a sector each */
        for (unsigned j = 0; j < rows; j++) {
            sector[j] = start[j] >> 5;
            lines += j == 0 || sector[j] >> 2 != sector[j - 1] >> 2;
        }
        n = rows;
    } else if (apart || same) {
        for (unsigned j = 0; j < (same ? 1 : rows); j++)
            for (uint64_t sc = start[j] >> 5, last = (start[j] + span) >> 5; sc <= last; sc++) {
                sector[n++] = sc;
                if (!lines || line[lines - 1] != sc >> 2)
                    line[lines++] = sc >> 2;
            }
    } else {
        for (unsigned j = 0; j < rows; j++)
            for (uint64_t sc = start[j] >> 5, last = (start[j] + span) >> 5; sc <= last; sc++) {
                unsigned k = 0, m = 0;
                while (k < n && sector[k] != sc)
                    k++;
                if (k < n)
                    continue;
                sector[n++] = sc;
                while (m < lines && line[m] != sc >> 2)
                    m++;
                if (m == lines)
                    line[lines++] = sc >> 2;
            }
    }
    b->runs++;   /* count_global's counters, added by ws_ld_global_batch_end */
    b->sectors += n;
    const uint64_t *one_line = NULL;
    if (l->timing)
        ws_load_sectors(&b->timing, x->warp, al, sector, n, lines, &one_line);   /* applies: looked at above */
    uint64_t *r = ws_row(x, d->reg);
    ws_read_rows(r, al->bytes, al->base, start, size, stride, width);
    /* the next warp may take it from here (ws_ld_global_last) when its sectors on one line are in order */
    int again = (one_line || !l->timing) && !l->check_shapes;
    for (unsigned i = 1; again && i < n; i++)
        again = sector[i] == sector[0] + i;
    remember_load(&b->last, again ? r : NULL, s, n, one_line, sector[0], sector[n - 1]);
    return 1;
}

/* load_rows_of for rows of one 4-byte element each (a stride of 0: a 16x16 block's two rows of a matmul's A),
 * forward a sector or more apart without wrapping (its `apart` with a span of 0), no check: a sector a row, in
 * order, and each row's word broadcast inline. The same work in the same order as load_rows_of's (it took
 * some 480 host instructions a warp for two rows). Returns 0, having done nothing, for any other rows. */
static inline __attribute__((always_inline)) int load_row_words_of(ws_exec *x, const ptx_instr *in,
                                                                   ws_ld_global_batch *b, const unsigned width)
{
    ws_launch *l = x->launch;
    const ptx_operand *op = &in->operand[1];
    const ws_shape *s = &x->shape[op->reg];
    const unsigned rows = WS_WARP_SIZE / width;
    uint64_t base = s->base + (uint64_t)op->imm, step = s->row_step;
    if (((base | step) & 3) || step < 32 || step > (UINT64_MAX - 3 - base) / (rows - 1) || l->check_shapes)
        return 0;
    uint64_t last = base + (rows - 1) * step;
    const ws_allocation *al = ws_allocation_of(l, base, last, 4);
    if (!al || (l->timing && !ws_load_batch_applies(&b->timing, al)))
        return 0;
    uint64_t sector[WS_WARP_SIZE / 4];   /* as ws_load_row_words's, the runs' twin (kept apart: shared, 1% slower) */
    unsigned lines = 1;
    for (unsigned j = 0; j < rows; j++) {
        sector[j] = (base + j * step) >> 5;
        lines += j > 0 && sector[j] >> 2 != sector[j - 1] >> 2;
    }
    b->runs++;
    b->sectors += rows;
    const uint64_t *one_line = NULL;
    if (l->timing)
        ws_load_sectors_of(&b->timing, x->warp, al, sector, rows, lines, &one_line, 2);
    uint64_t *r = ws_row(x, in->operand[0].reg);
    broadcast_rows(r, al->bytes + (base - al->base), step, width);   /* not read_run_lanes's stride 0: n16 +20% */
    /* the next warp may take it from here when its sectors lie on one line, one after another */
    int again = one_line || !l->timing;
    for (unsigned j = 1; again && j < rows; j++)
        again = sector[j] == sector[0] + j;
    remember_load(&b->last, again ? r : NULL, s, rows, one_line, sector[0], sector[rows - 1]);
    return 1;
}

/* load_rows_of with the rows' width known (16, 8 or 4 lanes, ws_shape's), so that its loops over the rows
 * unroll: a 16x16 block's loads took 491 host instructions a warp with it read from the shape. Out of line, so
 * that ws_ld_global_known's other paths keep their code (inline, the naive matmul's one-word loads took 4.6 host
 * instructions more each). */
static __attribute__((noinline)) int load_rows_general(ws_exec *x, const ptx_instr *in, ws_ld_global_batch *b)
{
    switch (x->shape[in->operand[1].reg].width) {
    case 16: return load_rows_of(x, in, b, 16);
    case 8: return load_rows_of(x, in, b, 8);
    case 4: return load_rows_of(x, in, b, 4);
    default: return 0;   /* none other (ws_shape_of_row's): the general path */
    }
}
/* The rows of one word (load_row_words_of, inline), else load_rows_general. */
static inline __attribute__((always_inline)) int load_rows(ws_exec *x, const ptx_instr *in, ws_ld_global_batch *b)
{
    const ws_shape *s = &x->shape[in->operand[1].reg];
    if (s->stride == 0 && ptx_types[in->type].size == 4 &&
        (s->width == 16 ? load_row_words_of(x, in, b, 16) : s->width == 8 ? load_row_words_of(x, in, b, 8)
         : s->width == 4 && load_row_words_of(x, in, b, 4)))
        return 1;
    return load_rows_general(x, in, b);
}

/* A full warp's ld.global of one 4- or 8-byte element whose address register's shape is rows (a warp
 * of a block 16, 8 or 4 threads wide), each stepping forward by a sector at most: load_global_run
 * for the rows, as the general path takes them (its segments, sim/memmodel.c and sim/timing.c). */
static int load_global_rows(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_global_batch *b)
{
    const ptx_operand *op = &in->operand[1], *d = &in->operand[0];
    unsigned size = ptx_types[in->type].size;
    const ws_shape *s = &x->shape[op->reg];
    if (mask != WS_FULL_MASK || in->space != PTX_SPACE_GLOBAL || in->vec > 1 || d->kind != PTX_OPD_REG ||
        (size != 4 && size != 8) || op->symbol >= 0 || !s->known || s->width == WS_WARP_SIZE || !op->reg_is_64 ||
        !x->launch->one_pass_global)
        return 0;
    if (widens(x->fn, in, size, d->reg))
        return 0;
    return load_rows(x, in, b);
}

/* ws_ld_shared_known's commonest case on sm_50+'s 32 banks, without the span: one 4-byte word for every lane
 * (the tiled matmul's As[ty][k]), one wavefront, no conflict. uniform_shared_at (its address from
 * uniform_shared_address), ws_shared_run_cost and load_shared_access find the same (their counters, timing and
 * elements, in that order); this took 186 host instructions a warp through them. Returns 0, having done
 * nothing, when the access is not such. */
static inline int uniform_shared_word(ws_exec *x, const ptx_instr *in, ws_ld_shared_batch *b)
{
    const ws_launch *l = x->launch;
    const ptx_operand *op = &in->operand[1];
    uint64_t a0;
    if (ptx_types[in->type].size != 4 || l->arch->shared_model != SHARED_MODEL_MODERN || l->arch->shared_banks != 32 ||
        !uniform_shared_address(x, op, 4, &a0))
        return 0;
    const ws_shared_cost cost = {1, 1};
    b->reg = x->shape[op->reg];   /* before the row's stores, which the compiler must take as aliasing it */
    uint64_t *ic = ws_icounters(x);   /* ws_count_shared's, no conflict */
    ic[WS_CTR_shared_ld_inst]++;
    ic[WS_CTR_shared_ld_wavefronts]++;
    ic[WS_CTR_shared_wavefronts]++;
    if (l->timing)
        ws_timing_shared(x, a0, 1, 4, 0, 1);
    uint64_t *row = ws_row(x, in->operand[0].reg);
    ws_broadcast_word(row, x->block->shared + a0);
    b->row = row;
    b->a0 = a0;
    b->stride = 0;
    b->cost = cost;
    return 1;
}

/* shared_run_at's, for one element of 4 or 8 bytes, when the launch lets shared accesses take one pass. */
static inline int shared_run(ws_exec *x, const ptx_instr *in, const ptx_operand *op, unsigned size,
                             ws_lane_span *span, ws_shared_cost *cost)
{
    if (in->space != PTX_SPACE_SHARED || in->vec > 1 || (size != 4 && size != 8) || !x->launch->one_pass)
        return 0;
    return shared_run_at(x, op, size, span, cost);
}

/* load_shared_run's access, once it is known to be one (shared_run). */
static inline __attribute__((always_inline)) void load_shared_access(ws_exec *x, const ptx_instr *in,
                                                                     const ws_lane_span *span,
                                                                     const ws_shared_cost *cost, unsigned size)
{
    uint64_t a0 = span->lo;
    if (x->launch->check_shapes)
        ws_check_shape_lanes(x, in, &in->operand[1], a0, span->stride, 0, WS_WARP_SIZE);
    ws_count_shared(x, cost, 0);
    if (x->launch->timing)
        ws_timing_shared(x, a0, span->lo == span->hi, size, 0, cost->wavefronts);
    ws_read_run(ws_row(x, in->operand[0].reg), x->block->shared + a0, size, span->stride);
}

/* A full warp's ld.shared of a shaped address in one pass, as load_global_run (with --sched its,
 * only while the warp holds no store back). */
static int load_shared_run(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    const ptx_operand *op = &in->operand[1], *d = &in->operand[0];
    unsigned size = ptx_types[in->type].size;
    ws_lane_span span;
    ws_shared_cost cost;
    if (d->kind != PTX_OPD_REG || x->warp->its.count || widens(x->fn, in, size, d->reg) ||
        !shared_run(x, in, op, size, &span, &cost))
        return 0;
    load_shared_access(x, in, &span, &cost, size);
    (void)mask;
    return 1;
}

/* A partial warp's shared access as one run (masked_run finds it): lane l's address a0 + l * stride for the
 * lanes of the mask, stepping forward without wrapping, aligned, inside the block's shared memory. */
typedef struct {
    uint64_t a0, stride;   /* lane 0's address, whether it is active or not, and the step */
    uint64_t lo, hi;       /* the first and last active lanes' */
    ws_shared_cost cost;
} masked_run;

/* masked_run_at's run from an address register's shape, when it is a known run (not looked for: a register a
 * partial warp wrote has none, and its row, stale in the other lanes, seldom is one): lane l's address
 * a0 + l * stride in every lane. Returns 0 when it is not such. */
static inline int shaped_run(ws_exec *x, const ptx_operand *op, uint64_t *a0, uint64_t *stride)
{
    ws_shape a = x->shape[op->reg];
    if (!a.known || a.width != WS_SHAPE_LANES)
        return 0;
    a.base += (uint64_t)op->imm;
    if (!op->reg_is_64 && !ws_shape_narrow(&a, 0, &a))
        return 0;
    *a0 = a.base;
    *stride = a.stride;
    return 1;
}

/* The same from the register's row, for the lanes of mask alone (a register a partial warp wrote: the tid < s
 * of a reduction's [sdata + 4 * (tid + s)]): their addresses, as lane_addresses finds them, a0 + l * stride
 * for lane l, the stride the first two lanes' (a whole number of bytes a lane). Returns 0 when they are not
 * such a run. */
static int row_run(ws_exec *x, const ptx_operand *op, uint32_t mask, uint64_t *a0, uint64_t *stride)
{
    const uint64_t *r = ws_row(x, op->reg);
    uint64_t offset = (uint64_t)op->imm, keep = op->reg_is_64 ? UINT64_MAX : UINT64_C(0xffffffff), step = 0;
    unsigned first = (unsigned)__builtin_ctz(mask);
    uint64_t at = (r[first] + offset) & keep;
    uint32_t rest = mask & (mask - 1);
    if (rest) {
        unsigned second = (unsigned)__builtin_ctz(rest);
        uint64_t gap = second - first, d = ((r[second] + offset) & keep) - at;
        step = d / gap;
        if (step * gap != d)
            return 0;
    }
    uint64_t base = at - first * step;
    WS_FOR_SET_LANES(rest, lane)
        if (((r[lane] + offset) & keep) != base + lane * step)
            return 0;
    *a0 = base;
    *stride = step;
    return 1;
}

/* The run of a partial warp's [address] operand (mask not full, not 0) of `size` bytes a lane: a shared variable
 * alone, an immediate, or a register's (shaped_run, row_run), with the offset; and its cost (ws_shared_span_cost's,
 * else ws_shared_access_cost_span's). Returns 0 when it is not such a run stepping forward, aligned, inside
 * shared memory: the general path then does everything. */
static int masked_run_at(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint32_t mask, unsigned size,
                         int is_store, masked_run *m)
{
    ws_launch *l = x->launch;
    uint64_t a0, stride = 0;
    int shaped = 0;   /* the run from the register's shape, which WARPSIM_CHECK_SHAPES checks */
    if (op->symbol >= 0) {   /* lane_addresses's: the symbol's space, not the instruction's */
        if (op->reg >= 0 || ws_symbol_location(x, op->symbol, &a0) != PTX_SPACE_SHARED)
            return 0;
        a0 += (uint64_t)op->imm;
    } else if (op->reg < 0) {
        a0 = (uint64_t)op->imm;
    } else if (!(shaped = shaped_run(x, op, &a0, &stride)) && !row_run(x, op, mask, &a0, &stride)) {
        return 0;
    }
    unsigned first = (unsigned)__builtin_ctz(mask), last = 31u - (unsigned)__builtin_clz(mask);
    uint64_t lo = a0 + first * stride, hi = a0 + last * stride, limit = l->shared_size;
    if (stride >= (UINT64_C(1) << 32) || hi < lo || ((lo | stride) & (size - 1)) || limit < size || hi > limit - size)
        return 0;   /* stepping backwards, wrapping, misaligned or outside: the general path */
    if (!ws_shared_span_cost(l->arch, size, is_store, lo, hi, &m->cost)) {
        /* count_access's cost, from the addresses and the span ws_lane_span_of measures for a partial warp */
        uint64_t addr[WS_WARP_SIZE];
        ws_lane_span span = {.lo = lo, .hi = hi, .any_bits = lo | stride};
        ws_shape_lanes(addr, a0, stride, 0, WS_WARP_SIZE);
        ws_shared_access_cost_span(l->arch, addr, mask, size, is_store, &span, &m->cost);
    }
    if (l->check_shapes && shaped)
        ws_check_shape_lanes(x, in, op, a0, stride, 0, WS_WARP_SIZE);
    m->a0 = a0;
    m->stride = stride;
    m->lo = lo;
    m->hi = hi;
    return 1;
}

/* A partial warp's ld.shared of one 4- or 8-byte element in one pass (masked_run_at's address), as
 * load_shared_run: the counters, the timing and the active lanes' elements, as the general path reads
 * them (a signed element widened to its register's width). */
static int load_shared_masked(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    const ptx_operand *d = &in->operand[0];
    unsigned size = ptx_types[in->type].size;
    masked_run m;
    if (!mask || in->vec > 1 || d->kind != PTX_OPD_REG || (size != 4 && size != 8) || !x->launch->one_pass ||
        x->warp->its.count || widens(x->fn, in, size, d->reg) ||
        !masked_run_at(x, in, &in->operand[1], mask, size, 0, &m))
        return 0;
    ws_count_shared(x, &m.cost, 0);
    if (x->launch->timing)
        ws_timing_shared(x, m.lo, m.lo == m.hi, size, 0, m.cost.wavefronts);
    const uint8_t *shared = x->block->shared;
    uint64_t *r = ws_row(x, d->reg);
    if (ptx_types[in->type].kind == PTX_KIND_SIGNED) {
        unsigned reg_bits = ws_type_bits((ptx_type)x->fn->value_reg_type[d->reg]);
        WS_FOR_SET_LANES(mask, lane)
            r[lane] = widen(load_bytes(shared + (m.a0 + lane * m.stride), size), (ptx_type)in->type, reg_bits);
    } else if (size == 4) {
        WS_FOR_SET_LANES(mask, lane) {
            uint32_t v;
            memcpy(&v, shared + (m.a0 + lane * m.stride), 4);
            r[lane] = v;
        }
    } else {
        WS_FOR_SET_LANES(mask, lane) memcpy(&r[lane], shared + (m.a0 + lane * m.stride), 8);
    }
    return 1;
}

/* load_kernel_param's read at byte `at` of the parameter buffer; 0 when it is not inside, aligned. */
static inline int read_kernel_param(ws_exec *x, const ptx_instr *in, uint64_t at)
{
    ws_launch *l = x->launch;
    unsigned size = ptx_types[in->type].size;
    int32_t d = in->operand[0].reg;
    uint64_t limit = l->kernel->param_size;
    if (limit < size || at > limit - size || (at & (size - 1)))
        return 0;   /* the checked path says what is wrong */
    unsigned reg_bits = ws_type_bits((ptx_type)x->fn->value_reg_type[d]);
    uint64_t v = widen(load_bytes(l->params + at, size), (ptx_type)in->type, reg_bits), *r = ws_row(x, d);
    for (int lane = 0; lane < WS_WARP_SIZE; lane++)
        r[lane] = v;
    return 1;
}

/* ld.param of a kernel parameter by a full warp: every lane reads the same bytes of the parameter
 * buffer; a parameter read is no memory request, so nothing is counted (count_access). Returns 0,
 * having done nothing, for anything else (a .func's parameters live in each thread's frame). */
static int load_kernel_param(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_launch *l = x->launch;
    const ptx_operand *op = &in->operand[1], *d = &in->operand[0];
    unsigned size = ptx_types[in->type].size;
    uint64_t at;
    if (mask != WS_FULL_MASK || in->space != PTX_SPACE_PARAM || in->vec > 1 || d->kind != PTX_OPD_REG ||
        op->symbol < 0 || op->reg >= 0 || !l->one_pass || size > 8 ||
        ws_symbol_location(x, op->symbol, &at) != PTX_SPACE_PARAM)
        return 0;
    return read_kernel_param(x, in, at + (uint64_t)op->imm);
}

WS_LANE_LOOPS void ws_load(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    int32_t base = in->operand[1].reg;   /* the one-pass path wants a full warp and an address register's run */
    if (mask == WS_FULL_MASK && base >= 0 && ws_shape_get(x, base)->known) {
        int run = ws_shape_is_run(&x->shape[base]), done;
        if (in->space == PTX_SPACE_GLOBAL) {
            ws_ld_global_batch b;
            ws_ld_global_batch_start(&b, x->launch, x->block);
            done = run ? load_global_run(x, in, mask, &b) : load_global_rows(x, in, mask, &b);
            ws_ld_global_batch_end(&b, ws_icounters(x));
        } else {
            done = in->space == PTX_SPACE_SHARED && run && load_shared_run(x, in, mask);
        }
        if (done)
            return;
    }
    if (mask != WS_FULL_MASK && in->space == PTX_SPACE_SHARED && load_shared_masked(x, in, mask))
        return;
    if (in->operand[1].reg < 0 && load_kernel_param(x, in, mask))
        return;
    ws_load_lanes(x, in, mask);
}

/* The commonest store in one pass, as load_global_run: a full warp's st.global of one 4- or
 * 8-byte element, its address register's shape stepping forward by a sector at most. */
static int store_global_run(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_launch *l = x->launch;
    const ptx_operand *op = &in->operand[0], *v = &in->operand[1];
    unsigned size = ptx_types[in->type].size;
    uint64_t a0, stride;
    const ws_allocation *al;
    if ((v->kind != PTX_OPD_REG && v->kind != PTX_OPD_IMM) || !(al = global_run(x, in, op, size, 1, &a0, &stride)))
        return 0;
    uint64_t a31 = a0 + 31 * stride, addr[WS_WARP_SIZE], tmp[WS_WARP_SIZE];
    if (l->check_shapes) {
        ws_shape_lanes(addr, a0, stride, 0, WS_WARP_SIZE);
        ws_check_shaped_addresses(x, in, op, addr);
    }
    const uint64_t *values = ws_src(x, v, tmp);
    count_global(x, run_sectors(a0, stride, size), 1);
    if (l->timing && !ws_timing_store_run(x, al, a0, stride, size)) {
        ws_lane_span span = {.lo = a0, .hi = a31, .any_bits = a0 | stride, .stride = stride,
                             .segment_lanes = WS_WARP_SIZE};
        ws_shape_lanes(addr, a0, stride, 0, WS_WARP_SIZE);
        ws_timing_memory(x, PTX_SPACE_GLOBAL, addr, mask, size, 1, 0, &span);
    }
    ws_write_run(al->bytes + (a0 - al->base), values, size, stride);
    return 1;
}

/* A full warp's st.shared of a shaped address in one pass, as store_global_run. */
static int store_shared_run(ws_exec *x, const ptx_instr *in)
{
    const ptx_operand *op = &in->operand[0], *v = &in->operand[1];
    unsigned size = ptx_types[in->type].size;
    ws_lane_span span;
    ws_shared_cost cost;
    if ((v->kind != PTX_OPD_REG && v->kind != PTX_OPD_IMM) || !shared_run(x, in, op, size, &span, &cost))
        return 0;
    uint64_t tmp[WS_WARP_SIZE];
    if (x->launch->check_shapes)
        ws_check_shape_lanes(x, in, op, span.lo, span.stride, 0, WS_WARP_SIZE);
    const uint64_t *values = ws_src(x, v, tmp);
    ws_count_shared(x, &cost, 1);
    if (x->launch->timing)
        ws_timing_shared(x, span.lo, span.lo == span.hi, size, 1, cost.wavefronts);
    if (x->launch->its)   /* --sched its: the warp's other lanes do not see it yet */
        ws_its_store_run(x, WS_FULL_MASK, span.lo, span.stride, values, size);
    ws_write_run(x->block->shared + span.lo, values, size, span.stride);
    return 1;
}

/* A partial warp's st.shared of one 4- or 8-byte element in one pass, as store_shared_run (masked_run_at's
 * address): the active lanes' stores, in lane order. */
static int store_shared_masked(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    const ptx_operand *v = &in->operand[1];
    unsigned size = ptx_types[in->type].size;
    masked_run m;
    if (!mask || in->vec > 1 || (v->kind != PTX_OPD_REG && v->kind != PTX_OPD_IMM) || (size != 4 && size != 8) ||
        !x->launch->one_pass || !masked_run_at(x, in, &in->operand[0], mask, size, 1, &m))
        return 0;
    uint64_t tmp[WS_WARP_SIZE];
    const uint64_t *values = ws_src(x, v, tmp);
    ws_count_shared(x, &m.cost, 1);
    if (x->launch->timing)
        ws_timing_shared(x, m.lo, m.lo == m.hi, size, 1, m.cost.wavefronts);
    uint8_t *shared = x->block->shared;
    if (x->launch->its)   /* --sched its: the warp's other lanes do not see it yet */
        ws_its_store_run(x, mask, m.a0, m.stride, values, size);
    if (size == 4)   /* fixed-size copies: no library call */
        WS_FOR_SET_LANES(mask, lane) memcpy(shared + (m.a0 + lane * m.stride), &values[lane], 4);
    else
        WS_FOR_SET_LANES(mask, lane) memcpy(shared + (m.a0 + lane * m.stride), &values[lane], 8);
    return 1;
}

void ws_store(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    int32_t base = in->operand[0].reg;   /* as in ws_load() */
    if (mask == WS_FULL_MASK && base >= 0 && ws_shape_is_run(ws_shape_get(x, base)) &&
        (in->space == PTX_SPACE_GLOBAL ? store_global_run(x, in, mask)
                                       : in->space == PTX_SPACE_SHARED && store_shared_run(x, in)))
        return;
    if (mask != WS_FULL_MASK && in->space == PTX_SPACE_SHARED && store_shared_masked(x, in, mask))
        return;
    ws_store_lanes(x, in, mask);
}

/* ---- Handlers decode picks for the commonest accesses --------------------------------- */

/* ws_ld_global_next's call for a full warp whose address register's shape is known and not the batch's last:
 * load_rows or load_run where the launch lets it take one pass, else the general path. */
void ws_ld_global_known(ws_exec *x, const ptx_instr *in, ws_ld_global_batch *b)
{
    const ptx_operand *op = &in->operand[1];
    const ws_shape *s = &x->shape[op->reg];
    unsigned size = ptx_types[in->type].size;
    uint64_t a0, stride;
    const ws_allocation *al;
    if (x->launch->one_pass_global) {
        if (s->width != WS_WARP_SIZE) {
            b->last.row = NULL;
            if (load_rows(x, in, b))
                return;
        } else if (s->stride == 0) {   /* one address (a matmul's row of A, a word at a time): run_allocation's tests */
            a0 = s->base + (uint64_t)op->imm;
            if (!(a0 & (size - 1)) && a0 + (size - 1) >= a0 && (al = ws_allocation_of(x->launch, a0, a0, size))) {
                load_run(x, in, al, a0, 0, size, b);
                return;
            }
        } else if ((al = run_allocation(x, op, size, 0, &a0, &stride))) {
            load_run(x, in, al, a0, stride, size, b);
            return;
        }
    }
    b->last.row = NULL;   /* the general path may look other lines up */
    ws_load(x, in, WS_FULL_MASK);
}

/* exec_ld_global_run's work, its counters and timing sums into b: once the address register's shape is looked
 * for, a full warp's known one takes ws_ld_global_next's choice. */
void ws_ld_global_batched(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_global_batch *b)
{
    if (mask == WS_FULL_MASK && x->launch->one_pass_global && ws_shape_get(x, in->operand[1].reg)->known) {
        ws_ld_global_next(x, in, mask, b);
        return;
    }
    b->last.row = NULL;   /* the general path may look other lines up */
    ws_load(x, in, mask);
}

void ws_ld_global_batch_start(ws_ld_global_batch *b, const ws_launch *l, ws_block *block)
{
    ws_load_batch_start(&b->timing, l, &block->tm);
    b->runs = b->sectors = 0;
    b->last.row = NULL;
}

void ws_ld_global_batch_end(const ws_ld_global_batch *b, uint64_t *counters)
{
    if (!b->runs)
        return;
    count_global_runs(counters, b->runs, b->sectors, 0);
    if (b->timing.loads)
        ws_load_batch_flush(&b->timing);
}

/* An ld.global that decode found load_global_run or load_global_rows may take (ws_memory_handler): what
 * they check of the instruction and of the launch is known, and only its address is looked at here. The
 * same work in the same order; anything else goes to ws_load, which finds the same. A group of warps at it
 * takes ws_ld_global_batched (sim/lockstep.c). */
static void exec_ld_global_run(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_ld_global_batch b;
    ws_ld_global_batch_start(&b, x->launch, x->block);
    ws_ld_global_batched(x, in, mask, &b);
    ws_ld_global_batch_end(&b, ws_icounters(x));
}

/* An ld.shared that decode found load_shared_run may take, as exec_ld_global_run. */
static void exec_ld_shared_run(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    unsigned size = ptx_types[in->type].size;
    ws_lane_span span;
    ws_shared_cost cost;
    if (mask == WS_FULL_MASK && x->launch->one_pass && !x->warp->its.count &&
        shared_run_at(x, &in->operand[1], size, &span, &cost)) {
        load_shared_access(x, in, &span, &cost, size);
        return;
    }
    ws_load(x, in, mask);
}

/* ws_ld_shared_batched's work for a full warp, in one pass, whose address register's shape is known and is
 * not the last warp's (or where the batch has no last row). */
void ws_ld_shared_known(ws_exec *x, const ptx_instr *in, ws_ld_shared_batch *b)
{
    unsigned size = ptx_types[in->type].size;
    const ptx_operand *op = &in->operand[1];
    ws_lane_span span;
    ws_shared_cost cost;
    if (uniform_shared_word(x, in, b))
        return;
    if (uniform_shared_at(x, op, size, &span, &cost) || shared_run_at(x, op, size, &span, &cost)) {
        load_shared_access(x, in, &span, &cost, size);
        /* field by field (remember_load's reason: a compound literal is built on the stack, then copied) */
        b->row = x->launch->check_shapes ? NULL : ws_row(x, in->operand[0].reg);
        b->a0 = span.lo;
        b->stride = span.stride;
        b->cost = cost;
        b->reg = x->shape[op->reg];
        return;
    }
    b->row = NULL;
    ws_load(x, in, WS_FULL_MASK);
}

void ws_ld_shared_batched(ws_exec *x, const ptx_instr *in, uint32_t mask, ws_ld_shared_batch *b)
{
    const ptx_operand *op = &in->operand[1];
    if (mask == WS_FULL_MASK && x->launch->one_pass && !x->warp->its.count) {
        /* the last warp's run again (its register's shape, the same instruction: its addresses, which
         * address_shape finds from the shape alone): shared_run_at would find its span and cost */
        const ws_shape *r = b->row ? ws_shape_get(x, op->reg) : NULL;   /* b->row: op a register's */
        if (r && r->known && ws_shape_same(r, &b->reg))
            ws_ld_shared_again(x, in, b);
        else
            ws_ld_shared_known(x, in, b);
        return;
    }
    b->row = NULL;
    if (mask == WS_FULL_MASK)
        ws_load(x, in, mask);
    else if (!load_shared_masked(x, in, mask))   /* ws_load's partial warp (the tid < s of a reduction), directly */
        ws_load_lanes(x, in, mask);
}

int ws_load_batch_kind(ws_exec_fn run)
{
    return run == exec_ld_global_run ? WS_BATCH_GLOBAL : run == exec_ld_shared_run ? WS_BATCH_SHARED : 0;
}

/* An ld.param that decode found reads a kernel parameter (the parameter's offset known): load_kernel_param,
 * as exec_ld_global_run. */
static void exec_ld_kernel_param(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    const ptx_operand *op = &in->operand[1];
    if (mask == WS_FULL_MASK && x->launch->one_pass &&
        read_kernel_param(x, in, x->launch->module->symbols[op->symbol].offset + (uint64_t)op->imm))
        return;
    ws_load(x, in, mask);
}

/* exec_ld_kernel_param's wide form (sim/exec.h: ws_wide_fn): read_kernel_param's value in every lane of the
 * group's warps, the parameter found inside the buffer and aligned at decode (ws_memory_wide_handler). */
WS_LANE_LOOPS static void wide_ld_kernel_param(ws_exec *x, const ptx_instr *in, int n)
{
    ws_launch *l = x->launch;
    const ptx_operand *op = &in->operand[1];
    int32_t d = in->operand[0].reg;
    unsigned size = ptx_types[in->type].size, reg_bits = ws_type_bits((ptx_type)x->fn->value_reg_type[d]);
    uint64_t at = l->module->symbols[op->symbol].offset + (uint64_t)op->imm;
    uint64_t v = widen(load_bytes(l->params + at, size), (ptx_type)in->type, reg_bits), *r = ws_row(x, d);
    lane_quad q = {v, v, v, v};
    for (int w = 0; w < n; w++, r += WS_WARP_SIZE)   /* a warp's row in four-lane moves (one each in the AVX2 clone) */
        for (int lane = 0; lane < WS_WARP_SIZE; lane += 4)
            memcpy(r + lane, &q, sizeof q);
}

ws_wide_fn ws_memory_wide_handler(const ptx_module *m, const ptx_instr *in, ws_exec_fn run)
{
    if (run != exec_ld_kernel_param)
        return NULL;
    const ptx_symbol *s = &m->symbols[in->operand[1].symbol];
    uint64_t at = s->offset + (uint64_t)in->operand[1].imm, size = ptx_types[in->type].size;
    uint64_t limit = m->functions[s->function].param_size;
    return limit >= size && at <= limit - size && !(at & (size - 1)) ? wide_ld_kernel_param : NULL;
}

ws_exec_fn ws_memory_handler(const ptx_module *m, const ptx_function *fn, const ptx_instr *in)
{
    const ptx_operand *d = &in->operand[0], *op = &in->operand[1];
    unsigned size = ptx_types[in->type].size;
    if (in->opcode != OP_ld || in->vec > 1 || d->kind != PTX_OPD_REG)
        return NULL;
    if (in->space == PTX_SPACE_PARAM)
        return op->symbol >= 0 && op->reg < 0 && size <= 8 && ws_symbol_is_kernel_param(m, &m->symbols[op->symbol])
               ? exec_ld_kernel_param : NULL;
    if (size != 4 && size != 8)
        return NULL;
    if (widens(fn, in, size, d->reg))   /* known at decode */
        return NULL;
    if (in->space == PTX_SPACE_GLOBAL)
        return op->symbol < 0 && op->reg >= 0 && op->reg_is_64 ? exec_ld_global_run : NULL;
    return in->space == PTX_SPACE_SHARED ? exec_ld_shared_run : NULL;
}

