/*
 * The PTX subset as data: types, state spaces, modifiers, special registers,
 * and the decoded module the parser builds and the simulator runs.
 *
 * A module is decoded once: every operand is resolved to a register index,
 * an immediate (already in the bit pattern of its operand type), a special
 * register, a symbol or a label's instruction index, so the executor never
 * looks at a string.
 */
#ifndef WARPSIM_ISA_PTX_H
#define WARPSIM_ISA_PTX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- Types ---------------------------------------------------------------- */

typedef enum {
    PTX_TYPE_NONE = 0,
    PTX_B8, PTX_B16, PTX_B32, PTX_B64,
    PTX_U8, PTX_U16, PTX_U32, PTX_U64,
    PTX_S8, PTX_S16, PTX_S32, PTX_S64,
    PTX_F16, PTX_F32, PTX_F64,
    PTX_PRED,
    PTX_TYPE_COUNT
} ptx_type;

/* Type masks for the opcode table's "types" column. */
#define TY_BIT(t) (1u << (t))
#define TY_B      (TY_BIT(PTX_B8) | TY_BIT(PTX_B16) | TY_BIT(PTX_B32) | TY_BIT(PTX_B64))
#define TY_U      (TY_BIT(PTX_U8) | TY_BIT(PTX_U16) | TY_BIT(PTX_U32) | TY_BIT(PTX_U64))
#define TY_S      (TY_BIT(PTX_S8) | TY_BIT(PTX_S16) | TY_BIT(PTX_S32) | TY_BIT(PTX_S64))
#define TY_F32    TY_BIT(PTX_F32)
#define TY_F64    TY_BIT(PTX_F64)
#define TY_FLOAT  (TY_F32 | TY_F64)
#define TY_INT    (TY_U | TY_S)
#define TY_BITS   (TY_B | TY_INT)
#define TY_NUM    (TY_INT | TY_FLOAT)
#define TY_ALL    (TY_BITS | TY_FLOAT | TY_BIT(PTX_F16))
#define TY_PRED   TY_BIT(PTX_PRED)
#define TY_B32    TY_BIT(PTX_B32)
#define TY_U32    TY_BIT(PTX_U32)
#define TY_U64    TY_BIT(PTX_U64)
#define TY_INT32  (TY_BIT(PTX_U32) | TY_BIT(PTX_S32))
#define TY_INT64  (TY_BIT(PTX_U64) | TY_BIT(PTX_S64))

typedef enum { PTX_KIND_BITS, PTX_KIND_UNSIGNED, PTX_KIND_SIGNED, PTX_KIND_FLOAT, PTX_KIND_PRED } ptx_type_kind;

typedef struct {
    const char *name;     /* "u32" (no dot) */
    unsigned size;        /* bytes; 0 for pred */
    ptx_type_kind kind;
} ptx_type_info;

extern const ptx_type_info ptx_types[PTX_TYPE_COUNT];
ptx_type ptx_type_from_name(const char *name, size_t len); /* "u32" -> PTX_U32, else PTX_TYPE_NONE */

/* ---- State spaces --------------------------------------------------------- */

typedef enum {
    PTX_SPACE_GENERIC = 0,   /* no space given: a generic address */
    PTX_SPACE_GLOBAL, PTX_SPACE_SHARED, PTX_SPACE_LOCAL, PTX_SPACE_PARAM, PTX_SPACE_CONST,
    PTX_SPACE_REG,
    PTX_SPACE_COUNT
} ptx_space;
extern const char *const ptx_space_names[PTX_SPACE_COUNT]; /* "global", ... ("" for generic) */

/* ---- Modifiers ------------------------------------------------------------ */

/* Modifier groups an opcode may take (the opcode table's "groups" column). */
enum {
    MG_SPACE   = 1u << 0,  /* .global .shared .local .param .const */
    MG_VEC     = 1u << 1,  /* .v2 .v4 */
    MG_CACHE   = 1u << 2,  /* .volatile .relaxed .weak .nc .ca .cg .cs .lu .cv .wb .wt, scopes: recorded, no effect */
    MG_TO      = 1u << 3,  /* cvta.to */
    MG_TYPE2   = 1u << 4,  /* a second type (cvt.f32.s32) */
    MG_ROUND   = 1u << 5,  /* .rn .rz .rm .rp .rni .rzi .rmi .rpi */
    MG_FTZ     = 1u << 6,
    MG_SAT     = 1u << 7,
    MG_CC      = 1u << 8,  /* carry flag */
    MG_MULMODE = 1u << 9,  /* .lo .hi .wide */
    MG_APPROX  = 1u << 10,
    MG_FULL    = 1u << 11,
    MG_NAN     = 1u << 12, /* min/max .NaN */
    MG_CMP     = 1u << 13, /* eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan */
    MG_BOOLOP  = 1u << 14, /* setp's .and .or .xor */
    MG_UNI     = 1u << 15,
    MG_SYNC    = 1u << 16, /* .sync .aligned */
    MG_BARRED  = 1u << 17, /* bar.red's .popc .and .or */
    MG_VOTE    = 1u << 18, /* .all .any .uni .ballot */
    MG_SHFL    = 1u << 19, /* .up .down .bfly .idx */
    MG_ATOM    = 1u << 20, /* .add .min .max .inc .dec .exch .cas .and .or .xor */
    MG_ORDER   = 1u << 21, /* .sc .acq_rel .relaxed .acquire .release; scopes .cta .gpu .sys .gl .cluster */
    MG_PRMT    = 1u << 22, /* prmt's .f4e .b4e .rc8 .ecl .ecr .rc16 */
    MG_SHF     = 1u << 23, /* shf's .l .r .wrap .clamp */
    MG_SHIFTAMT = 1u << 24, /* bfind.shiftamt */
};

/* The values of the MG_CACHE and MG_ORDER modifiers: below 0x10 a flag
 * (.volatile, .nc), otherwise one of the qualifiers below that warpsim records
 * (in ptx_instr.sem/scope/cache_op, so `warpsim dump` prints them back) and
 * otherwise ignores: its memory model is sequential. */
enum { PTX_QUAL_VOLATILE = 1, PTX_QUAL_NC = 2, PTX_QUAL_SEM = 0x10, PTX_QUAL_SCOPE = 0x20, PTX_QUAL_COP = 0x40 };
typedef enum { PTX_SEM_NONE = 0, PTX_SEM_WEAK, PTX_SEM_RELAXED, PTX_SEM_ACQUIRE, PTX_SEM_RELEASE, PTX_SEM_ACQ_REL, PTX_SEM_SC } ptx_sem;
typedef enum { PTX_SCOPE_NONE = 0, PTX_SCOPE_CTA, PTX_SCOPE_GPU, PTX_SCOPE_SYS, PTX_SCOPE_GL, PTX_SCOPE_CLUSTER } ptx_scope;
typedef enum { PTX_COP_NONE = 0, PTX_COP_CA, PTX_COP_CG, PTX_COP_CS, PTX_COP_LU, PTX_COP_CV, PTX_COP_WB, PTX_COP_WT } ptx_cache_op;

typedef enum {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
    PTX_CMP_NUM, PTX_CMP_NAN,
    PTX_CMP_COUNT
} ptx_cmp;

typedef enum { PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR } ptx_boolop;

typedef enum {
    PTX_RND_NONE = 0,
    PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,       /* float rounding */
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,   /* round to integer */
} ptx_rounding;

/* The opcode-specific sub-mode (ptx_instr.mode); which enum applies depends on the opcode. */
typedef enum { PTX_MUL_DEFAULT = 0, PTX_MUL_LO, PTX_MUL_HI, PTX_MUL_WIDE } ptx_mul_mode;
typedef enum { PTX_SHFL_UP = 1, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX } ptx_shfl_mode;
typedef enum { PTX_VOTE_ALL = 1, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT } ptx_vote_mode;
typedef enum {
    PTX_ATOM_ADD = 1, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_INC, PTX_ATOM_DEC,
    PTX_ATOM_EXCH, PTX_ATOM_CAS, PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR
} ptx_atom_op;
typedef enum { PTX_BARRED_POPC = 1, PTX_BARRED_AND, PTX_BARRED_OR } ptx_barred_op;
typedef enum { PTX_PRMT_DEFAULT = 0, PTX_PRMT_F4E, PTX_PRMT_B4E, PTX_PRMT_RC8, PTX_PRMT_ECL, PTX_PRMT_ECR, PTX_PRMT_RC16 } ptx_prmt_mode;
/* shf: mode = PTX_SHF_L or PTX_SHF_R, plus PTX_FLAG_CLAMP (absent: .wrap) */
typedef enum { PTX_SHF_L = 1, PTX_SHF_R } ptx_shf_mode;

/* ptx_instr.flags */
enum {
    PTX_FLAG_FTZ      = 1u << 0,
    PTX_FLAG_SAT      = 1u << 1,
    PTX_FLAG_APPROX   = 1u << 2,
    PTX_FLAG_FULL     = 1u << 3,
    PTX_FLAG_UNI      = 1u << 4,
    PTX_FLAG_CC       = 1u << 5,   /* writes the carry flag */
    PTX_FLAG_TO       = 1u << 6,   /* cvta.to */
    PTX_FLAG_VOLATILE = 1u << 7,
    PTX_FLAG_NAN      = 1u << 8,
    PTX_FLAG_CLAMP    = 1u << 9,   /* shf.clamp */
    PTX_FLAG_SYNC     = 1u << 10,  /* .sync / .aligned written; bar.sync/bar.arrive/bar.red always
                                      (they are barrier.*.aligned); barrier.* without .aligned: clear */
    PTX_FLAG_NC       = 1u << 11,  /* ld.global.nc */
    PTX_FLAG_SHIFTAMT = 1u << 12,  /* bfind.shiftamt */
};

/* ---- Special registers ---------------------------------------------------- */

typedef enum {
    PTX_SREG_TID_X, PTX_SREG_TID_Y, PTX_SREG_TID_Z,
    PTX_SREG_NTID_X, PTX_SREG_NTID_Y, PTX_SREG_NTID_Z,
    PTX_SREG_CTAID_X, PTX_SREG_CTAID_Y, PTX_SREG_CTAID_Z,
    PTX_SREG_NCTAID_X, PTX_SREG_NCTAID_Y, PTX_SREG_NCTAID_Z,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID,
    PTX_SREG_CLOCK, PTX_SREG_CLOCK64,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_GT, PTX_SREG_LANEMASK_GE,
    PTX_SREG_COUNT
} ptx_sreg;
extern const char *const ptx_sreg_names[PTX_SREG_COUNT]; /* "%tid.x", ... */

/* ---- Opcodes -------------------------------------------------------------- */

/* An opcode's class is the file of its handler (ptx_class_files). */
typedef enum {
    PTX_CLASS_ALU, PTX_CLASS_ALU_INT, PTX_CLASS_ALU_FLOAT, PTX_CLASS_ALU_BITS, PTX_CLASS_ALU_CVT,
    PTX_CLASS_MEM, PTX_CLASS_CTRL, PTX_CLASS_SYNC, PTX_CLASS_COUNT
} ptx_class;

/* Parser rules beyond types and modifier groups (isa/opcodes.def explains each). */
enum {
    R_INT_MULMODE = 1 << 0, R_HALF_MODE = 1 << 1, R_LEVEL = 1 << 2,
    R_IMPLIED_SYNC = 1 << 3, R_BARRED_TYPE = 1 << 4, R_VOTE_TYPE = 1 << 5, R_REDUX_OP = 1 << 6,
};

typedef enum {
#define OP(id, spelling, cls, shape, types, groups, rules, semantics) OP_##id,
#define ALIAS(spelling, id, rules)
#include "isa/opcodes.def"
#undef OP
#undef ALIAS
    OP_COUNT
} ptx_opcode;

typedef struct {
    const char *spelling;   /* "bar.sync" */
    ptx_class cls;
    const char *shape;      /* "d, a, b" (see opcodes.def) */
    uint32_t types;         /* TY_* mask; 0 = the instruction takes no type */
    uint32_t groups;        /* MG_* mask */
    uint32_t rules;         /* R_* mask */
    const char *semantics;  /* one line */
} ptx_opcode_info;
extern const ptx_opcode_info ptx_opcodes[OP_COUNT];
extern const char *const ptx_class_files[PTX_CLASS_COUNT];

typedef struct { const char *spelling; ptx_opcode op; uint32_t rules; } ptx_opcode_alias;
extern const ptx_opcode_alias ptx_opcode_aliases[];
extern const size_t ptx_opcode_alias_count;

/* ---- Operands and instructions -------------------------------------------- */

typedef enum {
    PTX_OPD_NONE = 0,
    PTX_OPD_REG,      /* value register: reg */
    PTX_OPD_PRED,     /* predicate register: reg; negated for !%p */
    PTX_OPD_IMM,      /* imm: the bit pattern in the operand's type (floats already converted) */
    PTX_OPD_SREG,     /* special register: reg = ptx_sreg */
    PTX_OPD_SYMBOL,   /* the address of symbol `symbol` plus imm (mov %r, sym; cvta of a symbol) */
    PTX_OPD_ADDR,     /* memory address: [reg + imm] when reg >= 0, [symbol + imm] when symbol >= 0, else [imm] */
    PTX_OPD_VEC,      /* {regs[0..count-1]}; -1 in regs is the sink `_` */
    PTX_OPD_LABEL,    /* reg = label index; imm = target instruction index */
    PTX_OPD_SINK,     /* `_` */
    PTX_OPD_FUNCTION, /* the address of function `reg` (mov.u64 %rd, kernel: what a device-side launch
                         passes); imm holds it, PTX_FUNCTION_ADDRESS(reg) */
} ptx_operand_kind;

/* The address `mov` gives a function: in a window no memory is mapped at (sim/state.h's windows sit
 * above it), so a load through it faults, and the device runtime's launch calls map it back. */
#define PTX_FUNCTION_WINDOW UINT64_C(0x00007c0000000000)
#define PTX_FUNCTION_ADDRESS(index) (PTX_FUNCTION_WINDOW + (uint64_t)(index) * 16u)

/* ptx_instr.operand[] holds the operands in the order written: a `d|q`
 * destination pair gives two operands (d, then q) when q is written, and an
 * optional operand (`?` in the shape) that is not written is simply absent, so
 * operand_count is the number written (counting q). A call has no operands:
 * see ptx_instr.call. WARP_SZ reads as the immediate 32. */

#define PTX_MAX_OPERANDS 6
#define PTX_MAX_VEC 4

typedef struct {
    uint8_t kind;      /* ptx_operand_kind */
    uint8_t negated;   /* !%p */
    uint8_t count;     /* PTX_OPD_VEC: element count */
    uint8_t reg_is_64; /* PTX_OPD_ADDR: base register is 64-bit */
    int32_t reg;       /* register / predicate / sreg / label index; -1 none */
    int32_t symbol;    /* module symbol index; -1 none */
    int32_t regs[PTX_MAX_VEC];
    int64_t imm;
} ptx_operand;

typedef struct {
    uint16_t opcode;        /* ptx_opcode */
    uint8_t type;           /* ptx_type of the operation (for cvt: the destination) */
    uint8_t type2;          /* cvt: the source type; otherwise PTX_TYPE_NONE */
    uint8_t space;          /* ptx_space of memory operations and cvta */
    uint8_t vec;            /* 1, 2 or 4 */
    uint8_t cmp;            /* ptx_cmp (setp) */
    uint8_t boolop;         /* ptx_boolop (setp) */
    uint8_t mode;           /* ptx_mul_mode / ptx_shfl_mode / ptx_vote_mode / ptx_atom_op / ptx_barred_op / ... */
    uint8_t rounding;       /* ptx_rounding */
    uint8_t sem;            /* ptx_sem (.relaxed .acquire .release .acq_rel .sc .weak): recorded only */
    uint8_t scope;          /* ptx_scope (.cta .gpu .sys .gl .cluster): recorded only */
    uint8_t cache_op;       /* ptx_cache_op (.ca .cg .cs .lu .cv .wb .wt): recorded only */
    uint8_t operand_count;
    uint8_t guard_negated;  /* @!%p */
    int16_t guard;          /* predicate index of @%p, -1 when unguarded */
    uint16_t flags;         /* PTX_FLAG_* */
    int32_t call;           /* OP_call: index into the function's call table; -1 otherwise */
    int32_t line, column;   /* position of the opcode in the source */
    int32_t src_file, src_line, src_column;   /* the last .loc before it (nvcc -lineinfo, -G; clang -g):
                                                 a .file number and its line; src_file 0: none */
    ptx_operand operand[PTX_MAX_OPERANDS];
} ptx_instr;

/* ---- Registers, symbols, labels, functions, module ------------------------ */

typedef struct {
    char *name;            /* "%r12", "%SP", "temp_param_reg" */
    uint8_t type;          /* ptx_type */
    uint8_t is_pred;
    int32_t index;         /* index in the value-register or predicate file */
    int32_t scope;         /* call-sequence scope it was declared in; 0 = function body */
} ptx_reg;

typedef enum {
    PTX_SYM_VARIABLE,      /* .global/.const/.shared/.local/.param variable */
    PTX_SYM_PARAM,         /* a function's formal parameter */
    PTX_SYM_RETURN,        /* a .func's return parameter */
} ptx_symbol_kind;

typedef struct {
    char *name;
    uint8_t kind;          /* ptx_symbol_kind */
    uint8_t space;         /* ptx_space */
    uint8_t type;          /* element type as declared (.b8 for byte arrays) */
    uint8_t is_extern;     /* .extern (dynamic shared memory when space is shared and size is 0) */
    uint8_t visible;       /* .visible */
    uint8_t is_weak;       /* .weak: a definition other modules' may replace when linked (one per module) */
    uint8_t is_array;      /* declared with [N] or [] */
    uint8_t managed;       /* .global .attribute(.managed): CUDA managed memory */
    uint32_t align;        /* bytes (default: the element size) */
    uint64_t size;         /* bytes; 0 for [] */
    uint8_t *init;         /* initial bytes (size of them) or NULL */
    int32_t function;      /* owning function; -1 at module scope */
    int32_t scope;         /* call-sequence scope; 0 = function body */
    uint64_t offset;       /* layout: byte offset in its space, see ptx_layout */
    int32_t line, column;
} ptx_symbol;

typedef struct {
    char *name;
    int32_t instr;         /* index of the instruction it precedes (instr_count: at the end) */
    int32_t line, column;
} ptx_label;

/* call (rets), func, (args): the symbols named, in order. */
typedef struct {
    int32_t function;      /* callee */
    int32_t ret_first, ret_count;   /* indexes into ptx_function.call_symbols */
    int32_t arg_first, arg_count;
} ptx_call;

/* A declaration or scope brace at a position in the body, so `warpsim dump`
 * can print the function back in its original order. */
typedef enum { PTX_ITEM_SCOPE_OPEN, PTX_ITEM_SCOPE_CLOSE, PTX_ITEM_REG, PTX_ITEM_SYMBOL, PTX_ITEM_PRAGMA,
               PTX_ITEM_FUNCTION } ptx_item_kind;
typedef struct {
    uint8_t kind;          /* ptx_item_kind */
    int32_t instr;         /* printed before this instruction index (0 at module scope) */
    int32_t index;         /* register (ptx_function.regs) / symbol / function index; pragma: index into the module's strings */
    int32_t count;         /* PTX_ITEM_REG: how many consecutive registers from a %r<N> range (1: one named register);
                              PTX_ITEM_FUNCTION: 1 for the definition with its body, 0 for a declaration (prototype) */
} ptx_item;

typedef struct {
    char *name;
    uint8_t is_entry;      /* .entry (a kernel) vs .func */
    uint8_t visible, is_extern, is_weak;
    uint8_t defined;       /* has a body (a prototype does not) */
    int32_t *params;  int32_t param_count;     /* module symbol indexes, in order */
    int32_t *returns; int32_t return_count;
    ptx_reg *regs;    int32_t reg_count;       /* all declared registers (value and predicate) */
    int32_t value_reg_count, pred_reg_count;   /* sizes of the two register files */
    uint8_t *value_reg_type;                   /* ptx_type per value register index */
    ptx_instr *instrs; int32_t instr_count;
    ptx_label *labels; int32_t label_count;
    ptx_call *calls;  int32_t call_count;
    int32_t *call_symbols; int32_t call_symbol_count;
    ptx_item *items;  int32_t item_count;
    /* performance directives, recorded (0 = absent) */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxnctapersm;
    int32_t line, column;
    /* layout (ptx_layout) */
    uint64_t param_size;   /* kernel: parameter buffer bytes; func: formal + return param frame bytes,
                              rounded up to 16 so that the .local frame after it stays aligned */
    uint64_t local_size;   /* this function's own .local bytes and call-scope .param bytes per thread */
} ptx_function;

/* `.file 1 "reduce.cu"`: the source files .loc directives name by number. */
typedef struct {
    int32_t id;
    char *path;
} ptx_source_file;

typedef struct {
    char *path;            /* file name used in messages */
    uint32_t version_major, version_minor;
    char *target;          /* "sm_90" (as written, may hold ", texmode_independent" etc.) */
    uint32_t address_size; /* 32 or 64 */
    ptx_function *functions; int32_t function_count;
    ptx_symbol *symbols;     int32_t symbol_count;
    char **strings;          int32_t string_count;   /* pragma texts (without the quotes) */
    ptx_item *items;         int32_t item_count;     /* module-scope order: symbols, functions, pragmas for dump */
    ptx_source_file *source_files; int32_t source_file_count;   /* the .file table, as written */
} ptx_module;

/* The path a .file number names ("reduce.cu"), or NULL. */
const char *ptx_source_path(const ptx_module *m, int32_t file);

/* ---- Diagnostics ---------------------------------------------------------- */

/* Messages collect here; each prints as "FILE:LINE:COL: error: message". */
typedef struct {
    char **lines;
    int count, capacity;
    int error_count;
} ptx_diag;

void ptx_diag_error(ptx_diag *d, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void ptx_diag_print(const ptx_diag *d, FILE *f);
void ptx_diag_free(ptx_diag *d);

/* ---- API ------------------------------------------------------------------ */

/* Parse PTX text. On success returns a module (ptx_module_free it); on error
 * returns NULL with at least one message in diag. `path` names the source in
 * messages. Never crashes on any input, however malformed. */
ptx_module *ptx_parse(const char *text, size_t length, const char *path, ptx_diag *diag);
/* Read and parse a file (a directory, unreadable or binary file is an error). */
ptx_module *ptx_parse_file(const char *path, ptx_diag *diag);
void ptx_module_free(ptx_module *m);

/* 1 when the two modules are the same program (positions and the path are
 * ignored); otherwise 0 with the first difference described in why. */
int ptx_module_equal(const ptx_module *a, const ptx_module *b, char *why, size_t whylen);

/* The opcode table as aligned text, or as the markdown table in isa/README.md
 * (what `warpsim isa [--markdown]` prints). */
void ptx_print_isa_table(FILE *f, int markdown);

/* Print the module as PTX that parses back to the same module. */
void ptx_print_module(const ptx_module *m, FILE *f);
/* Print one instruction (no indentation, no newline), as in the source. */
void ptx_print_instr(const ptx_module *m, const ptx_function *fn, const ptx_instr *in, FILE *f);

int ptx_find_function(const ptx_module *m, const char *name);  /* index or -1 */

/* Operand slots (isa/module.c). The shape letter of operand k of `in` ('d' 'D'
 * 'q' destinations, 'a' 'b' 'c' 'e' 'p' sources, 'A' an address, 'l' a label;
 * 0 when there is no operand k), and the type a slot letter has in `in`: the
 * instruction type, except cvt's source (type2); shift amounts, bfe/bfi
 * positions and lengths, shfl lane/clamp/membermask, vote membermask, prmt
 * selector and barrier operands (.u32); popc/clz/bfind results (.u32);
 * mul.wide/mad.wide d and mad.wide c (double width); predicates (.pred).
 * For a vector operand it is the type of each element, except in mov, whose
 * vector elements split the instruction type evenly ({%r1, %r2} of a .b64). */
char ptx_operand_letter(const ptx_instr *in, int k);
ptx_type ptx_slot_type(const ptx_instr *in, char letter);

/* Modifier spellings: ".rn" -> (MG_ROUND, PTX_RND_RN). The value's meaning
 * depends on the group (a ptx_space, a vector width, a ptx_cmp, a mode, or
 * unused for flag groups). One spelling may sit in several groups (".and" is
 * a setp combine, an atomic op and a bar.red op): the opcode's groups decide. */
typedef struct { const char *name; uint32_t group; uint8_t value; } ptx_modifier;
extern const ptx_modifier ptx_modifiers[];
extern const size_t ptx_modifier_count;
/* The spelling of the first modifier of `groups` whose value is `value` ("?" if none): what the printer writes. */
const char *ptx_modifier_spelling(uint32_t groups, uint32_t value);

#endif
