/*
 * What ptxas -O0 makes of PTX that the PTX does not show: the class of an
 * instruction's expansion into SASS (sim/sass_o0.def: its issue slots at
 * --build O0), then branches that PTX does not show but the GPU executes.
 *
 * validate/ compares warpsim with ncu on PTX JIT-compiled at optimisation
 * level 0, where SASS follows PTX one for one except for the sequences below,
 * each read in the SASS listings (validate/results/<gpu>/sass) and counted by
 * ncu on an H100 (2026-11-22). They add to smsp__sass_branch_targets and its
 * uniform/divergent split like any warp-level branch.
 */
#include "sim/sass.h"

const char *const ws_o0_class_names[WS_O0_CLASS_COUNT] = {
#define O(name, sass) #name,
#include "sim/sass_o0.def"
#undef O
};
const uint8_t ws_o0_sass[WS_O0_CLASS_COUNT] = {
#define O(name, sass) sass,
#include "sim/sass_o0.def"
#undef O
};

static int is_64bit(ptx_type t) { return ptx_types[t].size == 8; }

ws_o0_class ws_o0_class_of(const ptx_instr *in)
{
    ptx_type t = (ptx_type)in->type;
    int shared = in->space == PTX_SPACE_SHARED, local = in->space == PTX_SPACE_LOCAL,
        param = in->space == PTX_SPACE_PARAM || in->space == PTX_SPACE_CONST;
    switch (in->opcode) {
    case OP_mov: return is_64bit(t) ? WS_O0_mov64 : WS_O0_mov;
    case OP_ld: case OP_ldu:
        return shared ? WS_O0_ld_shared : local ? WS_O0_ld_local : param ? WS_O0_ld_param : WS_O0_ld_global;
    case OP_st: return shared ? WS_O0_st_shared : local ? WS_O0_st_local : WS_O0_st_global;
    case OP_atom: case OP_red: return shared ? WS_O0_atom_shared : WS_O0_atom_global;
    case OP_cvta: return WS_O0_cvta;
    case OP_cvt: return WS_O0_cvt;
    case OP_setp: return WS_O0_setp;
    case OP_bra: case OP_call: return WS_O0_branch;
    case OP_ret: case OP_exit: case OP_trap: return WS_O0_exit;
    case OP_bar_sync: case OP_bar_arrive: case OP_bar_red: case OP_bar_warp_sync: case OP_membar: case OP_fence:
        return WS_O0_barrier;
    case OP_vote: case OP_shfl: case OP_redux: case OP_activemask: return WS_O0_warp;
    case OP_div: case OP_rem: case OP_rcp: case OP_sqrt:
        if (ptx_types[t].kind != PTX_KIND_FLOAT)
            return WS_O0_idiv;
        return in->flags & (PTX_FLAG_APPROX | PTX_FLAG_FULL) ? WS_O0_float : WS_O0_fdiv;
    default:
        return ptx_types[t].kind == PTX_KIND_FLOAT ? WS_O0_float : is_64bit(t) ? WS_O0_int64 : WS_O0_int;
    }
}

static void count_branch(ws_exec *x, uint32_t taken, uint32_t mask)
{
    ws_count_branch(ws_icounters(x), taken, mask);
}

int ws_sass_has_branches(const ptx_instr *in)
{
    switch (in->opcode) {
    case OP_ld: case OP_ldu: case OP_st: case OP_atom: case OP_red:
        return in->guard >= 0 && in->space != PTX_SPACE_PARAM;
    case OP_div:
    case OP_rem:
        return in->type == PTX_S32 || in->type == PTX_S64 || in->type == PTX_U64;
    case OP_rcp:
        return in->type == PTX_F32 && in->rounding == PTX_RND_RN && !(in->flags & PTX_FLAG_APPROX);
    default:
        return 0;
    }
}

void ws_sass_branches(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    switch (in->opcode) {
    case OP_ld: case OP_ldu: case OP_st: case OP_atom: case OP_red:
        /* A guarded memory access becomes BSSY; @!P BRA over it; BSYNC. Counted also
         * when the guard is false in every lane (probes/pred.ptx). */
        if (in->guard >= 0 && in->space != PTX_SPACE_PARAM)
            count_branch(x, mask, x->active);
        return;
    case OP_div:
    case OP_rem: {
        if (!mask)
            return;
        ptx_type t = (ptx_type)in->type;
        if (t == PTX_S32) {
            /* div.s32 divides magnitudes, then `@P BRA` skips the negation when a^b >= 0;
             * rem.s32 likewise when a >= 0 (probes/div.ptx). */
            uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE];
            const uint64_t *a = ws_src(x, &in->operand[1], ta), *b = ws_src(x, &in->operand[2], tb);
            uint32_t skip = 0;
            WS_FOR_LANES(mask, lane) {
                uint32_t sign = in->opcode == OP_div ? (uint32_t)(a[lane] ^ b[lane]) : (uint32_t)a[lane];
                skip |= (uint32_t)!(sign >> 31) << lane;
            }
            count_branch(x, skip, mask);
        } else if (t == PTX_S64 || t == PTX_U64) {
            /* 64-bit division is a called subroutine with two branches in it. */
            count_branch(x, mask, mask);
            count_branch(x, mask, mask);
        }
        return;
    }
    case OP_rcp:
        /* rcp.rn.f32: `@P BRA` to the fast path when ((bits + 0x1800000) & 0x7f800000) >
         * 0x1ffffff; zero, subnormal, huge, infinite and NaN operands call a subroutine and
         * branch back. For a zero operand (1/(float)0 in programs/003_divergence) ncu counted
         * 5 branches inside the subroutine; warpsim assumes the same for the other classes. */
        if (mask && in->type == PTX_F32 && in->rounding == PTX_RND_RN && !(in->flags & PTX_FLAG_APPROX)) {
            uint64_t ta[WS_WARP_SIZE];
            const uint64_t *a = ws_src(x, &in->operand[1], ta);
            uint32_t fast = 0;
            WS_FOR_LANES(mask, lane)
                fast |= (uint32_t)((((uint32_t)a[lane] + 0x1800000u) & 0x7f800000u) > 0x1ffffffu) << lane;
            count_branch(x, fast, mask);
            if (fast != mask)
                for (int k = 0; k < 6; k++)   /* the subroutine's 5 and the branch back to the join */
                    count_branch(x, mask & ~fast, mask & ~fast);
        }
        return;
    default:
        return;
    }
}

/* A function with a local frame starts, in SASS, with a check of the stack
 * pointer against the local memory limit (`@P0 BRA` over a trap) that every
 * warp takes; counted on the function's first instruction. */
void ws_count_stack_check(ws_launch *l, int32_t fn_index)
{
    const ptx_function *fn = &l->module->functions[fn_index];
    if (fn->local_size == 0 || fn->instr_count == 0)
        return;
    ws_count_branch(l->instr_counters[fn_index][0], 1, 1);   /* taken by every lane */
}
