/*
 * The memory instructions' private helpers, inline, included by sim/exec_mem*.c alone: elements read in runs
 * of lanes, the tests that find a run, and the counters of a run's access.
 */
#ifndef WARPSIM_SIM_EXEC_MEM_HELPERS_H
#define WARPSIM_SIM_EXEC_MEM_HELPERS_H

#include <string.h>

#include "sim/exec_mem_lanes.h"
#include "sim/shape.h"
#include "sim/timing.h"

/* Four lanes' addresses, written 32 bytes at a time (GNU C vector extension). */
typedef uint64_t lane_quad __attribute__((vector_size(32)));
typedef uint32_t word_quad __attribute__((vector_size(16)));   /* four 32-bit elements */

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

/* The sectors of a run: from the first lane's to the last's when the lanes are a sector apart at most,
 * else one a lane. */
static inline uint64_t run_sectors(uint64_t a0, uint64_t stride, unsigned size)
{
    return stride > 32 ? WS_WARP_SIZE : ((a0 + 31 * stride + size - 1) >> 5) - (a0 >> 5) + 1;
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

#endif
