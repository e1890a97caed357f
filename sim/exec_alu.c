/*
 * The ALU handlers: mov, setp, selp, and the opcodes that exist for both
 * integers and floats (add sub mul mad div abs neg min max), which pick
 * their half here by the instruction type.
 *
 * The rest live by concern: sim/exec_alu_int.c (integer arithmetic),
 * sim/exec_alu_float.c (floating point), sim/exec_alu_bits.c (logic, shifts,
 * bit fields, prmt), sim/exec_alu_cvt.c (cvt); cvta is sim/exec_mem.c's (it
 * needs the address windows). isa/opcodes.def names the file of every handler.
 */
#include "sim/exec_alu.h"

/* ---- integer or float ------------------------------------------------------ */

void exec_add(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_add(x, in, mask);
    else
        alu_int_add(x, in, mask);
}

void exec_sub(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_sub(x, in, mask);
    else
        alu_int_sub(x, in, mask);
}

void exec_mul(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_mul(x, in, mask);
    else
        alu_int_mul(x, in, mask);
}

void exec_div(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_div(x, in, mask);
    else
        alu_int_div(x, in, mask);
}

void exec_abs(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_abs(x, in, mask);
    else
        alu_int_abs(x, in, mask);
}

void exec_neg(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_neg(x, in, mask);
    else
        alu_int_neg(x, in, mask);
}

void exec_min(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_min(x, in, mask);
    else
        alu_int_min(x, in, mask);
}

void exec_max(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_max(x, in, mask);
    else
        alu_int_max(x, in, mask);
}

/* mad on floats is fma (sm_20 and later) */
void exec_mad(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    if (alu_is_float((ptx_type)in->type))
        alu_fp_fma(x, in, mask);
    else
        alu_int_mad(x, in, mask);
}

/* ---- mov ------------------------------------------------------------------
 * d = a for a register, immediate, special register or symbol address (the
 * last two through ws_src); mov.pred copies a predicate. Vectors split the
 * type into count equal elements, element 0 lowest:
 *   mov.b64 %rd, {%r1, %r2}   packs   %rd = %r2:%r1
 *   mov.b64 {%r1, %r2}, %rd   unpacks %r1 = %rd[31:0], %r2 = %rd[63:32]
 * (a `_` element is skipped when unpacking and reads 0 when packing). */
void exec_mov(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    const ptx_operand *dop = &in->operand[0], *sop = &in->operand[1];
    if (in->type == PTX_PRED || dop->kind == PTX_OPD_PRED) {
        ws_pred_set(x, dop, mask, ws_pred_src(x, sop));
        return;
    }
    unsigned bits = ws_type_bits((ptx_type)in->type);
    uint64_t m = alu_wmask(bits);

    if (dop->kind == PTX_OPD_VEC) {                       /* unpack */
        if (!dop->count)
            return;
        unsigned ew = bits / dop->count;
        uint64_t em = alu_wmask(ew), v[WS_WARP_SIZE];
        ALU_SRC(a, 1);
        memcpy(v, a, sizeof v);                           /* a may be one of the elements */
        for (unsigned i = 0; i < dop->count && i < PTX_MAX_VEC; i++) {
            if (dop->regs[i] < 0)
                continue;
            uint64_t *d = ws_row(x, dop->regs[i]);
            ALU_LANES ALU_PUT(d, mask, (v[l] >> (i * ew & 63)) & em);
        }
        return;
    }

    ALU_DST(d, 0);
    if (sop->kind == PTX_OPD_VEC) {                       /* pack */
        unsigned n = sop->count < PTX_MAX_VEC ? sop->count : PTX_MAX_VEC;
        if (!n)
            return;
        unsigned ew = bits / n;
        uint64_t em = alu_wmask(ew);
        const uint64_t *e[PTX_MAX_VEC];
        static const uint64_t zero[WS_WARP_SIZE];
        for (unsigned i = 0; i < n; i++)
            e[i] = sop->regs[i] >= 0 ? ws_row(x, sop->regs[i]) : zero;
        ALU_LANES {
            uint64_t r = 0;
            for (unsigned i = 0; i < n; i++)
                r |= (e[i][l] & em) << (i * ew & 63);
            ALU_PUT(d, mask, r & m);
        }
        return;
    }

    ALU_SRC(a, 1);
    ALU_LANES ALU_PUT(d, mask, a[l] & m);
}

/* ---- selp: d = c ? a : b ------------------------------------------------- */

void exec_selp(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    ALU_DST(d, 0); ALU_SRC(a, 1); ALU_SRC(b, 2);
    uint64_t m = alu_wmask(ws_type_bits((ptx_type)in->type));
    uint32_t c = ws_pred_src(x, &in->operand[3]);
    ALU_LANES ALU_PUT(d, mask, ((c >> l & 1) ? a[l] : b[l]) & m);
}

/* ---- setp ------------------------------------------------------------------
 * t = a CMP b; p = t BOOLOP c; q = !t BOOLOP c (no BOOLOP: p = t, q = !t).
 * Operands: p, then q when written (a predicate, `_`, or an empty slot),
 * then a, b, and c when there is a BOOLOP. */
void exec_setp(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    const ptx_operand *pop = &in->operand[0], *qop = NULL;
    int i = 1;
    uint8_t k = in->operand[1].kind;
    if (k == PTX_OPD_PRED || k == PTX_OPD_SINK || k == PTX_OPD_NONE) {
        qop = &in->operand[1];
        i = 2;
    }
    ALU_SRC(a, i); ALU_SRC(b, i + 1);
    uint32_t t = alu_is_float((ptx_type)in->type) ? alu_fp_setp(in, a, b) : alu_int_cmp(in, a, b);
    uint32_t p = t, q = ~t;
    if (in->boolop != PTX_BOOL_NONE) {
        uint32_t c = ws_pred_src(x, &in->operand[i + 2]);
        switch (in->boolop) {
        case PTX_BOOL_AND: p = t & c; q = ~t & c; break;
        case PTX_BOOL_OR:  p = t | c; q = ~t | c; break;
        default:           p = t ^ c; q = ~t ^ c; break;
        }
    }
    ws_pred_set(x, pop, mask, p);
    if (qop)
        ws_pred_set(x, qop, mask, q);
}
