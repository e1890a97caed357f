/*
 * Register shapes (sim/shape.h, sim/shape.c) on rows and shapes written by hand: the shape a row is
 * found to have (runs, a 2D block's rows, wrap-around at 2^64, negative steps, stale lanes), adds of
 * rows and uniform steps, what ws_shape_after leaves for a partial warp, a uniform value and a
 * 64-bit move or add, and which moves of kernel parameters ws_shape_prune makes uniform values.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"
#include "sim/exec.h"
#include "sim/shape.h"

#define NREG 4

/* lane i of the row: base + (i % width) * stride + (i / width) * row_step, mod 2^64 */
static void fill(uint64_t row[WS_WARP_SIZE], uint64_t base, uint64_t stride, unsigned width, uint64_t row_step)
{
    for (unsigned i = 0; i < WS_WARP_SIZE; i++)
        row[i] = base + (i % width) * stride + (i / width) * row_step;
}

static void assert_shape(const ws_shape *s, uint64_t base, uint64_t stride, unsigned width, uint64_t row_step)
{
    ck_assert_msg(s->known, "no shape");
    ck_assert_uint_eq(s->base, base);
    ck_assert_uint_eq(s->stride, stride);
    ck_assert_uint_eq(s->width, width);
    ck_assert_uint_eq(s->row_step, row_step);
}

START_TEST(rows_have_their_shapes)
{
    uint64_t row[WS_WARP_SIZE];
    ws_shape s;
    fill(row, 0x1000, 4, 32, 0);   /* threadIdx.x * 4 + a base */
    ws_shape_of_row(row, &s);
    assert_shape(&s, 0x1000, 4, 32, 0);
    fill(row, 5, 0, 32, 0);   /* uniform */
    ws_shape_of_row(row, &s);
    assert_shape(&s, 5, 0, 32, 0);
    fill(row, UINT64_MAX - 3, 1, 32, 0);   /* wraps at 2^64 after lane 3: still one run mod 2^64 */
    ws_shape_of_row(row, &s);
    assert_shape(&s, UINT64_MAX - 3, 1, 32, 0);
    ck_assert_uint_eq(row[4], 0);
    fill(row, 1000, (uint64_t)-8, 32, 0);   /* a negative step */
    ws_shape_of_row(row, &s);
    assert_shape(&s, 1000, (uint64_t)-8, 32, 0);
    fill(row, 0x2000, 4, 16, 512);   /* a 16x16 block's warp: two rows of 16 */
    ws_shape_of_row(row, &s);
    assert_shape(&s, 0x2000, 4, 16, 512);
    fill(row, 64, 8, 8, (uint64_t)-1024);   /* rows of 8 stepping back */
    ws_shape_of_row(row, &s);
    assert_shape(&s, 64, 8, 8, (uint64_t)-1024);
    fill(row, 7, 0, 4, 100);   /* rows of 4 lanes alike (threadIdx.y of a 4-wide block, scaled) */
    ws_shape_of_row(row, &s);
    assert_shape(&s, 7, 0, 4, 100);
    fill(row, 0, 4, 16, 64);   /* rows that step on as the lanes do are one run */
    ws_shape_of_row(row, &s);
    assert_shape(&s, 0, 4, 32, 0);
}
END_TEST

START_TEST(rows_without_shapes)
{
    uint64_t row[WS_WARP_SIZE];
    ws_shape s;
    fill(row, 0x1000, 4, 32, 0);
    row[31] = 0;   /* a stale lane (a partial warp's write) */
    ws_shape_of_row(row, &s);
    ck_assert(!s.known);
    fill(row, 0x1000, 4, 16, 512);
    row[17] = 1;   /* the second row's second lane off */
    ws_shape_of_row(row, &s);
    ck_assert(!s.known);
    for (unsigned i = 0; i < WS_WARP_SIZE; i++)
        row[i] = (uint64_t)i * i;   /* no rows of any width */
    ws_shape_of_row(row, &s);
    ck_assert(!s.known);
    fill(row, 0, 1, 4, 4);   /* one run but lane 31: the run fails, and every width's lane 31 */
    row[31] = 99;
    ws_shape_of_row(row, &s);
    ck_assert(!s.known);
}
END_TEST

static ws_shape shape_of(uint64_t base, uint64_t stride, unsigned width, uint64_t row_step)
{
    return (ws_shape){base, stride, row_step, 1, (uint8_t)width, 0};
}

START_TEST(adds_of_rows)
{
    ws_shape a = shape_of(0x2000, 4, 16, 512), u = shape_of(16, 0, 32, 0), d;
    ck_assert(ws_shape_add_rows(&a, &u, &d));   /* rows plus a uniform step: the rows, moved */
    assert_shape(&d, 0x2010, 4, 16, 512);
    ck_assert(ws_shape_add_rows(&u, &a, &d));   /* either way round */
    assert_shape(&d, 0x2010, 4, 16, 512);
    ws_shape in_place = a;   /* d the rows' own register: add.s64 %rd1, %rd1, %rd2 */
    ck_assert(ws_shape_add_rows(&in_place, &u, &in_place));
    assert_shape(&in_place, 0x2010, 4, 16, 512);
    in_place = u;   /* d the step's register */
    ck_assert(ws_shape_add_rows(&a, &in_place, &in_place));
    assert_shape(&in_place, 0x2010, 4, 16, 512);
    ws_shape neg = shape_of((uint64_t)-0x2000, 0, 32, 0);   /* wraps to 16 */
    ck_assert(ws_shape_add_rows(&a, &neg, &d));
    assert_shape(&d, 0, 4, 16, 512);
    ws_shape run = shape_of(100, 1, 32, 0);   /* a run taken as rows of 16: row step 16 */
    ck_assert(ws_shape_add_rows(&a, &run, &d));
    assert_shape(&d, 0x2064, 5, 16, 528);
    ws_shape up = shape_of(0x2000, 0, 16, 512), back = shape_of(0, 0, 16, (uint64_t)-512);
    ck_assert(ws_shape_add_rows(&up, &back, &d));   /* rows that cancel: one uniform run */
    assert_shape(&d, 0x2000, 0, 32, 0);
    ws_shape eights = shape_of(0, 4, 8, 64);   /* rows of 16 and of 8: no shape of the sum's */
    ck_assert(!ws_shape_add_rows(&a, &eights, &d));
}
END_TEST

/* A warp's registers and shapes for ws_shape_after. */
typedef struct {
    uint64_t reg[NREG][WS_WARP_SIZE];
    ws_shape shape[NREG];
    ws_exec x;
} regs;

static void regs_init(regs *r)
{
    memset(r, 0, sizeof *r);
    r->x.reg = &r->reg[0][0];
    r->x.reg_stride = WS_WARP_SIZE;
    r->x.shape = r->shape;
}

static ptx_instr instr(ptx_opcode opcode, int32_t d, int32_t a, const ptx_operand *b)
{
    ptx_instr in;
    memset(&in, 0, sizeof in);
    in.opcode = opcode;
    in.guard = -1;
    in.operand_count = b ? 3 : 2;
    in.operand[0] = (ptx_operand){.kind = PTX_OPD_REG, .reg = d, .symbol = -1};
    in.operand[1] = (ptx_operand){.kind = PTX_OPD_REG, .reg = a, .symbol = -1};
    if (b)
        in.operand[2] = *b;
    return in;
}

START_TEST(partial_warps_forget_without_looking)
{
    regs r;
    regs_init(&r);
    fill(r.reg[1], 0x1000, 4, 32, 0);   /* a source with a shape nothing has looked for */
    fill(r.reg[2], 8, 0, 32, 0);
    r.shape[0] = shape_of(1, 2, 32, 0);   /* the destination's old shape */
    ptx_operand b = {.kind = PTX_OPD_REG, .reg = 2, .symbol = -1};
    ptx_instr in = instr(OP_add, 0, 1, &b);
    ws_shape_op op = {.kind = WS_SHAPE_ADD, .width = 64, .ndst = 1, .dst = {0}};
    ws_shape_after(&r.x, &op, &in, 0x0000ffffu);
    ck_assert(!r.shape[0].known && !r.shape[0].looked);   /* looked for when an access needs it */
    ck_assert(!r.shape[1].known && !r.shape[1].looked);   /* its sources untouched */
    ck_assert(!r.shape[2].known && !r.shape[2].looked);
    op = (ws_shape_op){.kind = WS_SHAPE_UNIFORM, .ndst = 1, .dst = {0}};
    r.shape[0] = shape_of(1, 2, 32, 0);
    ws_shape_after(&r.x, &op, &in, 1u);
    ck_assert(!r.shape[0].known);
    fill(r.reg[0], 42, 0, 32, 0);
    ws_shape_after(&r.x, &op, &in, WS_FULL_MASK);   /* a full warp's: lane 0's value */
    assert_shape(&r.shape[0], 42, 0, 32, 0);
}
END_TEST

START_TEST(full_warps_keep_moves_and_adds)
{
    regs r;
    regs_init(&r);
    fill(r.reg[0], 0xdead0000, 0, 32, 0);
    ptx_instr in = instr(OP_ld, 0, 1, NULL);
    ws_shape_op op = {.kind = WS_SHAPE_UNIFORM, .ndst = 1, .dst = {0}};
    ws_shape_after(&r.x, &op, &in, WS_FULL_MASK);   /* a kernel parameter's load */
    assert_shape(&r.shape[0], 0xdead0000, 0, 32, 0);
    r.shape[1] = shape_of(0x2000, 4, 16, 512);
    in = instr(OP_cvta, 2, 1, NULL);
    op = (ws_shape_op){.kind = WS_SHAPE_MOV, .width = 64, .ndst = 1, .dst = {2}};
    ws_shape_after(&r.x, &op, &in, WS_FULL_MASK);   /* a 64-bit move: the source's shape */
    assert_shape(&r.shape[2], 0x2000, 4, 16, 512);
    ptx_operand imm = {.kind = PTX_OPD_IMM, .reg = -1, .symbol = -1, .imm = -0x10};
    in = instr(OP_add, 2, 2, &imm);
    op = (ws_shape_op){.kind = WS_SHAPE_ADD, .width = 64, .ndst = 1, .dst = {2}};
    ws_shape_after(&r.x, &op, &in, WS_FULL_MASK);   /* add.s64 %rd2, %rd2, -16 */
    assert_shape(&r.shape[2], 0x1ff0, 4, 16, 512);
    ptx_operand step = {.kind = PTX_OPD_REG, .reg = 0, .symbol = -1};
    in = instr(OP_add, 3, 2, &step);
    op = (ws_shape_op){.kind = WS_SHAPE_ADD, .width = 64, .ndst = 1, .dst = {3}};
    ws_shape_after(&r.x, &op, &in, WS_FULL_MASK);   /* rows plus a uniform register */
    assert_shape(&r.shape[3], 0xdead1ff0, 4, 16, 512);
    r.shape[1].known = 0;   /* a source without a shape: the result has none */
    in = instr(OP_cvta, 2, 1, NULL);
    op = (ws_shape_op){.kind = WS_SHAPE_MOV, .width = 64, .ndst = 1, .dst = {2}};
    r.shape[1].looked = 1;   /* (looked for already: nothing to find) */
    ws_shape_after(&r.x, &op, &in, WS_FULL_MASK);
    ck_assert(!r.shape[2].known && !r.shape[2].looked);
}
END_TEST

/* A kernel: ld.param %rd0; [extra]; cvta %rd1, %rd0; ld.global %r2, [%rd1] (ops as decode gives them);
 * at index 1 `extra`: a store that reads no register (OP_st), a branch to `target` (OP_bra), or an instruction
 * writing `extra_dst`. */
typedef struct {
    ptx_function fn;
    ptx_instr in[4];
    ws_shape_op ops[4];
    ws_register_list kept;
} kernel;

static void kernel_init(kernel *k, int is_entry, ptx_opcode extra, int32_t extra_dst, int64_t target)
{
    memset(k, 0, sizeof *k);
    k->fn.is_entry = (uint8_t)is_entry;
    k->fn.value_reg_count = 3;
    k->fn.instrs = k->in;
    k->fn.instr_count = 4;
    k->in[0] = instr(OP_ld, 0, -1, NULL);
    k->in[0].operand[1] = (ptx_operand){.kind = PTX_OPD_ADDR, .reg = -1, .symbol = 0};
    k->ops[0] = (ws_shape_op){.kind = WS_SHAPE_UNIFORM, .ndst = 1, .dst = {0}};
    k->in[1] = instr(OP_st, -1, -1, NULL);
    k->in[1].operand[0] = (ptx_operand){.kind = PTX_OPD_ADDR, .reg = -1, .symbol = 0};
    k->in[1].operand[1] = (ptx_operand){.kind = PTX_OPD_IMM, .reg = -1, .symbol = -1};
    if (extra == OP_bra) {
        k->in[1].opcode = OP_bra;
        k->in[1].operand_count = 1;
        k->in[1].operand[0] = (ptx_operand){.kind = PTX_OPD_LABEL, .reg = 0, .symbol = -1, .imm = target};
    } else if (extra != OP_st) {
        k->in[1] = instr(extra, extra_dst, 2, NULL);
        k->ops[1] = (ws_shape_op){.kind = WS_SHAPE_CLEAR, .ndst = 1, .dst = {extra_dst}};
    }
    k->in[2] = instr(OP_cvta, 1, 0, NULL);
    k->ops[2] = (ws_shape_op){.kind = WS_SHAPE_MOV, .width = 64, .ndst = 1, .dst = {1}};
    k->in[3] = instr(OP_ld, 2, -1, NULL);
    k->in[3].operand[1] = (ptx_operand){.kind = PTX_OPD_ADDR, .reg = 1, .symbol = -1};
    k->ops[3] = (ws_shape_op){.kind = WS_SHAPE_CLEAR, .ndst = 1, .dst = {2}};
}

START_TEST(moves_of_kernel_parameters_are_uniform)
{
    kernel k;
    kernel_init(&k, 1, OP_st, -1, 0);   /* the straight start: the cvta is a uniform value, the load's unused */
    ck_assert_int_eq(ws_shape_prune(&k.fn, k.ops, &k.kept), 0);
    ck_assert_int_eq(k.ops[2].kind, WS_SHAPE_UNIFORM);
    ck_assert_int_eq(k.ops[0].kind, WS_SHAPE_NONE);
    ck_assert_int_eq(k.kept.count, 1);
    ck_assert_int_eq(k.kept.regs[0], 1);
    free(k.kept.regs);
    kernel_init(&k, 1, OP_bra, -1, 3);   /* a branch between: the load ran before it, with every lane */
    ck_assert_int_eq(ws_shape_prune(&k.fn, k.ops, &k.kept), 0);
    ck_assert_int_eq(k.ops[2].kind, WS_SHAPE_UNIFORM);
    free(k.kept.regs);
}
END_TEST

START_TEST(other_moves_keep_their_sources)
{
    kernel k;
    struct {
        int is_entry;
        ptx_opcode extra;
        int32_t extra_dst;
        int64_t target;
        int guarded;
    } cases[] = {
        {0, OP_st, -1, 0, 0},   /* a .func: its parameters are each thread's */
        {1, OP_bra, -1, 0, 0},   /* a branch back to the load: it may run again with fewer lanes */
        {1, OP_add, 0, 0, 0},    /* another writer of the parameter's register */
        {1, OP_st, -1, 0, 1},   /* the load guarded: some lanes may not have run it */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        kernel_init(&k, cases[c].is_entry, cases[c].extra, cases[c].extra_dst, cases[c].target);
        if (cases[c].guarded)
            k.in[0].guard = 0;
        ck_assert_int_eq(ws_shape_prune(&k.fn, k.ops, &k.kept), 0);
        ck_assert_msg(k.ops[2].kind == WS_SHAPE_MOV, "case %zu: the move's kind %d", c, k.ops[2].kind);
        ck_assert_int_eq(k.kept.count, 2);   /* the parameter's register, whose shape the move reads */
        free(k.kept.regs);
    }
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("shape");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, rows_have_their_shapes);
    tcase_add_test(tc, rows_without_shapes);
    tcase_add_test(tc, adds_of_rows);
    tcase_add_test(tc, partial_warps_forget_without_looking);
    tcase_add_test(tc, full_warps_keep_moves_and_adds);
    tcase_add_test(tc, moves_of_kernel_parameters_are_uniform);
    tcase_add_test(tc, other_moves_keep_their_sources);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}
