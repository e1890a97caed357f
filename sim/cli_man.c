/*
 * `warpsim man`: the manual page (roff, what `man warpsim` shows once
 * installed) and the bash and zsh completion scripts, all printed from the
 * same tables as the help: sim/commands.def and sim/flags.def.
 * CMakeLists.txt runs it at build time for `cmake --install`.
 */
#include <stdio.h>
#include <string.h>

#include "sim/cli.h"
#include "sim/flags.h"

static const struct { const char *name, *summary; } commands[] = {
#define CMD(name, entry, summary) {name, summary},
#include "sim/commands.def"
#undef CMD
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* Text for roff: a leading . or ' would start a request, a backslash an escape, - is a hyphen. */
static void roff_text(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        char c = s[i];
        if (c == '\\')
            fputs("\\e", f);
        else if (c == '-')
            fputs("\\-", f);
        else if ((c == '.' || c == '\'') && (i == 0 || s[i - 1] == '\n'))
            fprintf(f, "\\&%c", c);
        else
            fputc(c, f);
    }
}

static void print_man(FILE *f)
{
    fputs(".TH WARPSIM 1 \"\" \"warpsim\" \"User Commands\"\n"
          ".SH NAME\nwarpsim \\- a GPU\\-less SIMT simulator for CUDA kernels written in PTX\n"
          ".SH SYNOPSIS\n.B warpsim\n.I command\n[\\fIargs\\fR]\n.br\n"
          ".B warpsim run\n\\fIFILE.ptx\\fR|\\fIFILE.launch\\fR [\\fIflags\\fR]\n"
          ".SH DESCRIPTION\nwarpsim runs CUDA kernels written in PTX (what \\fBnvcc \\-ptx\\fR emits, or hand\\-written) "
          "on a model of a GPU, without a GPU. It simulates 32\\-lane warps with predication, divergence and "
          "reconvergence, barriers, shared, global and local memory, and counts what decides a kernel's speed "
          "(bank conflicts, memory sectors, divergent branches) under Nsight Compute's metric names.\n"
          ".SH COMMANDS\n", f);
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        fprintf(f, ".TP\n.B %s\n", commands[i].name);
        roff_text(f, commands[i].summary, strlen(commands[i].summary));
        fputc('\n', f);
    }
    fputs(".SH RUN FLAGS\nEvery flag also takes the form \\fB\\-\\-flag=VALUE\\fR; \\fB\\-\\-\\fR ends the flags. "
          "A \\fI.launch\\fR file holds the same flags one per line without the leading dashes "
          "(\\fBgrid 64\\fR, \\fBbuf in=f32:4096:random=1\\fR, \\fBcsv\\fR), \\fBptx\\fR \\fIFILE\\fR for the PTX file, "
          "and # comments; paths in it are relative to the file, and flags given after it override its own.\n", f);
    for (int i = 0; i < WS_FLAG_COUNT; i++) {
        const ws_flag_info *fl = &ws_flags[i];
        fputs(".TP\n.B \\-\\-", f);
        roff_text(f, fl->name, strlen(fl->name));
        if (fl->argument[0]) {
            fputs(" \\fI", f);
            roff_text(f, fl->argument, strlen(fl->argument));
            fputs("\\fR", f);
        }
        fputc('\n', f);
        for (const char *line = fl->help;;) {   /* each help line its own line of the page */
            const char *nl = strchr(line, '\n');
            roff_text(f, line, nl ? (size_t)(nl - line) : strlen(line));
            if (!nl)
                break;
            line = nl + 1;
            fputs(ws_flag_help_line_stands_alone(line) ? "\n.br\n" : "\n", f);
        }
        fputc('\n', f);
    }
    fputs(".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nWhen set, \\fB\\-\\-color=auto\\fR (the default) does not colour the "
          "report even on a terminal.\n"
          ".SH EXIT STATUS\n0: ok; 1: an error in the input or the kernel (\\fIFILE:LINE:COL\\fR: error: ...); "
          "2: a usage error.\n"
          ".SH EXAMPLES\n.nf\nwarpsim check kernel.ptx\nwarpsim run programs/001_transpose/demo.launch\n"
          "warpsim run k.ptx \\-\\-kernel vector_add_naive \\-\\-grid 40 \\-\\-block 256 \\e\n"
          "    \\-\\-buf A=f32:10000:random=1 \\-\\-buf B=f32:10000:random=2 \\-\\-buf C=f32:10000 \\e\n"
          "    \\-\\-arg A \\-\\-arg B \\-\\-arg C \\-\\-arg s32:10000 \\-\\-csv\n.fi\n"
          ".SH SEE ALSO\n\\fBnvcc\\fR(1), \\fBncu\\fR(1)\n", f);
}

/* bash: commands first, then per command its flags; files elsewhere. zsh uses it through bashcompinit. */
static void print_bash(FILE *f)
{
    fputs("# bash completion for warpsim (made by `warpsim man --bash` from sim/commands.def and sim/flags.def)\n"
          "_warpsim() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"", f);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(f, "%s%s", i ? " " : "", commands[i].name);
    fputs(" --help --version\" -- \"$cur\")); return\n"
          "    fi\n"
          "    local flags\n"
          "    case ${COMP_WORDS[1]} in\n"
          "        run) flags=\"", f);
    for (int i = 0; i < WS_FLAG_COUNT; i++)
        fprintf(f, "%s--%s", i ? " " : "", ws_flags[i].name);
    fputs("\"\n"
          "            case $prev in\n"
          "                --arch) COMPREPLY=($(compgen -W \"$(warpsim arch list 2>/dev/null | awk '{print $1}')\" "
          "-- \"$cur\")); return ;;\n"
          "                --color) COMPREPLY=($(compgen -W \"auto always never\" -- \"$cur\")); return ;;\n"
          "            esac ;;\n"
          "        isa|flags) flags=\"--markdown --help\" ;;\n"
          "        man) flags=\"--bash --zsh --help\" ;;\n"
          "        *) flags=\"--help\" ;;\n"
          "    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o filenames -F _warpsim warpsim\n", f);
}

int cli_man(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (argc > 2 || (argc == 2 && strcmp(what, "--bash") && strcmp(what, "--zsh"))) {
        if (!strcmp(what, "--help") || !strcmp(what, "-h")) {
            puts("usage: warpsim man [--bash | --zsh]\n\n"
                 "Prints the manual page in roff (`warpsim man > warpsim.1; man -l warpsim.1`), or with --bash\n"
                 "or --zsh the shell completion script. `cmake --install` installs all three.");
            return 0;
        }
        fprintf(stderr, "warpsim man: unknown argument '%s' (try `warpsim man --help`)\n", argc > 2 ? argv[2] : what);
        return EXIT_USAGE;
    }
    if (!strcmp(what, "--bash")) {
        print_bash(stdout);
    } else if (!strcmp(what, "--zsh")) {
        fputs("#compdef warpsim\n# zsh completion for warpsim: the bash one, through bashcompinit\n"
              "autoload -U +X bashcompinit && bashcompinit\n", stdout);
        print_bash(stdout);
    } else {
        print_man(stdout);
    }
    return 0;
}
