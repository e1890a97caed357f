/*
 * The .cu pipeline (cuda/compile.h) where warpsim is built without it: Windows, which has no fork, exec
 * and waitpid for compile.c to run clang and the program with (CMakeLists.txt picks this file there).
 * `warpsim run FILE.cu` and `warpsim cc` say so; .ptx and .launch files run as anywhere.
 */
#include "cuda/compile.h"

#include <stdio.h>
#include <string.h>

static int unsupported(char *err, size_t errlen)
{
    if (err && errlen)
        snprintf(err, errlen, "compiling and running .cu programs needs a POSIX system (fork, exec); this build "
                 "runs .ptx and .launch files: compile the kernels to PTX elsewhere (clang --cuda-device-only -S, "
                 "nvcc -ptx) and run that");
    return 1;
}

int ws_cu_build_open(ws_cu_build *b, const char *cu_path, char *err, size_t errlen)
{
    (void)cu_path;
    memset(b, 0, sizeof *b);
    return unsupported(err, errlen);
}

void ws_cu_build_close(ws_cu_build *b) { (void)b; }

int ws_cu_compile_ptx(const char *cu_path, const char *cc, const char *gpu_arch, const char *cflags,
                      const char *ptx_out, char *err, size_t errlen)
{
    (void)cu_path, (void)cc, (void)gpu_arch, (void)cflags, (void)ptx_out;
    return unsupported(err, errlen);
}

int ws_cu_link_program(const char *cu_path, const char *ptx, const char *cflags, const char *object,
                       const char *exe_out, char *err, size_t errlen)
{
    (void)cu_path, (void)ptx, (void)cflags, (void)object, (void)exe_out;
    return unsupported(err, errlen);
}

int ws_cu_run_program(const char *exe, char *const argv[], const char *const env[])
{
    (void)exe, (void)argv, (void)env;
    char err[512];
    unsupported(err, sizeof err);
    fprintf(stderr, "warpsim: %s\n", err);
    return 1;
}
