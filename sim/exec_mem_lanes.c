/*
 * Memory instructions lane by lane, the general path: every lane's address of an ld, ldu or st resolved and
 * checked (sim/memory.c), then the warp's access costed once by the memory models (sim/memmodel.c): shared
 * wavefronts and bank conflicts, global and local requests and sectors; this is where the memory counters
 * are kept. The one-pass paths (sim/exec_mem_runs.c, sim/exec_mem_wide.c) fall back on it, and read and write
 * their runs' elements with this file's ws_read_run, ws_read_rows and ws_write_run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_mem_lanes.h"

#include "sim/capture.h"
#include "sim/exec_mem_helpers.h"
#include "sim/fault.h"
#include "sim/its.h"
#include "sim/memory.h"
#include "sim/timing.h"
#include "sim/memmodel.h"
#include "sim/shape.h"

/* Lane addresses of an [address] operand, with the space each resolves to. */
WS_LANE_LOOPS ptx_space ws_lane_addresses(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint32_t mask,
                                           uint64_t addr[restrict WS_WARP_SIZE])
{
    ptx_space space = (ptx_space)in->space;
    if (op->symbol >= 0) {
        uint64_t base;
        ptx_space s = ws_symbol_location(x, op->symbol, &base);
        /* ld.param of a .func's parameter reads the thread's frame; [const_var] is a global address */
        space = s == PTX_SPACE_CONST ? PTX_SPACE_GLOBAL : s;
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            addr[lane] = base + (uint64_t)op->imm;
        if (op->reg >= 0) {
            const uint64_t *r = ws_row(x, op->reg);
            WS_FOR_LANES(mask, lane) addr[lane] += r[lane];
        }
        return space;
    }
    if (op->reg >= 0) {
        const uint64_t *r = ws_row(x, op->reg);
        uint64_t offset = (uint64_t)op->imm, keep = op->reg_is_64 ? UINT64_MAX : UINT64_C(0xffffffff);
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            addr[lane] = (r[lane] + offset) & keep;
    } else {
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            addr[lane] = (uint64_t)op->imm;
    }
    return space == PTX_SPACE_CONST ? PTX_SPACE_GLOBAL : space;
}

/* addr[lane] = a0 + (lane % n) * stride + (lane / n) * row_step, four lanes at a time (n a multiple of 4;
 * n = 32: one run). */
WS_LANE_LOOPS void ws_shape_lanes(uint64_t addr[restrict WS_WARP_SIZE], uint64_t a0, uint64_t stride,
                                      uint64_t row_step, unsigned n)
{
    lane_quad step = {4 * stride, 4 * stride, 4 * stride, 4 * stride};
    for (unsigned first = 0; first < WS_WARP_SIZE; first += n, a0 += row_step) {
        lane_quad at = {a0, a0 + stride, a0 + 2 * stride, a0 + 3 * stride};
        for (unsigned q = 0; q < n; q += 4, at += step)
            memcpy(addr + first + q, &at, sizeof at);
    }
}

/* The lanes' addresses of an [address] operand and their span (ws_lane_span_of's) from its
 * register's shape, without reading the register's lanes: one run, or the segments of a warp
 * in rows. Returns 0 when it has none, or when the addresses are not runs ws_lane_span_of would
 * find (a step of 2^32 or more, a run that wraps): the caller computes them. */
static int shaped_addresses(ws_exec *x, const ptx_operand *op, uint64_t addr[restrict WS_WARP_SIZE],
                            ws_lane_span *span)
{
    ws_shape a;
    if (!address_shape(x, op, &a))
        return 0;
    uint64_t stride = a.stride;
    int up = stride < (UINT64_C(1) << 32), down = -stride < (UINT64_C(1) << 32);
    if (!(up || down))
        return 0;
    unsigned n = a.width;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned first = 0; first < WS_WARP_SIZE; first += n) {   /* each segment, from its first lane to its last */
        uint64_t start = a.base + (first / n) * a.row_step, end = start + (n - 1) * stride;
        if (up ? end < start : end > start)
            return 0;
        lo = (up ? start : end) < lo ? (up ? start : end) : lo;
        hi = (up ? end : start) > hi ? (up ? end : start) : hi;
    }
    ws_shape_lanes(addr, a.base, stride, a.row_step, n);
    span->lo = lo;
    span->hi = hi;
    /* the OR of the lanes' addresses has the low bits the alignment tests look at: a power of two
     * divides every lane's address exactly when it divides lane 0's and both steps */
    span->any_bits = a.base | stride | a.row_step;
    span->stride = stride;
    span->segment_lanes = n;
    return 1;
}

/* Count one warp-level access. `space` is what the lanes resolved to; `span`
 * the lanes' span when the caller has measured it, else NULL. */
static void count_access(ws_exec *x, ptx_space space, const uint64_t addr[WS_WARP_SIZE], uint32_t mask,
                         unsigned bytes_per_lane, int is_store, const ws_lane_span *span)
{
    uint64_t *ic = ws_icounters(x);
    const ws_arch *arch = x->launch->arch;
    ws_lane_span measured;
    /* ld/st.param of a call's arguments: registers under ptxas's calling convention, not memory */
    if (x->fn->instrs[x->pc].space == PTX_SPACE_PARAM)
        return;
    if (!span && space != PTX_SPACE_LOCAL) {
        ws_lane_span_of(addr, mask, &measured);
        span = &measured;
    }
    if (space == PTX_SPACE_SHARED) {
        ws_shared_cost cost;
        ws_shared_access_cost_span(arch, addr, mask, bytes_per_lane, is_store, span, &cost);
        uint64_t conflicts = cost.wavefronts > cost.ideal_wavefronts ? cost.wavefronts - cost.ideal_wavefronts : 0;
        ic[is_store ? WS_CTR_shared_st_inst : WS_CTR_shared_ld_inst]++;
        ic[is_store ? WS_CTR_shared_st_wavefronts : WS_CTR_shared_ld_wavefronts] += cost.wavefronts;
        ic[is_store ? WS_CTR_shared_st_bank_conflicts : WS_CTR_shared_ld_bank_conflicts] += conflicts;
        ic[WS_CTR_shared_wavefronts] += cost.wavefronts;
        ic[WS_CTR_shared_conflict_cycles] += conflicts;
        if (x->launch->capture)   /* --html: one branch per memory instruction when off */
            ws_capture_access(x, space, addr, mask, bytes_per_lane, is_store, cost.wavefronts);
        if (x->launch->timing)
            ws_timing_memory(x, space, addr, mask, bytes_per_lane, is_store, cost.wavefronts, span);
        return;
    }
    if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_LOCAL)
        return;   /* parameters and constants: operands of the SASS instruction, not memory requests */
    ws_global_cost cost;
    if (space == PTX_SPACE_LOCAL) {
        /* Local memory is interleaved by 4-byte words across the lanes of a warp:
         * thread-local offset o of lane i sits at o*32 + i*size in the warp's window. */
        uint64_t phys[WS_WARP_SIZE];
        uint64_t warp_base = ((x->block->linear_index * (uint64_t)x->block->warp_count + (uint64_t)x->warp->index)
                              * x->launch->local_stack_size * WS_WARP_SIZE);
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            phys[lane] = warp_base + addr[lane] * WS_WARP_SIZE + (uint64_t)lane * bytes_per_lane;
        ws_global_access_cost(arch, phys, mask, bytes_per_lane, is_store, &cost);
        if (x->launch->timing)
            ws_timing_memory(x, space, phys, mask, bytes_per_lane, is_store, 0, NULL);
        ic[is_store ? WS_CTR_local_st_inst : WS_CTR_local_ld_inst]++;
        ic[is_store ? WS_CTR_local_st_sectors : WS_CTR_local_ld_sectors] += cost.sectors;
    } else {
        ws_global_access_cost_span(arch, addr, mask, bytes_per_lane, is_store, span, &cost);
        if (x->launch->capture)
            ws_capture_access(x, space, addr, mask, bytes_per_lane, is_store, cost.sectors);
        if (x->launch->timing)
            ws_timing_memory(x, space, addr, mask, bytes_per_lane, is_store, 0, span);
        ic[is_store ? WS_CTR_global_st_inst : WS_CTR_global_ld_inst]++;
        ic[is_store ? WS_CTR_global_st_requests : WS_CTR_global_ld_requests] += cost.requests;
        ic[is_store ? WS_CTR_global_st_sectors : WS_CTR_global_ld_sectors] += cost.sectors;
    }
    ic[WS_CTR_transactions_32b] += cost.transactions_by_size[WS_TRANSACTION_32B];
    ic[WS_CTR_transactions_64b] += cost.transactions_by_size[WS_TRANSACTION_64B];
    ic[WS_CTR_transactions_128b] += cost.transactions_by_size[WS_TRANSACTION_128B];
    if (cost.transactions > cost.requests)
        ic[WS_CTR_extra_transaction_cycles] += cost.transactions - cost.requests;
}

void ws_count_global_load(ws_exec *x, const uint64_t addr[WS_WARP_SIZE], uint32_t mask, unsigned bytes)
{
    count_access(x, PTX_SPACE_GLOBAL, addr, mask, bytes, 0, NULL);
}

/* Where a warp access lands. The fast path: every active lane inside one
 * region (a global allocation, the block's shared memory, the kernel's
 * parameters), lane l at region + (addr[l] - origin). Otherwise (local
 * memory, lanes in different spaces) a host pointer per lane. */
typedef struct {
    uint8_t *region;                  /* NULL: see where[] */
    uint64_t origin;                  /* the simulated address of region[0] */
    unsigned segment_lanes;           /* a full warp in runs of this many lanes (32, 16, 8, 4), each at
                                         addr[first] + i * stride (ws_lane_span); 0: not so */
    uint64_t stride;
    uint64_t addr[WS_WARP_SIZE];
    uint8_t *where[WS_WARP_SIZE];
} access_target;

static inline uint8_t *lane_host(const access_target *t, int lane)
{
    return t->region ? t->region + (t->addr[lane] - t->origin) : t->where[lane];
}

/* --sched its: the shared offset lane's element e lands on, or -1 where it is not shared memory. */
static inline int64_t its_shared_offset(const ws_exec *x, const access_target *t, int lane, unsigned offset)
{
    const uint8_t *p = lane_host(t, lane) + offset, *shared = x->block->shared;
    return p >= shared && p < shared + x->launch->shared_size ? (int64_t)(p - shared) : -1;
}

/* Whether an access may touch shared memory (its addresses may be generic). */
static inline int may_be_shared(const ptx_instr *in)
{
    return in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_GENERIC;
}

/* The fast path, when every lane is inside one region (or inside local
 * memory), aligned. Returns 0 when some lane needs the checked path, which
 * then faults or splits a generic access by space. */
static int access_lanes_fast(ws_exec *x, ptx_space space, access_target *t, uint32_t mask, unsigned bytes,
                             int is_store, const ws_lane_span *shaped)
{
    ws_launch *l = x->launch;
    ws_lane_span span;
    if (shaped)
        span = *shaped;
    else
        ws_lane_span_of(t->addr, mask, &span);
    uint64_t lo = span.lo, hi = span.hi;
    if (span.any_bits & (bytes - 1))   /* access sizes are powers of two */
        return 0;
    uint8_t *base;
    uint64_t origin, limit;
    switch (space) {
    case PTX_SPACE_GENERIC:
        if (lo < WS_GLOBAL_BASE)   /* the shared and local windows lie below global memory */
            return 0;
        space = PTX_SPACE_GLOBAL;
        /* fall through */
    case PTX_SPACE_GLOBAL: {
        const ws_allocation *a = ws_allocation_of(l, lo, hi, bytes);
        if (!a || (is_store && a->read_only))
            return 0;
        base = a->bytes, origin = a->base, limit = a->size;
        break;
    }
    case PTX_SPACE_SHARED:
        base = x->block->shared, origin = 0, limit = l->shared_size;
        break;
    case PTX_SPACE_LOCAL:
        base = x->warp->local, origin = 0, limit = l->local_stack_size;
        break;
    case PTX_SPACE_PARAM:
        if (is_store)
            return 0;
        base = l->params, origin = 0, limit = l->kernel->param_size;
        break;
    default:
        return 0;
    }
    if (limit < bytes || lo < origin || hi - origin > limit - bytes)
        return 0;
    if (space == PTX_SPACE_LOCAL) {
        /* each thread's local memory is its own: lane l's at base + l * limit */
        t->region = NULL;
        WS_FOR_LANES(mask, lane) t->where[lane] = base + (uint64_t)lane * limit + t->addr[lane];
        count_access(x, space, t->addr, mask, bytes, is_store, NULL);
    } else {
        t->region = base;
        t->origin = origin;
        t->segment_lanes = span.segment_lanes;
        t->stride = span.stride;
        count_access(x, space, t->addr, mask, bytes, is_store, &span);
    }
    return 1;
}

/* WARPSIM_CHECK_SHAPES=1: the addresses a shape gave must be those of the lanes. */
void ws_check_shaped_addresses(ws_exec *x, const ptx_instr *in, const ptx_operand *op,
                                   const uint64_t shaped[WS_WARP_SIZE])
{
    uint64_t addr[WS_WARP_SIZE];
    ws_lane_addresses(x, in, op, WS_FULL_MASK, addr);
    if (memcmp(addr, shaped, sizeof addr) != 0) {
        fprintf(stderr, "warpsim: internal error: line %d: register %d's shape gives addresses its lanes do not hold\n",
                in->line, (int)op->reg);
        abort();
    }
}

/* The same for addresses the one-pass paths take from a shape without writing them out. */
void ws_check_shape_lanes(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint64_t a0, uint64_t stride,
                              uint64_t row_step, unsigned width)
{
    uint64_t shaped[WS_WARP_SIZE];
    ws_shape_lanes(shaped, a0, stride, row_step, width);
    ws_check_shaped_addresses(x, in, op, shaped);
}

/* Resolve and check every lane; where each lands comes back in *t.
 * Lanes of a generic access may land in different spaces: each space is counted apart. */
static int access_lanes(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint32_t mask, unsigned bytes,
                        int is_store, access_target *t)
{
    ws_launch *l = x->launch;
    ws_lane_span span;
    int checked = l->initcheck || l->racecheck;   /* every lane through ws_memory_access, where the checks are */
    int shaped = mask == WS_FULL_MASK && !checked && shaped_addresses(x, op, t->addr, &span);
    ptx_space requested = (ptx_space)in->space == PTX_SPACE_CONST ? PTX_SPACE_GLOBAL : (ptx_space)in->space;
    if (!shaped)
        requested = ws_lane_addresses(x, in, op, mask, t->addr);
    else if (l->check_shapes)
        ws_check_shaped_addresses(x, in, op, t->addr);
    if (!checked && access_lanes_fast(x, requested, t, mask, bytes, is_store, shaped ? &span : NULL))
        return 0;
    t->region = NULL;
    uint32_t by_space[PTX_SPACE_COUNT] = {0};
    uint64_t resolved[WS_WARP_SIZE];
    WS_FOR_LANES(mask, lane) {
        ptx_space s = requested;
        resolved[lane] = t->addr[lane];   /* counted by its address in the space it resolves to */
        t->where[lane] = ws_memory_access(x, in, lane, &s, &resolved[lane], bytes, is_store);
        if (!t->where[lane])
            return -1;
        by_space[s] |= 1u << lane;
    }
    for (int s = 0; s < PTX_SPACE_COUNT; s++)
        if (by_space[s])
            count_access(x, (ptx_space)s, resolved, by_space[s], bytes, is_store, NULL);
    return 0;
}

/* ld's general path (sim/exec_mem_runs.c's ws_load falls back on it): every lane's address resolved and checked,
 * then read. */
WS_LANE_LOOPS void ws_load_lanes(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    unsigned size = ptx_types[in->type].size, n = in->vec ? in->vec : 1;
    int is_signed = ptx_types[in->type].kind == PTX_KIND_SIGNED;
    access_target t;
    t.segment_lanes = 0;
    if (access_lanes(x, in, &in->operand[1], mask, size * n, 0, &t) < 0)
        return;
    const ptx_operand *d = &in->operand[0];
    for (unsigned e = 0; e < n; e++) {
        int reg = d->kind == PTX_OPD_VEC ? d->regs[e] : (e == 0 && d->kind == PTX_OPD_REG ? d->reg : -1);
        if (reg < 0)
            continue;   /* a sink */
        /* the register's width matters only to a signed element (sign extension) */
        unsigned reg_bits = is_signed ? ws_type_bits((ptx_type)x->fn->value_reg_type[reg]) : 64;
        uint64_t *r = ws_row(x, reg);
        if (t.region && mask == WS_FULL_MASK &&
            ((size == 8 && (!is_signed || reg_bits >= 64)) || (size == 4 && (!is_signed || reg_bits <= 32)))) {
            /* The common case: a full warp in one region, nothing to widen.
             * Lane l's bytes are at host address `host + addr[l]`. */
            uintptr_t host = (uintptr_t)t.region + e * size - (uintptr_t)t.origin;
            const uint64_t *addr = t.addr;
            const uint8_t *first = (const uint8_t *)(host + (uintptr_t)addr[0]);
            /* Runs of 32 or 16 lanes (a 16 x 16 block's two rows): each half-warp starts at
             * its first lane's element, lane 16's being the second's. */
            unsigned run = t.segment_lanes;
            const uint8_t *second = (const uint8_t *)(host + (uintptr_t)addr[WS_WARP_SIZE / 2]);
            if (run >= WS_WARP_SIZE / 2 && t.stride == 0) {   /* each half-warp reads one element */
                uint64_t v0 = load_bytes(first, size), v1 = load_bytes(second, size);
                for (int lane = 0; lane < WS_WARP_SIZE / 2; lane++)
                    r[lane] = v0, r[lane + WS_WARP_SIZE / 2] = v1;
            } else if (run >= WS_WARP_SIZE / 2 && t.stride == size && size == 4) {   /* consecutive elements */
                /* widened straight from memory (a copy to a stack row first stalls the wide loads after it) */
                for (int lane = 0; lane < WS_WARP_SIZE / 2; lane++) {
                    uint32_t v0, v1;
                    memcpy(&v0, first + 4 * lane, 4);
                    memcpy(&v1, second + 4 * lane, 4);
                    r[lane] = v0, r[lane + WS_WARP_SIZE / 2] = v1;
                }
            } else if (run == WS_WARP_SIZE && t.stride == size) {
                memcpy(r, first, WS_WARP_SIZE * sizeof *r);
            } else if (size == 4) {
                for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
                    uint32_t v;
                    memcpy(&v, (const uint8_t *)(host + (uintptr_t)addr[lane]), 4);
                    r[lane] = v;
                }
            } else {
                for (int lane = 0; lane < WS_WARP_SIZE; lane++)
                    memcpy(&r[lane], (const uint8_t *)(host + (uintptr_t)addr[lane]), 8);
            }
        } else if (is_signed) {
            WS_FOR_LANES(mask, lane)
                r[lane] = widen(load_bytes(lane_host(&t, lane) + e * size, size), (ptx_type)in->type, reg_bits);
        } else if (size == 4) {   /* without a variable-size copy */
            WS_FOR_LANES(mask, lane) {
                uint32_t v;
                memcpy(&v, lane_host(&t, lane) + e * 4, 4);
                r[lane] = v;
            }
        } else if (size == 8) {
            WS_FOR_LANES(mask, lane) memcpy(&r[lane], lane_host(&t, lane) + e * 8, 8);
        } else {
            WS_FOR_LANES(mask, lane) r[lane] = load_bytes(lane_host(&t, lane) + e * size, size);
        }
        if (x->warp->its.count && may_be_shared(in)) {
            /* --sched its: a lane reads what its group sees where the warp holds stores back */
            WS_FOR_LANES(mask, lane) {
                int64_t off = its_shared_offset(x, &t, lane, e * size);
                uint8_t bytes[8];
                if (off < 0)
                    continue;
                memcpy(bytes, lane_host(&t, lane) + e * size, size);
                if (ws_its_view(x, lane, (uint64_t)off, bytes, size)) {
                    uint64_t v = load_bytes(bytes, size);
                    r[lane] = is_signed ? widen(v, (ptx_type)in->type, reg_bits) : v;
                }
            }
        }
    }
}

void ws_store_lanes(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    unsigned size = ptx_types[in->type].size, n = in->vec ? in->vec : 1;
    access_target t;
    /* Read the values first: a store's source may be written by nothing else, but keep the order of the hardware. */
    uint64_t values[PTX_MAX_VEC][WS_WARP_SIZE], tmp[WS_WARP_SIZE];
    const ptx_operand *v = &in->operand[1];
    for (unsigned e = 0; e < n; e++) {
        if (v->kind == PTX_OPD_VEC) {
            ptx_operand one = {.kind = v->regs[e] >= 0 ? PTX_OPD_REG : PTX_OPD_IMM, .reg = v->regs[e], .symbol = -1};
            memcpy(values[e], ws_src(x, &one, tmp), sizeof values[e]);
        } else {
            memcpy(values[e], ws_src(x, v, tmp), sizeof values[e]);
        }
    }
    if (access_lanes(x, in, &in->operand[0], mask, size * n, 1, &t) < 0)
        return;
    if (x->launch->its && may_be_shared(in)) {   /* --sched its: the warp's other lanes do not see it yet */
        if (t.region == x->block->shared && (size == 4 || size == 8))
            for (unsigned e = 0; e < n; e++)
                ws_its_store_lanes(x, mask, t.addr, e * size, values[e], size);
        else
            for (unsigned e = 0; e < n; e++)
                WS_FOR_LANES(mask, lane) {
                    int64_t off = its_shared_offset(x, &t, lane, e * size);
                    if (off >= 0)
                        ws_its_store(x, lane, (uint64_t)off, lane_host(&t, lane) + e * size,
                                     (const uint8_t *)&values[e][lane], size);
                }
    }
    for (unsigned e = 0; e < n; e++) {
        if (t.region && size == 4) {
            uint8_t *region = t.region + e * 4;
            WS_FOR_LANES(mask, lane) memcpy(region + (t.addr[lane] - t.origin), &values[e][lane], 4);
        } else {
            WS_FOR_LANES(mask, lane) memcpy(lane_host(&t, lane) + e * size, &values[e][lane], size);
        }
    }
}

/* ---- A run's elements (the one-pass paths') -------------------------------------------------- */

/* Lane l's element of a row of n lanes: size bytes at first + l * stride. One element for all and consecutive
 * elements (a 16x16 block's rows of A and of B in a matmul) have loops of their own, which vectorise. */
static inline __attribute__((always_inline)) void read_run_lanes(uint64_t *restrict r, const uint8_t *first,
                                                                 unsigned size, uint64_t stride, unsigned n)
{
    if (stride == 0) {
        uint64_t v = load_bytes(first, size);
        lane_quad q = {v, v, v, v};
        for (unsigned lane = 0; lane + 4 <= n; lane += 4)   /* n: 32, 16, 8 or 4 */
            memcpy(r + lane, &q, sizeof q);
    } else if (size == 8) {
        for (unsigned lane = 0; lane < n; lane++)
            memcpy(&r[lane], first + lane * stride, 8);
    } else if (stride == 4 && n % 4 == 0) {   /* four lanes at a time, widened in vector registers */
        for (unsigned lane = 0; lane < n; lane += 4) {
            word_quad v;
            memcpy(&v, first + 4 * lane, sizeof v);
            lane_quad w = __builtin_convertvector(v, lane_quad);
            memcpy(r + lane, &w, sizeof w);
        }
    } else {
#pragma GCC unroll 8   /* a column's words (the transposes' tile): the loop's own steps were half its work */
        for (unsigned lane = 0; lane < n; lane++) {
            uint32_t v;
            memcpy(&v, first + lane * stride, 4);
            r[lane] = v;
        }
    }
}

/* Lane l's element of a run: size bytes at first + l * stride (stride 0: one element for all). The commonest
 * cases repeat read_run_lanes's with the count known, which this AVX2 clone widens best: calling it for them
 * instead costs 1-1.5% host instructions on the matmuls (measured 2026-11-25). */
WS_LANE_LOOPS void ws_read_run(uint64_t r[restrict WS_WARP_SIZE], const uint8_t *first, unsigned size,
                                   uint64_t stride)
{
    if (stride == 0) {
        uint64_t v = load_bytes(first, size);
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            r[lane] = v;
    } else if (size == 4 && stride == 4) {
        for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
            uint32_t v;
            memcpy(&v, first + 4 * lane, 4);
            r[lane] = v;
        }
    } else if (size == 8 && stride == 8) {
        memcpy(r, first, WS_WARP_SIZE * sizeof *r);
    } else {
        read_run_lanes(r, first, size, stride, WS_WARP_SIZE);
    }
}

/* The rows of load_rows's warp: row j's `width` lanes from bytes + (start[j] - base), read_run_lanes's with the
 * width known, so that its loops unroll (and widen in the AVX2 clone): a 16x16 block's broadcast rows of a
 * matmul's A took 26 host instructions a row in a loop over a width not known. */
WS_LANE_LOOPS void ws_read_rows(uint64_t *restrict r, const uint8_t *bytes, uint64_t base, const uint64_t *start,
                                    unsigned size, uint64_t stride, unsigned width)
{
    switch (width) {
    case 16:
        for (unsigned j = 0; j < 2; j++)
            read_run_lanes(r + j * 16, bytes + (start[j] - base), size, stride, 16);
        break;
    case 8:
        for (unsigned j = 0; j < 4; j++)
            read_run_lanes(r + j * 8, bytes + (start[j] - base), size, stride, 8);
        break;
    default:
        for (unsigned j = 0; j < WS_WARP_SIZE / width; j++)
            read_run_lanes(r + j * width, bytes + (start[j] - base), size, stride, width);
        break;
    }
}

/* A register row copied from another (a batch's repeated load, ws_ld_global_last, ws_ld_shared_batch): out
 * of line, four lanes a move, which its AVX2 clone makes 32-byte moves (17 host instructions; memcpy's
 * inline copy, 16 bytes a move, 33; the baseline's, 8 bytes a move, some 44). */
#if defined(__GNUC__) && !defined(__clang__)
/* out of line, and not made back into a memcpy */
#define COPY_LOOP __attribute__((noinline, optimize("no-tree-loop-distribute-patterns")))
#else
#define COPY_LOOP __attribute__((noinline))
#endif
WS_LANE_LOOPS COPY_LOOP void ws_copy_row(uint64_t *restrict d, const uint64_t *restrict s)
{
    for (int lane = 0; lane < WS_WARP_SIZE; lane += 4) {
        lane_quad q;
        memcpy(&q, s + lane, sizeof q);
        memcpy(d + lane, &q, sizeof q);
    }
}

/* Lane l's low 32 bits at first + l * stride, in lane order: inline, so that a constant stride vectorises. */
static inline __attribute__((always_inline)) void write_words(uint8_t *first, const uint64_t v[restrict WS_WARP_SIZE],
                                                              uint64_t stride)
{
#pragma GCC unroll 8   /* as read_run_lanes's column */
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        uint32_t low = (uint32_t)v[lane];
        memcpy(first + lane * stride, &low, 4);
    }
}

/* Lane l's value into size bytes at first + l * stride, in lane order (stride 0: the last lane's stays). */
WS_LANE_LOOPS void ws_write_run(uint8_t *first, const uint64_t v[restrict WS_WARP_SIZE], unsigned size,
                                    uint64_t stride)
{
    if (stride == 0) {
        memcpy(first, &v[WS_WARP_SIZE - 1], size);
    } else if (size == 4 && stride == 4) {
        write_words(first, v, 4);   /* a row of words: the stride known, the loop narrows in vectors */
    } else if (size == 4) {
        write_words(first, v, stride);
    } else {
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            memcpy(first + lane * stride, &v[lane], 8);
    }
}

/* Warp j's lane l (j < n, its row rows[j]) into 4 bytes at first + l * stride + 4 * j, lane by lane: a line of the
 * n warps' words at a time where warp by warp each lane's would be a line of its own (a column store; at the
 * transposes' 4 KiB stride every line in one set of the host's L1). From warp `from` on. */
static void write_words_across_from(uint8_t *first, const uint64_t *const rows[restrict], int from, int n,
                                    uint64_t stride)
{
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        uint8_t *line = first + lane * stride;
        for (int j = from; j < n; j++) {
            uint32_t low = (uint32_t)rows[j][lane];
            memcpy(line + 4 * j, &low, 4);
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The same for warps in fours, four lanes at a time: four warps' rows of four 64-bit lanes turned into each lane's
 * four low words, one 16-byte store a lane (some 1.2 host instructions an element where one at a time takes 5).
 * Returns the warps done (a multiple of 4). */
__attribute__((target("avx2"))) static int write_words_across_fours(uint8_t *first, const uint64_t *const rows[],
                                                                    int n, uint64_t stride)
{
    int fours = n & ~3;
    for (int j = 0; j < fours; j += 4)
        for (int lane = 0; lane < WS_WARP_SIZE; lane += 4) {
            __m256 a = _mm256_loadu_ps((const float *)(rows[j] + lane));
            __m256 b = _mm256_loadu_ps((const float *)(rows[j + 1] + lane));
            __m256 c = _mm256_loadu_ps((const float *)(rows[j + 2] + lane));
            __m256 d = _mm256_loadu_ps((const float *)(rows[j + 3] + lane));
            /* each half: a's and b's low words of its two lanes, then c's and d's */
            __m256 ab = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
            __m256 cd = _mm256_shuffle_ps(c, d, _MM_SHUFFLE(2, 0, 2, 0));
            /* lanes 0 and 2 (even), 1 and 3 (odd): a b c d each */
            __m256 even = _mm256_shuffle_ps(ab, cd, _MM_SHUFFLE(2, 0, 2, 0));
            __m256 odd = _mm256_shuffle_ps(ab, cd, _MM_SHUFFLE(3, 1, 3, 1));
            uint8_t *line = first + (uint64_t)lane * stride + 4 * (uint64_t)j;
            _mm_storeu_ps((float *)line, _mm256_castps256_ps128(even));
            _mm_storeu_ps((float *)(line + stride), _mm256_castps256_ps128(odd));
            _mm_storeu_ps((float *)(line + 2 * stride), _mm256_extractf128_ps(even, 1));
            _mm_storeu_ps((float *)(line + 3 * stride), _mm256_extractf128_ps(odd, 1));
        }
    return fours;
}
#endif

void ws_write_words_across(uint8_t *first, const uint64_t *const rows[restrict], int n, uint64_t stride)
{
    int done = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2"))
        done = write_words_across_fours(first, rows, n, stride);
#endif
    if (done < n)
        write_words_across_from(first, rows, done, n, stride);
}
