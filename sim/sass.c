/*
 * Branches that PTX does not show but the GPU executes.
 *
 * validate/ compares warpsim with ncu on PTX JIT-compiled at optimisation
 * level 0, where SASS follows PTX one for one except for the sequences below,
 * each read in the SASS listings (validate/results/<gpu>/sass) and counted by
 * ncu on an H100 (2026-11-22). They add to smsp__sass_branch_targets and its
 * uniform/divergent split like any warp-level branch.
 */
#include "sim/sass.h"

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
