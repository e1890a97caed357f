/*
 * The PTX parser's declarations: the module header (.version, .target,
 * .address_size), number literals and their conversion to each type, variable
 * declarations with their initializers, and register declarations.
 */
#include "isa/parser_internal.h"

/* ---- float conversions ---------------------------------------------------- */

/* A literal as f16: rounded to nearest even; a NaN is the canonical quiet one, with its sign. */
static uint16_t f64_to_f16(double d)
{
    if (isnan(d))
        return (uint16_t)((signbit(d) ? 0x8000 : 0) | 0x7e00);
    return ptx_f64_to_f16(d, FE_TONEAREST);
}

/* ---- header directives ---------------------------------------------------- */

void ptxp_check_header(parser *P, const ptx_token *t)
{
    if (P->header_checked)
        return;
    P->header_checked = 1;
    if (!P->have_version) {
        if (t->kind == TOK_EOF && t->line == 1 && t->column == 1)
            ptxp_perr(P, 1, 1, "no .version directive: the file is empty");
        else
            ptxp_perr(P, 1, 1, "no .version directive (a PTX file starts with .version, .target and .address_size)");
    } else if (!P->have_target) {
        ptxp_perr(P, t->line, t->column, "no .target directive before this point");
    }
}

void ptxp_parse_version(parser *P)
{
    ptx_token *d = advance(P);
    ptx_token *t = cur(P);
    if (P->have_version) {
        ptxp_perr(P, d->line, d->column, "duplicate .version directive");
        ptxp_skip_line(P);
        return;
    }
    if (P->header_checked || P->m->function_count || P->m->symbol_count)
        ptxp_perr(P, d->line, d->column, ".version must come first");
    P->have_version = 1;
    unsigned long maj = 0, min = 0;
    int ok = 0;
    if ((t->kind == TOK_FLOAT || t->kind == TOK_INT) && !t->bad) {
        const char *s = t->text, *e = t->text + t->len;
        ok = 1;
        int nd = 0;
        while (s < e && *s >= '0' && *s <= '9' && nd < 4) {
            maj = maj * 10 + (unsigned long)(*s++ - '0');
            nd++;
        }
        if (nd == 0)
            ok = 0;
        if (s < e && *s == '.') {
            s++;
            nd = 0;
            while (s < e && *s >= '0' && *s <= '9' && nd < 4) {
                min = min * 10 + (unsigned long)(*s++ - '0');
                nd++;
            }
            if (nd == 0)
                ok = 0;
        }
        if (s != e)
            ok = 0;
    }
    if (!ok) {
        ptxp_err_expected(P, "a version number such as 9.0");
        ptxp_skip_line(P);
        return;
    }
    advance(P);
    P->m->version_major = (uint32_t)maj;
    P->m->version_minor = (uint32_t)min;
}

void ptxp_parse_target(parser *P)
{
    ptx_token *d = advance(P);
    if (P->have_target) {
        ptxp_perr(P, d->line, d->column, "duplicate .target directive");
        ptxp_skip_line(P);
        return;
    }
    if (!P->have_version)
        ptxp_check_header(P, d);
    P->have_target = 1;
    char buf[256];
    size_t n = 0;
    buf[0] = 0;
    for (;;) {
        ptx_token *t = cur(P);
        if (t->kind != TOK_IDENT) {
            ptxp_err_expected(P, "a target name such as sm_90");
            ptxp_skip_line(P);
            break;
        }
        advance(P);
        /* `debug` promises debug sections, which warpsim drops (as it drops .loc and .file) */
        if (tok_is(t, "debug")) {
            if (!accept(P, TOK_COMMA))
                break;
            continue;
        }
        if (n + t->len + 3 < sizeof buf) {
            if (n) {
                memcpy(buf + n, ", ", 2);
                n += 2;
            }
            memcpy(buf + n, t->text, t->len);
            n += t->len;
            buf[n] = 0;
        }
        if (!accept(P, TOK_COMMA))
            break;
    }
    free(P->m->target);
    P->m->target = xstrndup(buf, n);
}

void ptxp_parse_address_size(parser *P)
{
    ptx_token *d = advance(P);
    if (P->have_address_size) {
        ptxp_perr(P, d->line, d->column, "duplicate .address_size directive");
        ptxp_skip_line(P);
        return;
    }
    P->have_address_size = 1;
    ptx_token *t = cur(P);
    if (t->kind == TOK_INT && !t->bad && (t->u == 32 || t->u == 64)) {
        P->m->address_size = (uint32_t)t->u;
        advance(P);
        return;
    }
    if (t->kind == TOK_INT && !t->bad)
        ptxp_perr(P, t->line, t->column, ".address_size must be 32 or 64, got %llu", (unsigned long long)t->u);
    else
        ptxp_err_expected(P, "32 or 64");
    ptxp_skip_line(P);
}

/* .section NAME { ... }: debug information, skipped. */
void ptxp_skip_section(parser *P)
{
    ptx_token *d = advance(P);
    while (!at(P, TOK_EOF) && !at(P, TOK_LBRACE) && cur(P)->line == d->line)
        advance(P);
    if (!at(P, TOK_LBRACE)) {
        ptxp_err_expected(P, "'{' after .section");
        return;
    }
    long depth = 0;
    while (!at(P, TOK_EOF)) {
        if (at(P, TOK_LBRACE))
            depth++;
        else if (at(P, TOK_RBRACE)) {
            depth--;
            if (depth == 0) {
                advance(P);
                return;
            }
        }
        advance(P);
    }
    ptxp_perr(P, d->line, d->column, "unterminated .section (missing '}')");
}

/* ---- numbers -------------------------------------------------------------- */


int ptxp_is_number_tok(const ptx_token *t)
{
    return t->kind == TOK_INT || t->kind == TOK_FLOAT || t->kind == TOK_F32 || t->kind == TOK_F64;
}

/* Parse ['-'] number. */
int ptxp_parse_numlit(parser *P, numlit *nl)
{
    memset(nl, 0, sizeof *nl);
    nl->line = cur(P)->line;
    nl->column = cur(P)->column;
    if (at(P, TOK_MINUS)) {
        advance(P);
        nl->neg = 1;
    }
    if (!ptxp_is_number_tok(cur(P))) {
        ptxp_err_expected(P, "a number");
        return 0;
    }
    nl->tok = advance(P);
    if (nl->tok->bad) {
        P->errors++;
        return 0;
    }
    return 1;
}

/* An integer literal's value as int64 (two's complement of the 64-bit literal). */
int ptxp_int_value(parser *P, const numlit *nl, int64_t *out)
{
    uint64_t u = nl->tok->u;
    if (nl->neg) {
        if (u > (uint64_t)INT64_MAX + 1) {
            ptxp_perr(P, nl->line, nl->column, "number out of range: -%llu does not fit in 64 bits",
                      (unsigned long long)u);
            return 0;
        }
        *out = (int64_t)(0 - u);
    } else {
        *out = (int64_t)u;
    }
    return 1;
}

static double int_as_double(const numlit *nl)
{
    uint64_t u = nl->tok->u;
    if (nl->neg)
        return -(double)u;
    return (double)u;
}
static float int_as_float(const numlit *nl)
{
    uint64_t u = nl->tok->u;
    if (nl->neg)
        return -(float)u;
    return (float)u;
}

/* Convert a literal to the bit pattern of `type`; 0 with a message when it cannot be. */
int ptxp_literal_bits(parser *P, const numlit *nl, ptx_type type, int64_t *out, const char *what)
{
    const ptx_token *t = nl->tok;
    ptx_type_kind kind = ptx_types[type].kind;
    unsigned size = ptx_types[type].size;
    int line = nl->line, col = nl->column;

    if (kind == PTX_KIND_PRED) {
        /* 0 is false, 1 true, and -1 (all bits set) true as well: nvcc -G writes mov.pred %p, -1 */
        if (t->kind == TOK_INT && (nl->neg ? t->u == 1 : t->u <= 1)) {
            *out = (int64_t)(t->u != 0);
            return 1;
        }
        ptxp_perr(P, line, col, "a predicate immediate must be 0, 1 or -1%s", what);
        return 0;
    }
    if (kind == PTX_KIND_FLOAT) {
        if (type == PTX_F32) {
            float f;
            if (t->kind == TOK_INT)
                f = int_as_float(nl);
            else if (t->kind == TOK_F32)
                f = ptx_bits_f32((uint32_t)t->u);
            else if (t->kind == TOK_F64)
                f = (float)ptx_bits_f64(t->u);
            else {
                char buf[512];
                size_t n = t->len < sizeof buf - 1 ? t->len : sizeof buf - 1;
                memcpy(buf, t->text, n);
                buf[n] = 0;
                f = strtof(buf, NULL);
            }
            if (nl->neg && t->kind != TOK_INT)
                f = -f;
            if (t->kind == TOK_FLOAT && isinf(f)) {
                ptxp_perr(P, line, col, "number out of range: '%.*s' overflows .f32", (int)(t->len > 40 ? 40 : t->len),
                          t->text);
                return 0;
            }
            *out = (int64_t)ptx_f32_bits(f);
            return 1;
        }
        double d;
        if (t->kind == TOK_INT)
            d = int_as_double(nl);
        else if (t->kind == TOK_F32)
            d = (double)ptx_bits_f32((uint32_t)t->u);
        else if (t->kind == TOK_F64)
            d = ptx_bits_f64(t->u);
        else
            d = t->f;
        if (nl->neg && t->kind != TOK_INT)
            d = -d;
        if (type == PTX_F64) {
            *out = (int64_t)ptx_f64_bits(d);
            return 1;
        }
        /* f16 */
        if (t->kind == TOK_FLOAT && fabs(d) >= 65520.0 && !isinf(d)) {
            ptxp_perr(P, line, col, "number out of range: '%.*s' overflows .f16", (int)(t->len > 40 ? 40 : t->len),
                      t->text);
            return 0;
        }
        *out = (int64_t)f64_to_f16(d);
        return 1;
    }
    /* integer and bit types */
    if (t->kind == TOK_INT)
        return ptxp_int_value(P, nl, out);
    if (kind == PTX_KIND_BITS) {
        if (t->kind == TOK_F32 && size == 4) {
            uint32_t b = (uint32_t)t->u;
            if (nl->neg)
                b ^= 0x80000000u;
            *out = (int64_t)b;
            return 1;
        }
        if (t->kind == TOK_F64 && size == 8) {
            uint64_t b = t->u;
            if (nl->neg)
                b ^= 0x8000000000000000ull;
            *out = (int64_t)b;
            return 1;
        }
        if (t->kind == TOK_FLOAT && size == 8) {
            *out = (int64_t)ptx_f64_bits(nl->neg ? -t->f : t->f);
            return 1;
        }
        if (t->kind == TOK_FLOAT && size == 4) {
            numlit tmp = *nl;
            return ptxp_literal_bits(P, &tmp, PTX_F32, out, what);
        }
        ptxp_perr(P, line, col, "a %s floating-point literal does not fit a .%s operand%s",
                  t->kind == TOK_F32 ? "32-bit" : t->kind == TOK_F64 ? "64-bit" : "decimal", ptx_types[type].name, what);
        return 0;
    }
    ptxp_perr(P, line, col, "floating-point literal in an integer (.%s) operand%s", ptx_types[type].name, what);
    return 0;
}

/* ---- declarations --------------------------------------------------------- */


static int parse_align_value(parser *P, uint32_t *out)
{
    ptx_token *t = cur(P);
    if (t->kind != TOK_INT) {
        ptxp_err_expected(P, "an alignment (a power of two)");
        return 0;
    }
    advance(P);
    if (t->bad) {
        P->errors++;
        return 0;
    }
    if (t->u == 0 || (t->u & (t->u - 1)) || t->u > (1u << 20)) {
        ptxp_perr(P, t->line, t->column, "alignment must be a power of two up to 1048576, got %llu",
                  (unsigned long long)t->u);
        return 0;
    }
    *out = (uint32_t)t->u;
    return 1;
}

/* The qualifiers after the state space: .align N, .attribute(.managed), .ptr,
 * a type. Stops at the first non-directive token. */
int ptxp_parse_decl_qualifiers(parser *P, declspec *ds, int allow_ptr)
{
    int ok = 1;
    while (at(P, TOK_DIRECTIVE)) {
        ptx_token *t = cur(P);
        ptx_type ty = ptx_type_from_name(t->text + 1, t->len - 1);
        if (ty != PTX_TYPE_NONE) {
            advance(P);
            if (ds->type != PTX_TYPE_NONE) {
                ptxp_perr(P, t->line, t->column, "a declaration takes one type, got a second '%.*s'", (int)t->len, t->text);
                ok = 0;
            }
            ds->type = ty;
        } else if (is_dir(t, ".align")) {
            advance(P);
            uint32_t a;
            if (!parse_align_value(P, &a))
                return 0;
            if (!ds->ptr)
                ds->align = a;
        } else if (is_dir(t, ".attribute")) {
            advance(P);
            if (!ptxp_expect(P, TOK_LPAREN, "'(' after .attribute"))
                return 0;
            ptx_token *a = cur(P);
            if (is_dir(a, ".managed")) {
                advance(P);
                ds->managed = 1;
            } else {
                ptxp_err_expected(P, ".managed");
                return 0;
            }
            if (!ptxp_expect(P, TOK_RPAREN, "')'"))
                return 0;
        } else if (allow_ptr && is_dir(t, ".ptr")) {
            advance(P);
            ds->ptr = 1;
        } else if (allow_ptr && ds->ptr &&
                   (is_dir(t, ".global") || is_dir(t, ".shared") || is_dir(t, ".const") || is_dir(t, ".local"))) {
            advance(P);
        } else if (is_dir(t, ".texref") || is_dir(t, ".samplerref") || is_dir(t, ".surfref")) {
            ptxp_perr(P, t->line, t->column, "'%.*s': texture, sampler and surface references were removed in CUDA 12 "
                      "and are not supported; tex takes a texture object (cudaTextureObject_t) in a .u64 register",
                      (int)t->len, t->text);
            return 0;
        } else if (is_dir(t, ".v2") || is_dir(t, ".v4") || is_dir(t, ".v8")) {
            ptxp_perr(P, t->line, t->column, "unsupported: vector variables ('%.*s')", (int)t->len, t->text);
            return 0;
        } else {
            ptxp_perr(P, t->line, t->column, "unexpected '%.*s' in a declaration", (int)(t->len > 40 ? 40 : t->len),
                      t->text);
            return 0;
        }
    }
    if (ds->type == PTX_TYPE_NONE) {
        ptxp_err_expected(P, "a type such as .u32 or .b8");
        return 0;
    }
    if (ds->type == PTX_PRED && ds->space != PTX_SPACE_REG) {
        ptxp_perr(P, cur(P)->line, cur(P)->column, "a .pred variable must be a register (.reg .pred)");
        return 0;
    }
    return ok;
}

/* [N][M]... or []; returns element count in *count (0 for []), *unsized. */
static int parse_dims(parser *P, uint64_t *dims, int *ndims, int *unsized)
{
    *ndims = 0;
    *unsized = 0;
    while (at(P, TOK_LBRACKET)) {
        ptx_token *lb = advance(P);
        if (*ndims >= MAX_DIMS) {
            ptxp_perr(P, lb->line, lb->column, "too many array dimensions (at most %d)", MAX_DIMS);
            return 0;
        }
        if (at(P, TOK_RBRACKET)) {
            if (*ndims != 0) {
                ptxp_perr(P, lb->line, lb->column, "only the first array dimension may be left empty");
                return 0;
            }
            advance(P);
            *unsized = 1;
            dims[(*ndims)++] = 0;
            continue;
        }
        ptx_token *t = cur(P);
        if (t->kind != TOK_INT) {
            ptxp_err_expected(P, "an array size");
            return 0;
        }
        advance(P);
        if (t->bad) {
            P->errors++;
            return 0;
        }
        if (t->u == 0 || t->u > MAX_ARRAY_BYTES) {
            ptxp_perr(P, t->line, t->column, "number out of range: array size %llu", (unsigned long long)t->u);
            return 0;
        }
        dims[(*ndims)++] = t->u;
        if (!ptxp_expect(P, TOK_RBRACKET, "']'"))
            return 0;
    }
    return 1;
}

/* Store one initializer element of `type` at byte offset `off`. */
static int init_element(parser *P, const numlit *nl, ptx_type type, uint8_t *dst)
{
    int64_t v;
    unsigned size = ptx_types[type].size;
    if (!ptxp_literal_bits(P, nl, type, &v, " in an initializer"))
        return 0;
    if (nl->tok->kind == TOK_INT && ptx_types[type].kind != PTX_KIND_FLOAT && size < 8) {
        int64_t lo = -((int64_t)1 << (size * 8 - 1));
        int64_t hi = ((int64_t)1 << (size * 8)) - 1;
        if (v < lo || v > hi) {
            ptxp_perr(P, nl->line, nl->column, "number out of range: %lld does not fit a .%s element", (long long)v,
                      ptx_types[type].name);
            return 0;
        }
    }
    uint64_t u = (uint64_t)v;
    for (unsigned i = 0; i < size; i++)
        dst[i] = (uint8_t)(u >> (8 * i));
    return 1;
}

/* = value | = { ... } with nested braces laid out by the dimensions. */
static int parse_initializer(parser *P, ptx_symbol *s, const uint64_t *dims, int ndims, int unsized)
{
    ptx_type type = (ptx_type)s->type;
    unsigned esize = ptx_types[type].size;
    /* span[k]: elements covered by a brace at depth k (k = 0 outermost) */
    uint64_t span[MAX_DIMS + 1];
    span[ndims] = 1;
    for (int k = ndims - 1; k >= 0; k--)
        span[k] = dims[k] ? span[k + 1] * dims[k] : 0;
    uint64_t total = ndims ? span[0] : 1; /* 0 when unsized */
    uint64_t cap_elems = unsized ? 0 : total;
    if (!unsized && total * esize > MAX_INIT_BYTES) {
        ptxp_perr(P, s->line, s->column, "initialized variable '%s' is too large (%llu bytes)", s->name,
                  (unsigned long long)(total * esize));
        return 0;
    }
    uint8_t *buf = calloc(cap_elems ? cap_elems : 1, esize);
    if (!buf)
        abort();
    uint64_t bufcap = cap_elems;
    uint64_t cursor = 0, used = 0;
    uint64_t base[MAX_INIT_DEPTH + 1];
    int depth = 0;
    int ok = 1;

    if (!at(P, TOK_LBRACE)) {
        if (ndims) {
            ptxp_err_expected(P, "'{' to initialize an array");
            free(buf);
            return 0;
        }
        numlit nl;
        if (at(P, TOK_IDENT)) {
            ptxp_perr(P, cur(P)->line, cur(P)->column,
                      "unsupported initializer '%.*s': only numbers (no addresses of variables)",
                      (int)(cur(P)->len > 40 ? 40 : cur(P)->len), cur(P)->text);
            free(buf);
            return 0;
        }
        if (!ptxp_parse_numlit(P, &nl) || !init_element(P, &nl, type, buf)) {
            free(buf);
            return 0;
        }
        s->init = buf;
        return 1;
    }
    if (!ndims) {
        ptxp_perr(P, cur(P)->line, cur(P)->column, "a scalar variable takes a single value, not a list");
        free(buf);
        return 0;
    }
    do {
        ptx_token *t = cur(P);
        if (t->kind == TOK_LBRACE) {
            advance(P);
            if (depth >= ndims || depth >= MAX_INIT_DEPTH) {
                ptxp_perr(P, t->line, t->column, "too many nested braces in the initializer of '%s'", s->name);
                ok = 0;
                break;
            }
            if (depth > 0 && span[depth] && cursor % span[depth])
                cursor = align_up(cursor, span[depth]);
            base[depth++] = cursor;
            continue;
        } else if (t->kind == TOK_RBRACE) {
            advance(P);
            depth--;
            if (depth > 0 && span[depth])
                cursor = base[depth] + span[depth];
            if (depth == 0)
                break;
            if (!at(P, TOK_COMMA) && !at(P, TOK_RBRACE)) {
                ptxp_err_expected(P, "',' or '}'");
                ok = 0;
                break;
            }
            if (at(P, TOK_COMMA)) {
                advance(P);
                if (at(P, TOK_RBRACE)) {
                    ptxp_err_expected(P, "a value");
                    ok = 0;
                    break;
                }
            }
            continue;
        } else {
            if (t->kind == TOK_IDENT) {
                ptxp_perr(P, t->line, t->column, "unsupported initializer '%.*s': only numbers (no addresses of variables)",
                          (int)(t->len > 40 ? 40 : t->len), t->text);
                ok = 0;
                break;
            }
            numlit nl;
            if (!ptxp_parse_numlit(P, &nl)) {
                ok = 0;
                break;
            }
            if (!unsized && cursor >= total) {
                ptxp_perr(P, nl.line, nl.column, "too many initializers for '%s' (%llu elements)", s->name,
                          (unsigned long long)total);
                ok = 0;
                break;
            }
            if (unsized && cursor >= bufcap) {
                uint64_t nc = bufcap ? bufcap * 2 : 64;
                while (nc <= cursor)
                    nc *= 2;
                if (nc * esize > MAX_INIT_BYTES) {
                    ptxp_perr(P, nl.line, nl.column, "initializer of '%s' is too large", s->name);
                    ok = 0;
                    break;
                }
                buf = xrealloc(buf, nc * esize);
                memset(buf + bufcap * esize, 0, (nc - bufcap) * esize);
                bufcap = nc;
            }
            if (!init_element(P, &nl, type, buf + cursor * esize)) {
                ok = 0;
                break;
            }
            cursor++;
            if (cursor > used)
                used = cursor;
        }
        if (at(P, TOK_COMMA)) {
            advance(P);
            if (at(P, TOK_RBRACE)) {
                ptxp_err_expected(P, "a value");
                ok = 0;
                break;
            }
        } else if (!at(P, TOK_RBRACE)) {
            ptxp_err_expected(P, "',' or '}'");
            ok = 0;
            break;
        }
    } while (!P->stop && !at(P, TOK_EOF));
    if (ok && depth != 0) {
        ptxp_err_expected(P, "'}'");
        ok = 0;
    }
    if (!ok) {
        free(buf);
        return 0;
    }
    if (unsized) {
        if (cursor > used)
            used = cursor;
        uint64_t inner = ndims > 1 ? span[1] : 1;
        uint64_t n = align_up(used, inner);
        if (n == 0) {
            ptxp_perr(P, s->line, s->column, "'%s[]' needs at least one initializer", s->name);
            free(buf);
            return 0;
        }
        if (n > MAX_INIT_BYTES / esize) {
            ptxp_perr(P, s->line, s->column, "initialized variable '%s' is too large", s->name);
            free(buf);
            return 0;
        }
        if (n > bufcap) {
            buf = xrealloc(buf, n * esize);
            memset(buf + bufcap * esize, 0, (n - bufcap) * esize);
        }
        s->size = n * esize;
    }
    s->init = buf;
    return 1;
}

/* Declare one variable name (after the qualifiers). Returns the symbol or -1. */
int ptxp_parse_var_name(parser *P, const declspec *ds, int kind)
{
    ptx_token *name = cur(P);
    if (name->kind != TOK_IDENT) {
        ptxp_err_expected(P, "a variable name");
        return -1;
    }
    advance(P);
    uint64_t dims[MAX_DIMS];
    int ndims, unsized;
    if (!parse_dims(P, dims, &ndims, &unsized))
        return -1;
    int idx = ptxp_new_symbol(P, name);
    ptx_symbol *s = &P->m->symbols[idx];
    s->kind = (uint8_t)kind;
    s->space = (uint8_t)ds->space;
    s->type = (uint8_t)ds->type;
    s->is_extern = (uint8_t)ds->is_extern;
    s->visible = (uint8_t)ds->visible;
    s->is_weak = (uint8_t)ds->is_weak;
    s->managed = (uint8_t)ds->managed;
    s->is_array = ndims > 0;
    unsigned esize = ptx_types[ds->type].size;
    s->align = ds->align ? ds->align : esize;
    uint64_t elems = 1;
    for (int k = 0; k < ndims; k++) {
        if (dims[k] && elems > MAX_ARRAY_BYTES / dims[k]) {
            ptxp_perr(P, name->line, name->column, "number out of range: '%s' is too large", s->name);
            return idx;
        }
        elems *= dims[k] ? dims[k] : 1;
    }
    s->size = unsized ? 0 : elems * esize;
    if (s->size > MAX_ARRAY_BYTES) {
        ptxp_perr(P, name->line, name->column, "number out of range: '%s' is too large", s->name);
        return idx;
    }
    if (at(P, TOK_EQUAL)) {
        ptx_token *eq = advance(P);
        if (ds->is_extern) {
            ptxp_perr(P, eq->line, eq->column, "an .extern variable cannot have an initializer");
            return idx;
        }
        if (ds->space != PTX_SPACE_GLOBAL && ds->space != PTX_SPACE_CONST) {
            ptxp_perr(P, eq->line, eq->column, "only .global and .const variables can have initializers");
            return idx;
        }
        parse_initializer(P, s, dims, ndims, unsized);
        s = &P->m->symbols[idx];
    } else if (unsized && !(ds->is_extern && ds->space == PTX_SPACE_SHARED)) {
        if (!ds->is_extern) {
            ptxp_perr(P, name->line, name->column,
                      "'%s[]' needs a size or an initializer (only .extern .shared arrays may be unsized)", s->name);
        }
    }
    return idx;
}

/* Register a module-scope or function-scope variable's name. */
static void bind_symbol(parser *P, int idx)
{
    ptx_symbol *s = &P->m->symbols[idx];
    size_t len = strlen(s->name);
    if (in_function(P)) {
        s->function = P->F.fn;
        s->scope = cur_scope(P);
        if (!ptxp_declare(P, s->name, len, 1, idx))
            ptxp_perr(P, s->line, s->column, "duplicate name '%s' in this scope", s->name);
        ptxp_add_fn_item(P, PTX_ITEM_SYMBOL, idx, 1);
    } else {
        if (ptxp_map_get(&P->modsyms, s->name, len) >= 0 || ptxp_map_get(&P->modfuncs, s->name, len) >= 0)
            ptxp_perr(P, s->line, s->column, "duplicate name '%s'", s->name);
        else
            ptxp_map_put(&P->modsyms, s->name, len, idx);
        ptxp_add_module_item(P, PTX_ITEM_SYMBOL, idx, 1);
    }
}

/* .global/.const/.shared/.local/.param declaration (the space token is current). */
void ptxp_parse_var_decl(parser *P, declspec ds)
{
    ptx_token *sp = advance(P);
    if (is_dir(sp, ".global"))
        ds.space = PTX_SPACE_GLOBAL;
    else if (is_dir(sp, ".const"))
        ds.space = PTX_SPACE_CONST;
    else if (is_dir(sp, ".shared"))
        ds.space = PTX_SPACE_SHARED;
    else if (is_dir(sp, ".local"))
        ds.space = PTX_SPACE_LOCAL;
    else
        ds.space = PTX_SPACE_PARAM;
    if (ds.space == PTX_SPACE_PARAM && !in_function(P)) {
        ptxp_perr(P, sp->line, sp->column, ".param variables belong in a function");
        ptxp_skip_statement(P);
        return;
    }
    if (!ptxp_parse_decl_qualifiers(P, &ds, 0)) {
        ptxp_skip_statement(P);
        return;
    }
    if (ds.managed && ds.space != PTX_SPACE_GLOBAL)
        ptxp_perr(P, sp->line, sp->column, ".attribute(.managed) applies to .global variables only");
    for (;;) {
        int errs = P->errors;
        int idx = ptxp_parse_var_name(P, &ds, PTX_SYM_VARIABLE);
        if (idx < 0) {
            ptxp_skip_statement(P);
            return;
        }
        bind_symbol(P, idx);
        if (P->errors != errs) {
            ptxp_skip_statement(P);
            return;
        }
        if (!accept(P, TOK_COMMA))
            break;
    }
    if (!ptxp_expect(P, TOK_SEMI, "';'"))
        ptxp_skip_statement(P);
}

/* ---- registers ------------------------------------------------------------ */

static int add_reg(parser *P, const char *name, size_t len, ptx_type type, int line, int col, int *dup)
{
    ptx_function *f = &P->m->functions[P->F.fn];
    if (f->reg_count >= MAX_FUNCTION_REGS) {
        ptxp_perr(P, line, col, "too many registers in function '%s' (at most %d)", f->name, MAX_FUNCTION_REGS);
        return -1;
    }
    GROW(f->regs, f->reg_count, P->F.reg_cap);
    ptx_reg *r = &f->regs[f->reg_count];
    memset(r, 0, sizeof *r);
    r->name = xstrndup(name, len);
    r->type = (uint8_t)type;
    r->is_pred = type == PTX_PRED;
    r->index = r->is_pred ? f->pred_reg_count++ : f->value_reg_count++;
    r->scope = cur_scope(P);
    int idx = f->reg_count++;
    if (!ptxp_declare(P, name, len, 0, idx)) {
        if (!*dup)
            ptxp_perr(P, line, col, "duplicate register '%.*s'", (int)len, name);
        *dup = 1;
    }
    return idx;
}

void ptxp_parse_reg_decl(parser *P)
{
    advance(P); /* .reg */
    declspec ds;
    memset(&ds, 0, sizeof ds);
    ds.space = PTX_SPACE_REG;
    if (at(P, TOK_DIRECTIVE) && (is_dir(cur(P), ".align"))) {
        ptxp_perr(P, cur(P)->line, cur(P)->column, "registers take no alignment");
        ptxp_skip_statement(P);
        return;
    }
    if (!ptxp_parse_decl_qualifiers(P, &ds, 0)) {
        ptxp_skip_statement(P);
        return;
    }
    for (;;) {
        ptx_token *name = cur(P);
        if (name->kind != TOK_IDENT || memchr(name->text, '.', name->len)) {
            ptxp_err_expected(P, "a register name");
            ptxp_skip_statement(P);
            return;
        }
        advance(P);
        if (at(P, TOK_LT)) {
            advance(P);
            ptx_token *n = cur(P);
            if (n->kind != TOK_INT) {
                ptxp_err_expected(P, "a register count");
                ptxp_skip_statement(P);
                return;
            }
            advance(P);
            if (n->bad) {
                P->errors++;
                ptxp_skip_statement(P);
                return;
            }
            if (n->u == 0 || n->u > MAX_FUNCTION_REGS) {
                ptxp_perr(P, n->line, n->column, "number out of range: register count %llu (1 to %d)",
                          (unsigned long long)n->u, MAX_FUNCTION_REGS);
                ptxp_skip_statement(P);
                return;
            }
            if (!ptxp_expect(P, TOK_GT, "'>'")) {
                ptxp_skip_statement(P);
                return;
            }
            int first = -1;
            int count = (int)n->u;
            char buf[128];
            if (name->len > 100) {
                ptxp_perr(P, name->line, name->column, "register name too long");
                ptxp_skip_statement(P);
                return;
            }
            int dup = 0, made = 0;
            for (int i = 0; i < count; i++) {
                int len = snprintf(buf, sizeof buf, "%.*s%d", (int)name->len, name->text, i);
                int r = add_reg(P, buf, (size_t)len, ds.type, name->line, name->column, &dup);
                if (r < 0)
                    break;
                if (first < 0)
                    first = r;
                made++;
                if (P->stop)
                    break;
            }
            if (first >= 0)
                ptxp_add_fn_item(P, PTX_ITEM_REG, first, made);
        } else {
            int dup = 0;
            int r = add_reg(P, name->text, name->len, ds.type, name->line, name->column, &dup);
            if (r >= 0)
                ptxp_add_fn_item(P, PTX_ITEM_REG, r, 1);
        }
        if (!accept(P, TOK_COMMA))
            break;
    }
    if (!ptxp_expect(P, TOK_SEMI, "';'"))
        ptxp_skip_statement(P);
}

