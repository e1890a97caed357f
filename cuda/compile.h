/*
 * Compiling a .cu file without the CUDA Toolkit (cuda/compile.c): device code
 * to PTX with clang's CUDA front end (or nvcc -ptx where it is installed),
 * host code with clang++ against warpsim's headers (cuda/include), linked
 * with warpsim's CUDA runtime (cuda/runtime) so main() runs natively and
 * every launch runs in the simulator.
 */
#ifndef WARPSIM_CUDA_COMPILE_H
#define WARPSIM_CUDA_COMPILE_H

#include <stddef.h>

typedef struct {
    char dir[4096];            /* a fresh temporary directory for the outputs */
    char ptx[4096];            /* DIR/NAME.ptx */
    char object[4096];         /* DIR/NAME.o */
    char exe[4096];            /* DIR/NAME */
} ws_cu_build;

/* Make the temporary directory and the paths in it. 0, or -1 with err. */
int ws_cu_build_open(ws_cu_build *b, const char *cu_path, char *err, size_t errlen);
/* Remove what ws_cu_build_open made. */
void ws_cu_build_close(ws_cu_build *b);

/* The device code of cu_path to PTX at ptx_out. cc: "clang", "nvcc" or NULL
 * (clang when it has the NVPTX target, else nvcc); gpu_arch: "sm_70"... or
 * NULL (sm_80). cflags: more flags, split
 * at blanks, or NULL. The compiler's own messages go to stderr as it prints
 * them (FILE:LINE:COL). 0, 1 for a compile error, 2 when no compiler fits
 * (err says what to install). */
int ws_cu_compile_ptx(const char *cu_path, const char *cc, const char *gpu_arch, const char *cflags,
                      const char *ptx_out, char *err, size_t errlen);
/* Compile cu_path's host code with ptx embedded and link an executable. */
int ws_cu_link_program(const char *cu_path, const char *ptx, const char *cflags, const char *object,
                       const char *exe_out, char *err, size_t errlen);
/* Run exe with argv (argv[0] named as given), the environment plus the given
 * NAME=VALUE pairs (NULL-terminated); returns its exit status (128+N for a
 * signal N, which is also reported on stderr). */
int ws_cu_run_program(const char *exe, char *const argv[], const char *const env[]);

#endif
