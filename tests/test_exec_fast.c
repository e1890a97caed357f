/*
 * The specialised handlers (sim/exec_fast.c) against the general ones: every
 * opcode, type and modifier combination that ws_specialised_handler takes,
 * on random registers (with the awkward floats mixed in) and random lane
 * masks, must leave the registers, predicates and carry flag exactly as the
 * general handler does.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "sim/arch.h"
#include "sim/exec.h"
#include "sim/exec_fast.h"
#include "sim/setup.h"
#include "sim/shape.h"
#include "sim/state.h"

#define NREG 6
#define NPRED 4

typedef struct {
    uint64_t reg[NREG][WS_WARP_SIZE];
    uint32_t pred[NPRED];
    uint32_t carry;
} machine_state;

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A register value: small and large integers, and floats of every class. */
static uint64_t value(void)
{
    static const uint64_t special[] = {
        0, 1, 2, 31, 32, 33, 63, 64, 0xffffffffu, 0x80000000u, 0x7fffffffu, UINT64_MAX, UINT64_C(1) << 63,
        0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fa00000u, 0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u,
        0x00800000u, 0x80000000u, 0x4b800000u,
    };
    switch (rnd() % 4) {
    case 0: return special[rnd() % (sizeof special / sizeof special[0])];
    case 1: return rnd() % 100;
    case 2: return rnd() & 0xffffffffu;
    default: return rnd();
    }
}

static void randomise(machine_state *m)
{
    for (int r = 0; r < NREG; r++)
        for (int l = 0; l < WS_WARP_SIZE; l++)
            m->reg[r][l] = value();
    for (int p = 0; p < NPRED; p++)
        m->pred[p] = (uint32_t)rnd();
    m->carry = (uint32_t)rnd();
}

/* `at`: the launch, block and warp the instruction runs in (special registers read them), or NULL. */
static void run_on(machine_state *m, const ptx_function *fn, ws_exec_fn handler, const ptx_instr *in, uint32_t mask,
                   const ws_exec *at)
{
    ws_exec x;
    memset(&x, 0, sizeof x);
    if (at)
        x = *at;
    x.fn = fn;
    x.reg = &m->reg[0][0];
    x.reg_stride = WS_WARP_SIZE;
    x.pred = m->pred;
    x.carry = &m->carry;
    x.active = mask;
    handler(&x, in, mask);
}

/* The general handler and `fast` from one random state, lanes `mask` (`at` as run_on's): 1 when the
 * registers, predicates or carry they leave differ. */
static int handlers_differ(const ptx_function *fn, const ptx_instr *in, ws_exec_fn fast, uint32_t mask,
                           const ws_exec *at)
{
    machine_state general, special;
    randomise(&general);
    special = general;
    run_on(&general, fn, ws_exec_table[in->opcode], in, mask, at);
    run_on(&special, fn, fast, in, mask, at);
    return memcmp(&general, &special, sizeof general) != 0;
}

static ptx_operand reg(int r)
{
    ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPD_REG;
    o.reg = r;
    o.symbol = -1;
    return o;
}

static ptx_operand source(int r)
{
    ptx_operand o = reg(r);
    if (rnd() % 4 == 0) {
        o.kind = PTX_OPD_IMM;
        o.reg = -1;
        o.imm = (int64_t)value();
    }
    return o;
}

static ptx_operand pred(int p)
{
    ptx_operand o = reg(p);
    o.kind = PTX_OPD_PRED;
    return o;
}

/* A function of NREG registers, whose types the handlers read. */
typedef struct {
    ptx_function fn;
    uint8_t types[NREG];
} test_function;

static void test_function_init(test_function *t)
{
    memset(t, 0, sizeof *t);
    t->fn.value_reg_type = t->types;
    t->fn.value_reg_count = NREG;
}

/* Random register types, 32 or 64 bits, for the next instruction. */
static void draw_types(test_function *t)
{
    for (int r = 0; r < NREG; r++)
        t->types[r] = (uint8_t)(rnd() % 2 ? PTX_B32 : PTX_B64);
}

static const ptx_opcode opcodes[] = {OP_add, OP_sub, OP_mul, OP_mad, OP_fma, OP_and, OP_or, OP_xor, OP_not,
                                     OP_shl, OP_shr, OP_mov, OP_cvta, OP_cvt, OP_setp};

/* A predicate source: a predicate, negated or not, or an immediate 0 or 1 now and then. */
static ptx_operand pred_source(void)
{
    ptx_operand o = pred((int)(rnd() % NPRED));
    if (rnd() % 5 == 0) {
        o.kind = PTX_OPD_IMM;
        o.reg = -1;
        o.imm = (int64_t)(rnd() % 2);
    } else {
        o.negated = rnd() % 2;
    }
    return o;
}

/* A random instruction of one of the opcodes above. */
static ptx_instr random_instr(void)
{
    ptx_instr in;
    memset(&in, 0, sizeof in);
    in.opcode = (uint16_t)opcodes[rnd() % (sizeof opcodes / sizeof opcodes[0])];
    in.type = (uint8_t)(1 + rnd() % (PTX_TYPE_COUNT - 2));   /* b8 .. f64 */
    in.type2 = rnd() % 2 ? (uint8_t)(1 + rnd() % (PTX_TYPE_COUNT - 2)) : 0;
    in.vec = 1;
    in.guard = -1;
    in.call = -1;
    in.mode = (uint8_t)(rnd() % 4);
    in.rounding = (uint8_t)(rnd() % 3);
    in.cmp = (uint8_t)(1 + rnd() % (PTX_CMP_COUNT - 1));
    in.space = (uint8_t)(rnd() % 6);
    if (rnd() % 4 == 0)
        in.flags = (uint16_t)(1u << (rnd() % 7));
    if (in.opcode == OP_setp) {
        int two = rnd() % 2;
        in.operand[0] = pred(0);
        in.operand_count = 3;
        if (two) {
            in.operand[1] = pred(1);
            in.operand[2] = source(1);
            in.operand[3] = source(2);
            in.operand_count = 4;
        } else {
            in.operand[1] = source(1);
            in.operand[2] = source(2);
        }
        return in;
    }
    int logic = in.opcode == OP_and || in.opcode == OP_or || in.opcode == OP_xor || in.opcode == OP_not;
    if (logic && rnd() % 3 == 0) {   /* on predicates (a bounds test's and, not) */
        in.type = PTX_PRED;
        in.operand[0] = pred((int)(rnd() % NPRED));   /* sources may be the destination */
        in.operand_count = in.opcode == OP_not ? 2 : 3;
        for (int i = 1; i < in.operand_count; i++)
            in.operand[i] = pred_source();
        return in;
    }
    int sources = in.opcode == OP_mov || in.opcode == OP_cvta || in.opcode == OP_cvt || in.opcode == OP_not ? 1
                : in.opcode == OP_mad || in.opcode == OP_fma ? 3 : 2;
    in.operand[0] = reg(0);
    for (int i = 1; i <= sources; i++)
        in.operand[i] = source((int)(rnd() % NREG));   /* sources may be the destination */
    in.operand_count = (uint8_t)(sources + 1);
    return in;
}

START_TEST(specialised_handlers_match_general_ones)
{
    test_function t;
    test_function_init(&t);
    int specialised = 0, on_predicates = 0;
    for (int trial = 0; trial < 200000; trial++) {
        ptx_instr in = random_instr();
        draw_types(&t);
        ws_handler_shape computes;
        ws_exec_fn fast = ws_specialised_handler(&t.fn, &in, &computes);
        if (!fast)
            continue;
        specialised++;
        on_predicates += in.type == PTX_PRED;
        uint32_t mask = rnd() % 2 ? WS_FULL_MASK : (uint32_t)rnd() | 1u;
        ck_assert_msg(!handlers_differ(&t.fn, &in, fast, mask, NULL),
                      "opcode %s type %s type2 %d mode %d flags %#x rounding %d cmp %d: results differ",
                      ptx_opcodes[in.opcode].spelling, ptx_types[in.type].name, in.type2, in.mode, in.flags,
                      in.rounding, in.cmp);
    }
    ck_assert_int_gt(specialised, 10000);
    ck_assert_int_gt(on_predicates, 1000);   /* and, or, xor, not.pred */
}
END_TEST

/* Handler h from one random state, once with the warp's rows alone (32 lanes apart) and once laid out as
 * a kernel frame's are (sim/exec.h): register by register, the rows of 3 warps side by side, the state's
 * those of the middle one. 1 when the two leave different registers, predicates or carry, or the second
 * touched another warp's rows. */
static int rows_by_register_differ(const ptx_function *fn, ws_exec_fn h, const ptx_instr *in, uint32_t mask)
{
    enum { WARPS = 3, ME = 1 };
    static uint64_t block[NREG][WARPS][WS_WARP_SIZE], before[NREG][WARPS][WS_WARP_SIZE];
    machine_state alone, laid;
    randomise(&alone);
    laid = alone;
    for (int r = 0; r < NREG; r++)
        for (int k = 0; k < WARPS; k++)
            for (int l = 0; l < WS_WARP_SIZE; l++)
                block[r][k][l] = k == ME ? alone.reg[r][l] : value();
    memcpy(before, block, sizeof block);
    run_on(&alone, fn, h, in, mask, NULL);
    ws_exec x;
    memset(&x, 0, sizeof x);
    x.fn = fn;
    x.reg = &block[0][ME][0];
    x.reg_stride = WARPS * WS_WARP_SIZE;
    x.pred = laid.pred;
    x.carry = &laid.carry;
    x.active = mask;
    h(&x, in, mask);
    for (int r = 0; r < NREG; r++) {
        if (memcmp(block[r][ME], alone.reg[r], sizeof alone.reg[r]) != 0)
            return 1;
        for (int k = 0; k < WARPS; k++)
            if (k != ME && memcmp(block[r][k], before[r][k], sizeof block[r][k]) != 0)
                return 1;
    }
    return memcmp(laid.pred, alone.pred, sizeof laid.pred) != 0 || laid.carry != alone.carry;
}

/* The general and the specialised handlers find a register's row by the frame's stride: the same results
 * in a kernel frame's rows, laid out by register among the block's warps, and nothing else touched. */
START_TEST(handlers_find_rows_by_register)
{
    test_function t;
    test_function_init(&t);
    int specialised = 0;
    for (int trial = 0; trial < 50000; trial++) {
        ptx_instr in = random_instr();
        draw_types(&t);
        ws_handler_shape computes;
        ws_exec_fn fast = ws_specialised_handler(&t.fn, &in, &computes);
        if (!fast)
            continue;   /* the instructions the general handlers are known to take (the test above) */
        specialised++;
        uint32_t mask = rnd() % 2 ? WS_FULL_MASK : (uint32_t)rnd() | 1u;
        ck_assert_msg(!rows_by_register_differ(&t.fn, ws_exec_table[in.opcode], &in, mask),
                      "general %s %s: rows differ", ptx_opcodes[in.opcode].spelling, ptx_types[in.type].name);
        ck_assert_msg(!rows_by_register_differ(&t.fn, fast, &in, mask), "specialised %s %s: rows differ",
                      ptx_opcodes[in.opcode].spelling, ptx_types[in.type].name);
    }
    ck_assert_int_gt(specialised, 2000);
}
END_TEST

/* The wide forms (ws_wide_handler) against their handlers: a group of 1 to 4 consecutive warps of a 5-warp
 * block's kernel frame (rows by register), every lane active, run at once by the wide form and warp by
 * warp by the specialised handler from the same random rows and predicates, must leave the same rows and
 * predicates (setp's, each warp's own), and the other warps' untouched. */
START_TEST(wide_forms_match_their_handlers)
{
    enum { WARPS = 5 };
    static uint64_t once[NREG][WARPS][WS_WARP_SIZE], each[NREG][WARPS][WS_WARP_SIZE];
    static uint32_t preds_once[WARPS][NPRED], preds_each[WARPS][NPRED];
    static ws_warp warps[WARPS];   /* setp's form writes each warp's predicates (its context's) */
    test_function t;
    test_function_init(&t);
    int wide_forms = 0, f32_forms = 0;
    unsigned seen[OP_COUNT];
    memset(seen, 0, sizeof seen);
    for (int trial = 0; trial < 100000; trial++) {
        ptx_instr in = random_instr();
        draw_types(&t);
        ws_handler_shape computes;
        ws_exec_fn fast = ws_specialised_handler(&t.fn, &in, &computes);
        ws_wide_fn wide = ws_wide_handler(&t.fn, &in);
        if (!wide)
            continue;
        ck_assert_ptr_nonnull(fast);
        wide_forms++;
        seen[in.opcode]++;
        f32_forms += in.type == PTX_F32;
        int first = (int)(rnd() % WARPS), n = 1 + (int)(rnd() % (WARPS - first));
        for (int r = 0; r < NREG; r++)
            for (int k = 0; k < WARPS; k++)
                for (int l = 0; l < WS_WARP_SIZE; l++)
                    once[r][k][l] = value();
        memcpy(each, once, sizeof once);
        for (int k = 0; k < WARPS; k++) {
            for (int p = 0; p < NPRED; p++)
                preds_once[k][p] = (uint32_t)rnd();
            warps[k].exec.pred = preds_once[k];
        }
        memcpy(preds_each, preds_once, sizeof preds_once);
        ws_exec x;
        memset(&x, 0, sizeof x);
        x.fn = &t.fn;
        x.reg_stride = WARPS * WS_WARP_SIZE;
        x.active = WS_FULL_MASK;
        x.reg = &once[0][first][0];
        x.warp = &warps[first];
        x.pred = preds_once[first];
        wide(&x, &in, n);
        for (int k = first; k < first + n; k++) {
            x.reg = &each[0][k][0];
            x.warp = &warps[k];
            x.pred = preds_each[k];
            fast(&x, &in, WS_FULL_MASK);
        }
        ck_assert_msg(memcmp(once, each, sizeof once) == 0 && memcmp(preds_once, preds_each, sizeof preds_once) == 0,
                      "%s %s, warps %d..%d: rows or predicates differ", ptx_opcodes[in.opcode].spelling,
                      ptx_types[in.type].name, first, first + n - 1);
    }
    ck_assert_int_gt(wide_forms, 5000);
    /* every family: integer binary, ternary and unary, f32 binary and (where the CPU has FMA) fma */
    ck_assert_uint_gt(seen[OP_add], 100);
    ck_assert_uint_gt(seen[OP_shl], 100);
    ck_assert_uint_gt(seen[OP_mad], 100);
    ck_assert_uint_gt(seen[OP_mov], 100);
    ck_assert_uint_gt(seen[OP_mul], 100);
    ck_assert_uint_gt(seen[OP_setp], 100);
    ck_assert_uint_gt(seen[OP_not], 100);   /* not.pred: the only wide not */
    ck_assert_int_gt(f32_forms, 100);
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2"))
        ck_assert_uint_gt(seen[OP_fma], 50);   /* fma.rn.f32's form on such CPUs */
#endif
}
END_TEST

/* The moves of a special register the tests below try: mov.u32 into a 32-bit register, mov.u64, and cvt from
 * 32 to 64 bits, unsigned and signed. */
static const struct {
    ptx_opcode op;
    uint8_t type, type2, dst;
} special_moves[] = {
    {OP_mov, PTX_U32, 0, 0}, {OP_mov, PTX_U64, 0, 1}, {OP_cvt, PTX_U64, PTX_U32, 1}, {OP_cvt, PTX_S64, PTX_S32, 1},
};

/* special_moves[f] of special register r. */
static ptx_instr special_move(size_t f, int r)
{
    ptx_instr in;
    memset(&in, 0, sizeof in);
    in.opcode = (uint16_t)special_moves[f].op;
    in.type = special_moves[f].type;
    in.type2 = special_moves[f].type2;
    in.vec = 1, in.guard = -1, in.call = -1;
    in.operand[0] = reg(special_moves[f].dst);
    in.operand[1] = reg(0);
    in.operand[1].kind = PTX_OPD_SREG;
    in.operand[1].reg = r;
    in.operand_count = 2;
    return in;
}

/* mov and cvt of a special register (a full warp's: ws_operand_uniform's value, or %tid's lanes, written
 * straight into the destination), each of them, against the general handler, with random masks too. */
START_TEST(special_register_moves_match_general_ones)
{
    uint8_t reg_types[NREG] = {PTX_B32, PTX_B64, PTX_B32, PTX_B64, PTX_B32, PTX_B64};
    ptx_function fn;
    memset(&fn, 0, sizeof fn);
    fn.value_reg_type = reg_types;
    fn.value_reg_count = NREG;
    static ws_launch l;
    static ws_block b;
    static ws_warp w;
    l.arch = ws_arch_default();
    l.block_dim[0] = 48, l.block_dim[1] = 3, l.block_dim[2] = 2;
    l.grid[0] = 7, l.grid[1] = 5, l.grid[2] = 3;
    b.ctaid[0] = 6, b.ctaid[1] = 4, b.ctaid[2] = 1;
    b.smid = 11;
    b.steps = UINT64_C(0x123456789);
    w.index = 3;
    ws_exec at;
    memset(&at, 0, sizeof at);
    at.launch = &l, at.block = &b, at.warp = &w;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        w.tid[0][lane] = (uint32_t)(96 + lane) % 48;
        w.tid[1][lane] = (uint32_t)(96 + lane) / 48 % 3;
        w.tid[2][lane] = 1;
    }
    int specialised = 0;
    for (int r = 0; r < PTX_SREG_COUNT; r++)
        for (size_t f = 0; f < sizeof special_moves / sizeof special_moves[0]; f++)
            for (int trial = 0; trial < 8; trial++) {
                ptx_instr in = special_move(f, r);
                ws_handler_shape computes;
                ws_exec_fn fast = ws_specialised_handler(&fn, &in, &computes);
                if (!fast)
                    continue;
                specialised++;
                uint32_t mask = trial % 2 ? WS_FULL_MASK : (uint32_t)rnd() | 1u;
                ck_assert_msg(!handlers_differ(&fn, &in, fast, mask, &at), "%s %s of %s: results differ",
                              ptx_opcodes[in.opcode].spelling, ptx_types[in.type].name, ptx_sreg_names[r]);
            }
    ck_assert_int_ge(specialised, 2 * PTX_SREG_COUNT * 8);   /* mov.u32 and mov.u64 at least */
}
END_TEST

/* The wide forms of mov and cvt of a special register (ws_wide_handler): those of %tid, %ntid, %ctaid and
 * %nctaid equal their handlers run warp by warp on 1-4 consecutive warps of a 5-warp block (each warp its own
 * %tid lanes); the others (%clock reads the block's steps, %laneid, %warpid, ...) have none. */
START_TEST(wide_special_moves_match_their_handlers)
{
    enum { WARPS = 5 };
    static uint64_t once[NREG][WARPS][WS_WARP_SIZE], each[NREG][WARPS][WS_WARP_SIZE];
    static ws_launch l;
    static ws_block b;
    static ws_warp warps[WARPS];
    test_function t;
    test_function_init(&t);
    for (int r = 0; r < NREG; r++)
        t.types[r] = r % 2 ? PTX_B64 : PTX_B32;
    l.arch = ws_arch_default();
    l.block_dim[0] = 16, l.block_dim[1] = 10, l.block_dim[2] = 1;
    l.grid[0] = 7, l.grid[1] = 5, l.grid[2] = 3;
    b.ctaid[0] = 6, b.ctaid[1] = 4, b.ctaid[2] = 1;
    b.warps = warps, b.warp_count = WARPS;
    for (int w = 0; w < WARPS; w++) {
        warps[w].index = w;
        for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
            uint32_t thread = (uint32_t)(w * WS_WARP_SIZE + lane);
            warps[w].tid[0][lane] = thread % 16;
            warps[w].tid[1][lane] = thread / 16;
            warps[w].tid[2][lane] = 0;
        }
    }
    int wide_forms = 0;
    for (int r = 0; r < PTX_SREG_COUNT; r++)
        for (size_t f = 0; f < sizeof special_moves / sizeof special_moves[0]; f++) {
            ptx_instr in = special_move(f, r);
            ws_handler_shape computes;
            ws_exec_fn fast = ws_specialised_handler(&t.fn, &in, &computes);
            ws_wide_fn wide = ws_wide_handler(&t.fn, &in);
            int takes = r >= PTX_SREG_TID_X && r <= PTX_SREG_NCTAID_Z;
            ck_assert_msg(!wide == !(takes && fast), "%s of %s: a wide form %s", ptx_opcodes[in.opcode].spelling,
                          ptx_sreg_names[r], wide ? "it must not have" : "missing");
            if (!wide)
                continue;
            wide_forms++;
            for (int trial = 0; trial < 8; trial++) {
                int first = (int)(rnd() % WARPS), n = 1 + (int)(rnd() % (WARPS - first));
                for (int reg_ = 0; reg_ < NREG; reg_++)
                    for (int k = 0; k < WARPS; k++)
                        for (int lane = 0; lane < WS_WARP_SIZE; lane++)
                            once[reg_][k][lane] = value();
                memcpy(each, once, sizeof once);
                ws_exec x;
                memset(&x, 0, sizeof x);
                x.launch = &l, x.block = &b, x.fn = &t.fn;
                x.reg_stride = WARPS * WS_WARP_SIZE;
                x.active = WS_FULL_MASK;
                x.warp = &warps[first];
                x.reg = &once[0][first][0];
                wide(&x, &in, n);
                for (int k = first; k < first + n; k++) {
                    x.warp = &warps[k];
                    x.reg = &each[0][k][0];
                    fast(&x, &in, WS_FULL_MASK);
                }
                ck_assert_msg(memcmp(once, each, sizeof once) == 0, "%s %s of %s, warps %d..%d: rows differ",
                              ptx_opcodes[in.opcode].spelling, ptx_types[in.type].name, ptx_sreg_names[r], first,
                              first + n - 1);
            }
        }
    ck_assert_int_ge(wide_forms, 12 * 2);   /* mov.u32 and mov.u64 of each, at least */
}
END_TEST

/* A row that is one shape: lane 0's value and the steps chosen to land near the edges the
 * rules must respect (2^31, 2^32, 2^64), or anywhere; one run or rows. */
static void shaped_row(uint64_t row[WS_WARP_SIZE], ws_shape *s, int bits32)
{
    static const uint64_t edges[] = {0, 1, 0x7fffffe0u, 0x7fffffffu, 0x80000000u, 0xffffffe0u, 0xffffffffu,
                                     UINT64_C(0x7fffffffffffffe0), UINT64_MAX - 40};
    uint64_t base = rnd() % 3 ? edges[rnd() % (sizeof edges / sizeof edges[0])] + rnd() % 8 : value();
    uint64_t strides[] = {0, 1, 4, 8, 32, 128, UINT64_MAX, UINT64_MAX - 3, 1u << 20, rnd()};
    uint64_t stride = strides[rnd() % (sizeof strides / sizeof strides[0])];
    /* one run, or rows of 16, 8 or 4 lanes (a 2D block's warps) */
    unsigned width = rnd() % 2 ? WS_WARP_SIZE : WS_WARP_SIZE >> (1 + rnd() % 3);
    uint64_t row_step = width == WS_WARP_SIZE ? 0 : strides[rnd() % (sizeof strides / sizeof strides[0])];
    if (bits32)   /* a 32-bit register holds its lanes zero-extended: a shape only where none wraps */
        base &= 0xffffffffu;
    for (int l = 0; l < WS_WARP_SIZE; l++)
        row[l] = base + (uint64_t)(l % width) * stride + (uint64_t)(l / width) * row_step;
    ws_shape_of_row(row, s);
    if (bits32)
        for (int l = 0; l < WS_WARP_SIZE; l++)
            s->known &= row[l] <= 0xffffffffu;
}

/* The shapes sim/shape.c computes for a result are the result's: every specialised handler
 * whose result's shape is computed, on random sources that have shapes, or none (then looked
 * for in the row, as step() does), full warps. */
START_TEST(computed_shapes_match_rows)
{
    test_function t;
    test_function_init(&t);
    int known = 0, computed = 0, rows = 0;
    for (int trial = 0; trial < 400000; trial++) {
        ptx_instr in = random_instr();
        if (trial % 2)   /* the opcodes whose results have computed shapes, more often */
            in.opcode = rnd() % 2 ? OP_add : OP_mov;
        draw_types(&t);
        ws_handler_shape computes;
        ws_exec_fn fast = ws_specialised_handler(&t.fn, &in, &computes);
        ws_shape_op op;
        ws_shape_decode(NULL, &in, fast, computes, &op);
        if (!fast || op.kind < WS_SHAPE_ADD)
            continue;
        machine_state m;
        ws_shape shapes[NREG];
        randomise(&m);
        for (int r = 0; r < NREG; r++) {
            shaped_row(m.reg[r], &shapes[r], t.types[r] == PTX_B32);
            if (rnd() % 8 == 0)
                shapes[r].known = 0, shapes[r].looked = rnd() % 2;   /* none yet (looked for), or none at all */
        }
        ws_exec x;
        memset(&x, 0, sizeof x);
        x.fn = &t.fn;
        x.reg = &m.reg[0][0];
        x.reg_stride = WS_WARP_SIZE;
        x.pred = m.pred;
        x.carry = &m.carry;
        x.active = WS_FULL_MASK;
        x.shape = shapes;
        fast(&x, &in, WS_FULL_MASK);
        ws_shape_after(&x, &op, &in, WS_FULL_MASK);
        computed++;
        const ws_shape *d = &shapes[op.dst[0]];
        if (!d->known)
            continue;
        known++;
        ws_shape row;
        ws_shape_of_row(m.reg[op.dst[0]], &row);
        if (d->width < WS_WARP_SIZE)
            rows++;
        ck_assert_msg(row.known && row.base == d->base && row.stride == d->stride && row.width == d->width &&
                      row.row_step == d->row_step,
                      "%s type %s mode %d: shape %#llx + lane %% %u * %#llx + lane / %u * %#llx, "
                      "row %#llx, %#llx, ... (%s)",
                      ptx_opcodes[in.opcode].spelling, ptx_types[in.type].name, in.mode,
                      (unsigned long long)d->base, d->width, (unsigned long long)d->stride, d->width,
                      (unsigned long long)d->row_step,
                      (unsigned long long)m.reg[op.dst[0]][0], (unsigned long long)m.reg[op.dst[0]][1],
                      row.known ? "another shape" : "no shape");
    }
    ck_assert_int_gt(computed, 20000);
    ck_assert_int_gt(known, computed / 4);   /* the rules are not merely cautious */
    ck_assert_int_gt(rows, known / 10);      /* and shapes in rows are among them */
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("exec_fast");
    TCase *tc = tcase_create("differential");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, specialised_handlers_match_general_ones);
    tcase_add_test(tc, special_register_moves_match_general_ones);
    tcase_add_test(tc, handlers_find_rows_by_register);
    tcase_add_test(tc, wide_forms_match_their_handlers);
    tcase_add_test(tc, wide_special_moves_match_their_handlers);
    tcase_add_test(tc, computed_shapes_match_rows);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}
