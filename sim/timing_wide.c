/*
 * The real build's issue and retire steps (sim/timing_issue.h, sim/timing.h) for a wide group's warps
 * (sim/lockstep.c), four at a time in AVX2 registers: an arithmetic instruction, every lane active, one
 * destination; and a load group's issue steps alone (ws_timing_wide_issue_load). The warps' clocks stay where
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

/* ws_timing_wide_issue with op->nsrc known (`nsrc`: the loop over the operands unrolls); `load`: 0 an arithmetic
 * instruction (retired here), else ws_timing_wide_issue_load's, its space the store it waits for (1 global, 2
 * shared). */
AVX2 __attribute__((always_inline)) static inline void wide_issue(ws_warp *w, int n, ws_block_timing *bt,
                                                                 const ws_timing_op *op, uint32_t subpartitions,
                                                                 ws_issue_sums *s, const int nsrc, const int load)
{
    const __m256i three = _mm256_set1_epi64x(3), zero = _mm256_setzero_si256();
    const __m256i slots_op = _mm256_set1_epi64x(op->sass ? op->sass : 1);
    const __m256i result = _mm256_set1_epi64x((int64_t)op->latency);
    const uint64_t wait_op = op->wait;
    const int folds = !load && op->folds;   /* a load's are not looked at (ws_timing_issue_scheduled) */
    const uint16_t dst = op->dst[0];
    __m256i slot_sum = zero, stall_sum = zero, stall_short = zero, stall_long = zero;
    const uint32_t first_index = (uint32_t)w->index;
    for (int k = 0; k + 4 <= n; k += 4, w += 4) {
        __m256i now = FOUR_FIELDS(w, tm.cycle);
        __m256i block_end = FOUR_FIELDS(w, tm.block_end);
        uint64_t *const at[4] = {w[0].frames[0].ready, w[1].frames[0].ready, w[2].frames[0].ready,
                                 w[3].frames[0].ready};   /* the kernel frames' ready cycles */
        __m256i ready = now, wait = zero, kinds = zero;
        if (load) {   /* a load may read what an earlier store wrote: it waits (ws_timing_ready_of) */
            __m256i stored = FOUR_FIELDS(w, tm.store_issued[load - 1]);
            ready = _mm256_blendv_epi8(ready, stored, _mm256_cmpgt_epi64(stored, ready));
        }
        for (int i = 0; i < nsrc; i++) {   /* ws_timing_ready_of's loop: the latest operand, and what it waits on */
            const uint16_t src = op->src[i];
            __m256i r = _mm256_setr_epi64x((long long)at[0][src], (long long)at[1][src], (long long)at[2][src],
                                           (long long)at[3][src]);
            __m256i cycle = _mm256_srli_epi64(r, 2), later = _mm256_cmpgt_epi64(cycle, ready);
            ready = _mm256_blendv_epi8(ready, cycle, later);
            wait = _mm256_blendv_epi8(wait, _mm256_and_si256(r, three), later);
            kinds = _mm256_or_si256(kinds, r);
        }
        __m256i slots = slots_op;
        if (folds) {   /* an unrolled copy's bookkeeping: no slot but on every WS_PTXAS_UNROLL-th back edge */
            __m256i edges = FOUR_FIELDS(w, tm.back_edges);
            __m256i copy = _mm256_cmpeq_epi64(_mm256_and_si256(edges, _mm256_set1_epi64x(WS_PTXAS_UNROLL - 1)), zero);
            slots = _mm256_and_si256(slots, copy);
        }
        __m256i next = _mm256_add_epi64(now, slots), end = _mm256_add_epi64(ready, slots);
        __m256i before = _mm256_blendv_epi8(next, block_end, _mm256_cmpgt_epi64(block_end, next));
        __m256i stalled = _mm256_and_si256(_mm256_cmpgt_epi64(end, before), _mm256_sub_epi64(end, before));
        stall_sum = _mm256_add_epi64(stall_sum, stalled);
        stall_short = _mm256_add_epi64(stall_short,
                                       _mm256_and_si256(stalled, _mm256_cmpeq_epi64(wait, _mm256_set1_epi64x(1))));
        stall_long = _mm256_add_epi64(stall_long,
                                      _mm256_and_si256(stalled, _mm256_cmpeq_epi64(wait, _mm256_set1_epi64x(2))));
        block_end = _mm256_blendv_epi8(block_end, end, _mm256_cmpgt_epi64(end, block_end));
        slot_sum = _mm256_add_epi64(slot_sum, slots);
        uint64_t v_next[4], v_end[4], v_issue[4], v_retired[4], v_kinds[4];
        _mm256_storeu_si256((__m256i *)v_next, next);
        _mm256_storeu_si256((__m256i *)v_end, block_end);
        if (load) {   /* the issue cycle, latency and wait the access and the retire step read */
            _mm256_storeu_si256((__m256i *)v_issue, ready);
            for (int j = 0; j < 4; j++) {
                w[j].tm.cycle = v_next[j];
                w[j].tm.block_end = v_end[j];
                w[j].tm.issue = v_issue[j];
                w[j].tm.latency = op->latency;
                w[j].tm.wait = (uint8_t)wait_op;
            }
        } else {
            __m256i retired = _mm256_or_si256(_mm256_slli_epi64(_mm256_add_epi64(ready, result), 2),
                                              _mm256_set1_epi64x((int64_t)wait_op));
            _mm256_storeu_si256((__m256i *)v_retired, retired);
            /* the issue cycle, latency and wait the issue step leaves for the retire step are not stored: the
             * retire step is done, and the next issue step sets them before anything reads them */
            for (int j = 0; j < 4; j++) {
                w[j].tm.cycle = v_next[j];
                w[j].tm.block_end = v_end[j];
                at[j][dst] = v_retired[j];
            }
        }
        if (!_mm256_testz_si256(kinds, three)) {   /* a load's result used: it is no longer unused */
            _mm256_storeu_si256((__m256i *)v_kinds, kinds);
            for (int j = 0; j < 4; j++)
                w[j].tm.loads_unused &= (uint8_t)~(v_kinds[j] & 3);
        }
    }
    if (subpartitions == 4 && first_index % 4 == 0) {   /* lane j's warps on sub-partition j (the commonest) */
        __m256i *issued = (__m256i *)bt->issued;
        _mm256_storeu_si256(issued, _mm256_add_epi64(_mm256_loadu_si256(issued), slot_sum));
    } else {
        uint64_t v_slots[4];
        _mm256_storeu_si256((__m256i *)v_slots, slot_sum);
        for (int j = 0; j < 4; j++)   /* lane j's warps are all on one sub-partition: their count divides 4 */
            bt->issued[(first_index + (uint32_t)j) & (subpartitions - 1)] += v_slots[j];
    }
    uint64_t stalls = lanes_sum(stall_sum), stalls_short = lanes_sum(stall_short), stalls_long = lanes_sum(stall_long);
    s->slots += lanes_sum(slot_sum);
    s->stalls[WS_WAIT_FIXED] += stalls - stalls_short - stalls_long;
    s->stalls[WS_WAIT_SHORT] += stalls_short;
    s->stalls[WS_WAIT_LONG] += stalls_long;
}

AVX2 void ws_timing_wide_issue(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op,
                               uint32_t subpartitions, ws_issue_sums *s)
{
    switch (op->nsrc) {
    case 0: wide_issue(w, n, bt, op, subpartitions, s, 0, 0); break;
    case 1: wide_issue(w, n, bt, op, subpartitions, s, 1, 0); break;
    case 2: wide_issue(w, n, bt, op, subpartitions, s, 2, 0); break;
    case 3: wide_issue(w, n, bt, op, subpartitions, s, 3, 0); break;
    default: wide_issue(w, n, bt, op, subpartitions, s, op->nsrc, 0); break;
    }
}

AVX2 void ws_timing_wide_issue_load(ws_warp *w, int n, ws_block_timing *bt, const ws_timing_op *op,
                                    uint32_t subpartitions, ws_issue_sums *s, int shared)
{
    if (op->nsrc == 1)   /* an address register: the commonest */
        shared ? wide_issue(w, n, bt, op, subpartitions, s, 1, 2) : wide_issue(w, n, bt, op, subpartitions, s, 1, 1);
    else
        shared ? wide_issue(w, n, bt, op, subpartitions, s, op->nsrc, 2)
               : wide_issue(w, n, bt, op, subpartitions, s, op->nsrc, 1);
}
#endif
