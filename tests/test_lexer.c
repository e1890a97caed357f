/* The PTX lexer: tokens, numbers, float literals, comments, strings, positions, errors. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/lexer.h"

typedef struct {
    ptx_token_list tl;
    ptx_diag diag;
} lexed;

static lexed lex(const char *text)
{
    lexed l;
    memset(&l, 0, sizeof l);
    l.tl = ptx_lex(text, strlen(text), "x.ptx", &l.diag);
    return l;
}

static lexed lexn(const char *text, size_t n)
{
    lexed l;
    memset(&l, 0, sizeof l);
    l.tl = ptx_lex(text, n, "x.ptx", &l.diag);
    return l;
}

static void done(lexed *l)
{
    ptx_lex_free(&l->tl);
    ptx_diag_free(&l->diag);
}

static int text_is(const ptx_token *t, const char *s) { return t->len == strlen(s) && !memcmp(t->text, s, t->len); }

#define TOK(l, i, k, s)                                                                                       \
    do {                                                                                                      \
        ck_assert_int_lt((i), (l).tl.count);                                                                 \
        ck_assert_msg((l).tl.toks[i].kind == (k), "token %d: kind %d, expected %d (%.*s)", (i),              \
                      (l).tl.toks[i].kind, (k), (int)(l).tl.toks[i].len, (l).tl.toks[i].text);               \
        ck_assert_msg(text_is(&(l).tl.toks[i], (s)), "token %d is '%.*s', expected '%s'", (i),              \
                      (int)(l).tl.toks[i].len, (l).tl.toks[i].text, (s));                                      \
    } while (0)

START_TEST(directives_and_names)
{
    lexed l = lex(".version 9.0\n.target sm_90\n.address_size 64\n");
    ck_assert_int_eq(l.diag.count, 0);
    TOK(l, 0, TOK_DIRECTIVE, ".version");
    TOK(l, 1, TOK_FLOAT, "9.0");
    TOK(l, 2, TOK_DIRECTIVE, ".target");
    TOK(l, 3, TOK_IDENT, "sm_90");
    TOK(l, 4, TOK_DIRECTIVE, ".address_size");
    TOK(l, 5, TOK_INT, "64");
    ck_assert_int_eq(l.tl.toks[5].u, 64);
    ck_assert_int_eq(l.tl.toks[6].kind, TOK_EOF);
    ck_assert_int_eq(l.tl.count, 7);
    done(&l);
}
END_TEST

START_TEST(instruction_tokens)
{
    lexed l = lex("@!%p1 ld.global.nc.v4.f32 {%f1, _}, [%rd1+-16];");
    ck_assert_int_eq(l.diag.count, 0);
    TOK(l, 0, TOK_AT, "@");
    TOK(l, 1, TOK_BANG, "!");
    TOK(l, 2, TOK_IDENT, "%p1");
    TOK(l, 3, TOK_IDENT, "ld.global.nc.v4.f32");
    TOK(l, 4, TOK_LBRACE, "{");
    TOK(l, 5, TOK_IDENT, "%f1");
    TOK(l, 6, TOK_COMMA, ",");
    TOK(l, 7, TOK_IDENT, "_");
    TOK(l, 8, TOK_RBRACE, "}");
    TOK(l, 9, TOK_COMMA, ",");
    TOK(l, 10, TOK_LBRACKET, "[");
    TOK(l, 11, TOK_IDENT, "%rd1");
    TOK(l, 12, TOK_PLUS, "+");
    TOK(l, 13, TOK_MINUS, "-");
    TOK(l, 14, TOK_INT, "16");
    TOK(l, 15, TOK_RBRACKET, "]");
    TOK(l, 16, TOK_SEMI, ";");
    done(&l);

    l = lex("mov.u32 %r1, %tid.x; ld.shared::cta.u32 %r2, [s]; $L__BB0_2: shfl.sync.bfly.b32 %r3|%p1, %r2, 1, 31, -1;");
    ck_assert_int_eq(l.diag.count, 0);
    TOK(l, 3, TOK_IDENT, "%tid.x");
    TOK(l, 5, TOK_IDENT, "ld.shared::cta.u32");
    TOK(l, 12, TOK_IDENT, "$L__BB0_2");
    TOK(l, 13, TOK_COLON, ":");
    TOK(l, 14, TOK_IDENT, "shfl.sync.bfly.b32");
    TOK(l, 15, TOK_IDENT, "%r3");
    TOK(l, 16, TOK_PIPE, "|");
    TOK(l, 17, TOK_IDENT, "%p1");
    done(&l);

    l = lex(".reg .b32 %r<21>; x = {1};");
    TOK(l, 0, TOK_DIRECTIVE, ".reg");
    TOK(l, 1, TOK_DIRECTIVE, ".b32");
    TOK(l, 2, TOK_IDENT, "%r");
    TOK(l, 3, TOK_LT, "<");
    TOK(l, 4, TOK_INT, "21");
    TOK(l, 5, TOK_GT, ">");
    TOK(l, 8, TOK_EQUAL, "=");
    done(&l);
}
END_TEST

START_TEST(integers)
{
    lexed l = lex("0 42 0x1F 0X1f 017 0b101 5U 18446744073709551615 0xFFFFFFFFFFFFFFFF");
    ck_assert_int_eq(l.diag.count, 0);
    uint64_t want[] = {0, 42, 31, 31, 15, 5, 5, UINT64_MAX, UINT64_MAX};
    for (int i = 0; i < 9; i++) {
        ck_assert_int_eq(l.tl.toks[i].kind, TOK_INT);
        ck_assert_msg(l.tl.toks[i].u == want[i], "integer %d", i);
        ck_assert_int_eq(l.tl.toks[i].bad, 0);
    }
    ck_assert_int_eq(l.tl.toks[6].has_u, 1);
    ck_assert_int_eq(l.tl.toks[5].has_u, 0);
    done(&l);
}
END_TEST

START_TEST(float_literals)
{
    lexed l = lex("0f3F800000 0d3FF0000000000000 0F7F800000 1.5 1e3 .5 1. 2.5e-3 0.0");
    ck_assert_int_eq(l.diag.count, 0);
    ck_assert_int_eq(l.tl.toks[0].kind, TOK_F32);
    ck_assert_int_eq(l.tl.toks[0].u, 0x3F800000u);
    ck_assert_int_eq(l.tl.toks[1].kind, TOK_F64);
    ck_assert(l.tl.toks[1].u == 0x3FF0000000000000ull);
    ck_assert_int_eq(l.tl.toks[2].kind, TOK_F32);
    ck_assert_int_eq(l.tl.toks[2].u, 0x7F800000u);
    double want[] = {1.5, 1000.0, 0.5, 1.0, 0.0025, 0.0};
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(l.tl.toks[3 + i].kind, TOK_FLOAT);
        ck_assert_double_eq(l.tl.toks[3 + i].f, want[i]);
    }
    done(&l);
}
END_TEST

START_TEST(malformed_numbers)
{
    lexed l = lex("0f3F80 08 0x 12abc 18446744073709551616 1e999 0d3FF");
    ck_assert_int_eq(l.diag.count, 7);
    ck_assert_str_eq(l.diag.lines[0],
                     "x.ptx:1:1: error: malformed floating-point literal '0f3F80' (0f takes 8 hex digits, 0d takes 16)");
    ck_assert_str_eq(l.diag.lines[1], "x.ptx:1:8: error: malformed number '08'");
    ck_assert_str_eq(l.diag.lines[2], "x.ptx:1:11: error: malformed number '0x'");
    ck_assert_str_eq(l.diag.lines[3], "x.ptx:1:14: error: malformed number '12abc'");
    ck_assert_str_eq(l.diag.lines[4],
                     "x.ptx:1:20: error: number out of range: '18446744073709551616' does not fit in 64 bits");
    ck_assert_str_eq(l.diag.lines[5], "x.ptx:1:41: error: number out of range: '1e999'");
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(l.tl.toks[i].bad, 1);
    ck_assert_int_eq(l.tl.errors, 7);
    done(&l);
}
END_TEST

START_TEST(comments_and_positions)
{
    lexed l = lex("// line comment\n/* block\n   comment */ a\n\tb // .globl k\n  /**/c");
    ck_assert_int_eq(l.diag.count, 0);
    TOK(l, 0, TOK_IDENT, "a");
    ck_assert_int_eq(l.tl.toks[0].line, 3);
    ck_assert_int_eq(l.tl.toks[0].column, 15);
    TOK(l, 1, TOK_IDENT, "b");
    ck_assert_int_eq(l.tl.toks[1].line, 4);
    ck_assert_int_eq(l.tl.toks[1].column, 2);
    TOK(l, 2, TOK_IDENT, "c");
    ck_assert_int_eq(l.tl.toks[2].line, 5);
    ck_assert_int_eq(l.tl.toks[2].column, 7);
    ck_assert_int_eq(l.tl.toks[3].kind, TOK_EOF);
    ck_assert_int_eq(l.tl.count, 4);
    done(&l);

    l = lex("a /* never\nclosed");
    ck_assert_int_eq(l.diag.count, 1);
    ck_assert_str_eq(l.diag.lines[0], "x.ptx:1:3: error: unterminated block comment");
    done(&l);

    l = lex("");
    ck_assert_int_eq(l.tl.count, 1);
    ck_assert_int_eq(l.tl.toks[0].kind, TOK_EOF);
    ck_assert_int_eq(l.tl.toks[0].line, 1);
    ck_assert_int_eq(l.tl.toks[0].column, 1);
    done(&l);

    l = lex("// only a comment");
    ck_assert_int_eq(l.tl.count, 1);
    ck_assert_int_eq(l.diag.count, 0);
    done(&l);
}
END_TEST

START_TEST(strings)
{
    lexed l = lex(".pragma \"nounroll\";\n\"a\\\"b\"");
    ck_assert_int_eq(l.diag.count, 0);
    TOK(l, 1, TOK_STRING, "nounroll");
    ck_assert_int_eq(l.tl.toks[1].column, 9);
    TOK(l, 3, TOK_STRING, "a\\\"b");
    done(&l);

    l = lex("x \"open\ny");
    ck_assert_int_eq(l.diag.count, 1);
    ck_assert_str_eq(l.diag.lines[0], "x.ptx:1:3: error: unterminated string");
    done(&l);
}
END_TEST

START_TEST(binary_and_unicode)
{
    lexed l = lexn("\x00\x01garbage", 9);
    ck_assert_int_eq(l.tl.fatal, 1);
    ck_assert_int_eq(l.diag.count, 1);
    ck_assert_str_eq(l.diag.lines[0], "x.ptx:1:1: error: binary data (byte 0x00): not a PTX text file");
    done(&l);

    l = lex("ok\n  \xff\xfe");
    ck_assert_int_eq(l.tl.fatal, 1);
    ck_assert_str_eq(l.diag.lines[0],
                     "x.ptx:2:3: error: binary data or invalid UTF-8 (byte 0xff): not a PTX text file");
    done(&l);

    l = lex("// caf\xc3\xa9 is fine in a comment\nx");
    ck_assert_int_eq(l.tl.fatal, 0);
    ck_assert_int_eq(l.diag.count, 0);
    done(&l);

    l = lex("a \xc3\xa9 # b");
    ck_assert_int_eq(l.diag.count, 2);
    ck_assert_str_eq(l.diag.lines[0], "x.ptx:1:3: error: unexpected character '\xc3\xa9'");
    ck_assert_str_eq(l.diag.lines[1], "x.ptx:1:6: error: unexpected character '#'");
    TOK(l, 1, TOK_IDENT, "b");
    done(&l);

    /* truncated UTF-8 sequence at the end */
    l = lexn("ab\xe2\x82", 4);
    ck_assert_int_eq(l.tl.fatal, 1);
    done(&l);
}
END_TEST

START_TEST(error_cap)
{
    char text[2000];
    memset(text, '#', sizeof text - 1);
    text[sizeof text - 1] = 0;
    lexed l = lex(text);
    ck_assert_int_le(l.diag.count, PTX_DIAG_MAX + 1);
    ck_assert_str_eq(l.diag.lines[l.diag.count - 1], "x.ptx:1:21: error: too many errors; giving up");
    done(&l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("lexer");
    tcase_add_test(tc, directives_and_names);
    tcase_add_test(tc, instruction_tokens);
    tcase_add_test(tc, integers);
    tcase_add_test(tc, float_literals);
    tcase_add_test(tc, malformed_numbers);
    tcase_add_test(tc, comments_and_positions);
    tcase_add_test(tc, strings);
    tcase_add_test(tc, binary_and_unicode);
    tcase_add_test(tc, error_cap);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
