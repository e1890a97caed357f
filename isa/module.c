/* The decoded module: freeing, lookup, and structural equality (for round trips). */
#include "isa/ptx.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->function_count; i++) {
        ptx_function *f = &m->functions[i];
        free(f->name);
        free(f->params);
        free(f->returns);
        for (int r = 0; r < f->reg_count; r++)
            free(f->regs[r].name);
        free(f->regs);
        free(f->value_reg_type);
        free(f->instrs);
        for (int l = 0; l < f->label_count; l++)
            free(f->labels[l].name);
        free(f->labels);
        free(f->calls);
        free(f->call_symbols);
        free(f->items);
    }
    free(m->functions);
    for (int i = 0; i < m->symbol_count; i++) {
        free(m->symbols[i].name);
        free(m->symbols[i].init);
    }
    free(m->symbols);
    for (int i = 0; i < m->string_count; i++)
        free(m->strings[i]);
    free(m->strings);
    free(m->items);
    for (int i = 0; i < m->source_file_count; i++)
        free(m->source_files[i].path);
    free(m->source_files);
    free(m->path);
    free(m->target);
    free(m);
}

int ptx_find_function(const ptx_module *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (int i = 0; i < m->function_count; i++)
        if (m->functions[i].name && strcmp(m->functions[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- equality ------------------------------------------------------------- */

static int differ(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int differ(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static int str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static int items_equal(const ptx_item *a, const ptx_item *b, int n, int *at)
{
    for (int i = 0; i < n; i++) {
        if (a[i].kind != b[i].kind || a[i].instr != b[i].instr || a[i].index != b[i].index ||
            a[i].count != b[i].count) {
            *at = i;
            return 0;
        }
    }
    return 1;
}

static int operand_equal(const ptx_operand *a, const ptx_operand *b)
{
    if (a->kind != b->kind || a->negated != b->negated || a->count != b->count || a->reg_is_64 != b->reg_is_64 ||
        a->reg != b->reg || a->symbol != b->symbol || a->imm != b->imm)
        return 0;
    for (int i = 0; i < PTX_MAX_VEC; i++)
        if (a->regs[i] != b->regs[i])
            return 0;
    return 1;
}

static const char *instr_diff(const ptx_instr *a, const ptx_instr *b)
{
    if (a->opcode != b->opcode) return "opcode";
    if (a->type != b->type) return "type";
    if (a->type2 != b->type2) return "second type";
    if (a->space != b->space) return "state space";
    if (a->vec != b->vec) return "vector width";
    if (a->cmp != b->cmp) return "comparison";
    if (a->boolop != b->boolop) return "boolean operation";
    if (a->mode != b->mode) return "mode";
    if (a->rounding != b->rounding) return "rounding";
    if (a->sem != b->sem) return "memory-order semantics";
    if (a->scope != b->scope) return "scope";
    if (a->cache_op != b->cache_op) return "cache operator";
    if (a->operand_count != b->operand_count) return "operand count";
    if (a->guard != b->guard || a->guard_negated != b->guard_negated) return "guard";
    if (a->flags != b->flags) return "flags";
    if (a->call != b->call) return "call index";
    if (a->src_file != b->src_file || a->src_line != b->src_line || a->src_column != b->src_column)
        return "source position (.loc)";
    for (int k = 0; k < a->operand_count && k < PTX_MAX_OPERANDS; k++)
        if (!operand_equal(&a->operand[k], &b->operand[k]))
            return "an operand";
    return NULL;
}

static int function_equal(const ptx_module *ma, const ptx_function *a, const ptx_function *b, char *why,
                          size_t whylen)
{
    (void)ma;
    const char *n = a->name;
    if (!str_eq(a->name, b->name))
        return differ(why, whylen, "function name '%s' vs '%s'", a->name ? a->name : "", b->name ? b->name : "");
    if (a->is_entry != b->is_entry || a->visible != b->visible || a->is_extern != b->is_extern ||
        a->is_weak != b->is_weak || a->defined != b->defined)
        return differ(why, whylen, "function '%s': kind, linkage or definition differs", n);
    if (a->param_count != b->param_count || a->return_count != b->return_count)
        return differ(why, whylen, "function '%s': parameter count differs", n);
    for (int i = 0; i < a->param_count; i++)
        if (a->params[i] != b->params[i])
            return differ(why, whylen, "function '%s': parameter %d differs", n, i);
    for (int i = 0; i < a->return_count; i++)
        if (a->returns[i] != b->returns[i])
            return differ(why, whylen, "function '%s': return parameter %d differs", n, i);
    if (memcmp(a->maxntid, b->maxntid, sizeof a->maxntid) || memcmp(a->reqntid, b->reqntid, sizeof a->reqntid) ||
        a->minnctapersm != b->minnctapersm || a->maxnreg != b->maxnreg || a->maxnctapersm != b->maxnctapersm)
        return differ(why, whylen, "function '%s': performance directives differ", n);
    if (a->param_size != b->param_size || a->local_size != b->local_size)
        return differ(why, whylen, "function '%s': layout differs (params %llu vs %llu, local %llu vs %llu)", n,
                      (unsigned long long)a->param_size, (unsigned long long)b->param_size,
                      (unsigned long long)a->local_size, (unsigned long long)b->local_size);
    if (a->reg_count != b->reg_count || a->value_reg_count != b->value_reg_count ||
        a->pred_reg_count != b->pred_reg_count)
        return differ(why, whylen, "function '%s': register count %d vs %d", n, a->reg_count, b->reg_count);
    for (int i = 0; i < a->reg_count; i++) {
        const ptx_reg *x = &a->regs[i], *y = &b->regs[i];
        if (!str_eq(x->name, y->name) || x->type != y->type || x->is_pred != y->is_pred || x->index != y->index ||
            x->scope != y->scope)
            return differ(why, whylen, "function '%s': register %d ('%s' vs '%s') differs", n, i,
                          x->name ? x->name : "", y->name ? y->name : "");
    }
    if ((a->value_reg_type == NULL) != (b->value_reg_type == NULL))
        return differ(why, whylen, "function '%s': register types differ", n);
    if (a->value_reg_type && a->value_reg_count &&
        memcmp(a->value_reg_type, b->value_reg_type, (size_t)a->value_reg_count))
        return differ(why, whylen, "function '%s': register types differ", n);
    if (a->instr_count != b->instr_count)
        return differ(why, whylen, "function '%s': %d vs %d instructions", n, a->instr_count, b->instr_count);
    for (int i = 0; i < a->instr_count; i++) {
        const char *d = instr_diff(&a->instrs[i], &b->instrs[i]);
        if (d)
            return differ(why, whylen, "function '%s': instruction %d (%s, line %d vs %d): %s differs", n, i,
                          a->instrs[i].opcode < OP_COUNT ? ptx_opcodes[a->instrs[i].opcode].spelling : "?",
                          a->instrs[i].line, b->instrs[i].line, d);
    }
    if (a->label_count != b->label_count)
        return differ(why, whylen, "function '%s': %d vs %d labels", n, a->label_count, b->label_count);
    for (int i = 0; i < a->label_count; i++)
        if (!str_eq(a->labels[i].name, b->labels[i].name) || a->labels[i].instr != b->labels[i].instr)
            return differ(why, whylen, "function '%s': label %d ('%s' vs '%s') differs", n, i,
                          a->labels[i].name ? a->labels[i].name : "", b->labels[i].name ? b->labels[i].name : "");
    if (a->call_count != b->call_count)
        return differ(why, whylen, "function '%s': %d vs %d calls", n, a->call_count, b->call_count);
    for (int i = 0; i < a->call_count; i++) {
        const ptx_call *x = &a->calls[i], *y = &b->calls[i];
        if (x->function != y->function || x->ret_first != y->ret_first || x->ret_count != y->ret_count ||
            x->arg_first != y->arg_first || x->arg_count != y->arg_count)
            return differ(why, whylen, "function '%s': call %d differs", n, i);
    }
    if (a->call_symbol_count != b->call_symbol_count)
        return differ(why, whylen, "function '%s': call symbol count differs", n);
    for (int i = 0; i < a->call_symbol_count; i++)
        if (a->call_symbols[i] != b->call_symbols[i])
            return differ(why, whylen, "function '%s': call symbol %d differs", n, i);
    if (a->item_count != b->item_count)
        return differ(why, whylen, "function '%s': %d vs %d declarations/scopes", n, a->item_count, b->item_count);
    int at;
    if (!items_equal(a->items, b->items, a->item_count, &at))
        return differ(why, whylen, "function '%s': declaration/scope item %d differs", n, at);
    return 1;
}

int ptx_module_equal(const ptx_module *a, const ptx_module *b, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = 0;
    if (!a || !b)
        return a == b ? 1 : differ(why, whylen, "one module is missing");
    if (a->version_major != b->version_major || a->version_minor != b->version_minor)
        return differ(why, whylen, "version %u.%u vs %u.%u", a->version_major, a->version_minor, b->version_major,
                      b->version_minor);
    if (!str_eq(a->target, b->target))
        return differ(why, whylen, "target '%s' vs '%s'", a->target ? a->target : "", b->target ? b->target : "");
    if (a->address_size != b->address_size)
        return differ(why, whylen, "address size %u vs %u", a->address_size, b->address_size);
    if (a->symbol_count != b->symbol_count)
        return differ(why, whylen, "%d vs %d symbols", a->symbol_count, b->symbol_count);
    for (int i = 0; i < a->symbol_count; i++) {
        const ptx_symbol *x = &a->symbols[i], *y = &b->symbols[i];
        const char *d = NULL;
        if (!str_eq(x->name, y->name)) d = "name";
        else if (x->kind != y->kind) d = "kind";
        else if (x->space != y->space) d = "state space";
        else if (x->type != y->type) d = "type";
        else if (x->is_extern != y->is_extern || x->visible != y->visible || x->is_weak != y->is_weak) d = "linkage";
        else if (x->is_array != y->is_array) d = "array-ness";
        else if (x->managed != y->managed) d = ".managed";
        else if (x->align != y->align) d = "alignment";
        else if (x->size != y->size) d = "size";
        else if ((x->init == NULL) != (y->init == NULL)) d = "initializer";
        else if (x->init && x->size && memcmp(x->init, y->init, (size_t)x->size)) d = "initial value";
        else if (x->function != y->function || x->scope != y->scope) d = "owner";
        else if (x->offset != y->offset) d = "offset";
        if (d)
            return differ(why, whylen, "symbol %d ('%s'): %s differs", i, x->name ? x->name : "", d);
    }
    if (a->function_count != b->function_count)
        return differ(why, whylen, "%d vs %d functions", a->function_count, b->function_count);
    for (int i = 0; i < a->function_count; i++)
        if (!function_equal(a, &a->functions[i], &b->functions[i], why, whylen))
            return 0;
    if (a->string_count != b->string_count)
        return differ(why, whylen, "%d vs %d strings", a->string_count, b->string_count);
    for (int i = 0; i < a->string_count; i++)
        if (!str_eq(a->strings[i], b->strings[i]))
            return differ(why, whylen, "string %d ('%s' vs '%s') differs", i, a->strings[i] ? a->strings[i] : "",
                          b->strings[i] ? b->strings[i] : "");
    if (a->item_count != b->item_count)
        return differ(why, whylen, "%d vs %d module-scope items", a->item_count, b->item_count);
    int at;
    if (!items_equal(a->items, b->items, a->item_count, &at))
        return differ(why, whylen, "module-scope item %d differs", at);
    if (a->source_file_count != b->source_file_count)
        return differ(why, whylen, "%d vs %d .file entries", a->source_file_count, b->source_file_count);
    for (int i = 0; i < a->source_file_count; i++)
        if (a->source_files[i].id != b->source_files[i].id || !str_eq(a->source_files[i].path, b->source_files[i].path))
            return differ(why, whylen, ".file entry %d differs", i);
    return 1;
}

const char *ptx_source_path(const ptx_module *m, int32_t file)
{
    for (int i = 0; i < m->source_file_count; i++)
        if (m->source_files[i].id == file)
            return m->source_files[i].path;
    return NULL;
}

/* ---- operand slots -------------------------------------------------------- */

static ptx_type double_width(ptx_type t)
{
    switch (t) {
    case PTX_U8: return PTX_U16;
    case PTX_U16: return PTX_U32;
    case PTX_U32: return PTX_U64;
    case PTX_S8: return PTX_S16;
    case PTX_S16: return PTX_S32;
    case PTX_S32: return PTX_S64;
    case PTX_B8: return PTX_B16;
    case PTX_B16: return PTX_B32;
    case PTX_B32: return PTX_B64;
    default: return t;
    }
}

ptx_type ptx_slot_type(const ptx_instr *in, char letter)
{
    ptx_type t = (ptx_type)in->type;
    switch (letter) {
    case 'D': case 'q': case 'p':
        return PTX_PRED;
    case 'd':
        if ((in->opcode == OP_mul || in->opcode == OP_mad) && in->mode == PTX_MUL_WIDE)
            return double_width(t);
        if (in->opcode == OP_popc || in->opcode == OP_clz || in->opcode == OP_bfind)
            return PTX_U32;
        return t;
    default:
        break;
    }
    switch (in->opcode) {
    case OP_cvt:
        return letter == 'a' ? (ptx_type)in->type2 : t;
    case OP_shl: case OP_shr:
        return letter == 'b' ? PTX_U32 : t;
    case OP_shf: case OP_prmt:
        return letter == 'c' ? PTX_U32 : t;
    case OP_bfe:
        return (letter == 'b' || letter == 'c') ? PTX_U32 : t;
    case OP_bfi:
        return (letter == 'c' || letter == 'e') ? PTX_U32 : t;
    case OP_shfl:
        return letter == 'a' ? t : PTX_U32;
    case OP_vote: case OP_bar_sync: case OP_bar_arrive: case OP_bar_red: case OP_bar_warp_sync:
        return PTX_U32;
    case OP_mad:
        return (letter == 'c' && in->mode == PTX_MUL_WIDE) ? double_width(t) : t;
    case OP_tex:   /* [a, {b}]: the texture object, then the coordinates of the second type */
        return letter == 'T' ? PTX_U64 : letter == 'b' ? (ptx_type)in->type2 : t;
    default:
        return t;
    }
}


char ptx_operand_letter(const ptx_instr *in, int k)
{
    if (!in || in->opcode >= OP_COUNT || k < 0 || k >= in->operand_count)
        return 0;
    const char *s = ptx_opcodes[in->opcode].shape;
    char letters[PTX_MAX_OPERANDS];
    int optional[PTX_MAX_OPERANDS], pipe[PTX_MAX_OPERANDS];
    int n = 0, required = 0;
    while (*s && n < PTX_MAX_OPERANDS) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        optional[n] = pipe[n] = 0;
        if (!strncmp(s, "[a, {b}]", 8) && n + 1 < PTX_MAX_OPERANDS) {   /* tex: two operands */
            letters[n] = 'T';
            letters[n + 1] = 'b';
            optional[n + 1] = pipe[n + 1] = 0;
            n += 2;
            required += 2;
            s += 8;
            continue;
        }
        if (*s == '{') {
            letters[n] = s[1];
            s += 3;
        } else if (*s == '[') {
            letters[n] = 'A';
            s += 3;
        } else {
            letters[n] = *s++;
        }
        if (*s == '|') {
            pipe[n] = 1;
            s += 2;
            if (*s == '?')
                s++;
        }
        if (*s == '?') {
            optional[n] = 1;
            s++;
        }
        required += !optional[n];
        n++;
        while (*s && *s != ',')
            s++;
    }
    /* is the second destination of a d|q slot written? */
    int q = n > 0 && pipe[0] && in->operand_count > 1 &&
            (in->operand[1].kind == PTX_OPD_PRED || in->operand[1].kind == PTX_OPD_SINK);
    int written = in->operand_count - q;
    int extra = written - required;
    int idx = 0;
    for (int i = 0; i < n; i++) {
        if (optional[i]) {
            if (extra <= 0)
                continue;
            extra--;
        }
        if (idx == k)
            return letters[i];
        idx++;
        if (pipe[i] && i == 0 && q) {
            if (idx == k)
                return 'q';
            idx++;
        }
    }
    return 0;
}
