/*
 * The real build's issue and retire steps (sim/timing_issue.h, sim/timing.h) for a wide group's warps
 * (sim/lockstep.c), four at a time in AVX2 registers: arithmetic instructions, every lane active, one
 * destination each, one or a run of them (ws_timing_wide_issue_run: the warps' clocks read and stored once for
 * the run; ws_timing_wide_issue_run_loads: with shared and global loads among them, whose elements were read
 * before, a global load's L1 and L2 looked up at each warp's issue cycle); and a load group's issue steps alone
 * (ws_timing_wide_issue_load). The warps' clocks stay where
 * they are (each warp's ws_warp_timing, its kernel frame's ready cycles); four warps' fields are loaded one by
 * one into a vector and the results stored warp by warp (AVX2's gathers, one instruction each for callgrind,
 * cost this project's AMD VM 15% of the naive matmul's seconds and 10% of the tiled one's: bench/README.md,
 * eighteenth steps). The same values as ws_timing_issue_scheduled and ws_timing_retire_of give each warp in
 * turn: only sums (slots, stalls) are added in another order.
 */
#include "sim/timing_wide.h"

#include "sim/timing_issue.h"

#if WS_TIMING_WIDE_AVX2
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* Four consecutive warps' `field` of ws_warp (an unsigned integer of 64 bits at most), from warp w on. */
#define FOUR_FIELDS(w, field) \
    _mm256_setr_epi64x((long long)(w)[0].field, (long long)(w)[1].field, (long long)(w)[2].field, \
                       (long long)(w)[3].field)

/* The sum of four 64-bit lanes. */
AVX2 static inline uint64_t lanes_sum(__m256i v)
{
    __m128i half = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(half, _mm_unpackhi_epi64(half, half)));
}

/* One instruction's sums over groups of four warps, a lane each: issue slots, and stalls in all and on a
 * short or long scoreboard (the rest waited on fixed latencies). */
typedef struct {
    __m256i slots, stall, stall_short, stall_long;
} four_sums;

/* A four_sums added into s (ws_issue_sums: sim/timing_issue.h). */
AVX2 static inline void add_sums(ws_issue_sums *s, const four_sums *f)
{
    uint64_t stalls = lanes_sum(f->stall), stalls_short = lanes_sum(f->stall_short);
    uint64_t stalls_long = lanes_sum(f->stall_long);
    s->slots += lanes_sum(f->slots);
    s->stalls[WS_WAIT_FIXED] += stalls - stalls_short - stalls_long;
    s->stalls[WS_WAIT_SHORT] += stalls_short;
    s->stalls[WS_WAIT_LONG] += stalls_long;
}

/* Each lane's issue slots (slots) to its warps' sub-partition, the first warp's index first_index. */
AVX2 static inline void add_issued(ws_block_timing *bt, __m256i slots, uint32_t first_index, uint32_t subpartitions)
{
    if (subpartitions == 4 && first_index % 4 == 0) {   /* lane j's warps on sub-partition j (the commonest) */
        __m256i *issued = (__m256i *)bt->issued;
        _mm256_storeu_si256(issued, _mm256_add_epi64(_mm256_loadu_si256(issued), slots));
    } else {
        uint64_t v_slots[4];
        _mm256_storeu_si256((__m256i *)v_slots, slots);
        for (int j = 0; j < 4; j++)   /* lane j's warps are all on one sub-partition: their count divides 4 */
            bt->issued[(first_index + (uint32_t)j) & (subpartitions - 1)] += v_slots[j];
    }
}

/* ws_timing_issue_scheduled's step for four warps at op, taking `slots` issue slots each: their clocks *now and
 * *block_end move on, their operands' ready cycles are read from the four words at at + (r << shift) for register
 * r (four consecutive warps' kernel frames: ws_block.kernel_ready's rows) (`nsrc` of them where >= 0, else
 * op->nsrc), `ready` is where they may issue before those (their clocks, or later: a load's wait for a store).
 * Returns the cycle each issues at; *wait, what it waited on; *kinds or's the operands' ready words in (the
 * loads whose results are used). */
AVX2 __attribute__((always_inline)) static inline __m256i issue_four(const ws_timing_op *op, const uint64_t *at,
                                                                    unsigned shift,
                                                                    __m256i ready, __m256i slots, __m256i *now,
                                                                    __m256i *block_end, __m256i *wait,
                                                                    __m256i *kinds, four_sums *f, const int nsrc)
{
    const __m256i three = _mm256_set1_epi64x(3);
    const int count = nsrc >= 0 ? nsrc : op->nsrc;
    *wait = _mm256_setzero_si256();
    for (int i = 0; i < count; i++) {   /* ws_timing_ready_of's loop: the latest operand, and what it waits on */
        const uint16_t src = op->src[i];
        __m256i r = _mm256_loadu_si256((const __m256i *)(at + ((size_t)src << shift)));
        __m256i cycle = _mm256_srli_epi64(r, 2), later = _mm256_cmpgt_epi64(cycle, ready);
        ready = _mm256_blendv_epi8(ready, cycle, later);
        *wait = _mm256_blendv_epi8(*wait, _mm256_and_si256(r, three), later);
        *kinds = _mm256_or_si256(*kinds, r);
    }
    __m256i next = _mm256_add_epi64(*now, slots), end = _mm256_add_epi64(ready, slots);
    __m256i before = _mm256_blendv_epi8(next, *block_end, _mm256_cmpgt_epi64(*block_end, next));
    __m256i stalled = _mm256_and_si256(_mm256_cmpgt_epi64(end, before), _mm256_sub_epi64(end, before));
    f->stall = _mm256_add_epi64(f->stall, stalled);
    f->stall_short = _mm256_add_epi64(f->stall_short,
                                      _mm256_and_si256(stalled, _mm256_cmpeq_epi64(*wait, _mm256_set1_epi64x(1))));
    f->stall_long = _mm256_add_epi64(f->stall_long,
                                     _mm256_and_si256(stalled, _mm256_cmpeq_epi64(*wait, _mm256_set1_epi64x(2))));
    f->slots = _mm256_add_epi64(f->slots, slots);
    *block_end = _mm256_blendv_epi8(*block_end, end, _mm256_cmpgt_epi64(end, *block_end));
    *now = next;
    return ready;
}

/* Which of four warps from w on issue an unrolled copy's bookkeeping (op->folds) at all: all ones in a warp's lane
 * on every WS_PTXAS_UNROLL-th back edge, zeros on the others (the copies ptxas's unrolling removes). */
AVX2 static inline __m256i counted_copy(const ws_warp *w)
{
    __m256i edges = FOUR_FIELDS(w, tm.back_edges);
    return _mm256_cmpeq_epi64(_mm256_and_si256(edges, _mm256_set1_epi64x(WS_PTXAS_UNROLL - 1)),
                              _mm256_setzero_si256());
}

/* The ready word the retire step writes to op's destination for four warps that issued at `ready`
 * (ws_timing_retire_of's: the cycle the result is ready << 2 | what it waits on). */
AVX2 static inline __m256i retired_four(const ws_timing_op *op, __m256i ready)
{
    __m256i at = _mm256_add_epi64(ready, _mm256_set1_epi64x((int64_t)op->latency));
    return _mm256_or_si256(_mm256_slli_epi64(at, 2), _mm256_set1_epi64x((int64_t)op->wait));
}

/* Four warps' clocks stored back from w on, and the loads whose results their operands used (`kinds`, ready
 * words or'ed: its low two bits) marked used. */
AVX2 static inline void store_clocks(ws_warp *w, __m256i now, __m256i block_end, __m256i kinds)
{
    uint64_t v_now[4], v_end[4];
    _mm256_storeu_si256((__m256i *)v_now, now);
    _mm256_storeu_si256((__m256i *)v_end, block_end);
    for (int j = 0; j < 4; j++) {
        w[j].tm.cycle = v_now[j];
        w[j].tm.block_end = v_end[j];
    }
    if (!_mm256_testz_si256(kinds, _mm256_set1_epi64x(3))) {   /* a load's result used: it is no longer unused */
        uint64_t v_kinds[4];
        _mm256_storeu_si256((__m256i *)v_kinds, kinds);
        for (int j = 0; j < 4; j++)
            w[j].tm.loads_unused &= (uint8_t)~(v_kinds[j] & 3);
    }
}

/* ws_timing_wide_issue with op->nsrc known (`nsrc`, as issue_four's); `load`: 0 an arithmetic instruction (retired
 * here), else ws_timing_wide_issue_load's, its space the store it waits for (1 global, 2 shared). */
AVX2 __attribute__((always_inline)) static inline void wide_issue(ws_warp *w, int n, ws_block_timing *bt,
                                                                 const ws_timing_op *op, uint32_t subpartitions,
                                                                 ws_issue_sums *s, const int nsrc, const int load)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i slots_op = _mm256_set1_epi64x(op->sass ? op->sass : 1);
    const int folds = !load && op->folds;   /* a load's are not looked at (ws_timing_issue_scheduled) */
    four_sums f = {0};
    const uint32_t first_index = (uint32_t)w->index;
    for (int k = 0; k + 4 <= n; k += 4, w += 4) {
        __m256i now = FOUR_FIELDS(w, tm.cycle), block_end = FOUR_FIELDS(w, tm.block_end);
        __m256i ready = now, wait, kinds = zero;
        uint64_t *at = w->frames[0].ready;   /* the kernel frames' ready cycles, the four warps' side by side */
        const unsigned shift = w->frames[0].ready_shift;
        if (load) {   /* a load may read what an earlier store wrote: it waits (ws_timing_ready_of) */
            __m256i stored = FOUR_FIELDS(w, tm.store_issued[load - 1]);
            ready = _mm256_blendv_epi8(ready, stored, _mm256_cmpgt_epi64(stored, ready));
        }
        /* an unrolled copy's bookkeeping: no slot but on every WS_PTXAS_UNROLL-th back edge */
        __m256i slots = folds ? _mm256_and_si256(slots_op, counted_copy(w)) : slots_op;
        ready = issue_four(op, at, shift, ready, slots, &now, &block_end, &wait, &kinds, &f, nsrc);
        store_clocks(w, now, block_end, kinds);
        uint64_t v_ready[4];
        if (load) {   /* the issue cycle, latency and wait the access and the retire step read */
            _mm256_storeu_si256((__m256i *)v_ready, ready);
            for (int j = 0; j < 4; j++) {
                w[j].tm.issue = v_ready[j];
                w[j].tm.latency = op->latency;
                w[j].tm.wait = (uint8_t)op->wait;
            }
        } else {
            /* the issue cycle, latency and wait the issue step leaves for the retire step are not stored: the
             * retire step is done, and the next issue step sets them before anything reads them */
            _mm256_storeu_si256((__m256i *)(at + ((size_t)op->dst[0] << shift)), retired_four(op, ready));
        }
    }
    add_issued(bt, f.slots, first_index, subpartitions);
    add_sums(s, &f);
}

AVX2 void ws_timing_wide_issue(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op,
                               uint32_t subpartitions, ws_issue_sums *s)
{
    switch (op->nsrc) {
    case 0: wide_issue(w, n, bt, op, subpartitions, s, 0, 0); break;
    case 1: wide_issue(w, n, bt, op, subpartitions, s, 1, 0); break;
    case 2: wide_issue(w, n, bt, op, subpartitions, s, 2, 0); break;
    case 3: wide_issue(w, n, bt, op, subpartitions, s, 3, 0); break;
    default: wide_issue(w, n, bt, op, subpartitions, s, -1, 0); break;
    }
}

AVX2 void ws_timing_wide_issue_load(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op,
                                    uint32_t subpartitions, ws_issue_sums *s, int shared)
{
    if (op->nsrc == 1)   /* an address register: the commonest */
        shared ? wide_issue(w, n, bt, op, subpartitions, s, 1, 2) : wide_issue(w, n, bt, op, subpartitions, s, 1, 1);
    else
        shared ? wide_issue(w, n, bt, op, subpartitions, s, -1, 2) : wide_issue(w, n, bt, op, subpartitions, s, -1, 1);
}

/* One arithmetic instruction (op, `nsrc` as issue_four's) of ws_timing_wide_issue_run for its `chunks` groups of
 * four warps, whose clocks are now[c] and block_end[c], their kernel frames' ready cycles from at + 4c on (register
 * r's at + (r << shift): issue_four's): the
 * issue step, then the retire step's ready cycle of its destination. */
AVX2 __attribute__((always_inline)) static inline void run_step(const ws_timing_op *op, int chunks, __m256i *now,
                                                               __m256i *block_end, __m256i *kinds,
                                                               const __m256i *copy, uint64_t *at, unsigned shift,
                                                               ws_issue_sums *s, __m256i *slots_all, const int nsrc)
{
    const __m256i slots_op = _mm256_set1_epi64x(op->sass ? op->sass : 1);
    const int folds = op->folds;
    const uint16_t dst = op->dst[0];
    four_sums f = {0};
    for (int c = 0; c < chunks; c++, at += 4) {
        /* an unrolled copy's bookkeeping: no slot but on every WS_PTXAS_UNROLL-th back edge */
        __m256i slots = folds ? _mm256_and_si256(slots_op, copy[c]) : slots_op, wait;
        __m256i ready = issue_four(op, at, shift, now[c], slots, &now[c], &block_end[c], &wait, &kinds[c], &f, nsrc);
        _mm256_storeu_si256((__m256i *)(at + ((size_t)dst << shift)), retired_four(op, ready));
    }
    *slots_all = _mm256_add_epi64(*slots_all, f.slots);
    add_sums(s, &f);
}

/* What a run's loads read and change of their warps' timing, four warps a lane
 * (ws_timing_wide_issue_run_loads): the cycles after their last global (stored[0]) and shared (stored[1]) stores,
 * their loads' unused bits (ws_warp_timing.loads_unused) and when their last memory operation completes (.done). */
typedef struct {
    __m256i stored[2][WS_WIDE_RUN_WARPS / 4], unused[WS_WIDE_RUN_WARPS / 4], done[WS_WIDE_RUN_WARPS / 4];
} load_clocks;

/* A load (op, one address register) of the run for its `chunks` groups of four warps from w on, as run_step: the
 * issue step of WS_ISSUE_LOAD_SHARED or, `global`, WS_ISSUE_LOAD_GLOBAL (after the warp's last store to its space;
 * no unrolled copy's slots), then ws_load_wait's (the results the run's instructions used so far, `kinds`, are no
 * longer unused), the access's latency (a shared load's known, load->latency; a global load's from its access at
 * the warp's issue cycle, warp after warp, in batch lb), then the retire step at that latency, waiting on the short
 * (shared) or long (global) scoreboard. Returns how many warps' loads waited for room to issue (ws_load_wait's
 * queued waits). */
AVX2 __attribute__((always_inline)) static inline uint64_t run_load_step(const ws_timing_op *op,
                                                                        const ws_run_load *load, ws_warp *w,
                                                                        int chunks, __m256i *now, __m256i *block_end,
                                                                        __m256i *kinds, load_clocks *rl,
                                                                        uint64_t *at, unsigned shift, ws_issue_sums *s,
                                                                        __m256i *slots_all, ws_load_batch *lb,
                                                                        const int global)
{
    const __m256i slots = _mm256_set1_epi64x(op->sass ? op->sass : 1), three = _mm256_set1_epi64x(3);
    const __m256i space = _mm256_set1_epi64x(global ? 2 : 1);   /* ws_load_wait's bit, the ready word's wait */
    const uint16_t dst = op->dst[0];
    const __m256i *stored = rl->stored[global ? 0 : 1];
    four_sums f = {0};
    uint64_t queued = 0;
    ws_load_last last = {NULL, NULL, 0};
    for (int c = 0; c < chunks; c++, at += 4) {
        __m256i wait, ready = _mm256_blendv_epi8(now[c], stored[c], _mm256_cmpgt_epi64(stored[c], now[c]));
        ready = issue_four(op, at, shift, ready, slots, &now[c], &block_end[c], &wait, &kinds[c], &f, 1);
        __m256i unused = _mm256_andnot_si256(_mm256_and_si256(kinds[c], three), rl->unused[c]);
        kinds[c] = _mm256_setzero_si256();
        queued += lanes_sum(_mm256_and_si256(unused, space));
        rl->unused[c] = _mm256_or_si256(unused, space);
        __m256i latency;
        if (global) {   /* each warp's access at its issue cycle, in the warps' order (the L1 is the block's) */
            uint64_t v_issued[4];
            uint32_t v_latency[4];
            _mm256_storeu_si256((__m256i *)v_issued, ready);
            for (int j = 0; j < 4; j++)
                v_latency[j] = ws_load_planned(lb, &w[4 * c + j], &load->global[4 * c + j], v_issued[j], &last);
            latency = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)v_latency));
        } else {
            latency = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)&load->latency[4 * c]));
        }
        __m256i done_at = _mm256_add_epi64(ready, latency);
        rl->done[c] = _mm256_blendv_epi8(rl->done[c], done_at, _mm256_cmpgt_epi64(done_at, rl->done[c]));
        _mm256_storeu_si256((__m256i *)(at + ((size_t)dst << shift)),
                            _mm256_or_si256(_mm256_slli_epi64(done_at, 2), global ? _mm256_set1_epi64x(WS_WAIT_LONG)
                                                                                  : _mm256_set1_epi64x(WS_WAIT_SHORT)));
    }
    *slots_all = _mm256_add_epi64(*slots_all, f.slots);
    add_sums(s, &f);
    return global ? queued / 2 : queued;
}

/* A store (op) of the run for its `chunks` groups of four warps from w on, as run_step: the issue step of
 * WS_ISSUE_ANY (a store waits for no earlier one; the later loads from its space wait for it: stored[0] for a
 * global store, stored[1] for a shared one, its issue cycle + 1; an unrolled copy's slots as run_step's), its
 * latency (a shared store's known, store->latency; a global store's from its access at the warp's issue cycle,
 * warp after warp, ws_timing_store_span: the L2 and the write traffic of lb's block), then the retire step: no
 * register, only when the warp's last memory operation completes (.done). */
AVX2 static void run_store_step(const ws_timing_op *op, const ws_run_load *store, int chunks, __m256i *now,
                                __m256i *block_end, __m256i *kinds, const __m256i *copy, load_clocks *rl,
                                uint64_t *at, unsigned shift, ws_issue_sums *s, __m256i *slots_all, ws_load_batch *lb)
{
    const __m256i slots_op = _mm256_set1_epi64x(op->sass ? op->sass : 1), one = _mm256_set1_epi64x(1);
    const int folds = op->folds;
    const ws_global_plan *global = store->global;
    __m256i *stored = rl->stored[global ? 0 : 1];
    four_sums f = {0};
    for (int c = 0; c < chunks; c++, at += 4) {
        __m256i slots = folds ? _mm256_and_si256(slots_op, copy[c]) : slots_op, wait;
        __m256i ready = issue_four(op, at, shift, now[c], slots, &now[c], &block_end[c], &wait, &kinds[c], &f, -1);
        stored[c] = _mm256_add_epi64(ready, one);
        uint32_t v_latency[4];
        const uint32_t *latency = &store->latency[4 * c];
        if (global) {
            for (int j = 0; j < 4; j++) {
                const ws_global_plan *p = &global[4 * c + j];
                v_latency[j] = ws_timing_store_span(lb->launch, lb->bt, p->al, p->a0, p->stride, store->store);
            }
            latency = v_latency;
        }
        __m256i done_at = _mm256_add_epi64(ready, _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)latency)));
        rl->done[c] = _mm256_blendv_epi8(rl->done[c], done_at, _mm256_cmpgt_epi64(done_at, rl->done[c]));
    }
    *slots_all = _mm256_add_epi64(*slots_all, f.slots);
    add_sums(s, &f);
}

/* ws_timing_wide_issue_run (`with_loads` 0), or ws_timing_wide_issue_run_loads (1). */
AVX2 __attribute__((always_inline)) static inline void issue_run(ws_warp *w, int n, ws_block_timing *bt,
                                                                const ws_timing_op *const *ops,
                                                                const ws_run_load *const *loads, int k,
                                                                uint32_t subpartitions, ws_issue_sums *s,
                                                                ws_load_batch *lb, const int with_loads)
{
    enum { MAX_CHUNKS = WS_WIDE_RUN_WARPS / 4 };
    const __m256i zero = _mm256_setzero_si256();
    __m256i now[MAX_CHUNKS], block_end[MAX_CHUNKS], kinds[MAX_CHUNKS], copy[MAX_CHUNKS], slots_all = zero;
    /* the kernel frames' ready cycles, the warps' side by side (register r's at + (r << shift)) */
    uint64_t *const at = w->frames[0].ready;
    const unsigned shift = w->frames[0].ready_shift;
    load_clocks rl;
    const int chunks = n / 4;
    int folds = 0;
    for (int i = 0; i < k; i++)   /* a load's are not looked at */
        folds |= with_loads && loads[i] && !loads[i]->store ? 0 : ops[i]->folds;
    int stores = 0;
    for (int c = 0; c < chunks; c++) {   /* the clocks, read once for the run */
        const ws_warp *v = w + 4 * c;
        now[c] = FOUR_FIELDS(v, tm.cycle);
        block_end[c] = FOUR_FIELDS(v, tm.block_end);
        kinds[c] = zero;
        if (folds)   /* no branch in the run: each warp's back edges are the same for every instruction */
            copy[c] = counted_copy(v);
        if (with_loads) {   /* what its loads and stores read and change */
            rl.stored[0][c] = FOUR_FIELDS(v, tm.store_issued[0]);
            rl.stored[1][c] = FOUR_FIELDS(v, tm.store_issued[1]);
            rl.unused[c] = FOUR_FIELDS(v, tm.loads_unused);
            rl.done[c] = FOUR_FIELDS(v, tm.done);
        }
    }
    for (int i = 0; i < k; i++) {
        const ws_timing_op *op = ops[i];
        if (with_loads && loads[i] && loads[i]->store) {
            run_store_step(op, loads[i], chunks, now, block_end, kinds, copy, &rl, at, shift, &s[i], &slots_all, lb);
            stores |= loads[i]->global ? 1 : 2;
            continue;
        }
        if (with_loads && loads[i] && loads[i]->global) {   /* its waits counted in the batch */
            lb->queued += run_load_step(op, loads[i], w, chunks, now, block_end, kinds, &rl, at, shift, &s[i],
                                        &slots_all, lb, 1);
            lb->loads += (uint64_t)(4 * chunks);
            continue;
        }
        if (with_loads && loads[i]) {
            uint64_t queued = run_load_step(op, loads[i], w, chunks, now, block_end, kinds, &rl, at, shift, &s[i],
                                            &slots_all, NULL, 0);
            bt->waits[WS_WAIT_SHARED_QUEUED] += queued;
            bt->waits[WS_WAIT_SHARED_LOAD] += (uint64_t)(4 * chunks) - queued;
            continue;
        }
        switch (op->nsrc) {   /* the operands' count known: their loop unrolls */
        case 0: run_step(op, chunks, now, block_end, kinds, copy, at, shift, &s[i], &slots_all, 0); break;
        case 1: run_step(op, chunks, now, block_end, kinds, copy, at, shift, &s[i], &slots_all, 1); break;
        case 2: run_step(op, chunks, now, block_end, kinds, copy, at, shift, &s[i], &slots_all, 2); break;
        case 3: run_step(op, chunks, now, block_end, kinds, copy, at, shift, &s[i], &slots_all, 3); break;
        default: run_step(op, chunks, now, block_end, kinds, copy, at, shift, &s[i], &slots_all, -1); break;
        }
    }
    /* the issue cycle, latency and wait an issue step leaves are not stored: the retire step is done, and the
     * next issue step sets them first */
    for (int c = 0; c < chunks; c++) {
        ws_warp *v = w + 4 * c;
        store_clocks(v, now[c], block_end[c], with_loads ? zero : kinds[c]);
        if (with_loads) {   /* the loads' bits as the run left them, less those its last instructions used */
            uint64_t v_unused[4], v_done[4];
            _mm256_storeu_si256((__m256i *)v_unused,
                                _mm256_andnot_si256(_mm256_and_si256(kinds[c], _mm256_set1_epi64x(3)), rl.unused[c]));
            _mm256_storeu_si256((__m256i *)v_done, rl.done[c]);
            for (int j = 0; j < 4; j++) {
                v[j].tm.loads_unused = (uint8_t)v_unused[j];
                v[j].tm.done = v_done[j];
            }
            for (int space = 0; space < 2; space++) {   /* the stores' issue cycles, global (0) and shared (1) */
                if (!(stores >> space & 1))
                    continue;
                uint64_t v_stored[4];
                _mm256_storeu_si256((__m256i *)v_stored, rl.stored[space][c]);
                for (int j = 0; j < 4; j++)
                    v[j].tm.store_issued[space] = v_stored[j];
            }
        }
    }
    add_issued(bt, slots_all, (uint32_t)w->index, subpartitions);
}

AVX2 void ws_timing_wide_issue_run(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *const *ops, int k,
                                   uint32_t subpartitions, ws_issue_sums *s)
{
    issue_run(w, n, bt, ops, NULL, k, subpartitions, s, NULL, 0);
}

AVX2 void ws_timing_wide_issue_run_loads(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *const *ops,
                                         const ws_run_load *const *loads, int k, uint32_t subpartitions,
                                         ws_issue_sums *s, ws_load_batch *lb)
{
    issue_run(w, n, bt, ops, loads, k, subpartitions, s, lb, 1);
}

#endif
