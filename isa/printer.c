/*
 * The PTX printer: a ptx_module back to PTX text that parses to an equal
 * module and that ptxas accepts; and the opcode reference table.
 */
#include "isa/bits.h"
#include "isa/ptx.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---------------------------------------------------------------- */

typedef struct {
    const char **value; /* value register index -> name */
    const char **pred;  /* predicate index -> name */
    int nvalue, npred;
} regnames;

static void regnames_init(regnames *rn, const ptx_function *fn)
{
    memset(rn, 0, sizeof *rn);
    if (!fn)
        return;
    rn->nvalue = fn->value_reg_count;
    rn->npred = fn->pred_reg_count;
    rn->value = calloc((size_t)rn->nvalue + 1, sizeof *rn->value);
    rn->pred = calloc((size_t)rn->npred + 1, sizeof *rn->pred);
    if (!rn->value || !rn->pred)
        abort();
    for (int i = 0; i < fn->reg_count; i++) {
        const ptx_reg *r = &fn->regs[i];
        if (r->is_pred) {
            if (r->index >= 0 && r->index < rn->npred)
                rn->pred[r->index] = r->name;
        } else if (r->index >= 0 && r->index < rn->nvalue) {
            rn->value[r->index] = r->name;
        }
    }
}

static void regnames_free(regnames *rn)
{
    free(rn->value);
    free(rn->pred);
}

static const char *vname(const regnames *rn, int i)
{
    return (i >= 0 && i < rn->nvalue && rn->value[i]) ? rn->value[i] : "%?";
}
static const char *pname(const regnames *rn, int i)
{
    return (i >= 0 && i < rn->npred && rn->pred[i]) ? rn->pred[i] : "%?";
}
static const char *symname(const ptx_module *m, int i)
{
    return (i >= 0 && i < m->symbol_count && m->symbols[i].name) ? m->symbols[i].name : "?";
}

/* ---- instructions --------------------------------------------------------- */

/* A modifier's spelling from the parser's own table (isa/ptx_tables.c): "" when unset. */
static const char *mod_name(uint32_t groups, uint32_t value)
{
    return value ? ptx_modifier_spelling(groups, value) : "";
}

static void put_mod(FILE *f, const char *s)
{
    if (s && *s)
        fprintf(f, ".%s", s);
}

static void print_opcode(const ptx_instr *in, FILE *f)
{
    unsigned op = in->opcode;
    if (op >= OP_COUNT) {
        fputs("?", f);
        return;
    }
    int barrier = op == OP_bar_sync || op == OP_bar_arrive || op == OP_bar_red;
    if (barrier) {
        const char *base = ptx_opcodes[op].spelling + 4; /* "sync" "arrive" "red" */
        fprintf(f, "%s.%s", (in->flags & PTX_FLAG_SYNC) ? "bar" : "barrier", base);
    } else {
        fputs(ptx_opcodes[op].spelling, f);
        if (in->flags & PTX_FLAG_SYNC)
            put_mod(f, mod_name(MG_SYNC, 1));
    }
    if (in->flags & PTX_FLAG_VOLATILE)
        put_mod(f, mod_name(MG_CACHE, PTX_QUAL_VOLATILE));
    put_mod(f, in->sem ? mod_name(MG_CACHE | MG_ORDER, PTX_QUAL_SEM | in->sem) : "");
    put_mod(f, in->scope ? mod_name(MG_CACHE | MG_ORDER, PTX_QUAL_SCOPE | in->scope) : "");
    if (in->flags & PTX_FLAG_TO)
        put_mod(f, mod_name(MG_TO, 1));
    if (in->space)
        put_mod(f, in->space < PTX_SPACE_COUNT ? ptx_space_names[in->space] : "?");
    put_mod(f, in->cache_op ? mod_name(MG_CACHE, PTX_QUAL_COP | in->cache_op) : "");
    if (in->flags & PTX_FLAG_NC)
        put_mod(f, mod_name(MG_CACHE, PTX_QUAL_NC));
    switch (op) {
    case OP_setp:
        put_mod(f, mod_name(MG_CMP, in->cmp));
        put_mod(f, mod_name(MG_BOOLOP, in->boolop));
        break;
    case OP_mul: case OP_mad: case OP_mul24: case OP_mad24: case OP_madc:
        put_mod(f, mod_name(MG_MULMODE, in->mode));
        break;
    case OP_shfl:
        put_mod(f, mod_name(MG_SHFL, in->mode));
        break;
    case OP_vote:
        put_mod(f, mod_name(MG_VOTE, in->mode));
        break;
    case OP_atom: case OP_red:
        put_mod(f, mod_name(MG_ATOM, in->mode));
        break;
    case OP_bar_red:
        put_mod(f, mod_name(MG_BARRED, in->mode));
        break;
    case OP_shf:
        put_mod(f, mod_name(MG_SHF, in->mode));
        put_mod(f, (in->flags & PTX_FLAG_CLAMP) ? "clamp" : "wrap");   /* both value 0 in the table: told apart by name */
        break;
    default:
        break;
    }
    put_mod(f, mod_name(MG_ROUND, in->rounding));
    /* the flag modifiers, in the order ptxas accepts them */
    static const struct { uint32_t flag, group; } flags[] = {
        {PTX_FLAG_APPROX, MG_APPROX}, {PTX_FLAG_FULL, MG_FULL}, {PTX_FLAG_FTZ, MG_FTZ}, {PTX_FLAG_SAT, MG_SAT},
        {PTX_FLAG_NAN, MG_NAN}, {PTX_FLAG_CC, MG_CC}, {PTX_FLAG_SHIFTAMT, MG_SHIFTAMT}, {PTX_FLAG_UNI, MG_UNI},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (in->flags & flags[i].flag)
            put_mod(f, mod_name(flags[i].group, 1));
    if (in->vec == 2 || in->vec == 4)
        fprintf(f, ".v%d", in->vec);
    if (in->type && in->type < PTX_TYPE_COUNT)
        put_mod(f, ptx_types[in->type].name);
    if (in->type2 && in->type2 < PTX_TYPE_COUNT)
        put_mod(f, ptx_types[in->type2].name);
    if (op == OP_prmt)
        put_mod(f, mod_name(MG_PRMT, in->mode));
}

static void print_imm(FILE *f, ptx_type t, int64_t v)
{
    if (t == PTX_F32) {
        fprintf(f, "0f%08" PRIX32, (uint32_t)v);
    } else if (t == PTX_F64) {
        fprintf(f, "0d%016" PRIX64, (uint64_t)v);
    } else if (t == PTX_F16) {
        fprintf(f, "0f%08" PRIX32, ptx_f32_bits(ptx_f16_to_f32((uint16_t)v)));
    } else {
        fprintf(f, "%" PRId64, v);
    }
}

static void print_operand(const ptx_module *m, const ptx_function *fn, const regnames *rn, const ptx_instr *in,
                          int k, FILE *f)
{
    const ptx_operand *o = &in->operand[k];
    switch (o->kind) {
    case PTX_OPD_REG:
        fputs(vname(rn, o->reg), f);
        break;
    case PTX_OPD_PRED:
        fprintf(f, "%s%s", o->negated ? "!" : "", pname(rn, o->reg));
        break;
    case PTX_OPD_IMM:
        print_imm(f, ptx_slot_type(in, ptx_operand_letter(in, k)), o->imm);
        break;
    case PTX_OPD_SREG:
        fputs(o->reg >= 0 && o->reg < PTX_SREG_COUNT ? ptx_sreg_names[o->reg] : "%?", f);
        break;
    case PTX_OPD_SYMBOL:
        fputs(symname(m, o->symbol), f);
        if (o->imm)
            fprintf(f, "+%" PRId64, o->imm);
        break;
    case PTX_OPD_FUNCTION:
        fputs(o->reg >= 0 && o->reg < m->function_count ? m->functions[o->reg].name : "?", f);
        break;
    case PTX_OPD_ADDR:
        fputc('[', f);
        if (o->reg >= 0)
            fputs(vname(rn, o->reg), f);
        else if (o->symbol >= 0)
            fputs(symname(m, o->symbol), f);
        else
            fprintf(f, "%" PRId64, o->imm);
        if ((o->reg >= 0 || o->symbol >= 0) && o->imm)
            fprintf(f, "+%" PRId64, o->imm);
        fputc(']', f);
        break;
    case PTX_OPD_VEC:
        fputc('{', f);
        for (int i = 0; i < o->count && i < PTX_MAX_VEC; i++) {
            if (i)
                fputs(", ", f);
            fputs(o->regs[i] < 0 ? "_" : vname(rn, o->regs[i]), f);
        }
        fputc('}', f);
        break;
    case PTX_OPD_LABEL:
        fputs(fn && o->reg >= 0 && o->reg < fn->label_count ? fn->labels[o->reg].name : "?", f);
        break;
    case PTX_OPD_SINK:
        fputc('_', f);
        break;
    default:
        fputs("?", f);
        break;
    }
}

static void print_instr_names(const ptx_module *m, const ptx_function *fn, const regnames *rn,
                              const ptx_instr *in, FILE *f)
{
    if (in->guard >= 0)
        fprintf(f, "@%s%s ", in->guard_negated ? "!" : "", pname(rn, in->guard));
    print_opcode(in, f);
    if (in->opcode == OP_call) {
        const ptx_call *c = (fn && in->call >= 0 && in->call < fn->call_count) ? &fn->calls[in->call] : NULL;
        fputc('\t', f);
        if (!c) {
            fputs("?;", f);
            return;
        }
        if (c->ret_count) {
            fputc('(', f);
            for (int i = 0; i < c->ret_count; i++)
                fprintf(f, "%s%s", i ? ", " : "", symname(m, fn->call_symbols[c->ret_first + i]));
            fputs("), ", f);
        }
        fputs(c->function >= 0 && c->function < m->function_count ? m->functions[c->function].name : "?", f);
        fputs(", (", f);
        for (int i = 0; i < c->arg_count; i++)
            fprintf(f, "%s%s", i ? ", " : "", symname(m, fn->call_symbols[c->arg_first + i]));
        fputs(");", f);
        return;
    }
    for (int k = 0; k < in->operand_count && k < PTX_MAX_OPERANDS; k++) {
        if (ptx_operand_letter(in, k) == 'q')
            fputc('|', f);
        else
            fputs(k ? ", " : "\t", f);
        print_operand(m, fn, rn, in, k, f);
    }
    fputc(';', f);
}

void ptx_print_instr(const ptx_module *m, const ptx_function *fn, const ptx_instr *in, FILE *f)
{
    regnames rn;
    regnames_init(&rn, fn);
    print_instr_names(m, fn, &rn, in, f);
    regnames_free(&rn);
}

/* ---- declarations --------------------------------------------------------- */

static void print_string(FILE *f, const char *s)
{
    fputc('"', f);
    fputs(s ? s : "", f);
    fputc('"', f);
}

static void print_elem(FILE *f, ptx_type t, const uint8_t *p)
{
    unsigned size = ptx_types[t].size;
    uint64_t u = 0;
    for (unsigned i = 0; i < size; i++)
        u |= (uint64_t)p[i] << (8 * i);
    if (ptx_types[t].kind == PTX_KIND_FLOAT) {
        print_imm(f, t, (int64_t)u);
    } else if (ptx_types[t].kind == PTX_KIND_SIGNED) {
        int64_t v = (int64_t)(u << (64 - 8 * size)) >> (64 - 8 * size);
        fprintf(f, "%" PRId64, v);
    } else {
        fprintf(f, "%" PRIu64, u);
    }
}

/* The type, name, [size] and initializer of a variable or parameter. */
static void print_symbol_body(const ptx_symbol *s, FILE *f)
{
    ptx_type t = (ptx_type)s->type;
    unsigned esize = ptx_types[t].size ? ptx_types[t].size : 1;
    if (s->align && s->align != esize)
        fprintf(f, ".align %u ", s->align);
    fprintf(f, ".%s %s", ptx_types[t].name, s->name ? s->name : "?");
    if (s->is_array) {
        if (s->size)
            fprintf(f, "[%" PRIu64 "]", s->size / esize);
        else
            fputs("[]", f);
    }
    if (s->init) {
        uint64_t n = s->size / esize;
        if (!s->is_array) {
            fputs(" = ", f);
            print_elem(f, t, s->init);
        } else {
            uint64_t last = 0; /* elements up to the last non-zero one */
            for (uint64_t i = 0; i < s->size; i++)
                if (s->init[i])
                    last = i / esize + 1;
            if (last == 0)
                last = 1;
            (void)n;
            fputs(" = {", f);
            for (uint64_t i = 0; i < last; i++) {
                if (i)
                    fputs(", ", f);
                print_elem(f, t, s->init + i * esize);
            }
            fputc('}', f);
        }
    }
}

static void print_variable(const ptx_symbol *s, const char *indent, FILE *f)
{
    fputs(indent, f);
    if (s->visible)
        fputs(".visible ", f);
    if (s->is_weak)
        fputs(".weak ", f);
    if (s->is_extern)
        fputs(".extern ", f);
    fprintf(f, ".%s ", s->space < PTX_SPACE_COUNT ? ptx_space_names[s->space] : "?");
    if (s->managed)
        fputs(".attribute(.managed) ", f);
    print_symbol_body(s, f);
    fputs(";\n", f);
}

static void print_param_list(const ptx_module *m, const int32_t *list, int n, int multiline, FILE *f)
{
    fputc('(', f);
    for (int i = 0; i < n; i++) {
        fputs(i ? "," : "", f);
        fputs(multiline ? "\n\t" : "", f);
        fputs(".param ", f);
        if (list[i] >= 0 && list[i] < m->symbol_count)
            print_symbol_body(&m->symbols[list[i]], f);
    }
    if (multiline && n)
        fputc('\n', f);
    fputc(')', f);
}

static void print_header(const ptx_module *m, const ptx_function *fn, FILE *f)
{
    if (fn->visible)
        fputs(".visible ", f);
    if (fn->is_extern)
        fputs(".extern ", f);
    if (fn->is_weak)
        fputs(".weak ", f);
    fputs(fn->is_entry ? ".entry " : ".func ", f);
    if (!fn->is_entry && fn->return_count) {
        print_param_list(m, fn->returns, fn->return_count, 0, f);
        fputc(' ', f);
    }
    fputs(fn->name ? fn->name : "?", f);
    print_param_list(m, fn->params, fn->param_count, 1, f);
    if (fn->maxntid[0])
        fprintf(f, "\n.maxntid %u, %u, %u", fn->maxntid[0], fn->maxntid[1], fn->maxntid[2]);
    if (fn->reqntid[0])
        fprintf(f, "\n.reqntid %u, %u, %u", fn->reqntid[0], fn->reqntid[1], fn->reqntid[2]);
    if (fn->minnctapersm)
        fprintf(f, "\n.minnctapersm %u", fn->minnctapersm);
    if (fn->maxnctapersm)
        fprintf(f, "\n.maxnctapersm %u", fn->maxnctapersm);
    if (fn->maxnreg)
        fprintf(f, "\n.maxnreg %u", fn->maxnreg);
}

static void print_item(const ptx_module *m, const ptx_function *fn, const ptx_item *it, FILE *f)
{
    switch (it->kind) {
    case PTX_ITEM_SCOPE_OPEN:
        fputs("\t{\n", f);
        break;
    case PTX_ITEM_SCOPE_CLOSE:
        fputs("\t}\n", f);
        break;
    case PTX_ITEM_REG: {
        if (it->index < 0 || it->index >= fn->reg_count)
            break;
        const ptx_reg *r = &fn->regs[it->index];
        fprintf(f, "\t.reg .%s ", ptx_types[r->type].name);
        size_t len = strlen(r->name);
        if (it->count > 1 && len > 0 && r->name[len - 1] == '0')
            fprintf(f, "%.*s<%d>;\n", (int)(len - 1), r->name, it->count);
        else
            fprintf(f, "%s;\n", r->name);
        break;
    }
    case PTX_ITEM_SYMBOL:
        if (it->index >= 0 && it->index < m->symbol_count)
            print_variable(&m->symbols[it->index], "\t", f);
        break;
    case PTX_ITEM_PRAGMA:
        fputs("\t.pragma ", f);
        print_string(f, it->index >= 0 && it->index < m->string_count ? m->strings[it->index] : "");
        fputs(";\n", f);
        break;
    default:
        break;
    }
}

static void print_body(const ptx_module *m, const ptx_function *fn, FILE *f)
{
    regnames rn;
    regnames_init(&rn, fn);
    int it = 0;
    int32_t loc_file = 0, loc_line = 0, loc_column = 0;   /* the .loc in force, as the parser keeps it */
    for (int i = 0; i <= fn->instr_count; i++) {
        /* scope closes first, then labels, then the other declarations */
        while (it < fn->item_count && fn->items[it].instr == i && fn->items[it].kind == PTX_ITEM_SCOPE_CLOSE)
            print_item(m, fn, &fn->items[it++], f);
        for (int l = 0; l < fn->label_count; l++)
            if (fn->labels[l].instr == i)
                fprintf(f, "%s%s:\n", i || it ? "\n" : "", fn->labels[l].name);
        int before = it;
        while (it < fn->item_count && fn->items[it].instr <= i)
            print_item(m, fn, &fn->items[it++], f);
        if (i == 0 && it > before && fn->instr_count > 0)
            fputc('\n', f); /* a blank line after the declarations */
        if (i < fn->instr_count) {
            const ptx_instr *in = &fn->instrs[i];
            if (in->src_file != loc_file || in->src_line != loc_line || in->src_column != loc_column) {
                fprintf(f, "\t.loc\t%d %d %d\n", in->src_file, in->src_line, in->src_column);
                loc_file = in->src_file;
                loc_line = in->src_line;
                loc_column = in->src_column;
            }
            fputc('\t', f);
            print_instr_names(m, fn, &rn, in, f);
            fputc('\n', f);
        }
    }
    while (it < fn->item_count)
        print_item(m, fn, &fn->items[it++], f);
    regnames_free(&rn);
}

void ptx_print_module(const ptx_module *m, FILE *f)
{
    if (!m)
        return;
    fputs("//\n// Printed by warpsim dump: the PTX as warpsim decoded it.\n//\n\n", f);
    fprintf(f, ".version %u.%u\n", m->version_major, m->version_minor);
    fprintf(f, ".target %s\n", m->target ? m->target : "sm_90");
    fprintf(f, ".address_size %u\n", m->address_size);
    for (int i = 0; i < m->item_count; i++) {
        const ptx_item *it = &m->items[i];
        if (it->kind == PTX_ITEM_SYMBOL && it->index >= 0 && it->index < m->symbol_count) {
            if (i == 0 || m->items[i - 1].kind != PTX_ITEM_SYMBOL)
                fputc('\n', f);
            print_variable(&m->symbols[it->index], "", f);
        } else if (it->kind == PTX_ITEM_PRAGMA) {
            fputs("\n.pragma ", f);
            print_string(f, it->index >= 0 && it->index < m->string_count ? m->strings[it->index] : "");
            fputs(";\n", f);
        } else if (it->kind == PTX_ITEM_FUNCTION && it->index >= 0 && it->index < m->function_count) {
            const ptx_function *fn = &m->functions[it->index];
            fputc('\n', f);
            print_header(m, fn, f);
            if (!it->count) {
                fputs(";\n", f);
                continue;
            }
            fputs("\n{\n", f);
            print_body(m, fn, f);
            fputs("}\n", f);
        }
    }
    if (m->source_file_count)
        fputc('\n', f);
    for (int i = 0; i < m->source_file_count; i++) {
        fprintf(f, "\t.file\t%d ", m->source_files[i].id);
        print_string(f, m->source_files[i].path);
        fputc('\n', f);
    }
}

/* ---- the opcode reference table ------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->buf, cap);
        if (!p)
            abort();
        b->buf = p;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n + 1);
    b->len += n;
}

static void types_text(uint32_t mask, sbuf *b)
{
    static const struct { const char *prefix; ptx_type t[4]; } fam[] = {
        {"b", {PTX_B8, PTX_B16, PTX_B32, PTX_B64}},
        {"u", {PTX_U8, PTX_U16, PTX_U32, PTX_U64}},
        {"s", {PTX_S8, PTX_S16, PTX_S32, PTX_S64}},
    };
    static const char *const sizes[4] = {"8", "16", "32", "64"};
    int any = 0;
    for (int i = 0; i < 3; i++) {
        int first = 1;
        for (int k = 0; k < 4; k++) {
            if (!(mask & TY_BIT(fam[i].t[k])))
                continue;
            if (first) {
                sb_add(b, any ? " ." : ".");
                sb_add(b, fam[i].prefix);
                first = 0;
            } else {
                sb_add(b, "/");
            }
            sb_add(b, sizes[k]);
            any = 1;
        }
    }
    static const ptx_type rest[] = {PTX_F16, PTX_F32, PTX_F64, PTX_PRED};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) {
        if (mask & TY_BIT(rest[i])) {
            sb_add(b, any ? " ." : ".");
            sb_add(b, ptx_types[rest[i]].name);
            any = 1;
        }
    }
    if (!any)
        sb_add(b, "-");
}

static void groups_text(uint32_t groups, sbuf *b)
{
    int any = 0;
    for (int g = 0; g < 32; g++) {
        uint32_t bit = 1u << g;
        if (!(groups & bit))
            continue;
        if (any)
            sb_add(b, "; ");
        any = 1;
        if (bit == MG_TYPE2) {
            sb_add(b, "a second (source) type");
            continue;
        }
        int first = 1;
        for (size_t i = 0; i < ptx_modifier_count; i++) {
            if (ptx_modifiers[i].group != bit)
                continue;
            int dup = 0;
            for (size_t j = 0; j < i; j++)
                if (ptx_modifiers[j].group == bit && !strcmp(ptx_modifiers[j].name, ptx_modifiers[i].name))
                    dup = 1;
            if (dup)
                continue;
            sb_add(b, first ? "." : " .");
            sb_add(b, ptx_modifiers[i].name);
            first = 0;
        }
    }
    if (!any)
        sb_add(b, "-");
}

static void md_cell(FILE *f, const char *s)
{
    fputs(" ", f);
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s, f);
    }
    fputs(" |", f);
}

void ptx_print_isa_table(FILE *f, int markdown)
{
    if (markdown) {
        fputs("| Instruction | Executed by | Operands | Types | Modifiers | Semantics |\n", f);
        fputs("|---|---|---|---|---|---|\n", f);
    }
    for (int op = 0; op < OP_COUNT; op++) {
        const ptx_opcode_info *o = &ptx_opcodes[op];
        sbuf name = {0}, types = {0}, mods = {0};
        sb_add(&name, o->spelling);
        int first = 1;
        for (size_t a = 0; a < ptx_opcode_alias_count; a++) {
            if ((int)ptx_opcode_aliases[a].op != op)
                continue;
            sb_add(&name, first ? " (also " : ", ");
            sb_add(&name, ptx_opcode_aliases[a].spelling);
            first = 0;
        }
        if (!first)
            sb_add(&name, ")");
        types_text(o->types, &types);
        groups_text(o->groups, &mods);
        const char *shape = o->shape[0] ? o->shape : "-";
        if (!strcmp(o->shape, "call"))
            shape = "(rets), func, (args)";
        if (markdown) {
            fputs("|", f);
            md_cell(f, name.buf);
            md_cell(f, ptx_class_files[o->cls]);
            md_cell(f, shape);
            md_cell(f, types.buf);
            md_cell(f, mods.buf);
            md_cell(f, o->semantics);
            fputc('\n', f);
        } else {
            fprintf(f, "%-28s %-20s %s\n", name.buf, ptx_class_files[o->cls], shape);
            fprintf(f, "    types:     %s\n", types.buf);
            fprintf(f, "    modifiers: %s\n", mods.buf);
            fprintf(f, "    %s\n\n", o->semantics);
        }
        free(name.buf);
        free(types.buf);
        free(mods.buf);
    }
}
