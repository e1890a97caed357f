/* `warpsim cc`: build a CUDA program into an executable, as nvcc would, whose
 * kernel launches run in the simulator (cuda/compile.c does the work). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/compile.h"
#include "sim/cli.h"

static void cc_help(FILE *f)
{
    fputs("usage: warpsim cc FILE.cu [-o OUT] [-ptx] [-arch=sm_XX] [-I DIR] [-D NAME[=VALUE]] [-O LEVEL] [--cc clang|nvcc] [--cflags FLAGS]\n\n"
          "Compile a CUDA program (host code and kernels) into an executable, as nvcc would,\n"
          "with no CUDA Toolkit: clang compiles the kernels to PTX and the host code against\n"
          "warpsim's CUDA headers, and the program is linked with warpsim's CUDA runtime, so\n"
          "main() runs natively and every kernel launch runs in the simulator. At exit the\n"
          "program prints warpsim's report of its launches.\n\n"
          "  -o OUT            the executable (default a.out)\n"
          "  -ptx              only the kernels, as PTX with line information, into OUT\n"
          "                    (default FILE.ptx), as nvcc -ptx does\n"
          "  -arch=sm_XX       the GPU the kernels are compiled for (default sm_80; clang 14\n"
          "                    knows up to sm_86)\n"
          "  -I DIR, -D NAME   include directory, macro (as for any C compiler)\n"
          "  -O LEVEL          optimisation of host and device code (default -O3)\n"
          "  --cc clang|nvcc   the compiler of the device code (default: clang when it has\n"
          "                    the NVPTX target, else nvcc)\n"
          "  --cflags FLAGS    more compiler flags, split at blanks\n\n"
          "The report's flags come from the environment when the program runs:\n"
          "  WARPSIM_FLAGS='--csv --metrics smsp__inst_executed.sum' ./a.out\n"
          "takes the flags of `warpsim run` that fit a program (`warpsim run --help`).\n\n"
          "example:\n"
          "  warpsim cc vector_add.cu -o vector_add && ./vector_add\n\n"
          "exit status: 0 built, 1 the compiler or linker failed, 2 usage error or no compiler\n", f);
}

int cli_cc(int argc, char **argv)
{
    const char *cu = NULL, *out = NULL, *cc = NULL, *arch = NULL;
    int ptx_only = 0;
    char cflags[8192] = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            cc_help(stdout);
            return 0;
        }
        int takes = !strcmp(a, "-o") || !strcmp(a, "--cc") || !strcmp(a, "--cflags") || !strcmp(a, "-I") ||
                    !strcmp(a, "-D") || !strcmp(a, "-O");
        if (takes) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim cc: %s: missing value (try `warpsim cc --help`)\n", a);
                return EXIT_USAGE;
            }
            value = argv[++i];
        }
        if (!strncmp(a, "-arch=", 6) || !strncmp(a, "--gpu-architecture=", 19)) {
            arch = strchr(a, '=') + 1;
        } else if (!strcmp(a, "-ptx") || !strcmp(a, "--ptx")) {
            ptx_only = 1;
        } else if (!strcmp(a, "-o")) {
            out = value;
        } else if (!strcmp(a, "--cc")) {
            if (strcmp(value, "clang") && strcmp(value, "nvcc")) {
                fprintf(stderr, "warpsim cc: --cc: expected clang or nvcc, got '%s'\n", value);
                return EXIT_USAGE;
            }
            cc = value;
        } else if (takes || (a[0] == '-' && (a[1] == 'I' || a[1] == 'D' || a[1] == 'O') && a[2])) {
            size_t n = strlen(cflags);
            int w = takes && strcmp(a, "--cflags")
                        ? snprintf(cflags + n, sizeof cflags - n, " %s%s", a, value)
                        : snprintf(cflags + n, sizeof cflags - n, " %s", takes ? value : a);
            if (w < 0 || (size_t)w >= sizeof cflags - n) {
                fprintf(stderr, "warpsim cc: too many compiler flags\n");
                return EXIT_USAGE;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim cc: unknown flag '%s' (try `warpsim cc --help`)\n", a);
            return EXIT_USAGE;
        } else if (cu) {
            fprintf(stderr, "warpsim cc: one .cu file at a time (got '%s' and '%s')\n", cu, a);
            return EXIT_USAGE;
        } else {
            cu = a;
        }
    }
    if (!cu) {
        fprintf(stderr, "warpsim cc: missing FILE.cu (try `warpsim cc --help`)\n");
        return EXIT_USAGE;
    }
    char err[2048], ptx_name[4096];
    if (ptx_only) {
        size_t n = strlen(cu);
        snprintf(ptx_name, sizeof ptx_name, "%.*s.ptx", (int)(n > 3 && !strcmp(cu + n - 3, ".cu") ? n - 3 : n), cu);
        int st = ws_cu_compile_ptx(cu, cc, arch, cflags, out ? out : ptx_name, err, sizeof err);
        if (st)
            fprintf(stderr, "warpsim cc: %s\n", err);
        return st;
    }
    if (!out)
        out = "a.out";
    ws_cu_build b;
    int status = ws_cu_build_open(&b, cu, err, sizeof err);
    if (!status)
        status = ws_cu_compile_ptx(cu, cc, arch, cflags, b.ptx, err, sizeof err);
    if (!status)
        status = ws_cu_link_program(cu, b.ptx, cflags, b.object, out, err, sizeof err);
    if (status)
        fprintf(stderr, "warpsim cc: %s\n", err);
    ws_cu_build_close(&b);
    return status < 0 ? 1 : status;
}
