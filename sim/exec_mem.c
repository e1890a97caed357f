/*
 * The memory instructions' handlers (isa/opcodes.def's MEM class): ld, ldu and st enter the one-pass paths
 * (sim/exec_mem_runs.c: ws_load, ws_store), which fall back on the general one (sim/exec_mem_lanes.c); atom,
 * red and cvta are here.
 */
#include <pthread.h>
#include <string.h>

#include "sim/exec.h"

#include "sim/capture.h"
#include "sim/exec_mem_helpers.h"
#include "sim/exec_mem_runs.h"
#include "sim/memory.h"
#include "sim/timing.h"

void exec_ld(ws_exec *x, const ptx_instr *in, uint32_t mask) { ws_load(x, in, mask); }
void exec_ldu(ws_exec *x, const ptx_instr *in, uint32_t mask) { ws_load(x, in, mask); }
void exec_st(ws_exec *x, const ptx_instr *in, uint32_t mask) { ws_store(x, in, mask); }

/* ---- Atomics ---------------------------------------------------------------- */

static uint64_t atomic_apply(const ptx_instr *in, uint64_t old, uint64_t b, uint64_t c)
{
    ptx_type t = (ptx_type)in->type;
    unsigned bits = ws_type_bits(t);
    ptx_type_kind kind = ptx_types[t].kind;
    switch (in->mode) {
    case PTX_ATOM_ADD:
        if (t == PTX_F32) return ws_f32_bits(ws_f32(old) + ws_f32(b));
        if (t == PTX_F64) return ws_f64_bits(ws_f64(old) + ws_f64(b));
        return ws_trunc(old + b, bits);
    case PTX_ATOM_MIN:
    case PTX_ATOM_MAX: {
        int less;
        if (kind == PTX_KIND_SIGNED) less = ws_sext(b, bits) < ws_sext(old, bits);
        else if (t == PTX_F32) less = ws_f32(b) < ws_f32(old);
        else if (t == PTX_F64) less = ws_f64(b) < ws_f64(old);
        else less = ws_trunc(b, bits) < ws_trunc(old, bits);
        if (in->mode == PTX_ATOM_MIN) return less ? ws_trunc(b, bits) : old;
        int greater;
        if (kind == PTX_KIND_SIGNED) greater = ws_sext(b, bits) > ws_sext(old, bits);
        else if (t == PTX_F32) greater = ws_f32(b) > ws_f32(old);
        else if (t == PTX_F64) greater = ws_f64(b) > ws_f64(old);
        else greater = ws_trunc(b, bits) > ws_trunc(old, bits);
        return greater ? ws_trunc(b, bits) : old;
    }
    case PTX_ATOM_INC: return (old >= ws_trunc(b, bits)) ? 0 : old + 1;
    case PTX_ATOM_DEC: return (old == 0 || old > ws_trunc(b, bits)) ? ws_trunc(b, bits) : old - 1;
    case PTX_ATOM_EXCH: return ws_trunc(b, bits);
    case PTX_ATOM_CAS: return old == ws_trunc(b, bits) ? ws_trunc(c, bits) : old;
    case PTX_ATOM_AND: return old & b;
    case PTX_ATOM_OR: return old | b;
    case PTX_ATOM_XOR: return ws_trunc(old ^ b, bits);
    default: return old;
    }
}

/* atom d, [a], b{, c} and red [a], b: lane by lane, in lane order. */
static void atomic(ws_exec *x, const ptx_instr *in, uint32_t mask, int returns)
{
    unsigned size = ptx_types[in->type].size;
    const ptx_operand *addr_op = &in->operand[returns ? 1 : 0];
    uint64_t tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    const uint64_t *b = ws_src(x, &in->operand[returns ? 2 : 1], tb);
    const uint64_t *c = (returns && in->operand_count > 3) ? ws_src(x, &in->operand[3], tc) : b;
    uint64_t addr[WS_WARP_SIZE];
    ptx_space requested = ws_lane_addresses(x, in, addr_op, mask, addr);
    uint64_t old_values[WS_WARP_SIZE];
    int shared = 0, faulted = 0;
    /* Blocks on other threads (--jobs) may update the same global words:
     * the warp's read-modify-writes happen under the launch's lock. */
    pthread_mutex_t *lock = requested == PTX_SPACE_SHARED ? NULL : x->launch->global_atomics;
    if (lock)
        pthread_mutex_lock(lock);
    WS_FOR_LANES(mask, lane) {
        ptx_space s = requested;
        uint8_t *p = ws_memory_access(x, in, lane, &s, &addr[lane], size, 1);
        if (!p) {
            faulted = 1;
            break;
        }
        shared |= s == PTX_SPACE_SHARED;
        uint64_t old = load_bytes(p, size);
        uint64_t nv = atomic_apply(in, old, b[lane], c[lane]);
        memcpy(p, &nv, size);
        old_values[lane] = old;
    }
    if (lock)
        pthread_mutex_unlock(lock);
    if (faulted)
        return;
    uint64_t *ic = ws_icounters(x);
    ic[shared ? WS_CTR_shared_atom_inst : returns ? WS_CTR_global_atom_inst : WS_CTR_global_red_inst]++;
    if (shared) {
        /* A shared atomic is a read-modify-write per lane: no multicast, so each bank
         * serves one pass per lane that maps to it (32 wavefronts for 32 lanes on one
         * address, as ncu counted on an H100 for programs/003_atomics). */
        uint32_t per_bank[32] = {0}, worst = 0;
        WS_FOR_LANES(mask, lane) {
            uint32_t n = ++per_bank[(addr[lane] >> 2) & 31];
            worst = n > worst ? n : worst;
        }
        ic[WS_CTR_shared_wavefronts] += worst;
        ic[WS_CTR_shared_atom_wavefronts] += worst;
        if (x->launch->capture)
            ws_capture_access(x, PTX_SPACE_SHARED, addr, mask, size, 1, worst);
        if (x->launch->timing)
            ws_timing_atomic(x, PTX_SPACE_SHARED, addr, mask, ptx_types[in->type].kind == PTX_KIND_FLOAT, worst);
    } else {
        /* Lanes on a word an earlier lane of the warp already updated: the memory
         * system applies them one after another (a histogram with one hot bin). */
        uint32_t repeats = 0, seen = 0;
        WS_FOR_LANES(mask, lane) {
            for (int k = 0; k < lane; k++)
                if ((seen >> k & 1u) && addr[k] >> 2 == addr[lane] >> 2) {
                    repeats++;
                    break;
                }
            seen |= 1u << lane;
        }
        ic[WS_CTR_global_atom_same_address] += repeats;
        if (x->launch->timing)
            ws_timing_atomic(x, PTX_SPACE_GLOBAL, addr, mask, ptx_types[in->type].kind == PTX_KIND_FLOAT, repeats);
    }
    if (returns) {
        uint64_t *d = ws_dst(x, &in->operand[0]);
        if (d)
            WS_FOR_LANES(mask, lane) d[lane] = old_values[lane];
    }
}

void exec_atom(ws_exec *x, const ptx_instr *in, uint32_t mask) { atomic(x, in, mask, 1); }
void exec_red(ws_exec *x, const ptx_instr *in, uint32_t mask) { atomic(x, in, mask, 0); }

/* ---- cvta ---------------------------------------------------------------- */

/* Generic addresses of shared and local memory are windows (sim/state.h);
 * global and const addresses are the same in both forms. */
void exec_cvta(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    uint64_t tmp[WS_WARP_SIZE];
    const uint64_t *a = ws_src(x, &in->operand[1], tmp);
    uint64_t window = in->space == PTX_SPACE_SHARED ? WS_SHARED_WINDOW
                    : in->space == PTX_SPACE_LOCAL ? WS_LOCAL_WINDOW : 0;
    unsigned bits = ws_type_bits((ptx_type)in->type);
    uint64_t *d = ws_dst(x, &in->operand[0]);
    if (!d)
        return;
    uint64_t delta = (in->flags & PTX_FLAG_TO) ? (uint64_t)0 - window : window;
    WS_FOR_LANES(mask, lane) d[lane] = ws_trunc(a[lane] + delta, bits);
}

