/* `warpsim check`, `warpsim dump` and `warpsim isa`: the PTX front end's commands. */
#include "isa/ptx.h"
#include "sim/builtins.h"
#include "sim/cli.h"
#include "sim/platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

static void check_help(FILE *f)
{
    fputs("usage: warpsim check FILE.ptx\n\n"
          "Parse and validate a PTX file the way `warpsim run` will, and list what it\n"
          "holds: each kernel (.entry) and device function (.func) with its parameters,\n"
          "instruction count, static shared memory and per-thread local memory.\n"
          "Errors name the place: FILE:LINE:COLUMN: error: message.\n\n"
          "example:\n"
          "  nvcc -ptx -arch=sm_90 kernel.cu -o kernel.ptx\n"
          "  warpsim check kernel.ptx\n\n"
          "`warpsim isa` lists the instructions warpsim accepts.\n\n"
          "exit status: 0 the file is valid, 1 it has errors (printed on stderr),\n"
          "2 usage error\n",
          f);
}

static void dump_help(FILE *f)
{
    fputs("usage: warpsim dump FILE.ptx [-o OUT.ptx]\n\n"
          "Print the PTX back as warpsim decoded it: every register, label and\n"
          "immediate resolved (float immediates as 0f/0d bit patterns), comments and\n"
          "debug directives dropped. The output parses back to the same program and\n"
          "ptxas accepts it, so it is a quick way to see what warpsim understood.\n"
          "With -o the text goes to OUT.ptx, written whole or not at all.\n\n"
          "example:\n"
          "  warpsim dump kernel.ptx | less\n"
          "  warpsim dump kernel.ptx -o decoded.ptx\n\n"
          "exit status: 0 ok, 1 the input has errors (printed on stderr) or OUT could\n"
          "not be written, 2 usage error\n",
          f);
}

static void isa_help(FILE *f)
{
    fputs("usage: warpsim isa [--markdown | --builtins]\n\n"
          "Print the PTX instructions warpsim accepts: each opcode with its class, the\n"
          "operands it takes, the types and modifiers allowed and what it does. With\n"
          "--markdown the same table prints as the markdown table in isa/README.md.\n"
          "With --builtins: the functions a kernel may call without a body, which\n"
          "warpsim runs natively (the math library's __nv_* names, vprintf).\n\n"
          "example:\n"
          "  warpsim isa | grep -A3 '^shfl'\n\n"
          "exit status: 0 ok, 2 usage error\n",
          f);
}

/* Parse the common "COMMAND FILE [-o OUT]" form. Returns 0, or an exit status. */
static int parse_args(int argc, char **argv, const char **file, const char **out, int allow_out,
                      void (*help)(FILE *))
{
    *file = NULL;
    if (out)
        *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) {
            help(stdout);
            return -1;
        }
        if (allow_out && !strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim %s: -o needs a file name\n", argv[0]);
                return EXIT_USAGE;
            }
            if (*out) {
                fprintf(stderr, "warpsim %s: -o given twice\n", argv[0]);
                return EXIT_USAGE;
            }
            *out = argv[++i];
            continue;
        }
        if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim %s: unknown option '%s' (try `warpsim %s --help`)\n", argv[0], a, argv[0]);
            return EXIT_USAGE;
        }
        if (*file) {
            fprintf(stderr, "warpsim %s: one PTX file at a time ('%s' and '%s')\n", argv[0], *file, a);
            return EXIT_USAGE;
        }
        *file = a;
    }
    if (!*file) {
        fprintf(stderr, "warpsim %s: missing the PTX file (try `warpsim %s --help`)\n", argv[0], argv[0]);
        return EXIT_USAGE;
    }
    return 0;
}

static ptx_module *load(const char *file)
{
    ptx_diag diag;
    memset(&diag, 0, sizeof diag);
    ptx_module *m = ptx_parse_file(file, &diag);
    if (!m) {
        ptx_diag_print(&diag, stderr);
        if (diag.count == 0)
            fprintf(stderr, "%s: error: cannot parse\n", file);
    }
    ptx_diag_free(&diag);
    return m;
}

static void print_param(const ptx_module *m, int idx, FILE *f)
{
    const ptx_symbol *s = &m->symbols[idx];
    unsigned esize = ptx_types[s->type].size ? ptx_types[s->type].size : 1;
    fprintf(f, ".%s %s", ptx_types[s->type].name, s->name);
    if (s->is_array)
        fprintf(f, "[%llu]", (unsigned long long)(s->size / esize));
}

/* Shared memory a function uses: its own .shared variables and the module's
 * static ones it (or a function it calls) names. */
static void shared_usage(const ptx_module *m, int fi, unsigned long long *static_bytes, int *dynamic)
{
    unsigned char *used = calloc((size_t)m->symbol_count + 1, 1);
    unsigned char *seen = calloc((size_t)m->function_count + 1, 1);
    int *queue = calloc((size_t)m->function_count + 1, sizeof *queue);
    if (!used || !seen || !queue)
        abort();
    int head = 0, tail = 0;
    queue[tail++] = fi;
    seen[fi] = 1;
    while (head < tail) {
        const ptx_function *fn = &m->functions[queue[head++]];
        for (int i = 0; i < fn->instr_count; i++)
            for (int k = 0; k < fn->instrs[i].operand_count; k++)
                if (fn->instrs[i].operand[k].symbol >= 0 && fn->instrs[i].operand[k].symbol < m->symbol_count)
                    used[fn->instrs[i].operand[k].symbol] = 1;
        for (int c = 0; c < fn->call_count; c++) {
            int g = fn->calls[c].function;
            if (g >= 0 && g < m->function_count && !seen[g]) {
                seen[g] = 1;
                queue[tail++] = g;
            }
        }
    }
    for (int i = 0; i < m->symbol_count; i++)
        if (m->symbols[i].function >= 0 && m->symbols[i].function < m->function_count &&
            seen[m->symbols[i].function] && m->symbols[i].space == PTX_SPACE_SHARED)
            used[i] = 1;
    unsigned long long off = 0;
    *dynamic = 0;
    for (int i = 0; i < m->symbol_count; i++) {
        const ptx_symbol *s = &m->symbols[i];
        if (!used[i] || s->space != PTX_SPACE_SHARED)
            continue;
        if (s->is_extern && s->size == 0) {
            *dynamic = 1;
            continue;
        }
        unsigned long long a = s->align ? s->align : 1;
        off = (off + a - 1) / a * a + s->size;
    }
    *static_bytes = off;
    free(used);
    free(seen);
    free(queue);
}

int cli_check(int argc, char **argv)
{
    const char *file;
    int rc = parse_args(argc, argv, &file, NULL, 0, check_help);
    if (rc)
        return rc < 0 ? 0 : rc;
    ptx_module *m = load(file);
    if (!m)
        return EXIT_INPUT_ERROR;
    printf("%s: PTX %u.%u, target %s, %u-bit addresses\n", file, m->version_major, m->version_minor,
           m->target ? m->target : "?", m->address_size);
    for (int fi = 0; fi < m->function_count; fi++) {
        const ptx_function *fn = &m->functions[fi];
        printf("%s %s(", fn->is_entry ? "kernel" : "func", fn->name);
        for (int p = 0; p < fn->param_count; p++) {
            if (p)
                fputs(", ", stdout);
            print_param(m, fn->params[p], stdout);
        }
        fputs(")", stdout);
        if (fn->return_count) {
            fputs(" -> (", stdout);
            for (int p = 0; p < fn->return_count; p++) {
                if (p)
                    fputs(", ", stdout);
                print_param(m, fn->returns[p], stdout);
            }
            fputs(")", stdout);
        }
        fputc('\n', stdout);
        if (!fn->defined) {
            printf("    declaration only%s: no body\n", fn->is_extern ? " (.extern)" : "");
            continue;
        }
        unsigned long long shared;
        int dynamic;
        shared_usage(m, fi, &shared, &dynamic);
        printf("    %d instruction%s, %llu bytes static shared, %llu bytes local per thread\n", fn->instr_count,
               fn->instr_count == 1 ? "" : "s", shared, (unsigned long long)fn->local_size);
        if (dynamic)
            printf("    uses dynamic shared memory (.extern .shared, sized at launch)\n");
        if (fn->is_entry)
            printf("    %llu bytes of parameters\n", (unsigned long long)fn->param_size);
        if (fn->maxntid[0])
            printf("    .maxntid %u, %u, %u\n", fn->maxntid[0], fn->maxntid[1], fn->maxntid[2]);
        if (fn->reqntid[0])
            printf("    .reqntid %u, %u, %u\n", fn->reqntid[0], fn->reqntid[1], fn->reqntid[2]);
    }
    for (int i = 0; i < m->symbol_count; i++) {
        const ptx_symbol *s = &m->symbols[i];
        if (s->function >= 0)
            continue;
        printf("variable .%s%s%s %s: %llu bytes%s\n", s->is_extern ? "extern ." : "", ptx_space_names[s->space],
               s->managed ? " (managed)" : "", s->name, (unsigned long long)s->size,
               s->is_extern && !s->size ? " (dynamic, sized at launch)" : s->init ? ", initialized" : "");
    }
    ptx_module_free(m);
    return 0;
}

int cli_dump(int argc, char **argv)
{
    const char *file, *out;
    int rc = parse_args(argc, argv, &file, &out, 1, dump_help);
    if (rc)
        return rc < 0 ? 0 : rc;
    ptx_module *m = load(file);
    if (!m)
        return EXIT_INPUT_ERROR;
    if (!out) {
        ptx_print_module(m, stdout);
        ptx_module_free(m);
        if (fflush(stdout) != 0)
            return EXIT_INPUT_ERROR;
        return 0;
    }
    size_t n = strlen(out) + 8;
    char *tmp = malloc(n);
    if (!tmp)
        abort();
    snprintf(tmp, n, "%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "warpsim dump: cannot write %s: %s\n", tmp, strerror(errno));
        free(tmp);
        ptx_module_free(m);
        return EXIT_INPUT_ERROR;
    }
    ptx_print_module(m, f);
    ptx_module_free(m);
    int bad = ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (bad || ws_rename_replace(tmp, out) != 0) {
        fprintf(stderr, "warpsim dump: cannot write %s: %s\n", out, strerror(errno));
        remove(tmp);
        free(tmp);
        return EXIT_INPUT_ERROR;
    }
    free(tmp);
    return 0;
}

int cli_isa(int argc, char **argv)
{
    int markdown = 0;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            isa_help(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--markdown")) {
            markdown = 1;
            continue;
        }
        if (!strcmp(argv[i], "--builtins")) {
            for (size_t b = 0; b < ws_builtin_count(); b++)
                printf("%s\n", ws_builtin_name((int)b));
            return 0;
        }
        fprintf(stderr, "warpsim isa: unknown argument '%s' (try `warpsim isa --help`)\n", argv[i]);
        return EXIT_USAGE;
    }
    ptx_print_isa_table(stdout, markdown);
    return 0;
}
