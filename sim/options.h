/*
 * The run options: what `warpsim run` is told to do, from its flags or from a
 * .launch file (sim/options.c parses both; the buffers' specs and fills are
 * sim/buffers.c's, the flag table sim/flags.def's).
 *
 * Pure C11 + libc (plus POSIX stat/getpid/fsync): options.c, flags.c,
 * values.c and buffers.c are also compiled into validate/'s CUDA-driver
 * runner, so they use nothing from sim/ or isa/ except isa/ptx.h's ptx_type
 * enum and ptx_types table.
 *
 * ---- The command line ------------------------------------------------------
 *
 *   warpsim run FILE.ptx [FLAGS]   or   warpsim run FILE.launch [FLAGS]
 *
 *   The flags, where each may appear and what each does: sim/flags.def (the
 *   one list; --help and README.md are printed from it). Their values:
 *
 *   TYPE   u8 s8 u16 s16 u32 s32 u64 s64 f32 f64
 *   COUNT  elements, 1 to 2^40; a K/M/G suffix multiplies by 2^10/2^20/2^30
 *   INIT   zero (the default) | iota | const=V | random=SEED | file=PATH
 *            iota: element i = i ((float)i, (double)i; integers keep the low bytes)
 *            const=V: V as for TYPE:VALUE below
 *            random=SEED: see "The random generator" in sim/buffers.h
 *            file=PATH: raw little-endian bytes; a shorter file leaves the rest
 *            zero, a longer one is an error
 *   ARG    (in the order of the kernel's .param list) a buffer NAME, passed as
 *          its u64 device address, or TYPE:VALUE: integers in decimal or 0x hex
 *          with an optional sign, range-checked against TYPE (u8:300 and
 *          u32:-1 are errors, s32:-1 is fine); f32/f64 as strtod reads them,
 *          f32 rounded with (float) and an error when that overflows.
 *   Every --kernel after the first that has one starts a new launch group;
 *   --grid, --block, --shared and --arg apply to the current group, every
 *   other flag is global. Each group states its own grid and block.
 *   Every flag also takes the form --flag=VALUE; "--" ends the flags.
 *   Limits (far above real launches; they keep hostile input cheap): 4096
 *   buffers, 4096 args per launch group, 65536 launch groups, 4096 dumps.
 *
 * ---- .launch files ---------------------------------------------------------
 *
 *   The same flags, one per line, without the leading dashes: `name value`
 *   (the first run of blanks separates them; the value is the rest of the
 *   line, blanks inside kept, so paths may hold spaces), or a switch alone
 *   (`csv`).  `#` at the start of a line or after a blank starts a comment;
 *   blank lines are ignored.  `ptx FILE` names the PTX file.  Relative paths
 *   (ptx, arch-file, file=PATH, dump paths) are resolved against the
 *   .launch file's directory.  A global flag may appear once per file (the
 *   switches any number of times).  Several groups `kernel ... grid ... block
 *   ... arg ...` run in order over the same buffers.
 *
 *   A .launch on the command line may be followed by more flags: global
 *   flags there override the file's; --buf replaces the file's buffer of the
 *   same name (or adds one); --dump adds a dump; --kernel replaces all of the
 *   file's launch groups; --grid/--block/--shared/--arg without --kernel
 *   override those of the file's single launch group (an error when it has
 *   several), --arg replacing the whole argument list.
 *
 * ---- Errors ------------------------------------------------------------------
 *
 *   Messages, written into err (no trailing newline):
 *     warpsim run: --grid: expected X[,Y[,Z]] with positive integers, got '0,2'
 *     FILE:LINE:COL: error: grid: expected X[,Y[,Z]] with positive integers, got '0,2'
 *     FILE: error: ...   (about the file as a whole)
 *   COL is the 1-based byte column of the value (of the name for an unknown
 *   flag).  Each parse function returns a ws_launch_status: WS_LAUNCH_USAGE
 *   for a bad command line, WS_LAUNCH_INPUT for an error in a .launch file
 *   or in a file either names (file=PATH, the .launch itself).
 */
#ifndef WARPSIM_SIM_OPTIONS_H
#define WARPSIM_SIM_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "isa/ptx.h"
#include "sim/buffers.h"
#include "sim/flags.h"

/* --sched: how the lanes of a warp run between synchronisations (sim/its.c). */
typedef enum {
    WS_SCHED_DEFAULT,             /* the architecture's: its from sm_70 (Volta) on, lockstep before */
    WS_SCHED_LOCKSTEP,            /* every lane sees every store at once (pre-Volta SIMT) */
    WS_SCHED_ITS,                 /* independent thread scheduling */
} ws_sched;

/* What the parse functions return; the values are warpsim's exit statuses. */
typedef enum {
    WS_LAUNCH_OK = 0,
    WS_LAUNCH_INPUT = 1,   /* an error in a .launch file or a file it (or a flag) names */
    WS_LAUNCH_USAGE = 2,   /* a bad command line */
} ws_launch_status;

/* line/col in the specs below: where the item was written in the .launch
 * file (1-based); line 0 means the command line. */
typedef struct {
    int buffer;              /* index into buffers, or -1 for a TYPE:VALUE */
    ptx_type type;           /* the value's type; PTX_U64 for a buffer (its device address) */
    uint64_t bits;           /* the value's bit pattern (zero-extended); 0 for a buffer */
    char *text;              /* the argument as written */
    int line, col;
} ws_arg_spec;

typedef struct {
    char *kernel;            /* NULL: the module's only entry */
    uint32_t grid[3], block[3];
    uint64_t shared_bytes;   /* dynamic shared memory */
    ws_arg_spec *args;
    int arg_count;
    int line;                /* its `kernel` line, or its first line when it has none; 0: command line */
} ws_launch_group;

typedef struct {
    char *name;
    char *path;              /* resolved */
    int buffer;              /* index into buffers */
    int line, col;
} ws_dump_spec;

typedef enum { WS_OUT_TEXT, WS_OUT_CSV, WS_OUT_JSON } ws_output_format;
typedef enum { WS_COLOR_AUTO, WS_COLOR_ALWAYS, WS_COLOR_NEVER } ws_color_mode;

#define WS_DEFAULT_MAX_STEPS 10000000000ull    /* warp-instructions */
#define WS_DEFAULT_MEM_LIMIT (1ull << 30)      /* bytes */
#define WS_MAX_BUFFER_COUNT  (1ull << 40)      /* elements per buffer */

typedef struct ws_run_options {
    char *ptx_path;          /* resolved */
    char *launch_path;       /* the .launch file as given, or NULL; names it in messages */
    ws_buffer_spec *buffers;
    int buffer_count;
    ws_launch_group *groups; /* at least one after a successful parse; run in order */
    int group_count;
    ws_dump_spec *dumps;
    int dump_count;
    char *arch;              /* NULL: the default architecture */
    char *arch_file;         /* resolved, or NULL */
    int bank_mode;           /* 0 (the architecture's), 4 or 8 */
    ws_output_format format;
    char *metrics;           /* "a,b,c" as written, or NULL for the default set */
    int source;
    int64_t trace_block;     /* -1: no trace */
    int trace_warp;          /* -1: no trace; else 0-31 */
    uint64_t max_steps;
    int jobs;
    uint64_t mem_limit;
    int stats, quiet;
    int no_timing;           /* --no-timing */
    int build_o0;            /* --build O0 (0: real) */
    uint32_t regs;           /* --regs N; 0: estimate */
    ws_color_mode color;     /* --color (WS_COLOR_AUTO when not given) */
    /* A .cu file (sim/cu_build.c compiles it): a whole program when no launch
     * group gives a grid (program set), else kernels run as from a .ptx. */
    char *cu_path;           /* as given */
    int program;             /* run the .cu's main(); the groups are gone, --kernel became kernel_filter */
    char **program_argv;     /* what followed "--" */
    int program_argc;
    char *kernel_filter;     /* a program's --kernel */
    uint64_t launch_skip, launch_count;   /* UINT64_MAX: no limit */
    char *cc, *cflags, *log_file;
    char *timeline;          /* --timeline FILE.json, resolved; NULL: none */
    char *html;              /* --html FILE.html, resolved; NULL: none */
    int leak_check;          /* --leak-check full */
    int devices;             /* --devices N (1 when not given) */
    int initcheck;           /* --check initcheck */
    int racecheck;           /* --check racecheck */
    int synccheck;           /* --check synccheck */
    uint64_t print_limit;    /* --print-limit (default 100) */
    int racecheck_global;    /* --racecheck-global yes */
    int sched;               /* --sched: ws_sched (WS_SCHED_DEFAULT when not given) */
    uint64_t seed;           /* --seed */
    int help;                /* --help / -h seen: nothing else is filled in */
} ws_run_options;

/* Parse `warpsim run`'s arguments (argv[0] = "run"): one positional FILE.ptx
 * or FILE.launch (by its extension; a .launch is read and parsed, the flags
 * after it override it), then checked as a whole: a PTX file, at least one
 * launch group, each with grid and block, every arg and dump naming a
 * defined buffer, the buffers within --mem-limit.  *o is (re)initialised;
 * on failure it is left empty (freeing it is harmless) and err explains. */
ws_launch_status ws_run_options_parse_argv(int argc, char **argv, ws_run_options *o,
                                           char *err, size_t errlen);

/* Parse and check a .launch file's text (len bytes, NUL bytes an error).
 * path names the file in messages and anchors relative paths.  The same
 * checks as above.  Never crashes, whatever the text. */
ws_launch_status ws_run_options_parse_launch_text(const char *text, size_t len, const char *path,
                                                  ws_run_options *o, char *err, size_t errlen);

/* Parse WARPSIM_FLAGS: the report flags a program built by `warpsim cc`
 * (or run by `warpsim run FILE.cu`) reads, words split at blanks with '...'
 * and "..." quoting. Only flags that make sense for a program are taken. */
ws_launch_status ws_run_options_parse_program_flags(const char *text, ws_run_options *o, char *err, size_t errlen);

/* Free what a parse allocated and zero *o; safe on a zeroed or freed struct. */
void ws_run_options_free(ws_run_options *o);

/* Format an error about an item at (line, col) -- from the structs above --
 * in the same style as the parser's ("FILE:L:C: error: FLAG: ..." for a
 * .launch item, "warpsim run: --FLAG: ..." for the command line; flag may be
 * NULL).  Returns WS_LAUNCH_INPUT for a file item, WS_LAUNCH_USAGE otherwise. */
ws_launch_status ws_run_options_error(const ws_run_options *o, int line, int col, const char *flag,
                                      char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

#endif
