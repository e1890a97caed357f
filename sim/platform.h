/* What differs between the systems warpsim builds on, in one place: Linux (tested in CI), Windows through
 * MinGW-w64 (cross-compiled and run under Wine by tests/windows_build.sh), macOS (guarded, untested).
 * Everything else in the simulator is C11 and the POSIX that all three have. */
#ifndef WARPSIM_SIM_PLATFORM_H
#define WARPSIM_SIM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Peak resident memory of the process in KiB; 0 where the system does not say. */
uint64_t ws_peak_rss_kib(void);

/* Ask for 2 MiB pages under the whole 2 MiB pages of [p, p + size) (Linux's transparent huge pages, whose
 * default mode waits to be asked): a 64 MiB buffer's first writes then take 32 page faults instead of
 * 16384. Nothing happens where the system has no such pages or refuses. */
void ws_advise_huge_pages(void *p, size_t size);

/* Processors online, at least 1: the cap on helper threads. */
unsigned ws_cpu_count(void);

/* Make a written file's bytes durable (fsync, _commit on Windows); 0 or -1 with errno. */
int ws_sync_file(FILE *f);

/* rename(from, to), replacing an existing `to` on Windows too (MoveFileEx); 0 or -1 with errno. */
int ws_rename_replace(const char *from, const char *to);

/* A FILE that writes into memory (open_memstream; a temporary file on Windows, which has none). After
 * ws_memstream_close, *text holds the bytes written (malloc'd, NUL-terminated; NULL when out of memory)
 * and *len their count. */
typedef struct {
    FILE *f;
    char **text;
    size_t *len;
} ws_memstream;
FILE *ws_memstream_open(ws_memstream *m, char **text, size_t *len);
int ws_memstream_close(ws_memstream *m);   /* 0, or -1 when the bytes could not be kept */

/* An extended regular expression, matched anywhere in a string (regcomp with REG_EXTENDED | REG_NOSUB).
 * Windows has no <regex.h>: there a small matcher takes literals, '.', bracket expressions, '*', '+',
 * '?', '^', '$', '\' escapes and '|' between whole alternatives, and refuses groups. */
typedef struct {
    void *compiled;
} ws_regex;
int ws_regex_compile(ws_regex *re, const char *expr);   /* 0, or -1 when EXPR is not one */
int ws_regex_match(const ws_regex *re, const char *s);   /* 1 when it matches */
void ws_regex_free(ws_regex *re);

#endif
