/* The run flags' table (sim/flags.def), and the help text and README table printed from it. */
#include "sim/flags.h"

#include <string.h>

const ws_flag_info ws_flags[WS_FLAG_COUNT] = {
#define FLAG(id, name, scope, argument, expected, help) [WS_FLAG_##id] = {name, WS_SCOPE_##scope, argument, expected, help},
#include "sim/flags.def"
#undef FLAG
};

int ws_flag_lookup(const char *name, size_t n)
{
    for (int i = 0; i < WS_FLAG_COUNT; i++)
        if (strlen(ws_flags[i].name) == n && memcmp(ws_flags[i].name, name, n) == 0)
            return i;
    return -1;
}

int ws_flag_help_line_stands_alone(const char *next)
{
    return next[0] == ' ' || (next[0] >= 'A' && next[0] <= 'Z' && memchr(next, ':', 6) != NULL);
}

/* "--grid X[,Y[,Z]]" */
static int flag_form(char *buf, size_t n, const ws_flag_info *f)
{
    return snprintf(buf, n, "--%s%s%s", f->name, f->argument[0] ? " " : "", f->argument);
}

void ws_run_print_help(FILE *f)
{
    fputs("usage: warpsim run PROGRAM.cu [FLAGS] [-- PROGRAM ARGUMENTS]\n"
          "       warpsim run FILE.ptx|FILE.cu [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] [FLAGS]\n"
          "       warpsim run FILE.launch [FLAGS]\n"
          "\n"
          "Simulates kernel launches on the architecture's model and reports what decides their speed\n"
          "(bank conflicts, memory sectors, divergent branches) under Nsight Compute's metric names.\n"
          "A .cu file with no --grid is a whole program: clang compiles it against warpsim's CUDA\n"
          "headers and runtime, main() runs with its arguments, every launch runs in the simulator,\n"
          "and the report of its launches follows the program's own output (its exit status is the\n"
          "program's). With --grid, a .cu file's kernels run as a .ptx file's do.\n"
          "\n", f);
    for (int i = 0; i < WS_FLAG_COUNT; i++) {
        char form[64];
        int w = flag_form(form, sizeof form, &ws_flags[i]);
        const char *line = ws_flags[i].help;
        /* the help beside the flag when it fits with two spaces between, else on the next line */
        if (w <= 18)
            fprintf(f, "  %-20s", form);
        else
            fprintf(f, "  %s\n  %-20s", form, "");
        for (;;) {
            const char *nl = strchr(line, '\n');
            fprintf(f, "%.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
            if (!nl)
                break;
            line = nl + 1;
            fprintf(f, "  %-20s", "");
        }
    }
    fputs("\nEvery flag also takes the form --flag=VALUE; \"--\" ends the flags (after a .cu file, what\n"
          "follows goes to its main()). A program built by `warpsim cc` reads these flags from the\n"
          "WARPSIM_FLAGS environment variable.\n"
          "A .launch file holds the same flags one per line without the leading dashes\n"
          "(`grid 64`, `buf in=f32:4096:random=1`, `csv`), `ptx FILE` for the PTX file, # comments;\n"
          "paths in it are relative to the file.  Flags after FILE.launch override the file's.\n", f);
}

static const char *const scope_text[] = {
    [WS_SCOPE_ONCE] = "once",
    [WS_SCOPE_GROUP] = "per launch group",
    [WS_SCOPE_MANY] = "repeatable",
    [WS_SCOPE_SWITCH] = "switch",
    [WS_SCOPE_CLI] = "command line only",
};

void ws_run_print_flags_markdown(FILE *f)
{
    fputs("| flag | `.launch` key | given | what it does |\n|---|---|---|---|\n", f);
    for (int i = 0; i < WS_FLAG_COUNT; i++) {
        const ws_flag_info *fl = &ws_flags[i];
        char form[64];
        flag_form(form, sizeof form, fl);
        fputs("| `", f);
        for (const char *p = form; *p; p++)   /* a | inside a cell, even in code, must be escaped */
            fputs(*p == '|' ? "\\|" : (char[2]){*p, 0}, f);
        fprintf(f, "` | %s%s%s | %s | ", fl->scope == WS_SCOPE_CLI ? "" : "`",
                fl->scope == WS_SCOPE_CLI ? "-" : fl->name, fl->scope == WS_SCOPE_CLI ? "" : "`", scope_text[fl->scope]);
        for (const char *p = fl->help; *p; p++) {
            if (*p == '\n')
                fputs(ws_flag_help_line_stands_alone(p + 1) ? "<br>" : " ", f);
            else if (*p == '|')
                fputs("\\|", f);
            else
                fputc(*p, f);
        }
        fputs(" |\n", f);
    }
}
