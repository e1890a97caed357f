/*
 * The PTX parser's private interface, shared by its four files:
 *   isa/parser.c       state, errors, names and scopes, functions and the module (ptx_parse)
 *   isa/parse_decl.c   header directives, numbers, variable and register declarations
 *   isa/parse_opcode.c an instruction's dotted opcode: types, modifiers, the table's rules
 *   isa/parse_instr.c  instructions: operands, calls, labels
 * Not for use outside isa/.
 */
#ifndef WARPSIM_ISA_PARSER_INTERNAL_H
#define WARPSIM_ISA_PARSER_INTERNAL_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa/bits.h"
#include "isa/lexer.h"
#include "isa/ptx.h"

#define MAX_SCOPE_DEPTH 64        /* nested { } in a function body */
#define MAX_INIT_DEPTH 8          /* nested { } in an initializer */
#define MAX_DIMS 8
#define MAX_FUNCTION_REGS (1 << 18)
#define MAX_RAW_OPERANDS 8
#define MAX_ARRAY_BYTES (1ull << 40)
#define MAX_INIT_BYTES (1ull << 26)
#define MAX_CALL_ARGS 1024
#define MAX_KERNEL_PARAM_BYTES 32764   /* the PTX ISA's limit on a kernel's parameters (sm_70+, PTX 8.1+) */

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
    int loc_file, loc_line, loc_column;   /* the last .loc: what the next instructions came from */
    int inl_file, inl_line, inl_column;   /* and its `inlined_at` call site (inl_line 0: none) */
    int reg_cap, instr_cap, label_cap, call_cap, csym_cap, item_cap, luse_cap;
} fstate;

typedef struct {
    int fn, call;
    int line, column;
    char *name;
} pending_call;

/* An instruction whose .loc names an inlined_at call site (resolved once the .file table is known). */
typedef struct {
    int fn, instr;
    int file, line, column;
} inlined_site;

typedef struct {
    const char *path;
    ptx_diag *diag;
    ptx_token *t;
    int n, pos;
    ptx_module *m;
    int errors;
    int stop;
    int sym_cap, fn_cap, str_cap, item_cap, file_cap;
    strmap modsyms, modfuncs;
    pending_call *pcalls;
    int npcalls, pcalls_cap;
    inlined_site *inlined;
    int ninlined, inlined_cap;
    int have_version, have_target, have_address_size;
    int header_checked;
    fstate F;
} parser;

typedef struct {
    ptx_token *tok; /* TOK_INT / TOK_FLOAT / TOK_F32 / TOK_F64 */
    int neg;
    int line, column; /* of the '-' when there is one */
} numlit;

typedef struct {
    int space;              /* ptx_space */
    ptx_type type;
    uint32_t align;         /* 0: natural */
    int managed;
    int visible, is_extern, is_weak;
    int ptr;                /* .ptr seen (kernel params) */
} declspec;

/* ---- tokens and small helpers (inline: called everywhere) -------------------- */

/* ---- small utilities ------------------------------------------------------ */

static inline void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static inline char *xstrndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
    if (a <= 1)
        return v;
    return (v + a - 1) / a * a;
}

static inline ptx_token *cur(parser *P) { return &P->t[P->pos]; }

static inline ptx_token *peek_tok(parser *P, int k)
{
    int i = P->pos + k;
    if (i >= P->n)
        i = P->n - 1;
    return &P->t[i];
}

static inline ptx_token *advance(parser *P)
{
    ptx_token *t = &P->t[P->pos];
    if (P->pos < P->n - 1)
        P->pos++;
    return t;
}

static inline int at(parser *P, int kind) { return cur(P)->kind == kind; }

static inline int accept(parser *P, int kind)
{
    if (at(P, kind)) {
        advance(P);
        return 1;
    }
    return 0;
}

static inline int tok_is(const ptx_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

static inline int is_dir(const ptx_token *t, const char *s) { return t->kind == TOK_DIRECTIVE && tok_is(t, s); }

/* ---- function-scope names ------------------------------------------------- */

static inline int in_function(parser *P) { return P->F.fn >= 0; }

static inline int cur_scope(parser *P) { return P->F.scope_stack[P->F.depth]; }

/* ---- isa/parser.c ----------------------------------------------------------- */

void ptxp_add_fn_item(parser *P, int kind, int index, int count);
void ptxp_add_module_item(parser *P, int kind, int index, int count);
int ptxp_declare(parser *P, const char *name, size_t len, int is_sym, int index);
void ptxp_err_expected(parser *P, const char *what);
int ptxp_expect(parser *P, int kind, const char *what);
const decl *ptxp_lookup_local(parser *P, const char *name, size_t len);
int ptxp_map_get(const strmap *m, const char *s, size_t n);
void ptxp_map_put(strmap *m, const char *s, size_t n, int val);
int ptxp_new_symbol(parser *P, const ptx_token *name);
void ptxp_perr(parser *P, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ptxp_skip_line(parser *P);
void ptxp_skip_statement(parser *P);

/* ---- isa/parse_decl.c ------------------------------------------------------- */

void ptxp_check_header(parser *P, const ptx_token *t);
int ptxp_int_value(parser *P, const numlit *nl, int64_t *out);
int ptxp_is_number_tok(const ptx_token *t);
int ptxp_literal_bits(parser *P, const numlit *nl, ptx_type type, int64_t *out, const char *what);
void ptxp_parse_address_size(parser *P);
int ptxp_parse_decl_qualifiers(parser *P, declspec *ds, int allow_ptr);
int ptxp_parse_numlit(parser *P, numlit *nl);
void ptxp_parse_reg_decl(parser *P);
void ptxp_parse_target(parser *P);
void ptxp_parse_var_decl(parser *P, declspec ds);
int ptxp_parse_var_name(parser *P, const declspec *ds, int kind);
void ptxp_parse_version(parser *P);
void ptxp_skip_section(parser *P);

/* ---- isa/parse_opcode.c ----------------------------------------------------- */

/* Decode token t's dotted spelling into in->opcode, type(s), modifiers and flags; 0 after an error. */
int ptxp_decode_opcode(parser *P, const ptx_token *t, ptx_instr *in);

/* ---- isa/parse_instr.c ------------------------------------------------------ */

void ptxp_define_label(parser *P, ptx_token *t);
void ptxp_parse_instruction(parser *P);
void ptxp_print_name(char *buf, size_t n, const ptx_token *t);

#endif
