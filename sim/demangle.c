/* The Itanium C++ ABI's name mangling, read back for kernel names, printed as
 * Nsight Compute prints them (validate/reference/results/ holds ncu's CSV with
 * the names it gives namespaced, templated, const-pointer and struct kernels):
 * cv-qualifiers before the type, a space before `*`, template parameters as
 * T1, T2..., a template function's return type in front. The subset: nested
 * names, template arguments (types and integer literals), builtin types,
 * pointers, references, const/volatile/restrict, class names, substitutions
 * (S_, S0_, St) and template parameters (T_, T0_). Anything else: 0. */
#include "sim/demangle.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_SUBS 64
#define MAX_TEXT 1024

#define MAX_DEPTH 64   /* nesting of types and names: deeper inputs are not kernel names (and must not blow the stack) */

typedef struct {
    const char *p;
    int ok;
    int depth;
    char subs[MAX_SUBS][MAX_TEXT];
    int sub_count;
    int template_args;            /* of the function's name: it has a return type */
} reader;

/* snprintf into a MAX_TEXT buffer; 0 when the text did not fit (the name is then not read). */
static int put(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, MAX_TEXT, fmt, ap);
    va_end(ap);
    return n >= 0 && n < MAX_TEXT;
}

static void add_sub(reader *r, const char *s)
{
    if (r->sub_count < MAX_SUBS)
        put(r->subs[r->sub_count++], "%s", s);
    else
        r->ok = 0;
}

static void append(char *out, const char *s)
{
    size_t n = strlen(out);
    snprintf(out + n, MAX_TEXT - n, "%s", s);
}

static int read_number(reader *r, long *v)
{
    int neg = 0;
    if (*r->p == 'n') {
        neg = 1;
        r->p++;
    }
    if (*r->p < '0' || *r->p > '9')
        return 0;
    long x = 0;
    while (*r->p >= '0' && *r->p <= '9' && x < 100000000)
        x = x * 10 + (*r->p++ - '0');
    *v = neg ? -x : x;
    return 1;
}

static int source_name(reader *r, char *out)
{
    long len;
    if (!read_number(r, &len) || len <= 0 || (long)strlen(r->p) < len || len >= MAX_TEXT)
        return 0;
    put(out, "%.*s", (int)len, r->p);
    r->p += len;
    return 1;
}

/* S_ is 0, S0_ is 1, S1_ 2, ... (base 36) */
static int substitution(reader *r, char *out)
{
    r->p++;   /* S */
    if (*r->p == 't') {
        r->p++;
        char name[MAX_TEXT];
        if (!source_name(r, name))
            return 0;
        put(out, "std::%s", name);
        add_sub(r, out);
        return 1;
    }
    long index = 0;
    if (*r->p != '_') {
        long v = 0;
        while ((*r->p >= '0' && *r->p <= '9') || (*r->p >= 'A' && *r->p <= 'Z')) {
            if (v <= MAX_SUBS)   /* past the table already: keep reading, stop growing */
                v = v * 36 + (*r->p >= 'A' ? *r->p - 'A' + 10 : *r->p - '0');
            r->p++;
        }
        index = v + 1;
    }
    if (*r->p++ != '_' || index >= r->sub_count)
        return 0;
    put(out, "%s", r->subs[index]);
    return 1;
}

static int type(reader *r, char *out);

/* I <arg>+ E: "<float, 32>" */
static int template_args(reader *r, char *out)
{
    r->p++;   /* I */
    put(out, "<");
    int first = 1;
    while (*r->p && *r->p != 'E') {
        char arg[MAX_TEXT];
        if (*r->p == 'L') {   /* a literal: L <type> <value> E */
            r->p++;
            char t = *r->p;
            if (!t)
                return 0;
            r->p++;
            long v;
            if (!read_number(r, &v) || *r->p++ != 'E')
                return 0;
            if (t == 'b')
                snprintf(arg, sizeof arg, "%s", v ? "true" : "false");
            else
                snprintf(arg, sizeof arg, "%ld%s", v, t == 'j' || t == 'm' || t == 'y' ? "U" : "");
        } else if (!type(r, arg)) {
            return 0;
        }
        if (!first)
            append(out, ", ");
        append(out, arg);
        first = 0;
    }
    if (*r->p++ != 'E')
        return 0;
    append(out, ">");
    return 1;
}

/* N [cv] <prefix>... E, or a plain source name, each with optional template arguments. */
static int name(reader *r, char *out, int top)
{
    out[0] = 0;
    if (r->depth > MAX_DEPTH)
        return 0;
    if (*r->p == 'N') {
        r->p++;
        while (*r->p == 'K' || *r->p == 'V' || *r->p == 'r')
            r->p++;
        int parts = 0;
        while (*r->p && *r->p != 'E') {
            char part[MAX_TEXT];
            if (*r->p == 'S') {
                if (!substitution(r, part))
                    return 0;
                put(out, "%s", part);
                parts++;
                continue;
            }
            if (*r->p == 'I') {
                if (!template_args(r, part))
                    return 0;
                append(out, part);
                if (top && r->p[0] == 'E')
                    r->template_args = 1;
                if (!(top && r->p[0] == 'E'))
                    add_sub(r, out);
                continue;
            }
            if (!source_name(r, part))
                return 0;
            if (parts++)
                append(out, "::");
            append(out, part);
            if (!(top && r->p[0] == 'E'))   /* the function's own name is not a candidate */
                add_sub(r, out);
        }
        if (*r->p++ != 'E')
            return 0;
        return parts > 0;
    }
    if (*r->p == 'S' && r->p[1] == 't') {
        if (!substitution(r, out))
            return 0;
    } else if (!source_name(r, out)) {
        return 0;
    }
    if (*r->p == 'I') {
        if (!top)
            add_sub(r, out);   /* a class template's name */
        char args[MAX_TEXT];
        if (!template_args(r, args))
            return 0;
        append(out, args);
        if (top)
            r->template_args = 1;
        else
            add_sub(r, out);
    } else if (!top) {
        add_sub(r, out);
    }
    return 1;
}

static const struct {
    char code;
    const char *text;
} builtins[] = {
    {'v', "void"}, {'b', "bool"}, {'c', "char"}, {'a', "signed char"}, {'h', "unsigned char"}, {'s', "short"},
    {'t', "unsigned short"}, {'i', "int"}, {'j', "unsigned int"}, {'l', "long"}, {'m', "unsigned long"},
    {'x', "long long"}, {'y', "unsigned long long"}, {'n', "__int128"}, {'o', "unsigned __int128"},
    {'f', "float"}, {'d', "double"}, {'e', "long double"}, {'w', "wchar_t"},
};

/* A pointer or reference after a type: "float *", "float **", "const float *". */
static void pointer_to(char *out, const char *inner, const char *op)
{
    size_t n = strlen(inner);
    if (n && (inner[n - 1] == '*' || inner[n - 1] == '&'))
        put(out, "%s%s", inner, op);
    else
        put(out, "%s %s", inner, op);
}

static int type_at_depth(reader *r, char *out);

static int type(reader *r, char *out)
{
    if (++r->depth > MAX_DEPTH)
        return 0;
    int ok = type_at_depth(r, out);
    r->depth--;
    return ok;
}

static int type_at_depth(reader *r, char *out)
{
    char inner[MAX_TEXT];
    char c = *r->p;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (builtins[i].code == c) {
            r->p++;
            put(out, "%s", builtins[i].text);
            return 1;
        }
    switch (c) {
    case 'P': case 'R': case 'O':
        r->p++;
        if (!type(r, inner))
            return 0;
        pointer_to(out, inner, c == 'P' ? "*" : c == 'R' ? "&" : "&&");
        add_sub(r, out);
        return 1;
    case 'K': case 'V': {
        r->p++;
        if (!type(r, inner))
            return 0;
        const char *q = c == 'K' ? "const" : "volatile";
        size_t n = strlen(inner);
        if (n && inner[n - 1] == '*')   /* a const pointer: "float *const" */
            put(out, "%s%s", inner, q);
        else
            put(out, "%s %s", q, inner);
        add_sub(r, out);
        return 1;
    }
    case 'r':   /* restrict: ncu leaves it out */
        r->p++;
        return type(r, out);
    case 'T': {   /* a template parameter, by number as ncu prints it */
        r->p++;
        long index = 0;
        if (*r->p != '_') {
            if (!read_number(r, &index))
                return 0;
            index++;
        }
        if (*r->p != '_')
            return 0;
        r->p++;
        put(out, "T%ld", index + 1);   /* T_ is T1, T0_ is T2 */
        add_sub(r, out);
        return 1;
    }
    case 'S':
        if (r->p[1] == 't')
            return name(r, out, 0);
        return substitution(r, out);
    case 'N':
        return name(r, out, 0);
    default:
        if (c >= '1' && c <= '9')
            return name(r, out, 0);
        return 0;
    }
}

int ws_demangle(const char *mangled, char *out, size_t n)
{
    snprintf(out, n, "%s", mangled);
    if (strncmp(mangled, "_Z", 2) != 0)
        return 0;
    static __thread reader r;   /* 64 KiB of substitutions: not on the stack */
    memset(&r, 0, sizeof r);
    r.p = mangled + 2;
    r.ok = 1;
    char fname[MAX_TEXT], ret[MAX_TEXT] = "", params[MAX_TEXT] = "";
    if (!name(&r, fname, 1))
        return 0;
    if (r.template_args && !type(&r, ret))
        return 0;
    int count = 0;
    while (*r.p && r.ok) {
        char t[MAX_TEXT];
        if (!type(&r, t))
            return 0;
        if (count == 0 && !strcmp(t, "void") && !*r.p)
            break;   /* (v): no parameters */
        if (count++)
            append(params, ", ");
        append(params, t);
    }
    if (!r.ok)
        return 0;
    int w = snprintf(out, n, "%s%s%s(%s)", ret, ret[0] ? " " : "", fname, params);
    if (w < 0 || (size_t)w >= n) {
        snprintf(out, n, "%s", mangled);
        return 0;
    }
    return 1;
}
