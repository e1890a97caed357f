/*
 * sim/timing_result.h: the timing model's end of a launch: occupancy (with registers estimated
 * from the PTX unless --regs gives them), the blocks' placement on the SMs (sim/timing_blocks.c), the chip's
 * bandwidth bounds, and the result in ncu's terms.
 */
#include "sim/timing_result.h"

#include <stdlib.h>
#include <string.h>

#include "sim/timing_blocks.h"
#include "sim/timing_internal.h"

const char *const ws_stall_names[WS_STALL_COUNT] = {
#define X(id, name, what) name,
    WS_STALL_REASONS(X)
#undef X
};
const char *const ws_stall_descriptions[WS_STALL_COUNT] = {
#define X(id, name, what) what,
    WS_STALL_REASONS(X)
#undef X
};

static const char *const bound_names[WS_BOUND_COUNT] = {
    [WS_BOUND_LAUNCH] = "launch overhead", [WS_BOUND_LATENCY] = "latency", [WS_BOUND_ISSUE] = "instruction issue",
    [WS_BOUND_PIPE] = "arithmetic pipe", [WS_BOUND_SHARED] = "shared memory (L1TEX)",
    [WS_BOUND_L1] = "L1TEX (global and shared accesses)",
    [WS_BOUND_L2] = "L2", [WS_BOUND_DRAM] = "DRAM", [WS_BOUND_ATOMIC] = "same-address atomics",
    [WS_BOUND_HOST] = "host memory over PCIe", [WS_BOUND_BLOCKS] = "block starts",
};

const char *ws_bound_name(ws_bound b) { return b < WS_BOUND_COUNT ? bound_names[b] : "?"; }

const ws_timing_result *ws_timing_result_of(const ws_launch *l) { return l->timing ? &l->timing->result : NULL; }

/* ---- Registers --------------------------------------------------------------------
 * ptxas allocates what is live at once: the most value registers live at any
 * instruction (a 64-bit one takes two), from a backward liveness pass over
 * the kernel, plus the few it reserves. --regs N overrides. */

/* The most 32-bit registers live at once in `fn`, from a backward liveness pass over its
 * instructions' register lists (ops[i], `stride` bytes apart), plus the few ptxas reserves. */
static uint32_t estimate_registers(const ws_arch *a, const ptx_function *fn, const ws_timing_op *ops, size_t stride)
{
    int n = fn->instr_count, regs = fn->value_reg_count + fn->pred_reg_count, words = (regs + 63) / 64;
    if (n == 0 || words == 0)
        return 16;
    uint64_t *live = calloc((size_t)n * (size_t)words, sizeof *live);   /* live on entry to i */
    uint64_t *out = calloc((size_t)words, sizeof *out);
    if (!live || !out) {
        free(live);
        free(out);
        return 32;
    }
    for (int changed = 1, rounds = 0; changed && rounds < 64; rounds++) {
        changed = 0;
        for (int i = n - 1; i >= 0; i--) {
            const ptx_instr *in = &fn->instrs[i];
            memset(out, 0, sizeof *out * (size_t)words);
            int succ[2], ns = 0;
            int ends = in->guard < 0 && (in->opcode == OP_ret || in->opcode == OP_exit || in->opcode == OP_trap ||
                                         in->opcode == OP_bra);
            if (in->opcode == OP_bra && in->operand[0].imm >= 0 && in->operand[0].imm < n)
                succ[ns++] = (int)in->operand[0].imm;
            if (!ends && i + 1 < n)
                succ[ns++] = i + 1;
            for (int k = 0; k < ns; k++)
                for (int j = 0; j < words; j++)
                    out[j] |= live[(size_t)succ[k] * words + j];
            const ws_timing_op *op = (const ws_timing_op *)((const char *)ops + (size_t)i * stride);
            if (in->guard < 0)
                for (int k = 0; k < op->ndst; k++)
                    out[op->dst[k] / 64] &= ~(UINT64_C(1) << (op->dst[k] % 64));
            for (int k = 0; k < op->nsrc; k++)
                out[op->src[k] / 64] |= UINT64_C(1) << (op->src[k] % 64);
            uint64_t *mine = &live[(size_t)i * words];
            if (memcmp(mine, out, sizeof *out * (size_t)words) != 0) {
                memcpy(mine, out, sizeof *out * (size_t)words);
                changed = 1;
            }
        }
    }
    uint32_t most = 0;
    for (int i = 0; i < n; i++) {
        uint32_t width = 0;
        for (int r = 0; r < fn->value_reg_count; r++)
            if (live[(size_t)i * words + r / 64] >> (r % 64) & 1)
                width += ptx_types[fn->value_reg_type[r]].size > 4 ? 2 : 1;
        most = width > most ? width : most;
    }
    free(live);
    free(out);
    uint32_t estimate = most + 6;   /* ptxas keeps a few for addresses and the stack pointer */
    return estimate > a->max_regs_per_thread ? a->max_regs_per_thread : estimate;
}

uint32_t ws_timing_estimate_registers(const ws_launch *l)
{
    const ws_decoded *dec = l->decoded[l->kernel_index];
    return estimate_registers(l->arch, l->kernel, &dec[0].timing, sizeof *dec);
}

uint32_t ws_timing_estimate_kernel_registers(const ws_arch *a, const ptx_function *fn)
{
    ws_timing_op *ops = calloc(fn->instr_count ? (size_t)fn->instr_count : 1, sizeof *ops);
    if (!ops)
        return 32;
    for (int i = 0; i < fn->instr_count; i++)
        ws_timing_decode(a, fn, &fn->instrs[i], &ops[i]);
    uint32_t regs = estimate_registers(a, fn, ops, sizeof *ops);
    free(ops);
    return regs;
}

/* sim/counters.def keeps a stall counter per reason, in the reasons' order */
_Static_assert(WS_CTR_stall_not_selected - WS_CTR_stall_long_scoreboard == WS_STALL_NOT_SELECTED &&
               WS_CTR_stall_branch_resolving - WS_CTR_stall_long_scoreboard == WS_STALL_BRANCH_RESOLVING,
               "stall counters out of WS_STALL_REASONS order");

/* The instructions each reason's time behind others goes to, by their counts. */
static uint64_t waiting_count(const uint64_t *c, int stall)
{
    switch (stall) {
    case WS_STALL_SHORT_SCOREBOARD: return c[WS_CTR_shared_ld_inst] + c[WS_CTR_shared_atom_inst];
    case WS_STALL_MIO_THROTTLE: return c[WS_CTR_shared_st_inst] + c[WS_CTR_shared_ld_inst];
    case WS_STALL_LG_THROTTLE: return c[WS_CTR_global_ld_inst] + c[WS_CTR_local_ld_inst];
    case WS_STALL_LONG_SCOREBOARD:
        return c[WS_CTR_global_ld_inst] + c[WS_CTR_local_ld_inst] + c[WS_CTR_global_atom_inst];
    case WS_STALL_BARRIER: return c[WS_CTR_barriers];
    default: return c[WS_CTR_issue_slots];
    }
}

/* Into the per-instruction counters (so lines add up to the kernel) and the launch's. */
static void spread_over_lines(ws_launch *l, const double *behind)
{
    for (int s = 0; s < WS_STALL_SELECTED; s++) {
        if (behind[s] < 1)
            continue;
        double all = 0;
        for (int f = 0; f < l->module->function_count; f++)
            for (int i = 0; l->instr_counters[f] && i < l->module->functions[f].instr_count; i++)
                all += (double)waiting_count(l->instr_counters[f][i], s);
        for (int f = 0; f < l->module->function_count; f++)
            for (int i = 0; all > 0 && l->instr_counters[f] && i < l->module->functions[f].instr_count; i++) {
                uint64_t *c = l->instr_counters[f][i];
                uint64_t mine = (uint64_t)(behind[s] * (double)waiting_count(c, s) / all);
                c[WS_CTR_stall_long_scoreboard + s] += mine;
                l->counters[WS_CTR_stall_long_scoreboard + s] += mine;
            }
    }
}

static double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0; }

void ws_timing_finish(ws_launch *l)
{
    ws_launch_timing *t = l->timing;
    if (!t)
        return;
    const ws_arch *a = l->arch;
    ws_timing_result *r = &t->result;
    memset(r, 0, sizeof *r);
    uint32_t threads = l->block_dim[0] * l->block_dim[1] * l->block_dim[2];
    uint32_t warps_per_block = (threads + 31) / 32, k = t->blocks_per_sm ? t->blocks_per_sm : 1;
    uint64_t sms = a->sm_count ? a->sm_count : 1;
    ws_block_placement *p = &t->placement;
    for (uint64_t b = p->placed; t->block && b < t->blocks; b++)   /* --jobs: the blocks placed in launch order */
        ws_block_placement_add(p, &t->block[b]);
    uint64_t co = p->co, kernel = p->kernel, path_max = p->path_max;
    const uint64_t *sm_busy = p->sm_busy, *sm_end = p->sm_end;
    double warp_cycles = p->warp_cycles, behind[WS_STALL_COUNT];   /* warp-cycles spent behind other warps */
    memcpy(behind, p->behind, sizeof behind);
    /* The chip's bounds: L2 slots, DRAM bytes, one word's queue of atomics. */
    double clock_hz = (a->timing_clock_mhz ? a->timing_clock_mhz : a->clock_mhz) * 1e6;
    double l2_slots = (double)(t->sums.traffic.l2_read_sectors + t->sums.traffic.l2_write_slots + t->sums.traffic.l2_atomic_updates) * 32;
    /* the L2 is write-back: written sectors reach DRAM when they are evicted, during the kernel
     * only beyond a quarter of its capacity (measured: 64 MiB written, 51-57 MiB to DRAM) */
    uint64_t l2_keeps = (uint64_t)a->l2_kib * 1024 / 4 / 32;
    uint64_t dram_writes = t->sums.traffic.dram_write_sectors > l2_keeps ? t->sums.traffic.dram_write_sectors - l2_keeps : 0;
    double dram_bytes = (double)(t->sums.traffic.dram_read_sectors + dram_writes) * 32;
    double dram_per_cycle = a->dram_gbps * 1e9 / clock_hz;
    uint64_t hottest = 0;
    for (int i = 0; i < WS_HOT_WORDS; i++)
        hottest = t->hot[i].updates > hottest ? t->hot[i].updates : hottest;
    r->bound_cycles[WS_BOUND_LATENCY] = (double)path_max;
    double sms_used = t->blocks < sms ? (double)(t->blocks ? t->blocks : 1) : (double)sms;   /* a small grid leaves SMs idle */
    for (int d = WS_BOUND_ISSUE; d <= WS_BOUND_L1; d++)
        r->bound_cycles[d] = p->demand[d] / sms_used;
    r->bound_cycles[WS_BOUND_L1] += r->bound_cycles[WS_BOUND_SHARED];   /* one L1TEX unit serves both */
    r->bound_cycles[WS_BOUND_L2] = l2_slots / (a->l2_bytes_per_cycle ? a->l2_bytes_per_cycle : 1);
    r->bound_cycles[WS_BOUND_DRAM] = dram_per_cycle > 0 ? dram_bytes / dram_per_cycle : 0;
    r->bound_cycles[WS_BOUND_ATOMIC] = (double)hottest * a->l2_atomic_cycles / 100;
    /* the host link carries both directions at once, each at mapped_gbps */
    double host_per_cycle = a->mapped_gbps * 1e9 / clock_hz;
    uint64_t host_sectors = t->sums.traffic.host_read_sectors > t->sums.traffic.host_write_sectors ? t->sums.traffic.host_read_sectors : t->sums.traffic.host_write_sectors;
    r->bound_cycles[WS_BOUND_HOST] = host_per_cycle > 0 ? (double)host_sectors * 32 / host_per_cycle : 0;
    double cycles = (double)kernel;
    double resident = kernel ? warp_cycles / (double)kernel : 0;   /* warps in flight, on average */
    r->bound = WS_BOUND_LATENCY;
    if (p->decided_by_demand * 2 > t->blocks) {   /* most blocks waited on their SM's resources */
        r->bound = WS_BOUND_ISSUE;
        for (int d = WS_BOUND_ISSUE; d <= WS_BOUND_L1; d++)
            if (d != WS_BOUND_SHARED && r->bound_cycles[d] > r->bound_cycles[r->bound])
                r->bound = (ws_bound)d;
        /* the L1TEX unit busy mostly with shared wavefronts: say shared memory */
        if (r->bound == WS_BOUND_L1 && 2 * r->bound_cycles[WS_BOUND_SHARED] > r->bound_cycles[WS_BOUND_L1])
            r->bound = WS_BOUND_SHARED;
    }
    /* most of the kernel spent starting its blocks one by one: many short blocks */
    r->bound_cycles[WS_BOUND_BLOCKS] = (double)((t->blocks + sms - 1) / sms) * a->block_launch_cycles;
    if (r->bound_cycles[WS_BOUND_BLOCKS] >= 0.75 * cycles && cycles > 0)
        r->bound = WS_BOUND_BLOCKS;
    for (int d = WS_BOUND_L2; d <= WS_BOUND_HOST; d++)
        if (r->bound_cycles[d] > cycles) {
            cycles = r->bound_cycles[d];
            r->bound = (ws_bound)d;
        }
    if (cycles > (double)kernel) {   /* the chip's memory: its global accesses (or its atomics) wait longer */
        uint64_t waits[WS_WAIT_POINT_COUNT] = {0};
        int atomics = r->bound == WS_BOUND_ATOMIC;
        for (int k = WS_WAIT_GLOBAL_LOAD; k < WS_WAIT_POINT_COUNT; k++)
            if (k >= WS_WAIT_GLOBAL_ATOMIC ||
                (!atomics && (k == WS_WAIT_GLOBAL_LOAD || k == WS_WAIT_GLOBAL_STORE || k == WS_WAIT_GLOBAL_QUEUED)))
                waits[k] = p->waits[k];
        ws_wait_behind(behind, r->bound, waits, (cycles - (double)kernel) * resident);
    }
    r->cycles = cycles;
    r->overhead_ns = a->launch_overhead_ns + t->extra_overhead_ns;
    r->bound_cycles[WS_BOUND_LAUNCH] = r->overhead_ns * 1e-9 * clock_hz;
    r->duration_ns = cycles / clock_hz * 1e9 + r->overhead_ns;
    r->elapsed_cycles = r->duration_ns * 1e-9 * clock_hz;   /* ncu's SMs count the launch's whole span */
    if (r->overhead_ns > r->duration_ns / 2)
        r->bound = WS_BOUND_LAUNCH;

    /* Occupancy, caches, throughputs. */
    r->regs = t->regs;
    r->regs_estimated = t->regs_estimated;
    r->blocks_per_sm = t->blocks_per_sm;
    r->occupancy_limit = t->occupancy_limit;
    r->theoretical_occupancy = pct((double)k * warps_per_block, a->max_warps_per_sm);
    double busy = 0;
    for (uint64_t s = 0; s < sms && sm_busy; s++) {
        /* an SM is active while it holds a block: its blocks' time over the co-resident ones, or, when
         * its blocks start one by one (block_launch_cycles), the whole span they are started over */
        double held = sm_busy[s] ? (double)sm_busy[s] / (double)co : 0;
        double paced = sm_busy[s] && sm_end ? (double)sm_end[s] : 0;
        busy += paced > held && r->bound == WS_BOUND_BLOCKS ? paced : held;
    }
    /* active warps per active cycle: each block's warps over its time, per SM busy time */
    r->achieved_occupancy = busy > 0 ? pct(warp_cycles / busy, a->max_warps_per_sm) : 0;
    if (r->achieved_occupancy > r->theoretical_occupancy)
        r->achieved_occupancy = r->theoretical_occupancy;
    r->waves = (double)t->blocks / (double)(sms * k);
    r->dram_read_bytes = t->sums.traffic.dram_read_sectors * 32;
    r->dram_write_bytes = dram_writes * 32;
    r->l1_hit_rate = pct((double)t->sums.traffic.l1_hits, (double)t->sums.traffic.l1_lookups);
    r->l2_hit_rate = pct((double)(t->sums.traffic.l2_read_hits + t->sums.traffic.l2_write_sectors),
                         (double)(t->sums.traffic.l2_read_sectors + t->sums.traffic.l2_write_sectors));
    double mem = r->bound_cycles[WS_BOUND_DRAM];
    for (int d = WS_BOUND_SHARED; d <= WS_BOUND_L2; d++)
        mem = r->bound_cycles[d] > mem ? r->bound_cycles[d] : mem;
    r->memory_throughput = pct(mem, cycles);
    double sm = r->bound_cycles[WS_BOUND_ISSUE] > r->bound_cycles[WS_BOUND_PIPE] ? r->bound_cycles[WS_BOUND_ISSUE]
              : r->bound_cycles[WS_BOUND_PIPE];
    r->sm_throughput = pct(sm, cycles);
    r->issue_active = pct(r->bound_cycles[WS_BOUND_ISSUE], cycles);
    /* Stalls per warp, as ncu's smsp__average_warp_latency_issue_stalled_*.ratio: the
     * warps' own waits and their time behind other warps, from the counters, and a
     * cycle selected per issued instruction. */
    spread_over_lines(l, behind);
    double warps = (double)t->blocks * warps_per_block;
    warps = warps > 0 ? warps : 1;
    for (int s = 0; s < WS_STALL_SELECTED; s++)
        r->stall[s] = (double)l->counters[WS_CTR_stall_long_scoreboard + s] / warps;
    r->stall[WS_STALL_SELECTED] = (double)t->sums.issued / warps;
}

void ws_timing_verdict(const ws_timing_result *r, char *out, size_t len)
{
    double us = r->duration_ns / 1000;
    switch (r->bound) {
    case WS_BOUND_LAUNCH:
        snprintf(out, len, "launch-bound: %.1f of its %.1f us are the launch overhead; more work per launch would be free",
                 r->overhead_ns / 1000, us);
        break;
    case WS_BOUND_DRAM:
    case WS_BOUND_HOST:
    case WS_BOUND_L2:
    case WS_BOUND_L1:
    case WS_BOUND_SHARED:
        snprintf(out, len, "memory-bound: %s at %.0f%% of peak", ws_bound_name(r->bound),
                 r->cycles > 0 ? 100.0 * r->bound_cycles[r->bound] / r->cycles : 0);
        break;
    case WS_BOUND_ISSUE:
    case WS_BOUND_PIPE:
        snprintf(out, len, "compute-bound: %s at %.0f%% of peak", ws_bound_name(r->bound),
                 r->cycles > 0 ? 100.0 * r->bound_cycles[r->bound] / r->cycles : 0);
        break;
    case WS_BOUND_ATOMIC:
        snprintf(out, len, "atomic-bound: updates of one word queue at L2 (%.0f%% of the time)",
                 r->cycles > 0 ? 100.0 * r->bound_cycles[r->bound] / r->cycles : 0);
        break;
    case WS_BOUND_BLOCKS:
        snprintf(out, len, "block-start-bound: each SM starts one block at a time (%.0f%% of the time); "
                 "fewer, larger blocks would start faster",
                 r->cycles > 0 ? 100.0 * r->bound_cycles[r->bound] / r->cycles : 0);
        break;
    default: {
        int worst = 0;
        for (int s = 0; s < WS_STALL_SELECTED; s++)
            if (r->stall[s] > r->stall[worst])
                worst = s;
        snprintf(out, len, "latency-bound: warps issue on %.0f%% of the cycles; they wait mostly on %s (%s)",
                 r->issue_active, ws_stall_names[worst], ws_stall_descriptions[worst]);
        break;
    }
    }
}
