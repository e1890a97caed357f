/* A launch's counters line by line, for the reports (sim/report_lines.c):
 * per PTX line, or per line of the CUDA file the PTX's .loc directives name;
 * and by kind of instruction (the instruction mix). */
#ifndef WARPSIM_SIM_REPORT_LINES_H
#define WARPSIM_SIM_REPORT_LINES_H

#include <stddef.h>

#include "sim/state.h"

typedef struct {
    int line;           /* the PTX line, or the CUDA line (ws_gather_cuda_lines) */
    int function;       /* the function and index of its first instruction */
    int first_instr;
    uint64_t c[WS_CTR_COUNT];
} ws_line_totals;

/* Per-PTX-line totals over every function the launch ran, by line; *count of them.
 * NULL (count 0) when out of memory. The caller frees. */
ws_line_totals *ws_gather_lines(const ws_launch *l, int *count);

/* The CUDA file the launch's kernel came from (its first instruction with a .loc), or NULL. */
const char *ws_cuda_file_of(const ws_launch *l);
/* Per-line totals of the instructions whose .loc names `path`, by CUDA line. */
ws_line_totals *ws_gather_cuda_lines(const ws_launch *l, const char *path, int *count);

/* The instruction mix: the launch's counters summed by kind of instruction, its opcode
 * with the state space of a memory access and the operation's type ("ld.global.f32",
 * "add.s64", "bra"): what ncu's sass__inst_executed_per_opcode is for SASS. */
typedef struct {
    char kind[32];
    int o0_class;   /* its sim/sass_o0.def class (the kinds' instructions share one) */
    uint64_t c[WS_CTR_COUNT];
} ws_mix_totals;
/* Every kind the launch executed, the most executed first; *count of them. NULL (count 0)
 * when out of memory. The caller frees. */
ws_mix_totals *ws_gather_mix(const ws_launch *l, int *count);

/* "reduce.cu:16" for an instruction of a module built with line information (.loc/.file), else "".
 * The directories are dropped unless full is set. */
const char *ws_source_position(const ptx_module *m, const ptx_instr *in, int full, char *buf, size_t n);

#endif
