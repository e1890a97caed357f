/* warpsim: the command dispatcher. Each command lives in its own cli_*.c. */
#include <stdio.h>
#include <string.h>

#include "sim/cli.h"

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "unknown"   /* CMakeLists.txt sets it from project(VERSION) */
#endif

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
#define CMD(name, entry, summary) {name, entry, summary},
#include "sim/commands.def"
#undef CMD
};

static void usage(FILE *f)
{
    fprintf(f,
        "warpsim: a GPU-less SIMT simulator. It runs CUDA programs (a whole .cu file, or\n"
        "kernels in PTX) on a model of a GPU, with no GPU and no CUDA Toolkit, and counts\n"
        "bank conflicts, memory transactions and divergent branches under the names\n"
        "Nsight Compute uses.\n\n"
        "usage: warpsim COMMAND [ARGS]   (warpsim --version: the version)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-6s  %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
        "\n`warpsim COMMAND --help` explains each command. A first session:\n"
        "  warpsim run prog.cu                        # the program's output, then the report\n"
        "  warpsim run prog.cu --csv -- ARGS          # ncu's CSV; ARGS go to main()\n"
        "  warpsim check kernel.ptx                   # a PTX file's kernels and parameters\n"
        "  warpsim run programs/001_transpose/demo.launch\n"
        "\nexit status: 0 ok, 1 error in the input or the kernel, 2 usage error\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("warpsim %s\n", WARPSIM_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "warpsim: unknown command '%s' (try `warpsim --help`)\n", argv[1]);
    return EXIT_USAGE;
}
