/*
 * The PTX lexer: text -> tokens with 1-based line and column positions.
 *
 * An instruction's dotted spelling is one token ("ld.global.nc.v4.f32"), as is
 * a special register ("%tid.x"); a directive or a type is a DIRECTIVE token
 * (".reg", ".b32"). Numbers keep their text so the parser can convert a float
 * literal to the operand's type. Comments are skipped. Errors go to the diag
 * and the lexer carries on; a NUL byte or invalid UTF-8 stops it at once.
 */
#ifndef WARPSIM_ISA_LEXER_H
#define WARPSIM_ISA_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "isa/ptx.h"

/* At most this many error messages are collected per parse. */
#define PTX_DIAG_MAX 20

typedef enum {
    TOK_EOF = 0,
    TOK_IDENT,      /* name, %reg, $label, dotted opcode, %tid.x, _ */
    TOK_DIRECTIVE,  /* .version .reg .b32 ... (text includes the dot) */
    TOK_INT,        /* integer literal: u holds the value, has_u the U suffix */
    TOK_FLOAT,      /* decimal floating-point literal: f holds the double */
    TOK_F32,        /* 0fXXXXXXXX: u holds the 32 bits */
    TOK_F64,        /* 0dXXXXXXXXXXXXXXXX: u holds the 64 bits */
    TOK_STRING,     /* "..." : text/len hold the contents without the quotes */
    TOK_COMMA, TOK_SEMI, TOK_COLON, TOK_LPAREN, TOK_RPAREN, TOK_LBRACKET, TOK_RBRACKET,
    TOK_LBRACE, TOK_RBRACE, TOK_PLUS, TOK_MINUS, TOK_BANG, TOK_AT, TOK_PIPE, TOK_LT,
    TOK_GT, TOK_EQUAL,
    TOK_KIND_COUNT
} ptx_tok_kind;

typedef struct {
    uint8_t kind;       /* ptx_tok_kind */
    uint8_t has_u;      /* TOK_INT: U suffix */
    uint8_t bad;        /* a malformed token already reported by the lexer */
    int32_t line, column;
    const char *text;   /* points into the source */
    uint32_t len;
    uint64_t u;
    double f;
} ptx_token;

typedef struct {
    ptx_token *toks;
    int count;          /* including the final TOK_EOF */
    int errors;         /* lexical errors reported */
    int fatal;          /* binary data or invalid UTF-8: nothing to parse */
} ptx_token_list;

/* Tokenize `text`. Always returns a list ending in TOK_EOF (free it with
 * ptx_lex_free); lexical errors are reported to diag as "path:L:C: error: ...". */
ptx_token_list ptx_lex(const char *text, size_t length, const char *path, ptx_diag *diag);
void ptx_lex_free(ptx_token_list *list);

/* A printable name for a token kind ("identifier", "';'"). */
const char *ptx_tok_kind_name(int kind);

/* Report an error unless PTX_DIAG_MAX messages were already collected; returns
 * 0 once the cap is reached (and adds one final "too many errors" line). */
int ptx_diag_report(ptx_diag *d, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
