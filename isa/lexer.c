/* The PTX lexer (see lexer.h). */
#include "isa/lexer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t n, i;
    int line;
    size_t line_start;
    const char *path;
    ptx_diag *diag;
    ptx_token_list out;
    int cap;
} lexer;

static int is_letter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static int hex_val(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c - 'A' + 10;
}
/* PTX "followsym": [a-zA-Z0-9_$] */
static int is_follow(int c) { return is_letter(c) || is_digit(c) || c == '_' || c == '$'; }

static int peek(const lexer *L, size_t k) { return L->i + k < L->n ? (unsigned char)L->s[L->i + k] : -1; }
static int col_of(const lexer *L, size_t pos) { return (int)(pos - L->line_start) + 1; }

static void lex_error(lexer *L, size_t pos, const char *fmt, const char *arg)
{
    L->out.errors++;
    ptx_diag_report(L->diag, L->path, L->line, col_of(L, pos), fmt, arg);
}

static ptx_token *push(lexer *L, int kind, size_t start)
{
    if (L->out.count == L->cap) {
        int cap = L->cap ? L->cap * 2 : 256;
        ptx_token *t = realloc(L->out.toks, (size_t)cap * sizeof *t);
        if (!t)
            abort();
        L->out.toks = t;
        L->cap = cap;
    }
    ptx_token *t = &L->out.toks[L->out.count++];
    memset(t, 0, sizeof *t);
    t->kind = (uint8_t)kind;
    t->line = L->line;
    t->column = col_of(L, start);
    t->text = L->s + start;
    t->len = (uint32_t)(L->i - start);
    return t;
}

const char *ptx_tok_kind_name(int kind)
{
    static const char *const names[TOK_KIND_COUNT] = {
        [TOK_EOF] = "end of file", [TOK_IDENT] = "identifier", [TOK_DIRECTIVE] = "directive",
        [TOK_INT] = "integer", [TOK_FLOAT] = "floating-point number", [TOK_F32] = "floating-point number",
        [TOK_F64] = "floating-point number", [TOK_STRING] = "string", [TOK_COMMA] = "','",
        [TOK_SEMI] = "';'", [TOK_COLON] = "':'", [TOK_LPAREN] = "'('", [TOK_RPAREN] = "')'",
        [TOK_LBRACKET] = "'['", [TOK_RBRACKET] = "']'", [TOK_LBRACE] = "'{'", [TOK_RBRACE] = "'}'",
        [TOK_PLUS] = "'+'", [TOK_MINUS] = "'-'", [TOK_BANG] = "'!'", [TOK_AT] = "'@'",
        [TOK_PIPE] = "'|'", [TOK_LT] = "'<'", [TOK_GT] = "'>'", [TOK_EQUAL] = "'='",
    };
    if (kind < 0 || kind >= TOK_KIND_COUNT)
        return "token";
    return names[kind];
}

/* Binary data check: NUL bytes, control characters and invalid UTF-8 mean
 * the input is not PTX text; report the first one and stop. */
static int check_text(lexer *L)
{
    const unsigned char *s = (const unsigned char *)L->s;
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < L->n;) {
        unsigned c = s[i];
        int col = (int)(i - line_start) + 1;
        if (c == '\n') {
            line++;
            line_start = i + 1;
            i++;
            continue;
        }
        if (c < 0x80) {
            if (c == 0 || (c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f) {
                ptx_diag_report(L->diag, L->path, line, col,
                                "binary data (byte 0x%02x): not a PTX text file", c);
                return 0;
            }
            i++;
            continue;
        }
        int extra;
        unsigned min;
        if (c >= 0xc2 && c <= 0xdf) {
            extra = 1;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            extra = 2;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            extra = 3;
            min = 0x10000;
        } else {
            extra = -1;
            min = 0;
        }
        unsigned cp = extra == 1 ? (c & 0x1f) : extra == 2 ? (c & 0x0f) : (c & 0x07);
        int ok = extra > 0;
        for (int k = 1; ok && k <= extra; k++) {
            if (i + (size_t)k >= L->n || (s[i + k] & 0xc0) != 0x80)
                ok = 0;
            else
                cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (ok && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
            ok = 0;
        if (!ok) {
            ptx_diag_report(L->diag, L->path, line, col,
                            "binary data or invalid UTF-8 (byte 0x%02x): not a PTX text file", c);
            return 0;
        }
        i += (size_t)extra + 1;
    }
    return 1;
}

static void newline(lexer *L)
{
    /* L->i points at '\n' */
    L->i++;
    L->line++;
    L->line_start = L->i;
}

/* Skip whitespace and comments; returns 0 at end of input. */
static int skip_space(lexer *L)
{
    while (L->i < L->n) {
        int c = peek(L, 0);
        if (c == '\n') {
            newline(L);
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            L->i++;
        } else if (c == '/' && peek(L, 1) == '/') {
            while (L->i < L->n && L->s[L->i] != '\n')
                L->i++;
        } else if (c == '/' && peek(L, 1) == '*') {
            size_t start = L->i;
            int sline = L->line;
            size_t sls = L->line_start;
            L->i += 2;
            int closed = 0;
            while (L->i < L->n) {
                if (L->s[L->i] == '*' && peek(L, 1) == '/') {
                    L->i += 2;
                    closed = 1;
                    break;
                }
                if (L->s[L->i] == '\n')
                    newline(L);
                else
                    L->i++;
            }
            if (!closed) {
                L->out.errors++;
                ptx_diag_report(L->diag, L->path, sline, (int)(start - sls) + 1, "unterminated block comment");
            }
        } else {
            return 1;
        }
    }
    return 0;
}

static void lex_number(lexer *L)
{
    size_t start = L->i;
    int c0 = peek(L, 0), c1 = peek(L, 1);
    ptx_token *t;

    if (c0 == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
        int want = (c1 == 'f' || c1 == 'F') ? 8 : 16;
        L->i += 2;
        uint64_t v = 0;
        int nd = 0;
        while (L->i < L->n && is_hex((unsigned char)L->s[L->i])) {
            v = (v << 4) | (uint64_t)hex_val((unsigned char)L->s[L->i]);
            L->i++;
            nd++;
        }
        int bad = nd != want;
        while (L->i < L->n && is_follow((unsigned char)L->s[L->i])) {
            L->i++;
            bad = 1;
        }
        t = push(L, want == 8 ? TOK_F32 : TOK_F64, start);
        t->u = v;
        if (bad) {
            t->bad = 1;
            L->out.errors++;
            ptx_diag_report(L->diag, L->path, L->line, col_of(L, start),
                            "malformed floating-point literal '%.*s' (0f takes 8 hex digits, 0d takes 16)",
                            (int)(L->i - start > 40 ? 40 : L->i - start), L->s + start);
        }
        return;
    }

    int base = 10, bad = 0, overflow = 0;
    uint64_t v = 0;
    if (c0 == '0' && (c1 == 'x' || c1 == 'X')) {
        base = 16;
        L->i += 2;
    } else if (c0 == '0' && (c1 == 'b' || c1 == 'B')) {
        base = 2;
        L->i += 2;
    } else if (c0 == '0' && is_digit(c1)) {
        base = 8;
        L->i += 1;
    } else if (c0 != '.') {
        /* a decimal: is it a float? */
        size_t j = L->i;
        while (j < L->n && is_digit((unsigned char)L->s[j]))
            j++;
        if (j < L->n && (L->s[j] == '.' || L->s[j] == 'e' || L->s[j] == 'E'))
            base = 0;
    } else {
        base = 0;
    }

    if (base == 0) {
        /* [0-9]* '.' [0-9]* ([eE][+-]?[0-9]+)?  or  [0-9]+ [eE][+-]?[0-9]+ */
        while (L->i < L->n && is_digit((unsigned char)L->s[L->i]))
            L->i++;
        if (peek(L, 0) == '.') {
            L->i++;
            while (L->i < L->n && is_digit((unsigned char)L->s[L->i]))
                L->i++;
        }
        if (peek(L, 0) == 'e' || peek(L, 0) == 'E') {
            size_t save = L->i;
            L->i++;
            if (peek(L, 0) == '+' || peek(L, 0) == '-')
                L->i++;
            if (!is_digit(peek(L, 0))) {
                L->i = save;
                bad = 1;
            }
            while (L->i < L->n && is_digit((unsigned char)L->s[L->i]))
                L->i++;
        }
        while (L->i < L->n && (is_follow((unsigned char)L->s[L->i]) || L->s[L->i] == '.')) {
            L->i++;
            bad = 1;
        }
        t = push(L, TOK_FLOAT, start);
        size_t len = L->i - start;
        if (!bad && len < 512) {
            char buf[512];
            memcpy(buf, L->s + start, len);
            buf[len] = 0;
            errno = 0;
            char *end;
            double d = strtod(buf, &end);
            if (*end)
                bad = 1;
            else if (isinf(d)) {
                t->bad = 1;
                L->out.errors++;
                ptx_diag_report(L->diag, L->path, L->line, col_of(L, start),
                                "number out of range: '%.*s'", (int)(len > 40 ? 40 : len), L->s + start);
                return;
            }
            t->f = d;
        } else if (!bad) {
            bad = 1;
        }
        if (bad) {
            t->bad = 1;
            L->out.errors++;
            ptx_diag_report(L->diag, L->path, L->line, col_of(L, start), "malformed number '%.*s'",
                            (int)(len > 40 ? 40 : len), L->s + start);
        }
        return;
    }

    int nd = 0;
    while (L->i < L->n) {
        int c = (unsigned char)L->s[L->i];
        int d;
        if (base == 16 && is_hex(c))
            d = hex_val(c);
        else if (is_digit(c))
            d = c - '0';
        else
            break;
        if (d >= base) {
            bad = 1;
            L->i++;
            continue;
        }
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            overflow = 1;
        v = v * (uint64_t)base + (uint64_t)d;
        nd++;
        L->i++;
    }
    if (base != 8 && nd == 0)
        bad = 1;
    int has_u = 0;
    if (peek(L, 0) == 'U') {
        has_u = 1;
        L->i++;
    }
    while (L->i < L->n && (is_follow((unsigned char)L->s[L->i]) || L->s[L->i] == '.')) {
        L->i++;
        bad = 1;
    }
    t = push(L, TOK_INT, start);
    t->u = v;
    t->has_u = (uint8_t)has_u;
    size_t len = L->i - start;
    if (bad) {
        t->bad = 1;
        L->out.errors++;
        ptx_diag_report(L->diag, L->path, L->line, col_of(L, start), "malformed number '%.*s'",
                        (int)(len > 40 ? 40 : len), L->s + start);
    } else if (overflow) {
        t->bad = 1;
        L->out.errors++;
        ptx_diag_report(L->diag, L->path, L->line, col_of(L, start),
                        "number out of range: '%.*s' does not fit in 64 bits", (int)(len > 40 ? 40 : len),
                        L->s + start);
    }
}

/* One component of a dotted name: followsym+ ("::" followsym+)* */
static void lex_component(lexer *L)
{
    while (L->i < L->n) {
        int c = (unsigned char)L->s[L->i];
        if (is_follow(c)) {
            L->i++;
        } else if (c == ':' && peek(L, 1) == ':' && is_follow(peek(L, 2))) {
            L->i += 2;
        } else {
            break;
        }
    }
}

ptx_token_list ptx_lex(const char *text, size_t length, const char *path, ptx_diag *diag)
{
    lexer L;
    memset(&L, 0, sizeof L);
    L.s = text ? text : "";
    L.n = text ? length : 0;
    L.line = 1;
    L.path = path;
    L.diag = diag;

    if (!check_text(&L)) {
        L.out.fatal = 1;
        L.out.errors++;
        push(&L, TOK_EOF, 0);
        return L.out;
    }

    while (skip_space(&L)) {
        size_t start = L.i;
        int c = peek(&L, 0), c1 = peek(&L, 1);
        if (c == '"') {
            int sline = L.line;
            size_t sls = L.line_start;
            L.i++;
            int closed = 0;
            while (L.i < L.n) {
                int d = (unsigned char)L.s[L.i];
                if (d == '"') {
                    closed = 1;
                    break;
                }
                if (d == '\n')
                    break;
                if (d == '\\' && L.i + 1 < L.n && L.s[L.i + 1] != '\n')
                    L.i++;
                L.i++;
            }
            ptx_token *t = push(&L, TOK_STRING, start + 1);
            t->line = sline;
            t->column = (int)(start - sls) + 1;
            if (!closed) {
                t->bad = 1;
                L.out.errors++;
                ptx_diag_report(L.diag, L.path, sline, (int)(start - sls) + 1, "unterminated string");
            } else {
                L.i++;
            }
        } else if (c == '.' && (is_letter(c1) || c1 == '_')) {
            L.i++;
            while (L.i < L.n && is_follow((unsigned char)L.s[L.i]))
                L.i++;
            push(&L, TOK_DIRECTIVE, start);
        } else if (is_digit(c) || (c == '.' && is_digit(c1))) {
            lex_number(&L);
        } else if (is_letter(c) || c == '_' || c == '$' || c == '%') {
            L.i++;
            while (L.i < L.n && is_follow((unsigned char)L.s[L.i]))
                L.i++;
            if (c == '%' && L.i == start + 1) {
                lex_error(&L, start, "unexpected character '%s'", "%");
                continue;
            }
            while (peek(&L, 0) == '.' && is_follow(peek(&L, 1))) {
                L.i++;
                lex_component(&L);
            }
            push(&L, TOK_IDENT, start);
        } else {
            int kind = -1;
            switch (c) {
            case ',': kind = TOK_COMMA; break;
            case ';': kind = TOK_SEMI; break;
            case ':': kind = TOK_COLON; break;
            case '(': kind = TOK_LPAREN; break;
            case ')': kind = TOK_RPAREN; break;
            case '[': kind = TOK_LBRACKET; break;
            case ']': kind = TOK_RBRACKET; break;
            case '{': kind = TOK_LBRACE; break;
            case '}': kind = TOK_RBRACE; break;
            case '+': kind = TOK_PLUS; break;
            case '-': kind = TOK_MINUS; break;
            case '!': kind = TOK_BANG; break;
            case '@': kind = TOK_AT; break;
            case '|': kind = TOK_PIPE; break;
            case '<': kind = TOK_LT; break;
            case '>': kind = TOK_GT; break;
            case '=': kind = TOK_EQUAL; break;
            default: break;
            }
            if (kind >= 0) {
                L.i++;
                push(&L, kind, start);
            } else {
                /* one whole UTF-8 sequence (the text was validated) */
                size_t len = 1;
                if (c >= 0xf0)
                    len = 4;
                else if (c >= 0xe0)
                    len = 3;
                else if (c >= 0xc0)
                    len = 2;
                if (start + len > L.n)
                    len = L.n - start;
                char buf[8];
                memcpy(buf, L.s + start, len);
                buf[len] = 0;
                lex_error(&L, start, "unexpected character '%s'", buf);
                L.i += len;
            }
        }
    }
    push(&L, TOK_EOF, L.i);
    return L.out;
}

void ptx_lex_free(ptx_token_list *list)
{
    free(list->toks);
    list->toks = NULL;
    list->count = 0;
}
