/*
 * The timing model: how long a launch takes on the card, predicted while the
 * functional simulation runs.
 *
 * Each warp keeps its own clock. An instruction issues when its warp is free
 * and its source registers are ready (a scoreboard of ready cycles per
 * register); its result is ready a pipe latency later, or, for a load, the
 * latency of the level that served it (L1, L2, DRAM: a per-block L1 and a
 * per-launch L2 of the sectors warpsim already counts). Barriers release
 * warps at their last arrival. That gives each block's latency-bound time.
 * Each block also leaves its demand on the SM's shared resources (issue
 * slots per sub-partition, pipes, shared-memory wavefronts, L1 bandwidth)
 * and on the chip's (L2 and DRAM bandwidth, same-address atomics). At the
 * end the blocks are placed on the SMs as occupancy allows, in waves, each
 * taking the longer of its latency path and its share of the SM; the launch
 * takes the longest SM or the chip's bandwidth bound, plus the launch
 * overhead. The stall cycles of the warps' clocks are kept per instruction
 * (counters WS_CTR_stall_*), so every source line shows where time goes.
 * sim/timing_result.c (timing_result.h) turns the records into the result.
 *
 * Off (--no-timing) it costs one test per instruction.
 */
#ifndef WARPSIM_SIM_TIMING_H
#define WARPSIM_SIM_TIMING_H

#include <stdint.h>
#include <stdio.h>

#include "sim/memmodel.h"
#include "sim/state.h"

/* Warp stall reasons, ncu's (its Warp State Statistics):
 * smsp__average_warp_latency_issue_stalled_<name>.ratio, cycles per warp over its life. */
#define WS_STALL_REASONS(X) \
    X(LONG_SCOREBOARD, "long_scoreboard", "waiting for a global or local load (L1TEX)") \
    X(SHORT_SCOREBOARD, "short_scoreboard", "waiting for shared memory, a shuffle or a transcendental (MIO)") \
    X(WAIT, "wait", "a fixed-latency dependency (arithmetic results)") \
    X(BARRIER, "barrier", "waiting at __syncthreads for the block's other warps") \
    X(BRANCH_RESOLVING, "branch_resolving", "waiting for a branch target") \
    X(MATH_PIPE_THROTTLE, "math_pipe_throttle", "an arithmetic pipe busy with other warps") \
    X(MIO_THROTTLE, "mio_throttle", "the shared-memory pipe busy with other warps") \
    X(LG_THROTTLE, "lg_throttle", "the L1 busy with other warps' global accesses") \
    X(NOT_SELECTED, "not_selected", "ready, but another warp issued") \
    X(SELECTED, "selected", "issuing")
typedef enum {
#define X(id, name, what) WS_STALL_##id,
    WS_STALL_REASONS(X)
#undef X
    WS_STALL_COUNT
} ws_stall;
extern const char *const ws_stall_names[WS_STALL_COUNT];
extern const char *const ws_stall_descriptions[WS_STALL_COUNT];

/* What the model predicts for one launch, in ncu's terms where ncu has them. */
typedef enum {
    WS_BOUND_LAUNCH, WS_BOUND_LATENCY, WS_BOUND_ISSUE, WS_BOUND_PIPE, WS_BOUND_SHARED, WS_BOUND_L1,
    WS_BOUND_L2, WS_BOUND_DRAM, WS_BOUND_ATOMIC,
    WS_BOUND_HOST,     /* pinned host memory read and written over the host link (mapped memory) */
    WS_BOUND_BLOCKS,   /* the SMs starting blocks one by one (block_launch_cycles) */
    WS_BOUND_COUNT
} ws_bound;

typedef struct {
    double duration_ns;            /* gpu__time_duration.sum */
    double cycles;                 /* the kernel's own cycles, the launch overhead excluded */
    double elapsed_cycles;         /* sm__cycles_elapsed.avg: the whole duration at the SM clock */
    double overhead_ns;            /* the launch overhead inside duration_ns */
    double bound_cycles[WS_BOUND_COUNT];   /* what each resource alone would take (launch: overhead) */
    ws_bound bound;                /* the one that decides */
    uint32_t regs;                 /* registers per thread the occupancy used */
    int regs_estimated;            /* from the PTX (1) or --regs (0) */
    uint32_t blocks_per_sm;        /* resident at once */
    const char *occupancy_limit;   /* what limits it: "threads", "registers", ... */
    double theoretical_occupancy;  /* % of the SM's warps */
    double achieved_occupancy;     /* sm__warps_active.avg.pct_of_peak_sustained_active */
    double waves;                  /* launch__waves_per_multiprocessor */
    uint64_t dram_read_bytes, dram_write_bytes;
    double l1_hit_rate, l2_hit_rate;           /* %, of the sectors looked up */
    double memory_throughput, sm_throughput;   /* % of peak over the elapsed time */
    double issue_active;           /* % of sub-partition cycles issuing */
    double stall[WS_STALL_COUNT];  /* per warp, cycles waiting for each reason (selected: issuing) */
} ws_timing_result;


/* How a build's SASS differs from the PTX (--build), measured on the H100 (validate/results:
 * smsp__inst_executed and gpu__time_duration of every course launch in both builds); its
 * issue slots per PTX instruction are sim/pipes.def's (real) or sim/sass_o0.def's (O0). */
typedef enum { WS_BUILD_REAL, WS_BUILD_O0, WS_BUILD_COUNT } ws_build;
typedef struct {
    const char *name;
    int in_order;                /* no scheduling: each instruction waits for the one before */
    uint32_t extra_overhead_ns;  /* fetching its larger code, at the start of every launch */
    int aggregates_atomics;      /* an integer atomic of the whole warp on one word becomes one update */
} ws_build_timing;
extern const ws_build_timing ws_build_timings[WS_BUILD_COUNT];

/* Whether sim/pipes.def has a line for the opcode. */
int ws_timing_pipe_known(int opcode);

/* Decode: the pipe, issue slots, fixed latency and registers of one instruction. */
void ws_timing_decode(const ws_arch *a, const ptx_function *fn, const ptx_instr *in, ws_timing_op *op);


/* After decoding a function: the short loop instruction i closes (a backward
 * branch), which ptxas unrolls; its bookkeeping (integer arithmetic, the
 * branch) folds away in all but one of the unrolled copies. */
void ws_timing_decode_loop(const ptx_function *fn, int i, ws_decoded *d);

/* Set-up and tear-down of a launch's timing state (l->timing); 0 or -1 (out of memory). `records`: blocks are
 * done out of launch order (--jobs), so each keeps a record until the grid is done. */
int ws_timing_start(ws_launch *l, int records);
void ws_timing_free(ws_launch *l);
/* A block's state, allocated with the block and reset before each block runs. */
int ws_timing_block_alloc(ws_launch *l, ws_block *b);
void ws_timing_block_reset(ws_launch *l, ws_block *b);
void ws_timing_block_free(ws_block *b);

/* ws_step() and sim/lockstep.c: before the handler runs (issue: sim/timing_issue.h), and after (results ready, below).
 * The issue step of --build O0, out of line so that the real build's stays short. */
void ws_timing_issue_o0(ws_exec *x, const ws_decoded *d, ws_frame *f, uint32_t mask);
/* The memory path: one warp-level access of `space`, lanes `mask`, already costed (shared:
 * its wavefronts); `span` the lanes' address span when the counting measured it, else NULL.
 * addr may be NULL for a full warp's global load whose span (one run, aligned) steps forward
 * by a sector at most: its sectors come from the span alone. Its shared-memory part is
 * ws_timing_shared (sim/timing_load.h, inline). */
void ws_timing_memory(ws_exec *x, ptx_space space, const uint64_t addr[WS_WARP_SIZE], uint32_t mask,
                      unsigned bytes_per_lane, int is_store, uint32_t wavefronts, const ws_lane_span *span);
/* The same for the commonest global load, a full warp's, aligned, whose lanes read every sector from byte
 * lo's to byte end's (a run stepping by a sector at most), when its allocation is one sim/timing_load.h's
 * per-sector paths leave to ws_timing_memory (ws_load_batch_applies: 0). */
void ws_timing_load_run_general(ws_exec *x, uint64_t lo, uint64_t end);
/* And for the commonest global store: a full warp's, elements of `size` bytes from a0 on, `stride` apart (a
 * multiple of size, or 0), aligned, without wrapping, inside allocation al. 0, having done nothing, when
 * the allocation takes ws_timing_memory's general path (mapped host memory, a base off a sector). */
int ws_timing_store_run(ws_exec *x, const ws_allocation *al, uint64_t a0, uint64_t stride, unsigned size);
/* ws_timing_store_run's work for an allocation whose sectors are its own (ws_sectors_own), in block timing bt, but
 * the warp's: returns the store's latency (its wait is the long scoreboard's). */
uint32_t ws_timing_store_span(const ws_launch *l, ws_block_timing *bt, const ws_allocation *al, uint64_t a0,
                              uint64_t stride, unsigned size);
/* The lines of a full warp's run whose lanes are more than a sector apart, as ws_timing_memory counts them (a
 * new one where a lane's line is not the last lane's). */
static inline unsigned ws_timing_far_lines(uint64_t a0, uint64_t stride)
{
    if (stride >= 128)
        return WS_WARP_SIZE;   /* a line a lane (a transpose's column) */
    unsigned lines = 1;
    for (int lane = 1; lane < WS_WARP_SIZE; lane++) {   /* no value carried from lane to lane: it vectorises */
        uint64_t at = a0 + (uint64_t)lane * stride;
        lines += at >> 7 != (at - stride) >> 7;   /* the line (128 bytes) of a sector: its number >> 2 */
    }
    return lines;
}
/* The sectors of such a run: one a lane, in lane order. Returns ws_timing_far_lines. */
static inline unsigned ws_timing_far_sectors(uint64_t a0, uint64_t stride, uint64_t sector[WS_WARP_SIZE])
{
    for (int lane = 0; lane < WS_WARP_SIZE; lane++)
        sector[lane] = (a0 + (uint64_t)lane * stride) >> 5;
    return ws_timing_far_lines(a0, stride);
}
/* Whether a load's sectors may be taken as a list (in any order, distinct: sim/timing_load.h's
 * ws_load_sectors) from allocation al: ws_load_batch_applies's answer without a batch. */
int ws_timing_load_sectors_apply(const ws_exec *x, const ws_allocation *al);
void ws_timing_atomic(ws_exec *x, ptx_space space, const uint64_t addr[WS_WARP_SIZE], uint32_t mask,
                      int is_float, uint32_t serial_lanes);
/* A barrier releases its warps (sim/warp.c), before they leave it. */
void ws_timing_barrier(ws_launch *l, ws_block *b, int id);
/* A block finished: sim/timing_blocks.h's ws_timing_block_done. */
/* Once the grid is done: a block struct's sums into the launch's (each worker's, or the one thread's). */
void ws_timing_add_sums(ws_launch *l, const ws_block *b);

/* What a caller of the issue and retire steps knows of the instruction, as a constant (their `kind`): the
 * tests it settles fold away. */
enum {
    WS_ISSUE_ANY,           /* nothing */
    WS_ISSUE_ARITHMETIC,    /* no memory, no branch (ws_decoded.pure) */
    WS_ISSUE_LOAD_GLOBAL,   /* an ld.global (pipe LSU) or ld.shared (SHARED): it reads memory, writes none, */
    WS_ISSUE_LOAD_SHARED,   /* neither branches nor folds (a batched load's, ws_decoded.batched_load) */
    WS_ISSUE_BRANCH,        /* a bra: pipe BRANCH, no memory */
    WS_ISSUE_BARRIER,       /* a bar.sync of an immediate barrier: pipe BARRIER, no memory, no registers, no fold */
};
static inline int ws_issue_is_load(int kind) { return kind == WS_ISSUE_LOAD_GLOBAL || kind == WS_ISSUE_LOAD_SHARED; }

/* Inline: ws_step() and sim/lockstep.c call it after every instruction, and it is a few stores.
 * `kind`: WS_ISSUE_*; `ndst_known`: op->ndst where the caller knows it as a constant (a wide form writes one
 * register), -1 otherwise. */
static inline __attribute__((always_inline)) void ws_timing_retire_of(ws_warp *w, const ws_timing_op *op, ws_frame *f,
                                                                      const int kind, const int ndst_known)
{
    uint64_t at = w->tm.issue + w->tm.latency;
    uint64_t r = at << 2 | w->tm.wait;
    const int ndst = ndst_known >= 0 ? ndst_known : op->ndst;
    for (int i = 0; i < ndst; i++)
        f->ready[(size_t)op->dst[i] << f->ready_shift] = r;
    int memory = ws_issue_is_load(kind) ? 1
               : kind != WS_ISSUE_ANY ? 0 : op->pipe == WS_PIPE_LSU || op->pipe == WS_PIPE_SHARED;
    if (memory && at > w->tm.done)
        w->tm.done = at;
}

static inline void ws_timing_retire(ws_warp *w, const ws_timing_op *op, ws_frame *f)
{
    ws_timing_retire_of(w, op, f, WS_ISSUE_ANY, -1);
}

#endif
