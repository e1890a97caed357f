/*
 * isa/README.md holds the opcode reference table between the markers
 * <!-- opcode-table:begin --> and <!-- opcode-table:end -->. This test
 * regenerates it with ptx_print_isa_table (what `warpsim isa --markdown`
 * prints) and fails when the README's copy differs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

#define BEGIN "<!-- opcode-table:begin -->\n"
#define END "<!-- opcode-table:end -->"

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

static char *generated(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ptx_print_isa_table(f, 1);
    fclose(f);
    return buf;
}

START_TEST(readme_table_matches_opcode_table)
{
    char *readme = read_all(WARPSIM_SOURCE_DIR "/isa/README.md");
    ck_assert_msg(readme != NULL, "cannot read isa/README.md");
    char *b = strstr(readme, BEGIN), *e = strstr(readme, END);
    ck_assert_msg(b && e && e > b, "isa/README.md lacks the markers " BEGIN " and " END);
    b += strlen(BEGIN);
    *e = 0;
    char *want = generated();
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
                "isa/README.md's opcode table is out of date (line %d of the table):\n"
                "  README:    %.*s\n  generated: %.*s\n"
                "run `build/warpsim isa --markdown` and paste its output between the markers.\n",
                line, (int)strcspn(xl, "\n"), xl, (int)strcspn(yl, "\n"), yl);
        ck_abort_msg("isa/README.md differs from `warpsim isa --markdown`: run `build/warpsim isa --markdown` "
                     "and paste");
    }
    free(want);
    free(readme);
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
    char *t = generated();
    int lines = 0;
    for (char *p = t; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, OP_COUNT + 2);
    /* each row has the same number of unescaped cell separators */
    char *line = t;
    int want = -1;
    while (*line) {
        int bars = 0;
        char *p = line;
        for (; *p && *p != '\n'; p++)
            if (*p == '|' && (p == line || p[-1] != '\\'))
                bars++;
        if (want < 0)
            want = bars;
        ck_assert_msg(bars == want, "row with %d cells: %.*s", bars, (int)(p - line), line);
        line = *p ? p + 1 : p;
    }
    ck_assert_int_eq(want, 7);
    free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("isa_readme");
    TCase *tc = tcase_create("isa_readme");
    tcase_add_test(tc, readme_table_matches_opcode_table);
    tcase_add_test(tc, readme_has_the_sections);
    tcase_add_test(tc, table_is_well_formed);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
