/*
 * The layering of sim/: read from the sources themselves.
 *
 * 1. Every function a header declares is defined in the .c file of the same
 *    name (sim/warp.h -> sim/warp.c), so including a header is depending on
 *    that one file. The exceptions are the shared private headers named in
 *    `shared_headers` below, whose functions live in several files by design
 *    (exec.h: one handler per opcode, in the file isa/opcodes.def names).
 * 2. With that, "A.c includes B.h (directly or through other headers)" means
 *    "A.c depends on B.c"; that graph must have no cycle: handlers never call
 *    back into the step loop that calls them.
 *
 * Run with a directory argument (`test_layers DIR`) it checks that tree's
 * sim/ and prints what it finds instead: how the rule was checked on trees
 * from before it held.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"

#define MAX_FILES 128
#define NAME_LEN 64

/* Headers whose functions are defined across several .c files on purpose. */
static const char *const shared_headers[] = {
    "exec.h",       /* the handlers, exec_<id>, each in the file isa/opcodes.def names */
    "exec_alu.h",   /* the ALU's private helpers, shared by sim/exec_alu*.c */
    "cli.h",        /* one entry point per command, each in its sim/cli_<command>.c */
};

typedef struct {
    char name[NAME_LEN];          /* "warp.c", "warp.h" */
    int includes[MAX_FILES];      /* indices of the sim/ headers it includes */
    int include_count;
} source;

typedef struct {
    source file[MAX_FILES];
    int count;
    char root[512];
} tree;

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

static int find(const tree *t, const char *name)
{
    for (int i = 0; i < t->count; i++)
        if (!strcmp(t->file[i].name, name))
            return i;
    return -1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* Fails the test, or the report run, when the tree cannot be read. */
static void cannot_read(const char *path)
{
    fprintf(stderr, "test_layers: cannot read %s\n", path);
    exit(2);
}

static void load_tree(tree *t, const char *root)
{
    memset(t, 0, sizeof *t);
    snprintf(t->root, sizeof t->root, "%s/sim", root);
    DIR *d = opendir(t->root);
    if (!d)
        cannot_read(t->root);
    struct dirent *e;
    while ((e = readdir(d)) && t->count < MAX_FILES)
        if ((ends_with(e->d_name, ".c") || ends_with(e->d_name, ".h")) && strlen(e->d_name) < NAME_LEN)
            strcpy(t->file[t->count++].name, e->d_name);
    closedir(d);
    for (int i = 0; i < t->count; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", t->root, t->file[i].name);
        char *text = read_text(path);
        if (!text)
            cannot_read(path);
        for (char *p = strstr(text, "#include \"sim/"); p; p = strstr(p + 1, "#include \"sim/")) {
            char inc[NAME_LEN] = {0};
            sscanf(p + strlen("#include \"sim/"), "%63[^\"]", inc);
            int k = find(t, inc);
            if (k >= 0 && k != i)
                t->file[i].includes[t->file[i].include_count++] = k;
        }
        free(text);
    }
}

/* The names of the functions a file declares (headers) or defines (.c), one
 * per line at column 0 that is not static: "type name(" ... ; or ... {. */
static int top_level_functions(const char *text, int definitions, char names[][NAME_LEN], int max)
{
    int n = 0, depth = 0, in_comment = 0;
    const char *line = text;
    while (*line && n < max) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (!in_comment && depth == 0 && len && (isalpha((unsigned char)line[0]) || line[0] == '_') &&
            strncmp(line, "static", 6) && strncmp(line, "typedef", 7) && strncmp(line, "extern", 6) &&
            strncmp(line, "struct", 6) && strncmp(line, "enum", 4)) {
            const char *paren = memchr(line, '(', len);
            if (paren) {
                const char *q = paren;
                while (q > line && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
                    q--;
                /* what follows the parameter list decides: ';' declares, '{' on a later line defines */
                const char *rest = paren;
                int pd = 0;
                for (; *rest; rest++) {
                    if (*rest == '(') pd++;
                    if (*rest == ')' && --pd == 0) break;
                }
                const char *after = rest + (*rest ? 1 : 0);
                while (*after == ' ' || *after == '\n' || *after == '\t' || *after == '\r')
                    after++;
                while (!strncmp(after, "__attribute__", 13)) {   /* format(printf...) */
                    int ad = 0;
                    for (after += 13; *after; after++) {
                        if (*after == '(') ad++;
                        if (*after == ')' && --ad == 0) { after++; break; }
                    }
                    while (*after == ' ' || *after == '\n' || *after == '\t')
                        after++;
                }
                int is_definition = *after == '{';
                if (q < paren && is_definition == definitions && (size_t)(paren - q) < NAME_LEN) {
                    memcpy(names[n], q, (size_t)(paren - q));
                    names[n][paren - q] = 0;
                    n++;
                }
            }
        }
        for (size_t i = 0; i < len; i++) {
            if (in_comment) {
                if (line[i] == '*' && i + 1 < len && line[i + 1] == '/') { in_comment = 0; i++; }
            } else if (line[i] == '/' && i + 1 < len && line[i + 1] == '*') {
                in_comment = 1; i++;
            } else if (line[i] == '/' && i + 1 < len && line[i + 1] == '/') {
                break;
            } else if (line[i] == '"' || line[i] == '\'') {   /* a literal: skip to its end */
                char q = line[i];
                for (i++; i < len && line[i] != q; i++)
                    if (line[i] == '\\')
                        i++;
            } else if (line[i] == '{') {
                depth++;
            } else if (line[i] == '}') {
                depth--;
            }
        }
        line = end ? end + 1 : line + len;
    }
    return n;
}

static int is_shared_header(const char *name)
{
    for (size_t i = 0; i < sizeof shared_headers / sizeof shared_headers[0]; i++)
        if (!strcmp(name, shared_headers[i]))
            return 1;
    return 0;
}

/* Rule 1; returns the number of violations, each printed. */
static int check_declarations(const tree *t)
{
    static char declared[512][NAME_LEN], defined[512][NAME_LEN];
    int bad = 0;
    for (int h = 0; h < t->count; h++) {
        const char *hn = t->file[h].name;
        if (!ends_with(hn, ".h") || is_shared_header(hn))
            continue;
        char path[600], twin[NAME_LEN];
        snprintf(path, sizeof path, "%s/%s", t->root, hn);
        char *text = read_text(path);
        if (!text)
            cannot_read(path);
        int nd = top_level_functions(text, 0, declared, 512);
        free(text);
        snprintf(twin, sizeof twin, "%.*s.c", (int)strlen(hn) - 2, hn);
        int nf = 0;
        if (find(t, twin) >= 0) {
            snprintf(path, sizeof path, "%s/%s", t->root, twin);
            if (!(text = read_text(path)))
                cannot_read(path);
            nf = top_level_functions(text, 1, defined, 512);
            free(text);
        }
        for (int i = 0; i < nd; i++) {
            int found = 0;
            for (int j = 0; j < nf && !found; j++)
                found = !strcmp(declared[i], defined[j]);
            if (!found) {
                printf("sim/%s declares %s(), which sim/%s does not define\n", hn, declared[i], twin);
                bad++;
            }
        }
    }
    return bad;
}

/* Rule 2: the .c files each file reaches through its includes. */
static void reach(const tree *t, int f, unsigned char *seen)
{
    for (int k = 0; k < t->file[f].include_count; k++) {
        int h = t->file[f].includes[k];
        if (!seen[h]) {
            seen[h] = 1;
            reach(t, h, seen);
        }
    }
}

static int depends(const tree *t, int a, int b)   /* a.c depends on b.c */
{
    unsigned char seen[MAX_FILES] = {0};
    reach(t, a, seen);
    char header[NAME_LEN];
    snprintf(header, sizeof header, "%.*s.h", (int)strlen(t->file[b].name) - 2, t->file[b].name);
    int h = find(t, header);
    return h >= 0 && seen[h] && !is_shared_header(header);
}

static int check_cycles(const tree *t)
{
    /* Floyd-Warshall over the .c files: a cycle is a pair that reach each other. */
    static unsigned char r[MAX_FILES][MAX_FILES];
    int c[MAX_FILES], n = 0, bad = 0;
    for (int i = 0; i < t->count; i++)
        if (ends_with(t->file[i].name, ".c"))
            c[n++] = i;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            r[i][j] = i != j && depends(t, c[i], c[j]);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (r[i][k] && r[k][j])
                    r[i][j] = 1;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (r[i][j] && r[j][i]) {
                printf("sim/%s and sim/%s depend on each other\n", t->file[c[i]].name, t->file[c[j]].name);
                bad++;
            }
    return bad;
}

START_TEST(test_headers_name_their_file)
{
    tree t;
    load_tree(&t, ".");
    ck_assert_int_gt(t.count, 20);
    ck_assert_int_eq(check_declarations(&t), 0);
}
END_TEST

/* isa/opcodes.def's class column names the file that defines each handler:
 * `void exec_<id>(` starts a line there (and so can be found by its name). */
START_TEST(test_handler_files)
{
    for (int op = 0; op < OP_COUNT; op++) {
        const char *file = ptx_class_files[ptx_opcodes[op].cls];
        char *text = read_text(file);
        ck_assert_msg(text != NULL, "cannot read %s", file);
        char opname[NAME_LEN], want[NAME_LEN + 16];
        snprintf(opname, sizeof opname, "%s", ptx_opcodes[op].spelling);
        for (char *c = opname; *c; c++)
            if (*c == '.')
                *c = '_';   /* bar.sync -> exec_bar_sync */
        snprintf(want, sizeof want, "\nvoid exec_%s(", opname);
        ck_assert_msg(strstr(text, want) != NULL, "%s: %s does not define exec_%s", ptx_opcodes[op].spelling, file,
                      opname);
        free(text);
    }
}
END_TEST

START_TEST(test_no_cycle)
{
    tree t;
    load_tree(&t, ".");
    ck_assert_int_eq(check_cycles(&t), 0);
}
END_TEST

/* The parser of this test on known text: it must see what it checks. */
START_TEST(test_function_scanner)
{
    static char names[8][NAME_LEN];
    const char *header = "/* void not_this(int); */\nint ws_a(int x);\nstatic inline int b(void) { return 0; }\n"
                         "void ws_c(const char *f, ...)\n    __attribute__((format(printf, 1, 2)));\ntypedef int (*fp)(int);\n";
    ck_assert_int_eq(top_level_functions(header, 0, names, 8), 2);
    ck_assert_str_eq(names[0], "ws_a");
    ck_assert_str_eq(names[1], "ws_c");
    const char *source = "int ws_a(int x)\n{\n    if (x == '{')\n        return g(\"}{\");\n}\nstatic int h(void)\n{\n}\nvoid ws_c(const char *f, ...)\n{\n}\n";
    ck_assert_int_eq(top_level_functions(source, 1, names, 8), 2);
    ck_assert_str_eq(names[0], "ws_a");
    ck_assert_str_eq(names[1], "ws_c");
}
END_TEST

int main(int argc, char **argv)
{
    if (argc == 2) {   /* report on another tree */
        tree *t = malloc(sizeof *t);
        load_tree(t, argv[1]);
        int bad = check_declarations(t) + check_cycles(t);
        printf("%d problem(s) in %s/sim\n", bad, argv[1]);
        free(t);
        return bad ? 1 : 0;
    }
    Suite *s = suite_create("layers");
    TCase *tc = tcase_create("sim");
    tcase_add_test(tc, test_function_scanner);
    tcase_add_test(tc, test_headers_name_their_file);
    tcase_add_test(tc, test_no_cycle);
    tcase_add_test(tc, test_handler_files);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
