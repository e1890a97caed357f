/*
 * The timing model's L1 and L2 for a global load, inline: sim/timing.c's
 * per-warp paths, sim/exec_mem_runs.c's batch (a group of warps at one load,
 * sim/lockstep.c) and the runs' timing pass (sim/timing_wide.c, an access
 * planned before it: ws_global_plan) share it. A batch reads the launch's latencies and the L1's
 * presence once, and adds what its warps' loads add to the block's sums
 * (waits, wavefronts, traffic) once: nothing reads those before the block is
 * done (ws_timing_block_done), so the sums come out the same. Also the
 * model's shared-memory access (ws_timing_shared), inline for the one-pass
 * shared paths.
 */
#ifndef WARPSIM_SIM_TIMING_LOAD_H
#define WARPSIM_SIM_TIMING_LOAD_H

#include "sim/timing_internal.h"

/* An allocation's L2 map (ws_allocation.l2) indexed by line number: the byte of global line n (128 bytes) at
 * map[n], for the lines the allocation spans. Two bits a sector, not a byte: a quarter of the fresh memory a
 * launch touches (on this project's VM each new page costs some 12 us, bench/README.md). */
static inline uint8_t *ws_l2_map(const ws_allocation *al)
{
    return al->l2 - (al->base >> 7);
}

/* The bytes of an allocation's L2 map: the lines it spans (one for an empty allocation). */
static inline uint64_t ws_l2_map_bytes(const ws_allocation *al)
{
    return al->size ? ((al->base + al->size - 1) >> 7) - (al->base >> 7) + 1 : 1;
}

/* A sector's L2 map bits (1: read, 2: written) marked; what they were before. --jobs: the map is shared (a
 * line's four sectors share a byte: marked with an atomic or). */
static inline uint8_t ws_l2_mark(uint8_t *map, uint64_t sector, uint8_t want, int atomics)
{
    uint8_t *st = &map[sector >> 2], before;
    unsigned shift = 2 * (unsigned)(sector & 3);
    if (atomics) {
        before = __atomic_load_n(st, __ATOMIC_RELAXED);
        if (((before >> shift) & want) != want)
            before = __atomic_fetch_or(st, (uint8_t)(want << shift), __ATOMIC_RELAXED);
    } else {
        before = *st;
        *st = (uint8_t)(before | want << shift);
    }
    return (uint8_t)((before >> shift) & 3);
}

/* ws_l2_mark for the four sectors of the line whose first sector is line_sector, at once (no --jobs atomics): their
 * bits before, sector k's at bits 2k and 2k + 1. */
static inline uint32_t ws_l2_mark_four(uint8_t *map, uint64_t line_sector, uint8_t set)
{
    uint8_t *st = &map[line_sector >> 2], marks = *st;
    *st = (uint8_t)(marks | 0x55 * set);
    return marks;
}

/* How many of bits 0, 2, 4 and 6 are set (ws_l2_mark_four's, shifted and masked; no other bit): summed in pairs,
 * no call. */
static inline unsigned ws_four_bits(uint32_t bits)
{
    uint32_t pairs = (bits & 0x33u) + ((bits >> 2) & 0x33u);   /* bits 0 and 2 in bits 0-1, bits 4 and 6 in 4-5 */
    return (pairs & 0xfu) + (pairs >> 4);
}

/* The L1 set of a line (its number + 1, as the tags keep it): a hash of it, modulo the sets. */
static inline uint64_t ws_l1_set(const ws_block_timing *bt, uint64_t line)
{
    return ws_fastmod_u32((uint32_t)(line * UINT64_C(0x9E3779B97F4A7C15) >> 32), bt->l1_sets_magic, bt->l1_sets);
}

/* The way a new line takes in its set: the sets' ways in turn (FIFO), counted without a division. */
static inline uint32_t ws_l1_victim(ws_block_timing *bt)
{
    uint32_t way = bt->l1_clock;
    bt->l1_clock = way + 1 == WS_L1_WAYS ? 0 : way + 1;
    return way;
}

/* A new line's tag in way `slot` (set * ways + way) of the block's L1: a way empty until now is listed, so
 * that the block's reset (ws_timing_block_reset) empties only the ways the block used. */
static inline __attribute__((always_inline)) void ws_l1_take(ws_block_timing *bt, uint64_t slot, uint64_t line)
{
    if (!bt->l1_line[slot])
        bt->l1_taken[bt->l1_taken_count++] = (uint32_t)slot;
    bt->l1_line[slot] = line;
}

/* A load's line in the block's L1, found or allocated for its first sector: the line's held sectors and
 * the fills of its four. *memo (NULL: none): the way (set * ways + way) of the warp's last one-sector load's line,
 * tried first: a warp's loads of one address come back to their line (a matmul's row of A, a word at a time),
 * and a line is in one way at most, so a tag that matches there is the one the set's search would find (no
 * hash, no search). Other loads do not try it: whole lines (a vector add's) seldom come back, and for a 16x16
 * block's two rows (a memo per row) it saved 0.65% and cost the vector add 0.4%. */
static inline __attribute__((always_inline)) void ws_l1_line(ws_block_timing *bt, uint64_t sector, uint8_t **held,
                                                             uint64_t **filled, uint32_t *memo)
{
    uint64_t line = (sector >> 2) + 1;   /* 0 marks an empty way */
    uint64_t slot = memo ? *memo : 0;
    if (!memo || bt->l1_line[slot] != line) {
        uint64_t set = ws_l1_set(bt, line);
        uint64_t *tags = &bt->l1_line[set * WS_L1_WAYS];
        uint32_t way = 0;
        while (way < WS_L1_WAYS && tags[way] != line)
            way++;
        if (way == WS_L1_WAYS) {
            way = ws_l1_victim(bt);
            ws_l1_take(bt, set * WS_L1_WAYS + way, line);
            bt->l1_sectors[set * WS_L1_WAYS + way] = 0;
        }
        slot = set * WS_L1_WAYS + way;
        if (memo)
            *memo = (uint32_t)slot;
    }
    *held = &bt->l1_sectors[slot];
    *filled = &bt->l1_filled[slot * 4];
}

/* Where a load waits when the L1TEX is busy: for its result, or, issued while its warp
 * has not used the previous load's (back-to-back loads, as in unrolled loops), for room
 * to issue (ncu's MIO and LG throttles). `space`: 1 shared, 2 global or local. */
static inline ws_wait_point ws_load_wait(ws_warp *w, uint8_t space)
{
    int queued = (w->tm.loads_unused & space) != 0;
    w->tm.loads_unused |= space;
    return space == 1 ? (queued ? WS_WAIT_SHARED_QUEUED : WS_WAIT_SHARED_LOAD)
                      : (queued ? WS_WAIT_GLOBAL_QUEUED : WS_WAIT_GLOBAL_LOAD);
}

/* Whether allocation al's sectors are its own and in device memory (its base on a sector, not pinned host
 * memory): the per-sector paths (the batch's, ws_timing_store_run's) take them; ws_timing_memory's general
 * path the others (a sector another allocation may share, the host link's latency). */
static inline int ws_sectors_own(const ws_allocation *al)
{
    return !al->host_link && !(al->base & 31);
}

/* Whether the launch's arch caches global loads in the L1, and block timing bt keeps one. */
static inline int ws_l1_caches_loads(const ws_launch *l, const ws_block_timing *bt)
{
    return l->arch->l1_caches_global_loads && bt->l1_sets;
}

/* A batch of global loads of one block: the launch's latencies, and the sums its loads add to the block's. */
typedef struct {
    ws_block_timing *bt;
    const ws_launch *launch;
    uint32_t l1, l2, global;   /* the arch's latencies, read once (a byte store may alias them) */
    int atomics;               /* --jobs: the L2 map is shared (l->global_atomics) */
    int l1_caches;             /* the arch's L1 caches global loads, and the block has one */
    uint64_t loads, queued;    /* loads, and those that waited for room to issue */
    uint64_t sectors, lines, l1_hits, l2_hits, dram;
} ws_load_batch;

static inline void ws_load_batch_start(ws_load_batch *lb, const ws_launch *l, ws_block_timing *bt)
{
    *lb = (ws_load_batch){bt, l, l->arch->latency_l1, l->arch->latency_l2, l->arch->latency_global,
                          l->global_atomics != NULL, ws_l1_caches_loads(l, bt),
                          0, 0, 0, 0, 0, 0, 0};
}

/* The batch's sums into its block's. */
static inline void ws_load_batch_flush(const ws_load_batch *lb)
{
    ws_block_timing *bt = lb->bt;
    bt->waits[WS_WAIT_GLOBAL_QUEUED] += lb->queued;
    bt->waits[WS_WAIT_GLOBAL_LOAD] += lb->loads - lb->queued;
    bt->l1_wavefronts += lb->lines;
    ws_traffic *tr = &bt->traffic;
    tr->l1_lookups += lb->sectors;
    tr->l1_hits += lb->l1_hits;
    tr->l2_read_sectors += lb->sectors - lb->l1_hits;
    tr->l2_read_hits += lb->l2_hits;
    tr->dram_read_sectors += lb->dram;
}

/* Whether allocation al's sectors take the batch's paths: the general one (ws_timing_memory) takes the
 * others, and every load of an arch or block without an L1. */
static inline int ws_load_batch_applies(const ws_load_batch *lb, const ws_allocation *al)
{
    return lb->l1_caches && ws_sectors_own(al);
}

/* A load's start: where it waits. */
static inline void ws_load_begin(ws_load_batch *lb, ws_warp *w)
{
    lb->loads++;
    lb->queued += ws_load_wait(w, 2) == WS_WAIT_GLOBAL_QUEUED;
}

/* One sector of a load in allocation al: the L1 (its line found by ws_l1_line), else al's L2 map (where it keeps
 * one). *latency: the load's so far. */
static inline __attribute__((always_inline)) void ws_load_sector(ws_load_batch *lb, uint8_t *held,
                                                                 uint64_t *filled_line, uint64_t sector,
                                                                 const ws_allocation *al, uint64_t issued,
                                                                 uint32_t *latency)
{
    uint8_t bit = (uint8_t)(1u << (sector & 3));
    uint64_t *filled = &filled_line[sector & 3];
    uint32_t level = lb->l2;
    if (*held & bit) {
        lb->l1_hits++;
        level = lb->l1;
        if (*filled > issued + level)   /* another warp's miss still on its way: wait for it */
            level = (uint32_t)(*filled - issued);
    } else {
        *held |= bit;
        if (al->l2) {   /* the map found on a miss alone */
            if (ws_l2_mark(ws_l2_map(al), sector, 1, lb->atomics) & 1) {
                lb->l2_hits++;
            } else {
                lb->dram++;
                level = lb->global;
            }
        }
        *filled = issued + level;
    }
    if (level > *latency)
        *latency = level;
}

/* The sums of a load's n sectors on `lines` lines, the slowest `latency` away; returns its result latency (the
 * L1 returns four sectors a cycle). */
static inline uint32_t ws_load_sums(ws_load_batch *lb, uint32_t latency, unsigned n, unsigned lines)
{
    lb->sectors += n;
    lb->lines += lines;
    return latency + n / 4;
}

/* A load's end: n sectors on `lines` lines, the slowest `latency` away. */
static inline void ws_load_end(ws_load_batch *lb, ws_warp *w, uint32_t latency, unsigned n, unsigned lines)
{
    w->tm.latency = ws_load_sums(lb, latency, n, lines);
    w->tm.wait = WS_WAIT_LONG;
}

/* The latest fill of sectors from..to of a line (filled_line its fill cycles). */
static inline uint64_t ws_load_latest_fill(const uint64_t *filled_line, uint64_t from, uint64_t to)
{
    uint64_t latest = 0;
    for (uint64_t sector = from; sector <= to; sector++)
        latest = filled_line[sector & 3] > latest ? filled_line[sector & 3] : latest;
    return latest;
}

/* The latency of hits on sectors whose latest fill is `latest`, for a load issued at `issued`: the L1's, or
 * the wait for another warp's fill still on its way (the slowest sector's: each one's is the later of the
 * two). */
static inline uint32_t ws_load_hit_wait(const ws_load_batch *lb, uint64_t latest, uint64_t issued)
{
    return latest > issued + lb->l1 ? (uint32_t)(latest - issued) : lb->l1;
}

/* The latency of sectors from..to of a line whose every one the L1 holds, for a load issued at `issued`,
 * with `latency` the load's so far. */
static inline uint32_t ws_load_held_latency(const ws_load_batch *lb, const uint64_t *filled_line, uint64_t from,
                                            uint64_t to, uint64_t issued, uint32_t latency)
{
    uint32_t level = ws_load_hit_wait(lb, ws_load_latest_fill(filled_line, from, to), issued);
    return level > latency ? level : latency;
}

/* ws_load_sector for the four sectors of a line the L1 holds none of (a streaming load's), the first line_sector,
 * their L2 map bits (map: not shared, no --jobs atomics) read and marked at once. Returns the load's latency so
 * far. */
static inline uint32_t ws_load_new_line(ws_load_batch *lb, uint8_t *held, uint64_t *filled_line, uint8_t *map,
                                        uint64_t line_sector, uint64_t issued, uint32_t latency)
{
    uint32_t read = ws_l2_mark_four(map, line_sector, 1) & 0x55u;   /* each sector's "read" bit: an L2 hit */
    unsigned hits = ws_four_bits(read);
    lb->l2_hits += hits;
    lb->dram += 4 - hits;
    *held = 0xf;
    if (read == 0 || read == 0x55u) {   /* the commonest: all four from DRAM (a stream), or the L2 */
        uint32_t level = read ? lb->l2 : lb->global;
        for (int k = 0; k < 4; k++)
            filled_line[k] = issued + level;
        return level > latency ? level : latency;
    }
    for (int k = 0; k < 4; k++) {
        uint32_t level = (read >> (2 * k)) & 1 ? lb->l2 : lb->global;
        filled_line[k] = issued + level;
        latency = level > latency ? level : latency;
    }
    return latency;
}

/* Sectors from..to of one line of a load in allocation al (its line's held sectors and fills found by ws_l1_line),
 * the first at line_sector. Returns the load's latency so far. */
static inline __attribute__((always_inline)) uint32_t ws_load_line(ws_load_batch *lb, uint8_t *held,
                                                                   uint64_t *filled_line, const ws_allocation *al,
                                                                   uint64_t line_sector, uint64_t from, uint64_t to,
                                                                   uint64_t issued, uint32_t latency)
{
    uint8_t wanted = (uint8_t)((0xfu << (from & 3)) & (0xfu >> (3 - (to & 3))));
    if ((*held & wanted) == wanted) {
        /* every sector held (the commonest): ws_load_sector's hits without its tests of each */
        lb->l1_hits += (uint32_t)(to - from + 1);
        return ws_load_held_latency(lb, filled_line, from, to, issued, latency);
    }
    if (wanted == 0xf && !*held && al->l2 && !lb->atomics)
        return ws_load_new_line(lb, held, filled_line, ws_l2_map(al), line_sector, issued, latency);
    for (uint64_t sector = from; sector <= to; sector++)
        ws_load_sector(lb, held, filled_line, sector, al, issued, &latency);
    return latency;
}

/* The commonest global load's access: a full warp's, aligned, inside allocation al (which ws_load_batch_applies
 * takes), issued at `issued`, whose lanes read every sector from byte lo's to byte end's; memo: ws_l1_line's for a
 * one-sector load. Returns its result latency (ws_load_sums'). *one_line: the fill cycles of its line when its
 * sectors lie on one (ws_load_repeat), else NULL. */
static inline __attribute__((always_inline)) uint32_t ws_load_span(ws_load_batch *lb, uint32_t *memo,
                                                                   const ws_allocation *al, uint64_t lo, uint64_t end,
                                                                   uint64_t issued, const uint64_t **one_line)
{
    ws_block_timing *bt = lb->bt;
    uint64_t first = lo >> 5, last = end >> 5;
    uint32_t latency = 0;
    uint8_t *held;
    uint64_t *filled_line;
    if (first == last) {   /* one sector (one address for the warp): ws_load_line's work for it alone */
        ws_l1_line(bt, first, &held, &filled_line, memo);
        ws_load_sector(lb, held, filled_line, first, al, issued, &latency);
        *one_line = filled_line;
        return ws_load_sums(lb, latency, 1, 1);
    }
    if ((first >> 2) == (last >> 2)) {   /* one line (a coalesced warp's): no loop */
        ws_l1_line(bt, first, &held, &filled_line, NULL);
        latency = ws_load_line(lb, held, filled_line, al, first & ~UINT64_C(3), first, last, issued, 0);
        *one_line = filled_line;
        return ws_load_sums(lb, latency, (unsigned)(last - first + 1), 1);
    }
    *one_line = NULL;
    for (uint64_t line_sector = first & ~UINT64_C(3); line_sector <= last; line_sector += 4) {
        ws_l1_line(bt, line_sector, &held, &filled_line, NULL);   /* once for the line's sectors */
        uint64_t from = line_sector > first ? line_sector : first, to = line_sector + 3 < last ? line_sector + 3 : last;
        latency = ws_load_line(lb, held, filled_line, al, line_sector, from, to, issued, latency);
    }
    return ws_load_sums(lb, latency, (unsigned)(last - first + 1), (unsigned)((last >> 2) - (first >> 2) + 1));
}

/* ws_load_span for warp w at its issue cycle: its start (where it waits) and its result latency and wait. */
static inline __attribute__((always_inline)) void ws_load_run(ws_load_batch *lb, ws_warp *w,
                                                              const ws_allocation *al, uint64_t lo, uint64_t end,
                                                              const uint64_t **one_line)
{
    ws_load_begin(lb, w);
    w->tm.latency = ws_load_span(lb, &w->tm.l1_slot[0], al, lo, end, w->tm.issue, one_line);
    w->tm.wait = WS_WAIT_LONG;
}

/* ws_load_span of the same `sectors` sectors as the last load, on one line whose latest fill of them is `latest`
 * (ws_load_latest_fill), issued at `issued`: that load left every one held and nothing looked a line up since, so
 * each is a hit, as ws_load_span would find without looking the line up (ws_load_held_latency's wait). */
static inline uint32_t ws_load_span_again(ws_load_batch *lb, uint64_t latest, unsigned sectors, uint64_t issued)
{
    lb->l1_hits += sectors;
    return ws_load_sums(lb, ws_load_hit_wait(lb, latest, issued), sectors, 1);
}

/* ws_load_span_again for warp w at its issue cycle, as ws_load_run. */
static inline void ws_load_repeat(ws_load_batch *lb, ws_warp *w, uint64_t latest, unsigned sectors)
{
    ws_load_begin(lb, w);
    w->tm.latency = ws_load_span_again(lb, latest, sectors, w->tm.issue);
    w->tm.wait = WS_WAIT_LONG;
}

/* A load's sectors in any order (distinct, as the lanes meet them; on `lines` lines), when ws_load_batch_applies
 * takes the allocation (ws_timing_load_sectors), issued at `issued`; the first `memos` lines' ws_l1_line memos are
 * warp w's. Returns its result latency (ws_load_sums'). *one_line (when not NULL): the fill cycles of its line when
 * it has one (ws_load_repeat), else NULL. */
static inline __attribute__((always_inline)) uint32_t ws_load_sector_list(ws_load_batch *lb, ws_warp *w,
                                                                          const ws_allocation *al,
                                                                          const uint64_t *sector, unsigned n,
                                                                          unsigned lines, uint64_t issued,
                                                                          const uint64_t **one_line,
                                                                          const unsigned memos)
{
    uint8_t *held = NULL;
    uint64_t *filled_line = NULL;
    uint32_t latency = 0;
#pragma GCC unroll 8   /* load_row_words_of's rows, their count a constant (n16 -2%) */
    for (unsigned i = 0; i < n; i++) {
        if (i == 0 || sector[i] >> 2 != sector[i - 1] >> 2)   /* a new line: looked up (the L1 holds the last one) */
            ws_l1_line(lb->bt, sector[i], &held, &filled_line, i < memos ? &w->tm.l1_slot[i] : NULL);
        ws_load_sector(lb, held, filled_line, sector[i], al, issued, &latency);
    }
    if (one_line)
        *one_line = lines == 1 ? filled_line : NULL;
    return ws_load_sums(lb, latency, n, lines);
}

/* ws_load_sector_list for warp w at its issue cycle, as ws_load_run. */
static inline __attribute__((always_inline)) void ws_load_sectors_of(ws_load_batch *lb, ws_warp *w,
                                                                     const ws_allocation *al, const uint64_t *sector,
                                                                     unsigned n, unsigned lines,
                                                                     const uint64_t **one_line, const unsigned memos)
{
    ws_load_begin(lb, w);
    w->tm.latency = ws_load_sector_list(lb, w, al, sector, n, lines, w->tm.issue, one_line, memos);
    w->tm.wait = WS_WAIT_LONG;
}
static inline void ws_load_sectors(ws_load_batch *lb, ws_warp *w, const ws_allocation *al, const uint64_t *sector,
                                   unsigned n, unsigned lines, const uint64_t **one_line)
{
    ws_load_sectors_of(lb, w, al, sector, n, lines, one_line, 0);
}

/* A full warp's global load in a run of wide instructions (sim/lockstep.c), found before its timing: lane i of row r
 * reads a0 + r * row_step + i * stride, the rows `width` lanes wide (32: one run), each a sector apart at most or
 * one word (stride 0, `words`: a row of one 4-byte word each, the rows a sector or more apart, load_row_words_of's),
 * or all alike (row_step 0); its bytes a0..end, on `sectors` sectors, lie inside allocation al, whose sectors the
 * batch's paths take (ws_load_batch_applies) where the timing model is on. `again`: the warp before's addresses
 * (the other fields then unset: the last plan without it says them). */
typedef struct {
    const ws_allocation *al;
    uint64_t a0, stride, row_step, end;
    uint32_t width, words, sectors, again;
} ws_global_plan;

/* The last access of a run's global load (ws_load_planned), for the next warp of the same addresses: its plan and,
 * where its sectors lie on one line one after another, that line's fill cycles and their latest (0 until a warp
 * repeats it). */
typedef struct {
    const ws_global_plan *plan;
    const uint64_t *filled;
    uint64_t latest;
} ws_load_last;

/* ws_load_planned's rows of one word (p->words), `rows` of them (p->sectors): a sector each, in order. *one_line:
 * ws_load_sector_list's where the sectors also run one after another (a repeat's run from the first to the last). */
static inline __attribute__((always_inline)) uint32_t ws_load_row_words(ws_load_batch *lb, ws_warp *w,
                                                                        const ws_global_plan *p, uint64_t issued,
                                                                        const uint64_t **one_line,
                                                                        const unsigned rows)
{
    uint64_t sector[WS_WARP_SIZE / 4];
    unsigned lines = 1, in_order = 1;
    for (unsigned j = 0; j < rows; j++) {
        sector[j] = (p->a0 + j * p->row_step) >> 5;
        lines += j > 0 && sector[j] >> 2 != sector[j - 1] >> 2;
        in_order &= sector[j] == sector[0] + j;
    }
    uint32_t latency = ws_load_sector_list(lb, w, p->al, sector, rows, lines, issued, one_line, 2);
    if (!in_order)
        *one_line = NULL;
    return latency;
}

/* Planned access p of warp w issued at `issued` (ws_load_run's or, rows of one word, ws_load_sectors_of's, without
 * their start or their warp's latency): a repeat of the last warp's (*last) where it has the same addresses
 * (p->again) on one line, as the batch's ws_ld_global_again. Returns its result latency. */
static inline __attribute__((always_inline)) uint32_t ws_load_planned(ws_load_batch *lb, ws_warp *w,
                                                                      const ws_global_plan *p, uint64_t issued,
                                                                      ws_load_last *last)
{
    if (p->again) {
        p = last->plan;
        if (last->filled) {
            if (!last->latest)   /* the first warp to repeat it (a latest fill at cycle 0 is worked out again) */
                last->latest = ws_load_latest_fill(last->filled, p->a0 >> 5, p->end >> 5);
            return ws_load_span_again(lb, last->latest, p->sectors, issued);
        }
    }
    const uint64_t *one_line;
    uint32_t latency;
    if (p->words) {   /* a sector a row (load_row_words_of's), the rows' count known where it is commonest */
        latency = p->sectors == 2 ? ws_load_row_words(lb, w, p, issued, &one_line, 2)
                                  : ws_load_row_words(lb, w, p, issued, &one_line, p->sectors);
    } else {
        latency = ws_load_span(lb, &w->tm.l1_slot[0], p->al, p->a0, p->end, issued, &one_line);
    }
    last->plan = p;
    last->filled = one_line;
    last->latest = 0;
    return latency;
}

/* ptxas merges broadcast loads of consecutive words (a row of a tile read along k, as
 * As[ty][k] in the tiled matmul, unrolled) into one LDS.128, which costs 2 wavefronts for
 * the 4 (measured on the H100: the course's tiled matmul at -O4 makes 0.625 LDS and 0.75
 * wavefronts per PTX shared load, 1 each at -O0). So a 4-byte broadcast load 4 bytes after
 * the warp's previous one, in the same 16-byte group, joins that LDS.128. `a`: its address. */
static inline int ws_merges_into_vector(ws_warp *w, uint64_t a)
{
    int merged = w->tm.last_broadcast == a - 4 + 1 && (a & 15) != 0;
    w->tm.last_broadcast = a + 1;
    return merged;
}

/* A shared access's result latency at `wavefronts` passes of the banks: each pass after the first adds two cycles. */
static inline uint32_t ws_shared_latency(const ws_arch *a, uint32_t wavefronts)
{
    return a->latency_shared + 2 * (wavefronts > 1 ? wavefronts - 1 : 0);
}

/* ws_timing_memory's shared-memory part (always inline: the group paths that take it cost 2-3% more where
 * the compiler made it a call): `first` the first active lane's address, one_address whether
 * every lane's is that one, `wavefronts` the access's. */
static inline __attribute__((always_inline)) void ws_timing_shared(ws_exec *x, uint64_t first, int one_address,
                                                                   unsigned bytes_per_lane, int is_store,
                                                                   uint32_t wavefronts)
{
    const ws_arch *a = x->launch->arch;
    ws_warp *w = x->warp;
    ws_block_timing *bt = &x->block->tm;
    bt->waits[is_store ? WS_WAIT_SHARED_STORE : ws_load_wait(w, 1)]++;
    if (one_address && !is_store && bytes_per_lane == 4 && !x->launch->timing->in_order &&
        ws_merges_into_vector(w, first))
        bt->shared_merged++;
    else
        bt->shared_cycles += wavefronts;
    w->tm.latency = ws_shared_latency(a, wavefronts);
    w->tm.wait = WS_WAIT_SHORT;
}

#endif
