/*
 * The timing model (the design is sim/timing.h's). This file: decoding an
 * instruction's timing, the warps' clocks and scoreboards, the caches, and
 * the blocks' records; sim/timing_result.c places the blocks on the SMs and
 * computes the launch's time.
 */
#include "sim/timing.h"

#include <stdlib.h>
#include <string.h>

#include "sim/memory.h"
#include "sim/sass.h"
#include "sim/timing_internal.h"
#include "sim/timing_issue.h"   /* WS_PTXAS_UNROLL_BODY */
#include "sim/timing_load.h"

/* ---- Decode ---------------------------------------------------------------------- */

enum { ARITH = WS_PIPE_COUNT, MEM };   /* pipes the type or the space decides */
static const struct { uint8_t pipe, sass; } pipe_of[OP_COUNT] = {
#define P(id, p, s) [OP_##id] = {p, s},
#define INT WS_PIPE_INT
#define FP32 WS_PIPE_FP32
#define FP64 WS_PIPE_FP64
#define SFU WS_PIPE_SFU
#define CVT WS_PIPE_CVT
#define MIO WS_PIPE_MIO
#define BRANCH WS_PIPE_BRANCH
#define BARRIER WS_PIPE_BARRIER
#define FENCE WS_PIPE_FENCE
#include "sim/pipes.def"
#undef P
#undef INT
#undef FP32
#undef FP64
#undef SFU
#undef CVT
#undef MIO
#undef BRANCH
#undef BARRIER
#undef FENCE
};

const ws_build_timing ws_build_timings[WS_BUILD_COUNT] = {
    [WS_BUILD_REAL] = {"real", 0, 0, 1},
    /* -O0: the smallest launches take 0.5-1 us more (2.6-2.9 us real, 3.3-4.0 at -O0), which
     * their 14 cycles per SASS instruction (o0_sass_cycles) account for: no overhead of its own */
    [WS_BUILD_O0] = {"O0", 1, 0, 0},
};

int ws_timing_pipe_known(int opcode) { return opcode >= 0 && opcode < OP_COUNT && pipe_of[opcode].sass != 0; }

static int is_float(ptx_type t) { return ptx_types[t].kind == PTX_KIND_FLOAT; }

static void add_register(uint16_t *list, uint8_t *n, int max, int32_t r)
{
    if (r >= 0 && r < 65535 && *n < max)
        list[(*n)++] = (uint16_t)r;
}

static void operand_registers(const ptx_function *fn, const ptx_operand *op, uint16_t *list, uint8_t *n, int max)
{
    switch (op->kind) {
    case PTX_OPD_REG:
        add_register(list, n, max, op->reg);
        break;
    case PTX_OPD_PRED:
        add_register(list, n, max, fn->value_reg_count + op->reg);
        break;
    case PTX_OPD_ADDR:
        add_register(list, n, max, op->reg);
        break;
    case PTX_OPD_VEC:
        for (int e = 0; e < op->count && e < PTX_MAX_VEC; e++)
            add_register(list, n, max, op->regs[e]);
        break;
    default:
        break;
    }
}

void ws_timing_decode(const ws_arch *a, const ptx_function *fn, const ptx_instr *in, ws_timing_op *op)
{
    memset(op, 0, sizeof *op);
    unsigned pipe = pipe_of[in->opcode].pipe, sass = pipe_of[in->opcode].sass;
    ptx_type t = (ptx_type)in->type;
    if (pipe == ARITH)
        pipe = t == PTX_F64 ? WS_PIPE_FP64 : is_float(t) ? WS_PIPE_FP32 : WS_PIPE_INT;
    if (pipe == MEM)
        pipe = in->space == PTX_SPACE_SHARED ? WS_PIPE_SHARED
             : in->space == PTX_SPACE_PARAM || in->space == PTX_SPACE_CONST ? WS_PIPE_INT : WS_PIPE_LSU;
    if (in->opcode == OP_cvt && !is_float(t) && !is_float((ptx_type)in->type2))
        pipe = WS_PIPE_INT;
    if (in->opcode == OP_div && is_float(t))
        sass = (in->flags & (PTX_FLAG_APPROX | PTX_FLAG_FULL)) ? 2 : 10;
    if ((in->opcode == OP_rcp || in->opcode == OP_sqrt) && (in->flags & PTX_FLAG_APPROX))
        sass = 1;
    if (t == PTX_F64 && pipe == WS_PIPE_SFU)
        pipe = WS_PIPE_FP64, sass = 12;   /* double transcendentals: FP64 Newton steps around MUFU.RCP64H */
    op->pipe = (uint8_t)pipe;
    op->sass = (uint8_t)sass;
    op->sass_o0 = ws_o0_sass[ws_o0_class_of(in)];
    if (in->opcode == OP_bra) {
        int64_t at = in - fn->instrs;   /* in is one of fn's instructions */
        op->branch = WS_BRANCH_BRA;
        if (in->operand[0].imm <= at && at - in->operand[0].imm < WS_PTXAS_UNROLL_BODY)
            op->branch |= WS_BRANCH_BACK_EDGE;
    }
    if (pipe == WS_PIPE_SHARED || pipe == WS_PIPE_LSU)
        op->mem = in->opcode == OP_st ? WS_MEM_WRITES
                : in->opcode == OP_atom || in->opcode == OP_red ? WS_MEM_READS | WS_MEM_WRITES : WS_MEM_READS;
    uint32_t latency = pipe == WS_PIPE_FP64 ? a->latency_fp64 : pipe == WS_PIPE_SFU ? a->latency_sfu
                     : pipe == WS_PIPE_CVT ? a->latency_cvt : pipe == WS_PIPE_MIO ? a->latency_mio
                     : pipe == WS_PIPE_SHARED ? a->latency_shared : pipe == WS_PIPE_LSU ? a->latency_l2
                     : pipe == WS_PIPE_FENCE ? a->latency_l2 : a->latency_alu;
    if (sass > 2)   /* a sequence of dependent SASS instructions */
        latency += a->latency_alu * (sass / 2);
    op->latency = (uint16_t)(latency > 65535 ? 65535 : latency);
    op->wait = pipe == WS_PIPE_LSU || pipe == WS_PIPE_FENCE ? WS_WAIT_LONG
             : pipe == WS_PIPE_SFU || pipe == WS_PIPE_MIO || pipe == WS_PIPE_SHARED || pipe == WS_PIPE_CVT ? WS_WAIT_SHORT
             : WS_WAIT_FIXED;
    /* Registers: the destination operands first (d, and q of d|q when written), the rest are sources. */
    int first_source = ws_instr_destination_operands(in);
    for (int k = 0; k < in->operand_count; k++) {
        const ptx_operand *o = &in->operand[k];
        if (k < first_source && o->kind != PTX_OPD_ADDR)
            operand_registers(fn, o, op->dst, &op->ndst, WS_TIMING_MAX_DST);
        else
            operand_registers(fn, o, op->src, &op->nsrc, WS_TIMING_MAX_SRC);
    }
    if (in->guard >= 0)
        add_register(op->src, &op->nsrc, WS_TIMING_MAX_SRC, fn->value_reg_count + in->guard);
}

void ws_timing_decode_loop(const ptx_function *fn, int i, ws_decoded *d)
{
    const ptx_instr *in = &fn->instrs[i];
    if (in->opcode != OP_bra || in->operand[0].imm > i || i - in->operand[0].imm >= WS_PTXAS_UNROLL_BODY)
        return;
    for (int k = (int)in->operand[0].imm; k <= i; k++)
        if (d[k].timing.pipe == WS_PIPE_BARRIER)
            return;   /* a tree step per pass (a reduction): its arithmetic is the work, not bookkeeping */
    for (int k = (int)in->operand[0].imm; k <= i; k++) {
        ws_timing_op *op = &d[k].timing;
        if ((op->pipe == WS_PIPE_INT && op->sass == 1) || k == i)
            op->folds = 1;
    }
}

/* ---- Launch and block state ------------------------------------------------------ */

int ws_timing_start(ws_launch *l, int records)
{
    uint64_t blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    ws_launch_timing *t = calloc(1, sizeof *t);
    if (!t || (records && !(t->block = calloc(blocks ? blocks : 1, sizeof *t->block)))) {
        free(t);
        return -1;
    }
    t->blocks = blocks;
    const ws_arch *a = l->arch;
    t->subpartitions = a->subpartitions < 1 ? 1 : a->subpartitions > WS_MAX_SUBPARTITIONS ? WS_MAX_SUBPARTITIONS
                     : a->subpartitions;
    uint32_t cycles[WS_PIPE_COUNT] = {
        [WS_PIPE_INT] = a->cycles_int, [WS_PIPE_FP32] = a->cycles_fp32, [WS_PIPE_FP64] = a->cycles_fp64,
        [WS_PIPE_SFU] = a->cycles_sfu, [WS_PIPE_CVT] = a->cycles_cvt,
    };
    for (int p = 0; p < WS_PIPE_COUNT; p++)
        t->pipe_cycles[p] = cycles[p] ? cycles[p] : 1;
    /* Every launch starts with cold caches, as ncu's --cache-control all makes it. */
    for (int i = 0; i < l->global->count; i++) {
        ws_allocation *al = l->global->allocs[i];
        uint64_t bytes = ws_l2_map_bytes(al);
        if (al->l2 && al->l2_bytes == bytes) {
            memset(al->l2, 0, bytes);
            continue;
        }
        free(al->l2);
        al->l2_bytes = 0;
        if (!(al->l2 = calloc(bytes, 1))) {
            ws_timing_free(l);
            return -1;
        }
        al->l2_bytes = bytes;
    }
    l->timing = t;
    return 0;
}

void ws_timing_free(ws_launch *l)
{
    if (!l->timing)
        return;
    free(l->timing->block);
    ws_block_placement_free(&l->timing->placement);
    free(l->timing);
    l->timing = NULL;
}

/* The L1 a block sees: the SM's unified L1 less the shared memory of the
 * blocks that share it, split between them. */
int ws_timing_block_alloc(ws_launch *l, ws_block *b)
{
    const ws_arch *a = l->arch;
    uint32_t resident = l->timing->blocks_per_sm ? l->timing->blocks_per_sm : 1;
    uint64_t l1 = (uint64_t)a->l1_kib * 1024, shared = l->shared_size * resident;
    uint64_t mine = l1 > shared ? (l1 - shared) / resident : 0;
    b->tm.l1_sets = (uint32_t)(mine / a->line_bytes / WS_L1_WAYS);
    if (b->tm.l1_sets == 0)
        return 0;
    b->tm.l1_sets_magic = ws_fastmod_magic(b->tm.l1_sets);
    size_t lines = (size_t)b->tm.l1_sets * WS_L1_WAYS;
    b->tm.l1_line = calloc(lines, sizeof *b->tm.l1_line);
    b->tm.l1_sectors = calloc(lines, 1);
    b->tm.l1_filled = calloc(lines * 4, sizeof *b->tm.l1_filled);
    b->tm.l1_taken = calloc(lines, sizeof *b->tm.l1_taken);
    return b->tm.l1_line && b->tm.l1_sectors && b->tm.l1_filled && b->tm.l1_taken ? 0 : -1;
}

void ws_timing_block_reset(ws_launch *l, ws_block *b)
{
    uint64_t *line = b->tm.l1_line;
    uint8_t *sectors = b->tm.l1_sectors;
    uint64_t *filled = b->tm.l1_filled;
    uint32_t *taken = b->tm.l1_taken, taken_count = b->tm.l1_taken_count;
    uint32_t sets = b->tm.l1_sets, ways = WS_L1_WAYS;
    uint64_t magic = b->tm.l1_sets_magic;
    memset(&b->tm, 0, sizeof b->tm);
    b->tm.l1_line = line;
    b->tm.l1_sectors = sectors;
    b->tm.l1_filled = filled;
    b->tm.l1_taken = taken;
    b->tm.l1_sets = sets;
    b->tm.l1_sets_magic = magic;
    if (line && (uint64_t)taken_count * 8 < (uint64_t)sets * ways) {   /* the ways the last block used: few */
        for (uint32_t i = 0; i < taken_count; i++)
            line[taken[i]] = 0, sectors[taken[i]] = 0;
    } else if (line) {
        memset(line, 0, sizeof *line * (size_t)sets * ways);
        memset(sectors, 0, (size_t)sets * ways);
    }
    for (int wi = 0; wi < b->warp_count; wi++) {
        memset(&b->warps[wi].tm, 0, sizeof b->warps[wi].tm);
        b->warps[wi].tm.subpartition = (uint8_t)((uint32_t)wi % l->timing->subpartitions);
    }
}

void ws_timing_block_free(ws_block *b)
{
    free(b->tm.l1_line);
    free(b->tm.l1_sectors);
    free(b->tm.l1_filled);
    free(b->tm.l1_taken);
    b->tm.l1_taken = NULL;
    b->tm.l1_line = NULL;
    b->tm.l1_sectors = NULL;
    b->tm.l1_filled = NULL;
}

/* ---- Issue and results: sim/timing_issue.h (inline in ws_step() and sim/lockstep.c) ---------- */

void ws_timing_issue_o0(ws_exec *x, const ws_decoded *d, ws_frame *f, uint32_t mask)
{
    ws_warp *w = x->warp;
    const ws_timing_op *op = &d->timing;
    uint64_t now = w->tm.cycle;
    unsigned wait = WS_WAIT_FIXED;
    uint64_t ready = ws_timing_ready(w, op, f, &wait);
    uint64_t *ic = x->counters;
    if (ready > now)
        ic[ws_stall_counter[wait]] += ready - now;
    unsigned slots = op->sass_o0;   /* counted with the issue sums, below */
    /* -O0: no scheduling, each SASS instruction holds its warp the cycles ptxas -O0's
     * control codes give it: beyond its issue cycle, a fixed-latency wait as ncu counts it */
    uint32_t hold = x->launch->arch->o0_sass_cycles;
    w->tm.cycle = ready + (uint64_t)slots * hold;
    if (hold > 1)
        ic[WS_CTR_stall_wait] += (uint64_t)slots * (hold - 1);
    ws_issue_sums s = {0};
    ws_timing_issued(w, &x->block->tm, op, mask, slots, x->launch->arch->latency_branch, &s, WS_ISSUE_ANY);
    ws_timing_add_issue_sums(ic, &x->block->tm, op, x->launch->timing, &s);
}

/* ---- Memory -------------------------------------------------------------------- */

/* Whether the block's L1 holds the sector; it does afterwards (loads allocate), and
 * *filled is where its fill's arrival is kept. */
static int l1_lookup(ws_block_timing *bt, uint64_t sector, int allocate, uint64_t **filled)
{
    uint64_t line = (sector >> 2) + 1;     /* 0 marks an empty way */
    uint8_t bit = (uint8_t)(1u << (sector & 3));
    uint64_t set = ws_l1_set(bt, line);
    uint64_t *tags = &bt->l1_line[set * WS_L1_WAYS];
    uint8_t *held = &bt->l1_sectors[set * WS_L1_WAYS];
    for (uint32_t way = 0; way < WS_L1_WAYS; way++)
        if (tags[way] == line) {
            int hit = (held[way] & bit) != 0;
            if (allocate)
                held[way] |= bit;
            *filled = &bt->l1_filled[(set * WS_L1_WAYS + way) * 4 + (sector & 3)];
            return hit;
        }
    if (allocate) {
        uint32_t way = ws_l1_victim(bt);
        ws_l1_take(bt, set * WS_L1_WAYS + way, line);
        held[way] = bit;
        *filled = &bt->l1_filled[(set * WS_L1_WAYS + way) * 4 + (sector & 3)];
    }
    return 0;
}

/* The global allocation holding addr, or NULL (local memory). */
static const ws_allocation *allocation_of(ws_launch *l, uint64_t addr)
{
    const ws_allocation *a = l->last_allocation;
    if (!a || addr < a->base || addr - a->base >= a->size)
        a = ws_global_find(l->global, addr, 1);
    return a;
}

/* A store's n sectors (bytes[i] of sector[i] written) when they all lie in one allocation of the device's
 * memory, as ws_timing_memory's loop takes them one by one: the allocation found once, not per sector (a
 * strided store, as a naive transpose's, has 32). Adds to *slots and *dram_writes; 0, having done nothing,
 * when they do not so lie. */
static int store_sectors(ws_launch *l, ws_block_timing *bt, const uint64_t *sector, const uint32_t *bytes,
                         unsigned n, uint32_t *slots, uint32_t *dram_writes)
{
    if (!n)
        return 0;
    uint64_t lo = sector[0], hi = sector[0];
    for (unsigned i = 1; i < n; i++) {
        lo = sector[i] < lo ? sector[i] : lo;
        hi = sector[i] > hi ? sector[i] : hi;
    }
    const ws_allocation *al = allocation_of(l, lo << 5);
    if (!al || !ws_sectors_own(al) || (hi << 5) - al->base >= al->size)
        return 0;
    if (!al->l2)
        return 1;   /* nothing kept: as the loop, which finds no entry */
    uint8_t *map = ws_l2_map(al);
    int atomics = l->global_atomics != NULL;
    uint32_t partial = l->arch->partial_write_cycles;
    for (unsigned i = 0; i < n; i++) {
        *dram_writes += !(ws_l2_mark(map, sector[i], 3, atomics) & 2);
        if (bytes[i] < 32)
            bt->l1_partial_cycles += partial;
    }
    *slots += n;
    return 1;
}

static void add(uint64_t *total, uint64_t v) { __atomic_fetch_add(total, v, __ATOMIC_RELAXED); }

/* The distinct 4-byte words the lanes of mask read. */
static unsigned distinct_words(const uint64_t addr[WS_WARP_SIZE], uint32_t mask)
{
    uint64_t seen[WS_WARP_SIZE];
    unsigned n = 0;
    WS_FOR_LANES(mask, lane) {
        uint64_t word = addr[lane] >> 2;
        unsigned k = 0;
        while (k < n && seen[k] != word)
            k++;
        if (k == n)
            seen[n++] = word;
    }
    return n;
}

/* Where sector s is among the n distinct sectors found so far, in the order they
 * were met; a new one is appended (its bytes 0), and counts a new 128-byte line
 * where no sector found so far shares its line. */
static inline unsigned note_sector(uint64_t sector[], uint32_t bytes[], unsigned *n, unsigned *lines, uint64_t s)
{
    unsigned found = *n;
    int same_line = found && sector[found - 1] >> 2 == s >> 2;
    if (found && sector[found - 1] == s)
        return found - 1;
    for (unsigned j = 0; j < found; j++) {
        if (sector[j] == s)
            return j;
        same_line |= sector[j] >> 2 == s >> 2;
    }
    sector[found] = s;
    bytes[found] = 0;
    *lines += !same_line;
    *n = found + 1;
    return found;
}

/* The sectors of a full warp's segments of `lanes` lanes, each stepping forward by
 * a sector at most, in the order the lanes meet them (see ws_timing_memory). Out
 * of line: inlined, it cost the full-warp paths there 10 host instructions each. */
static __attribute__((noinline)) void segment_sectors(const uint64_t addr[WS_WARP_SIZE], unsigned lanes,
                                                      uint64_t sector[], uint32_t bytes[], unsigned *n,
                                                      unsigned *lines)
{
    for (unsigned first = 0; first < WS_WARP_SIZE; first += lanes)
        for (uint64_t s = addr[first] >> 5, last = addr[first + lanes - 1] >> 5; s <= last; s++)
            note_sector(sector, bytes, n, lines, s);
}

void ws_timing_memory(ws_exec *x, ptx_space space, const uint64_t addr[WS_WARP_SIZE], uint32_t mask,
                      unsigned bytes_per_lane, int is_store, uint32_t wavefronts, const ws_lane_span *span)
{
    ws_launch *l = x->launch;
    const ws_arch *a = l->arch;
    ws_warp *w = x->warp;
    ws_block_timing *bt = &x->block->tm;
    if (x->fn->instrs[x->pc].space == PTX_SPACE_CONST && a->const_replay_cycles && !is_store) {
        /* the constant cache serves one word per pass: each further word a warp reads replays the
         * load, holding the warp and its sub-partition */
        unsigned words = distinct_words(addr, mask);
        if (words > 1) {
            uint64_t replay = (uint64_t)(words - 1) * a->const_replay_cycles;
            bt->issued[w->tm.subpartition] += replay;
            w->tm.cycle += replay;
        }
    }
    if (space == PTX_SPACE_SHARED) {
        ws_timing_shared(x, mask ? addr[__builtin_ctz(mask)] : 0, span && span->lo == span->hi, bytes_per_lane,
                         is_store, wavefronts);
        return;
    }
    /* The distinct sectors, with the bytes each receives, and the distinct 128-byte lines. */
    uint64_t sector[WS_WARP_SIZE];
    uint32_t bytes[WS_WARP_SIZE];
    unsigned n = 0, lines = 0;
    /* A full warp stepping forward through memory, aligned, needs no search: what the loop
     * below finds, in the same (lane) order. */
    if (span && span->segment_lanes == WS_WARP_SIZE && (int64_t)span->stride >= 0 &&
        (bytes_per_lane & (bytes_per_lane - 1)) == 0 && !(span->any_bits & (bytes_per_lane - 1))) {
        if (span->stride <= 32) {   /* by a sector at most: the consecutive sectors from lo to hi */
            uint64_t first = span->lo >> 5;
            n = (unsigned)((span->hi >> 5) - first + 1);
            for (unsigned i = 0; i < n; i++)
                sector[i] = first + i;
            if (is_store) {   /* partly written sectors cost the L1TEX more: the bytes each gets (loads need none) */
                memset(bytes, 0, n * sizeof *bytes);
                WS_FOR_LANES(mask, lane)
                    bytes[(addr[lane] >> 5) - first] += bytes_per_lane;
            }
            lines = (unsigned)(((span->hi >> 5) >> 2) - (first >> 2) + 1);
        } else {                    /* by more: a sector per lane, a new line where the line changes */
            n = WS_WARP_SIZE;
            for (unsigned i = 0; i < n; i++)
                sector[i] = addr[i] >> 5, bytes[i] = bytes_per_lane;
            lines = 1;
            for (unsigned i = 1; i < n; i++)
                lines += sector[i] >> 2 != sector[i - 1] >> 2;
        }
        mask = 0;   /* the lanes are done */
    } else if (span && span->segment_lanes && !is_store && (int64_t)span->stride >= 0 && span->stride <= 32) {
        /* Segments stepping forward by a sector at most: a lane's sector is the one before
         * it or the next, so a segment meets the sectors from its first lane's to its
         * last's in that order; visiting those finds what the lane loop would (a load
         * needs no bytes per sector). */
        segment_sectors(addr, span->segment_lanes, sector, bytes, &n, &lines);
        mask = 0;
    }
    uint32_t first_row = ws_rows_alike(addr, mask, span);   /* rows that read alike: the sectors of the first */
    if (first_row != mask) {   /* in the first row's order (the others' meet none new), each row's bytes */
        unsigned rows = WS_WARP_SIZE / (unsigned)ws_popcount(first_row);
        WS_FOR_SET_LANES(first_row, lane)
            bytes[note_sector(sector, bytes, &n, &lines, addr[lane] >> 5)] += rows * bytes_per_lane;
        mask = 0;
    }
    WS_FOR_SET_LANES(mask, lane)
        bytes[note_sector(sector, bytes, &n, &lines, addr[lane] >> 5)] += bytes_per_lane;
    bt->waits[is_store ? WS_WAIT_GLOBAL_STORE : ws_load_wait(w, 2)]++;
    int local = space == PTX_SPACE_LOCAL;
    int cached = local || a->l1_caches_global_loads;
    uint32_t latency = 0, l1_hits = 0, dram = 0, l2_hits = 0, slots = 0, dram_writes = 0, host_reads = 0, host_writes = 0;
    uint64_t issued = w->tm.issue;
    const ws_allocation *al = NULL;
    if (is_store && !local && store_sectors(l, bt, sector, bytes, n, &slots, &dram_writes))
        latency = a->latency_l2;   /* each sector's, as in the loop (store_sectors takes no n of 0) */
    else for (unsigned i = 0; i < n; i++) {
        uint32_t level = a->latency_l2;
        uint64_t *filled = NULL;
        if (!is_store && cached && bt->l1_sets && l1_lookup(bt, sector[i], 1, &filled)) {
            l1_hits++;
            level = a->latency_l1;
            if (*filled > issued + level)   /* another warp's miss still on its way: wait for it */
                level = (uint32_t)(*filled - issued);
            filled = NULL;
        } else if (!local && (al = allocation_of(l, sector[i] << 5)) && al->host_link) {
            /* pinned host memory (mapped): each sector crosses the host link, no L2 keeps it */
            if (is_store)
                host_writes++;
            else
                host_reads++, level = a->latency_global + a->latency_host_link;
        } else if (!local) {
            if (al && al->l2) {
                uint8_t before = ws_l2_mark(ws_l2_map(al), sector[i], is_store ? 3 : 1, l->global_atomics != NULL);
                if (is_store) {
                    dram_writes += !(before & 2);
                    slots++;
                    if (bytes[i] < 32)
                        bt->l1_partial_cycles += a->partial_write_cycles;
                } else if (before & 1) {
                    l2_hits++;
                } else {
                    dram++;
                    level = a->latency_global;
                }
            }
        } else if (is_store) {
            slots++;
            if (bytes[i] < 32)
                bt->l1_partial_cycles += a->partial_write_cycles;
        } else {
            l2_hits++;
        }
        if (filled)
            *filled = issued + level;
        if (level > latency)
            latency = level;
    }
    bt->l1_wavefronts += lines;   /* the L1TEX data stage moves one 128-byte line a cycle */
    w->tm.latency = latency + n / 4;   /* the L1 returns four sectors a cycle */
    w->tm.wait = WS_WAIT_LONG;
    ws_traffic *tr = &bt->traffic;
    if (!is_store) {
        tr->l1_lookups += n;
        tr->l1_hits += l1_hits;
        tr->l2_read_sectors += n - l1_hits - host_reads;
        tr->l2_read_hits += l2_hits;
        tr->dram_read_sectors += dram;
        tr->host_read_sectors += host_reads;
    } else {
        tr->host_write_sectors += host_writes;
        tr->l2_write_sectors += n - host_writes;
        tr->l2_write_slots += slots;
        tr->dram_write_sectors += dram_writes;
    }
}

int ws_timing_load_sectors_apply(const ws_exec *x, const ws_allocation *al)
{
    return ws_l1_caches_loads(x->launch, &x->block->tm) && ws_sectors_own(al);
}

void ws_timing_load_run_general(ws_exec *x, uint64_t lo, uint64_t end)
{
    ws_lane_span span = {.lo = lo, .hi = end, .any_bits = 0, .stride = 0, .segment_lanes = WS_WARP_SIZE};
    ws_timing_memory(x, PTX_SPACE_GLOBAL, NULL, WS_FULL_MASK, 1, 0, 0, &span);
}

WS_LANE_LOOPS int ws_timing_store_run(ws_exec *x, const ws_allocation *al, uint64_t a0, uint64_t stride, unsigned size)
{
    if (!ws_sectors_own(al))
        return 0;   /* store_sectors would not take them: the general path */
    x->warp->tm.latency = ws_timing_store_span(x->launch, &x->block->tm, al, a0, stride, size);
    x->warp->tm.wait = WS_WAIT_LONG;
    return 1;
}

WS_LANE_LOOPS uint32_t ws_timing_store_span(const ws_launch *l, ws_block_timing *bt, const ws_allocation *al,
                                            uint64_t a0, uint64_t stride, unsigned size)
{
    const ws_arch *a = l->arch;
    int far = stride > 32;   /* a sector a lane, in lane order (ws_timing_memory's "by more") */
    uint64_t first = a0 >> 5, last = (a0 + 31 * stride) >> 5;
    unsigned n = far ? WS_WARP_SIZE : (unsigned)(last - first + 1);
    unsigned lines = far ? ws_timing_far_lines(a0, stride) : (unsigned)((last >> 2) - (first >> 2) + 1);
    bt->waits[WS_WAIT_GLOBAL_STORE]++;
    uint32_t slots = 0, dram_writes = 0;
    if (al->l2) {   /* store_sectors' loop, the sectors' order and atomics' tests made once */
        uint8_t *map = ws_l2_map(al);
        /* Lanes 32-byte apart: lane i's sector is the first's + i * step, so a store to the first sector of the
         * last such store, by the same step, writes the sectors it marked written (and marks only ever get set
         * within a launch): no DRAM write, nothing to mark. */
        const int same_sectors = far && !(stride & 31);
        if (same_sectors && bt->far_store.map == map && bt->far_store.sector == first &&
            bt->far_store.step == stride >> 5)
            ;
        else if (l->global_atomics)
            for (unsigned i = 0; i < n; i++)
                dram_writes += !(ws_l2_mark(map, far ? (a0 + i * stride) >> 5 : first + i, 3, 1) & 2);
        else if (far)   /* a sector a lane, in lane order */
            for (uint64_t i = 0, at = a0; i < WS_WARP_SIZE; i++, at += stride)
                dram_writes += !(ws_l2_mark(map, at >> 5, 3, 0) & 2);
        else if (n == 4 && first % 4 == 0)   /* one whole line (a coalesced warp's): its four sectors at once */
            dram_writes = 4 - ws_four_bits((ws_l2_mark_four(map, first, 3) >> 1) & 0x55u);   /* the "written" bits */
        else
            for (unsigned i = 0; i < n; i++)
                dram_writes += !(ws_l2_mark(map, first + i, 3, 0) & 2);
        if (same_sectors)
            bt->far_store.map = map, bt->far_store.sector = first, bt->far_store.step = stride >> 5;
        /* the sectors given fewer than 32 bytes: none by one address (32 lanes' bytes), every one with
         * gaps between the lanes' elements, the ends of consecutive elements where they are not aligned */
        unsigned ends = (unsigned)((a0 & 31) != 0) + (unsigned)(((a0 + 32 * stride) & 31) != 0);
        unsigned partial = stride == 0 ? 0 : stride > size ? n : ends;
        bt->l1_partial_cycles += (uint64_t)partial * a->partial_write_cycles;
        slots = n;
    }
    bt->l1_wavefronts += lines;
    ws_traffic *tr = &bt->traffic;
    tr->l2_write_sectors += n;
    tr->l2_write_slots += slots;
    tr->dram_write_sectors += dram_writes;
    return a->latency_l2 + n / 4;
}

/* A word many updates queue on at L2: their cost in hundredths of a float update. */
static void hot_word(ws_launch_timing *t, uint64_t addr, uint64_t updates)
{
    uint64_t key = addr | 1;
    for (uint32_t i = 0, h = (uint32_t)((addr >> 2) * 2654435761u); i < WS_HOT_WORDS; i++) {
        ws_hot_word *s = &t->hot[(h + i) % WS_HOT_WORDS];
        uint64_t expected = 0;
        if (s->addr == key ||
            __atomic_compare_exchange_n(&s->addr, &expected, key, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED) ||
            expected == key) {
            add(&s->updates, updates);
            return;
        }
    }
}

void ws_timing_atomic(ws_exec *x, ptx_space space, const uint64_t addr[WS_WARP_SIZE], uint32_t mask,
                      int is_float, uint32_t serial_lanes)
{
    ws_launch *l = x->launch;
    const ws_arch *a = l->arch;
    ws_warp *w = x->warp;
    unsigned lanes = ws_popcount(mask);
    x->block->tm.waits[space == PTX_SPACE_SHARED ? ws_load_wait(w, 1)
                       : x->fn->instrs[x->pc].opcode == OP_red ? WS_WAIT_GLOBAL_REDUCTION : WS_WAIT_GLOBAL_ATOMIC]++;
    if (space == PTX_SPACE_SHARED) {
        /* Integer shared atomics are one pass per lane on a bank; float ones a CAS loop a lane at a time. */
        uint64_t cost = is_float ? (uint64_t)serial_lanes * a->shared_atomic_cycles : 2u * serial_lanes;
        x->block->tm.shared_cycles += cost;
        w->tm.latency = a->latency_shared + (uint32_t)cost;
        w->tm.wait = WS_WAIT_SHORT;
        return;
    }
    /* A real build folds an integer update of one word by the whole warp into one (warp-aggregated). */
    uint32_t updates = l->timing->aggregates_atomics && !is_float && serial_lanes + 1 == lanes ? 1 : serial_lanes + 1;
    uint32_t percent = is_float ? 100 : a->l2_atomic_int_percent;   /* of a float update's time */
    if (serial_lanes)
        hot_word(l->timing, addr[__builtin_ctz(mask)], (uint64_t)updates * percent);
    w->tm.latency = a->latency_l2 + updates * a->l2_atomic_cycles * percent / 100;
    w->tm.wait = WS_WAIT_LONG;
    x->block->tm.traffic.l2_atomic_updates += updates == 1 ? 1 : lanes;
}

/* ---- Barriers and the end of a block ------------------------------------------------ */

void ws_timing_barrier(ws_launch *l, ws_block *b, int id)
{
    uint64_t last = 0;
    for (int wi = 0; wi < b->warp_count; wi++) {
        ws_warp *w = &b->warps[wi];
        if (w->state == WS_WARP_AT_BARRIER && w->barrier_id == id && w->tm.cycle > last)
            last = w->tm.cycle;
    }
    uint64_t release = last + l->arch->latency_barrier;
    for (int wi = 0; wi < b->warp_count; wi++) {
        ws_warp *w = &b->warps[wi];
        if (w->state != WS_WARP_AT_BARRIER || w->barrier_id != id)
            continue;
        ws_frame *f = &w->frames[w->frame_depth - 1];
        f->counters[w->barrier_pc][WS_CTR_stall_barrier] += release - w->tm.cycle;
        w->tm.cycle = release;
        b->tm.waits[WS_WAIT_AT_BARRIER]++;
    }
}

void ws_timing_add_sums(ws_launch *l, const ws_block *b)
{
    ws_timing_sums *to = &l->timing->sums;
    to->issued += b->timing_sums.issued;
#define X(name) to->traffic.name += b->timing_sums.traffic.name;
    WS_TRAFFIC(X)
#undef X
}
