/*
 * The PTX parser's instructions: operands checked against the opcode's shape
 * and types (the opcode itself is decoded in isa/parse_opcode.c), call
 * sequences, and labels.
 */
#include "isa/parser_internal.h"

/* ---- instructions --------------------------------------------------------- */

enum { RO_NAME = 1, RO_NUM, RO_VEC, RO_ADDR, RO_SINK };

typedef struct {
    int kind;
    int line, column;
    int negated;
    ptx_token *name;        /* RO_NAME; RO_ADDR base name (or NULL) */
    ptx_token *name2;       /* d|q: q (NULL when it is '_') */
    int has_pipe;
    int has_off;
    int64_t off;
    numlit num;             /* RO_NUM; RO_ADDR immediate base */
    int addr_num;           /* RO_ADDR: the base is a number */
    ptx_token *elems[PTX_MAX_VEC]; /* RO_VEC (NULL = '_') */
    int nelem;
} rawop;

static int is_sink(const ptx_token *t) { return t->kind == TOK_IDENT && t->len == 1 && t->text[0] == '_'; }

/* '+' ['-'] INT  |  '-' INT */
static int parse_offset(parser *P, int64_t *off)
{
    int neg = 0;
    if (at(P, TOK_PLUS)) {
        advance(P);
        if (at(P, TOK_MINUS)) {
            advance(P);
            neg = 1;
        }
    } else if (at(P, TOK_MINUS)) {
        advance(P);
        neg = 1;
    }
    ptx_token *t = cur(P);
    if (t->kind == TOK_IDENT) {
        ptxp_perr(P, t->line, t->column,
                  "expected an integer offset, got '%.*s': an address is [register+offset] or [variable+offset] "
                  "(take the variable's address with mov first)",
                  (int)(t->len > 40 ? 40 : t->len), t->text);
        return 0;
    }
    if (t->kind != TOK_INT) {
        ptxp_err_expected(P, "an integer offset");
        return 0;
    }
    advance(P);
    if (t->bad) {
        P->errors++;
        return 0;
    }
    numlit nl = {t, neg, t->line, t->column};
    return ptxp_int_value(P, &nl, off);
}

static int parse_rawop(parser *P, rawop *r)
{
    memset(r, 0, sizeof *r);
    ptx_token *t = cur(P);
    r->line = t->line;
    r->column = t->column;
    if (t->kind == TOK_LBRACE) {
        advance(P);
        r->kind = RO_VEC;
        for (;;) {
            ptx_token *e = cur(P);
            if (e->kind != TOK_IDENT) {
                if (ptxp_is_number_tok(e) || e->kind == TOK_MINUS)
                    ptxp_perr(P, e->line, e->column, "vector elements must be registers");
                else
                    ptxp_err_expected(P, "a register in the vector");
                return 0;
            }
            if (r->nelem >= PTX_MAX_VEC) {
                ptxp_perr(P, e->line, e->column, "a vector has at most %d elements", PTX_MAX_VEC);
                return 0;
            }
            advance(P);
            r->elems[r->nelem++] = is_sink(e) ? NULL : e;
            if (accept(P, TOK_COMMA))
                continue;
            if (accept(P, TOK_RBRACE))
                break;
            ptxp_err_expected(P, "',' or '}'");
            return 0;
        }
        return 1;
    }
    if (t->kind == TOK_LBRACKET) {
        advance(P);
        r->kind = RO_ADDR;
        ptx_token *b = cur(P);
        if (b->kind == TOK_IDENT) {
            advance(P);
            r->name = b;
        } else if (ptxp_is_number_tok(b) || b->kind == TOK_MINUS) {
            if (!ptxp_parse_numlit(P, &r->num))
                return 0;
            if (r->num.tok->kind != TOK_INT) {
                ptxp_perr(P, r->num.line, r->num.column, "an address must be an integer");
                return 0;
            }
            r->addr_num = 1;
        } else {
            ptxp_err_expected(P, "a register, variable or number in the address");
            return 0;
        }
        if (at(P, TOK_PLUS) || at(P, TOK_MINUS)) {
            if (!parse_offset(P, &r->off))
                return 0;
            r->has_off = 1;
        }
        if (!ptxp_expect(P, TOK_RBRACKET, "']'"))
            return 0;
        return 1;
    }
    if (t->kind == TOK_BANG) {
        advance(P);
        if (cur(P)->kind != TOK_IDENT) {
            ptxp_err_expected(P, "a predicate after '!'");
            return 0;
        }
        r->negated = 1;
        t = cur(P);
    }
    if (t->kind == TOK_IDENT) {
        advance(P);
        if (is_sink(t) && !r->negated) {
            r->kind = RO_SINK;
        } else {
            r->kind = RO_NAME;
            r->name = t;
        }
        if (at(P, TOK_PIPE)) {
            advance(P);
            ptx_token *q = cur(P);
            if (q->kind != TOK_IDENT) {
                ptxp_err_expected(P, "a predicate after '|'");
                return 0;
            }
            advance(P);
            r->has_pipe = 1;
            r->name2 = is_sink(q) ? NULL : q;
        } else if (!r->negated && (at(P, TOK_PLUS) || at(P, TOK_MINUS)) && r->kind == RO_NAME) {
            if (!parse_offset(P, &r->off))
                return 0;
            r->has_off = 1;
        }
        return 1;
    }
    if (t->kind == TOK_MINUS || ptxp_is_number_tok(t)) {
        r->kind = RO_NUM;
        return ptxp_parse_numlit(P, &r->num);
    }
    ptxp_err_expected(P, "an operand");
    return 0;
}

/* The shape string of an opcode, parsed. */
typedef struct {
    char letter;    /* d D a b c e p l A (address) */
    uint8_t braces; /* {d} {a}: a vector is allowed */
    uint8_t optional;
    uint8_t pipe;   /* d|q */
} slot;

static int parse_shape(const char *shape, slot *slots)
{
    int n = 0;
    const char *s = shape;
    while (*s && n < PTX_MAX_OPERANDS) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        slot sl;
        memset(&sl, 0, sizeof sl);
        if (*s == '{') {
            sl.braces = 1;
            sl.letter = s[1];
            s += 3;
        } else if (*s == '[') {
            sl.letter = 'A';
            s += 3;
        } else {
            sl.letter = *s++;
        }
        if (*s == '|') {
            sl.pipe = 1;
            s += 2; /* "|q" */
            if (*s == '?')
                s++;
        }
        if (*s == '?') {
            sl.optional = 1;
            s++;
        }
        slots[n++] = sl;
        while (*s && *s != ',')
            s++;
    }
    return n;
}

/* May a register of type `r` stand in an operand of type `s`? */
static int reg_fits(ptx_type r, ptx_type s, int allow_wider)
{
    unsigned rs = ptx_types[r].size, ss = ptx_types[s].size;
    ptx_type_kind rk = ptx_types[r].kind, sk = ptx_types[s].kind;
    if (rk == PTX_KIND_PRED || sk == PTX_KIND_PRED)
        return rk == sk;
    if (rs != ss) {
        if (!(allow_wider && rs > ss))
            return 0;
        return rk != PTX_KIND_FLOAT;
    }
    if (sk == PTX_KIND_BITS || rk == PTX_KIND_BITS)
        return 1;
    if (sk == PTX_KIND_FLOAT)
        return r == s;
    return rk == PTX_KIND_UNSIGNED || rk == PTX_KIND_SIGNED;
}

typedef struct {
    parser *P;
    ptx_instr *in;
    const char *spelling;  /* the opcode as written, for messages */
    const char *opname;    /* table spelling */
} ictx;

void ptxp_print_name(char *buf, size_t n, const ptx_token *t)
{
    snprintf(buf, n, "%.*s", (int)(t->len > 64 ? 64 : t->len), t->text);
}

static int sreg_from_name(const ptx_token *t)
{
    for (int i = 0; i < PTX_SREG_COUNT; i++)
        if (tok_is(t, ptx_sreg_names[i]))
            return i;
    return -1;
}

/* Resolve a register name: returns the ptx_reg or NULL (with a message when report). */
static const ptx_reg *find_reg(parser *P, const ptx_token *t)
{
    const decl *d = ptxp_lookup_local(P, t->text, t->len);
    if (d && !d->is_sym)
        return &P->m->functions[P->F.fn].regs[d->index];
    return NULL;
}

static int find_symbol(parser *P, const ptx_token *t)
{
    const decl *d = ptxp_lookup_local(P, t->text, t->len);
    if (d)
        return d->is_sym ? d->index : -1;
    return ptxp_map_get(&P->modsyms, t->text, t->len);
}

static void undefined_name(parser *P, const ptx_token *t)
{
    char nb[80];
    ptxp_print_name(nb, sizeof nb, t);
    if (t->text[0] == '%') {
        static const char *const vec_sregs[] = {"%tid", "%ntid", "%ctaid", "%nctaid"};
        for (size_t i = 0; i < sizeof vec_sregs / sizeof vec_sregs[0]; i++)
            if (tok_is(t, vec_sregs[i])) {
                ptxp_perr(P, t->line, t->column, "unsupported special register '%s' (read %s.x, %s.y or %s.z)", nb, nb, nb,
                          nb);
                return;
            }
        if (memchr(t->text, '.', t->len) || sreg_from_name(t) >= 0)
            ptxp_perr(P, t->line, t->column, "unsupported special register '%s'", nb);
        else
            ptxp_perr(P, t->line, t->column, "undefined register '%s'", nb);
    } else if (ptxp_map_get(&P->modfuncs, t->text, t->len) >= 0) {
        ptxp_perr(P, t->line, t->column, "'%s' is a function: only mov.u64 or mov.b64 takes its address", nb);
    } else {
        ptxp_perr(P, t->line, t->column, "undefined identifier '%s'", nb);
    }
}

/* A register operand (value or predicate, per `type`). */
static int reg_operand(ictx *C, const ptx_token *t, ptx_type type, int allow_wider, ptx_operand *o, int negated)
{
    parser *P = C->P;
    char nb[80];
    ptxp_print_name(nb, sizeof nb, t);
    const ptx_reg *r = find_reg(P, t);
    if (!r) {
        if (find_symbol(P, t) >= 0 || sreg_from_name(t) >= 0 || tok_is(t, "WARP_SZ"))
            ptxp_perr(P, t->line, t->column, "'%s' is not a register (in '%s')", nb, C->spelling);
        else
            undefined_name(P, t);
        return 0;
    }
    if (type == PTX_PRED) {
        if (!r->is_pred) {
            ptxp_perr(P, t->line, t->column, "expected a predicate register, got '%s' (.%s) in '%s'", nb,
                      ptx_types[r->type].name, C->spelling);
            return 0;
        }
        o->kind = PTX_OPD_PRED;
        o->reg = r->index;
        o->negated = (uint8_t)negated;
        return 1;
    }
    if (r->is_pred) {
        ptxp_perr(P, t->line, t->column, "predicate '%s' used where a .%s value is expected in '%s'", nb,
                  ptx_types[type].name, C->spelling);
        return 0;
    }
    if (!reg_fits((ptx_type)r->type, type, allow_wider)) {
        ptxp_perr(P, t->line, t->column, "register '%s' is .%s: it does not fit a .%s operand of '%s'", nb,
                  ptx_types[r->type].name, ptx_types[type].name, C->spelling);
        return 0;
    }
    o->kind = PTX_OPD_REG;
    o->reg = r->index;
    return 1;
}

static int allow_wider_regs(const ptx_instr *in)
{
    return in->opcode == OP_ld || in->opcode == OP_ldu || in->opcode == OP_st || in->opcode == OP_cvt;
}

static int vec_operand(ictx *C, const rawop *r, ptx_type type, int is_dest, ptx_operand *o)
{
    parser *P = C->P;
    ptx_instr *in = C->in;
    int n = r->nelem;
    ptx_type et = type;
    if (in->opcode == OP_mov) {
        unsigned size = ptx_types[type].size;
        if (ptx_types[type].kind != PTX_KIND_BITS || (n != 2 && n != 4) || size / (unsigned)n < 1 ||
            size % (unsigned)n) {
            ptxp_perr(P, r->line, r->column, "'%s' cannot pack or unpack a vector of %d (use mov.b32 or mov.b64)",
                      C->spelling, n);
            return 0;
        }
        unsigned es = size / (unsigned)n;
        et = es == 1 ? PTX_B8 : es == 2 ? PTX_B16 : es == 4 ? PTX_B32 : PTX_B64;
    } else if (n != in->vec || n == 1) {
        if (in->vec == 1)
            ptxp_perr(P, r->line, r->column, "a vector operand needs .v2 or .v4 in '%s'", C->spelling);
        else
            ptxp_perr(P, r->line, r->column, "'%s' needs a vector of %d registers, got %d", C->spelling, in->vec, n);
        return 0;
    }
    o->kind = PTX_OPD_VEC;
    o->count = (uint8_t)n;
    int sinks = 0;
    for (int i = 0; i < n; i++) {
        if (!r->elems[i]) {
            if (!is_dest) {
                ptxp_perr(P, r->line, r->column, "'_' can only discard a result, not be a source");
                return 0;
            }
            o->regs[i] = -1;
            sinks++;
            continue;
        }
        ptx_operand e;
        memset(&e, 0, sizeof e);
        if (!reg_operand(C, r->elems[i], et, allow_wider_regs(in), &e, 0))
            return 0;
        o->regs[i] = e.reg;
    }
    (void)sinks;
    return 1;
}

/* A source operand: register, immediate, special register, symbol, WARP_SZ. */
static int src_operand(ictx *C, const rawop *r, ptx_type type, const slot *sl, ptx_operand *o)
{
    parser *P = C->P;
    ptx_instr *in = C->in;
    char nb[80];
    if (r->kind == RO_VEC) {
        if (!sl->braces) {
            ptxp_perr(P, r->line, r->column, "'%s' takes no vector operand here", C->spelling);
            return 0;
        }
        return vec_operand(C, r, type, 0, o);
    }
    if (in->vec > 1 && sl->braces && in->opcode != OP_mov) {
        ptxp_perr(P, r->line, r->column, "'%s' needs a vector of %d registers", C->spelling, in->vec);
        return 0;
    }
    if (r->kind == RO_SINK) {
        ptxp_perr(P, r->line, r->column, "'_' can only discard a result, not be a source");
        return 0;
    }
    if (r->kind == RO_ADDR) {
        ptxp_perr(P, r->line, r->column, "unexpected address operand in '%s'", C->spelling);
        return 0;
    }
    if (r->has_pipe) {
        ptxp_perr(P, r->line, r->column, "unexpected '|' in a source operand of '%s'", C->spelling);
        return 0;
    }
    if (r->negated && sl->letter != 'p' && type != PTX_PRED) {
        ptxp_perr(P, r->line, r->column, "'!' negates a predicate source only (in '%s')", C->spelling);
        return 0;
    }
    if (r->kind == RO_NUM) {
        if (sl->letter == 'p') {
            ptxp_perr(P, r->line, r->column, "expected a predicate register, got a number in '%s'", C->spelling);
            return 0;
        }
        int64_t v;
        if (!ptxp_literal_bits(P, &r->num, type, &v, ""))
            return 0;
        o->kind = PTX_OPD_IMM;
        o->imm = v;
        return 1;
    }
    /* a name */
    const ptx_token *t = r->name;
    ptxp_print_name(nb, sizeof nb, t);
    if (sl->letter == 'p' || type == PTX_PRED) {
        if (r->has_off) {
            ptxp_perr(P, r->line, r->column, "unexpected offset after '%s'", nb);
            return 0;
        }
        return reg_operand(C, t, PTX_PRED, 0, o, r->negated);
    }
    if (find_reg(P, t)) {
        if (r->has_off) {
            ptxp_perr(P, r->line, r->column, "unexpected offset after register '%s' (only addresses take one)", nb);
            return 0;
        }
        return reg_operand(C, t, type, allow_wider_regs(in), o, 0);
    }
    if (tok_is(t, "WARP_SZ") && !ptxp_lookup_local(P, t->text, t->len)) {
        if (r->has_off) {
            ptxp_perr(P, r->line, r->column, "unexpected offset after '%s'", nb);
            return 0;
        }
        numlit nl;
        memset(&nl, 0, sizeof nl);
        ptx_token fake = *t;
        fake.kind = TOK_INT;
        fake.u = 32;
        nl.tok = &fake;
        nl.line = t->line;
        nl.column = t->column;
        int64_t v;
        if (!ptxp_literal_bits(P, &nl, type, &v, ""))
            return 0;
        o->kind = PTX_OPD_IMM;
        o->imm = v;
        return 1;
    }
    int sr = t->text[0] == '%' ? sreg_from_name(t) : -1;
    if (sr >= 0) {
        if (r->has_off) {
            ptxp_perr(P, r->line, r->column, "unexpected offset after '%s'", nb);
            return 0;
        }
        if (in->opcode != OP_mov && in->opcode != OP_cvt) {
            ptxp_perr(P, t->line, t->column, "special register '%s' can only be read with mov or cvt, not '%s'", nb,
                      C->spelling);
            return 0;
        }
        unsigned ssize = sr == PTX_SREG_CLOCK64 ? 8 : 4;
        if (ptx_types[type].kind == PTX_KIND_FLOAT || ptx_types[type].size > ssize) {
            ptxp_perr(P, t->line, t->column, "special register '%s' is %u-bit: it does not fit a .%s operand", nb,
                      ssize * 8, ptx_types[type].name);
            return 0;
        }
        o->kind = PTX_OPD_SREG;
        o->reg = sr;
        return 1;
    }
    int sym = find_symbol(P, t);
    if (sym >= 0) {
        if (in->opcode != OP_mov && in->opcode != OP_cvta) {
            ptxp_perr(P, t->line, t->column, "the address of '%s' can only be taken with mov or cvta, not '%s'", nb,
                      C->spelling);
            return 0;
        }
        unsigned size = ptx_types[type].size;
        if ((size != 4 && size != 8) || ptx_types[type].kind == PTX_KIND_FLOAT) {
            ptxp_perr(P, t->line, t->column, "the address of '%s' needs a .u32 or .u64 operand", nb);
            return 0;
        }
        if (in->opcode == OP_cvta && !(in->flags & PTX_FLAG_TO) && in->space != PTX_SPACE_GENERIC &&
            P->m->symbols[sym].space != in->space) {
            ptxp_perr(P, t->line, t->column, "'%s' is a .%s variable, not .%s (in '%s')", nb,
                      ptx_space_names[P->m->symbols[sym].space], ptx_space_names[in->space], C->spelling);
            return 0;
        }
        o->kind = PTX_OPD_SYMBOL;
        o->symbol = sym;
        o->imm = r->has_off ? r->off : 0;
        return 1;
    }
    int fn = ptxp_map_get(&P->modfuncs, t->text, t->len);
    if (fn >= 0 && in->opcode == OP_mov && ptx_types[type].size == 8 && ptx_types[type].kind != PTX_KIND_FLOAT &&
        !r->has_off) {
        o->kind = PTX_OPD_FUNCTION;   /* a kernel's address, for a device-side launch (dynamic parallelism) */
        o->reg = fn;
        o->imm = (int64_t)PTX_FUNCTION_ADDRESS(fn);
        return 1;
    }
    undefined_name(P, t);
    return 0;
}

static int dest_operand(ictx *C, const rawop *r, ptx_type type, const slot *sl, ptx_operand *o)
{
    parser *P = C->P;
    ptx_instr *in = C->in;
    if (r->kind == RO_VEC) {
        if (!sl->braces) {
            ptxp_perr(P, r->line, r->column, "'%s' takes no vector operand here", C->spelling);
            return 0;
        }
        return vec_operand(C, r, type, 1, o);
    }
    if (in->vec > 1 && sl->braces && in->opcode != OP_mov) {
        ptxp_perr(P, r->line, r->column, "'%s' needs a vector of %d registers", C->spelling, in->vec);
        return 0;
    }
    if (r->kind == RO_SINK) {
        ptxp_perr(P, r->line, r->column, "'_' cannot be the destination of '%s'", C->spelling);
        return 0;
    }
    if (r->kind != RO_NAME || r->negated || r->has_off) {
        ptxp_perr(P, r->line, r->column, "the destination of '%s' must be a register", C->spelling);
        return 0;
    }
    if (sl->letter == 'D')
        type = PTX_PRED;
    return reg_operand(C, r->name, type, allow_wider_regs(in), o, 0);
}

static int addr_operand(ictx *C, const rawop *r, ptx_operand *o)
{
    parser *P = C->P;
    ptx_instr *in = C->in;
    char nb[80];
    if (r->kind != RO_ADDR) {
        ptxp_perr(P, r->line, r->column, "'%s' expects an address [...] here", C->spelling);
        return 0;
    }
    o->kind = PTX_OPD_ADDR;
    o->imm = r->has_off ? r->off : 0;
    if (r->addr_num) {
        int64_t v;
        if (!ptxp_int_value(P, &r->num, &v))
            return 0;
        o->imm += v;
        return 1;
    }
    const ptx_token *t = r->name;
    ptxp_print_name(nb, sizeof nb, t);
    const ptx_reg *reg = find_reg(P, t);
    if (reg) {
        if (reg->is_pred || ptx_types[reg->type].kind == PTX_KIND_FLOAT ||
            (ptx_types[reg->type].size != 4 && ptx_types[reg->type].size != 8)) {
            ptxp_perr(P, t->line, t->column, "address register '%s' must be a 32- or 64-bit integer, not .%s", nb,
                      ptx_types[reg->type].name);
            return 0;
        }
        if (ptx_types[reg->type].size == 4 && P->m->address_size != 32 && in->space != PTX_SPACE_SHARED &&
            in->space != PTX_SPACE_LOCAL) {
            ptxp_perr(P, t->line, t->column,
                      "32-bit address register '%s' is only allowed for .shared and .local accesses (in '%s')", nb,
                      C->spelling);
            return 0;
        }
        o->reg = reg->index;
        o->reg_is_64 = ptx_types[reg->type].size == 8;
        return 1;
    }
    int sym = find_symbol(P, t);
    if (sym >= 0) {
        const ptx_symbol *s = &P->m->symbols[sym];
        if (in->space != PTX_SPACE_GENERIC && s->space != in->space) {
            ptxp_perr(P, t->line, t->column, "'%s' is a .%s variable, not .%s (in '%s')", nb, ptx_space_names[s->space],
                      ptx_space_names[in->space], C->spelling);
            return 0;
        }
        if (in->space == PTX_SPACE_GENERIC && s->space == PTX_SPACE_PARAM) {
            ptxp_perr(P, t->line, t->column, "parameter '%s' is read with ld.param", nb);
            return 0;
        }
        o->symbol = sym;
        return 1;
    }
    if (sreg_from_name(t) >= 0) {
        ptxp_perr(P, t->line, t->column, "special register '%s' cannot be an address", nb);
        return 0;
    }
    undefined_name(P, t);
    return 0;
}

static int label_operand(ictx *C, const rawop *r, ptx_operand *o)
{
    parser *P = C->P;
    if (r->kind != RO_NAME || r->negated || r->has_off || r->has_pipe) {
        ptxp_perr(P, r->line, r->column, "'%s' expects a label", C->spelling);
        return 0;
    }
    const ptx_token *t = r->name;
    if (find_reg(P, t) || find_symbol(P, t) >= 0 || sreg_from_name(t) >= 0) {
        char nb[80];
        ptxp_print_name(nb, sizeof nb, t);
        ptxp_perr(P, t->line, t->column, "'%s' expects a label, got '%s' (indirect branches are not supported)",
                  C->spelling, nb);
        return 0;
    }
    ptx_function *f = &P->m->functions[P->F.fn];
    int li = ptxp_map_get(&P->F.labels, t->text, t->len);
    if (li < 0) {
        GROW(f->labels, f->label_count, P->F.label_cap);
        if (f->label_count >= P->F.luse_cap) {
            int nc = P->F.label_cap;
            P->F.label_use_line = xrealloc(P->F.label_use_line, (size_t)nc * sizeof(int32_t));
            P->F.label_use_col = xrealloc(P->F.label_use_col, (size_t)nc * sizeof(int32_t));
            P->F.luse_cap = nc;
        }
        li = f->label_count++;
        ptx_label *l = &f->labels[li];
        memset(l, 0, sizeof *l);
        l->name = xstrndup(t->text, t->len);
        l->instr = -1;
        P->F.label_use_line[li] = t->line;
        P->F.label_use_col[li] = t->column;
        ptxp_map_put(&P->F.labels, t->text, t->len, li);
    }
    o->kind = PTX_OPD_LABEL;
    o->reg = li;
    return 1;
}

static int add_call_symbol(parser *P, ptx_function *f, int sym)
{
    GROW(f->call_symbols, f->call_symbol_count, P->F.csym_cap);
    f->call_symbols[f->call_symbol_count] = sym;
    return f->call_symbol_count++;
}

/* ( name, name, ... ) of .param symbols into the call table; returns count or -1. */
static int parse_call_list(parser *P, ptx_function *fn_unused, const char *what)
{
    (void)fn_unused;
    int count = 0;
    if (!ptxp_expect(P, TOK_LPAREN, "'('"))
        return -1;
    if (accept(P, TOK_RPAREN))
        return 0;
    for (;;) {
        ptx_token *t = cur(P);
        char nb[80];
        if (t->kind != TOK_IDENT) {
            if (ptxp_is_number_tok(t) || t->kind == TOK_MINUS)
                ptxp_perr(P, t->line, t->column, "call %s must be .param variables, not immediates", what);
            else
                ptxp_err_expected(P, "a .param variable");
            return -1;
        }
        advance(P);
        ptxp_print_name(nb, sizeof nb, t);
        int sym = find_symbol(P, t);
        if (sym < 0) {
            if (find_reg(P, t))
                ptxp_perr(P, t->line, t->column, "call %s must be .param variables, not registers ('%s')", what, nb);
            else
                undefined_name(P, t);
            return -1;
        }
        if (P->m->symbols[sym].space != PTX_SPACE_PARAM) {
            ptxp_perr(P, t->line, t->column, "call %s must be .param variables; '%s' is .%s", what, nb,
                      ptx_space_names[P->m->symbols[sym].space]);
            return -1;
        }
        if (count >= MAX_CALL_ARGS) {
            ptxp_perr(P, t->line, t->column, "too many call %s", what);
            return -1;
        }
        add_call_symbol(P, &P->m->functions[P->F.fn], sym);
        count++;
        if (accept(P, TOK_COMMA))
            continue;
        if (accept(P, TOK_RPAREN))
            return count;
        ptxp_err_expected(P, "',' or ')'");
        return -1;
    }
}

static int parse_call(parser *P, ptx_instr *in)
{
    ptx_function *f = &P->m->functions[P->F.fn];
    ptx_call c;
    memset(&c, 0, sizeof c);
    c.function = -1;
    c.ret_first = f->call_symbol_count;
    if (at(P, TOK_LPAREN)) {
        int n = parse_call_list(P, f, "results");
        if (n < 0)
            return 0;
        c.ret_count = n;
        if (!ptxp_expect(P, TOK_COMMA, "',' after the call results"))
            return 0;
    }
    f = &P->m->functions[P->F.fn];
    ptx_token *callee = cur(P);
    if (callee->kind != TOK_IDENT) {
        ptxp_err_expected(P, "the name of the function to call");
        return 0;
    }
    advance(P);
    if (find_reg(P, callee)) {
        ptxp_perr(P, callee->line, callee->column, "unsupported: indirect calls through a register");
        return 0;
    }
    c.arg_first = f->call_symbol_count;
    if (accept(P, TOK_COMMA)) {
        int n = parse_call_list(P, f, "arguments");
        if (n < 0)
            return 0;
        c.arg_count = n;
        if (at(P, TOK_COMMA)) {
            ptxp_perr(P, cur(P)->line, cur(P)->column, "unsupported: indirect calls with a prototype");
            return 0;
        }
    }
    f = &P->m->functions[P->F.fn];
    GROW(f->calls, f->call_count, P->F.call_cap);
    f->calls[f->call_count] = c;
    in->call = f->call_count++;
    GROW(P->pcalls, P->npcalls, P->pcalls_cap);
    pending_call *pc = &P->pcalls[P->npcalls++];
    pc->fn = P->F.fn;
    pc->call = in->call;
    pc->line = callee->line;
    pc->column = callee->column;
    pc->name = xstrndup(callee->text, callee->len);
    return 1;
}

void ptxp_parse_instruction(parser *P)
{
    ptx_instr in;
    memset(&in, 0, sizeof in);
    in.guard = -1;
    in.call = -1;
    for (int i = 0; i < PTX_MAX_OPERANDS; i++) {
        in.operand[i].reg = -1;
        in.operand[i].symbol = -1;
    }
    int ok = 1;
    ictx C = {P, &in, NULL, NULL};

    if (at(P, TOK_AT)) {
        advance(P);
        int neg = accept(P, TOK_BANG);
        ptx_token *g = cur(P);
        if (g->kind != TOK_IDENT) {
            ptxp_err_expected(P, "a predicate after '@'");
            ptxp_skip_statement(P);
            return;
        }
        advance(P);
        const ptx_reg *r = find_reg(P, g);
        char nb[80];
        ptxp_print_name(nb, sizeof nb, g);
        if (!r) {
            undefined_name(P, g);
            ok = 0;
        } else if (!r->is_pred) {
            ptxp_perr(P, g->line, g->column, "guard '%s' is not a predicate register", nb);
            ok = 0;
        } else {
            in.guard = (int16_t)r->index;
            in.guard_negated = (uint8_t)neg;
        }
    }
    ptx_token *opt = cur(P);
    if (opt->kind != TOK_IDENT) {
        ptxp_err_expected(P, "an instruction");
        ptxp_skip_statement(P);
        return;
    }
    advance(P);
    in.line = opt->line;
    in.src_file = P->F.loc_file;
    in.src_line = P->F.loc_line;
    in.src_column = P->F.loc_column;
    in.column = opt->column;
    char spelling[128];
    snprintf(spelling, sizeof spelling, "%.*s", (int)(opt->len > 100 ? 100 : opt->len), opt->text);
    C.spelling = spelling;
    if (!ptxp_decode_opcode(P, opt, &in)) {
        ptxp_skip_statement(P);
        return;
    }
    const ptx_opcode_info *info = &ptx_opcodes[in.opcode];
    C.opname = info->spelling;

    if (in.opcode == OP_call) {
        if (!parse_call(P, &in)) {
            ptxp_skip_statement(P);
            return;
        }
    } else {
        rawop raw[MAX_RAW_OPERANDS];
        int nraw = 0;
        if (!at(P, TOK_SEMI)) {
            for (;;) {
                if (nraw >= MAX_RAW_OPERANDS) {
                    ptxp_perr(P, cur(P)->line, cur(P)->column, "too many operands for '%s'", info->spelling);
                    ptxp_skip_statement(P);
                    return;
                }
                if (!parse_rawop(P, &raw[nraw])) {
                    ptxp_skip_statement(P);
                    return;
                }
                nraw++;
                if (accept(P, TOK_COMMA))
                    continue;
                break;
            }
        }
        if (!at(P, TOK_SEMI)) {
            ptxp_err_expected(P, "',' or ';'");
            ptxp_skip_statement(P);
            return;
        }
        slot slots[PTX_MAX_OPERANDS];
        int nslots = parse_shape(info->shape, slots);
        int required = 0;
        for (int i = 0; i < nslots; i++)
            required += !slots[i].optional;
        if (nraw < required || nraw > nslots) {
            if (required == nslots)
                ptxp_perr(P, opt->line, opt->column, "'%s' expects %d operand%s, got %d", info->spelling, required,
                          required == 1 ? "" : "s", nraw);
            else
                ptxp_perr(P, opt->line, opt->column, "'%s' expects %d to %d operands, got %d", info->spelling, required,
                          nslots, nraw);
            advance(P);
            return;
        }
        int extra = nraw - required;
        int k = 0, no = 0;
        for (int i = 0; i < nslots && ok; i++) {
            const slot *sl = &slots[i];
            if (sl->optional) {
                if (extra <= 0)
                    continue;
                extra--;
            }
            const rawop *r = &raw[k++];
            ptx_type ty = ptx_slot_type(&in, sl->letter);
            ptx_operand *o = &in.operand[no];
            if (r->has_pipe && !sl->pipe) {
                ptxp_perr(P, r->line, r->column, "'%s' takes no second destination ('|')", info->spelling);
                ok = 0;
                break;
            }
            switch (sl->letter) {
            case 'd':
            case 'D':
                ok = dest_operand(&C, r, ty, sl, o);
                break;
            case 'A':
                ok = addr_operand(&C, r, o);
                break;
            case 'l':
                ok = label_operand(&C, r, o);
                break;
            default:
                ok = src_operand(&C, r, ty, sl, o);
                break;
            }
            no++;
            if (ok && r->has_pipe) {
                ptx_operand *q = &in.operand[no++];
                if (!r->name2) {
                    q->kind = PTX_OPD_SINK;
                } else {
                    ok = reg_operand(&C, r->name2, PTX_PRED, 0, q, 0);
                }
            }
        }
        in.operand_count = (uint8_t)no;
        if (ok && in.opcode == OP_lop3 && in.operand[4].kind != PTX_OPD_IMM) {
            ptxp_perr(P, raw[4].line, raw[4].column, "the truth table of lop3 must be an immediate");
            ok = 0;
        }
        if (ok && in.opcode == OP_mov && in.operand[0].kind == PTX_OPD_VEC && in.operand[1].kind == PTX_OPD_VEC) {
            ptxp_perr(P, raw[0].line, raw[0].column, "mov cannot copy a vector to a vector");
            ok = 0;
        }
    }
    if (!ptxp_expect(P, TOK_SEMI, "';'")) {
        ptxp_skip_statement(P);
        return;
    }
    if (!ok)
        return;
    ptx_function *f = &P->m->functions[P->F.fn];
    GROW(f->instrs, f->instr_count, P->F.instr_cap);
    if (P->F.inl_line > 0) {
        GROW(P->inlined, P->ninlined, P->inlined_cap);
        P->inlined[P->ninlined++] = (inlined_site){P->F.fn, f->instr_count, P->F.inl_file, P->F.inl_line,
                                                   P->F.inl_column};
    }
    f->instrs[f->instr_count++] = in;
}

void ptxp_define_label(parser *P, ptx_token *t)
{
    ptx_function *f = &P->m->functions[P->F.fn];
    int li = ptxp_map_get(&P->F.labels, t->text, t->len);
    if (li >= 0) {
        ptx_label *l = &f->labels[li];
        if (l->instr >= 0) {
            ptxp_perr(P, t->line, t->column, "duplicate label '%.*s' (first defined at line %d)", (int)t->len, t->text,
                      l->line);
            return;
        }
        l->instr = f->instr_count;
        l->line = t->line;
        l->column = t->column;
        return;
    }
    GROW(f->labels, f->label_count, P->F.label_cap);
    if (f->label_count >= P->F.luse_cap) {
        int nc = P->F.label_cap;
        P->F.label_use_line = xrealloc(P->F.label_use_line, (size_t)nc * sizeof(int32_t));
        P->F.label_use_col = xrealloc(P->F.label_use_col, (size_t)nc * sizeof(int32_t));
        P->F.luse_cap = nc;
    }
    li = f->label_count++;
    ptx_label *l = &f->labels[li];
    memset(l, 0, sizeof *l);
    l->name = xstrndup(t->text, t->len);
    l->instr = f->instr_count;
    l->line = t->line;
    l->column = t->column;
    P->F.label_use_line[li] = t->line;
    P->F.label_use_col[li] = t->column;
    ptxp_map_put(&P->F.labels, t->text, t->len, li);
}

