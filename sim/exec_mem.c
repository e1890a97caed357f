/*
 * Memory instructions: ld, ldu, st, atom, red, cvta. Each warp-level access
 * is checked lane by lane (sim/memory.c), then costed once by the memory
 * models (sim/memmodel.c): shared wavefronts and bank conflicts, global and
 * local requests and sectors. This is where the memory counters are kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_mem.h"

#include "sim/capture.h"
#include "sim/fault.h"
#include "sim/its.h"
#include "sim/memory.h"
#include "sim/timing.h"
#include "sim/memmodel.h"
#include "sim/shape.h"

/* Four lanes' addresses, written 32 bytes at a time (GNU C vector extension). */
typedef uint64_t lane_quad __attribute__((vector_size(32)));
typedef uint32_t word_quad __attribute__((vector_size(16)));   /* four 32-bit elements */

/* Lane addresses of an [address] operand, with the space each resolves to. */
WS_LANE_LOOPS static ptx_space lane_addresses(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint32_t mask,
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
WS_LANE_LOOPS static void shape_lanes(uint64_t addr[restrict WS_WARP_SIZE], uint64_t a0, uint64_t stride,
                                      uint64_t row_step, unsigned n)
{
    lane_quad step = {4 * stride, 4 * stride, 4 * stride, 4 * stride};
    for (unsigned first = 0; first < WS_WARP_SIZE; first += n, a0 += row_step) {
        lane_quad at = {a0, a0 + stride, a0 + 2 * stride, a0 + 3 * stride};
        for (unsigned q = 0; q < n; q += 4, at += step)
            memcpy(addr + first + q, &at, sizeof at);
    }
}

/* The address shape of an [address] operand: its register's shape (sim/shape.h) plus the offset,
 * cut to 32 bits for a 32-bit register. Returns 0 when it has none. */
static inline int address_shape(ws_exec *x, const ptx_operand *op, ws_shape *a)
{
    if (op->symbol >= 0 || op->reg < 0 || !ws_shape_get(x, op->reg)->known)
        return 0;
    *a = x->shape[op->reg];
    a->base += (uint64_t)op->imm;
    return op->reg_is_64 || ws_shape_narrow(a, 0, a);
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
    shape_lanes(addr, a.base, stride, a.row_step, n);
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
static void check_shaped_addresses(ws_exec *x, const ptx_instr *in, const ptx_operand *op,
                                   const uint64_t shaped[WS_WARP_SIZE])
{
    uint64_t addr[WS_WARP_SIZE];
    lane_addresses(x, in, op, WS_FULL_MASK, addr);
    if (memcmp(addr, shaped, sizeof addr) != 0) {
        fprintf(stderr, "warpsim: internal error: line %d: register %d's shape gives addresses its lanes do not hold\n",
                in->line, (int)op->reg);
        abort();
    }
}

/* The same for addresses the one-pass paths take from a shape without writing them out. */
static void check_shape_lanes(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint64_t a0, uint64_t stride,
                              uint64_t row_step, unsigned width)
{
    uint64_t shaped[WS_WARP_SIZE];
    shape_lanes(shaped, a0, stride, row_step, width);
    check_shaped_addresses(x, in, op, shaped);
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
        requested = lane_addresses(x, in, op, mask, t->addr);
    else if (l->check_shapes)
        check_shaped_addresses(x, in, op, t->addr);
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

static inline uint64_t load_bytes(const uint8_t *p, unsigned size)
{
    /* fixed-size copies: loads of the element's width, no library call (little-endian host, as the GPU) */
    switch (size) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
    default: { uint64_t v = 0; memcpy(&v, p, size); return v; }
    }
}

/* A loaded element as the destination register holds it: sign-extended for
 * signed types up to the register's width, zero-extended otherwise. */
static inline uint64_t widen(uint64_t v, ptx_type type, unsigned reg_bits)
{
    if (ptx_types[type].kind == PTX_KIND_SIGNED)
        return ws_trunc((uint64_t)ws_sext(v, ptx_types[type].size * 8), reg_bits);
    return v;
}

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
WS_LANE_LOOPS static void read_run(uint64_t r[restrict WS_WARP_SIZE], const uint8_t *first, unsigned size,
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
WS_LANE_LOOPS static void read_rows(uint64_t *restrict r, const uint8_t *bytes, uint64_t base, const uint64_t *start,
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

/* Whether a loaded element must be sign-extended into its register (the one-pass paths leave that to the
 * general one). */
static int widens(const ptx_function *fn, const ptx_instr *in, unsigned size, int32_t reg)
{
    unsigned reg_bits = ws_type_bits((ptx_type)fn->value_reg_type[reg]);
    return ptx_types[in->type].kind == PTX_KIND_SIGNED && (size == 8 ? reg_bits < 64 : reg_bits > 32);
}

/* Where a full warp's one-run global access goes (the instruction, its space, types and operands as
 * global_run checks them): its first address and step, and its allocation, when its address register's
 * shape (a run) steps forward, aligned, without wrapping, inside one allocation (a store's writable), and,
 * for a load whose lanes are more than a sector apart, when the timing model may take its sectors from a
 * list (ws_timing_load_sectors_apply). 0: it does not. */
static inline const ws_allocation *run_allocation(ws_exec *x, const ptx_operand *op, unsigned size, int is_store,
                                                  uint64_t *first, uint64_t *step)
{
    const ws_shape *s = &x->shape[op->reg];
    uint64_t a0 = s->base + (uint64_t)op->imm, stride = s->stride, a31 = a0 + 31 * stride;
    if (!ws_shape_is_run(s) || ((a0 | stride) & (size - 1)) || a31 < a0 || a31 + (size - 1) < a31)
        return NULL;
    const ws_allocation *al = ws_allocation_of(x->launch, a0, a31, size);
    if (!al || (is_store && al->read_only) ||
        (!is_store && stride > 32 && x->launch->timing && !ws_timing_load_sectors_apply(x, al)))
        return NULL;
    *first = a0;
    *step = stride;
    return al;
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

/* count_access's counters of `accesses` global accesses of `sectors` sectors in all, as
 * ws_global_access_cost_span finds them for a full warp's run (one request each, a 32-byte transaction a
 * sector), into instruction counters ic. */
static inline void count_global_runs(uint64_t *ic, uint64_t accesses, uint64_t sectors, int is_store)
{
    ic[is_store ? WS_CTR_global_st_inst : WS_CTR_global_ld_inst] += accesses;
    ic[is_store ? WS_CTR_global_st_requests : WS_CTR_global_ld_requests] += accesses;
    ic[is_store ? WS_CTR_global_st_sectors : WS_CTR_global_ld_sectors] += sectors;
    ic[WS_CTR_transactions_32b] += sectors;
    ic[WS_CTR_extra_transaction_cycles] += sectors - accesses;
}

/* count_global_runs for one warp's access. */
static void count_global(ws_exec *x, uint64_t sectors, int is_store)
{
    count_global_runs(ws_icounters(x), 1, sectors, is_store);
}

/* The sectors of a run: from the first lane's to the last's when the lanes are a sector apart at most,
 * else one a lane. */
static inline uint64_t run_sectors(uint64_t a0, uint64_t stride, unsigned size)
{
    return stride > 32 ? WS_WARP_SIZE : ((a0 + 31 * stride + size - 1) >> 5) - (a0 >> 5) + 1;
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
        check_shape_lanes(x, in, &in->operand[1], a0, stride, 0, WS_WARP_SIZE);
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
    if (stride == 0 && size == 4) {   /* one word for every lane (a matmul's row of A): read_run's, without its call */
        ws_broadcast_word(row, al->bytes + (a0 - al->base));
    } else {
        read_run(row, al->bytes + (a0 - al->base), size, stride);
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
        check_shape_lanes(x, in, op, base, stride, s->row_step, width);
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
    read_rows(r, al->bytes, al->base, start, size, stride, width);
    /* the next warp may take it from here (ws_ld_global_last) when its sectors on one line are in order */
    int again = (one_line || !l->timing) && !l->check_shapes;
    for (unsigned i = 1; again && i < n; i++)
        again = sector[i] == sector[0] + i;
    remember_load(&b->last, again ? r : NULL, s, n, one_line, sector[0], sector[n - 1]);
    return 1;
}

/* Rows `width` lanes wide of row r, each one 4-byte word broadcast, row j's at first + j * step (load_row_words_of's
 * reads). */
static inline __attribute__((always_inline)) void broadcast_rows(uint64_t *restrict r, const uint8_t *first,
                                                                 uint64_t step, const unsigned width)
{
    for (unsigned j = 0; j < WS_WARP_SIZE / width; j++, first += step) {
        uint32_t word;
        memcpy(&word, first, 4);
        lane_quad q = {word, word, word, word};
        for (unsigned lane = 0; lane < width; lane += 4)
            memcpy(r + j * width + lane, &q, sizeof q);
    }
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

/* A shaped full warp's shared access, checked: its span (from the shape), and its cost when it
 * is the commonest (ws_shared_run_cost). Returns 0 when the access is not such or not inside
 * the block's shared memory, aligned: the general path then does everything. */
static inline int shared_run_at(ws_exec *x, const ptx_operand *op, unsigned size, ws_lane_span *span,
                                ws_shared_cost *cost)
{
    ws_launch *l = x->launch;
    ws_shape a;
    if (!address_shape(x, op, &a) || a.width != WS_WARP_SIZE)
        return 0;
    uint64_t a0 = a.base, stride = a.stride, a31 = a0 + 31 * stride;
    if (stride >= (UINT64_C(1) << 32) || a31 < a0 || ((a0 | stride) & (size - 1)))
        return 0;   /* stepping backwards, or wrapping: the general path */
    *span = (ws_lane_span){.lo = a0, .hi = a31, .any_bits = a0 | stride, .stride = stride,
                           .segment_lanes = WS_WARP_SIZE};
    uint64_t limit = l->shared_size;
    if (limit < size || span->hi > limit - size || !ws_shared_run_cost(l->arch, size, span, cost))
        return 0;
    return 1;
}

/* The one address of every lane (*a0) of an address register whose shape is known and of stride 0, when it
 * lies in the block's shared memory aligned to `size` (a 32-bit register's address is its low 32 bits). */
static inline int uniform_shared_address(ws_exec *x, const ptx_operand *op, unsigned size, uint64_t *a0)
{
    if (op->symbol >= 0 || op->reg < 0 || x->launch->check_shapes)
        return 0;
    const ws_shape *s = &x->shape[op->reg];
    if (!ws_shape_is_one(s))
        return 0;
    uint64_t a = s->base + (uint64_t)op->imm, limit = x->launch->shared_size;
    *a0 = a = op->reg_is_64 ? a : (uint32_t)a;
    return !(a & (size - 1)) && limit >= size && a <= limit - size;
}

/* shared_run_at's answer for a register whose shape is known and one address (a row of a tile read along k, a
 * word at a time: the tiled matmul's As[ty][k]), without address_shape's copy and narrowing of the shape (a
 * 32-bit register's one address is its low 32 bits) nor the run's tests. 0: shared_run_at decides. */
static inline int uniform_shared_at(ws_exec *x, const ptx_operand *op, unsigned size, ws_lane_span *span,
                                    ws_shared_cost *cost)
{
    uint64_t a0;
    if (!uniform_shared_address(x, op, size, &a0))
        return 0;
    *span = (ws_lane_span){.lo = a0, .hi = a0, .any_bits = a0, .stride = 0, .segment_lanes = WS_WARP_SIZE};
    return ws_shared_run_cost(x->launch->arch, size, span, cost);
}

/* ws_ld_shared_known's commonest case on sm_50+'s 32 banks, without the span: one 4-byte word for every lane
 * (the tiled matmul's As[ty][k]), one wavefront, no conflict. uniform_shared_at (its address from
 * uniform_shared_address), ws_shared_run_cost and load_shared_access find the same (their counters, timing and elements, in that order); this took 186 host
 * instructions a warp through them. Returns 0, having done nothing, when the access is not such. */
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
        check_shape_lanes(x, in, &in->operand[1], a0, span->stride, 0, WS_WARP_SIZE);
    ws_count_shared(x, cost, 0);
    if (x->launch->timing)
        ws_timing_shared(x, a0, span->lo == span->hi, size, 0, cost->wavefronts);
    read_run(ws_row(x, in->operand[0].reg), x->block->shared + a0, size, span->stride);
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
        shape_lanes(addr, a0, stride, 0, WS_WARP_SIZE);
        ws_shared_access_cost_span(l->arch, addr, mask, size, is_store, &span, &m->cost);
    }
    if (l->check_shapes && shaped)
        check_shape_lanes(x, in, op, a0, stride, 0, WS_WARP_SIZE);
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

WS_LANE_LOOPS static void load_lanes(ws_exec *x, const ptx_instr *in, uint32_t mask);

WS_LANE_LOOPS static void load(ws_exec *x, const ptx_instr *in, uint32_t mask)
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
    load_lanes(x, in, mask);
}

/* load()'s general path (and a kernel parameter's): every lane's address resolved and checked, then read. */
WS_LANE_LOOPS static void load_lanes(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (in->operand[1].reg < 0 && load_kernel_param(x, in, mask))
        return;
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

void exec_ld(ws_exec *x, const ptx_instr *in, uint32_t mask) { load(x, in, mask); }
void exec_ldu(ws_exec *x, const ptx_instr *in, uint32_t mask) { load(x, in, mask); }

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
WS_LANE_LOOPS static void write_run(uint8_t *first, const uint64_t v[restrict WS_WARP_SIZE], unsigned size,
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
        shape_lanes(addr, a0, stride, 0, WS_WARP_SIZE);
        check_shaped_addresses(x, in, op, addr);
    }
    const uint64_t *values = ws_src(x, v, tmp);
    count_global(x, run_sectors(a0, stride, size), 1);
    if (l->timing && !ws_timing_store_run(x, al, a0, stride, size)) {
        ws_lane_span span = {.lo = a0, .hi = a31, .any_bits = a0 | stride, .stride = stride,
                             .segment_lanes = WS_WARP_SIZE};
        shape_lanes(addr, a0, stride, 0, WS_WARP_SIZE);
        ws_timing_memory(x, PTX_SPACE_GLOBAL, addr, mask, size, 1, 0, &span);
    }
    write_run(al->bytes + (a0 - al->base), values, size, stride);
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
        check_shape_lanes(x, in, op, span.lo, span.stride, 0, WS_WARP_SIZE);
    const uint64_t *values = ws_src(x, v, tmp);
    ws_count_shared(x, &cost, 1);
    if (x->launch->timing)
        ws_timing_shared(x, span.lo, span.lo == span.hi, size, 1, cost.wavefronts);
    if (x->launch->its)   /* --sched its: the warp's other lanes do not see it yet */
        ws_its_store_run(x, WS_FULL_MASK, span.lo, span.stride, values, size);
    write_run(x->block->shared + span.lo, values, size, span.stride);
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

void exec_st(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    int32_t base = in->operand[0].reg;   /* as in load() */
    if (mask == WS_FULL_MASK && base >= 0 && ws_shape_is_run(ws_shape_get(x, base)) &&
        (in->space == PTX_SPACE_GLOBAL ? store_global_run(x, in, mask)
                                       : in->space == PTX_SPACE_SHARED && store_shared_run(x, in)))
        return;
    if (mask != WS_FULL_MASK && in->space == PTX_SPACE_SHARED && store_shared_masked(x, in, mask))
        return;
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

/* ---- Atomics ---------------------------------------------------------------- */

static uint64_t atomic_apply(const ptx_instr *in, uint64_t old, uint64_t b, uint64_t c)
{
    ptx_type t = (ptx_type)in->type;
    unsigned bits = ws_type_bits(t);
    ptx_type_kind kind = ptx_types[t].kind;
    switch (in->mode) {
    case PTX_ATOM_ADD:
        if (t == PTX_F32) return ws_f32_bits(ws_f32(old) + ws_f32(b));
        if (t == PTX_F64) return ws_f64_bits(ws_f64(old) + ws_f64(b));
        return ws_trunc(old + b, bits);
    case PTX_ATOM_MIN:
    case PTX_ATOM_MAX: {
        int less;
        if (kind == PTX_KIND_SIGNED) less = ws_sext(b, bits) < ws_sext(old, bits);
        else if (t == PTX_F32) less = ws_f32(b) < ws_f32(old);
        else if (t == PTX_F64) less = ws_f64(b) < ws_f64(old);
        else less = ws_trunc(b, bits) < ws_trunc(old, bits);
        if (in->mode == PTX_ATOM_MIN) return less ? ws_trunc(b, bits) : old;
        int greater;
        if (kind == PTX_KIND_SIGNED) greater = ws_sext(b, bits) > ws_sext(old, bits);
        else if (t == PTX_F32) greater = ws_f32(b) > ws_f32(old);
        else if (t == PTX_F64) greater = ws_f64(b) > ws_f64(old);
        else greater = ws_trunc(b, bits) > ws_trunc(old, bits);
        return greater ? ws_trunc(b, bits) : old;
    }
    case PTX_ATOM_INC: return (old >= ws_trunc(b, bits)) ? 0 : old + 1;
    case PTX_ATOM_DEC: return (old == 0 || old > ws_trunc(b, bits)) ? ws_trunc(b, bits) : old - 1;
    case PTX_ATOM_EXCH: return ws_trunc(b, bits);
    case PTX_ATOM_CAS: return old == ws_trunc(b, bits) ? ws_trunc(c, bits) : old;
    case PTX_ATOM_AND: return old & b;
    case PTX_ATOM_OR: return old | b;
    case PTX_ATOM_XOR: return ws_trunc(old ^ b, bits);
    default: return old;
    }
}

/* atom d, [a], b{, c} and red [a], b: lane by lane, in lane order. */
static void atomic(ws_exec *x, const ptx_instr *in, uint32_t mask, int returns)
{
    unsigned size = ptx_types[in->type].size;
    const ptx_operand *addr_op = &in->operand[returns ? 1 : 0];
    uint64_t tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    const uint64_t *b = ws_src(x, &in->operand[returns ? 2 : 1], tb);
    const uint64_t *c = (returns && in->operand_count > 3) ? ws_src(x, &in->operand[3], tc) : b;
    uint64_t addr[WS_WARP_SIZE];
    ptx_space requested = lane_addresses(x, in, addr_op, mask, addr);
    uint64_t old_values[WS_WARP_SIZE];
    int shared = 0, faulted = 0;
    /* Blocks on other threads (--jobs) may update the same global words:
     * the warp's read-modify-writes happen under the launch's lock. */
    pthread_mutex_t *lock = requested == PTX_SPACE_SHARED ? NULL : x->launch->global_atomics;
    if (lock)
        pthread_mutex_lock(lock);
    WS_FOR_LANES(mask, lane) {
        ptx_space s = requested;
        uint8_t *p = ws_memory_access(x, in, lane, &s, &addr[lane], size, 1);
        if (!p) {
            faulted = 1;
            break;
        }
        shared |= s == PTX_SPACE_SHARED;
        uint64_t old = load_bytes(p, size);
        uint64_t nv = atomic_apply(in, old, b[lane], c[lane]);
        memcpy(p, &nv, size);
        old_values[lane] = old;
    }
    if (lock)
        pthread_mutex_unlock(lock);
    if (faulted)
        return;
    uint64_t *ic = ws_icounters(x);
    ic[shared ? WS_CTR_shared_atom_inst : returns ? WS_CTR_global_atom_inst : WS_CTR_global_red_inst]++;
    if (shared) {
        /* A shared atomic is a read-modify-write per lane: no multicast, so each bank
         * serves one pass per lane that maps to it (32 wavefronts for 32 lanes on one
         * address, as ncu counted on an H100 for programs/003_atomics). */
        uint32_t per_bank[32] = {0}, worst = 0;
        WS_FOR_LANES(mask, lane) {
            uint32_t n = ++per_bank[(addr[lane] >> 2) & 31];
            worst = n > worst ? n : worst;
        }
        ic[WS_CTR_shared_wavefronts] += worst;
        ic[WS_CTR_shared_atom_wavefronts] += worst;
        if (x->launch->capture)
            ws_capture_access(x, PTX_SPACE_SHARED, addr, mask, size, 1, worst);
        if (x->launch->timing)
            ws_timing_atomic(x, PTX_SPACE_SHARED, addr, mask, ptx_types[in->type].kind == PTX_KIND_FLOAT, worst);
    } else {
        /* Lanes on a word an earlier lane of the warp already updated: the memory
         * system applies them one after another (a histogram with one hot bin). */
        uint32_t repeats = 0, seen = 0;
        WS_FOR_LANES(mask, lane) {
            for (int k = 0; k < lane; k++)
                if ((seen >> k & 1u) && addr[k] >> 2 == addr[lane] >> 2) {
                    repeats++;
                    break;
                }
            seen |= 1u << lane;
        }
        ic[WS_CTR_global_atom_same_address] += repeats;
        if (x->launch->timing)
            ws_timing_atomic(x, PTX_SPACE_GLOBAL, addr, mask, ptx_types[in->type].kind == PTX_KIND_FLOAT, repeats);
    }
    if (returns) {
        uint64_t *d = ws_dst(x, &in->operand[0]);
        if (d)
            WS_FOR_LANES(mask, lane) d[lane] = old_values[lane];
    }
}

void exec_atom(ws_exec *x, const ptx_instr *in, uint32_t mask) { atomic(x, in, mask, 1); }
void exec_red(ws_exec *x, const ptx_instr *in, uint32_t mask) { atomic(x, in, mask, 0); }

/* ---- cvta ---------------------------------------------------------------- */

/* Generic addresses of shared and local memory are windows (sim/state.h);
 * global and const addresses are the same in both forms. */
void exec_cvta(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    uint64_t tmp[WS_WARP_SIZE];
    const uint64_t *a = ws_src(x, &in->operand[1], tmp);
    uint64_t window = in->space == PTX_SPACE_SHARED ? WS_SHARED_WINDOW
                    : in->space == PTX_SPACE_LOCAL ? WS_LOCAL_WINDOW : 0;
    unsigned bits = ws_type_bits((ptx_type)in->type);
    uint64_t *d = ws_dst(x, &in->operand[0]);
    if (!d)
        return;
    uint64_t delta = (in->flags & PTX_FLAG_TO) ? (uint64_t)0 - window : window;
    WS_FOR_LANES(mask, lane) d[lane] = ws_trunc(a[lane] + delta, bits);
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
    load(x, in, WS_FULL_MASK);
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
    load(x, in, mask);
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
 * same work in the same order; anything else goes to load(), which finds the same. A group of warps at it
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
    load(x, in, mask);
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
    load(x, in, WS_FULL_MASK);
}

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
            read_run(ws_row(x, d), x->block->shared + p[j].a0, size, p[j].stride);
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
            read_rows(row, q->al->bytes, q->al->base, start, size, q->stride, q->width);
        } else if (q->stride == 0 && size == 4) {
            ws_broadcast_word(row, first);
        } else {
            read_run(row, first, size, q->stride);
        }
    }
    count_global_runs(ic, (uint64_t)n, sectors, 0);
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
    for (int j = 0; j < n; j++) {
        uint64_t tmp[WS_WARP_SIZE];
        const ws_global_plan *q = &p[j];
        write_run(q->al->bytes + (q->a0 - q->al->base), ws_src(&w[j].exec, &in->operand[1], tmp), size, q->stride);
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
        write_run(x->block->shared + p[j].a0, values, size, p[j].stride);
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
        load(x, in, mask);
    else if (!load_shared_masked(x, in, mask))   /* load()'s partial warp (the tid < s of a reduction), directly */
        load_lanes(x, in, mask);
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
    load(x, in, mask);
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
