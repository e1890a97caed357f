/* Source operands that are not plain registers or immediates: special
 * registers and symbol addresses, for all 32 lanes; and where a symbol lives. */
#include "sim/operand.h"

#include "sim/state.h"

int ws_operand_uniform(ws_exec *x, const ptx_operand *op, uint64_t *value)
{
    ws_launch *l = x->launch;
    ws_warp *w = x->warp;
    if (op->kind == PTX_OPD_SYMBOL) {
        uint64_t addr;
        ws_symbol_location(x, op->symbol, &addr);
        *value = addr + (uint64_t)op->imm;
        return 1;
    }
    if (op->kind != PTX_OPD_SREG) {
        *value = (uint64_t)op->imm;
        return 1;
    }
    uint64_t v = 0;
    switch ((ptx_sreg)op->reg) {
    case PTX_SREG_TID_X: case PTX_SREG_TID_Y: case PTX_SREG_TID_Z:
    case PTX_SREG_LANEID:
    case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_GT: case PTX_SREG_LANEMASK_GE:
        return 0;   /* lane by lane */
    case PTX_SREG_NTID_X: case PTX_SREG_NTID_Y: case PTX_SREG_NTID_Z:
        v = l->block_dim[op->reg - PTX_SREG_NTID_X];
        break;
    case PTX_SREG_CTAID_X: case PTX_SREG_CTAID_Y: case PTX_SREG_CTAID_Z:
        v = x->block->ctaid[op->reg - PTX_SREG_CTAID_X];
        break;
    case PTX_SREG_NCTAID_X: case PTX_SREG_NCTAID_Y: case PTX_SREG_NCTAID_Z:
        v = l->grid[op->reg - PTX_SREG_NCTAID_X];
        break;
    case PTX_SREG_WARPID:
        v = (uint64_t)w->index;
        break;
    case PTX_SREG_NWARPID:
        v = (uint64_t)l->arch->max_warps_per_sm;
        break;
    case PTX_SREG_SMID:
        v = (uint64_t)x->block->smid;
        break;
    case PTX_SREG_NSMID:
        v = (uint64_t)l->arch->sm_count;
        break;
    case PTX_SREG_CLOCK:
    case PTX_SREG_CLOCK64:
        /* Deterministic, whatever the number of threads: the warp-instructions
         * this block has executed so far stand in for cycles. */
        v = op->reg == PTX_SREG_CLOCK ? (uint32_t)x->block->steps : x->block->steps;
        break;
    default:
        break;
    }
    *value = v;
    return 1;
}

const uint32_t *ws_operand_tid(ws_exec *x, const ptx_operand *op)
{
    if (op->kind != PTX_OPD_SREG || op->reg < PTX_SREG_TID_X || op->reg > PTX_SREG_TID_Z)
        return NULL;
    return x->warp->tid[op->reg - PTX_SREG_TID_X];
}

void ws_read_operand_slow(ws_exec *x, const ptx_operand *op, uint64_t out[WS_WARP_SIZE])
{
    uint64_t v;
    if (ws_operand_uniform(x, op, &v)) {
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            out[lane] = v;
        return;
    }
    switch ((ptx_sreg)op->reg) {
    case PTX_SREG_TID_X: case PTX_SREG_TID_Y: case PTX_SREG_TID_Z: {
        const uint32_t *t = x->warp->tid[op->reg - PTX_SREG_TID_X];
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            out[lane] = t[lane];
        return;
    }
    case PTX_SREG_LANEID:
        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
            out[lane] = (uint64_t)lane;
        return;
    default:   /* the lane masks */
        for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
            uint32_t eq = 1u << lane, lt = eq - 1;
            uint32_t m = op->reg == PTX_SREG_LANEMASK_EQ ? eq
                       : op->reg == PTX_SREG_LANEMASK_LT ? lt
                       : op->reg == PTX_SREG_LANEMASK_LE ? (lt | eq)
                       : op->reg == PTX_SREG_LANEMASK_GT ? ~(lt | eq) : ~lt;
            out[lane] = m;
        }
        return;
    }
}

/* ---- Symbols -------------------------------------------------------------- */

ptx_space ws_symbol_location(ws_exec *x, int32_t symbol, uint64_t *addr)
{
    const ptx_module *m = x->launch->module;
    const ptx_symbol *s = &m->symbols[symbol];
    ws_warp *w = x->warp;
    switch ((ptx_space)s->space) {
    case PTX_SPACE_PARAM:
        if (ws_symbol_is_kernel_param(m, s)) {
            *addr = s->offset;               /* the kernel's parameter buffer */
            return PTX_SPACE_PARAM;
        }
        /* A .func's parameters, and call-scope .params, live in the thread's frame. */
        {
            const ws_frame *f = &w->frames[w->frame_depth - 1];
            uint64_t base = f->local_base + (s->kind == PTX_SYM_VARIABLE ? ws_frame_param_offset(f->fn) : 0);
            *addr = base + s->offset;
        }
        return PTX_SPACE_LOCAL;
    case PTX_SPACE_LOCAL: {
        const ws_frame *f = &w->frames[w->frame_depth - 1];
        *addr = f->local_base + ws_frame_param_offset(f->fn) + s->offset;
        return PTX_SPACE_LOCAL;
    }
    case PTX_SPACE_SHARED:
        *addr = x->launch->symbol_address[symbol];
        return PTX_SPACE_SHARED;
    default:   /* .global and .const variables: global addresses */
        *addr = x->launch->symbol_address[symbol];
        return s->space == PTX_SPACE_CONST ? PTX_SPACE_CONST : PTX_SPACE_GLOBAL;
    }
}
