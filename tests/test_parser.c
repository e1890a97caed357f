/*
 * The PTX parser: each directive and operand form, modifier decoding,
 * immediates converted per operand type, layout, scoping, and error messages
 * with their exact positions.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/bits.h"
#include "isa/lexer.h"
#include "isa/ptx.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"
/* A kernel whose body starts on line 7. */
#define KERNEL(body)                                                                                         \
    HDR ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"                                              \
        ".reg .b32 %r<10>; .reg .b64 %rd<10>; .reg .f32 %f<10>; .reg .f64 %fd<5>; .reg .pred %p<5>; "       \
        ".reg .b16 %rs<5>; .reg .u32 %u<3>; .reg .s64 %sd<3>;\n" body "\n}\n"

static ptx_module *parse_ok(const char *text)
{
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, strlen(text), "x.ptx", &d);
    if (!m) {
        ptx_diag_print(&d, stderr);
        fprintf(stderr, "--- input:\n%s\n", text);
    }
    ck_assert_msg(m != NULL, "parse failed: %s", d.count ? d.lines[0] : "(no message)");
    ck_assert_int_eq(d.count, 0);
    ptx_diag_free(&d);
    return m;
}

/* Parse text that must fail; returns its first message (static buffer). */
static const char *parse_err(const char *text)
{
    static char first[1024];
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, strlen(text), "x.ptx", &d);
    ck_assert_msg(m == NULL, "parse unexpectedly succeeded:\n%s", text);
    ck_assert_msg(d.count > 0, "no message");
    snprintf(first, sizeof first, "%s", d.lines[0]);
    ptx_diag_free(&d);
    return first;
}

static const ptx_function *fn(const ptx_module *m, const char *name)
{
    int i = ptx_find_function(m, name);
    ck_assert_msg(i >= 0, "no function %s", name);
    return &m->functions[i];
}

static int sym(const ptx_module *m, const char *name)
{
    for (int i = 0; i < m->symbol_count; i++)
        if (!strcmp(m->symbols[i].name, name))
            return i;
    ck_abort_msg("no symbol %s", name);
    return -1;
}

static const ptx_reg *reg_named(const ptx_function *f, const char *name)
{
    for (int i = f->reg_count - 1; i >= 0; i--)
        if (!strcmp(f->regs[i].name, name))
            return &f->regs[i];
    ck_abort_msg("no register %s", name);
    return NULL;
}

static int vreg(const ptx_function *f, const char *name) { return reg_named(f, name)->index; }

/* The only instruction (index i) of kernel k from a KERNEL() body. */
static const ptx_instr *ins(const ptx_module *m, int i)
{
    const ptx_function *k = fn(m, "k");
    ck_assert_int_lt(i, k->instr_count);
    return &k->instrs[i];
}

static char *print_instr_str(const ptx_module *m, const ptx_function *f, const ptx_instr *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    ptx_print_instr(m, f, in, fp);
    fclose(fp);
    return buf;
}

static float as_f32(int64_t v) { return ptx_bits_f32((uint32_t)v); }
static double as_f64(int64_t v) { return ptx_bits_f64((uint64_t)v); }

/* ---- directives ------------------------------------------------------------ */

/* A kernel's address (what a device-side launch passes: mov.u64 %rd, kernel) is an operand of its own, in the
 * window PTX_FUNCTION_ADDRESS gives; other uses of a function name are errors. nvcc's `.loc ..., inlined_at F L C`
 * places the device runtime header's inlined code at its call site, and nothing else. */
START_TEST(function_addresses_and_inlined_sites)
{
    ptx_module *m = parse_ok(HDR ".visible .entry child(.param .u32 v)\n{\nret;\n}\n"
                             ".visible .entry k()\n{\n.reg .b64 %rd<3>;\n"
                             ".loc 2 727 5, function_name $L__info_string0, inlined_at 1 23 9\n"
                             "mov.u64 %rd1, child;\n"
                             ".loc 3 10 2, function_name $L__info_string1, inlined_at 1 30 4\n"
                             "mov.b64 %rd2, k;\n"
                             "ret;\n}\n"
                             ".file 1 \"seed.cu\"\n.file 2 \"/usr/local/cuda/include/cuda_device_runtime_api.h\"\n"
                             ".file 3 \"helpers.cuh\"\n");
    const ptx_function *k = fn(m, "k");
    const ptx_instr *in = &k->instrs[0];
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_FUNCTION);
    ck_assert_int_eq(in->operand[1].reg, ptx_find_function(m, "child"));
    ck_assert_uint_eq((uint64_t)in->operand[1].imm, UINT64_C(0x00007c0000000000) + 16u * (uint64_t)ptx_find_function(m, "child"));
    ck_assert_int_eq(in->src_file, 1);   /* the device runtime header's line: placed at the call site */
    ck_assert_int_eq(in->src_line, 23);
    ck_assert_int_eq(in->src_column, 9);
    in = &k->instrs[1];
    ck_assert_int_eq(in->operand[1].reg, ptx_find_function(m, "k"));
    ck_assert_int_eq(in->src_file, 3);   /* code inlined from another file keeps its own line */
    ck_assert_int_eq(in->src_line, 10);
    ptx_module_free(m);
    ck_assert_str_eq(parse_err(HDR ".visible .entry c()\n{\nret;\n}\n"
                               ".visible .entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, c;\nret;\n}\n"),
                     "x.ptx:11:14: error: 'c' is a function: only mov.u64 or mov.b64 takes its address");
    ck_assert_str_eq(parse_err(HDR ".visible .entry c()\n{\nret;\n}\n"
                               ".visible .entry k()\n{\n.reg .b64 %rd<2>;\nadd.s64 %rd1, c, 1;\nret;\n}\n"),
                     "x.ptx:11:15: error: 'c' is a function: only mov.u64 or mov.b64 takes its address");
}
END_TEST

START_TEST(header_directives)
{
    ptx_module *m = parse_ok(".version 8.5\n.target sm_90a, texmode_independent\n.address_size 64\n");
    ck_assert_int_eq(m->version_major, 8);
    ck_assert_int_eq(m->version_minor, 5);
    ck_assert_str_eq(m->target, "sm_90a, texmode_independent");
    ck_assert_int_eq(m->address_size, 64);
    ck_assert_int_eq(m->function_count, 0);
    ptx_module_free(m);
    /* the debug sections are dropped, so is the promise of them */
    m = parse_ok(".version 9.0\n.target sm_90, debug\n.address_size 64\n");
    ck_assert_str_eq(m->target, "sm_90");
    ptx_module_free(m);
}
END_TEST

START_TEST(kernel_params_layout)
{
    ptx_module *m = parse_ok(HDR ".visible .entry k(\n .param .u64 a,\n .param .u32 b,\n"
                                 " .param .align 8 .b8 s[12],\n .param .f64 d,\n .param .u8 c\n)\n{\n ret;\n}\n");
    const ptx_function *k = fn(m, "k");
    ck_assert_int_eq(k->is_entry, 1);
    ck_assert_int_eq(k->visible, 1);
    ck_assert_int_eq(k->defined, 1);
    ck_assert_int_eq(k->param_count, 5);
    uint64_t off[] = {0, 8, 16, 32, 40};
    for (int i = 0; i < 5; i++) {
        const ptx_symbol *s = &m->symbols[k->params[i]];
        ck_assert_int_eq(s->kind, PTX_SYM_PARAM);
        ck_assert_int_eq(s->space, PTX_SPACE_PARAM);
        ck_assert_int_eq(s->function, 0);
        ck_assert_msg(s->offset == off[i], "param %d offset %llu", i, (unsigned long long)s->offset);
    }
    const ptx_symbol *s = &m->symbols[k->params[2]];
    ck_assert_int_eq(s->is_array, 1);
    ck_assert_int_eq(s->size, 12);
    ck_assert_int_eq(s->align, 8);
    ck_assert_int_eq(s->type, PTX_B8);
    ck_assert_int_eq(k->param_size, 41);
    ck_assert_int_eq(k->instr_count, 1);
    ck_assert_int_eq(k->instrs[0].opcode, OP_ret);
    ptx_module_free(m);
}
END_TEST

START_TEST(functions_calls_and_prototypes)
{
    ptx_module *m = parse_ok(
        HDR
        ".func (.param .b32 func_retval0) f(.param .b32 f_param_0, .param .b32 f_param_1);\n"
        ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
        ".visible .entry k()\n{\n"
        " .reg .b32 %r<4>;\n"
        " { // callseq 0, 0\n .reg .b32 temp_param_reg;\n .param .b32 param0;\n st.param.b32 [param0+0], %r1;\n"
        " .param .b32 param1;\n st.param.b32 [param1+0], %r2;\n .param .b32 retval0;\n"
        " call.uni (retval0),\n f,\n (\n param0,\n param1\n );\n ld.param.b32 %r3, [retval0+0];\n }\n"
        " { .param .b32 param0; .param .b32 retval0; call.uni (retval0), g, (param0); }\n"
        " ret;\n}\n"
        ".func (.param .b32 func_retval0) f(.param .b32 x, .param .b32 y)\n{\n .reg .b32 %r<3>;\n"
        " ld.param.u32 %r1, [x]; ld.param.u32 %r2, [y+0]; add.s32 %r1, %r1, %r2;\n"
        " st.param.b32 [func_retval0+0], %r1; ret;\n}\n"
        ".func (.param .b32 r) g(.param .b32 a)\n{\n ret;\n}\n");
    ck_assert_int_eq(m->function_count, 4);
    const ptx_function *f = fn(m, "f");
    ck_assert_int_eq(f->defined, 1);
    ck_assert_int_eq(f->is_entry, 0);
    ck_assert_int_eq(f->param_count, 2);
    ck_assert_int_eq(f->return_count, 1);
    /* the definition's names replace the prototype's, on the same symbols */
    ck_assert_str_eq(m->symbols[f->params[0]].name, "x");
    ck_assert_int_eq(m->symbols[f->params[1]].offset, 4);
    ck_assert_int_eq(m->symbols[f->returns[0]].kind, PTX_SYM_RETURN);
    ck_assert_int_eq(m->symbols[f->returns[0]].offset, 8);
    ck_assert_int_eq(f->param_size, 16); /* 12 bytes, rounded up to 16 for the .local frame after it */
    const ptx_function *v = fn(m, "vprintf");
    ck_assert_int_eq(v->defined, 0);
    ck_assert_int_eq(v->is_extern, 1);
    const ptx_function *k = fn(m, "k");
    ck_assert_int_eq(k->call_count, 2);
    const ptx_call *c = &k->calls[0];
    ck_assert_int_eq(c->function, ptx_find_function(m, "f"));
    ck_assert_int_eq(c->ret_count, 1);
    ck_assert_int_eq(c->arg_count, 2);
    int p0 = k->call_symbols[c->arg_first], p1 = k->call_symbols[c->arg_first + 1];
    int r0 = k->call_symbols[c->ret_first];
    ck_assert_str_eq(m->symbols[p0].name, "param0");
    ck_assert_str_eq(m->symbols[p1].name, "param1");
    ck_assert_str_eq(m->symbols[r0].name, "retval0");
    ck_assert_int_eq(m->symbols[p0].scope, 1);
    /* g is defined after the call */
    ck_assert_int_eq(k->calls[1].function, ptx_find_function(m, "g"));
    int q0 = k->call_symbols[k->calls[1].arg_first];
    ck_assert_int_ne(q0, p0); /* each scope's param0 is its own symbol */
    ck_assert_int_eq(m->symbols[q0].scope, 2);
    /* frame: param0, param1, retval0, then the second scope's param0, retval0 */
    ck_assert_int_eq(m->symbols[p0].offset, 0);
    ck_assert_int_eq(m->symbols[p1].offset, 4);
    ck_assert_int_eq(m->symbols[q0].offset, 12);
    ck_assert_int_eq(k->local_size, 20);
    /* the call instruction */
    int ci = -1;
    for (int i = 0; i < k->instr_count; i++)
        if (k->instrs[i].opcode == OP_call) {
            ci = i;
            break;
        }
    ck_assert_int_ge(ci, 0);
    ck_assert_int_eq(k->instrs[ci].call, 0);
    ck_assert_int_eq(k->instrs[ci].operand_count, 0);
    ck_assert(k->instrs[ci].flags & PTX_FLAG_UNI);
    ck_assert_int_eq(k->instrs[0].call, -1);
    char *s = print_instr_str(m, k, &k->instrs[ci]);
    ck_assert_str_eq(s, "call.uni\t(retval0), f, (param0, param1);");
    free(s);
    /* scope items: open, reg, symbols, close */
    int opens = 0, closes = 0, syms = 0;
    for (int i = 0; i < k->item_count; i++) {
        opens += k->items[i].kind == PTX_ITEM_SCOPE_OPEN;
        closes += k->items[i].kind == PTX_ITEM_SCOPE_CLOSE;
        syms += k->items[i].kind == PTX_ITEM_SYMBOL;
    }
    ck_assert_int_eq(opens, 2);
    ck_assert_int_eq(closes, 2);
    ck_assert_int_eq(syms, 5);
    /* module items: f declared, vprintf declared, k, f defined, g */
    ck_assert_int_eq(m->item_count, 5);
    ck_assert_int_eq(m->items[0].kind, PTX_ITEM_FUNCTION);
    ck_assert_int_eq(m->items[0].count, 0);
    ck_assert_int_eq(m->items[3].index, ptx_find_function(m, "f"));
    ck_assert_int_eq(m->items[3].count, 1);
    ptx_module_free(m);
}
END_TEST

START_TEST(registers)
{
    ptx_module *m = parse_ok(HDR ".entry k()\n{\n .reg .b32 %r<21>;\n .reg .b64 %SP;\n .reg .pred p, q;\n"
                                 " .reg .f32 %f<3>;\n .reg .pred %p<2>;\n mov.b32 %r20, 1;\n setp.eq.s32 q, %r20, 1;\n}\n");
    const ptx_function *k = fn(m, "k");
    ck_assert_int_eq(k->reg_count, 21 + 1 + 2 + 3 + 2);
    ck_assert_int_eq(k->value_reg_count, 25);
    ck_assert_int_eq(k->pred_reg_count, 4);
    ck_assert_str_eq(k->regs[0].name, "%r0");
    ck_assert_str_eq(k->regs[20].name, "%r20");
    ck_assert_int_eq(vreg(k, "%r20"), 20);
    ck_assert_int_eq(vreg(k, "%SP"), 21);
    ck_assert_int_eq(reg_named(k, "q")->is_pred, 1);
    ck_assert_int_eq(reg_named(k, "q")->index, 1);
    ck_assert_int_eq(reg_named(k, "%p1")->index, 3);
    ck_assert_int_eq(k->value_reg_type[0], PTX_B32);
    ck_assert_int_eq(k->value_reg_type[21], PTX_B64);
    ck_assert_int_eq(k->value_reg_type[24], PTX_F32);
    ck_assert_int_eq(k->items[0].kind, PTX_ITEM_REG);
    ck_assert_int_eq(k->items[0].count, 21);
    ck_assert_int_eq(k->items[1].count, 1);
    ck_assert_int_eq(k->instrs[1].operand[0].kind, PTX_OPD_PRED);
    ck_assert_int_eq(k->instrs[1].operand[0].reg, 1);
    ptx_module_free(m);
}
END_TEST

START_TEST(variables_and_initializers)
{
    ptx_module *m = parse_ok(HDR
                             ".global .align 4 .u32 counter;\n"
                             ".global .align 4 .b8 table[8] = {1, 0, 0, 0, 255};\n"
                             ".global .f32 f[3] = {0f3F800000, 2.5, 3};\n"
                             ".global .f64 d = 0d4000000000000000;\n"
                             ".global .u32 g[2][3] = {{1, 2}, {4, 5, 6}};\n"
                             ".global .s16 h[] = {-1, 2, -3};\n"
                             ".const .align 8 .b8 c[64];\n"
                             ".global .attribute(.managed) .align 4 .b8 mg[40];\n"
                             ".extern .shared .align 16 .b8 dyn[];\n"
                             ".visible .global .u64 vis;\n"
                             ".entry k()\n{\n .local .align 8 .b8 __local_depot0[40];\n"
                             " .shared .align 4 .b8 tile[1024];\n .local .u32 one;\n ret;\n}\n");
    const ptx_symbol *s = &m->symbols[sym(m, "counter")];
    ck_assert_int_eq(s->space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(s->size, 4);
    ck_assert_int_eq(s->is_array, 0);
    ck_assert_ptr_null(s->init);
    ck_assert_int_eq(s->function, -1);
    ck_assert_int_eq(s->offset, 0);
    s = &m->symbols[sym(m, "table")];
    ck_assert_int_eq(s->size, 8);
    uint8_t tb[8] = {1, 0, 0, 0, 255, 0, 0, 0};
    ck_assert(!memcmp(s->init, tb, 8));
    s = &m->symbols[sym(m, "f")];
    float fv[3];
    memcpy(fv, s->init, 12);
    ck_assert(fv[0] == 1.0f && fv[1] == 2.5f && fv[2] == 3.0f);
    s = &m->symbols[sym(m, "d")];
    double dv;
    memcpy(&dv, s->init, 8);
    ck_assert(dv == 2.0);
    s = &m->symbols[sym(m, "g")];
    uint32_t gv[6];
    ck_assert_int_eq(s->size, 24);
    memcpy(gv, s->init, 24);
    ck_assert(gv[0] == 1 && gv[1] == 2 && gv[2] == 0 && gv[3] == 4 && gv[4] == 5 && gv[5] == 6);
    s = &m->symbols[sym(m, "h")];
    ck_assert_int_eq(s->size, 6);
    int16_t hv[3];
    memcpy(hv, s->init, 6);
    ck_assert(hv[0] == -1 && hv[1] == 2 && hv[2] == -3);
    s = &m->symbols[sym(m, "c")];
    ck_assert_int_eq(s->space, PTX_SPACE_CONST);
    ck_assert_int_eq(s->align, 8);
    ck_assert_int_eq(m->symbols[sym(m, "mg")].managed, 1);
    s = &m->symbols[sym(m, "dyn")];
    ck_assert_int_eq(s->is_extern, 1);
    ck_assert_int_eq(s->size, 0);
    ck_assert_int_eq(s->is_array, 1);
    ck_assert_int_eq(s->space, PTX_SPACE_SHARED);
    ck_assert_int_eq(m->symbols[sym(m, "vis")].visible, 1);
    const ptx_function *k = fn(m, "k");
    s = &m->symbols[sym(m, "tile")];
    ck_assert_int_eq(s->function, 0);
    ck_assert_int_eq(s->offset, 0);
    ck_assert_int_eq(m->symbols[sym(m, "__local_depot0")].offset, 0);
    ck_assert_int_eq(m->symbols[sym(m, "one")].offset, 40);
    ck_assert_int_eq(k->local_size, 44);
    ptx_module_free(m);
}
END_TEST

START_TEST(performance_directives_and_pragma)
{
    ptx_module *m = parse_ok(HDR ".entry k() .maxntid 256 .reqntid 32, 4 .minnctapersm 2 .maxnreg 64"
                                 " .maxnctapersm 8\n{\n$L1:\n .pragma \"nounroll\";\n bra $L1;\n}\n");
    const ptx_function *k = fn(m, "k");
    ck_assert(k->maxntid[0] == 256 && k->maxntid[1] == 1 && k->maxntid[2] == 1);
    ck_assert(k->reqntid[0] == 32 && k->reqntid[1] == 4 && k->reqntid[2] == 1);
    ck_assert_int_eq(k->minnctapersm, 2);
    ck_assert_int_eq(k->maxnreg, 64);
    ck_assert_int_eq(k->maxnctapersm, 8);
    ck_assert_int_eq(m->string_count, 1);
    ck_assert_str_eq(m->strings[0], "nounroll");
    ck_assert_int_eq(k->items[0].kind, PTX_ITEM_PRAGMA);
    ck_assert_int_eq(k->items[0].index, 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(debug_directives_skipped)
{
    ptx_module *m = parse_ok(HDR ".entry k()\n{\n .reg .b32 %r<2>;\n .loc 1 2 0\n mov.u32 %r1, 0;\n"
                                 " .loc 2 508 2, function_name $L__info_string0, inlined_at 1 8 3\n ret;\n}\n"
                                 " .file 1 \"/tmp/x.cu\"\n .file 2 \"/usr/include/y.h\", 1700000000, 1234\n"
                                 " .section .debug_str\n {\n$L__info_string0:\n.b8 95,90,0\n\n }\n");
    ck_assert_int_eq(fn(m, "k")->instr_count, 2);
    ptx_module_free(m);
}
END_TEST

/* ---- operands --------------------------------------------------------------- */

START_TEST(labels_and_guards)
{
    ptx_module *m = parse_ok(KERNEL("$L0:\n setp.ne.s32 %p1, %r1, 0;\n @%p1 bra $L__BB0_2;\n @!%p1 bra.uni $L0;\n"
                                    "$L__BB0_2:\n ret;"));
    const ptx_function *k = fn(m, "k");
    ck_assert_int_eq(k->label_count, 2);
    const ptx_instr *b = &k->instrs[1];
    ck_assert_int_eq(b->guard, 1);
    ck_assert_int_eq(b->guard_negated, 0);
    ck_assert_int_eq(b->operand[0].kind, PTX_OPD_LABEL);
    ck_assert_str_eq(k->labels[b->operand[0].reg].name, "$L__BB0_2");
    ck_assert_int_eq(b->operand[0].imm, 3);
    b = &k->instrs[2];
    ck_assert_int_eq(b->guard_negated, 1);
    ck_assert_int_eq(b->operand[0].imm, 0);
    ck_assert(b->flags & PTX_FLAG_UNI);
    ck_assert_int_eq(k->instrs[0].guard, -1);
    ptx_module_free(m);
}
END_TEST

START_TEST(operand_forms)
{
    ptx_module *m = parse_ok(
        HDR ".global .u32 gv[4];\n"
        ".entry k(.param .u64 p)\n{\n .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .f32 %f<5>; .reg .pred %p<3>;\n"
        " .shared .align 4 .b8 sm[64];\n"
        " ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1];\n"  /* 0 */
        " ld.global.u32 %r1, [%rd1+16];\n"                    /* 1 */
        " ld.global.u32 %r1, [%rd1+-4];\n"                    /* 2 */
        " ld.global.u32 %r1, [gv];\n"                         /* 3 */
        " ld.global.u32 %r1, [gv+8];\n"                       /* 4 */
        " ld.shared.u32 %r2, [%r5];\n"                        /* 5 */
        " ld.param.u64 %rd2, [p];\n"                          /* 6 */
        " mov.u32 %r3, sm;\n"                                 /* 7 */
        " mov.u64 %rd3, gv+4;\n"                              /* 8 */
        " mov.u32 %r4, %ctaid.y;\n"                           /* 9 */
        " mov.u32 %r4, %lanemask_ge;\n"                       /* 10 */
        " setp.lt.u32 %p1|%p2, %r1, %r2;\n"                   /* 11 */
        " shfl.sync.bfly.b32 %r5|%p1, %r4, 1, 31, -1;\n"      /* 12 */
        " mov.u32 %r6, WARP_SZ;\n"                            /* 13 */
        " ld.local.u32 %r7, [8];\n"                           /* 14 */
        " mov.b64 {%r1, %r2}, %rd1;\n"                        /* 15 */
        " st.global.v2.u32 [%rd1], {%r1, %r2};\n"             /* 16 */
        " setp.eq.s32 %p1|_, %r1, 0;\n"                       /* 17 */
        "}\n");
    const ptx_function *k = fn(m, "k");
    const ptx_instr *in = &k->instrs[0];
    ck_assert_int_eq(in->vec, 4);
    ck_assert(in->flags & PTX_FLAG_NC);
    ck_assert_int_eq(in->space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(in->operand[0].kind, PTX_OPD_VEC);
    ck_assert_int_eq(in->operand[0].count, 4);
    ck_assert_int_eq(in->operand[0].regs[0], vreg(k, "%f1"));
    ck_assert_int_eq(in->operand[0].regs[2], -1);
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_ADDR);
    ck_assert_int_eq(in->operand[1].reg, vreg(k, "%rd1"));
    ck_assert_int_eq(in->operand[1].reg_is_64, 1);
    ck_assert_int_eq(in->operand[1].symbol, -1);
    ck_assert_int_eq(in->operand[1].imm, 0);
    ck_assert_int_eq(k->instrs[1].operand[1].imm, 16);
    ck_assert_int_eq(k->instrs[2].operand[1].imm, -4);
    in = &k->instrs[3];
    ck_assert_int_eq(in->operand[1].reg, -1);
    ck_assert_int_eq(in->operand[1].symbol, sym(m, "gv"));
    ck_assert_int_eq(k->instrs[4].operand[1].imm, 8);
    in = &k->instrs[5];
    ck_assert_int_eq(in->operand[1].reg, vreg(k, "%r5"));
    ck_assert_int_eq(in->operand[1].reg_is_64, 0);
    ck_assert_int_eq(k->instrs[6].operand[1].symbol, k->params[0]);
    in = &k->instrs[7];
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_SYMBOL);
    ck_assert_int_eq(in->operand[1].symbol, sym(m, "sm"));
    ck_assert_int_eq(k->instrs[8].operand[1].imm, 4);
    ck_assert_int_eq(k->instrs[9].operand[1].kind, PTX_OPD_SREG);
    ck_assert_int_eq(k->instrs[9].operand[1].reg, PTX_SREG_CTAID_Y);
    ck_assert_int_eq(k->instrs[10].operand[1].reg, PTX_SREG_LANEMASK_GE);
    in = &k->instrs[11];
    ck_assert_int_eq(in->operand_count, 4);
    ck_assert_int_eq(in->operand[0].kind, PTX_OPD_PRED);
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_PRED);
    ck_assert_int_eq(in->operand[1].reg, 2);
    ck_assert_int_eq(in->operand[2].kind, PTX_OPD_REG);
    ck_assert_int_eq(ptx_operand_letter(in, 0), 'D');
    ck_assert_int_eq(ptx_operand_letter(in, 1), 'q');
    ck_assert_int_eq(ptx_operand_letter(in, 2), 'a');
    ck_assert_int_eq(ptx_operand_letter(in, 3), 'b');
    ck_assert_int_eq(ptx_operand_letter(in, 4), 0);
    in = &k->instrs[12];
    ck_assert_int_eq(in->operand_count, 6);
    ck_assert_int_eq(in->mode, PTX_SHFL_BFLY);
    ck_assert(in->flags & PTX_FLAG_SYNC);
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_PRED);
    ck_assert_int_eq(in->operand[3].kind, PTX_OPD_IMM);
    ck_assert_int_eq(in->operand[3].imm, 1);
    ck_assert_int_eq(in->operand[5].imm, -1);
    ck_assert_int_eq(ptx_operand_letter(in, 5), 'e');
    ck_assert_int_eq(ptx_slot_type(in, 'e'), PTX_U32);
    in = &k->instrs[13];
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_IMM);
    ck_assert_int_eq(in->operand[1].imm, 32);
    in = &k->instrs[14];
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_ADDR);
    ck_assert_int_eq(in->operand[1].reg, -1);
    ck_assert_int_eq(in->operand[1].symbol, -1);
    ck_assert_int_eq(in->operand[1].imm, 8);
    in = &k->instrs[15];
    ck_assert_int_eq(in->operand[0].kind, PTX_OPD_VEC);
    ck_assert_int_eq(in->operand[0].count, 2);
    ck_assert_int_eq(in->vec, 1);
    ck_assert_int_eq(k->instrs[16].operand[1].kind, PTX_OPD_VEC);
    in = &k->instrs[17];
    ck_assert_int_eq(in->operand_count, 4);
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_SINK);
    ptx_module_free(m);
}
END_TEST

START_TEST(modifier_decoding)
{
    ptx_module *m = parse_ok(KERNEL(
        " setp.lo.u32 %p1, %r1, %r2;\n"                    /* 0 */
        " mul.lo.s32 %r1, %r2, %r3;\n"                     /* 1 */
        " atom.global.and.b32 %r1, [%rd1], 3;\n"          /* 2 */
        " bar.red.and.pred %p1, 0, %p2;\n"                 /* 3 */
        " shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n"   /* 4 */
        " ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n" /* 5 */
        " cvt.rzi.s32.f32 %r1, %f1;\n"                     /* 6 */
        " cvta.to.global.u64 %rd1, %rd2;\n"                /* 7 */
        " setp.lt.and.ftz.f32 %p1, %f1, %f2, !%p2;\n"     /* 8 */
        " bar.red.popc.u32 %r1, 1, 64, %p1;\n"             /* 9 */
        " barrier.sync 0;\n"                               /* 10 */
        " barrier.sync.aligned 0;\n"                       /* 11 */
        " bar.sync 0;\n"                                   /* 12 */
        " vote.sync.uni.pred %p1, %p2, -1;\n"              /* 13 */
        " shf.r.clamp.b32 %r1, %r2, %r3, %r4;\n"           /* 14 */
        " ld.volatile.global.f32 %f1, [%rd1];\n"           /* 15 */
        " atom.relaxed.gpu.global.add.u32 %r1, [%rd1], 1;\n" /* 16 */
        " fence.sc.cta;\n"                                 /* 17 */
        " membar.gl;\n"                                    /* 18 */
        " mul.wide.u32 %rd1, %r1, %r2;\n"                  /* 19 */
        " max.NaN.f32 %f1, %f1, %f2;\n"                    /* 20 */
        " div.full.f32 %f1, %f1, %f2;\n"                   /* 21 */
        " add.sat.s32 %r1, %r1, %r2;\n"                    /* 22 */
        " bfind.shiftamt.u32 %r1, %r2;\n"                  /* 23 */
        " prmt.b32.f4e %r1, %r2, %r3, %r4;\n"              /* 24 */
        " ld.global.ca.u32 %r1, [%rd1];\n"                 /* 25 */
        " ld.shared::cta.u32 %r1, [%r2];\n"                /* 26 */
        " rcp.approx.ftz.f64 %fd1, %fd2;\n"                /* 27 */
        " cvt.rn.sat.f32.f64 %f1, %fd1;\n"                 /* 28 */
        " mad.hi.cc.u32 %r1, %r2, %r3, %r4;\n"             /* 29 */
        " atom.shared.cas.b32 %r1, [%r2], 1, 2;\n"         /* 30 */
        " red.global.max.s32 [%rd1], %r1;\n"               /* 31 */
        " selp.b32 %r1, %r2, %r3, %p1;\n"                  /* 32 */
        " setp.eq.b32 %p1, %r1, 0;\n"                      /* 33 */
        " abs.f32 %f1, %f2;\n"));                          /* 34 */
    const ptx_instr *in;
    in = ins(m, 0);
    ck_assert_int_eq(in->opcode, OP_setp);
    ck_assert_int_eq(in->cmp, PTX_CMP_LO);
    ck_assert_int_eq(in->type, PTX_U32);
    ck_assert_int_eq(in->type2, PTX_TYPE_NONE);
    ck_assert_int_eq(in->mode, 0);
    in = ins(m, 1);
    ck_assert_int_eq(in->opcode, OP_mul);
    ck_assert_int_eq(in->mode, PTX_MUL_LO);
    ck_assert_int_eq(in->cmp, 0);
    in = ins(m, 2);
    ck_assert_int_eq(in->opcode, OP_atom);
    ck_assert_int_eq(in->mode, PTX_ATOM_AND);
    ck_assert_int_eq(in->boolop, 0);
    ck_assert_int_eq(in->space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(in->type, PTX_B32);
    in = ins(m, 3);
    ck_assert_int_eq(in->opcode, OP_bar_red);
    ck_assert_int_eq(in->mode, PTX_BARRED_AND);
    ck_assert_int_eq(in->type, PTX_PRED);
    ck_assert_int_eq(in->operand_count, 3);
    ck_assert_int_eq(in->operand[0].kind, PTX_OPD_PRED);
    ck_assert_int_eq(in->operand[1].kind, PTX_OPD_IMM);
    ck_assert_int_eq(in->operand[2].kind, PTX_OPD_PRED);
    ck_assert_int_eq(ptx_operand_letter(in, 2), 'p');
    in = ins(m, 4);
    ck_assert_int_eq(in->opcode, OP_shfl);
    ck_assert_int_eq(in->mode, PTX_SHFL_BFLY);
    in = ins(m, 5);
    ck_assert_int_eq(in->vec, 4);
    ck_assert(in->flags & PTX_FLAG_NC);
    ck_assert(!(in->flags & PTX_FLAG_VOLATILE));
    ck_assert_int_eq(in->type, PTX_F32);
    in = ins(m, 6);
    ck_assert_int_eq(in->opcode, OP_cvt);
    ck_assert_int_eq(in->rounding, PTX_RND_RZI);
    ck_assert_int_eq(in->type, PTX_S32);
    ck_assert_int_eq(in->type2, PTX_F32);
    in = ins(m, 7);
    ck_assert_int_eq(in->opcode, OP_cvta);
    ck_assert(in->flags & PTX_FLAG_TO);
    ck_assert_int_eq(in->space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(in->type, PTX_U64);
    in = ins(m, 8);
    ck_assert_int_eq(in->cmp, PTX_CMP_LT);
    ck_assert_int_eq(in->boolop, PTX_BOOL_AND);
    ck_assert(in->flags & PTX_FLAG_FTZ);
    ck_assert_int_eq(in->operand[3].kind, PTX_OPD_PRED);
    ck_assert_int_eq(in->operand[3].negated, 1);
    in = ins(m, 9);
    ck_assert_int_eq(in->mode, PTX_BARRED_POPC);
    ck_assert_int_eq(in->operand_count, 4);
    ck_assert_int_eq(in->operand[2].imm, 64);
    ck_assert_int_eq(ptx_operand_letter(in, 2), 'b');
    ck_assert_int_eq(ins(m, 10)->opcode, OP_bar_sync);
    ck_assert(!(ins(m, 10)->flags & PTX_FLAG_SYNC));
    ck_assert(ins(m, 11)->flags & PTX_FLAG_SYNC);
    ck_assert(ins(m, 12)->flags & PTX_FLAG_SYNC);
    in = ins(m, 13);
    ck_assert_int_eq(in->mode, PTX_VOTE_UNI);
    ck_assert(!(in->flags & PTX_FLAG_UNI));
    in = ins(m, 14);
    ck_assert_int_eq(in->mode, PTX_SHF_R);
    ck_assert(in->flags & PTX_FLAG_CLAMP);
    ck_assert(ins(m, 15)->flags & PTX_FLAG_VOLATILE);
    in = ins(m, 16);
    ck_assert_int_eq(in->sem, PTX_SEM_RELAXED);
    ck_assert_int_eq(in->scope, PTX_SCOPE_GPU);
    ck_assert_int_eq(in->mode, PTX_ATOM_ADD);
    in = ins(m, 17);
    ck_assert_int_eq(in->sem, PTX_SEM_SC);
    ck_assert_int_eq(in->scope, PTX_SCOPE_CTA);
    ck_assert_int_eq(ins(m, 18)->scope, PTX_SCOPE_GL);
    in = ins(m, 19);
    ck_assert_int_eq(in->mode, PTX_MUL_WIDE);
    ck_assert_int_eq(ptx_slot_type(in, 'd'), PTX_U64);
    ck_assert_int_eq(ptx_slot_type(in, 'a'), PTX_U32);
    ck_assert(ins(m, 20)->flags & PTX_FLAG_NAN);
    ck_assert(ins(m, 21)->flags & PTX_FLAG_FULL);
    ck_assert(ins(m, 22)->flags & PTX_FLAG_SAT);
    ck_assert(ins(m, 23)->flags & PTX_FLAG_SHIFTAMT);
    ck_assert_int_eq(ins(m, 24)->mode, PTX_PRMT_F4E);
    ck_assert_int_eq(ins(m, 25)->cache_op, PTX_COP_CA);
    ck_assert_int_eq(ins(m, 26)->space, PTX_SPACE_SHARED);
    in = ins(m, 27);
    ck_assert(in->flags & PTX_FLAG_APPROX);
    ck_assert(in->flags & PTX_FLAG_FTZ);
    in = ins(m, 28);
    ck_assert_int_eq(in->rounding, PTX_RND_RN);
    ck_assert(in->flags & PTX_FLAG_SAT);
    in = ins(m, 29);
    ck_assert_int_eq(in->mode, PTX_MUL_HI);
    ck_assert(in->flags & PTX_FLAG_CC);
    in = ins(m, 30);
    ck_assert_int_eq(in->mode, PTX_ATOM_CAS);
    ck_assert_int_eq(in->operand_count, 4);
    ck_assert_int_eq(ins(m, 31)->mode, PTX_ATOM_MAX);
    ck_assert_int_eq(ins(m, 32)->type, PTX_B32);
    ck_assert_int_eq(ins(m, 33)->type, PTX_B32);
    ck_assert_int_eq(ins(m, 34)->vec, 1);
    ptx_module_free(m);
}
END_TEST

START_TEST(immediates_per_slot_type)
{
    ptx_module *m = parse_ok(KERNEL(
        " add.f32 %f1, %f2, 0f3F800000;\n"     /* 0 */
        " add.f32 %f1, %f2, 1;\n"              /* 1: integer in f32 */
        " add.f32 %f1, %f2, 0d3FF8000000000000;\n" /* 2: 0d in f32 */
        " add.f32 %f1, %f2, 0.1;\n"            /* 3: decimal, rounded once to f32 */
        " add.f64 %fd1, %fd2, 0f3F800000;\n"   /* 4: 0f in f64 */
        " add.f64 %fd1, %fd2, -2;\n"           /* 5 */
        " add.f64 %fd1, %fd2, 0.1;\n"          /* 6 */
        " add.s32 %r1, %r2, -1;\n"             /* 7 */
        " add.u32 %r1, %r2, 0xFFFFFFFF;\n"     /* 8 */
        " add.u32 %r1, %r2, 017;\n"            /* 9 */
        " add.u32 %r1, %r2, 0b11;\n"           /* 10 */
        " add.u32 %r1, %r2, 7U;\n"             /* 11 */
        " mov.b32 %r1, 0f3F800000;\n"          /* 12: bits */
        " mov.b64 %rd1, 0d3FF0000000000000;\n" /* 13 */
        " mul.hi.u64 %rd1, %rd2, -6148914691236517205;\n" /* 14 */
        " shl.b64 %rd1, %rd2, 3;\n"            /* 15 */
        " cvt.rn.f32.s32 %f1, 5;\n"            /* 16: source in type2 */
        " selp.f32 %f1, 0f40000000, 2.5, %p1;\n" /* 17 */
        " sub.f32 %f1, %f2, -1.5;\n"           /* 18 */
        " mov.f32 %f1, -0f3F800000;\n"         /* 19 */
        " setp.gt.f32 %p1, %f1, 0f00000000;\n" /* 20 */
        " mov.pred %p1, 1;\n"                  /* 21 */
        " mad.wide.s32 %rd1, %r1, 3, 7;\n"));  /* 22 */
    ck_assert(as_f32(ins(m, 0)->operand[2].imm) == 1.0f);
    ck_assert_int_eq(ins(m, 0)->operand[2].imm, 0x3F800000);
    ck_assert_int_eq(ins(m, 1)->operand[2].imm, 0x3F800000);
    ck_assert(as_f32(ins(m, 2)->operand[2].imm) == 1.5f);
    ck_assert(as_f32(ins(m, 3)->operand[2].imm) == 0.1f);
    ck_assert(as_f64(ins(m, 4)->operand[2].imm) == 1.0);
    ck_assert(as_f64(ins(m, 5)->operand[2].imm) == -2.0);
    ck_assert(as_f64(ins(m, 6)->operand[2].imm) == 0.1);
    ck_assert_int_eq(ins(m, 7)->operand[2].imm, -1);
    ck_assert_int_eq(ins(m, 8)->operand[2].imm, 0xFFFFFFFFll);
    ck_assert_int_eq(ins(m, 9)->operand[2].imm, 15);
    ck_assert_int_eq(ins(m, 10)->operand[2].imm, 3);
    ck_assert_int_eq(ins(m, 11)->operand[2].imm, 7);
    ck_assert_int_eq(ins(m, 12)->operand[1].imm, 0x3F800000);
    ck_assert(ins(m, 13)->operand[1].imm == 0x3FF0000000000000ll);
    ck_assert(ins(m, 14)->operand[2].imm == -6148914691236517205ll);
    ck_assert_int_eq(ins(m, 15)->operand[2].imm, 3);
    ck_assert_int_eq(ptx_slot_type(ins(m, 15), 'b'), PTX_U32);
    ck_assert_int_eq(ins(m, 16)->operand[1].imm, 5);
    ck_assert(as_f32(ins(m, 17)->operand[1].imm) == 2.0f);
    ck_assert(as_f32(ins(m, 17)->operand[2].imm) == 2.5f);
    ck_assert(as_f32(ins(m, 18)->operand[2].imm) == -1.5f);
    ck_assert(as_f32(ins(m, 19)->operand[1].imm) == -1.0f);
    ck_assert_int_eq(ins(m, 20)->operand[2].imm, 0);
    ck_assert_int_eq(ins(m, 21)->operand[1].imm, 1);
    ck_assert_int_eq(ins(m, 22)->operand[2].imm, 3);
    ck_assert_int_eq(ptx_slot_type(ins(m, 22), 'c'), PTX_S64);
    /* printing: f32 slots as 0f, f64 as 0d, integers in decimal */
    const ptx_function *k = fn(m, "k");
    char *s = print_instr_str(m, k, ins(m, 1));
    ck_assert_str_eq(s, "add.f32\t%f1, %f2, 0f3F800000;");
    free(s);
    s = print_instr_str(m, k, ins(m, 6));
    ck_assert_str_eq(s, "add.f64\t%fd1, %fd2, 0d3FB999999999999A;");
    free(s);
    s = print_instr_str(m, k, ins(m, 14));
    ck_assert_str_eq(s, "mul.hi.u64\t%rd1, %rd2, -6148914691236517205;");
    free(s);
    ptx_module_free(m);
}
END_TEST

START_TEST(print_instructions)
{
    ptx_module *m = parse_ok(KERNEL(" @!%p1 ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+-16];\n"
                                    " shfl.sync.down.b32 %r1|%p2, %r2, 1, 31, -1;\n"
                                    " barrier.sync.aligned 1, 64;\n"
                                    " barrier.sync 0;\n"
                                    " atom.relaxed.gpu.global.add.u32 %r1, [%rd1], 1;\n"
                                    " cvta.to.global.u64 %rd1, %rd2;\n"
                                    " st.shared.u32 [%r3+4], %r1;\n"
                                    " mov.u32 %r1, %tid.x;\n"
                                    " ld.param.u64 %rd1, [p+8];"));
    const ptx_function *k = fn(m, "k");
    const char *want[] = {
        "@!%p1 ld.global.nc.v4.f32\t{%f1, %f2, _, %f4}, [%rd1+-16];",
        "shfl.sync.down.b32\t%r1|%p2, %r2, 1, 31, -1;",
        "bar.sync\t1, 64;",
        "barrier.sync\t0;",
        "atom.relaxed.gpu.global.add.u32\t%r1, [%rd1], 1;",
        "cvta.to.global.u64\t%rd1, %rd2;",
        "st.shared.u32\t[%r3+4], %r1;",
        "mov.u32\t%r1, %tid.x;",
        "ld.param.u64\t%rd1, [p+8];",
    };
    for (int i = 0; i < 9; i++) {
        char *s = print_instr_str(m, k, &k->instrs[i]);
        ck_assert_str_eq(s, want[i]);
        free(s);
    }
    ptx_module_free(m);
}
END_TEST

START_TEST(scopes_and_shadowing)
{
    ptx_module *m = parse_ok(HDR ".global .u32 x;\n.entry k()\n{\n .reg .pred %p<3>; .reg .b32 %r<3>;\n"
                                 " .local .u32 x;\n ld.local.u32 %r1, [x];\n"
                                 " {\n .reg .pred %p1;\n setp.ne.u32 %p1, %r1, 0;\n {\n .reg .pred %p1;\n"
                                 " setp.eq.u32 %p1, %r1, 0;\n }\n selp.u32 %r2, 1, 0, %p1;\n }\n"
                                 " @%p1 bra L;\nL:\n ret;\n}\n");
    const ptx_function *k = fn(m, "k");
    int outer = 1;
    ck_assert_int_eq(k->instrs[0].operand[1].symbol, k->items[2].index); /* the .local x */
    ck_assert_int_ne(k->instrs[0].operand[1].symbol, sym(m, "x"));
    int in1 = k->instrs[1].operand[0].reg, in2 = k->instrs[2].operand[0].reg;
    ck_assert_int_ne(in1, outer);
    ck_assert_int_ne(in2, in1);
    ck_assert_int_eq(k->instrs[3].operand[3].reg, in1); /* back in the first scope */
    ck_assert_int_eq(k->instrs[4].guard, outer);        /* back in the body */
    ck_assert_int_eq(k->pred_reg_count, 5);
    ptx_module_free(m);
}
END_TEST

START_TEST(module_equal_and_find)
{
    const char *text = KERNEL(" add.s32 %r1, %r2, 1;\n ret;");
    ptx_module *a = parse_ok(text), *b = parse_ok(text);
    char why[256];
    ck_assert_int_eq(ptx_module_equal(a, b, why, sizeof why), 1);
    ck_assert_str_eq(why, "");
    b->functions[0].instrs[0].operand[2].imm = 2;
    ck_assert_int_eq(ptx_module_equal(a, b, why, sizeof why), 0);
    ck_assert_msg(strstr(why, "instruction 0") && strstr(why, "operand"), "why: %s", why);
    b->functions[0].instrs[0].operand[2].imm = 1;
    b->functions[0].instrs[0].line = 99; /* positions do not count */
    ck_assert_int_eq(ptx_module_equal(a, b, why, sizeof why), 1);
    ck_assert_int_eq(ptx_find_function(a, "k"), 0);
    ck_assert_int_eq(ptx_find_function(a, "nope"), -1);
    ptx_module_free(a);
    ptx_module_free(b);
}
END_TEST

/* ---- errors, with exact positions ------------------------------------------ */

START_TEST(error_unsupported_instruction)
{
    ck_assert_str_eq(parse_err(KERNEL("    foo.bar %r1, %r2;")), "x.ptx:7:5: error: unsupported instruction 'foo.bar'");
    ck_assert_str_eq(parse_err(KERNEL(" add.lo.s32 %r1, %r2, %r3;")),
                     "x.ptx:7:2: error: unsupported modifier '.lo' in 'add.lo.s32'");
    ck_assert_str_eq(parse_err(KERNEL(" add.f16 %rs1, %rs2, %rs3;")),
                     "x.ptx:7:2: error: unsupported type '.f16' in 'add.f16'");
    ck_assert_str_eq(parse_err(KERNEL(" add %r1, %r2, %r3;")),
                     "x.ptx:7:2: error: missing type in 'add' (add takes a type such as .s32)");
    ck_assert_str_eq(parse_err(KERNEL(" setp.s32 %p1, %r2, %r3;")),
                     "x.ptx:7:2: error: 'setp.s32' needs a comparison such as .lt");
    ck_assert_str_eq(parse_err(KERNEL(" ld.global.shared.u32 %r1, [%rd1];")),
                     "x.ptx:7:2: error: conflicting modifier '.shared' in 'ld.global.shared.u32'");
}
END_TEST

START_TEST(error_operands)
{
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %r2;")), "x.ptx:7:2: error: 'add' expects 3 operands, got 2");
    ck_assert_str_eq(parse_err(KERNEL(" bar.sync 0, 64, 3;")),
                     "x.ptx:7:2: error: 'bar.sync' expects 1 to 2 operands, got 3");
    ck_assert_str_eq(parse_err(KERNEL(" bra $L__BB0_9;")), "x.ptx:7:6: error: undefined label '$L__BB0_9'");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %r99, 1;")), "x.ptx:7:15: error: undefined register '%r99'");
    ck_assert_str_eq(parse_err(KERNEL(" mov.u64 %rd1, nothing;")), "x.ptx:7:16: error: undefined identifier 'nothing'");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %p1, 1;")),
                     "x.ptx:7:15: error: predicate '%p1' used where a .s32 value is expected in 'add.s32'");
    ck_assert_str_eq(parse_err(KERNEL(" setp.eq.s32 %r1, %r2, 1;")),
                     "x.ptx:7:14: error: expected a predicate register, got '%r1' (.b32) in 'setp.eq.s32'");
    ck_assert_str_eq(parse_err(KERNEL(" add.s64 %rd1, %r2, 1;")),
                     "x.ptx:7:16: error: register '%r2' is .b32: it does not fit a .s64 operand of 'add.s64'");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %f2, 1;")),
                     "x.ptx:7:15: error: register '%f2' is .f32: it does not fit a .s32 operand of 'add.s32'");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %r2, 1.5;")),
                     "x.ptx:7:20: error: floating-point literal in an integer (.s32) operand");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %r2, 99999999999999999999;")),
                     "x.ptx:7:20: error: number out of range: '99999999999999999999' does not fit in 64 bits");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %r2, -9223372036854775809;")),
                     "x.ptx:7:20: error: number out of range: -9223372036854775809 does not fit in 64 bits");
    ck_assert_str_eq(parse_err(KERNEL(" @%r1 ret;")), "x.ptx:7:3: error: guard '%r1' is not a predicate register");
    ck_assert_str_eq(parse_err(KERNEL(" ld.global.v4.f32 {%f1, %f2}, [%rd1];")),
                     "x.ptx:7:19: error: 'ld.global.v4.f32' needs a vector of 4 registers, got 2");
    ck_assert_str_eq(parse_err(KERNEL(" ld.global.f32 %f1, [%r1];")),
                     "x.ptx:7:22: error: 32-bit address register '%r1' is only allowed for .shared and .local "
                     "accesses (in 'ld.global.f32')");
    ck_assert_str_eq(parse_err(KERNEL(" add.u32 %r1, %tid.x, 1;")),
                     "x.ptx:7:15: error: special register '%tid.x' can only be read with mov or cvt, not 'add.u32'");
    ck_assert_str_eq(parse_err(KERNEL(" mov.u32 %r1, %tid;")),
                     "x.ptx:7:15: error: unsupported special register '%tid' (read %tid.x, %tid.y or %tid.z)");
    ck_assert_str_eq(parse_err(KERNEL(" call.uni nowhere, ();")), "x.ptx:7:11: error: undefined function 'nowhere'");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, %r2, 1")),
                     "x.ptx:8:1: error: expected ',' or ';', got '}'");
    ck_assert_str_eq(parse_err(KERNEL(" lop3.b32 %r1, %r2, %r3, %r4, %r5;")),
                     "x.ptx:7:31: error: the truth table of lop3 must be an immediate");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, [%rd1], 1;")),
                     "x.ptx:7:15: error: unexpected address operand in 'add.s32'");
    ck_assert_str_eq(parse_err(KERNEL(" ld.global.u32 %r1, %rd1;")),
                     "x.ptx:7:21: error: 'ld.global.u32' expects an address [...] here");
    ck_assert_str_eq(parse_err(KERNEL(" bra %r1;")),
                     "x.ptx:7:6: error: 'bra' expects a label, got '%r1' (indirect branches are not supported)");
    ck_assert_str_eq(parse_err(KERNEL(" mov.u32 5, %r1;")),
                     "x.ptx:7:10: error: the destination of 'mov.u32' must be a register");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1, !%r2, 1;")),
                     "x.ptx:7:15: error: '!' negates a predicate source only (in 'add.s32')");
    ck_assert_str_eq(parse_err(KERNEL(" add.s32 %r1|%p1, %r2, 1;")),
                     "x.ptx:7:10: error: 'add' takes no second destination ('|')");
    ck_assert_str_eq(parse_err(KERNEL(" st.global.u32 [%rd1+buf], %r1;")),
                     "x.ptx:7:22: error: expected an integer offset, got 'buf': an address is [register+offset] or "
                     "[variable+offset] (take the variable's address with mov first)");
    ck_assert_str_eq(parse_err(KERNEL(" ld.global.u32 %r1, [n];")),
                     "x.ptx:7:22: error: 'n' is a .param variable, not .global (in 'ld.global.u32')");
}
END_TEST

START_TEST(error_declarations)
{
    ck_assert_str_eq(parse_err(KERNEL(".reg .b32 %r3;")), "x.ptx:7:11: error: duplicate register '%r3'");
    ck_assert_str_eq(parse_err(KERNEL("L: ret;\nL: ret;")),
                     "x.ptx:8:1: error: duplicate label 'L' (first defined at line 7)");
    ck_assert_str_eq(parse_err(HDR ".global .u32 a;\n.global .f32 a;\n"), "x.ptx:5:14: error: duplicate name 'a'");
    ck_assert_str_eq(parse_err(HDR ".entry k() { ret; }\n.entry k() { ret; }\n"),
                     "x.ptx:5:8: error: duplicate function 'k' (defined at line 4)");
    ck_assert_str_eq(parse_err(KERNEL(".reg .b32 %q<99999999>;")),
                     "x.ptx:7:14: error: number out of range: register count 99999999 (1 to 262144)");
    ck_assert_str_eq(parse_err(HDR ".global .u8 b[2] = {1, 2, 3};\n"),
                     "x.ptx:4:27: error: too many initializers for 'b' (2 elements)");
    ck_assert_str_eq(parse_err(HDR ".global .u8 b[2] = {1, 256};\n"),
                     "x.ptx:4:24: error: number out of range: 256 does not fit a .u8 element");
    ck_assert_str_eq(parse_err(HDR ".global .u64 p = generic(x);\n"),
                     "x.ptx:4:18: error: unsupported initializer 'generic': only numbers (no addresses of variables)");
    ck_assert_str_eq(parse_err(HDR ".func f(.param .b32 a) { ret; }\n.entry k() { .param .b32 p; call f, (p, p); }\n"),
                     "x.ptx:5:34: error: call to 'f' passes 2 arguments, 'f' takes 1");
    ck_assert_str_eq(parse_err(HDR ".entry k() { .reg .b32 %r1; call.uni (%r1), f, (); }\n"),
                     "x.ptx:4:39: error: call results must be .param variables, not registers ('%r1')");
}
END_TEST

START_TEST(error_file_level)
{
    ck_assert_str_eq(parse_err(""), "x.ptx:1:1: error: no .version directive: the file is empty");
    ck_assert_str_eq(parse_err("// just a comment\n"),
                     "x.ptx:1:1: error: no .version directive (a PTX file starts with .version, .target and "
                     ".address_size)");
    ck_assert_str_eq(parse_err(".version 9.0\n.entry k() { ret; }\n"),
                     "x.ptx:2:1: error: no .target directive before this point");
    ck_assert_str_eq(parse_err(KERNEL(" ret; /* not closed")), "x.ptx:7:7: error: unterminated block comment");
    ck_assert_str_eq(parse_err(HDR "\x01\x02\x03\xff binary"),
                     "x.ptx:4:1: error: binary data (byte 0x01): not a PTX text file");
    ck_assert_str_eq(parse_err(KERNEL(" ret;\n.pragma \"open")), "x.ptx:8:9: error: unterminated string");
    /* truncated: the text ends inside the body */
    const char *full = KERNEL(" add.s32 %r1, %r2, 1;\n ret;");
    char cut[512];
    snprintf(cut, sizeof cut, "%.*s", (int)(strstr(full, "%r2") - full), full);
    ck_assert_str_eq(parse_err(cut), "x.ptx:7:15: error: expected an operand, got end of file");
    /* a missing closing brace */
    ck_assert_str_eq(parse_err(HDR ".entry k()\n{\n ret;\n"),
                     "x.ptx:7:1: error: unexpected end of file: missing '}' to close function 'k' (opened at line 5)");
}
END_TEST

START_TEST(error_directory_and_missing_file)
{
    ptx_diag d = {0};
    ptx_module *m = ptx_parse_file(WARPSIM_SOURCE_DIR "/tests", &d);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(d.count, 1);
    ck_assert_str_eq(d.lines[0], WARPSIM_SOURCE_DIR "/tests: error: is a directory");
    ptx_diag_free(&d);
    m = ptx_parse_file(WARPSIM_SOURCE_DIR "/tests/ptx/no_such_file.ptx", &d);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(d.lines[0], WARPSIM_SOURCE_DIR "/tests/ptx/no_such_file.ptx: error: cannot open: "
                                                    "No such file or directory");
    ptx_diag_free(&d);
}
END_TEST

START_TEST(error_recovery_and_cap)
{
    /* several independent errors are all reported */
    ptx_diag d = {0};
    const char *text = KERNEL(" foo.s32 %r1;\n add.s32 %r1;\n bra nowhere;");
    ptx_module *m = ptx_parse(text, strlen(text), "x.ptx", &d);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(d.count, 3);
    ck_assert_str_eq(d.lines[0], "x.ptx:7:2: error: unsupported instruction 'foo.s32'");
    ck_assert_str_eq(d.lines[1], "x.ptx:8:2: error: 'add' expects 3 operands, got 1");
    ck_assert_str_eq(d.lines[2], "x.ptx:9:6: error: undefined label 'nowhere'");
    ptx_diag_free(&d);
    /* but not too many */
    char big[20000];
    size_t n = (size_t)snprintf(big, sizeof big, "%s", HDR ".entry k()\n{\n");
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, " bogus%d;\n", i);
    snprintf(big + n, sizeof big - n, "}\n");
    m = ptx_parse(big, strlen(big), "x.ptx", &d);
    ck_assert_ptr_null(m);
    ck_assert_int_le(d.count, PTX_DIAG_MAX + 1);
    ck_assert_msg(strstr(d.lines[d.count - 1], "too many errors"), "last: %s", d.lines[d.count - 1]);
    ptx_diag_free(&d);
}
END_TEST

/* Every prefix of a valid file and some byte flips must parse or fail cleanly. */
START_TEST(robust_on_truncations_and_noise)
{
    FILE *f = fopen(WARPSIM_SOURCE_DIR "/tests/ptx/good_features.ptx", "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ck_assert_int_gt(len, 1000);
    for (size_t cut = 0; cut < len; cut += 13) {
        ptx_diag d = {0};
        ptx_module *m = ptx_parse(buf, cut, "cut.ptx", &d);
        ck_assert_msg(m != NULL || d.count > 0, "truncation at %zu failed without a message", cut);
        ck_assert_int_le(d.count, PTX_DIAG_MAX + 1);
        ptx_module_free(m);
        ptx_diag_free(&d);
    }
    static char noisy[1 << 16];
    unsigned seed = 12345;
    const char alphabet[] = "{}[]()<>;:,.+-!@|%_$0123456789abcxyz\n\t \"/*";
    for (int round = 0; round < 300; round++) {
        memcpy(noisy, buf, len);
        for (int k = 0; k < 8; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t pos = (seed >> 8) % len;
            seed = seed * 1103515245u + 12345u;
            noisy[pos] = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
        }
        ptx_diag d = {0};
        ptx_module *m = ptx_parse(noisy, len, "noise.ptx", &d);
        ck_assert(m != NULL || d.count > 0);
        ptx_module_free(m);
        ptx_diag_free(&d);
    }
    /* deep nesting is refused, not recursed into */
    static char deep[8192];
    size_t n = (size_t)snprintf(deep, sizeof deep, "%s", HDR ".entry k()\n{\n");
    for (int i = 0; i < 3000; i++)
        deep[n++] = '{';
    deep[n] = 0;
    ptx_diag d = {0};
    ck_assert_ptr_null(ptx_parse(deep, n, "deep.ptx", &d));
    ck_assert_msg(strstr(d.lines[0], "too deeply nested"), "%s", d.lines[0]);
    ptx_diag_free(&d);
    n = (size_t)snprintf(deep, sizeof deep, "%s", HDR ".global .u32 a[2] = ");
    for (int i = 0; i < 3000; i++)
        deep[n++] = '{';
    deep[n] = 0;
    ck_assert_ptr_null(ptx_parse(deep, n, "deep.ptx", &d));
    ptx_diag_free(&d);
}
END_TEST

/* The R_* rules of isa/opcodes.def and the modes each modifier group needs: every message, at the opcode. */
START_TEST(opcode_rules)
{
    static const struct { const char *body, *error; } cases[] = {
        {" shfl.sync.b32 %r1, %r2, 1, 31, -1;", "'shfl.sync.b32' needs a mode (.up .down .bfly .idx)"},
        {" vote.sync.pred %p1, %p2, -1;", "'vote.sync.pred' needs a mode (.all .any .uni .ballot)"},
        {" atom.global.u32 %r1, [%rd1], 1;", "'atom.global.u32' needs an operation such as .add"},
        {" bar.red.u32 %r1, 0, %p1;", "'bar.red.u32' needs an operation (.popc .and .or)"},
        {" shf.clamp.b32 %r1, %r2, %r3, %r4;", "'shf.clamp.b32' needs a direction (.l or .r)"},
        {" mul.s32 %r1, %r2, %r3;", "'mul.s32' needs a mode (.lo .hi .wide)"},
        {" mad.u32 %r1, %r2, %r3, %r4;", "'mad.u32' needs a mode (.lo .hi .wide)"},
        {" mul24.s32 %r1, %r2, %r3;", "'mul24.s32' needs a mode (.lo .hi)"},
        {" madc.u32 %r1, %r2, %r3, %r4;", "'madc.u32' needs a mode (.lo .hi)"},
        {" membar;", "'membar' needs a level (.cta .gl .sys)"},
        {" mul.lo.f32 %f1, %f2, %f3;", "unsupported modifier in 'mul.lo.f32': .lo/.hi/.wide are for integers"},
        {" mul.wide.s64 %rd1, %rd2, %rd3;", "'mul.wide.s64': .wide takes a 16- or 32-bit type"},
        {" bar.red.popc.pred %p1, 0, %p2;", "'bar.red.popc.pred': .popc gives a .u32 count"},
        {" barrier.red.or.u32 %r1, 0, %p2;", "'barrier.red.or.u32': .and and .or give a .pred"},
        {" vote.sync.any.b32 %r1, %p2, -1;", "'vote.sync.any.b32': vote.ballot takes .b32, the others .pred"},
        {" vote.sync.ballot.pred %p1, %p2, -1;", "'vote.sync.ballot.pred': vote.ballot takes .b32, the others .pred"},
    };
    const char *empty = KERNEL("");   /* KERNEL(body) is this with body before its last "\n}\n" */
    char text[1024], want[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%.*s%s\n}\n", (int)strlen(empty) - 3, empty, cases[i].body);
        snprintf(want, sizeof want, "x.ptx:7:2: error: %s", cases[i].error);
        ck_assert_str_eq(parse_err(text), want);
    }
    /* R_IMPLIED_SYNC: bar.* is .sync written or not (it is barrier.sync.aligned), barrier.* only when written */
    ptx_module *m = parse_ok(KERNEL(" bar.sync 0;\n bar 0;\n barrier.sync 0;\n barrier.sync.aligned 0;\n"
                                    " bar.arrive 0, 64;\n barrier.arrive 0, 64;\n bar.red.and.pred %p1, 0, %p2;\n"
                                    " barrier.red.and.pred %p1, 0, %p2;"));
    static const int sync[] = {1, 1, 0, 1, 1, 0, 1, 0};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(!!(ins(m, i)->flags & PTX_FLAG_SYNC) == sync[i], "instruction %d", i);
    ptx_module_free(m);
}
END_TEST

/* Predicate immediates: 0 false, 1 and -1 true (nvcc -G writes mov.pred %p, -1); anything else an error. */
START_TEST(predicate_immediates)
{
    ptx_module *m = parse_ok(KERNEL(" mov.pred %p1, -1;\n mov.pred %p2, 1;\n mov.pred %p3, 0;"));
    ck_assert_int_eq(ins(m, 0)->operand[1].imm, 1);
    ck_assert_int_eq(ins(m, 1)->operand[1].imm, 1);
    ck_assert_int_eq(ins(m, 2)->operand[1].imm, 0);
    ptx_module_free(m);
    ck_assert_str_eq(parse_err(KERNEL(" mov.pred %p1, 2;")),
                     "x.ptx:7:16: error: a predicate immediate must be 0, 1 or -1");
    ck_assert_str_eq(parse_err(KERNEL(" mov.pred %p1, -2;")),
                     "x.ptx:7:16: error: a predicate immediate must be 0, 1 or -1");
}
END_TEST

/* .weak variables (clang's template __shared__ arrays): a definition, kept through dump; never .local. */
START_TEST(weak_variables)
{
    ptx_module *m = parse_ok(HDR ".weak .shared .align 4 .b8 s[256];\n.weak .global .u32 g = 7;\n"
                             ".visible .entry k()\n{\n.reg .b32 %r<2>;\n ld.shared.u32 %r1, [s+4];\n ret;\n}\n");
    int si = sym(m, "s"), gi = sym(m, "g");
    ck_assert_int_eq(m->symbols[si].is_weak, 1);
    ck_assert_int_eq(m->symbols[si].space, PTX_SPACE_SHARED);
    ck_assert_uint_eq(m->symbols[si].size, 256);
    ck_assert_int_eq(m->symbols[gi].is_weak, 1);
    ck_assert_int_eq(m->symbols[gi].visible, 0);
    ck_assert_int_eq(ins(m, 0)->operand[1].symbol, si);
    ptx_module_free(m);
    ck_assert_str_eq(parse_err(HDR ".weak .local .u32 l;\n"),
                     "x.ptx:4:1: error: .local variables cannot be .visible, .extern or .weak");
}
END_TEST

/* Line information (nvcc -lineinfo, -G; clang -g): each instruction keeps the last .loc before it, the
 * .file table names the files; nothing else changes (every instruction is still there), and dump prints both
 * back so that the module re-parses equal. */
START_TEST(line_information)
{
    const char *text = HDR ".visible .entry k()\n{\n.reg .b32 %r<4>;\n"
                       " mov.u32 %r1, 1;\n"                                        /* before any .loc */
                       " .loc 1 12 5\n"
                       " mov.u32 %r2, 2;\n add.u32 %r3, %r1, %r2;\n"
                       " .loc 2 40 0, function_name $L__info_string0, inlined_at 1 13 9\n"   /* nvcc -G's form */
                       " ret;\n}\n"
                       ".file 1 \"src/k.cu\"\n.file 2 \"src/util.cuh\", 1700000000, 512\n";
    ptx_module *m = parse_ok(text);
    const ptx_function *k = fn(m, "k");
    ck_assert_int_eq(k->instr_count, 4);
    ck_assert_int_eq(ins(m, 0)->src_file, 0);
    ck_assert_int_eq(ins(m, 1)->src_file, 1);
    ck_assert_int_eq(ins(m, 1)->src_line, 12);
    ck_assert_int_eq(ins(m, 1)->src_column, 5);
    ck_assert_int_eq(ins(m, 2)->src_line, 12);
    ck_assert_int_eq(ins(m, 3)->src_file, 2);
    ck_assert_int_eq(ins(m, 3)->src_line, 40);
    ck_assert_int_eq(ins(m, 3)->opcode, OP_ret);
    ck_assert_str_eq(ptx_source_path(m, 1), "src/k.cu");
    ck_assert_str_eq(ptx_source_path(m, 2), "src/util.cuh");
    ck_assert_ptr_null(ptx_source_path(m, 3));
    char *printed = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&printed, &len);
    ptx_print_module(m, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(printed, "\t.loc\t1 12 5\n\tmov.u32\t%r2, 2;"));
    ck_assert_ptr_nonnull(strstr(printed, "\t.file\t2 \"src/util.cuh\"\n"));
    ptx_module *again = parse_ok(printed);
    char why[256];
    ck_assert_msg(ptx_module_equal(m, again, why, sizeof why), "%s", why);
    ptx_module_free(again);
    free(printed);
    ptx_module_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("directives");
    tcase_add_test(tc, header_directives);
    tcase_add_test(tc, function_addresses_and_inlined_sites);
    tcase_add_test(tc, opcode_rules);
    tcase_add_test(tc, predicate_immediates);
    tcase_add_test(tc, weak_variables);
    tcase_add_test(tc, line_information);
    tcase_add_test(tc, kernel_params_layout);
    tcase_add_test(tc, functions_calls_and_prototypes);
    tcase_add_test(tc, registers);
    tcase_add_test(tc, variables_and_initializers);
    tcase_add_test(tc, performance_directives_and_pragma);
    tcase_add_test(tc, debug_directives_skipped);
    suite_add_tcase(s, tc);
    tc = tcase_create("operands");
    tcase_add_test(tc, labels_and_guards);
    tcase_add_test(tc, operand_forms);
    tcase_add_test(tc, modifier_decoding);
    tcase_add_test(tc, immediates_per_slot_type);
    tcase_add_test(tc, print_instructions);
    tcase_add_test(tc, scopes_and_shadowing);
    tcase_add_test(tc, module_equal_and_find);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, error_unsupported_instruction);
    tcase_add_test(tc, error_operands);
    tcase_add_test(tc, error_declarations);
    tcase_add_test(tc, error_file_level);
    tcase_add_test(tc, error_directory_and_missing_file);
    tcase_add_test(tc, error_recovery_and_cap);
    tcase_add_test(tc, robust_on_truncations_and_noise);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
