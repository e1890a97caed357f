/*
 * The PTX parser's opcodes: a dotted spelling ("ld.global.v4.f32") decoded
 * into the opcode, its types and modifiers, against isa/opcodes.def (the
 * spellings, the types and modifier groups each opcode takes, its R_* rules)
 * and isa/ptx_tables.c (the modifiers' spellings).
 */
#include "isa/parser_internal.h"

/* Modifier groups whose instructions need one of their modes (a comparison: in->cmp, else in->mode). */
static const struct { uint32_t group; const char *what; } required_modes[] = {
    {MG_CMP, "a comparison such as .lt"},
    {MG_SHFL, "a mode (.up .down .bfly .idx)"},
    {MG_VOTE, "a mode (.all .any .uni .ballot)"},
    {MG_ATOM, "an operation such as .add"},
    {MG_BARRED, "an operation (.popc .and .or)"},
    {MG_SHF, "a direction (.l or .r)"},
    {MG_GEOM, "a geometry (.1d or .2d)"},
};

static int is_float(const ptx_instr *in) { return ptx_types[in->type].kind == PTX_KIND_FLOAT; }
static int lacks_int_mulmode(const ptx_instr *in) { return !is_float(in) && !in->mode; }
static int lacks_mode(const ptx_instr *in) { return !in->mode; }
static int lacks_level(const ptx_instr *in) { return !in->scope; }
static int float_mulmode(const ptx_instr *in) { return in->mode && is_float(in); }
static int wide_64(const ptx_instr *in) { return in->mode == PTX_MUL_WIDE && ptx_types[in->type].size == 8; }
static int popc_pred(const ptx_instr *in) { return in->type == PTX_PRED && in->mode == PTX_BARRED_POPC; }
static int andor_u32(const ptx_instr *in) { return in->type == PTX_U32 && in->mode != PTX_BARRED_POPC; }
static int ballot_type(const ptx_instr *in) { return (in->mode == PTX_VOTE_BALLOT) != (in->type == PTX_B32); }
static int tex_not_v4(const ptx_instr *in) { return in->vec != 4; }
static int tex_coords(const ptx_instr *in) { return in->type2 != PTX_S32 && in->type2 != PTX_F32; }
static int redux_op(const ptx_instr *in)
{
    int arith = in->mode == PTX_ATOM_ADD || in->mode == PTX_ATOM_MIN || in->mode == PTX_ATOM_MAX;
    int logic = in->mode == PTX_ATOM_AND || in->mode == PTX_ATOM_OR || in->mode == PTX_ATOM_XOR;
    return !(arith && in->type != PTX_B32) && !(logic && in->type == PTX_B32);
}

/* What the R_* rules of isa/opcodes.def check, in this order: first the modes
 * an instruction cannot do without ("'%s' needs <missing>"), then the
 * combinations it refuses (message, given the instruction's text). */
static const struct {
    uint32_t rule;
    int (*broken)(const ptx_instr *in);
    const char *missing, *message;
} rule_checks[] = {
    {R_INT_MULMODE, lacks_int_mulmode, "a mode (.lo .hi .wide)", NULL},
    {R_HALF_MODE, lacks_mode, "a mode (.lo .hi)", NULL},
    {R_LEVEL, lacks_level, "a level (.cta .gl .sys)", NULL},
    {R_INT_MULMODE, float_mulmode, NULL, "unsupported modifier in '%s': .lo/.hi/.wide are for integers"},
    {R_INT_MULMODE, wide_64, NULL, "'%s': .wide takes a 16- or 32-bit type"},
    {R_BARRED_TYPE, popc_pred, NULL, "'%s': .popc gives a .u32 count"},
    {R_BARRED_TYPE, andor_u32, NULL, "'%s': .and and .or give a .pred"},
    {R_VOTE_TYPE, ballot_type, NULL, "'%s': vote.ballot takes .b32, the others .pred"},
    {R_REDUX_OP, lacks_mode, "an operation (.add .min .max .and .or .xor)", NULL},
    {R_REDUX_OP, redux_op, NULL, "'%s': redux.sync takes .add/.min/.max with .u32/.s32, .and/.or/.xor with .b32"},
    {R_TEX, tex_not_v4, NULL, "'%s': tex returns a .v4 vector"},
    {R_TEX, tex_coords, NULL, "'%s': tex coordinates are .s32 or .f32"},
};

/* Decode the dotted opcode spelling into in->opcode, type, modifiers. */
int ptxp_decode_opcode(parser *P, const ptx_token *t, ptx_instr *in)
{
    char text[256];
    if (t->len >= sizeof text) {
        ptxp_perr(P, t->line, t->column, "unsupported instruction '%.64s...'", t->text);
        return 0;
    }
    memcpy(text, t->text, t->len);
    text[t->len] = 0;
    /* component boundaries */
    int ncomp = 0;
    int starts[64], lens[64];
    {
        int i = 0, n = (int)t->len;
        while (i <= n && ncomp < 64) {
            int j = i;
            while (j < n && text[j] != '.')
                j++;
            starts[ncomp] = i;
            lens[ncomp] = j - i;
            ncomp++;
            i = j + 1;
            if (j >= n)
                break;
        }
        if (i <= n && ncomp >= 64) {
            ptxp_perr(P, t->line, t->column, "unsupported instruction '%.64s'", text);
            return 0;
        }
    }
    int op = -1, used = 0;
    uint32_t rules = 0;
    for (int k = ncomp; k >= 1 && op < 0; k--) {
        size_t plen = (size_t)(starts[k - 1] + lens[k - 1]);
        for (int o = 0; o < OP_COUNT; o++) {
            if (strlen(ptx_opcodes[o].spelling) == plen && memcmp(ptx_opcodes[o].spelling, text, plen) == 0) {
                op = o;
                used = k;
                rules = ptx_opcodes[o].rules;
                break;
            }
        }
        if (op < 0) {
            for (size_t a = 0; a < ptx_opcode_alias_count; a++) {
                if (strlen(ptx_opcode_aliases[a].spelling) == plen &&
                    memcmp(ptx_opcode_aliases[a].spelling, text, plen) == 0) {
                    op = (int)ptx_opcode_aliases[a].op;
                    used = k;
                    rules = (ptx_opcodes[op].rules & ~(uint32_t)R_IMPLIED_SYNC) | ptx_opcode_aliases[a].rules;
                    break;
                }
            }
        }
    }
    if (op < 0) {
        ptxp_perr(P, t->line, t->column, "unsupported instruction '%s'", text);
        return 0;
    }
    const ptx_opcode_info *info = &ptx_opcodes[op];
    in->opcode = (uint16_t)op;
    in->vec = 1;
    if (rules & R_IMPLIED_SYNC)
        in->flags |= PTX_FLAG_SYNC;
    int ok = 1;
    int seen_space = 0, seen_vec = 0, seen_cmp = 0, seen_bool = 0, seen_mode = 0, seen_rnd = 0;
    int seen_sem = 0, seen_scope = 0, seen_cop = 0, seen_wrap = 0;
    for (int c = used; c < ncomp; c++) {
        const char *mod = text + starts[c];
        size_t ml = (size_t)lens[c];
        if (ml == 0) {
            ptxp_perr(P, t->line, t->column, "unsupported instruction '%s' (empty modifier)", text);
            return 0;
        }
        ptx_type ty = ptx_type_from_name(mod, ml);
        if (ty != PTX_TYPE_NONE) {
            if (in->type == PTX_TYPE_NONE && info->types) {
                in->type = (uint8_t)ty;
                continue;
            }
            if (in->type != PTX_TYPE_NONE && in->type2 == PTX_TYPE_NONE && (info->groups & MG_TYPE2)) {
                in->type2 = (uint8_t)ty;
                continue;
            }
            ptxp_perr(P, t->line, t->column, "unsupported modifier '.%.*s' in '%s'", (int)ml, mod, text);
            ok = 0;
            continue;
        }
        const ptx_modifier *md = NULL;
        for (size_t i = 0; i < ptx_modifier_count; i++) {
            if ((ptx_modifiers[i].group & info->groups) && strlen(ptx_modifiers[i].name) == ml &&
                memcmp(ptx_modifiers[i].name, mod, ml) == 0) {
                md = &ptx_modifiers[i];
                break;
            }
        }
        if (!md) {
            ptxp_perr(P, t->line, t->column, "unsupported modifier '.%.*s' in '%s'", (int)ml, mod, text);
            ok = 0;
            continue;
        }
        int dup = 0;
        switch (md->group) {
        case MG_SPACE:
            dup = seen_space++;
            in->space = md->value;
            break;
        case MG_VEC:
            dup = seen_vec++;
            in->vec = md->value;
            break;
        case MG_CACHE:
        case MG_ORDER:
            if (md->value == PTX_QUAL_VOLATILE)
                in->flags |= PTX_FLAG_VOLATILE;
            else if (md->value == PTX_QUAL_NC)
                in->flags |= PTX_FLAG_NC;
            else if (md->value & PTX_QUAL_SEM) {
                dup = seen_sem++;
                in->sem = md->value & 0x0f;
            } else if (md->value & PTX_QUAL_SCOPE) {
                dup = seen_scope++;
                in->scope = md->value & 0x0f;
            } else if (md->value & PTX_QUAL_COP) {
                dup = seen_cop++;
                in->cache_op = md->value & 0x0f;
            }
            break;
        case MG_TO: in->flags |= PTX_FLAG_TO; break;
        case MG_ROUND:
            dup = seen_rnd++;
            in->rounding = md->value;
            break;
        case MG_FTZ: in->flags |= PTX_FLAG_FTZ; break;
        case MG_SAT: in->flags |= PTX_FLAG_SAT; break;
        case MG_CC: in->flags |= PTX_FLAG_CC; break;
        case MG_APPROX: in->flags |= PTX_FLAG_APPROX; break;
        case MG_FULL: in->flags |= PTX_FLAG_FULL; break;
        case MG_NAN: in->flags |= PTX_FLAG_NAN; break;
        case MG_UNI: in->flags |= PTX_FLAG_UNI; break;
        case MG_SYNC: in->flags |= PTX_FLAG_SYNC; break;
        case MG_SHIFTAMT: in->flags |= PTX_FLAG_SHIFTAMT; break;
        case MG_CMP:
            dup = seen_cmp++;
            in->cmp = md->value;
            break;
        case MG_BOOLOP:
            dup = seen_bool++;
            in->boolop = md->value;
            break;
        case MG_SHF:
            if (md->value) {
                dup = seen_mode++;
                in->mode = md->value;
            } else {
                dup = seen_wrap++;
                if (ml == 5 && memcmp(mod, "clamp", 5) == 0)
                    in->flags |= PTX_FLAG_CLAMP;
            }
            break;
        default: /* MULMODE BARRED VOTE SHFL ATOM PRMT GEOM */
            dup = seen_mode++;
            in->mode = md->value;
            break;
        }
        if (dup) {
            ptxp_perr(P, t->line, t->column, "conflicting modifier '.%.*s' in '%s'", (int)ml, mod, text);
            ok = 0;
        }
    }
    if (!ok)
        return 0;
    const char *name = info->spelling;
    if (info->types) {
        if (in->type == PTX_TYPE_NONE) {
            ptxp_perr(P, t->line, t->column, "missing type in '%s' (%s takes a type such as .%s)", text, name,
                      (info->types & TY_BIT(PTX_S32)) ? "s32" : (info->types & TY_BIT(PTX_B32)) ? "b32"
                      : (info->types & TY_BIT(PTX_F32)) ? "f32" : (info->types & TY_BIT(PTX_U32)) ? "u32" : "pred");
            return 0;
        }
        if (!(info->types & TY_BIT(in->type))) {
            ptxp_perr(P, t->line, t->column, "unsupported type '.%s' in '%s'", ptx_types[in->type].name, text);
            return 0;
        }
        if ((info->groups & MG_TYPE2) && in->type2 == PTX_TYPE_NONE) {
            ptxp_perr(P, t->line, t->column, "missing source type in '%s' (e.g. cvt.f32.s32)", text);
            return 0;
        }
        if (in->type2 != PTX_TYPE_NONE && (in->type2 == PTX_PRED || !(info->types & TY_BIT(in->type2)))) {
            ptxp_perr(P, t->line, t->column, "unsupported type '.%s' in '%s'", ptx_types[in->type2].name, text);
            return 0;
        }
    }
    /* modes some modifier groups and opcodes cannot do without */
    const char *missing = NULL;
    for (size_t i = 0; i < sizeof required_modes / sizeof required_modes[0] && !missing; i++)
        if ((info->groups & required_modes[i].group) && !(required_modes[i].group == MG_CMP ? in->cmp : in->mode))
            missing = required_modes[i].what;
    for (size_t i = 0; i < sizeof rule_checks / sizeof rule_checks[0] && !missing; i++)
        if ((rules & rule_checks[i].rule) && rule_checks[i].missing && rule_checks[i].broken(in))
            missing = rule_checks[i].missing;
    if (missing) {
        ptxp_perr(P, t->line, t->column, "'%s' needs %s", text, missing);
        return 0;
    }
    for (size_t i = 0; i < sizeof rule_checks / sizeof rule_checks[0]; i++)
        if ((rules & rule_checks[i].rule) && !rule_checks[i].missing && rule_checks[i].broken(in)) {
            ptxp_perr(P, t->line, t->column, rule_checks[i].message, text);
            return 0;
        }
    if (in->vec > 1 && (ptx_types[in->type].size * in->vec > 16)) {
        ptxp_perr(P, t->line, t->column, "'%s': a vector access is at most 16 bytes", text);
        return 0;
    }
    return 1;
}
