/*
 * The tables the READMEs copy from the code's own tables:
 *  - isa/README.md's opcode table, between <!-- opcode-table:begin --> and
 *    <!-- opcode-table:end -->: ptx_print_isa_table, what `warpsim isa
 *    --markdown` prints from isa/opcodes.def;
 *  - README.md's flag table, between <!-- run-flags:begin --> and
 *    <!-- run-flags:end -->: ws_run_print_flags_markdown, what `warpsim flags
 *    --markdown` prints from sim/flags.def.
 * Each is regenerated and must equal the README's copy.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"
#include "sim/flags.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif


static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    buf[len] = 0;
    return buf;
}

static void print_isa_markdown(FILE *f) { ptx_print_isa_table(f, 1); }

static char *generated(void (*print)(FILE *f))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    print(f);
    fclose(f);
    return buf;
}

/* The README's copy between the markers <!-- NAME:begin --> and <!-- NAME:end --> must equal print's output. */
static void check_copy(const char *readme_path, const char *name, void (*print)(FILE *f), const char *command)
{
    char path[512], begin[64], end[64];
    snprintf(path, sizeof path, "%s/%s", WARPSIM_SOURCE_DIR, readme_path);
    snprintf(begin, sizeof begin, "<!-- %s:begin -->\n", name);
    snprintf(end, sizeof end, "<!-- %s:end -->", name);
    char *readme = read_all(path);
    ck_assert_msg(readme != NULL, "cannot read %s", readme_path);
    char *b = strstr(readme, begin), *e = strstr(readme, end);
    ck_assert_msg(b && e && e > b, "%s lacks the markers %s and %s", readme_path, begin, end);
    b += strlen(begin);
    *e = 0;
    char *want = generated(print);
    if (strcmp(b, want)) {
        /* point at the first line that differs */
        const char *x = b, *y = want;
        int line = 1;
        while (*x && *x == *y) {
            if (*x == '\n')
                line++;
            x++;
            y++;
        }
        const char *xl = x, *yl = y;
        while (xl > b && xl[-1] != '\n')
            xl--;
        while (yl > want && yl[-1] != '\n')
            yl--;
        fprintf(stderr,
                "%s's %s table is out of date (line %d of the table):\n"
                "  README:    %.*s\n  generated: %.*s\n"
                "run `%s` and paste its output between the markers.\n",
                readme_path, name, line, (int)strcspn(xl, "\n"), xl, (int)strcspn(yl, "\n"), yl, command);
        ck_abort_msg("%s differs from `%s`", readme_path, command);
    }
    free(want);
    free(readme);
}

START_TEST(readme_table_matches_opcode_table)
{
    check_copy("isa/README.md", "opcode-table", print_isa_markdown, "build/warpsim isa --markdown");
}
END_TEST

START_TEST(readme_table_matches_flag_table)
{
    check_copy("README.md", "run-flags", ws_run_print_flags_markdown, "build/warpsim flags --markdown");
}
END_TEST

/* A markdown table of `rows` rows under its two header lines, every line with `bars` unescaped separators. */
static void check_well_formed(const char *t, int rows, int bars_per_line)
{
    int lines = 0;
    for (const char *line = t; *line; lines++) {
        int bars = 0;
        const char *p = line;
        for (; *p && *p != '\n'; p++)
            if (*p == '|' && (p == line || p[-1] != '\\'))
                bars++;
        ck_assert_msg(bars == bars_per_line, "row with %d separators: %.*s", bars, (int)(p - line), line);
        line = *p ? p + 1 : p;
    }
    ck_assert_int_eq(lines, rows + 2);
}

/* Every flag is in README.md's table under its own name; the table has a row per flag. */
START_TEST(flag_table_is_complete)
{
    char *t = generated(ws_run_print_flags_markdown);
    check_well_formed(t, WS_FLAG_COUNT, 5);
    for (int i = 0; i < WS_FLAG_COUNT; i++) {
        char cell[64];
        snprintf(cell, sizeof cell, "| `--%s", ws_flags[i].name);
        ck_assert_msg(strstr(t, cell), "the flag table lacks --%s", ws_flags[i].name);
    }
    free(t);
}
END_TEST

START_TEST(readme_has_the_sections)
{
    char *readme = read_all(WARPSIM_SOURCE_DIR "/isa/README.md");
    ck_assert_ptr_nonnull(readme);
    ck_assert_msg(strstr(readme, "\n## Integer division by zero\n"), "README lacks '## Integer division by zero'");
    ck_assert_msg(strstr(readme, "\n### Immediates\n"), "README lacks the immediates rule");
    /* every opcode's spelling appears in the table */
    for (int op = 0; op < OP_COUNT; op++) {
        char cell[64];
        snprintf(cell, sizeof cell, "| %s ", ptx_opcodes[op].spelling);
        ck_assert_msg(strstr(readme, cell), "README's table lacks %s", ptx_opcodes[op].spelling);
    }
    free(readme);
}
END_TEST

START_TEST(table_is_well_formed)
{
    char *t = generated(print_isa_markdown);
    check_well_formed(t, OP_COUNT, 7);
    free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("readme_tables");
    TCase *tc = tcase_create("readme_tables");
    tcase_add_test(tc, readme_table_matches_opcode_table);
    tcase_add_test(tc, readme_table_matches_flag_table);
    tcase_add_test(tc, flag_table_is_complete);
    tcase_add_test(tc, readme_has_the_sections);
    tcase_add_test(tc, table_is_well_formed);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
