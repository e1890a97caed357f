/*
 * The flags of `warpsim run`, from sim/flags.def: the table the option parser
 * reads, and the help and README table made from it (sim/flags.c).
 * Pure C11 + libc, like sim/options.c (validate/'s runner compiles both).
 */
#ifndef WARPSIM_SIM_FLAGS_H
#define WARPSIM_SIM_FLAGS_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
#define FLAG(id, name, scope, argument, expected, help) WS_FLAG_##id,
#include "sim/flags.def"
#undef FLAG
    WS_FLAG_COUNT
} ws_flag_id;

/* Where a flag may appear and how often (sim/flags.def explains each). */
typedef enum { WS_SCOPE_ONCE, WS_SCOPE_GROUP, WS_SCOPE_MANY, WS_SCOPE_SWITCH, WS_SCOPE_CLI } ws_flag_scope;

typedef struct {
    const char *name;        /* "trace-warp": --trace-warp on the command line, trace-warp in a .launch file */
    ws_flag_scope scope;
    const char *argument;    /* "B:W"; "" for a switch */
    const char *expected;    /* for "missing value (expected ...)"; NULL for a switch */
    const char *help;        /* lines separated by \n */
} ws_flag_info;

extern const ws_flag_info ws_flags[WS_FLAG_COUNT];

/* Whether the help line starting at `next` stands on a line of its own in
 * prose output (README, man page): an indented line or a "WORD:" line does;
 * other lines only wrap the sentence before them. */
int ws_flag_help_line_stands_alone(const char *next);

/* The flag named name[0..n) (no dashes), or -1. */
int ws_flag_lookup(const char *name, size_t n);

/* `warpsim run --help`: the synopsis, every flag, and how .launch files work. */
void ws_run_print_help(FILE *f);
/* The flag table of README.md (between its run-flags markers). */
void ws_run_print_flags_markdown(FILE *f);

#endif
