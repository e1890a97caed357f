/*
 * validate/'s shared plumbing for its C tools (compare, compare_time): small
 * allocation and string helpers, reading a file, running warpsim, and CSV
 * tables as ncu --csv --page raw and warpsim --csv write them.
 */
#ifndef WARPSIM_VALIDATE_CSVTABLE_H
#define WARPSIM_VALIDATE_CSVTABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int nfields;
    char **fields;
} csv_row;

typedef struct {
    int ncols;
    char **header;
    char **units;      /* may be NULL */
    csv_row *rows;
    int nrows;
} csv_table;

int starts_with(const char *s, const char *p);
uint64_t fnv1a64(const unsigned char *p, size_t n);
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...);
char *read_file(const char *path, size_t *len);
char *shell_quote(const char *s);
csv_row split_line(const char *line, size_t len);
void free_row(csv_row *r);
void free_table(csv_table *t);
int parse_csv(const char *text, csv_table *t);
int column(const csv_table *t, const char *name);
const char *cell(const csv_table *t, int row, int col);
double parse_number(const char *s);
int kernel_column(const csv_table *t);
char *kernel_base(const char *name);
int run_warpsim(const char *cmd, char **out);

#endif
