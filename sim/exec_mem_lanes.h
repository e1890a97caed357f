/*
 * sim/exec_mem_lanes.c's: a warp's memory access lane by lane (every lane's address resolved and checked, the
 * general path the one-pass ones fall back on), a run's elements read and written, and the lookups and
 * counters every path of the memory instructions shares.
 */
#ifndef WARPSIM_SIM_EXEC_MEM_LANES_H
#define WARPSIM_SIM_EXEC_MEM_LANES_H

#include <string.h>

#include "sim/exec.h"
#include "sim/memmodel.h"
#include "sim/memory.h"

/* The global allocation holding [lo, hi + bytes), or NULL. Most accesses hit
 * the allocation the previous one did: that is tried before the search. */
static inline const ws_allocation *ws_allocation_of(ws_launch *l, uint64_t lo, uint64_t hi, unsigned bytes)
{
    const ws_allocation *a = l->last_allocation;
    if (!a || lo < a->base || lo - a->base >= a->size) {
        a = ws_global_find(l->global, lo, bytes);
        if (!a)
            return NULL;
        l->last_allocation = a;
    }
    /* another GPU's memory without peer access: the checked path says so */
    return a->size >= bytes && hi - a->base <= a->size - bytes && ws_allocation_reachable(l->device_mask, a) ? a : NULL;
}

/* One 4-byte element at p for every lane of row r, inline (ws_read_run's call cost a warp as much as its stores). */
static inline void ws_broadcast_word(uint64_t r[restrict WS_WARP_SIZE], const uint8_t *p)
{
    uint32_t word;
    memcpy(&word, p, 4);
    for (int lane = 0; lane < WS_WARP_SIZE; lane++)
        r[lane] = word;
}

/* A shared access's bank conflicts: its wavefronts past the conflict-free minimum. */
static inline uint64_t ws_shared_conflicts(const ws_shared_cost *cost)
{
    return cost->wavefronts > cost->ideal_wavefronts ? cost->wavefronts - cost->ideal_wavefronts : 0;
}

/* count_access's counters of a shared access of cost `cost`. */
static inline void ws_count_shared(ws_exec *x, const ws_shared_cost *cost, int is_store)
{
    uint64_t *ic = ws_icounters(x);
    uint64_t conflicts = ws_shared_conflicts(cost);
    ic[is_store ? WS_CTR_shared_st_inst : WS_CTR_shared_ld_inst]++;
    ic[is_store ? WS_CTR_shared_st_wavefronts : WS_CTR_shared_ld_wavefronts] += cost->wavefronts;
    ic[is_store ? WS_CTR_shared_st_bank_conflicts : WS_CTR_shared_ld_bank_conflicts] += conflicts;
    ic[WS_CTR_shared_wavefronts] += cost->wavefronts;
    ic[WS_CTR_shared_conflict_cycles] += conflicts;
}

/* Count one warp-level global load of `bytes` per lane of `mask` at addr[lane]
 * (requests, sectors, the --html capture and the timing model), as ld.global. */
void ws_count_global_load(ws_exec *x, const uint64_t addr[WS_WARP_SIZE], uint32_t mask, unsigned bytes);

/* A register row copied from another: 32 lanes (out of line, its AVX2 clone the fastest copy). */
void ws_copy_row(uint64_t *restrict d, const uint64_t *restrict s);

/* The lanes' addresses of an [address] operand (for the lanes of mask), with the space they resolve to. */
ptx_space ws_lane_addresses(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint32_t mask,
                            uint64_t addr[restrict WS_WARP_SIZE]);
/* addr[lane] = a0 + (lane % n) * stride + (lane / n) * row_step (n a multiple of 4; 32: one run). */
void ws_shape_lanes(uint64_t addr[restrict WS_WARP_SIZE], uint64_t a0, uint64_t stride, uint64_t row_step,
                    unsigned n);
/* WARPSIM_CHECK_SHAPES=1: the addresses a shape gave (shaped[], or those of a0, stride, row_step and width) must be
 * those the operand's lanes hold; an internal error aborts. */
void ws_check_shaped_addresses(ws_exec *x, const ptx_instr *in, const ptx_operand *op,
                               const uint64_t shaped[WS_WARP_SIZE]);
void ws_check_shape_lanes(ws_exec *x, const ptx_instr *in, const ptx_operand *op, uint64_t a0, uint64_t stride,
                          uint64_t row_step, unsigned width);
/* The general path of ld and ldu: every lane's address resolved and checked, then read. */
void ws_load_lanes(ws_exec *x, const ptx_instr *in, uint32_t mask);
/* The general path of st: the values read, every lane's address resolved and checked, then written. */
void ws_store_lanes(ws_exec *x, const ptx_instr *in, uint32_t mask);

/* The one-pass paths' elements: lane l's of a run, size bytes at first + l * stride (stride 0: one element for
 * all); the rows of a warp 16, 8 or 4 lanes wide, row j's from bytes + (start[j] - base); lane l's value into
 * size bytes at first + l * stride, in lane order (stride 0: the last lane's stays). */
void ws_read_run(uint64_t r[restrict WS_WARP_SIZE], const uint8_t *first, unsigned size, uint64_t stride);
void ws_read_rows(uint64_t *restrict r, const uint8_t *bytes, uint64_t base, const uint64_t *start, unsigned size,
                  uint64_t stride, unsigned width);
void ws_write_run(uint8_t *first, const uint64_t v[restrict WS_WARP_SIZE], unsigned size, uint64_t stride);
/* Warp j's lane l (j < n, its row rows[j]) into 4 bytes at first + l * stride + 4 * j, lane by lane: n warps' runs
 * of words side by side (their first elements consecutive), written a line at a time. Writes as ws_write_run warp
 * after warp would where no two elements meet: stride >= 4 * n. */
void ws_write_words_across(uint8_t *first, const uint64_t *const rows[restrict], int n, uint64_t stride);

#endif
