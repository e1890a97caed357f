/*
 * A session: one `warpsim run`. It loads the PTX module and the architecture,
 * creates and initialises the buffers, runs each launch group in order over
 * them, and keeps every launch's counters for the report.
 */
#ifndef WARPSIM_SIM_SESSION_H
#define WARPSIM_SIM_SESSION_H

#include "isa/ptx.h"
#include "sim/arch.h"
#include "sim/options.h"
#include "sim/grid.h"
#include "sim/state.h"

typedef struct {
    const ws_run_options *options;
    ptx_module *module;
    ws_arch arch;
    ws_global_memory global;
    ws_allocation **buffers;     /* per options->buffers[i] */
    uint64_t *globals;           /* per module symbol: address of .global/.const variables */
    ws_launch *launches;         /* one per launch group that ran */
    int launch_count, launch_capacity;
    double *seconds;             /* host time each launch took */
    char **display_names;        /* per launch: the kernel's C++ name as ncu prints it, or NULL */
    uint64_t peak_rss_kib;       /* the process's peak resident memory so far (getrusage), after the last launch */
    uint64_t buffer_bytes;       /* simulated global memory held by the buffers */
    uint64_t variable_bytes;     /* and by the module's .global/.const variables */
    int variable_count;
    uint64_t check_errors;       /* --check initcheck: errors found over every launch */
    uint64_t races_shown, race_errors, race_warnings;   /* --check racecheck */
    const char *process_name;    /* the CSV's "Process Name": NULL is warpsim; a .cu program's own name */
} ws_session;

/* The architecture the options choose (--arch, --arch-file, --bank-mode):
 * 0, or an exit status with the message in err. */
int ws_pick_arch(const ws_run_options *o, ws_arch *arch, char *err, size_t errlen);

/* Load the PTX file (diagnostics go to `diag`), pick the architecture, and
 * create the buffers. Returns 0, or an exit status (1 input error) with the
 * message in err (or in diag for PTX errors). */
int ws_session_open(ws_session *s, const ws_run_options *o, ptx_diag *diag, char *err, size_t errlen);
/* Same, with the module already parsed (tests); the session takes it. */
int ws_session_open_module(ws_session *s, const ws_run_options *o, ptx_module *m, char *err, size_t errlen);
/* Run every launch group in order; then write the --dump files. Returns 0,
 * or 1 with the message in err (the launches that ran keep their counters). */
int ws_session_run(ws_session *s, char *err, size_t errlen);
void ws_session_close(ws_session *s);

/* `--stats`: peak host memory, simulated global memory in use against
 * --mem-limit (buffers and .global/.const variables apart), threads. */
void ws_session_print_stats(const ws_session *s, FILE *out);

/* Whether `name` is the plain C++ name of the mangled kernel name
 * (vector_add for _Z10vector_addPKfS0_Pfi; ns::scan for _ZN2ns4scanEPi). */
int ws_kernel_name_matches(const char *mangled, const char *name);

/* The buffer named `name` (NULL if none). */
ws_allocation *ws_session_buffer(ws_session *s, const char *name);

#endif
