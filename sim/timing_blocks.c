/*
 * sim/timing_blocks.h: the blocks placed on the SMs as they are done, in launch order. Blocks go to SM slots
 * breadth-first over the SMs for the first wave, then each to the slot that frees first (a binary heap); a block
 * takes the longer of its latency path and its demand on the SM times the blocks it shares the SM with, and the
 * warp-cycles it spends beyond its path are time behind other warps.
 */
#include "sim/timing_blocks.h"

#include <stdlib.h>
#include <string.h>

static int slot_before(const ws_sm_slot *a, const ws_sm_slot *b)
{
    return a->free_at != b->free_at ? a->free_at < b->free_at : a->order < b->order;
}

static void sift_down(ws_sm_slot *h, uint32_t n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && slot_before(&h[l], &h[m])) m = l;
        if (r < n && slot_before(&h[r], &h[m])) m = r;
        if (m == i)
            return;
        ws_sm_slot t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

/* ---- Time behind other warps ------------------------------------------------------
 * A block that its SM's busiest resource holds beyond its own latency path spends
 * those warp-cycles where ncu sees its warps wait: behind the L1TEX unit, at each
 * wait on it alike (a shared load's result: short scoreboard; room for a shared
 * store: MIO throttle; a global load's result: long scoreboard; the block's other
 * warps: barrier; a global store, at the warp's exit: ncu's drain, not reported; a
 * load issued before its warp used the previous one's result: room to issue, MIO or
 * LG throttle; an atomic: its result, or, a red with none, at exit). Slower DRAM or
 * L2 lengthens the global accesses alone, an atomic-bound launch its atomics alone.
 * Behind the issue slots, not selected; behind a math pipe, its throttle. On the H100's transposes (32
 * requests of each kind per block) ncu shows each of these within 2x of the others. */

static const int8_t stall_of_wait[WS_WAIT_POINT_COUNT] = {
    [WS_WAIT_SHARED_LOAD] = WS_STALL_SHORT_SCOREBOARD, [WS_WAIT_SHARED_STORE] = WS_STALL_MIO_THROTTLE,
    [WS_WAIT_GLOBAL_LOAD] = WS_STALL_LONG_SCOREBOARD, [WS_WAIT_GLOBAL_STORE] = -1,
    [WS_WAIT_AT_BARRIER] = WS_STALL_BARRIER, [WS_WAIT_SHARED_QUEUED] = WS_STALL_MIO_THROTTLE,
    [WS_WAIT_GLOBAL_QUEUED] = WS_STALL_LG_THROTTLE, [WS_WAIT_GLOBAL_ATOMIC] = WS_STALL_LONG_SCOREBOARD,
    [WS_WAIT_GLOBAL_REDUCTION] = -1,
};

void ws_wait_behind(double *behind, ws_bound busiest, const uint64_t *waits, double warp_cycles)
{
    if (busiest == WS_BOUND_ISSUE || busiest == WS_BOUND_PIPE) {
        behind[busiest == WS_BOUND_ISSUE ? WS_STALL_NOT_SELECTED : WS_STALL_MATH_PIPE_THROTTLE] += warp_cycles;
        return;
    }
    double all = 0;
    for (int k = 0; k < WS_WAIT_POINT_COUNT; k++)
        all += (double)waits[k];
    for (int k = 0; k < WS_WAIT_POINT_COUNT && all > 0; k++)
        if (stall_of_wait[k] >= 0)
            behind[stall_of_wait[k]] += warp_cycles * (double)waits[k] / all;
}

/* ---- Placing the blocks ------------------------------------------------------------- */

int ws_block_placement_start(ws_block_placement *p, const ws_arch *a, uint64_t blocks, uint32_t blocks_per_sm)
{
    memset(p, 0, sizeof *p);
    uint64_t k = blocks_per_sm ? blocks_per_sm : 1, sms = a->sm_count ? a->sm_count : 1, slots = sms * k;
    uint64_t co = (blocks + sms - 1) / sms;   /* blocks sharing an SM at once */
    p->co = co < 1 ? 1 : co > k ? k : co;
    if (slots > blocks)
        slots = blocks ? blocks : 1;
    p->sms = sms;
    p->slots = slots;
    p->block_launch_cycles = a->block_launch_cycles;
    p->heap = malloc(sizeof *p->heap * (size_t)slots);
    p->sm_busy = calloc((size_t)sms, sizeof *p->sm_busy);
    p->sm_next_start = calloc((size_t)sms, sizeof *p->sm_next_start);   /* block_launch_cycles' pace */
    p->sm_end = calloc((size_t)sms, sizeof *p->sm_end);                 /* its last block's end */
    if (!p->heap || !p->sm_busy || !p->sm_next_start || !p->sm_end) {
        ws_block_placement_free(p);
        return -1;
    }
    for (uint64_t s = 0; s < slots; s++)
        p->heap[s] = (ws_sm_slot){0, (uint32_t)s, (uint32_t)(s % sms)};   /* slot s on SM s % sms: breadth-first */
    return 0;
}

void ws_block_placement_add(ws_block_placement *p, const ws_block_record *br)
{
    /* shared memory and global accesses share the SM's L1TEX unit: their cycles add */
    uint64_t demand = br->demand[WS_BOUND_SHARED] + br->demand[WS_BOUND_L1];
    ws_bound busiest = WS_BOUND_L1;
    for (int d = WS_BOUND_ISSUE; d <= WS_BOUND_PIPE; d++)
        if (br->demand[d] > demand)
            demand = br->demand[d], busiest = (ws_bound)d;
    demand *= p->co;
    uint64_t took = br->path > demand ? br->path : demand;
    p->decided_by_demand += demand > br->path;
    if (took > br->path)
        ws_wait_behind(p->behind, busiest, br->waits, (double)(took - br->path) * br->warps);
    p->path_max = br->path > p->path_max ? br->path : p->path_max;
    ws_sm_slot *top = &p->heap[0];
    uint64_t sm = top->sm;
    /* the SM starts its blocks one by one: a slot free earlier waits for its turn */
    if (top->free_at < p->sm_next_start[sm])
        top->free_at = p->sm_next_start[sm];
    p->sm_next_start[sm] = top->free_at + p->block_launch_cycles;
    top->free_at += took;
    p->sm_busy[sm] += took;
    p->sm_end[sm] = top->free_at > p->sm_end[sm] ? top->free_at : p->sm_end[sm];
    if (top->free_at > p->kernel)
        p->kernel = top->free_at;
    p->warp_cycles += (double)took * br->warps;
    sift_down(p->heap, (uint32_t)p->slots, 0);
    for (int d = WS_BOUND_ISSUE; d <= WS_BOUND_L1; d++)
        p->demand[d] += (double)br->demand[d];
    for (int k = 0; k < WS_WAIT_POINT_COUNT; k++)
        p->waits[k] += br->waits[k];
    p->placed++;
}

/* ---- A block done ------------------------------------------------------------------ */

void ws_timing_block_done(ws_launch *l, ws_block *b)
{
    ws_launch_timing *t = l->timing;
    const ws_block_timing *bt = &b->tm;
    uint64_t path = 0, issued = 0;
    for (int wi = 0; wi < b->warp_count; wi++) {
        const ws_warp_timing *wt = &b->warps[wi].tm;
        uint64_t end = wt->cycle > wt->done ? wt->cycle : wt->done;
        end = wt->block_end > end ? wt->block_end : end;
        path = end > path ? end : path;
    }
    for (uint32_t s = 0; s < t->subpartitions; s++) {
        path = bt->issued[s] > path ? bt->issued[s] : path;
        issued += bt->issued[s];
    }
    ws_block_record record, *r = t->block ? &t->block[b->linear_index] : &record;
    r->path = path;
    r->demand[WS_BOUND_ISSUE] = issued / t->subpartitions;
    uint64_t pipes = 0;   /* the busiest arithmetic pipe's cycles per sub-partition: one division (a block's) */
    for (int p = 0; p <= WS_PIPE_CVT; p++)
        pipes = bt->pipe[p] > pipes ? bt->pipe[p] : pipes;
    r->demand[WS_BOUND_PIPE] = pipes / t->subpartitions;
    r->demand[WS_BOUND_SHARED] = bt->shared_cycles + bt->shared_merged / 3;   /* 4 loads: 1 + 3 merged = 2 */
    const ws_arch *a = l->arch;
    r->demand[WS_BOUND_L1] = bt->l1_wavefronts * a->line_bytes / (a->l1_bytes_per_cycle ? a->l1_bytes_per_cycle : 1) +
                             bt->l1_partial_cycles;
    r->warps = (uint32_t)b->warp_count;
    memcpy(r->waits, bt->waits, sizeof r->waits);
    if (!t->block)   /* one thread: the blocks are done in launch order */
        ws_block_placement_add(&t->placement, r);
    ws_timing_sums *sums = &b->timing_sums;
    sums->issued += issued;
#define X(name) sums->traffic.name += bt->traffic.name;
    WS_TRAFFIC(X)
#undef X
}
