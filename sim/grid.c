/*
 * The grid: a launch set up once (sim/setup.c), then its blocks in linear
 * order, one after another on this thread, or taken by --jobs worker threads;
 * the launch totals summed from the per-instruction counters at the end.
 */
#include "sim/grid.h"

#include "sim/capture.h"
#include "sim/check.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sim/device_runtime.h"
#include "sim/fault.h"
#include "sim/machine.h"
#include "sim/setup.h"
#include "sim/timing_blocks.h"
#include "sim/timing_internal.h"
#include "sim/timing_result.h"
#include "sim/warp.h"

/* ---- Blocks on several threads (--jobs) -------------------------------------
 *
 * Workers take blocks in linear order from a shared counter. Each runs them on
 * a copy of the launch that owns its block, per-instruction counters, step
 * count and error; the rest (module, decoded code, global memory) is shared
 * and read-only, but for the bytes of global memory, which kernels write as
 * on the GPU: global atomics hold a lock (ws_launch.global_atomics). Each
 * worker adds its counters to the launch's when it runs out of blocks.
 *
 * The outcome is the single-threaded one: every block runs, in isolation,
 * exactly as it would alone, so the counters (integers, whose sums do not
 * depend on their order) and the block's writes are the same; a failure is
 * the one of the lowest block that fails (blocks past a failure are not
 * started), and the step budget, which counts the launch's warp-instructions
 * in block order, is applied afterwards from each block's step count. */

typedef struct {
    pthread_mutex_t lock;
    uint64_t next_block, blocks;
    uint64_t first_failure;            /* the lowest block that failed so far; UINT64_MAX: none */
    uint64_t **block_steps;            /* steps of each block that ran, in chunks of STEP_CHUNK */
    uint64_t chunk_count;
    uint64_t chunk;                    /* blocks a worker takes at a time */
    int out_of_memory;                 /* or a worker thread that could not start */
    pthread_mutex_t sums;              /* held while a worker adds its counters to the launch's */
} block_queue;

#define STEP_CHUNK 65536

typedef struct {
    ws_launch launch;                  /* this worker's copy */
    ws_block block;
    ws_launch *parent;                 /* the launch it is a copy of, whose counters it adds to */
    block_queue *queue;
    uint64_t failed_block;             /* UINT64_MAX: none */
    int failure;                       /* WS_BLOCK_FAULT, WS_BLOCK_DEADLOCK or WS_BLOCK_OUT_OF_STEPS */
    uint64_t failed_after;             /* the block's steps when it stopped */
    pthread_t thread;
} worker;

/* Whether block bi may start: none below it has failed, memory has not run out. q->lock held. */
static int startable(const block_queue *q, uint64_t bi)
{
    return bi < q->first_failure && !q->out_of_memory;
}

/* The next run of up to q->chunk consecutive blocks, [*first, *first + *count), and
 * where their step counts go; 0 when none is left. Runs, not single blocks: blocks
 * next to each other touch the same cache lines (of their buffers and of the timing
 * model's L2 map), which one thread then keeps, and the lock is taken less often. */
static int take_blocks(block_queue *q, uint64_t *first, uint64_t *count, uint64_t **steps)
{
    pthread_mutex_lock(&q->lock);
    uint64_t bi = q->next_block;
    int ok = bi < q->blocks && startable(q, bi);
    uint64_t n = ok ? q->blocks - bi : 0;
    n = n < q->chunk ? n : q->chunk;
    if (bi % STEP_CHUNK + n > STEP_CHUNK)
        n = STEP_CHUNK - bi % STEP_CHUNK;   /* within one chunk of step counts */
    if (ok && bi / STEP_CHUNK >= q->chunk_count) {
        uint64_t **table = realloc(q->block_steps, sizeof *table * (size_t)(q->chunk_count + 1));
        uint64_t *chunk = calloc(STEP_CHUNK, sizeof(uint64_t));
        if (table)
            q->block_steps = table;
        if (!table || !chunk) {
            free(chunk);
            q->out_of_memory = 1;
            ok = 0;
        } else {
            q->block_steps[q->chunk_count++] = chunk;
        }
    }
    if (ok) {
        q->next_block += n;
        *first = bi;
        *count = n;
        *steps = &q->block_steps[bi / STEP_CHUNK][bi % STEP_CHUNK];   /* chunks never move */
    }
    pthread_mutex_unlock(&q->lock);
    return ok;
}

/* startable(), for the later blocks of a run: a failure may have come since it was taken. */
static int may_start(block_queue *q, uint64_t bi)
{
    pthread_mutex_lock(&q->lock);
    int ok = startable(q, bi);
    pthread_mutex_unlock(&q->lock);
    return ok;
}

static void stop_starting(block_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->out_of_memory = 1;
    pthread_mutex_unlock(&q->lock);
}

/* A worker's own per-instruction counters and block, made on its thread rather than one worker after
 * another on the launching thread (16 workers of a 7 ms launch on the lent machine: the last one's first
 * block 2.7 ms late; 1.9 ms so, thread creation's own). 0, or -1 when out of memory. */
static int worker_setup(worker *w)
{
    const ws_launch *l = w->parent;
    ws_instr_counters **counters = calloc((size_t)l->module->function_count, sizeof *counters);
    w->launch.instr_counters = counters;
    if (!counters)
        return -1;
    for (int f = 0; f < l->module->function_count; f++)
        if (l->instr_counters[f] &&
            !(counters[f] = calloc((size_t)l->module->functions[f].instr_count + 1, sizeof(ws_instr_counters))))
            return -1;
    return ws_block_alloc(&w->launch, &w->block);
}

/* The worker's counters, steps and timing sums added to the launch's, and its memory freed: on its own
 * thread as it runs out of blocks, while others still run (the launching thread did it for every worker
 * after the last had finished: 2-2.5 ms of a 9 ms launch on the lent machine). */
static void worker_finish(worker *w)
{
    ws_launch *l = w->parent;
    pthread_mutex_lock(&w->queue->sums);
    for (int f = 0; w->launch.instr_counters && f < l->module->function_count; f++) {
        if (!w->launch.instr_counters[f])
            continue;
        for (int in = 0; in <= l->module->functions[f].instr_count; in++)
            for (int c = 0; c < WS_CTR_COUNT; c++)
                l->instr_counters[f][in][c] += w->launch.instr_counters[f][in][c];
    }
    l->steps += w->launch.steps;
    if (l->timing)
        ws_timing_add_sums(l, &w->block);
    pthread_mutex_unlock(&w->queue->sums);
    for (int f = 0; w->launch.instr_counters && f < l->module->function_count; f++)
        free(w->launch.instr_counters[f]);
    free(w->launch.instr_counters);
    w->launch.instr_counters = NULL;
    ws_block_free(&w->block);
}

/* The blocks a worker runs, until none is left or one fails. */
static void run_blocks(worker *w)
{
    block_queue *q = w->queue;
    uint64_t first, count, *steps;
    while (take_blocks(q, &first, &count, &steps)) {
        for (uint64_t bi = first; bi < first + count; bi++) {
            if (bi > first && !may_start(q, bi))
                return;
            ws_block_reset(&w->launch, &w->block, bi);
            int how = ws_run_block(&w->launch, &w->block);
            steps[bi - first] = w->block.steps;
            if (how != WS_BLOCK_DONE) {
                w->failed_block = bi;
                w->failure = how;
                w->failed_after = w->block.steps;
                pthread_mutex_lock(&q->lock);
                if (bi < q->first_failure)
                    q->first_failure = bi;
                pthread_mutex_unlock(&q->lock);
                return;
            }
        }
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    if (worker_setup(w) < 0)   /* the launch fails: the others stop at their next blocks */
        stop_starting(w->queue);
    else
        run_blocks(w);
    worker_finish(w);
    return NULL;
}

static int run_parallel(ws_launch *l, uint64_t blocks, int jobs)
{
    /* runs of consecutive blocks, short enough that every worker gets some 16 of them */
    uint64_t chunk = blocks / ((uint64_t)jobs * 16);
    block_queue q = {.blocks = blocks, .first_failure = UINT64_MAX, .chunk = chunk < 1 ? 1 : chunk > 16 ? 16 : chunk};
    pthread_mutex_t atomics;
    worker *workers = calloc((size_t)jobs, sizeof *workers);
    if (!workers || pthread_mutex_init(&q.lock, NULL) != 0) {
        free(workers);
        ws_launch_error(l, "error: cannot start %d worker threads", jobs);
        return 1;
    }
    pthread_mutex_init(&q.sums, NULL);
    pthread_mutex_init(&atomics, NULL);
    l->global_atomics = &atomics;
    /* Every copy made before any worker starts: a worker that runs out of blocks writes the launch (its
     * steps, worker_finish) */
    for (int i = 0; i < jobs; i++) {
        worker *w = &workers[i];
        w->launch = *l;
        w->launch.instr_counters = NULL;   /* its own, from worker_setup */
        w->launch.steps = 0;
        w->launch.failed = 0;
        w->launch.error[0] = 0;
        w->launch.last_allocation = NULL;
        w->launch.block = &w->block;
        w->parent = l;
        w->queue = &q;
        w->failed_block = UINT64_MAX;
    }
    int started = 0, failed = 0;
    for (int i = 0; i < jobs && !failed; i++) {
        failed = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) != 0;
        started += !failed;
    }
    if (failed)   /* let the workers that started stop at the next block */
        stop_starting(&q);
    for (int i = 0; i < started; i++)
        pthread_join(workers[i].thread, NULL);
    l->global_atomics = NULL;
    pthread_mutex_destroy(&atomics);
    pthread_mutex_destroy(&q.sums);

    /* The outcome of a single-threaded run. */
    if (failed || q.out_of_memory) {
        ws_launch_error(l, "error: out of host memory for the worker threads");
    } else if (q.first_failure == UINT64_MAX) {
        if (l->steps >= l->max_steps)
            ws_budget_error(l);
    } else {
        uint64_t k = q.first_failure, before = 0;
        for (uint64_t bi = 0; bi < k; bi++)
            before += q.block_steps[bi / STEP_CHUNK][bi % STEP_CHUNK];
        worker *w = NULL;
        for (int i = 0; i < jobs; i++)
            if (workers[i].failed_block == k)
                w = &workers[i];
        /* A fault at step f of block k is seen if the budget had not run out by
         * step f - 1; a deadlock, found after step f, if it had not by step f. */
        int fault_seen = w->failure == WS_BLOCK_FAULT ? before < l->max_steps && w->failed_after <= l->max_steps - before
                       : w->failure == WS_BLOCK_DEADLOCK ? before < l->max_steps && w->failed_after < l->max_steps - before
                       : 0;
        if (fault_seen) {
            l->failed = 1;
            memcpy(l->error, w->launch.error, sizeof l->error);
        } else {
            ws_budget_error(l);
        }
    }
    for (uint64_t c = 0; c < q.chunk_count; c++)
        free(q.block_steps[c]);
    free(q.block_steps);
    pthread_mutex_destroy(&q.lock);
    free(workers);
    return l->failed;
}

/* The timing model's state, and the occupancy it places blocks by. */
static int start_timing(ws_launch *l, const ws_launch_config *cfg, uint64_t blocks, int jobs)
{
    if (ws_timing_start(l, jobs > 1) < 0) {
        ws_launch_error(l, "error: out of host memory for the timing model");
        return -1;
    }
    ws_launch_timing *t = l->timing;
    const ws_build_timing *build = &ws_build_timings[cfg->build_o0 ? WS_BUILD_O0 : WS_BUILD_REAL];
    t->in_order = build->in_order;
    t->extra_overhead_ns = build->extra_overhead_ns;
    t->aggregates_atomics = build->aggregates_atomics;
    t->regs_estimated = cfg->regs == 0;
    t->regs = cfg->regs ? cfg->regs : ws_timing_estimate_registers(l);
    t->blocks_per_sm = ws_arch_blocks_per_sm_regs(l->arch, cfg->block[0] * cfg->block[1] * cfg->block[2],
                                                  l->shared_size, t->regs, &t->occupancy_limit);
    if (t->blocks_per_sm == 0)
        t->blocks_per_sm = 1;   /* too many registers: the GPU would refuse; time it as one block per SM */
    if (ws_block_placement_start(&t->placement, l->arch, blocks, t->blocks_per_sm) < 0) {
        ws_launch_error(l, "error: out of host memory for the timing model");
        return -1;
    }
    return 0;
}

int ws_launch_run(ws_launch *l, const ws_launch_config *cfg, ws_global_memory *global)
{
    memset(l, 0, sizeof *l);
    l->global = global;
    if (ws_launch_setup(l, cfg) < 0)
        return 1;
    uint64_t blocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    int jobs = cfg->jobs < 1 ? 1 : cfg->jobs;
    if (cfg->initcheck || cfg->racecheck || cfg->synccheck || cfg->capture || l->launches_grids)
        jobs = 1;   /* the checks, --html and the device-side launches keep their records on one thread */
    if ((uint64_t)jobs > blocks)
        jobs = (int)blocks;
    if (cfg->timing && start_timing(l, cfg, blocks, jobs) < 0)
        return 1;
    if (jobs > 1) {
        run_parallel(l, blocks, jobs);
    } else {
        ws_block block;
        if (ws_block_alloc(l, &block) < 0) {
            ws_launch_error(l, "error: out of host memory for a block of %u threads",
                            cfg->block[0] * cfg->block[1] * cfg->block[2]);
        } else {
            l->block = &block;
            for (uint64_t bi = 0; bi < blocks; bi++) {
                ws_block_reset(l, &block, bi);
                if (ws_run_block(l, &block) != WS_BLOCK_DONE)
                    break;
            }
            l->block = NULL;
            if (l->timing)
                ws_timing_add_sums(l, &block);
        }
        ws_block_free(&block);
    }
    /* Launch totals from the per-instruction counters. */
    for (int f = 0; f < l->module->function_count; f++)
        if (l->instr_counters[f])
            for (int i = 0; i < l->module->functions[f].instr_count; i++)
                for (int c = 0; c < WS_CTR_COUNT; c++)
                    l->counters[c] += l->instr_counters[f][i][c];
    if (!l->failed)
        ws_timing_finish(l);
    return l->failed ? 1 : 0;
}

void ws_launch_free(ws_launch *l)
{
    if (l->module) {
        for (int f = 0; f < l->module->function_count; f++) {
            if (l->reconverge) free(l->reconverge[f]);
            if (l->instr_counters) free(l->instr_counters[f]);
            if (l->decoded) free(l->decoded[f]);
            if (l->zeroed) free(l->zeroed[f].regs);
            if (l->shaped) free(l->shaped[f].regs);
        }
    }
    ws_timing_free(l);
    ws_capture_free(l->capture);
    ws_children_free(l->children, l->global);
    free(l->zeroed);
    free(l->zeroed_preds.regs);
    free(l->shaped);
    free(l->builtin);
    ws_race_groups_free(l->races);
    free(l->reconverge);
    free(l->decoded);
    free(l->instr_counters);
    free(l->symbol_address);
    free(l->params);
    memset(l, 0, sizeof *l);
}
