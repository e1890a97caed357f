/*
 * The PTX parser: tokens -> a fully resolved ptx_module (see ptx.h).
 *
 * One pass over the tokens builds the module; labels used before their
 * definition and calls to functions defined later are patched at the end of
 * the function and of the module. Nothing recurses: nested braces (scopes,
 * initializers) keep explicit, bounded depth counters, so no input can
 * exhaust the stack. Every token access is bounded by the final TOK_EOF.
 */
#include "isa/bits.h"
#include "isa/lexer.h"
#include "isa/ptx.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_SCOPE_DEPTH 64        /* nested { } in a function body */
#define MAX_INIT_DEPTH 8          /* nested { } in an initializer */
#define MAX_DIMS 8
#define MAX_FUNCTION_REGS (1 << 18)
#define MAX_RAW_OPERANDS 8
#define MAX_ARRAY_BYTES (1ull << 40)
#define MAX_INIT_BYTES (1ull << 26)
#define MAX_CALL_ARGS 1024
#define MAX_KERNEL_PARAM_BYTES 32764   /* the PTX ISA's limit on a kernel's parameters (sm_70+, PTX 8.1+) */

/* ---- small utilities ------------------------------------------------------ */

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

#define GROW(ptr, count, cap)                                                      \
    do {                                                                           \
        if ((count) >= (cap)) {                                                    \
            int nc_ = (cap) ? (cap) * 2 : 8;                                       \
            (ptr) = xrealloc((ptr), (size_t)nc_ * sizeof *(ptr));                  \
            (cap) = nc_;                                                           \
        }                                                                          \
    } while (0)

/* An open-addressing string -> int map (values >= -1; keys owned). */
typedef struct {
    char **keys;
    uint32_t *lens;
    int *vals;
    uint32_t cap, count;
} strmap;

static uint32_t hash_str(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int map_find_slot(const strmap *m, const char *s, size_t n, uint32_t *slot)
{
    if (!m->cap)
        return 0;
    uint32_t i = hash_str(s, n) & (m->cap - 1);
    for (;;) {
        if (!m->keys[i]) {
            *slot = i;
            return 0;
        }
        if (m->lens[i] == n && memcmp(m->keys[i], s, n) == 0) {
            *slot = i;
            return 1;
        }
        i = (i + 1) & (m->cap - 1);
    }
}

static int map_get(const strmap *m, const char *s, size_t n)
{
    uint32_t slot;
    if (map_find_slot(m, s, n, &slot))
        return m->vals[slot];
    return -1;
}

static void map_put(strmap *m, const char *s, size_t n, int val)
{
    if ((m->count + 1) * 2 > m->cap) {
        strmap nm = {0};
        nm.cap = m->cap ? m->cap * 2 : 64;
        nm.keys = calloc(nm.cap, sizeof *nm.keys);
        nm.lens = calloc(nm.cap, sizeof *nm.lens);
        nm.vals = calloc(nm.cap, sizeof *nm.vals);
        if (!nm.keys || !nm.lens || !nm.vals)
            abort();
        for (uint32_t i = 0; i < m->cap; i++) {
            if (!m->keys[i])
                continue;
            uint32_t slot;
            map_find_slot(&nm, m->keys[i], m->lens[i], &slot);
            nm.keys[slot] = m->keys[i];
            nm.lens[slot] = m->lens[i];
            nm.vals[slot] = m->vals[i];
            nm.count++;
        }
        free(m->keys);
        free(m->lens);
        free(m->vals);
        *m = nm;
    }
    uint32_t slot;
    if (map_find_slot(m, s, n, &slot)) {
        m->vals[slot] = val;
        return;
    }
    m->keys[slot] = xstrndup(s, n);
    m->lens[slot] = (uint32_t)n;
    m->vals[slot] = val;
    m->count++;
}

static void map_free(strmap *m)
{
    for (uint32_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->lens);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    if (a <= 1)
        return v;
    return (v + a - 1) / a * a;
}

/* ---- float conversions ---------------------------------------------------- */

/* A literal as f16: rounded to nearest even; a NaN is the canonical quiet one, with its sign. */
static uint16_t f64_to_f16(double d)
{
    if (isnan(d))
        return (uint16_t)((signbit(d) ? 0x8000 : 0) | 0x7e00);
    return ptx_f64_to_f16(d, FE_TONEAREST);
}

/* ---- parser state --------------------------------------------------------- */

typedef struct {
    const char *name; /* points at the register's or symbol's name */
    int is_sym;       /* 0: register (ptx_function.regs index), 1: module symbol index */
    int index;
    int scope;
    int prev;         /* the outer declaration of the same name, or -1 */
} decl;

typedef struct {
    int fn;
    strmap names;
    decl *decls;
    int ndecls, decls_cap;
    strmap labels;
    int32_t *label_use_line, *label_use_col;
    int scope_stack[MAX_SCOPE_DEPTH + 1];
    int depth, next_scope;
    int reg_cap, instr_cap, label_cap, call_cap, csym_cap, item_cap, luse_cap;
} fstate;

typedef struct {
    int fn, call;
    int line, column;
    char *name;
} pending_call;

typedef struct {
    const char *path;
    ptx_diag *diag;
    ptx_token *t;
    int n, pos;
    ptx_module *m;
    int errors;
    int stop;
    int sym_cap, fn_cap, str_cap, item_cap;
    strmap modsyms, modfuncs;
    pending_call *pcalls;
    int npcalls, pcalls_cap;
    int have_version, have_target, have_address_size;
    int header_checked;
    fstate F;
} parser;

static void perr(parser *P, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void perr(parser *P, int line, int col, const char *fmt, ...)
{
    P->errors++;
    if (P->stop)
        return;
    if (P->diag && P->diag->error_count >= PTX_DIAG_MAX) {
        ptx_diag_report(P->diag, P->path, line, col, "too many errors");
        P->stop = 1;
        return;
    }
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!ptx_diag_report(P->diag, P->path, line, col, "%s", msg))
        P->stop = 1;
}

static ptx_token *cur(parser *P) { return &P->t[P->pos]; }
static ptx_token *peek_tok(parser *P, int k)
{
    int i = P->pos + k;
    if (i >= P->n)
        i = P->n - 1;
    return &P->t[i];
}
static ptx_token *advance(parser *P)
{
    ptx_token *t = &P->t[P->pos];
    if (P->pos < P->n - 1)
        P->pos++;
    return t;
}
static int at(parser *P, int kind) { return cur(P)->kind == kind; }
static int accept(parser *P, int kind)
{
    if (at(P, kind)) {
        advance(P);
        return 1;
    }
    return 0;
}
static int tok_is(const ptx_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}
static int is_dir(const ptx_token *t, const char *s) { return t->kind == TOK_DIRECTIVE && tok_is(t, s); }

/* A short printable form of a token for messages. */
static const char *tok_desc(const ptx_token *t, char *buf, size_t n)
{
    if (t->kind == TOK_EOF)
        return "end of file";
    if (t->kind == TOK_STRING)
        snprintf(buf, n, "a string");
    else
        snprintf(buf, n, "'%.*s'", (int)(t->len > 48 ? 48 : t->len), t->text);
    return buf;
}

static void err_expected(parser *P, const char *what)
{
    char b[80];
    ptx_token *t = cur(P);
    if (t->bad)
        P->errors++; /* already reported by the lexer */
    else
        perr(P, t->line, t->column, "expected %s, got %s", what, tok_desc(t, b, sizeof b));
}

static int expect(parser *P, int kind, const char *what)
{
    if (accept(P, kind))
        return 1;
    err_expected(P, what);
    return 0;
}

/* Skip the rest of a statement: up to and including ';', or up to a brace. */
static void skip_statement(parser *P)
{
    while (!at(P, TOK_EOF)) {
        if (at(P, TOK_SEMI)) {
            advance(P);
            return;
        }
        if (at(P, TOK_LBRACE) || at(P, TOK_RBRACE))
            return;
        advance(P);
    }
}

/* Skip all tokens on the current token's line (.loc and .file have no ';'). */
static void skip_line(parser *P)
{
    int line = cur(P)->line;
    while (!at(P, TOK_EOF) && cur(P)->line == line)
        advance(P);
}

/* ---- module building helpers ---------------------------------------------- */

static int add_string(parser *P, const char *s, size_t n)
{
    ptx_module *m = P->m;
    GROW(m->strings, m->string_count, P->str_cap);
    m->strings[m->string_count] = xstrndup(s, n);
    return m->string_count++;
}

static void add_module_item(parser *P, int kind, int index, int count)
{
    ptx_module *m = P->m;
    GROW(m->items, m->item_count, P->item_cap);
    ptx_item *it = &m->items[m->item_count++];
    memset(it, 0, sizeof *it);
    it->kind = (uint8_t)kind;
    it->index = index;
    it->count = count;
}

static void add_fn_item(parser *P, int kind, int index, int count)
{
    ptx_function *f = &P->m->functions[P->F.fn];
    GROW(f->items, f->item_count, P->F.item_cap);
    ptx_item *it = &f->items[f->item_count++];
    memset(it, 0, sizeof *it);
    it->kind = (uint8_t)kind;
    it->instr = f->instr_count;
    it->index = index;
    it->count = count;
}

static int new_symbol(parser *P, const ptx_token *name)
{
    ptx_module *m = P->m;
    GROW(m->symbols, m->symbol_count, P->sym_cap);
    ptx_symbol *s = &m->symbols[m->symbol_count];
    memset(s, 0, sizeof *s);
    s->name = xstrndup(name->text, name->len);
    s->function = -1;
    s->line = name->line;
    s->column = name->column;
    return m->symbol_count++;
}

/* ---- function-scope names ------------------------------------------------- */

static int in_function(parser *P) { return P->F.fn >= 0; }
static int cur_scope(parser *P) { return P->F.scope_stack[P->F.depth]; }

/* Declare a name in the current function scope; 0 on a duplicate. */
static int declare(parser *P, const char *name, size_t len, int is_sym, int index)
{
    fstate *F = &P->F;
    int head = map_get(&F->names, name, len);
    if (head >= 0 && F->decls[head].scope == cur_scope(P))
        return 0;
    GROW(F->decls, F->ndecls, F->decls_cap);
    decl *d = &F->decls[F->ndecls];
    d->is_sym = is_sym;
    d->index = index;
    d->scope = cur_scope(P);
    d->prev = head;
    d->name = is_sym ? P->m->symbols[index].name : P->m->functions[F->fn].regs[index].name;
    map_put(&F->names, name, len, F->ndecls);
    F->ndecls++;
    return 1;
}

static const decl *lookup_local(parser *P, const char *name, size_t len)
{
    if (!in_function(P))
        return NULL;
    int id = map_get(&P->F.names, name, len);
    return id >= 0 ? &P->F.decls[id] : NULL;
}

static void close_scope(parser *P)
{
    fstate *F = &P->F;
    int s = cur_scope(P);
    while (F->ndecls > 0 && F->decls[F->ndecls - 1].scope == s) {
        decl *d = &F->decls[F->ndecls - 1];
        map_put(&F->names, d->name, strlen(d->name), d->prev);
        F->ndecls--;
    }
    F->depth--;
}

/* ---- header directives ---------------------------------------------------- */

static void check_header(parser *P, const ptx_token *t)
{
    if (P->header_checked)
        return;
    P->header_checked = 1;
    if (!P->have_version) {
        if (t->kind == TOK_EOF && t->line == 1 && t->column == 1)
            perr(P, 1, 1, "no .version directive: the file is empty");
        else
            perr(P, 1, 1, "no .version directive (a PTX file starts with .version, .target and .address_size)");
    } else if (!P->have_target) {
        perr(P, t->line, t->column, "no .target directive before this point");
    }
}

static void parse_version(parser *P)
{
    ptx_token *d = advance(P);
    ptx_token *t = cur(P);
    if (P->have_version) {
        perr(P, d->line, d->column, "duplicate .version directive");
        skip_line(P);
        return;
    }
    if (P->header_checked || P->m->function_count || P->m->symbol_count)
        perr(P, d->line, d->column, ".version must come first");
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
        err_expected(P, "a version number such as 9.0");
        skip_line(P);
        return;
    }
    advance(P);
    P->m->version_major = (uint32_t)maj;
    P->m->version_minor = (uint32_t)min;
}

static void parse_target(parser *P)
{
    ptx_token *d = advance(P);
    if (P->have_target) {
        perr(P, d->line, d->column, "duplicate .target directive");
        skip_line(P);
        return;
    }
    if (!P->have_version)
        check_header(P, d);
    P->have_target = 1;
    char buf[256];
    size_t n = 0;
    buf[0] = 0;
    for (;;) {
        ptx_token *t = cur(P);
        if (t->kind != TOK_IDENT) {
            err_expected(P, "a target name such as sm_90");
            skip_line(P);
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

static void parse_address_size(parser *P)
{
    ptx_token *d = advance(P);
    if (P->have_address_size) {
        perr(P, d->line, d->column, "duplicate .address_size directive");
        skip_line(P);
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
        perr(P, t->line, t->column, ".address_size must be 32 or 64, got %llu", (unsigned long long)t->u);
    else
        err_expected(P, "32 or 64");
    skip_line(P);
}

/* .section NAME { ... }: debug information, skipped. */
static void skip_section(parser *P)
{
    ptx_token *d = advance(P);
    while (!at(P, TOK_EOF) && !at(P, TOK_LBRACE) && cur(P)->line == d->line)
        advance(P);
    if (!at(P, TOK_LBRACE)) {
        err_expected(P, "'{' after .section");
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
    perr(P, d->line, d->column, "unterminated .section (missing '}')");
}

/* ---- numbers -------------------------------------------------------------- */

typedef struct {
    ptx_token *tok; /* TOK_INT / TOK_FLOAT / TOK_F32 / TOK_F64 */
    int neg;
    int line, column; /* of the '-' when there is one */
} numlit;

static int is_number_tok(const ptx_token *t)
{
    return t->kind == TOK_INT || t->kind == TOK_FLOAT || t->kind == TOK_F32 || t->kind == TOK_F64;
}

/* Parse ['-'] number. */
static int parse_numlit(parser *P, numlit *nl)
{
    memset(nl, 0, sizeof *nl);
    nl->line = cur(P)->line;
    nl->column = cur(P)->column;
    if (at(P, TOK_MINUS)) {
        advance(P);
        nl->neg = 1;
    }
    if (!is_number_tok(cur(P))) {
        err_expected(P, "a number");
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
static int int_value(parser *P, const numlit *nl, int64_t *out)
{
    uint64_t u = nl->tok->u;
    if (nl->neg) {
        if (u > (uint64_t)INT64_MAX + 1) {
            perr(P, nl->line, nl->column, "number out of range: -%llu does not fit in 64 bits",
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
static int literal_bits(parser *P, const numlit *nl, ptx_type type, int64_t *out, const char *what)
{
    const ptx_token *t = nl->tok;
    ptx_type_kind kind = ptx_types[type].kind;
    unsigned size = ptx_types[type].size;
    int line = nl->line, col = nl->column;

    if (kind == PTX_KIND_PRED) {
        if (t->kind == TOK_INT && !nl->neg && t->u <= 1) {
            *out = (int64_t)t->u;
            return 1;
        }
        perr(P, line, col, "a predicate immediate must be 0 or 1%s", what);
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
                perr(P, line, col, "number out of range: '%.*s' overflows .f32", (int)(t->len > 40 ? 40 : t->len),
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
            perr(P, line, col, "number out of range: '%.*s' overflows .f16", (int)(t->len > 40 ? 40 : t->len),
                 t->text);
            return 0;
        }
        *out = (int64_t)f64_to_f16(d);
        return 1;
    }
    /* integer and bit types */
    if (t->kind == TOK_INT)
        return int_value(P, nl, out);
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
            return literal_bits(P, &tmp, PTX_F32, out, what);
        }
        perr(P, line, col, "a %s floating-point literal does not fit a .%s operand%s",
             t->kind == TOK_F32 ? "32-bit" : t->kind == TOK_F64 ? "64-bit" : "decimal", ptx_types[type].name, what);
        return 0;
    }
    perr(P, line, col, "floating-point literal in an integer (.%s) operand%s", ptx_types[type].name, what);
    return 0;
}

/* ---- declarations --------------------------------------------------------- */

typedef struct {
    int space;              /* ptx_space */
    ptx_type type;
    uint32_t align;         /* 0: natural */
    int managed;
    int visible, is_extern, is_weak;
    int ptr;                /* .ptr seen (kernel params) */
} declspec;

static int parse_align_value(parser *P, uint32_t *out)
{
    ptx_token *t = cur(P);
    if (t->kind != TOK_INT) {
        err_expected(P, "an alignment (a power of two)");
        return 0;
    }
    advance(P);
    if (t->bad) {
        P->errors++;
        return 0;
    }
    if (t->u == 0 || (t->u & (t->u - 1)) || t->u > (1u << 20)) {
        perr(P, t->line, t->column, "alignment must be a power of two up to 1048576, got %llu",
             (unsigned long long)t->u);
        return 0;
    }
    *out = (uint32_t)t->u;
    return 1;
}

/* The qualifiers after the state space: .align N, .attribute(.managed), .ptr,
 * a type. Stops at the first non-directive token. */
static int parse_decl_qualifiers(parser *P, declspec *ds, int allow_ptr)
{
    int ok = 1;
    while (at(P, TOK_DIRECTIVE)) {
        ptx_token *t = cur(P);
        ptx_type ty = ptx_type_from_name(t->text + 1, t->len - 1);
        if (ty != PTX_TYPE_NONE) {
            advance(P);
            if (ds->type != PTX_TYPE_NONE) {
                perr(P, t->line, t->column, "a declaration takes one type, got a second '%.*s'", (int)t->len, t->text);
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
            if (!expect(P, TOK_LPAREN, "'(' after .attribute"))
                return 0;
            ptx_token *a = cur(P);
            if (is_dir(a, ".managed")) {
                advance(P);
                ds->managed = 1;
            } else {
                err_expected(P, ".managed");
                return 0;
            }
            if (!expect(P, TOK_RPAREN, "')'"))
                return 0;
        } else if (allow_ptr && is_dir(t, ".ptr")) {
            advance(P);
            ds->ptr = 1;
        } else if (allow_ptr && ds->ptr &&
                   (is_dir(t, ".global") || is_dir(t, ".shared") || is_dir(t, ".const") || is_dir(t, ".local"))) {
            advance(P);
        } else if (is_dir(t, ".v2") || is_dir(t, ".v4") || is_dir(t, ".v8")) {
            perr(P, t->line, t->column, "unsupported: vector variables ('%.*s')", (int)t->len, t->text);
            return 0;
        } else {
            perr(P, t->line, t->column, "unexpected '%.*s' in a declaration", (int)(t->len > 40 ? 40 : t->len),
                 t->text);
            return 0;
        }
    }
    if (ds->type == PTX_TYPE_NONE) {
        err_expected(P, "a type such as .u32 or .b8");
        return 0;
    }
    if (ds->type == PTX_PRED && ds->space != PTX_SPACE_REG) {
        perr(P, cur(P)->line, cur(P)->column, "a .pred variable must be a register (.reg .pred)");
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
            perr(P, lb->line, lb->column, "too many array dimensions (at most %d)", MAX_DIMS);
            return 0;
        }
        if (at(P, TOK_RBRACKET)) {
            if (*ndims != 0) {
                perr(P, lb->line, lb->column, "only the first array dimension may be left empty");
                return 0;
            }
            advance(P);
            *unsized = 1;
            dims[(*ndims)++] = 0;
            continue;
        }
        ptx_token *t = cur(P);
        if (t->kind != TOK_INT) {
            err_expected(P, "an array size");
            return 0;
        }
        advance(P);
        if (t->bad) {
            P->errors++;
            return 0;
        }
        if (t->u == 0 || t->u > MAX_ARRAY_BYTES) {
            perr(P, t->line, t->column, "number out of range: array size %llu", (unsigned long long)t->u);
            return 0;
        }
        dims[(*ndims)++] = t->u;
        if (!expect(P, TOK_RBRACKET, "']'"))
            return 0;
    }
    return 1;
}

/* Store one initializer element of `type` at byte offset `off`. */
static int init_element(parser *P, const numlit *nl, ptx_type type, uint8_t *dst)
{
    int64_t v;
    unsigned size = ptx_types[type].size;
    if (!literal_bits(P, nl, type, &v, " in an initializer"))
        return 0;
    if (nl->tok->kind == TOK_INT && ptx_types[type].kind != PTX_KIND_FLOAT && size < 8) {
        int64_t lo = -((int64_t)1 << (size * 8 - 1));
        int64_t hi = ((int64_t)1 << (size * 8)) - 1;
        if (v < lo || v > hi) {
            perr(P, nl->line, nl->column, "number out of range: %lld does not fit a .%s element", (long long)v,
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
        perr(P, s->line, s->column, "initialized variable '%s' is too large (%llu bytes)", s->name,
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
            err_expected(P, "'{' to initialize an array");
            free(buf);
            return 0;
        }
        numlit nl;
        if (at(P, TOK_IDENT)) {
            perr(P, cur(P)->line, cur(P)->column,
                 "unsupported initializer '%.*s': only numbers (no addresses of variables)",
                 (int)(cur(P)->len > 40 ? 40 : cur(P)->len), cur(P)->text);
            free(buf);
            return 0;
        }
        if (!parse_numlit(P, &nl) || !init_element(P, &nl, type, buf)) {
            free(buf);
            return 0;
        }
        s->init = buf;
        return 1;
    }
    if (!ndims) {
        perr(P, cur(P)->line, cur(P)->column, "a scalar variable takes a single value, not a list");
        free(buf);
        return 0;
    }
    do {
        ptx_token *t = cur(P);
        if (t->kind == TOK_LBRACE) {
            advance(P);
            if (depth >= ndims || depth >= MAX_INIT_DEPTH) {
                perr(P, t->line, t->column, "too many nested braces in the initializer of '%s'", s->name);
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
                err_expected(P, "',' or '}'");
                ok = 0;
                break;
            }
            if (at(P, TOK_COMMA)) {
                advance(P);
                if (at(P, TOK_RBRACE)) {
                    err_expected(P, "a value");
                    ok = 0;
                    break;
                }
            }
            continue;
        } else {
            if (t->kind == TOK_IDENT) {
                perr(P, t->line, t->column, "unsupported initializer '%.*s': only numbers (no addresses of variables)",
                     (int)(t->len > 40 ? 40 : t->len), t->text);
                ok = 0;
                break;
            }
            numlit nl;
            if (!parse_numlit(P, &nl)) {
                ok = 0;
                break;
            }
            if (!unsized && cursor >= total) {
                perr(P, nl.line, nl.column, "too many initializers for '%s' (%llu elements)", s->name,
                     (unsigned long long)total);
                ok = 0;
                break;
            }
            if (unsized && cursor >= bufcap) {
                uint64_t nc = bufcap ? bufcap * 2 : 64;
                while (nc <= cursor)
                    nc *= 2;
                if (nc * esize > MAX_INIT_BYTES) {
                    perr(P, nl.line, nl.column, "initializer of '%s' is too large", s->name);
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
                err_expected(P, "a value");
                ok = 0;
                break;
            }
        } else if (!at(P, TOK_RBRACE)) {
            err_expected(P, "',' or '}'");
            ok = 0;
            break;
        }
    } while (!P->stop && !at(P, TOK_EOF));
    if (ok && depth != 0) {
        err_expected(P, "'}'");
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
            perr(P, s->line, s->column, "'%s[]' needs at least one initializer", s->name);
            free(buf);
            return 0;
        }
        if (n > MAX_INIT_BYTES / esize) {
            perr(P, s->line, s->column, "initialized variable '%s' is too large", s->name);
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
static int parse_var_name(parser *P, const declspec *ds, int kind)
{
    ptx_token *name = cur(P);
    if (name->kind != TOK_IDENT) {
        err_expected(P, "a variable name");
        return -1;
    }
    advance(P);
    uint64_t dims[MAX_DIMS];
    int ndims, unsized;
    if (!parse_dims(P, dims, &ndims, &unsized))
        return -1;
    int idx = new_symbol(P, name);
    ptx_symbol *s = &P->m->symbols[idx];
    s->kind = (uint8_t)kind;
    s->space = (uint8_t)ds->space;
    s->type = (uint8_t)ds->type;
    s->is_extern = (uint8_t)ds->is_extern;
    s->visible = (uint8_t)ds->visible;
    s->managed = (uint8_t)ds->managed;
    s->is_array = ndims > 0;
    unsigned esize = ptx_types[ds->type].size;
    s->align = ds->align ? ds->align : esize;
    uint64_t elems = 1;
    for (int k = 0; k < ndims; k++) {
        if (dims[k] && elems > MAX_ARRAY_BYTES / dims[k]) {
            perr(P, name->line, name->column, "number out of range: '%s' is too large", s->name);
            return idx;
        }
        elems *= dims[k] ? dims[k] : 1;
    }
    s->size = unsized ? 0 : elems * esize;
    if (s->size > MAX_ARRAY_BYTES) {
        perr(P, name->line, name->column, "number out of range: '%s' is too large", s->name);
        return idx;
    }
    if (at(P, TOK_EQUAL)) {
        ptx_token *eq = advance(P);
        if (ds->is_extern) {
            perr(P, eq->line, eq->column, "an .extern variable cannot have an initializer");
            return idx;
        }
        if (ds->space != PTX_SPACE_GLOBAL && ds->space != PTX_SPACE_CONST) {
            perr(P, eq->line, eq->column, "only .global and .const variables can have initializers");
            return idx;
        }
        parse_initializer(P, s, dims, ndims, unsized);
        s = &P->m->symbols[idx];
    } else if (unsized && !(ds->is_extern && ds->space == PTX_SPACE_SHARED)) {
        if (!ds->is_extern) {
            perr(P, name->line, name->column,
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
        if (!declare(P, s->name, len, 1, idx))
            perr(P, s->line, s->column, "duplicate name '%s' in this scope", s->name);
        add_fn_item(P, PTX_ITEM_SYMBOL, idx, 1);
    } else {
        if (map_get(&P->modsyms, s->name, len) >= 0 || map_get(&P->modfuncs, s->name, len) >= 0)
            perr(P, s->line, s->column, "duplicate name '%s'", s->name);
        else
            map_put(&P->modsyms, s->name, len, idx);
        add_module_item(P, PTX_ITEM_SYMBOL, idx, 1);
    }
}

/* .global/.const/.shared/.local/.param declaration (the space token is current). */
static void parse_var_decl(parser *P, declspec ds)
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
        perr(P, sp->line, sp->column, ".param variables belong in a function");
        skip_statement(P);
        return;
    }
    if (!parse_decl_qualifiers(P, &ds, 0)) {
        skip_statement(P);
        return;
    }
    if (ds.managed && ds.space != PTX_SPACE_GLOBAL)
        perr(P, sp->line, sp->column, ".attribute(.managed) applies to .global variables only");
    for (;;) {
        int errs = P->errors;
        int idx = parse_var_name(P, &ds, PTX_SYM_VARIABLE);
        if (idx < 0) {
            skip_statement(P);
            return;
        }
        bind_symbol(P, idx);
        if (P->errors != errs) {
            skip_statement(P);
            return;
        }
        if (!accept(P, TOK_COMMA))
            break;
    }
    if (!expect(P, TOK_SEMI, "';'"))
        skip_statement(P);
}

/* ---- registers ------------------------------------------------------------ */

static int add_reg(parser *P, const char *name, size_t len, ptx_type type, int line, int col, int *dup)
{
    ptx_function *f = &P->m->functions[P->F.fn];
    if (f->reg_count >= MAX_FUNCTION_REGS) {
        perr(P, line, col, "too many registers in function '%s' (at most %d)", f->name, MAX_FUNCTION_REGS);
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
    if (!declare(P, name, len, 0, idx)) {
        if (!*dup)
            perr(P, line, col, "duplicate register '%.*s'", (int)len, name);
        *dup = 1;
    }
    return idx;
}

static void parse_reg_decl(parser *P)
{
    advance(P); /* .reg */
    declspec ds;
    memset(&ds, 0, sizeof ds);
    ds.space = PTX_SPACE_REG;
    if (at(P, TOK_DIRECTIVE) && (is_dir(cur(P), ".align"))) {
        perr(P, cur(P)->line, cur(P)->column, "registers take no alignment");
        skip_statement(P);
        return;
    }
    if (!parse_decl_qualifiers(P, &ds, 0)) {
        skip_statement(P);
        return;
    }
    for (;;) {
        ptx_token *name = cur(P);
        if (name->kind != TOK_IDENT || memchr(name->text, '.', name->len)) {
            err_expected(P, "a register name");
            skip_statement(P);
            return;
        }
        advance(P);
        if (at(P, TOK_LT)) {
            advance(P);
            ptx_token *n = cur(P);
            if (n->kind != TOK_INT) {
                err_expected(P, "a register count");
                skip_statement(P);
                return;
            }
            advance(P);
            if (n->bad) {
                P->errors++;
                skip_statement(P);
                return;
            }
            if (n->u == 0 || n->u > MAX_FUNCTION_REGS) {
                perr(P, n->line, n->column, "number out of range: register count %llu (1 to %d)",
                     (unsigned long long)n->u, MAX_FUNCTION_REGS);
                skip_statement(P);
                return;
            }
            if (!expect(P, TOK_GT, "'>'")) {
                skip_statement(P);
                return;
            }
            int first = -1;
            int count = (int)n->u;
            char buf[128];
            if (name->len > 100) {
                perr(P, name->line, name->column, "register name too long");
                skip_statement(P);
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
                add_fn_item(P, PTX_ITEM_REG, first, made);
        } else {
            int dup = 0;
            int r = add_reg(P, name->text, name->len, ds.type, name->line, name->column, &dup);
            if (r >= 0)
                add_fn_item(P, PTX_ITEM_REG, r, 1);
        }
        if (!accept(P, TOK_COMMA))
            break;
    }
    if (!expect(P, TOK_SEMI, "';'"))
        skip_statement(P);
}

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
        perr(P, t->line, t->column,
             "expected an integer offset, got '%.*s': an address is [register+offset] or [variable+offset] "
             "(take the variable's address with mov first)",
             (int)(t->len > 40 ? 40 : t->len), t->text);
        return 0;
    }
    if (t->kind != TOK_INT) {
        err_expected(P, "an integer offset");
        return 0;
    }
    advance(P);
    if (t->bad) {
        P->errors++;
        return 0;
    }
    numlit nl = {t, neg, t->line, t->column};
    return int_value(P, &nl, off);
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
                if (is_number_tok(e) || e->kind == TOK_MINUS)
                    perr(P, e->line, e->column, "vector elements must be registers");
                else
                    err_expected(P, "a register in the vector");
                return 0;
            }
            if (r->nelem >= PTX_MAX_VEC) {
                perr(P, e->line, e->column, "a vector has at most %d elements", PTX_MAX_VEC);
                return 0;
            }
            advance(P);
            r->elems[r->nelem++] = is_sink(e) ? NULL : e;
            if (accept(P, TOK_COMMA))
                continue;
            if (accept(P, TOK_RBRACE))
                break;
            err_expected(P, "',' or '}'");
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
        } else if (is_number_tok(b) || b->kind == TOK_MINUS) {
            if (!parse_numlit(P, &r->num))
                return 0;
            if (r->num.tok->kind != TOK_INT) {
                perr(P, r->num.line, r->num.column, "an address must be an integer");
                return 0;
            }
            r->addr_num = 1;
        } else {
            err_expected(P, "a register, variable or number in the address");
            return 0;
        }
        if (at(P, TOK_PLUS) || at(P, TOK_MINUS)) {
            if (!parse_offset(P, &r->off))
                return 0;
            r->has_off = 1;
        }
        if (!expect(P, TOK_RBRACKET, "']'"))
            return 0;
        return 1;
    }
    if (t->kind == TOK_BANG) {
        advance(P);
        if (cur(P)->kind != TOK_IDENT) {
            err_expected(P, "a predicate after '!'");
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
                err_expected(P, "a predicate after '|'");
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
    if (t->kind == TOK_MINUS || is_number_tok(t)) {
        r->kind = RO_NUM;
        return parse_numlit(P, &r->num);
    }
    err_expected(P, "an operand");
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

static void print_name(char *buf, size_t n, const ptx_token *t)
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
    const decl *d = lookup_local(P, t->text, t->len);
    if (d && !d->is_sym)
        return &P->m->functions[P->F.fn].regs[d->index];
    return NULL;
}

static int find_symbol(parser *P, const ptx_token *t)
{
    const decl *d = lookup_local(P, t->text, t->len);
    if (d)
        return d->is_sym ? d->index : -1;
    return map_get(&P->modsyms, t->text, t->len);
}

static void undefined_name(parser *P, const ptx_token *t)
{
    char nb[80];
    print_name(nb, sizeof nb, t);
    if (t->text[0] == '%') {
        static const char *const vec_sregs[] = {"%tid", "%ntid", "%ctaid", "%nctaid"};
        for (size_t i = 0; i < sizeof vec_sregs / sizeof vec_sregs[0]; i++)
            if (tok_is(t, vec_sregs[i])) {
                perr(P, t->line, t->column, "unsupported special register '%s' (read %s.x, %s.y or %s.z)", nb, nb, nb,
                     nb);
                return;
            }
        if (memchr(t->text, '.', t->len) || sreg_from_name(t) >= 0)
            perr(P, t->line, t->column, "unsupported special register '%s'", nb);
        else
            perr(P, t->line, t->column, "undefined register '%s'", nb);
    } else if (map_get(&P->modfuncs, t->text, t->len) >= 0) {
        perr(P, t->line, t->column, "'%s' is a function: function addresses are not supported", nb);
    } else {
        perr(P, t->line, t->column, "undefined identifier '%s'", nb);
    }
}

/* A register operand (value or predicate, per `type`). */
static int reg_operand(ictx *C, const ptx_token *t, ptx_type type, int allow_wider, ptx_operand *o, int negated)
{
    parser *P = C->P;
    char nb[80];
    print_name(nb, sizeof nb, t);
    const ptx_reg *r = find_reg(P, t);
    if (!r) {
        if (find_symbol(P, t) >= 0 || sreg_from_name(t) >= 0 || tok_is(t, "WARP_SZ"))
            perr(P, t->line, t->column, "'%s' is not a register (in '%s')", nb, C->spelling);
        else
            undefined_name(P, t);
        return 0;
    }
    if (type == PTX_PRED) {
        if (!r->is_pred) {
            perr(P, t->line, t->column, "expected a predicate register, got '%s' (.%s) in '%s'", nb,
                 ptx_types[r->type].name, C->spelling);
            return 0;
        }
        o->kind = PTX_OPD_PRED;
        o->reg = r->index;
        o->negated = (uint8_t)negated;
        return 1;
    }
    if (r->is_pred) {
        perr(P, t->line, t->column, "predicate '%s' used where a .%s value is expected in '%s'", nb,
             ptx_types[type].name, C->spelling);
        return 0;
    }
    if (!reg_fits((ptx_type)r->type, type, allow_wider)) {
        perr(P, t->line, t->column, "register '%s' is .%s: it does not fit a .%s operand of '%s'", nb,
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
            perr(P, r->line, r->column, "'%s' cannot pack or unpack a vector of %d (use mov.b32 or mov.b64)",
                 C->spelling, n);
            return 0;
        }
        unsigned es = size / (unsigned)n;
        et = es == 1 ? PTX_B8 : es == 2 ? PTX_B16 : es == 4 ? PTX_B32 : PTX_B64;
    } else if (n != in->vec || n == 1) {
        if (in->vec == 1)
            perr(P, r->line, r->column, "a vector operand needs .v2 or .v4 in '%s'", C->spelling);
        else
            perr(P, r->line, r->column, "'%s' needs a vector of %d registers, got %d", C->spelling, in->vec, n);
        return 0;
    }
    o->kind = PTX_OPD_VEC;
    o->count = (uint8_t)n;
    int sinks = 0;
    for (int i = 0; i < n; i++) {
        if (!r->elems[i]) {
            if (!is_dest) {
                perr(P, r->line, r->column, "'_' can only discard a result, not be a source");
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
            perr(P, r->line, r->column, "'%s' takes no vector operand here", C->spelling);
            return 0;
        }
        return vec_operand(C, r, type, 0, o);
    }
    if (in->vec > 1 && sl->braces && in->opcode != OP_mov) {
        perr(P, r->line, r->column, "'%s' needs a vector of %d registers", C->spelling, in->vec);
        return 0;
    }
    if (r->kind == RO_SINK) {
        perr(P, r->line, r->column, "'_' can only discard a result, not be a source");
        return 0;
    }
    if (r->kind == RO_ADDR) {
        perr(P, r->line, r->column, "unexpected address operand in '%s'", C->spelling);
        return 0;
    }
    if (r->has_pipe) {
        perr(P, r->line, r->column, "unexpected '|' in a source operand of '%s'", C->spelling);
        return 0;
    }
    if (r->negated && sl->letter != 'p' && type != PTX_PRED) {
        perr(P, r->line, r->column, "'!' negates a predicate source only (in '%s')", C->spelling);
        return 0;
    }
    if (r->kind == RO_NUM) {
        if (sl->letter == 'p') {
            perr(P, r->line, r->column, "expected a predicate register, got a number in '%s'", C->spelling);
            return 0;
        }
        int64_t v;
        if (!literal_bits(P, &r->num, type, &v, ""))
            return 0;
        o->kind = PTX_OPD_IMM;
        o->imm = v;
        return 1;
    }
    /* a name */
    const ptx_token *t = r->name;
    print_name(nb, sizeof nb, t);
    if (sl->letter == 'p' || type == PTX_PRED) {
        if (r->has_off) {
            perr(P, r->line, r->column, "unexpected offset after '%s'", nb);
            return 0;
        }
        return reg_operand(C, t, PTX_PRED, 0, o, r->negated);
    }
    if (find_reg(P, t)) {
        if (r->has_off) {
            perr(P, r->line, r->column, "unexpected offset after register '%s' (only addresses take one)", nb);
            return 0;
        }
        return reg_operand(C, t, type, allow_wider_regs(in), o, 0);
    }
    if (tok_is(t, "WARP_SZ") && !lookup_local(P, t->text, t->len)) {
        if (r->has_off) {
            perr(P, r->line, r->column, "unexpected offset after '%s'", nb);
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
        if (!literal_bits(P, &nl, type, &v, ""))
            return 0;
        o->kind = PTX_OPD_IMM;
        o->imm = v;
        return 1;
    }
    int sr = t->text[0] == '%' ? sreg_from_name(t) : -1;
    if (sr >= 0) {
        if (r->has_off) {
            perr(P, r->line, r->column, "unexpected offset after '%s'", nb);
            return 0;
        }
        if (in->opcode != OP_mov && in->opcode != OP_cvt) {
            perr(P, t->line, t->column, "special register '%s' can only be read with mov or cvt, not '%s'", nb,
                 C->spelling);
            return 0;
        }
        unsigned ssize = sr == PTX_SREG_CLOCK64 ? 8 : 4;
        if (ptx_types[type].kind == PTX_KIND_FLOAT || ptx_types[type].size > ssize) {
            perr(P, t->line, t->column, "special register '%s' is %u-bit: it does not fit a .%s operand", nb,
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
            perr(P, t->line, t->column, "the address of '%s' can only be taken with mov or cvta, not '%s'", nb,
                 C->spelling);
            return 0;
        }
        unsigned size = ptx_types[type].size;
        if ((size != 4 && size != 8) || ptx_types[type].kind == PTX_KIND_FLOAT) {
            perr(P, t->line, t->column, "the address of '%s' needs a .u32 or .u64 operand", nb);
            return 0;
        }
        if (in->opcode == OP_cvta && !(in->flags & PTX_FLAG_TO) && in->space != PTX_SPACE_GENERIC &&
            P->m->symbols[sym].space != in->space) {
            perr(P, t->line, t->column, "'%s' is a .%s variable, not .%s (in '%s')", nb,
                 ptx_space_names[P->m->symbols[sym].space], ptx_space_names[in->space], C->spelling);
            return 0;
        }
        o->kind = PTX_OPD_SYMBOL;
        o->symbol = sym;
        o->imm = r->has_off ? r->off : 0;
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
            perr(P, r->line, r->column, "'%s' takes no vector operand here", C->spelling);
            return 0;
        }
        return vec_operand(C, r, type, 1, o);
    }
    if (in->vec > 1 && sl->braces && in->opcode != OP_mov) {
        perr(P, r->line, r->column, "'%s' needs a vector of %d registers", C->spelling, in->vec);
        return 0;
    }
    if (r->kind == RO_SINK) {
        perr(P, r->line, r->column, "'_' cannot be the destination of '%s'", C->spelling);
        return 0;
    }
    if (r->kind != RO_NAME || r->negated || r->has_off) {
        perr(P, r->line, r->column, "the destination of '%s' must be a register", C->spelling);
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
        perr(P, r->line, r->column, "'%s' expects an address [...] here", C->spelling);
        return 0;
    }
    o->kind = PTX_OPD_ADDR;
    o->imm = r->has_off ? r->off : 0;
    if (r->addr_num) {
        int64_t v;
        if (!int_value(P, &r->num, &v))
            return 0;
        o->imm += v;
        return 1;
    }
    const ptx_token *t = r->name;
    print_name(nb, sizeof nb, t);
    const ptx_reg *reg = find_reg(P, t);
    if (reg) {
        if (reg->is_pred || ptx_types[reg->type].kind == PTX_KIND_FLOAT ||
            (ptx_types[reg->type].size != 4 && ptx_types[reg->type].size != 8)) {
            perr(P, t->line, t->column, "address register '%s' must be a 32- or 64-bit integer, not .%s", nb,
                 ptx_types[reg->type].name);
            return 0;
        }
        if (ptx_types[reg->type].size == 4 && P->m->address_size != 32 && in->space != PTX_SPACE_SHARED &&
            in->space != PTX_SPACE_LOCAL) {
            perr(P, t->line, t->column,
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
            perr(P, t->line, t->column, "'%s' is a .%s variable, not .%s (in '%s')", nb, ptx_space_names[s->space],
                 ptx_space_names[in->space], C->spelling);
            return 0;
        }
        if (in->space == PTX_SPACE_GENERIC && s->space == PTX_SPACE_PARAM) {
            perr(P, t->line, t->column, "parameter '%s' is read with ld.param", nb);
            return 0;
        }
        o->symbol = sym;
        return 1;
    }
    if (sreg_from_name(t) >= 0) {
        perr(P, t->line, t->column, "special register '%s' cannot be an address", nb);
        return 0;
    }
    undefined_name(P, t);
    return 0;
}

static int label_operand(ictx *C, const rawop *r, ptx_operand *o)
{
    parser *P = C->P;
    if (r->kind != RO_NAME || r->negated || r->has_off || r->has_pipe) {
        perr(P, r->line, r->column, "'%s' expects a label", C->spelling);
        return 0;
    }
    const ptx_token *t = r->name;
    if (find_reg(P, t) || find_symbol(P, t) >= 0 || sreg_from_name(t) >= 0) {
        char nb[80];
        print_name(nb, sizeof nb, t);
        perr(P, t->line, t->column, "'%s' expects a label, got '%s' (indirect branches are not supported)",
             C->spelling, nb);
        return 0;
    }
    ptx_function *f = &P->m->functions[P->F.fn];
    int li = map_get(&P->F.labels, t->text, t->len);
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
        map_put(&P->F.labels, t->text, t->len, li);
    }
    o->kind = PTX_OPD_LABEL;
    o->reg = li;
    return 1;
}

/* Modifier groups whose instructions need one of their modes (a comparison: in->cmp, else in->mode). */
static const struct { uint32_t group; const char *what; } required_modes[] = {
    {MG_CMP, "a comparison such as .lt"},
    {MG_SHFL, "a mode (.up .down .bfly .idx)"},
    {MG_VOTE, "a mode (.all .any .uni .ballot)"},
    {MG_ATOM, "an operation such as .add"},
    {MG_BARRED, "an operation (.popc .and .or)"},
    {MG_SHF, "a direction (.l or .r)"},
};

static int is_float(const ptx_instr *in) { return ptx_types[in->type].kind == PTX_KIND_FLOAT; }
static int lacks_int_mulmode(const ptx_instr *in) { return !is_float(in) && !in->mode; }
static int lacks_mode(const ptx_instr *in) { return !in->mode; }
static int lacks_level(const ptx_instr *in) { return !in->scope; }
static int float_mulmode(const ptx_instr *in) { return in->mode && is_float(in); }
static int wide_64(const ptx_instr *in) { return in->mode == PTX_MUL_WIDE && ptx_types[in->type].size == 8; }
static int popc_pred(const ptx_instr *in) { return in->type == PTX_PRED && in->mode == PTX_BARRED_POPC; }
static int andor_u32(const ptx_instr *in) { return in->type == PTX_U32 && in->mode != PTX_BARRED_POPC; }
static int ballot_type(const ptx_instr *in) { return (in->mode == PTX_VOTE_BALLOT) != (in->type == PTX_B32); }

/* What the R_* rules of isa/opcodes.def check, in this order: first the modes
 * an instruction cannot do without ("'%s' needs <missing>"), then the
 * combinations it refuses (message, given the instruction's text). */
static const struct {
    uint32_t rule;
    int (*broken)(const ptx_instr *in);
    const char *missing, *message;
} rule_checks[] = {
    {R_INT_MULMODE, lacks_int_mulmode, "a mode (.lo .hi .wide)", NULL},
    {R_HALF_MODE, lacks_mode, "a mode (.lo .hi)", NULL},
    {R_LEVEL, lacks_level, "a level (.cta .gl .sys)", NULL},
    {R_INT_MULMODE, float_mulmode, NULL, "unsupported modifier in '%s': .lo/.hi/.wide are for integers"},
    {R_INT_MULMODE, wide_64, NULL, "'%s': .wide takes a 16- or 32-bit type"},
    {R_BARRED_TYPE, popc_pred, NULL, "'%s': .popc gives a .u32 count"},
    {R_BARRED_TYPE, andor_u32, NULL, "'%s': .and and .or give a .pred"},
    {R_VOTE_TYPE, ballot_type, NULL, "'%s': vote.ballot takes .b32, the others .pred"},
};

/* Decode the dotted opcode spelling into in->opcode, type, modifiers. */
static int decode_opcode(parser *P, const ptx_token *t, ptx_instr *in)
{
    char text[256];
    if (t->len >= sizeof text) {
        perr(P, t->line, t->column, "unsupported instruction '%.64s...'", t->text);
        return 0;
    }
    memcpy(text, t->text, t->len);
    text[t->len] = 0;
    /* component boundaries */
    int ncomp = 0;
    int starts[64], lens[64];
    {
        int i = 0, n = (int)t->len;
        while (i <= n && ncomp < 64) {
            int j = i;
            while (j < n && text[j] != '.')
                j++;
            starts[ncomp] = i;
            lens[ncomp] = j - i;
            ncomp++;
            i = j + 1;
            if (j >= n)
                break;
        }
        if (i <= n && ncomp >= 64) {
            perr(P, t->line, t->column, "unsupported instruction '%.64s'", text);
            return 0;
        }
    }
    int op = -1, used = 0;
    uint32_t rules = 0;
    for (int k = ncomp; k >= 1 && op < 0; k--) {
        size_t plen = (size_t)(starts[k - 1] + lens[k - 1]);
        for (int o = 0; o < OP_COUNT; o++) {
            if (strlen(ptx_opcodes[o].spelling) == plen && memcmp(ptx_opcodes[o].spelling, text, plen) == 0) {
                op = o;
                used = k;
                rules = ptx_opcodes[o].rules;
                break;
            }
        }
        if (op < 0) {
            for (size_t a = 0; a < ptx_opcode_alias_count; a++) {
                if (strlen(ptx_opcode_aliases[a].spelling) == plen &&
                    memcmp(ptx_opcode_aliases[a].spelling, text, plen) == 0) {
                    op = (int)ptx_opcode_aliases[a].op;
                    used = k;
                    rules = (ptx_opcodes[op].rules & ~(uint32_t)R_IMPLIED_SYNC) | ptx_opcode_aliases[a].rules;
                    break;
                }
            }
        }
    }
    if (op < 0) {
        perr(P, t->line, t->column, "unsupported instruction '%s'", text);
        return 0;
    }
    const ptx_opcode_info *info = &ptx_opcodes[op];
    in->opcode = (uint16_t)op;
    in->vec = 1;
    if (rules & R_IMPLIED_SYNC)
        in->flags |= PTX_FLAG_SYNC;
    int ok = 1;
    int seen_space = 0, seen_vec = 0, seen_cmp = 0, seen_bool = 0, seen_mode = 0, seen_rnd = 0;
    int seen_sem = 0, seen_scope = 0, seen_cop = 0, seen_wrap = 0;
    for (int c = used; c < ncomp; c++) {
        const char *mod = text + starts[c];
        size_t ml = (size_t)lens[c];
        if (ml == 0) {
            perr(P, t->line, t->column, "unsupported instruction '%s' (empty modifier)", text);
            return 0;
        }
        ptx_type ty = ptx_type_from_name(mod, ml);
        if (ty != PTX_TYPE_NONE) {
            if (in->type == PTX_TYPE_NONE && info->types) {
                in->type = (uint8_t)ty;
                continue;
            }
            if (in->type != PTX_TYPE_NONE && in->type2 == PTX_TYPE_NONE && (info->groups & MG_TYPE2)) {
                in->type2 = (uint8_t)ty;
                continue;
            }
            perr(P, t->line, t->column, "unsupported modifier '.%.*s' in '%s'", (int)ml, mod, text);
            ok = 0;
            continue;
        }
        const ptx_modifier *md = NULL;
        for (size_t i = 0; i < ptx_modifier_count; i++) {
            if ((ptx_modifiers[i].group & info->groups) && strlen(ptx_modifiers[i].name) == ml &&
                memcmp(ptx_modifiers[i].name, mod, ml) == 0) {
                md = &ptx_modifiers[i];
                break;
            }
        }
        if (!md) {
            perr(P, t->line, t->column, "unsupported modifier '.%.*s' in '%s'", (int)ml, mod, text);
            ok = 0;
            continue;
        }
        int dup = 0;
        switch (md->group) {
        case MG_SPACE:
            dup = seen_space++;
            in->space = md->value;
            break;
        case MG_VEC:
            dup = seen_vec++;
            in->vec = md->value;
            break;
        case MG_CACHE:
        case MG_ORDER:
            if (md->value == PTX_QUAL_VOLATILE)
                in->flags |= PTX_FLAG_VOLATILE;
            else if (md->value == PTX_QUAL_NC)
                in->flags |= PTX_FLAG_NC;
            else if (md->value & PTX_QUAL_SEM) {
                dup = seen_sem++;
                in->sem = md->value & 0x0f;
            } else if (md->value & PTX_QUAL_SCOPE) {
                dup = seen_scope++;
                in->scope = md->value & 0x0f;
            } else if (md->value & PTX_QUAL_COP) {
                dup = seen_cop++;
                in->cache_op = md->value & 0x0f;
            }
            break;
        case MG_TO: in->flags |= PTX_FLAG_TO; break;
        case MG_ROUND:
            dup = seen_rnd++;
            in->rounding = md->value;
            break;
        case MG_FTZ: in->flags |= PTX_FLAG_FTZ; break;
        case MG_SAT: in->flags |= PTX_FLAG_SAT; break;
        case MG_CC: in->flags |= PTX_FLAG_CC; break;
        case MG_APPROX: in->flags |= PTX_FLAG_APPROX; break;
        case MG_FULL: in->flags |= PTX_FLAG_FULL; break;
        case MG_NAN: in->flags |= PTX_FLAG_NAN; break;
        case MG_UNI: in->flags |= PTX_FLAG_UNI; break;
        case MG_SYNC: in->flags |= PTX_FLAG_SYNC; break;
        case MG_SHIFTAMT: in->flags |= PTX_FLAG_SHIFTAMT; break;
        case MG_CMP:
            dup = seen_cmp++;
            in->cmp = md->value;
            break;
        case MG_BOOLOP:
            dup = seen_bool++;
            in->boolop = md->value;
            break;
        case MG_SHF:
            if (md->value) {
                dup = seen_mode++;
                in->mode = md->value;
            } else {
                dup = seen_wrap++;
                if (ml == 5 && memcmp(mod, "clamp", 5) == 0)
                    in->flags |= PTX_FLAG_CLAMP;
            }
            break;
        default: /* MULMODE BARRED VOTE SHFL ATOM PRMT */
            dup = seen_mode++;
            in->mode = md->value;
            break;
        }
        if (dup) {
            perr(P, t->line, t->column, "conflicting modifier '.%.*s' in '%s'", (int)ml, mod, text);
            ok = 0;
        }
    }
    if (!ok)
        return 0;
    const char *name = info->spelling;
    if (info->types) {
        if (in->type == PTX_TYPE_NONE) {
            perr(P, t->line, t->column, "missing type in '%s' (%s takes a type such as .%s)", text, name,
                 (info->types & TY_BIT(PTX_S32)) ? "s32" : (info->types & TY_BIT(PTX_B32)) ? "b32"
                 : (info->types & TY_BIT(PTX_F32)) ? "f32" : (info->types & TY_BIT(PTX_U32)) ? "u32" : "pred");
            return 0;
        }
        if (!(info->types & TY_BIT(in->type))) {
            perr(P, t->line, t->column, "unsupported type '.%s' in '%s'", ptx_types[in->type].name, text);
            return 0;
        }
        if ((info->groups & MG_TYPE2) && in->type2 == PTX_TYPE_NONE) {
            perr(P, t->line, t->column, "missing source type in '%s' (e.g. cvt.f32.s32)", text);
            return 0;
        }
        if (in->type2 != PTX_TYPE_NONE && (in->type2 == PTX_PRED || !(info->types & TY_BIT(in->type2)))) {
            perr(P, t->line, t->column, "unsupported type '.%s' in '%s'", ptx_types[in->type2].name, text);
            return 0;
        }
    }
    /* modes some modifier groups and opcodes cannot do without */
    const char *missing = NULL;
    for (size_t i = 0; i < sizeof required_modes / sizeof required_modes[0] && !missing; i++)
        if ((info->groups & required_modes[i].group) && !(required_modes[i].group == MG_CMP ? in->cmp : in->mode))
            missing = required_modes[i].what;
    for (size_t i = 0; i < sizeof rule_checks / sizeof rule_checks[0] && !missing; i++)
        if ((rules & rule_checks[i].rule) && rule_checks[i].missing && rule_checks[i].broken(in))
            missing = rule_checks[i].missing;
    if (missing) {
        perr(P, t->line, t->column, "'%s' needs %s", text, missing);
        return 0;
    }
    for (size_t i = 0; i < sizeof rule_checks / sizeof rule_checks[0]; i++)
        if ((rules & rule_checks[i].rule) && !rule_checks[i].missing && rule_checks[i].broken(in)) {
            perr(P, t->line, t->column, rule_checks[i].message, text);
            return 0;
        }
    if (in->vec > 1 && (ptx_types[in->type].size * in->vec > 16)) {
        perr(P, t->line, t->column, "'%s': a vector access is at most 16 bytes", text);
        return 0;
    }
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
    if (!expect(P, TOK_LPAREN, "'('"))
        return -1;
    if (accept(P, TOK_RPAREN))
        return 0;
    for (;;) {
        ptx_token *t = cur(P);
        char nb[80];
        if (t->kind != TOK_IDENT) {
            if (is_number_tok(t) || t->kind == TOK_MINUS)
                perr(P, t->line, t->column, "call %s must be .param variables, not immediates", what);
            else
                err_expected(P, "a .param variable");
            return -1;
        }
        advance(P);
        print_name(nb, sizeof nb, t);
        int sym = find_symbol(P, t);
        if (sym < 0) {
            if (find_reg(P, t))
                perr(P, t->line, t->column, "call %s must be .param variables, not registers ('%s')", what, nb);
            else
                undefined_name(P, t);
            return -1;
        }
        if (P->m->symbols[sym].space != PTX_SPACE_PARAM) {
            perr(P, t->line, t->column, "call %s must be .param variables; '%s' is .%s", what, nb,
                 ptx_space_names[P->m->symbols[sym].space]);
            return -1;
        }
        if (count >= MAX_CALL_ARGS) {
            perr(P, t->line, t->column, "too many call %s", what);
            return -1;
        }
        add_call_symbol(P, &P->m->functions[P->F.fn], sym);
        count++;
        if (accept(P, TOK_COMMA))
            continue;
        if (accept(P, TOK_RPAREN))
            return count;
        err_expected(P, "',' or ')'");
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
        if (!expect(P, TOK_COMMA, "',' after the call results"))
            return 0;
    }
    f = &P->m->functions[P->F.fn];
    ptx_token *callee = cur(P);
    if (callee->kind != TOK_IDENT) {
        err_expected(P, "the name of the function to call");
        return 0;
    }
    advance(P);
    if (find_reg(P, callee)) {
        perr(P, callee->line, callee->column, "unsupported: indirect calls through a register");
        return 0;
    }
    c.arg_first = f->call_symbol_count;
    if (accept(P, TOK_COMMA)) {
        int n = parse_call_list(P, f, "arguments");
        if (n < 0)
            return 0;
        c.arg_count = n;
        if (at(P, TOK_COMMA)) {
            perr(P, cur(P)->line, cur(P)->column, "unsupported: indirect calls with a prototype");
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

static void parse_instruction(parser *P)
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
            err_expected(P, "a predicate after '@'");
            skip_statement(P);
            return;
        }
        advance(P);
        const ptx_reg *r = find_reg(P, g);
        char nb[80];
        print_name(nb, sizeof nb, g);
        if (!r) {
            undefined_name(P, g);
            ok = 0;
        } else if (!r->is_pred) {
            perr(P, g->line, g->column, "guard '%s' is not a predicate register", nb);
            ok = 0;
        } else {
            in.guard = (int16_t)r->index;
            in.guard_negated = (uint8_t)neg;
        }
    }
    ptx_token *opt = cur(P);
    if (opt->kind != TOK_IDENT) {
        err_expected(P, "an instruction");
        skip_statement(P);
        return;
    }
    advance(P);
    in.line = opt->line;
    in.column = opt->column;
    char spelling[128];
    snprintf(spelling, sizeof spelling, "%.*s", (int)(opt->len > 100 ? 100 : opt->len), opt->text);
    C.spelling = spelling;
    if (!decode_opcode(P, opt, &in)) {
        skip_statement(P);
        return;
    }
    const ptx_opcode_info *info = &ptx_opcodes[in.opcode];
    C.opname = info->spelling;

    if (in.opcode == OP_call) {
        if (!parse_call(P, &in)) {
            skip_statement(P);
            return;
        }
    } else {
        rawop raw[MAX_RAW_OPERANDS];
        int nraw = 0;
        if (!at(P, TOK_SEMI)) {
            for (;;) {
                if (nraw >= MAX_RAW_OPERANDS) {
                    perr(P, cur(P)->line, cur(P)->column, "too many operands for '%s'", info->spelling);
                    skip_statement(P);
                    return;
                }
                if (!parse_rawop(P, &raw[nraw])) {
                    skip_statement(P);
                    return;
                }
                nraw++;
                if (accept(P, TOK_COMMA))
                    continue;
                break;
            }
        }
        if (!at(P, TOK_SEMI)) {
            err_expected(P, "',' or ';'");
            skip_statement(P);
            return;
        }
        slot slots[PTX_MAX_OPERANDS];
        int nslots = parse_shape(info->shape, slots);
        int required = 0;
        for (int i = 0; i < nslots; i++)
            required += !slots[i].optional;
        if (nraw < required || nraw > nslots) {
            if (required == nslots)
                perr(P, opt->line, opt->column, "'%s' expects %d operand%s, got %d", info->spelling, required,
                     required == 1 ? "" : "s", nraw);
            else
                perr(P, opt->line, opt->column, "'%s' expects %d to %d operands, got %d", info->spelling, required,
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
                perr(P, r->line, r->column, "'%s' takes no second destination ('|')", info->spelling);
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
            perr(P, raw[4].line, raw[4].column, "the truth table of lop3 must be an immediate");
            ok = 0;
        }
        if (ok && in.opcode == OP_mov && in.operand[0].kind == PTX_OPD_VEC && in.operand[1].kind == PTX_OPD_VEC) {
            perr(P, raw[0].line, raw[0].column, "mov cannot copy a vector to a vector");
            ok = 0;
        }
    }
    if (!expect(P, TOK_SEMI, "';'")) {
        skip_statement(P);
        return;
    }
    if (!ok)
        return;
    ptx_function *f = &P->m->functions[P->F.fn];
    GROW(f->instrs, f->instr_count, P->F.instr_cap);
    f->instrs[f->instr_count++] = in;
}

static void define_label(parser *P, ptx_token *t)
{
    ptx_function *f = &P->m->functions[P->F.fn];
    int li = map_get(&P->F.labels, t->text, t->len);
    if (li >= 0) {
        ptx_label *l = &f->labels[li];
        if (l->instr >= 0) {
            perr(P, t->line, t->column, "duplicate label '%.*s' (first defined at line %d)", (int)t->len, t->text,
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
    map_put(&P->F.labels, t->text, t->len, li);
}

/* ---- functions ------------------------------------------------------------ */

static void reset_fstate(parser *P)
{
    fstate *F = &P->F;
    map_free(&F->names);
    map_free(&F->labels);
    free(F->decls);
    free(F->label_use_line);
    free(F->label_use_col);
    memset(F, 0, sizeof *F);
    F->fn = -1;
}

static void finish_function_body(parser *P)
{
    ptx_function *f = &P->m->functions[P->F.fn];
    /* labels */
    for (int i = 0; i < f->label_count; i++) {
        if (f->labels[i].instr < 0) {
            perr(P, P->F.label_use_line[i], P->F.label_use_col[i], "undefined label '%s'", f->labels[i].name);
            f->labels[i].instr = f->instr_count;
            f->labels[i].line = P->F.label_use_line[i];
            f->labels[i].column = P->F.label_use_col[i];
        }
    }
    for (int i = 0; i < f->instr_count; i++)
        for (int k = 0; k < f->instrs[i].operand_count; k++)
            if (f->instrs[i].operand[k].kind == PTX_OPD_LABEL)
                f->instrs[i].operand[k].imm = f->labels[f->instrs[i].operand[k].reg].instr;
    /* register types */
    f->value_reg_type = xrealloc(NULL, (size_t)(f->value_reg_count ? f->value_reg_count : 1));
    for (int i = 0; i < f->reg_count; i++)
        if (!f->regs[i].is_pred)
            f->value_reg_type[f->regs[i].index] = f->regs[i].type;
    /* the per-thread frame: .local variables and call-scope .param variables */
    uint64_t off = 0;
    for (int i = 0; i < P->m->symbol_count; i++) {
        ptx_symbol *s = &P->m->symbols[i];
        if (s->function != P->F.fn || s->kind != PTX_SYM_VARIABLE)
            continue;
        if (s->space != PTX_SPACE_LOCAL && s->space != PTX_SPACE_PARAM)
            continue;
        off = align_up(off, s->align);
        s->offset = off;
        off += s->size;
    }
    f->local_size = off;
}

/* Parameter list: ( .param ... , ... ); kind PTX_SYM_PARAM or PTX_SYM_RETURN. */
static int parse_param_list(parser *P, int kind, int32_t **out, int32_t *count, int is_entry)
{
    int cap = 0;
    *out = NULL;
    *count = 0;
    if (!expect(P, TOK_LPAREN, "'('"))
        return 0;
    if (accept(P, TOK_RPAREN))
        return 1;
    for (;;) {
        ptx_token *t = cur(P);
        if (!is_dir(t, ".param")) {
            if (is_dir(t, ".reg"))
                perr(P, t->line, t->column, "unsupported: .reg parameters (use .param)");
            else
                err_expected(P, ".param");
            return 0;
        }
        advance(P);
        declspec ds;
        memset(&ds, 0, sizeof ds);
        ds.space = PTX_SPACE_PARAM;
        if (!parse_decl_qualifiers(P, &ds, is_entry))
            return 0;
        int idx = parse_var_name(P, &ds, kind);
        if (idx < 0)
            return 0;
        if (P->m->symbols[idx].size == 0) {
            perr(P, P->m->symbols[idx].line, P->m->symbols[idx].column, "a parameter needs a size");
            return 0;
        }
        if (P->m->symbols[idx].init) {
            perr(P, P->m->symbols[idx].line, P->m->symbols[idx].column, "a parameter cannot have an initializer");
            return 0;
        }
        GROW(*out, *count, cap);
        (*out)[(*count)++] = idx;
        if (accept(P, TOK_COMMA))
            continue;
        if (accept(P, TOK_RPAREN))
            return 1;
        err_expected(P, "',' or ')'");
        return 0;
    }
}

static int parse_perf_value(parser *P, uint32_t *v)
{
    ptx_token *t = cur(P);
    if (t->kind != TOK_INT) {
        err_expected(P, "a number");
        return 0;
    }
    advance(P);
    if (t->bad) {
        P->errors++;
        return 0;
    }
    if (t->u == 0 || t->u > 0xffffffffu) {
        perr(P, t->line, t->column, "number out of range: %llu", (unsigned long long)t->u);
        return 0;
    }
    *v = (uint32_t)t->u;
    return 1;
}

static int params_compatible(parser *P, const int32_t *a, int na, const int32_t *b, int nb)
{
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        const ptx_symbol *x = &P->m->symbols[a[i]], *y = &P->m->symbols[b[i]];
        if (x->size != y->size || x->type != y->type || x->is_array != y->is_array)
            return 0;
    }
    return 1;
}

static void layout_params(parser *P, ptx_function *f)
{
    uint64_t off = 0;
    for (int pass = 0; pass < 2; pass++) {
        int32_t *list = pass ? f->returns : f->params;
        int n = pass ? f->return_count : f->param_count;
        for (int i = 0; i < n; i++) {
            ptx_symbol *s = &P->m->symbols[list[i]];
            off = align_up(off, s->align);
            s->offset = off;
            off += s->size;
        }
    }
    /* a .func's .local frame follows its parameter frame: keep it 16-byte aligned */
    f->param_size = f->is_entry ? off : align_up(off, 16);
    /* the launch copies a kernel's parameters into one host buffer: a bound keeps that small */
    if (f->is_entry && off > MAX_KERNEL_PARAM_BYTES)
        perr(P, f->line, f->column, "kernel '%s' has %llu bytes of parameters; PTX allows at most %d", f->name,
             (unsigned long long)off, MAX_KERNEL_PARAM_BYTES);
}

static void parse_body(parser *P);

static void parse_function(parser *P, int visible, int is_extern, int is_weak)
{
    ptx_token *kw = advance(P);
    int is_entry = is_dir(kw, ".entry");
    int32_t *rets = NULL, *params = NULL;
    int32_t nrets = 0, nparams = 0;
    int first_sym = P->m->symbol_count;
    if (!is_entry && at(P, TOK_LPAREN)) {
        if (!parse_param_list(P, PTX_SYM_RETURN, &rets, &nrets, 0))
            goto fail;
    }
    ptx_token *name = cur(P);
    if (name->kind != TOK_IDENT) {
        err_expected(P, "a function name");
        goto fail;
    }
    advance(P);
    if (at(P, TOK_LPAREN)) {
        if (!parse_param_list(P, PTX_SYM_PARAM, &params, &nparams, is_entry))
            goto fail;
    }
    uint32_t maxntid[3] = {0, 0, 0}, reqntid[3] = {0, 0, 0}, minncta = 0, maxnreg = 0, maxncta = 0;
    for (;;) {
        ptx_token *d = cur(P);
        if (is_dir(d, ".maxntid") || is_dir(d, ".reqntid")) {
            advance(P);
            uint32_t v[3] = {1, 1, 1};
            for (int i = 0; i < 3; i++) {
                if (!parse_perf_value(P, &v[i]))
                    goto fail;
                if (!accept(P, TOK_COMMA))
                    break;
            }
            memcpy(is_dir(d, ".maxntid") ? maxntid : reqntid, v, sizeof v);
        } else if (is_dir(d, ".minnctapersm")) {
            advance(P);
            if (!parse_perf_value(P, &minncta))
                goto fail;
        } else if (is_dir(d, ".maxnctapersm")) {
            advance(P);
            if (!parse_perf_value(P, &maxncta))
                goto fail;
        } else if (is_dir(d, ".maxnreg")) {
            advance(P);
            if (!parse_perf_value(P, &maxnreg))
                goto fail;
        } else if (is_dir(d, ".noreturn")) {
            advance(P);
        } else {
            break;
        }
    }
    int has_body = at(P, TOK_LBRACE);
    if (!has_body && !at(P, TOK_SEMI)) {
        err_expected(P, "'{' or ';' after the function header");
        goto fail;
    }
    if (has_body && is_extern) {
        perr(P, name->line, name->column, "an .extern function cannot have a body");
        goto fail;
    }

    /* a new function, or the definition of one declared before */
    ptx_module *m = P->m;
    int fi = map_get(&P->modfuncs, name->text, name->len);
    char nb[80];
    print_name(nb, sizeof nb, name);
    if (fi < 0 && map_get(&P->modsyms, name->text, name->len) >= 0) {
        perr(P, name->line, name->column, "duplicate name '%s' (a variable has it)", nb);
        goto fail;
    }
    if (fi >= 0) {
        ptx_function *old = &m->functions[fi];
        if (old->is_entry != is_entry || !params_compatible(P, old->params, old->param_count, params, nparams) ||
            !params_compatible(P, old->returns, old->return_count, rets, nrets)) {
            perr(P, name->line, name->column, "'%s' does not match its earlier declaration at line %d", nb,
                 old->line);
            goto fail;
        }
        if (old->defined && has_body) {
            perr(P, name->line, name->column, "duplicate function '%s' (defined at line %d)", nb, old->line);
            goto fail;
        }
        /* keep the earlier parameter symbols, renamed as written here */
        for (int pass = 0; pass < 2; pass++) {
            int32_t *ol = pass ? old->returns : old->params, *nl = pass ? rets : params;
            int n = pass ? nrets : nparams;
            for (int i = 0; i < n; i++) {
                ptx_symbol *os = &m->symbols[ol[i]], *ns = &m->symbols[nl[i]];
                free(os->name);
                os->name = ns->name;
                ns->name = NULL;
                os->line = ns->line;
                os->column = ns->column;
                os->align = ns->align;
            }
        }
        for (int i = first_sym; i < m->symbol_count; i++) {
            free(m->symbols[i].name);
            free(m->symbols[i].init);
        }
        m->symbol_count = first_sym;
        free(params);
        free(rets);
        params = rets = NULL;
        if (has_body) {
            old->defined = 1;
            old->visible = (uint8_t)visible;
            old->is_extern = 0;
            old->is_weak = (uint8_t)is_weak;
            old->line = name->line;
            old->column = name->column;
        }
        layout_params(P, old);
    } else {
        GROW(m->functions, m->function_count, P->fn_cap);
        fi = m->function_count++;
        ptx_function *f = &m->functions[fi];
        memset(f, 0, sizeof *f);
        f->name = xstrndup(name->text, name->len);
        f->is_entry = (uint8_t)is_entry;
        f->visible = (uint8_t)visible;
        f->is_extern = (uint8_t)is_extern;
        f->is_weak = (uint8_t)is_weak;
        f->defined = (uint8_t)has_body;
        f->params = params;
        f->param_count = nparams;
        f->returns = rets;
        f->return_count = nrets;
        params = rets = NULL;
        f->line = name->line;
        f->column = name->column;
        for (int i = first_sym; i < m->symbol_count; i++)
            m->symbols[i].function = fi;
        layout_params(P, f);
        map_put(&P->modfuncs, name->text, name->len, fi);
    }
    ptx_function *f = &m->functions[fi];
    if (has_body || !f->defined) {
        memcpy(f->maxntid, maxntid, sizeof maxntid);
        memcpy(f->reqntid, reqntid, sizeof reqntid);
        f->minnctapersm = minncta;
        f->maxnctapersm = maxncta;
        f->maxnreg = maxnreg;
    }
    add_module_item(P, PTX_ITEM_FUNCTION, fi, has_body);
    if (!has_body) {
        advance(P); /* ; */
        return;
    }
    /* the body */
    reset_fstate(P);
    P->F.fn = fi;
    P->F.next_scope = 1;
    f = &m->functions[fi];
    for (int pass = 0; pass < 2; pass++) {
        int32_t *list = pass ? f->returns : f->params;
        int n = pass ? f->return_count : f->param_count;
        for (int i = 0; i < n; i++) {
            ptx_symbol *s = &m->symbols[list[i]];
            if (!declare(P, s->name, strlen(s->name), 1, list[i]))
                perr(P, s->line, s->column, "duplicate parameter name '%s'", s->name);
        }
    }
    advance(P); /* { */
    parse_body(P);
    finish_function_body(P);
    reset_fstate(P);
    return;

fail:
    free(params);
    free(rets);
    /* drop parameter symbols of a header that failed */
    for (int i = first_sym; i < P->m->symbol_count; i++) {
        free(P->m->symbols[i].name);
        free(P->m->symbols[i].init);
    }
    P->m->symbol_count = first_sym;
    /* skip to the end of the header / body */
    while (!at(P, TOK_EOF) && !at(P, TOK_SEMI) && !at(P, TOK_LBRACE))
        advance(P);
    if (at(P, TOK_SEMI)) {
        advance(P);
        return;
    }
    long depth = 0;
    while (!at(P, TOK_EOF)) {
        if (at(P, TOK_LBRACE))
            depth++;
        else if (at(P, TOK_RBRACE) && --depth == 0) {
            advance(P);
            return;
        }
        advance(P);
    }
}

static void parse_body(parser *P)
{
    ptx_token *open = &P->t[P->pos - 1];
    while (!P->stop) {
        ptx_token *t = cur(P);
        if (t->kind == TOK_EOF) {
            perr(P, t->line, t->column, "unexpected end of file: missing '}' to close function '%s' (opened at line %d)",
                 P->m->functions[P->F.fn].name, open->line);
            return;
        }
        if (t->kind == TOK_RBRACE) {
            advance(P);
            if (P->F.depth == 0)
                return;
            add_fn_item(P, PTX_ITEM_SCOPE_CLOSE, cur_scope(P), 0);
            close_scope(P);
            continue;
        }
        if (t->kind == TOK_LBRACE) {
            advance(P);
            if (P->F.depth >= MAX_SCOPE_DEPTH) {
                perr(P, t->line, t->column, "too deeply nested scopes (at most %d)", MAX_SCOPE_DEPTH);
                P->stop = 1;
                return;
            }
            int s = P->F.next_scope++;
            P->F.scope_stack[++P->F.depth] = s;
            add_fn_item(P, PTX_ITEM_SCOPE_OPEN, s, 0);
            continue;
        }
        if (t->kind == TOK_SEMI) {
            advance(P); /* an empty statement */
            continue;
        }
        if (t->kind == TOK_DIRECTIVE) {
            if (is_dir(t, ".reg")) {
                parse_reg_decl(P);
            } else if (is_dir(t, ".local") || is_dir(t, ".shared") || is_dir(t, ".param") || is_dir(t, ".const") ||
                       is_dir(t, ".global")) {
                declspec ds;
                memset(&ds, 0, sizeof ds);
                parse_var_decl(P, ds);
            } else if (is_dir(t, ".pragma")) {
                advance(P);
                ptx_token *s = cur(P);
                if (s->kind != TOK_STRING) {
                    err_expected(P, "a string after .pragma");
                    skip_statement(P);
                    continue;
                }
                advance(P);
                int si = add_string(P, s->text, s->len);
                add_fn_item(P, PTX_ITEM_PRAGMA, si, 0);
                if (!expect(P, TOK_SEMI, "';'"))
                    skip_statement(P);
            } else if (is_dir(t, ".loc") || is_dir(t, ".file")) {
                skip_line(P);
            } else if (is_dir(t, ".extern") || is_dir(t, ".visible") || is_dir(t, ".weak")) {
                ptx_token *n = peek_tok(P, 1);
                if (is_dir(n, ".shared") || is_dir(n, ".global") || is_dir(n, ".const")) {
                    advance(P);
                    declspec ds;
                    memset(&ds, 0, sizeof ds);
                    ds.is_extern = is_dir(t, ".extern");
                    ds.visible = is_dir(t, ".visible");
                    parse_var_decl(P, ds);
                } else {
                    perr(P, t->line, t->column, "unexpected '%.*s' in a function body", (int)t->len, t->text);
                    skip_statement(P);
                }
            } else {
                perr(P, t->line, t->column, "unsupported directive '%.*s' in a function body",
                     (int)(t->len > 40 ? 40 : t->len), t->text);
                skip_statement(P);
            }
            continue;
        }
        if (t->kind == TOK_IDENT && peek_tok(P, 1)->kind == TOK_COLON) {
            advance(P);
            advance(P);
            if (memchr(t->text, '.', t->len) || t->text[0] == '%')
                perr(P, t->line, t->column, "invalid label name '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
            else
                define_label(P, t);
            continue;
        }
        if (t->kind == TOK_IDENT || t->kind == TOK_AT) {
            parse_instruction(P);
            continue;
        }
        if (t->bad) {
            P->errors++;
            advance(P);
            skip_statement(P);
            continue;
        }
        char b[80];
        perr(P, t->line, t->column, "expected an instruction, got %s", tok_desc(t, b, sizeof b));
        advance(P);
        skip_statement(P);
    }
}

/* ---- module ---------------------------------------------------------------- */

static int toplevel_start(const ptx_token *t)
{
    static const char *const starts[] = {".version", ".target", ".address_size", ".visible", ".extern", ".weak",
                                         ".entry", ".func", ".global", ".const", ".shared", ".local", ".file",
                                         ".section", ".pragma"};
    if (t->kind != TOK_DIRECTIVE)
        return 0;
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (tok_is(t, starts[i]))
            return 1;
    return 0;
}

static void skip_toplevel(parser *P)
{
    long depth = 0;
    advance(P);
    while (!at(P, TOK_EOF)) {
        ptx_token *t = cur(P);
        if (t->kind == TOK_LBRACE)
            depth++;
        else if (t->kind == TOK_RBRACE) {
            if (depth > 0)
                depth--;
            advance(P);
            if (depth == 0)
                return;
            continue;
        } else if (depth == 0 && t->kind == TOK_SEMI) {
            advance(P);
            return;
        } else if (depth == 0 && toplevel_start(t)) {
            return;
        }
        advance(P);
    }
}

static void resolve_calls(parser *P)
{
    for (int i = 0; i < P->npcalls; i++) {
        pending_call *pc = &P->pcalls[i];
        ptx_function *f = &P->m->functions[pc->fn];
        ptx_call *c = &f->calls[pc->call];
        int callee = map_get(&P->modfuncs, pc->name, strlen(pc->name));
        if (callee < 0) {
            if (map_get(&P->modsyms, pc->name, strlen(pc->name)) >= 0)
                perr(P, pc->line, pc->column, "'%s' is a variable, not a function", pc->name);
            else
                perr(P, pc->line, pc->column, "undefined function '%s'", pc->name);
            continue;
        }
        c->function = callee;
        const ptx_function *g = &P->m->functions[callee];
        if (g->is_entry) {
            perr(P, pc->line, pc->column, "'%s' is a kernel (.entry): it cannot be called", pc->name);
            continue;
        }
        if (c->arg_count != g->param_count)
            perr(P, pc->line, pc->column, "call to '%s' passes %d argument%s, '%s' takes %d", pc->name, c->arg_count,
                 c->arg_count == 1 ? "" : "s", pc->name, g->param_count);
        else if (c->ret_count != g->return_count)
            perr(P, pc->line, pc->column, "call to '%s' receives %d result%s, '%s' returns %d", pc->name,
                 c->ret_count, c->ret_count == 1 ? "" : "s", pc->name, g->return_count);
    }
}

ptx_module *ptx_parse(const char *text, size_t length, const char *path, ptx_diag *diag)
{
    ptx_diag local;
    memset(&local, 0, sizeof local);
    if (!diag)
        diag = &local;
    if (!path)
        path = "<input>";
    parser Pv;
    parser *P = &Pv;
    memset(P, 0, sizeof *P);
    P->path = path;
    P->diag = diag;
    P->F.fn = -1;
    ptx_token_list tl = ptx_lex(text, length, path, diag);
    if (tl.fatal) {
        ptx_lex_free(&tl);
        if (diag == &local)
            ptx_diag_free(&local);
        return NULL;
    }
    P->t = tl.toks;
    P->n = tl.count;
    P->errors = tl.errors;
    P->m = calloc(1, sizeof *P->m);
    if (!P->m)
        abort();
    P->m->path = xstrndup(path, strlen(path));
    P->m->address_size = 64;

    while (!P->stop && !at(P, TOK_EOF)) {
        ptx_token *t = cur(P);
        if (is_dir(t, ".version")) {
            parse_version(P);
            continue;
        }
        if (is_dir(t, ".target")) {
            parse_target(P);
            continue;
        }
        if (is_dir(t, ".address_size")) {
            parse_address_size(P);
            continue;
        }
        if (is_dir(t, ".file") || is_dir(t, ".loc")) {
            skip_line(P);
            continue;
        }
        if (is_dir(t, ".section")) {
            skip_section(P);
            continue;
        }
        check_header(P, t);
        if (P->stop)
            break;
        if (is_dir(t, ".pragma")) {
            advance(P);
            ptx_token *s = cur(P);
            if (s->kind != TOK_STRING) {
                err_expected(P, "a string after .pragma");
                skip_toplevel(P);
                continue;
            }
            advance(P);
            add_module_item(P, PTX_ITEM_PRAGMA, add_string(P, s->text, s->len), 0);
            if (!expect(P, TOK_SEMI, "';'"))
                skip_toplevel(P);
            continue;
        }
        int visible = 0, is_extern = 0, is_weak = 0;
        ptx_token *first = t;
        while (is_dir(cur(P), ".visible") || is_dir(cur(P), ".extern") || is_dir(cur(P), ".weak")) {
            ptx_token *l = advance(P);
            if (is_dir(l, ".visible"))
                visible = 1;
            else if (is_dir(l, ".extern"))
                is_extern = 1;
            else
                is_weak = 1;
        }
        t = cur(P);
        if (visible + is_extern + is_weak > 1) {
            perr(P, first->line, first->column, "conflicting linkage (.visible, .extern, .weak)");
            skip_toplevel(P);
            continue;
        }
        if (is_dir(t, ".entry") || is_dir(t, ".func")) {
            parse_function(P, visible, is_extern, is_weak);
            continue;
        }
        if (is_dir(t, ".global") || is_dir(t, ".const") || is_dir(t, ".shared") || is_dir(t, ".local")) {
            declspec ds;
            memset(&ds, 0, sizeof ds);
            ds.visible = visible;
            ds.is_extern = is_extern;
            if (is_weak) {
                perr(P, first->line, first->column, "unsupported: .weak variables");
                skip_toplevel(P);
                continue;
            }
            if (is_dir(t, ".local") && (visible || is_extern)) {
                perr(P, first->line, first->column, ".local variables cannot be .visible or .extern");
                skip_toplevel(P);
                continue;
            }
            parse_var_decl(P, ds);
            continue;
        }
        if (t->bad) {
            P->errors++;
            skip_toplevel(P);
            continue;
        }
        char b[80];
        if (t->kind == TOK_DIRECTIVE)
            perr(P, t->line, t->column, "unsupported directive '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
        else
            perr(P, t->line, t->column, "expected a directive such as .entry or .global, got %s",
                 tok_desc(t, b, sizeof b));
        skip_toplevel(P);
    }
    if (!P->stop)
        check_header(P, cur(P));
    if (!P->stop)
        resolve_calls(P);

    ptx_module *m = P->m;
    for (int i = 0; i < P->npcalls; i++)
        free(P->pcalls[i].name);
    free(P->pcalls);
    map_free(&P->modsyms);
    map_free(&P->modfuncs);
    reset_fstate(P);
    ptx_lex_free(&tl);
    if (P->errors) {
        if (diag->error_count == 0)
            ptx_diag_error(diag, path, 0, 0, "invalid input");
        ptx_module_free(m);
        if (diag == &local)
            ptx_diag_free(&local);
        return NULL;
    }
    if (diag == &local)
        ptx_diag_free(&local);
    return m;
}

ptx_module *ptx_parse_file(const char *path, ptx_diag *diag)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        ptx_diag_error(diag, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        ptx_diag_error(diag, path, 0, 0, "is a directory");
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        ptx_diag_error(diag, path, 0, 0, "not a regular file");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        ptx_diag_error(diag, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    if (cap > (1u << 30)) {
        fclose(f);
        ptx_diag_error(diag, path, 0, 0, "file too large");
        return NULL;
    }
    char *buf = malloc(cap);
    if (!buf)
        abort();
    for (;;) {
        if (n == cap) {
            if (cap >= (1u << 30)) {
                free(buf);
                fclose(f);
                ptx_diag_error(diag, path, 0, 0, "file too large");
                return NULL;
            }
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        free(buf);
        ptx_diag_error(diag, path, 0, 0, "read error");
        return NULL;
    }
    ptx_module *m = ptx_parse(buf, n, path, diag);
    free(buf);
    return m;
}
