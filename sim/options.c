/*
 * Launch descriptions: `warpsim run`'s flags and .launch files, and buffer
 * initialisation.  See launch.h for the grammar and the contracts.
 *
 * Pure C11 + libc + a little POSIX (stat, getpid, fsync): validate/'s
 * CUDA-driver runner compiles this file too.  Nothing here recurses; every
 * loop is bounded by its input; every string is allocated to its size.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "sim/options.h"

#include "sim/values.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- Small helpers ---------------------------------------------------------- */

static char *xstrndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* A C identifier: a buffer name. */
static int is_ident(const char *s, size_t n)
{
    if (n == 0 || is_digit(s[0]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_alpha(s[i]) && !is_digit(s[i]) && s[i] != '_')
            return 0;
    return 1;
}

/* Grow a dynamic array that holds n elements so that it holds n + 1.
 * Capacity is implicit: 0, then 4, 8, 16, ... */
static int grow(void **p, int n, size_t elem)
{
    if (!(n == 0 || (n >= 4 && (n & (n - 1)) == 0)))
        return 0;
    if (n > INT_MAX / 4)
        return -1;
    size_t cap = n == 0 ? 4 : (size_t)n * 2;
    void *q = realloc(*p, cap * elem);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* A value echoed in a message: at most ~80 bytes, non-printables escaped. */
typedef struct { char s[96]; } qbuf;

static const char *quote(qbuf *q, const char *v)
{
    size_t o = 0;
    for (size_t i = 0; v[i]; i++) {
        if (o > 80) {
            memcpy(q->s + o, "...", 4);
            return q->s;
        }
        unsigned char c = (unsigned char)v[i];
        if (c >= 0x20 && c < 0x7f)
            q->s[o++] = (char)c;
        else {
            snprintf(q->s + o, 5, "\\x%02x", c);
            o += 4;
        }
    }
    q->s[o] = '\0';
    return q->s;
}

/* ---- Errors ------------------------------------------------------------------ */

/* path && line > 0: "PATH:LINE:COL: error: FLAG: ..."; path && line == 0: "PATH: error: ...";
 * no path: "warpsim run: --FLAG: ...". */
static void vformat(char *err, size_t errlen, const char *path, int line, int col, const char *flag,
                    const char *fmt, va_list ap)
{
    if (!err || errlen == 0)
        return;
    int k;
    if (path && line > 0)
        k = snprintf(err, errlen, "%s:%d:%d: error: %s%s", path, line, col, flag ? flag : "", flag ? ": " : "");
    else if (path)
        k = snprintf(err, errlen, "%s: error: %s%s", path, flag ? flag : "", flag ? ": " : "");
    else
        k = snprintf(err, errlen, "warpsim run: %s%s%s", flag ? "--" : "", flag ? flag : "", flag ? ": " : "");
    if (k < 0 || (size_t)k >= errlen)
        return;
    vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
}

ws_launch_status ws_run_options_error(const ws_run_options *o, int line, int col, const char *flag,
                                      char *err, size_t errlen, const char *fmt, ...)
{
    const char *path = line > 0 ? (o && o->launch_path ? o->launch_path : "<launch>") : NULL;
    va_list ap;
    va_start(ap, fmt);
    vformat(err, errlen, path, line, col, flag, fmt, ap);
    va_end(ap);
    return path ? WS_LAUNCH_INPUT : WS_LAUNCH_USAGE;
}

/* ---- Parser state --------------------------------------------------------- */

/* Limits that keep a hostile .launch cheap to parse (far above any real one). */
#define MAX_BUFFERS 4096
#define MAX_ARGS    4096     /* per launch group */
#define MAX_GROUPS  65536
#define MAX_DUMPS   4096

#define SHARED_UNSET UINT64_MAX   /* a group's shared_bytes until the end of the parse */
#define ARG_UNRESOLVED PTX_TYPE_NONE   /* an arg naming a buffer, before resolution */

typedef struct {
    ws_run_options *o;
    const char *path;      /* the .launch file, or NULL for the command line */
    char *dir;             /* prefix for relative paths: "" or "dir/" */
    int line, col;         /* where the current value is (line 0: command line) */
    char *err;
    size_t errlen;
    int given[WS_FLAG_COUNT];    /* a line (1 on the command line) where each flag was first given */
    int any_kernel;
    int group_flag;        /* the first grid/block/shared/arg flag given, or -1 */
} pstate;

/* An error about the current value, flag id (or -1). */
static ws_launch_status failc(pstate *s, ws_launch_status code, int id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static ws_launch_status failc(pstate *s, ws_launch_status code, int id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vformat(s->err, s->errlen, s->path, s->path ? s->line : 0, s->col, id >= 0 ? ws_flags[id].name : NULL, fmt, ap);
    va_end(ap);
    return code;
}

#define SCODE(s) ((s)->path ? WS_LAUNCH_INPUT : WS_LAUNCH_USAGE)
#define fail(s, id, ...) failc((s), SCODE(s), (id), __VA_ARGS__)
#define oom(s) failc((s), WS_LAUNCH_INPUT, -1, "out of memory")

static char *resolve(const pstate *s, const char *p)
{
    if (p[0] == '/' || !s->dir || !s->dir[0])
        return xstrdup(p);
    size_t a = strlen(s->dir), b = strlen(p);
    char *r = malloc(a + b + 1);
    if (r) {
        memcpy(r, s->dir, a);
        memcpy(r + a, p, b + 1);
    }
    return r;
}

static void options_init(ws_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->format = WS_OUT_TEXT;
    o->trace_block = -1;
    o->trace_warp = -1;
    o->max_steps = WS_DEFAULT_MAX_STEPS;
    o->jobs = 1;
    o->mem_limit = WS_DEFAULT_MEM_LIMIT;
    o->launch_count = UINT64_MAX;
    o->devices = 1;
    o->print_limit = 100;
}

static void pstate_init(pstate *s, ws_run_options *o, const char *path, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->path = path;
    s->err = err;
    s->errlen = errlen;
    s->group_flag = -1;
}

static void free_buffer(ws_buffer_spec *b)
{
    free(b->name);
    free(b->file);
    memset(b, 0, sizeof *b);
}

static void free_group(ws_launch_group *g)
{
    free(g->kernel);
    for (int i = 0; i < g->arg_count; i++)
        free(g->args[i].text);
    free(g->args);
    memset(g, 0, sizeof *g);
}

void ws_run_options_free(ws_run_options *o)
{
    if (!o)
        return;
    free(o->ptx_path);
    free(o->launch_path);
    for (int i = 0; i < o->buffer_count; i++)
        free_buffer(&o->buffers[i]);
    free(o->buffers);
    for (int i = 0; i < o->group_count; i++)
        free_group(&o->groups[i]);
    free(o->groups);
    for (int i = 0; i < o->dump_count; i++) {
        free(o->dumps[i].name);
        free(o->dumps[i].path);
    }
    free(o->dumps);
    free(o->arch);
    free(o->arch_file);
    free(o->metrics);
    free(o->cu_path);
    for (int i = 0; i < o->program_argc; i++)
        free(o->program_argv[i]);
    free(o->program_argv);
    free(o->kernel_filter);
    free(o->cc);
    free(o->cflags);
    free(o->log_file);
    free(o->timeline);
    free(o->html);
    memset(o, 0, sizeof *o);
}

static int find_buffer(const ws_run_options *o, const char *name)
{
    for (int i = 0; i < o->buffer_count; i++)
        if (!strcmp(o->buffers[i].name, name))
            return i;
    return -1;
}

/* A hash index of the buffer names, so that resolving many args stays linear. */
typedef struct {
    int *slot;        /* buffer index + 1, 0 empty */
    size_t mask;
} name_index;

static uint64_t hash_name(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

static int index_build(name_index *x, const ws_run_options *o)
{
    size_t n = 16;
    while (n < (size_t)o->buffer_count * 2)
        n *= 2;
    x->mask = n - 1;
    x->slot = calloc(n, sizeof *x->slot);
    if (!x->slot)
        return -1;
    for (int i = 0; i < o->buffer_count; i++) {
        size_t h = (size_t)hash_name(o->buffers[i].name) & x->mask;
        while (x->slot[h])
            h = (h + 1) & x->mask;
        x->slot[h] = i + 1;
    }
    return 0;
}

static int index_find(const name_index *x, const ws_run_options *o, const char *name)
{
    for (size_t h = (size_t)hash_name(name) & x->mask; x->slot[h]; h = (h + 1) & x->mask)
        if (!strcmp(o->buffers[x->slot[h] - 1].name, name))
            return x->slot[h] - 1;
    return -1;
}

/* The current launch group, made when there is none; NULL when out of memory. */
static ws_launch_group *new_group(pstate *s)
{
    ws_run_options *o = s->o;
    if (o->group_count >= MAX_GROUPS || grow((void **)&o->groups, o->group_count, sizeof *o->groups))
        return NULL;
    ws_launch_group *g = &o->groups[o->group_count++];
    memset(g, 0, sizeof *g);
    g->shared_bytes = SHARED_UNSET;
    g->line = s->line;
    return g;
}

static ws_launch_group *cur_group(pstate *s)
{
    if (s->o->group_count == 0)
        return new_group(s);
    return &s->o->groups[s->o->group_count - 1];
}

/* Why new_group() or cur_group() gave NULL. */
static ws_launch_status no_group(pstate *s)
{
    if (s->o->group_count >= MAX_GROUPS)
        return failc(s, SCODE(s), WS_FLAG_KERNEL, "too many launch groups (at most %d)", MAX_GROUPS);
    return failc(s, WS_LAUNCH_INPUT, -1, "out of memory");
}

/* ---- One flag ------------------------------------------------------------------ */

static ws_launch_status dup_group_flag(pstate *s, int id)
{
    if (s->path)
        return fail(s, id, "given twice in one launch group (a `kernel NAME` line starts the next group)");
    return fail(s, id, "given twice for one launch group (each --kernel starts the next group)");
}

static ws_launch_status set_dims(pstate *s, int id, const char *v, uint32_t dims[3])
{
    qbuf q;
    uint64_t d[3] = {1, 1, 1};
    int n = 0, big = 0;
    const char *p = v;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (n == 3)
            goto syntax;
        int rc = ws_parse_u64n(p, len, 0, &d[n]);
        if (rc == -1 || (rc == 0 && d[n] == 0))
            goto syntax;
        if (rc == -2)
            big = 1;
        n++;
        if (!c)
            break;
        p = c + 1;
    }
    if (id == WS_FLAG_GRID) {
        if (big || d[0] > 2147483647u || d[1] > 65535 || d[2] > 65535)
            return fail(s, id, "expected X[,Y[,Z]] with X <= 2147483647 and Y, Z <= 65535, got '%s'", quote(&q, v));
    } else {
        if (big || d[0] > 1024 || d[1] > 1024 || d[2] > 64 || d[0] * d[1] * d[2] > 1024)
            return fail(s, id, "expected X[,Y[,Z]] with X, Y <= 1024, Z <= 64 and at most 1024 threads in all, got '%s'",
                        quote(&q, v));
    }
    for (int i = 0; i < 3; i++)
        dims[i] = (uint32_t)d[i];
    return WS_LAUNCH_OK;
syntax:
    return fail(s, id, "expected X[,Y[,Z]] with positive integers, got '%s'", quote(&q, v));
}

/* INIT file=PATH: the file must be a readable regular file no longer than the buffer. */
static ws_launch_status check_init_file(pstate *s, const ws_buffer_spec *b, const char *written)
{
    qbuf q1, q2;
    struct stat st;
    if (stat(b->file, &st) != 0)
        return failc(s, WS_LAUNCH_INPUT, WS_FLAG_BUF, "buffer '%s': cannot read file=%s: %s", b->name,
                     quote(&q1, written), strerror(errno));
    if (!S_ISREG(st.st_mode))
        return failc(s, WS_LAUNCH_INPUT, WS_FLAG_BUF, "buffer '%s': file=%s: '%s' is not a regular file", b->name,
                     quote(&q1, written), quote(&q2, b->file));
    uint64_t bytes = ws_buffer_bytes(b);
    if ((uint64_t)st.st_size > bytes)
        return failc(s, WS_LAUNCH_INPUT, WS_FLAG_BUF, "buffer '%s': file=%s holds %llu bytes, more than the buffer's %llu (%llu x %s)",
                     b->name, quote(&q1, written), (unsigned long long)st.st_size, (unsigned long long)bytes,
                     (unsigned long long)b->count, ptx_types[b->type].name);
    return WS_LAUNCH_OK;
}

static ws_launch_status add_buffer(pstate *s, const char *v)
{
    qbuf q1, q2;
    char ebuf[96];
    ws_run_options *o = s->o;
    if (o->buffer_count >= MAX_BUFFERS)
        return fail(s, WS_FLAG_BUF, "too many buffers (at most %d)", MAX_BUFFERS);
    const char *eq = strchr(v, '=');
    const char *c1 = eq ? strchr(eq + 1, ':') : NULL;
    if (!eq || !c1)
        return fail(s, WS_FLAG_BUF, "expected NAME=TYPE:COUNT[:INIT], got '%s'", quote(&q1, v));
    if (!is_ident(v, (size_t)(eq - v))) {
        char *name = xstrndup(v, (size_t)(eq - v));
        if (!name)
            return oom(s);
        ws_launch_status rc = fail(s, WS_FLAG_BUF, "bad buffer name '%s' (expected letters, digits and _, not starting with a digit)",
                                   quote(&q1, name));
        free(name);
        return rc;
    }
    ws_buffer_spec b;
    memset(&b, 0, sizeof b);
    b.line = s->path ? s->line : 0;
    b.col = s->col;
    b.name = xstrndup(v, (size_t)(eq - v));
    if (!b.name)
        return oom(s);
    ws_launch_status rc = WS_LAUNCH_OK;
    const char *ty = eq + 1;
    b.type = ws_value_type(ty, (size_t)(c1 - ty));
    if (b.type == PTX_TYPE_NONE) {
        char *t = xstrndup(ty, (size_t)(c1 - ty));
        rc = t ? fail(s, WS_FLAG_BUF, "unknown type '%s' (expected " TYPE_LIST ")", quote(&q1, t)) : oom(s);
        free(t);
        goto out;
    }
    const char *cnt = c1 + 1;
    const char *c2 = strchr(cnt, ':');
    size_t cntlen = c2 ? (size_t)(c2 - cnt) : strlen(cnt);
    if (ws_parse_size_n(cnt, cntlen, &b.count) || b.count == 0 || b.count > WS_MAX_BUFFER_COUNT) {
        char *t = xstrndup(cnt, cntlen);
        rc = t ? fail(s, WS_FLAG_BUF, "bad count '%s' for buffer '%s' (expected an integer from 1 to 2^40, optional K/M/G suffix)",
                      quote(&q1, t), b.name)
               : oom(s);
        free(t);
        goto out;
    }
    b.init = WS_INIT_ZERO;
    if (c2) {
        const char *init = c2 + 1;
        if (!strcmp(init, "zero"))
            b.init = WS_INIT_ZERO;
        else if (!strcmp(init, "iota"))
            b.init = WS_INIT_IOTA;
        else if (!strncmp(init, "const=", 6)) {
            b.init = WS_INIT_CONST;
            if (ws_parse_value(b.type, init + 6, &b.const_bits)) {
                rc = fail(s, WS_FLAG_BUF, "buffer '%s': const=%s: not a valid %s (expected %s)", b.name, quote(&q1, init + 6),
                          ptx_types[b.type].name, ws_value_expect(b.type, ebuf, sizeof ebuf));
                goto out;
            }
        } else if (!strncmp(init, "random=", 7)) {
            b.init = WS_INIT_RANDOM;
            if (ws_parse_u64(init + 7, 1, &b.seed)) {
                rc = fail(s, WS_FLAG_BUF, "buffer '%s': random=%s: SEED must be an integer from 0 to 2^64-1, decimal or 0x hex",
                          b.name, quote(&q1, init + 7));
                goto out;
            }
        } else if (!strncmp(init, "file=", 5) && init[5]) {
            b.init = WS_INIT_FILE;
            b.file = resolve(s, init + 5);
            if (!b.file) {
                rc = oom(s);
                goto out;
            }
            if ((rc = check_init_file(s, &b, init + 5)) != WS_LAUNCH_OK)
                goto out;
        } else {
            rc = fail(s, WS_FLAG_BUF, "bad INIT '%s' for buffer '%s' (expected zero, iota, const=V, random=SEED or file=PATH)",
                      quote(&q1, init), quote(&q2, b.name));
            goto out;
        }
    }
    int prev = find_buffer(o, b.name);
    if (prev >= 0) {
        if (s->path)
            rc = fail(s, WS_FLAG_BUF, "duplicate buffer name '%s' (first defined at line %d)", b.name, o->buffers[prev].line);
        else
            rc = fail(s, WS_FLAG_BUF, "duplicate buffer name '%s'", b.name);
        goto out;
    }
    if (grow((void **)&o->buffers, o->buffer_count, sizeof *o->buffers)) {
        rc = oom(s);
        goto out;
    }
    o->buffers[o->buffer_count++] = b;
    return WS_LAUNCH_OK;
out:
    free_buffer(&b);
    return rc;
}

static ws_launch_status add_arg(pstate *s, const char *v)
{
    qbuf q1, q2;
    char ebuf[96];
    ws_arg_spec a;
    memset(&a, 0, sizeof a);
    a.buffer = -1;
    a.line = s->path ? s->line : 0;
    a.col = s->col;
    const char *colon = strchr(v, ':');
    if (colon) {
        a.type = ws_value_type(v, (size_t)(colon - v));
        if (a.type == PTX_TYPE_NONE) {
            char *t = xstrndup(v, (size_t)(colon - v));
            ws_launch_status rc = t ? fail(s, WS_FLAG_ARG, "unknown type '%s' in '%s' (expected " TYPE_LIST ")",
                                           quote(&q1, t), quote(&q2, v))
                                    : oom(s);
            free(t);
            return rc;
        }
        if (ws_parse_value(a.type, colon + 1, &a.bits))
            return fail(s, WS_FLAG_ARG, "'%s' is not a valid %s (expected %s)", quote(&q1, colon + 1), ptx_types[a.type].name,
                        ws_value_expect(a.type, ebuf, sizeof ebuf));
    } else {
        if (!is_ident(v, strlen(v)))
            return fail(s, WS_FLAG_ARG, "expected a buffer name or TYPE:VALUE (e.g. u32:1024, f32:0.5), got '%s'", quote(&q1, v));
        a.type = ARG_UNRESOLVED;
    }
    ws_launch_group *g = cur_group(s);
    if (!g)
        return no_group(s);
    if (g->arg_count >= MAX_ARGS)
        return fail(s, WS_FLAG_ARG, "too many arguments in one launch group (at most %d)", MAX_ARGS);
    if (grow((void **)&g->args, g->arg_count, sizeof *g->args) || !(a.text = xstrdup(v)))
        return oom(s);
    g->args[g->arg_count++] = a;
    return WS_LAUNCH_OK;
}

static ws_launch_status add_dump(pstate *s, const char *v)
{
    qbuf q;
    ws_run_options *o = s->o;
    if (o->dump_count >= MAX_DUMPS)
        return fail(s, WS_FLAG_DUMP, "too many dumps (at most %d)", MAX_DUMPS);
    const char *eq = strchr(v, '=');
    if (!eq || !is_ident(v, (size_t)(eq - v)) || !eq[1])
        return fail(s, WS_FLAG_DUMP, "expected NAME=PATH, got '%s'", quote(&q, v));
    ws_dump_spec d;
    memset(&d, 0, sizeof d);
    d.buffer = -1;
    d.line = s->path ? s->line : 0;
    d.col = s->col;
    d.name = xstrndup(v, (size_t)(eq - v));
    d.path = resolve(s, eq + 1);
    if (!d.name || !d.path || grow((void **)&o->dumps, o->dump_count, sizeof *o->dumps)) {
        free(d.name);
        free(d.path);
        return oom(s);
    }
    o->dumps[o->dump_count++] = d;
    return WS_LAUNCH_OK;
}

/* Apply flag id with value v (NULL for a switch); s->line/col locate v. */
static ws_launch_status apply(pstate *s, int id, const char *v)
{
    qbuf q;
    ws_run_options *o = s->o;
    uint64_t n;
    const ws_flag_info *fi = &ws_flags[id];

    if (fi->scope == WS_SCOPE_ONCE && s->given[id]) {
        if (s->path)
            return fail(s, id, "given twice (first at line %d)", s->given[id]);
        return fail(s, id, "given twice");
    }
    if (!s->given[id])
        s->given[id] = s->path ? s->line : 1;
    if (fi->scope == WS_SCOPE_GROUP && id != WS_FLAG_KERNEL && s->group_flag < 0)
        s->group_flag = id;

    switch (id) {
    case WS_FLAG_PTX:
        if (!*v)
            return fail(s, id, "expected a file name");
        return (o->ptx_path = resolve(s, v)) ? WS_LAUNCH_OK : oom(s);
    case WS_FLAG_KERNEL: {
        int ok = *v && !is_digit(v[0]);
        for (const char *p = v; *p && ok; p++)
            ok = is_alpha(*p) || is_digit(*p) || *p == '_' || *p == '$' || *p == '%' || (*p == ':' && p[1] == ':' && p++);
        if (!ok)
            return fail(s, id, "expected a kernel name (letters, digits, _ $ %% and ::), got '%s'", quote(&q, v));
        ws_launch_group *g = o->group_count && !o->groups[o->group_count - 1].kernel ? cur_group(s) : new_group(s);
        if (!g)
            return no_group(s);
        if (!(g->kernel = xstrdup(v)))
            return oom(s);
        g->line = s->path ? s->line : 0;   /* a group is named by its kernel line */
        s->any_kernel = 1;
        return WS_LAUNCH_OK;
    }
    case WS_FLAG_GRID:
    case WS_FLAG_BLOCK: {
        ws_launch_group *g = cur_group(s);
        if (!g)
            return no_group(s);
        uint32_t *dims = id == WS_FLAG_GRID ? g->grid : g->block;
        if (dims[0])
            return dup_group_flag(s, id);
        return set_dims(s, id, v, dims);
    }
    case WS_FLAG_SHARED: {
        ws_launch_group *g = cur_group(s);
        if (!g)
            return no_group(s);
        if (g->shared_bytes != SHARED_UNSET)
            return dup_group_flag(s, id);
        if (ws_parse_size_n(v, strlen(v), &n) || n > (UINT64_C(1) << 30))
            return fail(s, id, "expected a byte count (an integer, optional K/M/G suffix) up to 1G, got '%s'", quote(&q, v));
        g->shared_bytes = n;
        return WS_LAUNCH_OK;
    }
    case WS_FLAG_ARG:
        return add_arg(s, v);
    case WS_FLAG_BUF:
        return add_buffer(s, v);
    case WS_FLAG_DUMP:
        return add_dump(s, v);
    case WS_FLAG_ARCH: {
        int ok = *v != '\0';
        for (const char *p = v; *p && ok; p++)
            ok = is_alpha(*p) || is_digit(*p) || *p == '_' || *p == '-' || *p == '.';
        if (!ok)
            return fail(s, id, "expected an architecture name (letters, digits, _ - .; see `warpsim arch`), got '%s'",
                        quote(&q, v));
        return (o->arch = xstrdup(v)) ? WS_LAUNCH_OK : oom(s);
    }
    case WS_FLAG_ARCH_FILE:
        if (!*v)
            return fail(s, id, "expected a file name");
        return (o->arch_file = resolve(s, v)) ? WS_LAUNCH_OK : oom(s);
    case WS_FLAG_BANK_MODE:
        if (strcmp(v, "4") && strcmp(v, "8"))
            return fail(s, id, "expected 4 or 8, got '%s'", quote(&q, v));
        o->bank_mode = v[0] - '0';
        return WS_LAUNCH_OK;
    case WS_FLAG_METRICS: {
        int ok = *v && *v != ',';
        for (const char *p = v; *p && ok; p++) {
            unsigned char c = (unsigned char)*p;
            ok = c > 0x20 && c < 0x7f && !(c == ',' && (p[1] == ',' || p[1] == '\0'));
        }
        if (!ok)
            return fail(s, id, "expected a comma-separated list of metric names, got '%s'", quote(&q, v));
        return (o->metrics = xstrdup(v)) ? WS_LAUNCH_OK : oom(s);
    }
    case WS_FLAG_TRACE_WARP: {
        const char *c = strchr(v, ':');
        uint64_t b, w;
        if (!c || ws_parse_u64n(v, (size_t)(c - v), 0, &b) || b > (uint64_t)INT32_MAX || ws_parse_u64(c + 1, 0, &w) || w > 31)
            return fail(s, id, "expected B:W (a block index, then a warp index within the block from 0 to 31), got '%s'",
                        quote(&q, v));
        o->trace_block = (int64_t)b;
        o->trace_warp = (int)w;
        return WS_LAUNCH_OK;
    }
    case WS_FLAG_MAX_STEPS:
        if (ws_parse_u64(v, 0, &n) || n == 0)
            return fail(s, id, "expected a positive integer, got '%s'", quote(&q, v));
        o->max_steps = n;
        return WS_LAUNCH_OK;
    case WS_FLAG_JOBS:
        if (ws_parse_u64(v, 0, &n) || n == 0 || n > 1024)
            return fail(s, id, "expected an integer from 1 to 1024, got '%s'", quote(&q, v));
        o->jobs = (int)n;
        return WS_LAUNCH_OK;
    case WS_FLAG_MEM_LIMIT:
        if (ws_parse_size_n(v, strlen(v), &n) || n == 0)
            return fail(s, id, "expected a positive byte count (an integer, optional K/M/G suffix), got '%s'", quote(&q, v));
        o->mem_limit = n;
        return WS_LAUNCH_OK;
    case WS_FLAG_LAUNCH_SKIP:
        if (ws_parse_u64(v, 0, &n))
            return fail(s, id, "expected a non-negative integer, got '%s'", quote(&q, v));
        o->launch_skip = n;
        return WS_LAUNCH_OK;
    case WS_FLAG_LAUNCH_COUNT:
        if (ws_parse_u64(v, 0, &n) || n == 0)
            return fail(s, id, "expected a positive integer, got '%s'", quote(&q, v));
        o->launch_count = n;
        return WS_LAUNCH_OK;
    case WS_FLAG_CC:
        if (strcmp(v, "clang") && strcmp(v, "nvcc"))
            return fail(s, id, "expected clang or nvcc, got '%s'", quote(&q, v));
        return (o->cc = xstrdup(v)) ? WS_LAUNCH_OK : oom(s);
    case WS_FLAG_CFLAGS:
        return (o->cflags = xstrdup(v)) ? WS_LAUNCH_OK : oom(s);
    case WS_FLAG_LOG_FILE:
        if (!*v)
            return fail(s, id, "expected a file name");
        return (o->log_file = resolve(s, v)) ? WS_LAUNCH_OK : oom(s);
    case WS_FLAG_TIMELINE:
        if (!*v)
            return fail(s, id, "expected a file name");
        return (o->timeline = resolve(s, v)) ? WS_LAUNCH_OK : oom(s);
    case WS_FLAG_HTML:
        if (!*v)
            return fail(s, id, "expected a file name");
        return (o->html = resolve(s, v)) ? WS_LAUNCH_OK : oom(s);
    case WS_FLAG_CHECK: {
        char tools[256];
        snprintf(tools, sizeof tools, "%s", v);
        for (char *t = strtok(tools, ","); t; t = strtok(NULL, ",")) {
            if (!strcmp(t, "initcheck"))
                o->initcheck = 1;
            else if (!strcmp(t, "racecheck"))
                o->racecheck = 1;
            else if (!strcmp(t, "synccheck"))
                o->synccheck = 1;
            else if (strcmp(t, "memcheck"))
                return fail(s, id, "unknown tool '%s' (initcheck, racecheck, synccheck, memcheck)", quote(&q, t));
        }
        if (!*v)
            return fail(s, id, "expected initcheck, racecheck, synccheck or memcheck");
        return WS_LAUNCH_OK;
    }
    case WS_FLAG_RACECHECK_GLOBAL:
        if (strcmp(v, "yes") && strcmp(v, "no"))
            return fail(s, id, "expected yes or no, got '%s'", quote(&q, v));
        o->racecheck_global = !strcmp(v, "yes");
        return WS_LAUNCH_OK;
    case WS_FLAG_SCHED:
        if (strcmp(v, "lockstep") && strcmp(v, "its"))
            return fail(s, id, "expected lockstep or its, got '%s'", quote(&q, v));
        o->sched = !strcmp(v, "its") ? WS_SCHED_ITS : WS_SCHED_LOCKSTEP;
        return WS_LAUNCH_OK;
    case WS_FLAG_SEED:
        if (ws_parse_u64(v, 0, &n))
            return fail(s, id, "expected a non-negative integer, got '%s'", quote(&q, v));
        o->seed = n;
        return WS_LAUNCH_OK;
    case WS_FLAG_PRINT_LIMIT:
        if (ws_parse_u64(v, 0, &n))
            return fail(s, id, "expected a non-negative integer, got '%s'", quote(&q, v));
        o->print_limit = n;
        return WS_LAUNCH_OK;
    case WS_FLAG_DEVICES:
        if (ws_parse_u64(v, 0, &n) || n == 0 || n > 16)
            return fail(s, id, "expected an integer from 1 to 16, got '%s'", quote(&q, v));
        o->devices = (int)n;
        return WS_LAUNCH_OK;
    case WS_FLAG_LEAK_CHECK:
        if (strcmp(v, "full") && strcmp(v, "none"))
            return fail(s, id, "expected full or none, got '%s'", quote(&q, v));
        o->leak_check = !strcmp(v, "full");
        return WS_LAUNCH_OK;
    case WS_FLAG_SOURCE:
        o->source = 1;
        return WS_LAUNCH_OK;
    case WS_FLAG_STATS:
        o->stats = 1;
        return WS_LAUNCH_OK;
    case WS_FLAG_BUILD:
        if (strcmp(v, "real") != 0 && strcmp(v, "O0") != 0)
            return fail(s, id, "expected real or O0, got '%s'", quote(&q, v));
        o->build_o0 = strcmp(v, "O0") == 0;
        return WS_LAUNCH_OK;
    case WS_FLAG_NO_TIMING:
        o->no_timing = 1;
        return WS_LAUNCH_OK;
    case WS_FLAG_REGS:
        if (ws_parse_u64(v, 0, &n) || n == 0 || n > 255)
            return fail(s, id, "expected an integer from 1 to 255, got '%s'", quote(&q, v));
        o->regs = (uint32_t)n;
        return WS_LAUNCH_OK;
    case WS_FLAG_CSV:
    case WS_FLAG_JSON:
        if (s->given[id == WS_FLAG_CSV ? WS_FLAG_JSON : WS_FLAG_CSV])
            return fail(s, id, "conflicts with %s%s (choose one output format)", s->path ? "" : "--",
                        ws_flags[id == WS_FLAG_CSV ? WS_FLAG_JSON : WS_FLAG_CSV].name);
        o->format = id == WS_FLAG_CSV ? WS_OUT_CSV : WS_OUT_JSON;
        return WS_LAUNCH_OK;
    case WS_FLAG_QUIET:
        o->quiet = 1;
        return WS_LAUNCH_OK;
    case WS_FLAG_COLOR:
        if (!strcmp(v, "auto"))
            o->color = WS_COLOR_AUTO;
        else if (!strcmp(v, "always"))
            o->color = WS_COLOR_ALWAYS;
        else if (!strcmp(v, "never"))
            o->color = WS_COLOR_NEVER;
        else
            return fail(s, id, "expected auto, always or never, got '%s'", quote(&q, v));
        return WS_LAUNCH_OK;
    case WS_FLAG_HELP:
        o->help = 1;
        return WS_LAUNCH_OK;
    }
    return fail(s, -1, "internal error: flag %d", id);
}

/* ---- .launch text --------------------------------------------------------------- */

static ws_launch_status parse_text(pstate *s, const char *text, size_t len)
{
    qbuf q;
    size_t pos = 0;
    int line = 0;
    while (pos < len) {
        if (line == INT_MAX)
            return failc(s, WS_LAUNCH_INPUT, -1, "too many lines");
        line++;
        s->line = line;
        s->col = 1;
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t next = nl ? end + 1 : len;
        const char *nul = memchr(text + pos, '\0', end - pos);
        if (nul) {
            s->col = (int)((size_t)(nul - (text + pos)) + 1 > INT_MAX ? INT_MAX : (size_t)(nul - (text + pos)) + 1);
            return failc(s, WS_LAUNCH_INPUT, -1, "unexpected NUL byte (is this a text file?)");
        }
        size_t p = pos;
        while (p < end && is_blank(text[p]))
            p++;
        if (p == end || text[p] == '#') {
            pos = next;
            continue;
        }
        size_t ns = p;
        while (p < end && !is_blank(text[p]))
            p++;
        size_t ne = p;
        while (p < end && is_blank(text[p]))
            p++;
        size_t vs = p;
        while (p < end && !(text[p] == '#' && is_blank(text[p - 1])))
            p++;
        size_t ve = p;
        while (ve > vs && is_blank(text[ve - 1]))
            ve--;

        size_t ncol = ns - pos + 1, vcol = (ve > vs ? vs : ne) - pos + 1;   /* a missing value: just past the name */
        s->col = ncol > INT_MAX ? INT_MAX : (int)ncol;
        char *name = xstrndup(text + ns, ne - ns);
        char *value = ve > vs ? xstrndup(text + vs, ve - vs) : NULL;
        if (!name || (ve > vs && !value)) {
            free(name);
            free(value);
            return oom(s);
        }
        ws_launch_status rc = WS_LAUNCH_OK;
        int id = ws_flag_lookup(name, ne - ns);
        if (id < 0 || ws_flags[id].scope == WS_SCOPE_CLI) {
            const char *eq = strchr(name, '=');
            if (name[0] == '-' && name[1] == '-' && ws_flag_lookup(name + 2, strlen(name + 2)) >= 0)
                rc = failc(s, WS_LAUNCH_INPUT, -1, "unknown flag '%s' (in a .launch file, write flags without the leading dashes)",
                           quote(&q, name));
            else if (eq && ws_flag_lookup(name, (size_t)(eq - name)) >= 0)
                rc = failc(s, WS_LAUNCH_INPUT, -1, "unknown flag '%s' (write the name, a blank, then the value)", quote(&q, name));
            else
                rc = failc(s, WS_LAUNCH_INPUT, -1, "unknown flag '%s'", quote(&q, name));
        } else {
            s->col = vcol > INT_MAX ? INT_MAX : (int)vcol;
            if (ws_flags[id].scope == WS_SCOPE_SWITCH) {
                if (value)
                    rc = fail(s, id, "takes no value, got '%s'", quote(&q, value));
                else
                    rc = apply(s, id, NULL);
            } else if (!value)
                rc = fail(s, id, "missing value (expected %s)", ws_flags[id].expected);
            else
                rc = apply(s, id, value);
        }
        free(name);
        free(value);
        if (rc != WS_LAUNCH_OK)
            return rc;
        pos = next;
    }
    return WS_LAUNCH_OK;
}

/* ---- The whole description ----------------------------------------------------- */

/* "a, b, c" (truncated) for messages. */
static const char *buffer_list(const ws_run_options *o, char *buf, size_t n)
{
    if (o->buffer_count == 0)
        return "no buffer is defined";
    size_t k = (size_t)snprintf(buf, n, "the buffers are ");
    for (int i = 0; i < o->buffer_count && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s", i ? ", " : "", o->buffers[i].name);
        if (w < 0)
            break;
        k += (size_t)w;
    }
    if (k >= n && n > 4)
        memcpy(buf + n - 4, "...", 4);
    return buf;
}

static ws_launch_status resolve_all(pstate *s, const name_index *ix);

/* Check the merged description; resolve args and dumps; settle defaults. */
/* A .cu file with no grid anywhere is a whole program: --kernel becomes the
 * report's filter, and the flags that describe a launch have no place. */
static ws_launch_status finish_program(pstate *s)
{
    ws_run_options *o = s->o;
    static const int launch_only[] = {WS_FLAG_GRID, WS_FLAG_BLOCK, WS_FLAG_SHARED, WS_FLAG_ARG, WS_FLAG_BUF,
                                      WS_FLAG_DUMP};
    for (size_t i = 0; i < sizeof launch_only / sizeof launch_only[0]; i++)
        if (s->given[launch_only[i]])
            return failc(s, WS_LAUNCH_USAGE, launch_only[i], "describes a launch from the command line, but %s "
                         "runs as a program (its main() launches the kernels); give --grid and --block to run a "
                         "kernel of it without main()", o->cu_path ? o->cu_path : "the program");
    if (o->group_count > 1)
        return failc(s, WS_LAUNCH_USAGE, WS_FLAG_KERNEL, "given twice: a program's report takes one kernel name");
    if (o->group_count == 1) {
        o->kernel_filter = o->groups[0].kernel;
        o->groups[0].kernel = NULL;
        free_group(&o->groups[0]);
        o->group_count = 0;
    }
    o->program = 1;
    return WS_LAUNCH_OK;
}

static ws_launch_status finish(pstate *s)
{
    ws_run_options *o = s->o;
    if (o->cu_path && !s->given[WS_FLAG_GRID] && !s->given[WS_FLAG_BLOCK])
        return finish_program(s);
    if (o->program_argc && !o->cu_path)
        return failc(s, WS_LAUNCH_USAGE, -1, "arguments after -- are for a .cu program, but there is none "
                     "(got '%s')", o->program_argv[0]);
    if (o->program_argc)
        return failc(s, WS_LAUNCH_USAGE, -1, "arguments after -- go to a .cu program's main(), but --grid makes "
                     "this a kernel launch");
    if (!o->ptx_path && o->cu_path) {
        /* the kernels of a .cu: sim/cu_build.c compiles it into ptx_path before the session opens */
    } else if (!o->ptx_path) {
        if (s->path)
            return failc(s, WS_LAUNCH_INPUT, -1, "no PTX file: add a `ptx FILE` line (or give --ptx)");
        return failc(s, WS_LAUNCH_USAGE, -1, "missing FILE.ptx or FILE.launch (try `warpsim run --help`)");
    }
    if (o->group_count == 0) {
        if (s->path)
            return failc(s, WS_LAUNCH_INPUT, -1, "grid is required: the file has no grid line");
        return failc(s, WS_LAUNCH_USAGE, -1, "--grid is required");
    }
    name_index ix;
    if (index_build(&ix, o))
        return failc(s, WS_LAUNCH_INPUT, -1, "out of memory");
    ws_launch_status rc = resolve_all(s, &ix);
    free(ix.slot);
    return rc;
}

static ws_launch_status resolve_all(pstate *s, const name_index *ix)
{
    ws_run_options *o = s->o;
    char list[160];
    for (int gi = 0; gi < o->group_count; gi++) {
        ws_launch_group *g = &o->groups[gi];
        for (int k = 0; k < 2; k++) {
            if ((k == 0 ? g->grid : g->block)[0])
                continue;
            const char *what = k == 0 ? "grid" : "block";
            if (g->line > 0 && s->path) {
                if (g->kernel)
                    return ws_run_options_error(o, g->line, 1, NULL, s->err, s->errlen,
                                                "%s is required: the launch group of `kernel %s` has no %s line "
                                                "(each launch group states its own grid and block)", what, g->kernel, what);
                return ws_run_options_error(o, g->line, 1, NULL, s->err, s->errlen,
                                            "%s is required: the launch group starting here has no %s line", what, what);
            }
            if (g->kernel && o->group_count > 1)
                return ws_run_options_error(o, 0, 0, NULL, s->err, s->errlen,
                                            "--%s is required (for the launch group of --kernel %s; each --kernel starts "
                                            "a group with its own --grid and --block)", what, g->kernel);
            return ws_run_options_error(o, 0, 0, NULL, s->err, s->errlen, "--%s is required", what);
        }
        if (g->shared_bytes == SHARED_UNSET)
            g->shared_bytes = 0;
        for (int ai = 0; ai < g->arg_count; ai++) {
            ws_arg_spec *a = &g->args[ai];
            if (a->type != ARG_UNRESOLVED)
                continue;
            int b = index_find(ix, o, a->text);
            if (b < 0) {
                qbuf q;
                return ws_run_options_error(o, a->line, a->col, "arg", s->err, s->errlen, "unknown buffer '%s' (%s)",
                                            quote(&q, a->text), buffer_list(o, list, sizeof list));
            }
            a->buffer = b;
            a->type = PTX_U64;
            a->bits = 0;
        }
    }
    for (int di = 0; di < o->dump_count; di++) {
        ws_dump_spec *d = &o->dumps[di];
        d->buffer = index_find(ix, o, d->name);
        if (d->buffer < 0) {
            qbuf q;
            return ws_run_options_error(o, d->line, d->col, "dump", s->err, s->errlen, "unknown buffer '%s' (%s)",
                                        quote(&q, d->name), buffer_list(o, list, sizeof list));
        }
    }
    uint64_t total = 0;
    int from_file = 0;
    for (int i = 0; i < o->buffer_count; i++) {
        uint64_t b = ws_buffer_bytes(&o->buffers[i]);
        total = total > UINT64_MAX - b ? UINT64_MAX : total + b;
        from_file |= o->buffers[i].line > 0;
    }
    if (total > o->mem_limit) {
        if (from_file && s->path)
            return failc(s, WS_LAUNCH_INPUT, -1,
                         "the buffers need %llu bytes in all, more than the memory limit of %llu bytes (raise mem-limit)",
                         (unsigned long long)total, (unsigned long long)o->mem_limit);
        return ws_run_options_error(o, 0, 0, NULL, s->err, s->errlen,
                                    "the buffers need %llu bytes in all, more than --mem-limit (%llu bytes)",
                                    (unsigned long long)total, (unsigned long long)o->mem_limit);
    }
    return WS_LAUNCH_OK;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? xstrndup(path, (size_t)(slash - path) + 1) : xstrdup("");
}

ws_launch_status ws_run_options_parse_launch_text(const char *text, size_t len, const char *path,
                                                  ws_run_options *o, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    options_init(o);
    if (!path)
        path = "<launch>";
    pstate s;
    pstate_init(&s, o, path, err, errlen);
    ws_launch_status rc;
    if (!(s.dir = dir_of(path)) || !(o->launch_path = xstrdup(path)))
        rc = oom(&s);
    else if (!text && len)
        rc = failc(&s, WS_LAUNCH_INPUT, -1, "no text");
    else if ((rc = parse_text(&s, text ? text : "", len)) == WS_LAUNCH_OK) {
        s.line = 0;
        rc = finish(&s);
    }
    free(s.dir);
    if (rc != WS_LAUNCH_OK)
        ws_run_options_free(o);
    return rc;
}

/* Read a whole (text) file; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                int e = errno ? errno : EIO;
                free(buf);
                fclose(f);
                errno = e;
                return NULL;
            }
            break;
        }
        if (cap >= ((size_t)64 << 20)) {
            free(buf);
            fclose(f);
            errno = EFBIG;
            return NULL;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (!buf) {
        errno = ENOMEM;
        return NULL;
    }
    *len = n;
    return buf;
}

/* Move the command line's settings (c) over the file's (f). */
static ws_launch_status merge(pstate *f, pstate *c)
{
    ws_run_options *fo = f->o, *co = c->o;
    qbuf q;
#define TAKE(field) do { free(fo->field); fo->field = co->field; co->field = NULL; } while (0)
    if (co->ptx_path)
        TAKE(ptx_path);
    if (co->arch)
        TAKE(arch);
    if (co->arch_file)
        TAKE(arch_file);
    if (co->metrics)
        TAKE(metrics);
    if (co->cc)
        TAKE(cc);
    if (co->cflags)
        TAKE(cflags);
    if (co->log_file)
        TAKE(log_file);
    if (co->timeline)
        TAKE(timeline);
    if (co->html)
        TAKE(html);
#undef TAKE
    if (c->given[WS_FLAG_BANK_MODE]) fo->bank_mode = co->bank_mode;
    if (c->given[WS_FLAG_TRACE_WARP]) {
        fo->trace_block = co->trace_block;
        fo->trace_warp = co->trace_warp;
    }
    if (c->given[WS_FLAG_MAX_STEPS]) fo->max_steps = co->max_steps;
    if (c->given[WS_FLAG_JOBS]) fo->jobs = co->jobs;
    if (c->given[WS_FLAG_MEM_LIMIT]) fo->mem_limit = co->mem_limit;
    if (c->given[WS_FLAG_CSV] || c->given[WS_FLAG_JSON]) fo->format = co->format;
    if (c->given[WS_FLAG_COLOR]) fo->color = co->color;
    if (c->given[WS_FLAG_LAUNCH_SKIP]) fo->launch_skip = co->launch_skip;
    if (c->given[WS_FLAG_LAUNCH_COUNT]) fo->launch_count = co->launch_count;
    if (c->given[WS_FLAG_DEVICES]) fo->devices = co->devices;
    if (c->given[WS_FLAG_PRINT_LIMIT]) fo->print_limit = co->print_limit;
    if (c->given[WS_FLAG_RACECHECK_GLOBAL]) fo->racecheck_global = co->racecheck_global;
    if (c->given[WS_FLAG_SCHED]) fo->sched = co->sched;
    if (c->given[WS_FLAG_SEED]) fo->seed = co->seed;
    if (c->given[WS_FLAG_LEAK_CHECK]) fo->leak_check = co->leak_check;
    if (c->given[WS_FLAG_CHECK]) {
        fo->initcheck = co->initcheck;
        fo->racecheck = co->racecheck;
        fo->synccheck = co->synccheck;
    }
    fo->source |= co->source;
    fo->stats |= co->stats;
    fo->no_timing |= co->no_timing;
    if (c->given[WS_FLAG_REGS]) fo->regs = co->regs;
    if (c->given[WS_FLAG_BUILD]) fo->build_o0 = co->build_o0;
    fo->quiet |= co->quiet;

    for (int i = 0; i < co->buffer_count; i++) {
        int k = find_buffer(fo, co->buffers[i].name);
        if (k >= 0)
            free_buffer(&fo->buffers[k]);
        else {
            if (grow((void **)&fo->buffers, fo->buffer_count, sizeof *fo->buffers))
                return oom(c);
            k = fo->buffer_count++;
        }
        fo->buffers[k] = co->buffers[i];
        memset(&co->buffers[i], 0, sizeof co->buffers[i]);
    }
    for (int i = 0; i < co->dump_count; i++) {
        if (grow((void **)&fo->dumps, fo->dump_count, sizeof *fo->dumps))
            return oom(c);
        fo->dumps[fo->dump_count++] = co->dumps[i];
        memset(&co->dumps[i], 0, sizeof co->dumps[i]);
    }

    if (c->any_kernel || (co->group_count && !fo->group_count)) {
        for (int i = 0; i < fo->group_count; i++)
            free_group(&fo->groups[i]);
        free(fo->groups);
        fo->groups = co->groups;
        fo->group_count = co->group_count;
        co->groups = NULL;
        co->group_count = 0;
    } else if (co->group_count) {
        if (fo->group_count > 1) {
            c->line = 0;
            return failc(c, WS_LAUNCH_USAGE, c->group_flag >= 0 ? c->group_flag : WS_FLAG_GRID,
                         "'%s' has %d launch groups; give --kernel to replace them all", quote(&q, f->path), fo->group_count);
        }
        ws_launch_group *fg = &fo->groups[0], *cg = &co->groups[0];
        if (cg->grid[0])
            memcpy(fg->grid, cg->grid, sizeof fg->grid);
        if (cg->block[0])
            memcpy(fg->block, cg->block, sizeof fg->block);
        if (cg->shared_bytes != SHARED_UNSET)
            fg->shared_bytes = cg->shared_bytes;
        if (cg->arg_count) {
            for (int i = 0; i < fg->arg_count; i++)
                free(fg->args[i].text);
            free(fg->args);
            fg->args = cg->args;
            fg->arg_count = cg->arg_count;
            cg->args = NULL;
            cg->arg_count = 0;
        }
    }
    return WS_LAUNCH_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

ws_launch_status ws_run_options_parse_argv(int argc, char **argv, ws_run_options *o, char *err, size_t errlen)
{
    qbuf q1, q2;
    if (err && errlen)
        err[0] = '\0';
    options_init(o);
    ws_run_options co, fo;
    options_init(&co);
    options_init(&fo);
    pstate c, f;
    pstate_init(&c, &co, NULL, err, errlen);
    pstate_init(&f, &fo, NULL, err, errlen);
    ws_launch_status rc = WS_LAUNCH_OK;
    const char *positional = NULL;
    int flags_done = 0;

    for (int i = 1; i < argc && rc == WS_LAUNCH_OK && !co.help; i++) {
        const char *a = argv[i];
        if (!a)
            break;
        if (!flags_done && !strcmp(a, "--")) {
            flags_done = 1;
            continue;
        }
        if (flags_done && positional) {   /* after "--" and the file: the program's own arguments */
            char **p = realloc(co.program_argv, sizeof *p * (size_t)(co.program_argc + 1));
            if (!p || !(p[co.program_argc] = xstrdup(a))) {
                if (p)
                    co.program_argv = p;
                rc = oom(&c);
                break;
            }
            co.program_argv = p;
            co.program_argc++;
            continue;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (positional)
                rc = failc(&c, WS_LAUNCH_USAGE, -1, "unexpected argument '%s' (already given '%s'; one FILE.ptx, FILE.launch or FILE.cu; "
                           "a program's arguments go after --)",
                           quote(&q1, a), quote(&q2, positional));
            positional = a;
            continue;
        }
        if (!strcmp(a, "-h")) {
            co.help = 1;
            break;
        }
        const char *name = a + 2;
        const char *eq = a[1] == '-' ? strchr(name, '=') : NULL;
        int id = a[1] == '-' ? ws_flag_lookup(name, eq ? (size_t)(eq - name) : strlen(name)) : -1;
        if (id < 0) {
            rc = failc(&c, WS_LAUNCH_USAGE, -1, "unknown flag '%s' (try `warpsim run --help`)", quote(&q1, a));
            break;
        }
        const char *value = NULL;
        int switch_like = ws_flags[id].scope == WS_SCOPE_SWITCH || ws_flags[id].scope == WS_SCOPE_CLI;
        if (eq) {
            if (switch_like) {
                rc = fail(&c, id, "takes no value, got '%s'", quote(&q1, eq + 1));
                break;
            }
            value = eq + 1;
        } else if (!switch_like) {
            if (i + 1 >= argc || !argv[i + 1]) {
                rc = fail(&c, id, "missing value (expected %s)", ws_flags[id].expected);
                break;
            }
            value = argv[++i];
        }
        rc = apply(&c, id, value);
    }

    if (rc == WS_LAUNCH_OK && co.help) {
        ws_run_options_free(&co);
        o->help = 1;
        return WS_LAUNCH_OK;
    }
    if (rc == WS_LAUNCH_OK && positional && ends_with(positional, ".launch")) {
        size_t len = 0;
        char *text = read_file(positional, &len);
        if (!text) {
            const char *why = strerror(errno);
            rc = failc(&c, WS_LAUNCH_INPUT, -1, "cannot read '%s': %s", quote(&q1, positional), why);
        } else {
            f.path = positional;
            if (!(f.dir = dir_of(positional)) || !(fo.launch_path = xstrdup(positional)))
                rc = oom(&f);
            else
                rc = parse_text(&f, text, len);
            free(text);
            if (rc == WS_LAUNCH_OK)
                rc = merge(&f, &c);
            if (rc == WS_LAUNCH_OK) {
                f.line = 0;
                rc = finish(&f);
            }
        }
        if (rc == WS_LAUNCH_OK) {
            *o = fo;
            memset(&fo, 0, sizeof fo);
        }
    } else if (rc == WS_LAUNCH_OK && positional && ends_with(positional, ".cu")) {
        if (!(co.cu_path = xstrdup(positional)))
            rc = oom(&c);
        if (rc == WS_LAUNCH_OK)
            rc = finish(&c);
        if (rc == WS_LAUNCH_OK) {
            *o = co;
            memset(&co, 0, sizeof co);
        }
    } else if (rc == WS_LAUNCH_OK) {
        if (positional && co.ptx_path) {
            c.line = 0;
            rc = fail(&c, WS_FLAG_PTX, "the PTX file is already given as '%s'", quote(&q1, positional));
        } else if (positional && !(co.ptx_path = xstrdup(positional)))
            rc = oom(&c);
        if (rc == WS_LAUNCH_OK)
            rc = finish(&c);
        if (rc == WS_LAUNCH_OK) {
            *o = co;
            memset(&co, 0, sizeof co);
        }
    }
    free(f.dir);
    ws_run_options_free(&co);
    ws_run_options_free(&fo);
    if (rc != WS_LAUNCH_OK)
        options_init(o);
    return rc;
}


/* ---- WARPSIM_FLAGS ------------------------------------------------------------------ */

/* Split text into words at blanks, with '...' and "..." quoting and \ escaping
 * the next character (outside single quotes). Returns the count, or -1. */
static int split_words(const char *text, char ***words_out)
{
    size_t len = strlen(text);
    char **words = NULL;
    int n = 0;
    char *buf = malloc(len + 1);
    if (!buf)
        return -1;
    const char *p = text;
    for (;;) {
        while (*p && is_blank(*p)) p++;
        if (*p == '\n') { p++; continue; }
        if (!*p)
            break;
        size_t k = 0;
        char quote_char = 0;
        for (; *p && (quote_char || (!is_blank(*p) && *p != '\n')); p++) {
            if (quote_char) {
                if (*p == quote_char) quote_char = 0;
                else if (*p == '\\' && quote_char == '"' && p[1]) buf[k++] = *++p;
                else buf[k++] = *p;
            } else if (*p == '\'' || *p == '"') {
                quote_char = *p;
            } else if (*p == '\\' && p[1]) {
                buf[k++] = *++p;
            } else {
                buf[k++] = *p;
            }
        }
        if (quote_char) {   /* unterminated quote */
            for (int i = 0; i < n; i++) free(words[i]);
            free(words);
            free(buf);
            return -2;
        }
        char **w = realloc(words, sizeof *w * (size_t)(n + 2));
        if (!w || !(w[n] = xstrndup(buf, k))) {
            if (w) words = w;
            for (int i = 0; i < n; i++) free(words[i]);
            free(words);
            free(buf);
            return -1;
        }
        words = w;
        n++;
    }
    free(buf);
    *words_out = words;
    return n;
}

ws_launch_status ws_run_options_parse_program_flags(const char *text, ws_run_options *o, char *err, size_t errlen)
{
    options_init(o);
    if (err && errlen)
        err[0] = 0;
    char **words = NULL;
    int n = split_words(text ? text : "", &words);
    if (n < 0) {
        snprintf(err, errlen, "WARPSIM_FLAGS: %s", n == -2 ? "a quote is not closed" : "out of memory");
        return WS_LAUNCH_USAGE;
    }
    char **argv = calloc((size_t)n + 2, sizeof *argv);
    if (!argv) {
        for (int i = 0; i < n; i++) free(words[i]);
        free(words);
        snprintf(err, errlen, "WARPSIM_FLAGS: out of memory");
        return WS_LAUNCH_USAGE;
    }
    argv[0] = "run";
    for (int i = 0; i < n; i++)
        argv[i + 1] = words[i];
    ws_run_options co;
    options_init(&co);
    pstate c;
    pstate_init(&c, &co, NULL, err, errlen);
    ws_launch_status rc = WS_LAUNCH_OK;
    qbuf q1;
    for (int i = 1; i <= n && rc == WS_LAUNCH_OK; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] != '-') {
            rc = failc(&c, WS_LAUNCH_USAGE, -1, "unexpected '%s' (only flags: `warpsim run --help` lists them)",
                       quote(&q1, a));
            break;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        int id = ws_flag_lookup(name, eq ? (size_t)(eq - name) : strlen(name));
        if (id < 0) {
            rc = failc(&c, WS_LAUNCH_USAGE, -1, "unknown flag '%s' (try `warpsim run --help`)", quote(&q1, a));
            break;
        }
        int switch_like = ws_flags[id].scope == WS_SCOPE_SWITCH || ws_flags[id].scope == WS_SCOPE_CLI;
        const char *value = NULL;
        if (eq && switch_like) {
            rc = fail(&c, id, "takes no value, got '%s'", quote(&q1, eq + 1));
            break;
        }
        if (eq)
            value = eq + 1;
        else if (!switch_like) {
            if (i + 1 > n) {
                rc = fail(&c, id, "missing value (expected %s)", ws_flags[id].expected);
                break;
            }
            value = argv[++i];
        }
        rc = apply(&c, id, value);
    }
    if (rc == WS_LAUNCH_OK)
        rc = finish_program(&c);
    if (rc == WS_LAUNCH_OK) {
        *o = co;
        memset(&co, 0, sizeof co);
    } else if (err && errlen) {
        /* say where the flags came from */
        char tmp[2048];
        snprintf(tmp, sizeof tmp, "%s", err);
        const char *msg = !strncmp(tmp, "warpsim run: ", 13) ? tmp + 13 : tmp;
        snprintf(err, errlen, "WARPSIM_FLAGS: %s", msg);
    }
    ws_run_options_free(&co);
    for (int i = 0; i < n; i++) free(words[i]);
    free(words);
    free(argv);
    return rc;
}
