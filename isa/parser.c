/*
 * The PTX parser: tokens -> a fully resolved ptx_module (see ptx.h).
 *
 * One pass over the tokens builds the module; labels used before their
 * definition and calls to functions defined later are patched at the end of
 * the function and of the module. Nothing recurses: nested braces (scopes,
 * initializers) keep explicit, bounded depth counters, so no input can
 * exhaust the stack. Every token access is bounded by the final TOK_EOF.
 *
 * This file: the parser's state, errors, names and scopes, functions and
 * their bodies, and the module (ptx_parse); declarations are parsed in
 * isa/parse_decl.c, instructions in isa/parse_instr.c.
 */
#include "isa/parser_internal.h"

#include <sys/stat.h>





static uint32_t hash_str(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int map_find_slot(const strmap *m, const char *s, size_t n, uint32_t *slot)
{
    *slot = 0;   /* no capacity, no slot: the callers grow the map first */
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

int ptxp_map_get(const strmap *m, const char *s, size_t n)
{
    uint32_t slot;
    if (map_find_slot(m, s, n, &slot))
        return m->vals[slot];
    return -1;
}

void ptxp_map_put(strmap *m, const char *s, size_t n, int val)
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


/* ---- parser state --------------------------------------------------------- */





void ptxp_perr(parser *P, int line, int col, const char *fmt, ...)
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

void ptxp_err_expected(parser *P, const char *what)
{
    char b[80];
    ptx_token *t = cur(P);
    if (t->bad)
        P->errors++; /* already reported by the lexer */
    else
        ptxp_perr(P, t->line, t->column, "expected %s, got %s", what, tok_desc(t, b, sizeof b));
}

int ptxp_expect(parser *P, int kind, const char *what)
{
    if (accept(P, kind))
        return 1;
    ptxp_err_expected(P, what);
    return 0;
}

/* Skip the rest of a statement: up to and including ';', or up to a brace. */
void ptxp_skip_statement(parser *P)
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

/* Skip what is left of source line `line` (a directive's own; the next line's tokens stay). */
static void skip_rest_of(parser *P, int line)
{
    while (!at(P, TOK_EOF) && cur(P)->line == line)
        advance(P);
}

/* Skip all tokens on the current token's line (.loc and .file have no ';'). */
void ptxp_skip_line(parser *P)
{
    skip_rest_of(P, cur(P)->line);
}

/* A non-negative integer token on the current line, or -1 (left unconsumed). */
static int line_int(parser *P, int line)
{
    ptx_token *t = cur(P);
    if (t->kind != TOK_INT || t->line != line || t->u > INT32_MAX)
        return -1;
    advance(P);
    return (int)t->u;
}

/* `.loc FILE LINE COLUMN` (and nvcc's `, function_name ..., inlined_at FILE LINE COLUMN`): the
 * source position of the instructions that follow; the call site is kept aside (apply_inlined_sites).
 * A form warpsim does not read is skipped, as before line information was kept. */
static void parse_loc(parser *P)
{
    int line = advance(P)->line;
    int file = line_int(P, line), src_line = file >= 0 ? line_int(P, line) : -1;
    int column = src_line >= 0 ? line_int(P, line) : -1;
    if (src_line >= 0) {
        P->F.loc_file = file;
        P->F.loc_line = src_line;
        P->F.loc_column = column > 0 ? column : 0;
        P->F.inl_line = 0;
    }
    while (src_line >= 0 && !at(P, TOK_EOF) && cur(P)->line == line && !tok_is(cur(P), "inlined_at"))
        advance(P);
    if (src_line >= 0 && !at(P, TOK_EOF) && cur(P)->line == line) {
        advance(P);
        int f = line_int(P, line), l = f >= 0 ? line_int(P, line) : -1, c = l >= 0 ? line_int(P, line) : -1;
        if (l > 0) {
            P->F.inl_file = f;
            P->F.inl_line = l;
            P->F.inl_column = c > 0 ? c : 0;
        }
    }
    skip_rest_of(P, line);
}

/* Code nvcc inlines from the CUDA Toolkit's device-runtime header (a device-side launch's calls of
 * cudaGetParameterBufferV2 and cudaLaunchDeviceV2) is placed at the program's line that called it
 * (its inlined_at site), the line a message about the launch must name; code inlined from the
 * program's own functions keeps its own lines, as ncu's source view shows them. */
#define DEVICE_RUNTIME_HEADER "cuda_device_runtime_api.h"

static void apply_inlined_sites(parser *P)
{
    ptx_module *m = P->m;
    for (int i = 0; i < P->ninlined; i++) {
        const inlined_site *s = &P->inlined[i];
        if (s->fn < 0 || s->fn >= m->function_count || s->instr >= m->functions[s->fn].instr_count)
            continue;
        ptx_instr *in = &m->functions[s->fn].instrs[s->instr];
        const char *path = ptx_source_path(m, in->src_file);
        size_t n = path ? strlen(path) : 0, k = strlen(DEVICE_RUNTIME_HEADER);
        if (n >= k && !strcmp(path + n - k, DEVICE_RUNTIME_HEADER) && ptx_source_path(m, s->file)) {
            in->src_file = s->file;
            in->src_line = s->line;
            in->src_column = s->column;
        }
    }
}

/* `.file N "path"[, timestamp, size]`: the path behind .loc's file number N. */
static void parse_file(parser *P)
{
    int line = advance(P)->line;
    int id = line_int(P, line);
    ptx_token *s = cur(P);
    if (id >= 0 && s->kind == TOK_STRING && s->line == line) {
        ptx_module *m = P->m;
        GROW(m->source_files, m->source_file_count, P->file_cap);
        m->source_files[m->source_file_count].id = id;
        m->source_files[m->source_file_count].path = xstrndup(s->text, s->len);
        m->source_file_count++;
    }
    skip_rest_of(P, line);
}

/* ---- module building helpers ---------------------------------------------- */

static int add_string(parser *P, const char *s, size_t n)
{
    ptx_module *m = P->m;
    GROW(m->strings, m->string_count, P->str_cap);
    m->strings[m->string_count] = xstrndup(s, n);
    return m->string_count++;
}

void ptxp_add_module_item(parser *P, int kind, int index, int count)
{
    ptx_module *m = P->m;
    GROW(m->items, m->item_count, P->item_cap);
    ptx_item *it = &m->items[m->item_count++];
    memset(it, 0, sizeof *it);
    it->kind = (uint8_t)kind;
    it->index = index;
    it->count = count;
}

void ptxp_add_fn_item(parser *P, int kind, int index, int count)
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

int ptxp_new_symbol(parser *P, const ptx_token *name)
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


/* Declare a name in the current function scope; 0 on a duplicate. */
int ptxp_declare(parser *P, const char *name, size_t len, int is_sym, int index)
{
    fstate *F = &P->F;
    int head = ptxp_map_get(&F->names, name, len);
    if (head >= 0 && F->decls[head].scope == cur_scope(P))
        return 0;
    GROW(F->decls, F->ndecls, F->decls_cap);
    decl *d = &F->decls[F->ndecls];
    d->is_sym = is_sym;
    d->index = index;
    d->scope = cur_scope(P);
    d->prev = head;
    d->name = is_sym ? P->m->symbols[index].name : P->m->functions[F->fn].regs[index].name;
    ptxp_map_put(&F->names, name, len, F->ndecls);
    F->ndecls++;
    return 1;
}

const decl *ptxp_lookup_local(parser *P, const char *name, size_t len)
{
    if (!in_function(P))
        return NULL;
    int id = ptxp_map_get(&P->F.names, name, len);
    return id >= 0 ? &P->F.decls[id] : NULL;
}

static void close_scope(parser *P)
{
    fstate *F = &P->F;
    int s = cur_scope(P);
    while (F->ndecls > 0 && F->decls[F->ndecls - 1].scope == s) {
        decl *d = &F->decls[F->ndecls - 1];
        ptxp_map_put(&F->names, d->name, strlen(d->name), d->prev);
        F->ndecls--;
    }
    F->depth--;
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
            ptxp_perr(P, P->F.label_use_line[i], P->F.label_use_col[i], "undefined label '%s'", f->labels[i].name);
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
    if (!ptxp_expect(P, TOK_LPAREN, "'('"))
        return 0;
    if (accept(P, TOK_RPAREN))
        return 1;
    for (;;) {
        ptx_token *t = cur(P);
        if (!is_dir(t, ".param")) {
            if (is_dir(t, ".reg"))
                ptxp_perr(P, t->line, t->column, "unsupported: .reg parameters (use .param)");
            else
                ptxp_err_expected(P, ".param");
            return 0;
        }
        advance(P);
        declspec ds;
        memset(&ds, 0, sizeof ds);
        ds.space = PTX_SPACE_PARAM;
        if (!ptxp_parse_decl_qualifiers(P, &ds, is_entry))
            return 0;
        int idx = ptxp_parse_var_name(P, &ds, kind);
        if (idx < 0)
            return 0;
        if (P->m->symbols[idx].size == 0) {
            ptxp_perr(P, P->m->symbols[idx].line, P->m->symbols[idx].column, "a parameter needs a size");
            return 0;
        }
        if (P->m->symbols[idx].init) {
            ptxp_perr(P, P->m->symbols[idx].line, P->m->symbols[idx].column, "a parameter cannot have an initializer");
            return 0;
        }
        GROW(*out, *count, cap);
        (*out)[(*count)++] = idx;
        if (accept(P, TOK_COMMA))
            continue;
        if (accept(P, TOK_RPAREN))
            return 1;
        ptxp_err_expected(P, "',' or ')'");
        return 0;
    }
}

static int parse_perf_value(parser *P, uint32_t *v)
{
    ptx_token *t = cur(P);
    if (t->kind != TOK_INT) {
        ptxp_err_expected(P, "a number");
        return 0;
    }
    advance(P);
    if (t->bad) {
        P->errors++;
        return 0;
    }
    if (t->u == 0 || t->u > 0xffffffffu) {
        ptxp_perr(P, t->line, t->column, "number out of range: %llu", (unsigned long long)t->u);
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
        ptxp_perr(P, f->line, f->column, "kernel '%s' has %llu bytes of parameters; PTX allows at most %d", f->name,
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
        ptxp_err_expected(P, "a function name");
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
        ptxp_err_expected(P, "'{' or ';' after the function header");
        goto fail;
    }
    if (has_body && is_extern) {
        ptxp_perr(P, name->line, name->column, "an .extern function cannot have a body");
        goto fail;
    }

    /* a new function, or the definition of one declared before */
    ptx_module *m = P->m;
    int fi = ptxp_map_get(&P->modfuncs, name->text, name->len);
    char nb[80];
    ptxp_print_name(nb, sizeof nb, name);
    if (fi < 0 && ptxp_map_get(&P->modsyms, name->text, name->len) >= 0) {
        ptxp_perr(P, name->line, name->column, "duplicate name '%s' (a variable has it)", nb);
        goto fail;
    }
    if (fi >= 0) {
        ptx_function *old = &m->functions[fi];
        if (old->is_entry != is_entry || !params_compatible(P, old->params, old->param_count, params, nparams) ||
            !params_compatible(P, old->returns, old->return_count, rets, nrets)) {
            ptxp_perr(P, name->line, name->column, "'%s' does not match its earlier declaration at line %d", nb,
                      old->line);
            goto fail;
        }
        if (old->defined && has_body) {
            ptxp_perr(P, name->line, name->column, "duplicate function '%s' (defined at line %d)", nb, old->line);
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
        ptxp_map_put(&P->modfuncs, name->text, name->len, fi);
    }
    ptx_function *f = &m->functions[fi];
    if (has_body || !f->defined) {
        memcpy(f->maxntid, maxntid, sizeof maxntid);
        memcpy(f->reqntid, reqntid, sizeof reqntid);
        f->minnctapersm = minncta;
        f->maxnctapersm = maxncta;
        f->maxnreg = maxnreg;
    }
    ptxp_add_module_item(P, PTX_ITEM_FUNCTION, fi, has_body);
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
            if (!ptxp_declare(P, s->name, strlen(s->name), 1, list[i]))
                ptxp_perr(P, s->line, s->column, "duplicate parameter name '%s'", s->name);
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
            ptxp_perr(P, t->line, t->column, "unexpected end of file: missing '}' to close function '%s' (opened at line %d)",
                      P->m->functions[P->F.fn].name, open->line);
            return;
        }
        if (t->kind == TOK_RBRACE) {
            advance(P);
            if (P->F.depth == 0)
                return;
            ptxp_add_fn_item(P, PTX_ITEM_SCOPE_CLOSE, cur_scope(P), 0);
            close_scope(P);
            continue;
        }
        if (t->kind == TOK_LBRACE) {
            advance(P);
            if (P->F.depth >= MAX_SCOPE_DEPTH) {
                ptxp_perr(P, t->line, t->column, "too deeply nested scopes (at most %d)", MAX_SCOPE_DEPTH);
                P->stop = 1;
                return;
            }
            int s = P->F.next_scope++;
            P->F.scope_stack[++P->F.depth] = s;
            ptxp_add_fn_item(P, PTX_ITEM_SCOPE_OPEN, s, 0);
            continue;
        }
        if (t->kind == TOK_SEMI) {
            advance(P); /* an empty statement */
            continue;
        }
        if (t->kind == TOK_DIRECTIVE) {
            if (is_dir(t, ".reg")) {
                ptxp_parse_reg_decl(P);
            } else if (is_dir(t, ".local") || is_dir(t, ".shared") || is_dir(t, ".param") || is_dir(t, ".const") ||
                       is_dir(t, ".global")) {
                declspec ds;
                memset(&ds, 0, sizeof ds);
                ptxp_parse_var_decl(P, ds);
            } else if (is_dir(t, ".pragma")) {
                advance(P);
                ptx_token *s = cur(P);
                if (s->kind != TOK_STRING) {
                    ptxp_err_expected(P, "a string after .pragma");
                    ptxp_skip_statement(P);
                    continue;
                }
                advance(P);
                int si = add_string(P, s->text, s->len);
                ptxp_add_fn_item(P, PTX_ITEM_PRAGMA, si, 0);
                if (!ptxp_expect(P, TOK_SEMI, "';'"))
                    ptxp_skip_statement(P);
            } else if (is_dir(t, ".loc")) {
                parse_loc(P);
            } else if (is_dir(t, ".file")) {
                parse_file(P);
            } else if (is_dir(t, ".extern") || is_dir(t, ".visible") || is_dir(t, ".weak")) {
                ptx_token *n = peek_tok(P, 1);
                if (is_dir(n, ".shared") || is_dir(n, ".global") || is_dir(n, ".const")) {
                    advance(P);
                    declspec ds;
                    memset(&ds, 0, sizeof ds);
                    ds.is_extern = is_dir(t, ".extern");
                    ds.visible = is_dir(t, ".visible");
                    ptxp_parse_var_decl(P, ds);
                } else {
                    ptxp_perr(P, t->line, t->column, "unexpected '%.*s' in a function body", (int)t->len, t->text);
                    ptxp_skip_statement(P);
                }
            } else {
                ptxp_perr(P, t->line, t->column, "unsupported directive '%.*s' in a function body",
                          (int)(t->len > 40 ? 40 : t->len), t->text);
                ptxp_skip_statement(P);
            }
            continue;
        }
        if (t->kind == TOK_IDENT && peek_tok(P, 1)->kind == TOK_COLON) {
            advance(P);
            advance(P);
            if (memchr(t->text, '.', t->len) || t->text[0] == '%')
                ptxp_perr(P, t->line, t->column, "invalid label name '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
            else
                ptxp_define_label(P, t);
            continue;
        }
        if (t->kind == TOK_IDENT || t->kind == TOK_AT) {
            ptxp_parse_instruction(P);
            continue;
        }
        if (t->bad) {
            P->errors++;
            advance(P);
            ptxp_skip_statement(P);
            continue;
        }
        char b[80];
        ptxp_perr(P, t->line, t->column, "expected an instruction, got %s", tok_desc(t, b, sizeof b));
        advance(P);
        ptxp_skip_statement(P);
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
        int callee = ptxp_map_get(&P->modfuncs, pc->name, strlen(pc->name));
        if (callee < 0) {
            if (ptxp_map_get(&P->modsyms, pc->name, strlen(pc->name)) >= 0)
                ptxp_perr(P, pc->line, pc->column, "'%s' is a variable, not a function", pc->name);
            else
                ptxp_perr(P, pc->line, pc->column, "undefined function '%s'", pc->name);
            continue;
        }
        c->function = callee;
        const ptx_function *g = &P->m->functions[callee];
        if (g->is_entry) {
            ptxp_perr(P, pc->line, pc->column, "'%s' is a kernel (.entry): it cannot be called", pc->name);
            continue;
        }
        if (c->arg_count != g->param_count)
            ptxp_perr(P, pc->line, pc->column, "call to '%s' passes %d argument%s, '%s' takes %d", pc->name, c->arg_count,
                      c->arg_count == 1 ? "" : "s", pc->name, g->param_count);
        else if (c->ret_count != g->return_count)
            ptxp_perr(P, pc->line, pc->column, "call to '%s' receives %d result%s, '%s' returns %d", pc->name,
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
            ptxp_parse_version(P);
            continue;
        }
        if (is_dir(t, ".target")) {
            ptxp_parse_target(P);
            continue;
        }
        if (is_dir(t, ".address_size")) {
            ptxp_parse_address_size(P);
            continue;
        }
        if (is_dir(t, ".file")) {
            parse_file(P);
            continue;
        }
        if (is_dir(t, ".loc")) {   /* outside a function: positions nothing */
            ptxp_skip_line(P);
            continue;
        }
        if (is_dir(t, ".section")) {
            ptxp_skip_section(P);
            continue;
        }
        ptxp_check_header(P, t);
        if (P->stop)
            break;
        if (is_dir(t, ".pragma")) {
            advance(P);
            ptx_token *s = cur(P);
            if (s->kind != TOK_STRING) {
                ptxp_err_expected(P, "a string after .pragma");
                skip_toplevel(P);
                continue;
            }
            advance(P);
            ptxp_add_module_item(P, PTX_ITEM_PRAGMA, add_string(P, s->text, s->len), 0);
            if (!ptxp_expect(P, TOK_SEMI, "';'"))
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
            ptxp_perr(P, first->line, first->column, "conflicting linkage (.visible, .extern, .weak)");
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
            ds.is_weak = is_weak;   /* within one module a .weak variable is its definition, as clang's templates use it */
            if (is_dir(t, ".local") && (visible || is_extern || is_weak)) {
                ptxp_perr(P, first->line, first->column, ".local variables cannot be .visible, .extern or .weak");
                skip_toplevel(P);
                continue;
            }
            ptxp_parse_var_decl(P, ds);
            continue;
        }
        if (t->bad) {
            P->errors++;
            skip_toplevel(P);
            continue;
        }
        char b[80];
        if (t->kind == TOK_DIRECTIVE)
            ptxp_perr(P, t->line, t->column, "unsupported directive '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
        else
            ptxp_perr(P, t->line, t->column, "expected a directive such as .entry or .global, got %s",
                      tok_desc(t, b, sizeof b));
        skip_toplevel(P);
    }
    if (!P->stop)
        ptxp_check_header(P, cur(P));
    if (!P->stop)
        resolve_calls(P);
    if (!P->stop)
        apply_inlined_sites(P);
    free(P->inlined);

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

