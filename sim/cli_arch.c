/* `warpsim arch`: the architecture presets. */
#include <stdio.h>
#include <string.h>

#include "sim/arch.h"
#include "sim/cli.h"

static const char usage[] =
    "usage: warpsim arch list          the presets, one a line\n"
    "       warpsim arch show NAME     every number of one preset, as `key = value` lines\n"
    "       warpsim arch show FILE     the same for an --arch-file (checks it)\n\n"
    "A preset is what `warpsim run --arch NAME` simulates: SM count, shared-memory banks and\n"
    "their width, how global accesses coalesce, occupancy limits and latencies. To study a\n"
    "what-if machine, save `warpsim arch show hopper > my.arch`, edit it (keep `base = hopper`\n"
    "at the top) and run with `--arch-file my.arch`.\n";

int cli_arch(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "list")) {
        for (size_t i = 0; i < ws_arch_count(); i++) {
            const ws_arch *a = ws_arch_at(i);
            printf("%-8s sm_%u%u  %3u SMs  %2u banks x %u B  %s%s\n", a->name, a->cc_major, a->cc_minor, a->sm_count,
                   a->shared_banks, a->bank_width_bytes, a->display_name, a == ws_arch_default() ? "  (default)" : "");
        }
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "show")) {
        const ws_arch *a = ws_arch_find(argv[2]);
        if (a) {
            ws_arch_print(a, stdout);
            return 0;
        }
        if (strchr(argv[2], '/') || strchr(argv[2], '.')) {
            ws_arch loaded;
            char err[1024];
            if (ws_arch_load_file(argv[2], &loaded, err, sizeof err) < 0) {
                fprintf(stderr, "%s\n", err);
                return EXIT_INPUT_ERROR;
            }
            ws_arch_print(&loaded, stdout);
            return 0;
        }
        fprintf(stderr, "warpsim arch: unknown architecture '%s' (`warpsim arch list` names them)\n", argv[2]);
        return EXIT_USAGE;
    }
    fputs(usage, stderr);
    return EXIT_USAGE;
}
