/* Diagnostics: "FILE:LINE:COL: error: message" lines collected in a ptx_diag. */
#include "isa/lexer.h"
#include "isa/ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void diag_vadd(ptx_diag *d, const char *file, int line, int column, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (!file)
        file = "<input>";
    char head[64];
    if (line > 0 && column > 0)
        snprintf(head, sizeof head, ":%d:%d", line, column);
    else if (line > 0)
        snprintf(head, sizeof head, ":%d", line);
    else
        head[0] = 0;
    size_t n = strlen(file) + strlen(head) + strlen(msg) + 16;
    char *s = malloc(n);
    if (!s)
        return;
    snprintf(s, n, "%s%s: error: %s", file, head, msg);
    if (d->count == d->capacity) {
        int cap = d->capacity ? d->capacity * 2 : 8;
        char **l = realloc(d->lines, (size_t)cap * sizeof *l);
        if (!l) {
            free(s);
            return;
        }
        d->lines = l;
        d->capacity = cap;
    }
    d->lines[d->count++] = s;
    d->error_count++;
}

void ptx_diag_error(ptx_diag *d, const char *file, int line, int column, const char *fmt, ...)
{
    if (!d)
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, file, line, column, fmt, ap);
    va_end(ap);
}

int ptx_diag_report(ptx_diag *d, const char *file, int line, int column, const char *fmt, ...)
{
    if (!d)
        return 0;
    if (d->error_count > PTX_DIAG_MAX)
        return 0;
    if (d->error_count == PTX_DIAG_MAX) {
        ptx_diag_error(d, file, line, column, "too many errors; giving up");
        return 0;
    }
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, file, line, column, fmt, ap);
    va_end(ap);
    return 1;
}

void ptx_diag_print(const ptx_diag *d, FILE *f)
{
    if (!d)
        return;
    for (int i = 0; i < d->count; i++)
        fprintf(f, "%s\n", d->lines[i]);
}

void ptx_diag_free(ptx_diag *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->count; i++)
        free(d->lines[i]);
    free(d->lines);
    d->lines = NULL;
    d->count = d->capacity = d->error_count = 0;
}
