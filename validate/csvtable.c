/*
 * validate/csvtable.h's helpers: allocation that exits on failure, files,
 * shell quoting, running warpsim, and the CSV reader.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "validate/csvtable.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* ---- Small helpers -------------------------------------------------------------- */

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("compare: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("compare: out of memory\n", stderr);
        exit(2);
    }
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *p = xmalloc(n + 1);
    memcpy(p, s, n + 1);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fputs("compare: formatting error\n", stderr);
        exit(2);
    }
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

int starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Whole file, NUL-terminated; NULL when unreadable. */
char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

uint64_t fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* 'text' for a POSIX shell. */
char *shell_quote(const char *s)
{
    size_t n = 2;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *q = xmalloc(n + 1), *o = q;
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

/* ---- CSV (ncu --csv --page raw, and warpsim --csv) ------------------------------ */



/* Split one physical line into fields ("..." quoting with "" for a quote). */
csv_row split_line(const char *line, size_t len)
{
    csv_row r = {0, NULL};
    int cap = 0;
    size_t i = 0;
    for (;;) {
        char *field = xmalloc(len + 1);
        size_t fl = 0;
        if (i < len && line[i] == '"') {
            i++;
            while (i < len) {
                if (line[i] == '"') {
                    if (i + 1 < len && line[i + 1] == '"') {
                        field[fl++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                field[fl++] = line[i++];
            }
            while (i < len && line[i] != ',')   /* junk after the closing quote: keep it */
                field[fl++] = line[i++];
        } else {
            while (i < len && line[i] != ',')
                field[fl++] = line[i++];
        }
        field[fl] = '\0';
        if (r.nfields == cap)
            r.fields = xrealloc(r.fields, sizeof(char *) * (size_t)(cap = cap ? cap * 2 : 16));
        r.fields[r.nfields++] = field;
        if (i < len && line[i] == ',') {
            i++;
            continue;
        }
        break;
    }
    return r;
}

void free_row(csv_row *r)
{
    for (int i = 0; i < r->nfields; i++)
        free(r->fields[i]);
    free(r->fields);
    r->fields = NULL;
    r->nfields = 0;
}

void free_table(csv_table *t)
{
    for (int i = 0; i < t->ncols; i++) {
        free(t->header[i]);
        if (t->units)
            free(t->units[i]);
    }
    free(t->header);
    free(t->units);
    for (int i = 0; i < t->nrows; i++)
        free_row(&t->rows[i]);
    free(t->rows);
    memset(t, 0, sizeof *t);
}

/* Lines starting with "==" (ncu's ==PROF==/==WARNING== messages) and any line
 * before the header (whose first field is "ID") are skipped; a row whose ID is
 * empty is the units row.  0, or -1 when no header was found. */
int parse_csv(const char *text, csv_table *t)
{
    memset(t, 0, sizeof *t);
    int have_header = 0, cap = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *next = e ? e + 1 : p + len;
        while (len && (p[len - 1] == '\r'))
            len--;
        if (len == 0 || (len >= 2 && p[0] == '=' && p[1] == '=')) {
            p = next;
            continue;
        }
        csv_row r = split_line(p, len);
        if (!have_header) {
            if (r.nfields > 1 && !strcmp(r.fields[0], "ID")) {
                t->ncols = r.nfields;
                t->header = r.fields;
                have_header = 1;
            } else {
                free_row(&r);
            }
        } else if (r.fields[0][0] == '\0') {
            if (!t->units && r.nfields == t->ncols) {
                t->units = r.fields;
                free(r.fields[0]);
                t->units[0] = xstrdup("");
            } else {
                free_row(&r);
            }
        } else {
            if (t->nrows == cap)
                t->rows = xrealloc(t->rows, sizeof(csv_row) * (size_t)(cap = cap ? cap * 2 : 16));
            t->rows[t->nrows++] = r;
        }
        p = next;
    }
    return have_header ? 0 : -1;
}

int column(const csv_table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (!strcmp(t->header[i], name))
            return i;
    return -1;
}

const char *cell(const csv_table *t, int row, int col)
{
    if (col < 0 || row < 0 || row >= t->nrows || col >= t->rows[row].nfields)
        return NULL;
    return t->rows[row].fields[col];
}

/* A metric value: thousands separators and blanks dropped; NAN when absent or
 * not a number ("n/a", ""). */
double parse_number(const char *s)
{
    if (!s)
        return NAN;
    char buf[128];
    size_t n = 0;
    for (; *s && n + 1 < sizeof buf; s++)
        if (*s != ',' && !isspace((unsigned char)*s))
            buf[n++] = *s;
    buf[n] = '\0';
    if (n == 0)
        return NAN;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end || errno == ERANGE)
        return NAN;
    return v;
}

/* The kernel-name column: "Kernel Name" (ncu and warpsim), or a fallback. */
int kernel_column(const csv_table *t)
{
    const char *names[] = {"Kernel Name", "Function Name", "Kernel", "Name"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int c = column(t, names[i]);
        if (c >= 0)
            return c;
    }
    return -1;
}

/* "vector_add(float *, int)" -> "vector_add"; also drops "void " in front. */
char *kernel_base(const char *name)
{
    if (!name)
        return xstrdup("?");
    if (starts_with(name, "void "))
        name += 5;
    size_t n = strcspn(name, "(<");
    char *s = xmalloc(n + 1);
    memcpy(s, name, n);
    s[n] = '\0';
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
    return s;
}

/* Run warpsim; its stdout into *out.  Returns its exit status (or -1). */
int run_warpsim(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    if (!p) {
        *out = xstrdup("");
        return -1;
    }
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, p);
        n += got;
        if (got == 0)
            break;
    }
    buf[n] = '\0';
    *out = buf;
    int st = pclose(p);
    if (st == -1)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
