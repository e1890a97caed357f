/* Block barriers and warp-level operations: bar, vote, shfl, activemask,
 * and the memory-ordering instructions (no-ops: warpsim's memory is
 * sequentially consistent, one warp-instruction at a time). */
#include <string.h>

#include "sim/check.h"
#include "sim/fault.h"
#include "sim/its.h"
#include "sim/warp.h"

/* A uniform operand's value, lane `lane`'s: a register's or an immediate's read alone, anything else
 * through ws_src (every barrier runs this: a 32-lane copy of an immediate cost more than the rest). */
static uint64_t lane_value(ws_exec *x, const ptx_operand *op, int lane)
{
    if (op->kind == PTX_OPD_IMM)
        return (uint64_t)op->imm;
    if (op->kind == PTX_OPD_REG)
        return ws_row(x, op->reg)[lane];
    uint64_t tmp[WS_WARP_SIZE];
    return ws_src(x, op, tmp)[lane];
}

/* The membermask operand's value (the first executing lane's: it is the same in all of them). */
static uint32_t member_mask(ws_exec *x, const ptx_operand *op, uint32_t mask)
{
    return (uint32_t)lane_value(x, op, __builtin_ctz(mask));
}

/* The first thread to arrive opens the barrier's round. */
static void barrier_open(ws_block *b, int id, uint32_t count)
{
    if (b->barrier[id].arrived)
        return;
    memset(&b->barrier[id], 0, sizeof b->barrier[id]);
    b->barrier[id].red_and = 1;
    b->barrier[id].expected = count;
}

/* The barrier number and thread count operands (uniform: lane 0 of the mask decides). */
static int barrier_operands(ws_exec *x, const ptx_instr *in, uint32_t mask, int count_operand, uint32_t *count)
{
    int lane = __builtin_ctz(mask);
    uint64_t id = lane_value(x, &in->operand[count_operand - 1], lane);
    if (id >= WS_MAX_BARRIERS) {
        ws_fault(x, in, lane, "barrier %llu does not exist (0 to %d)", (unsigned long long)id, WS_MAX_BARRIERS - 1);
        return -1;
    }
    *count = 0;
    if (count_operand < in->operand_count && in->operand[count_operand].kind != PTX_OPD_PRED) {
        *count = (uint32_t)lane_value(x, &in->operand[count_operand], lane);
        if (*count == 0 || *count % WS_WARP_SIZE) {
            ws_fault(x, in, lane, "barrier thread count %u is not a positive multiple of the warp size", *count);
            return -1;
        }
    }
    return (int)id;
}

static inline __attribute__((always_inline)) void arrive(ws_exec *x, const ptx_instr *in, uint32_t mask, int id,
                                                         int wait)
{
    ws_block *b = x->block;
    ws_warp *w = x->warp;
    ws_icounters(x)[WS_CTR_barriers]++;
    ws_its_sync(x);   /* a barrier orders the warp's lanes too */
    /* a full warp's count without ws_popcount's arithmetic (no popcnt instruction), which a select would run */
    if (__builtin_expect(mask == WS_FULL_MASK, 1))
        b->barrier[id].arrived += WS_WARP_SIZE;
    else
        b->barrier[id].arrived += ws_popcount(mask);
    if (wait) {
        w->state = WS_WARP_AT_BARRIER;
        w->barrier_pc = x->pc;
        w->barrier_id = id;
        w->barrier_mask = mask;
        w->barrier_instr = in;
    } else {
        ws_advance(x);
    }
    if (ws_barrier_complete(b, id))
        ws_barrier_check(x->launch, b, id);
}

/* bar.sync a{, b} waits at barrier a; bar.arrive a, b only counts itself in. Out of line: exec_bar_sync's
 * common case then saves fewer registers. */
static __attribute__((noinline)) void barrier_instruction(ws_exec *x, const ptx_instr *in, uint32_t mask, int wait)
{
    uint32_t count;
    int id;
    if (!mask) {
        ws_advance(x);
        return;
    }
    if ((id = barrier_operands(x, in, mask, 1, &count)) < 0)
        return;
    barrier_open(x->block, id, count);
    arrive(x, in, mask, id, wait);
}

/* __syncthreads (bar.sync of a barrier number alone, an immediate: no thread count), which every barrier of
 * the block runs, without barrier_operands's general reading: the same work. */
void exec_bar_sync(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    const ptx_operand *a = &in->operand[0];
    if (mask && in->operand_count == 1 && a->kind == PTX_OPD_IMM && (uint64_t)a->imm < WS_MAX_BARRIERS) {
        barrier_open(x->block, (int)a->imm, 0);
        arrive(x, in, mask, (int)a->imm, 1);
        return;
    }
    barrier_instruction(x, in, mask, 1);
}
void exec_bar_arrive(ws_exec *x, const ptx_instr *in, uint32_t mask) { barrier_instruction(x, in, mask, 0); }

/* bar.red.op d, a{, b}, {!}c */
void exec_bar_red(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    uint32_t count;
    int id;
    if (!mask) {
        ws_advance(x);
        return;
    }
    if ((id = barrier_operands(x, in, mask, 2, &count)) < 0)
        return;
    uint32_t p = ws_pred_src(x, &in->operand[in->operand_count - 1]) & mask;
    ws_block *b = x->block;
    barrier_open(b, id, count);
    b->barrier[id].red_popc += ws_popcount(p);
    b->barrier[id].red_or |= p != 0;
    b->barrier[id].red_and &= p == mask;
    arrive(x, in, mask, id, 1);
}

void exec_vote(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_advance(x);
    if (!mask)
        return;
    if (x->launch->synccheck && (in->flags & PTX_FLAG_SYNC) && in->operand_count > 2)
        ws_sync_warp(x, in, mask, member_mask(x, &in->operand[2], mask));
    ws_its_sync(x);
    uint32_t p = ws_pred_src(x, &in->operand[1]) & mask;
    const ptx_operand *d = &in->operand[0];
    switch (in->mode) {
    case PTX_VOTE_ALL:
        ws_pred_set(x, d, mask, p == mask ? WS_FULL_MASK : 0);
        break;
    case PTX_VOTE_ANY:
        ws_pred_set(x, d, mask, p ? WS_FULL_MASK : 0);
        break;
    case PTX_VOTE_UNI:
        ws_pred_set(x, d, mask, (p == 0 || p == mask) ? WS_FULL_MASK : 0);
        break;
    default: { /* ballot */
        uint64_t *r = ws_dst(x, d);
        if (r)
            WS_FOR_LANES(mask, lane)
                r[lane] = p;
        break;
    }
    }
}

/* bar.warp.sync membermask (__syncwarp): warpsim's warps issue their active
 * lanes together; the warp's count of warp barriers lets racecheck treat
 * accesses on either side as ordered, and under --sched its the lanes see
 * each other's stores from here on. */
void exec_bar_warp_sync(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_advance(x);
    if (!mask)
        return;
    x->warp->warp_syncs++;
    ws_its_sync(x);
    if (x->launch->synccheck)
        ws_sync_warp(x, in, mask, member_mask(x, &in->operand[0], mask));
}

/* redux.sync.op.type d, a, membermask: the reduction of a over the active lanes, in each of them. */
void exec_redux(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_advance(x);
    if (!mask)
        return;
    if (x->launch->synccheck)
        ws_sync_warp(x, in, mask, member_mask(x, &in->operand[2], mask));
    ws_its_sync(x);
    uint64_t ta[WS_WARP_SIZE];
    const uint64_t *a = ws_src(x, &in->operand[1], ta);
    int first = 1;
    uint32_t acc = 0;
    WS_FOR_LANES(mask, lane) {
        uint32_t v = (uint32_t)a[lane];
        if (first) {
            acc = v;
            first = 0;
            continue;
        }
        switch (in->mode) {
        case PTX_ATOM_ADD: acc += v; break;
        case PTX_ATOM_MIN: acc = in->type == PTX_S32 ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case PTX_ATOM_MAX: acc = in->type == PTX_S32 ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        case PTX_ATOM_AND: acc &= v; break;
        case PTX_ATOM_OR: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    uint64_t *d = ws_dst(x, &in->operand[0]);
    if (d)
        WS_FOR_LANES(mask, lane)
            d[lane] = acc;
}

/* shfl.sync.mode.b32 d|p, a, b, c, membermask: the PTX manual's lane arithmetic. */
void exec_shfl(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_advance(x);
    if (!mask)
        return;
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE], result[WS_WARP_SIZE];
    /* operand layout: d, [q], a, b, c, [membermask]; q is present when the second operand is a predicate */
    int k = (in->operand_count > 1 && (in->operand[1].kind == PTX_OPD_PRED || in->operand[1].kind == PTX_OPD_SINK)
             && in->operand_count >= 5) ? 2 : 1;
    if (x->launch->synccheck && in->operand_count > k + 3)
        ws_sync_warp(x, in, mask, member_mask(x, &in->operand[k + 3], mask));
    ws_its_sync(x);
    const uint64_t *a = ws_src(x, &in->operand[k], ta);
    const uint64_t *b = ws_src(x, &in->operand[k + 1], tb);
    const uint64_t *c = ws_src(x, &in->operand[k + 2], tc);
    uint32_t in_range = 0;
    WS_FOR_LANES(mask, lane) {
        int bval = (int)(b[lane] & 0x1f), cval = (int)(c[lane] & 0x1f), segmask = (int)(c[lane] >> 8 & 0x1f);
        int max_lane = (lane & segmask) | (cval & ~segmask), min_lane = lane & segmask, j, ok;
        switch (in->mode) {
        case PTX_SHFL_UP:   j = lane - bval; ok = j >= max_lane; break;
        case PTX_SHFL_DOWN: j = lane + bval; ok = j <= max_lane; break;
        case PTX_SHFL_BFLY: j = lane ^ bval; ok = j <= max_lane; break;
        default:            j = min_lane | (bval & ~segmask); ok = j <= max_lane; break;
        }
        if (!ok)
            j = lane;
        result[lane] = a[j] & 0xffffffffu;
        in_range |= (uint32_t)ok << lane;
    }
    uint64_t *d = ws_dst(x, &in->operand[0]);
    if (d)
        WS_FOR_LANES(mask, lane)
            d[lane] = result[lane];
    if (k == 2)
        ws_pred_set(x, &in->operand[1], mask, in_range);
}

void exec_activemask(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ws_advance(x);
    uint64_t *d = ws_dst(x, &in->operand[0]);
    if (d)
        WS_FOR_LANES(mask, lane)
            d[lane] = mask;
}

void exec_membar(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    (void)in; (void)mask;
    ws_advance(x);
}

void exec_fence(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    (void)in; (void)mask;
    ws_advance(x);
}
