/*
 * What --html draws beyond the counters (sim/capture.c): for each memory
 * instruction, how many wavefronts (shared) or sectors (global) its requests
 * took, as a histogram, and a few requests' 32 lane addresses to draw; for one
 * warp (--trace-warp B:W, else block 0 warp 0), its active lanes instruction by
 * instruction. Kept only when --html is on: every record is allocated when the
 * launch is set up, so the hooks (one branch per memory instruction when off)
 * never allocate, but for the traced warp's steps, which grow up to a cap.
 */
#ifndef WARPSIM_SIM_CAPTURE_H
#define WARPSIM_SIM_CAPTURE_H

#include "sim/state.h"

/* Costs per request 0..63 have a bucket each; the last counts 64 and more. */
#define WS_CAPTURE_BUCKETS 65
/* Requests kept per instruction: the first of each distinct cost, so the report can
 * draw the commonest one (a line usually has one to three costs). */
#define WS_CAPTURE_SAMPLES 4
/* The traced warp's steps kept: enough for a course kernel; the page says when cut. */
#define WS_CAPTURE_MAX_STEPS 4000

typedef struct {
    uint64_t addr[WS_WARP_SIZE];   /* shared: offsets in the block's shared memory; global: addresses */
    uint32_t mask;                 /* active lanes */
    uint32_t cost;                 /* wavefronts (shared) or sectors (global) */
    uint32_t bytes;                /* per lane */
} ws_capture_request;

typedef struct {
    uint8_t space;                 /* ptx_space of the requests (the first one seen) */
    uint8_t is_store, atomic;
    uint64_t histogram[WS_CAPTURE_BUCKETS];   /* requests by cost */
    ws_capture_request sample[WS_CAPTURE_SAMPLES];
    int samples;
} ws_capture_line;

typedef struct {
    int32_t fn, pc, rpc;           /* the instruction, and where its path merges back (-1: at exit) */
    uint32_t live;                 /* lanes that hold threads and have not exited */
    uint32_t active;               /* lanes on this path */
    uint32_t mask;                 /* of those, the ones whose guard holds */
    int32_t depth;                 /* SIMT stack depth */
} ws_capture_step;

struct ws_capture {
    ws_capture_line ***mem;        /* [fn][instr]: NULL for an instruction that does not touch memory */
    ws_capture_line **records;     /* [fn]: the records mem points into, one block per function */
    int function_count;
    int64_t trace_block;
    int trace_warp;
    ws_capture_step *steps;
    int step_count, step_capacity;
    uint64_t steps_dropped;        /* past WS_CAPTURE_MAX_STEPS */
};

/* The records of every memory instruction of the functions the launch runs (those with
 * instr_counters); trace_block < 0 traces block 0 warp 0. NULL when out of memory. */
struct ws_capture *ws_capture_new(const ws_launch *l, int64_t trace_block, int trace_warp);
void ws_capture_free(struct ws_capture *c);

/* One warp-level request of the running instruction, with its cost. */
void ws_capture_access(ws_exec *x, ptx_space space, const uint64_t addr[WS_WARP_SIZE], uint32_t mask,
                       unsigned bytes_per_lane, int is_store, uint32_t cost);
/* The traced warp is about to run instruction pc of function fn. */
void ws_capture_step_of(ws_launch *l, const ws_warp *w, int fn, int pc, uint32_t active, uint32_t mask);

/* The record of an instruction, or NULL. */
const ws_capture_line *ws_capture_line_of(const struct ws_capture *c, int fn, int pc);
/* The sample to draw: the one whose cost is the commonest (the mode of the histogram). */
const ws_capture_request *ws_capture_typical(const ws_capture_line *r);

#endif
