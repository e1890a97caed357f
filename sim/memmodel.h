/*
 * Memory models: what one warp-level shared or global access costs on a given
 * architecture, in the units Nsight Compute reports (wavefronts, sectors,
 * requests) or, for the pre-Maxwell presets, in the units of the CUDA
 * programming guide of their time (transactions of 32/64/128 bytes).
 *
 * These are pure functions of the addresses: no state, no allocation. The
 * executor calls them once per memory instruction.
 *
 * addr[i] is lane i's byte address (for a vector access, ld.v4.f32 with
 * bytes_per_lane = 16, the address of its first byte). Lanes outside
 * active_mask are ignored; a zero mask costs nothing (all fields 0).
 * bytes_per_lane is the access width, 1 to 16 (PTX has nothing wider for
 * shared memory); up to 32 is accepted, wider is counted as 32, 0 costs
 * nothing.
 */
#ifndef WARPSIM_SIM_MEMMODEL_H
#define WARPSIM_SIM_MEMMODEL_H

#include <stdint.h>

#include "sim/arch.h"

/* How the active lanes' addresses lie, measured once per warp access (the
 * executor's bounds check and both cost models use it).
 *
 * A full warp usually steps through memory by a constant stride, or does so
 * in segments: a warp of a 16 x 16 block is two rows of 16 lanes, each row
 * at its own address but with the same step. segment_lanes says so: the
 * lanes split into runs of that many (32, 16, 8 or 4), each run going
 * addr[first] + i * stride without wrapping around. 0: no such structure
 * (or not a full warp). */
typedef struct {
    uint64_t lo, hi;        /* the lowest and highest lane address */
    uint64_t any_bits;      /* every lane address ORed: a low bit set means some lane is misaligned */
    uint64_t stride;        /* the step within a segment (two's complement), below 2^32 in magnitude */
    unsigned segment_lanes; /* 32: one affine run; 16, 8, 4: runs of that many; 0: none */
} ws_lane_span;

void ws_lane_span_of(const uint64_t addr[32], uint32_t active_mask, ws_lane_span *out);

/* The lanes whose accesses are every lane's of mask: the first segment's when a full warp's segments (span's, NULL:
 * none known) all start at one address, so that each row reads what the first does (a column read by the rows of a
 * 2D block: 004_matmul's 8x8 blocks, whose sectors the general paths otherwise sought lane by lane among 32); else
 * mask. */
static inline uint32_t ws_rows_alike(const uint64_t addr[32], uint32_t mask, const ws_lane_span *span)
{
    if (mask != UINT32_MAX || !span || span->segment_lanes == 0 || span->segment_lanes == 32)
        return mask;
    unsigned width = span->segment_lanes;
    for (unsigned first = width; first < 32; first += width)
        if (addr[first] != addr[0])
            return mask;
    return (UINT32_C(1) << width) - 1;
}

typedef struct {
    uint32_t wavefronts;        /* passes the banks need (ncu: smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared);
                                   on cc 1.x the slides' "cycles", summed over half-warps */
    uint32_t ideal_wavefronts;  /* the conflict-free minimum for this width and these lanes;
                                   bank conflicts = wavefronts - ideal_wavefronts (never negative) */
} ws_shared_cost;

void ws_shared_access_cost(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                           unsigned bytes_per_lane, int is_store, ws_shared_cost *out);
/* The commonest case from the span alone: a full warp of aligned accesses of 4 bytes or fewer,
 * one affine run, on sm_50+'s 32 banks. Returns 0 (*out untouched) for anything else. Inline: every
 * one-pass shared access takes it. */
static inline int ws_shared_run_cost(const ws_arch *a, unsigned bytes, const ws_lane_span *span, ws_shared_cost *out)
{
    if (a->shared_model != SHARED_MODEL_MODERN || a->shared_banks != 32 || bytes > 4 || span->segment_lanes != 32 ||
        (span->any_bits & (bytes - 1)))
        return 0;
    uint64_t last = span->hi + (bytes - 1);
    if (last < span->hi)
        return 0;
    uint32_t wavefronts;
    if ((last >> 2) - (span->lo >> 2) < 32) {
        wavefronts = 1;
    } else if (!(span->stride & 3)) {
        uint64_t s = ((int64_t)span->stride < 0 ? -span->stride : span->stride) >> 2;   /* its magnitude, in words */
        uint64_t gcd = (s & -s) < 32 ? (s & -s) : 32;
        wavefronts = (uint32_t)gcd;   /* 32 banks: 32 / (32 / gcd) lanes per bank */
    } else {
        return 0;
    }
    out->wavefronts = wavefronts;
    out->ideal_wavefronts = 1;
    return 1;
}
/* The same for a partial warp's aligned accesses of 4 bytes or fewer (8 for a load), on sm_50+'s 32 banks, whose
 * active lanes lie between lo and hi (their lowest and highest address) inside 32 words: one wavefront, the
 * ideal (ws_shared_access_cost_span finds them in one phase, its units closer together than the banks are
 * many). Returns 0 (*out untouched) for anything else. */
static inline int ws_shared_span_cost(const ws_arch *a, unsigned bytes, int is_store, uint64_t lo, uint64_t hi,
                                      ws_shared_cost *out)
{
    uint64_t last = hi + (bytes - 1);
    if (a->shared_model != SHARED_MODEL_MODERN || a->shared_banks != 32 || bytes == 0 || bytes > (is_store ? 4u : 8u) ||
        last < hi || (last >> 2) - (lo >> 2) >= 32)
        return 0;
    out->wavefronts = 1;
    out->ideal_wavefronts = 1;
    return 1;
}
/* The same, with the lanes' span already measured (span of active_mask). */
void ws_shared_access_cost_span(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                                unsigned bytes_per_lane, int is_store, const ws_lane_span *span,
                                ws_shared_cost *out);

enum { WS_TRANSACTION_32B, WS_TRANSACTION_64B, WS_TRANSACTION_128B };

typedef struct {
    uint32_t requests;      /* sm_50+: 1 per warp-level instruction with any active lane. Fermi/Kepler:
                               the 128-byte requests the guide splits a wide access into (1, 2 or 4);
                               cc 1.x: half-warps with an active lane */
    uint32_t sectors;       /* distinct aligned sector_bytes (32) sectors holding a byte an active lane accesses */
    uint32_t lines;         /* distinct aligned line_bytes (128) lines likewise */
    uint32_t transactions;  /* memory transactions issued; = sectors on sm_50+ */
    uint32_t transactions_by_size[3]; /* transactions of 32, 64 and 128 bytes (WS_TRANSACTION_*);
                                         they always sum to transactions */
} ws_global_cost;

void ws_global_access_cost(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                           unsigned bytes_per_lane, int is_store, ws_global_cost *out);
void ws_global_access_cost_span(const ws_arch *a, const uint64_t addr[32], uint32_t active_mask,
                                unsigned bytes_per_lane, int is_store, const ws_lane_span *span,
                                ws_global_cost *out);

#endif
