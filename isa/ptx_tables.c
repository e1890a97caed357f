/* The PTX subset's fixed tables: types, spaces, special registers, modifiers, opcodes. */
#include "isa/ptx.h"

#include <string.h>

const ptx_type_info ptx_types[PTX_TYPE_COUNT] = {
    [PTX_TYPE_NONE] = {"", 0, PTX_KIND_BITS},
    [PTX_B8] = {"b8", 1, PTX_KIND_BITS},   [PTX_B16] = {"b16", 2, PTX_KIND_BITS},
    [PTX_B32] = {"b32", 4, PTX_KIND_BITS}, [PTX_B64] = {"b64", 8, PTX_KIND_BITS},
    [PTX_U8] = {"u8", 1, PTX_KIND_UNSIGNED},   [PTX_U16] = {"u16", 2, PTX_KIND_UNSIGNED},
    [PTX_U32] = {"u32", 4, PTX_KIND_UNSIGNED}, [PTX_U64] = {"u64", 8, PTX_KIND_UNSIGNED},
    [PTX_S8] = {"s8", 1, PTX_KIND_SIGNED},   [PTX_S16] = {"s16", 2, PTX_KIND_SIGNED},
    [PTX_S32] = {"s32", 4, PTX_KIND_SIGNED}, [PTX_S64] = {"s64", 8, PTX_KIND_SIGNED},
    [PTX_F16] = {"f16", 2, PTX_KIND_FLOAT},  [PTX_F32] = {"f32", 4, PTX_KIND_FLOAT},
    [PTX_F64] = {"f64", 8, PTX_KIND_FLOAT},
    [PTX_PRED] = {"pred", 0, PTX_KIND_PRED},
};

ptx_type ptx_type_from_name(const char *name, size_t len)
{
    for (int t = 1; t < PTX_TYPE_COUNT; t++)
        if (strlen(ptx_types[t].name) == len && memcmp(ptx_types[t].name, name, len) == 0)
            return (ptx_type)t;
    return PTX_TYPE_NONE;
}

const char *const ptx_space_names[PTX_SPACE_COUNT] = {
    [PTX_SPACE_GENERIC] = "", [PTX_SPACE_GLOBAL] = "global", [PTX_SPACE_SHARED] = "shared",
    [PTX_SPACE_LOCAL] = "local", [PTX_SPACE_PARAM] = "param", [PTX_SPACE_CONST] = "const",
    [PTX_SPACE_REG] = "reg",
};

const char *const ptx_sreg_names[PTX_SREG_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%clock", "%clock64",
    "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge",
};

const char *const ptx_class_files[PTX_CLASS_COUNT] = {
    "sim/exec_alu.c", "sim/exec_alu_int.c", "sim/exec_alu_float.c", "sim/exec_alu_bits.c", "sim/exec_alu_cvt.c",
    "sim/exec_mem.c", "sim/exec_tex.c", "sim/exec_ctrl.c", "sim/exec_sync.c",
};

const ptx_opcode_info ptx_opcodes[OP_COUNT] = {
#define OP(id, spelling, cls, shape, types, groups, rules, semantics) \
    [OP_##id] = {spelling, PTX_CLASS_##cls, shape, types, groups, rules, semantics},
#define ALIAS(spelling, id, rules)
#include "isa/opcodes.def"
#undef OP
#undef ALIAS
};

const ptx_opcode_alias ptx_opcode_aliases[] = {
#define OP(id, spelling, cls, shape, types, groups, rules, semantics)
#define ALIAS(spelling, id, rules) {spelling, OP_##id, rules},
#include "isa/opcodes.def"
#undef OP
#undef ALIAS
};
const size_t ptx_opcode_alias_count = sizeof ptx_opcode_aliases / sizeof ptx_opcode_aliases[0];

const ptx_modifier ptx_modifiers[] = {
    {"global", MG_SPACE, PTX_SPACE_GLOBAL}, {"shared", MG_SPACE, PTX_SPACE_SHARED},
    {"shared::cta", MG_SPACE, PTX_SPACE_SHARED}, {"local", MG_SPACE, PTX_SPACE_LOCAL},
    {"param", MG_SPACE, PTX_SPACE_PARAM}, {"const", MG_SPACE, PTX_SPACE_CONST},
    {"v2", MG_VEC, 2}, {"v4", MG_VEC, 4},
    {"volatile", MG_CACHE, PTX_QUAL_VOLATILE}, {"nc", MG_CACHE, PTX_QUAL_NC},
    {"relaxed", MG_CACHE, PTX_QUAL_SEM | PTX_SEM_RELAXED}, {"weak", MG_CACHE, PTX_QUAL_SEM | PTX_SEM_WEAK},
    {"acquire", MG_CACHE, PTX_QUAL_SEM | PTX_SEM_ACQUIRE}, {"release", MG_CACHE, PTX_QUAL_SEM | PTX_SEM_RELEASE},
    {"ca", MG_CACHE, PTX_QUAL_COP | PTX_COP_CA}, {"cg", MG_CACHE, PTX_QUAL_COP | PTX_COP_CG},
    {"cs", MG_CACHE, PTX_QUAL_COP | PTX_COP_CS}, {"lu", MG_CACHE, PTX_QUAL_COP | PTX_COP_LU},
    {"cv", MG_CACHE, PTX_QUAL_COP | PTX_COP_CV}, {"wb", MG_CACHE, PTX_QUAL_COP | PTX_COP_WB},
    {"wt", MG_CACHE, PTX_QUAL_COP | PTX_COP_WT},
    {"cta", MG_CACHE, PTX_QUAL_SCOPE | PTX_SCOPE_CTA}, {"gpu", MG_CACHE, PTX_QUAL_SCOPE | PTX_SCOPE_GPU},
    {"sys", MG_CACHE, PTX_QUAL_SCOPE | PTX_SCOPE_SYS},
    {"to", MG_TO, 1},
    {"rn", MG_ROUND, PTX_RND_RN}, {"rz", MG_ROUND, PTX_RND_RZ}, {"rm", MG_ROUND, PTX_RND_RM},
    {"rp", MG_ROUND, PTX_RND_RP}, {"rni", MG_ROUND, PTX_RND_RNI}, {"rzi", MG_ROUND, PTX_RND_RZI},
    {"rmi", MG_ROUND, PTX_RND_RMI}, {"rpi", MG_ROUND, PTX_RND_RPI},
    {"ftz", MG_FTZ, 1}, {"sat", MG_SAT, 1}, {"cc", MG_CC, 1},
    {"lo", MG_MULMODE, PTX_MUL_LO}, {"hi", MG_MULMODE, PTX_MUL_HI}, {"wide", MG_MULMODE, PTX_MUL_WIDE},
    {"approx", MG_APPROX, 1}, {"full", MG_FULL, 1}, {"NaN", MG_NAN, 1},
    {"eq", MG_CMP, PTX_CMP_EQ}, {"ne", MG_CMP, PTX_CMP_NE}, {"lt", MG_CMP, PTX_CMP_LT},
    {"le", MG_CMP, PTX_CMP_LE}, {"gt", MG_CMP, PTX_CMP_GT}, {"ge", MG_CMP, PTX_CMP_GE},
    {"lo", MG_CMP, PTX_CMP_LO}, {"ls", MG_CMP, PTX_CMP_LS}, {"hi", MG_CMP, PTX_CMP_HI},
    {"hs", MG_CMP, PTX_CMP_HS}, {"equ", MG_CMP, PTX_CMP_EQU}, {"neu", MG_CMP, PTX_CMP_NEU},
    {"ltu", MG_CMP, PTX_CMP_LTU}, {"leu", MG_CMP, PTX_CMP_LEU}, {"gtu", MG_CMP, PTX_CMP_GTU},
    {"geu", MG_CMP, PTX_CMP_GEU}, {"num", MG_CMP, PTX_CMP_NUM}, {"nan", MG_CMP, PTX_CMP_NAN},
    {"and", MG_BOOLOP, PTX_BOOL_AND}, {"or", MG_BOOLOP, PTX_BOOL_OR}, {"xor", MG_BOOLOP, PTX_BOOL_XOR},
    {"uni", MG_UNI, 1},
    {"sync", MG_SYNC, 1}, {"aligned", MG_SYNC, 0},
    {"popc", MG_BARRED, PTX_BARRED_POPC}, {"and", MG_BARRED, PTX_BARRED_AND}, {"or", MG_BARRED, PTX_BARRED_OR},
    {"all", MG_VOTE, PTX_VOTE_ALL}, {"any", MG_VOTE, PTX_VOTE_ANY}, {"uni", MG_VOTE, PTX_VOTE_UNI},
    {"ballot", MG_VOTE, PTX_VOTE_BALLOT},
    {"up", MG_SHFL, PTX_SHFL_UP}, {"down", MG_SHFL, PTX_SHFL_DOWN}, {"bfly", MG_SHFL, PTX_SHFL_BFLY},
    {"idx", MG_SHFL, PTX_SHFL_IDX},
    {"add", MG_ATOM, PTX_ATOM_ADD}, {"min", MG_ATOM, PTX_ATOM_MIN}, {"max", MG_ATOM, PTX_ATOM_MAX},
    {"inc", MG_ATOM, PTX_ATOM_INC}, {"dec", MG_ATOM, PTX_ATOM_DEC}, {"exch", MG_ATOM, PTX_ATOM_EXCH},
    {"cas", MG_ATOM, PTX_ATOM_CAS}, {"and", MG_ATOM, PTX_ATOM_AND}, {"or", MG_ATOM, PTX_ATOM_OR},
    {"xor", MG_ATOM, PTX_ATOM_XOR},
    {"sc", MG_ORDER, PTX_QUAL_SEM | PTX_SEM_SC}, {"acq_rel", MG_ORDER, PTX_QUAL_SEM | PTX_SEM_ACQ_REL},
    {"relaxed", MG_ORDER, PTX_QUAL_SEM | PTX_SEM_RELAXED}, {"acquire", MG_ORDER, PTX_QUAL_SEM | PTX_SEM_ACQUIRE},
    {"release", MG_ORDER, PTX_QUAL_SEM | PTX_SEM_RELEASE}, {"cta", MG_ORDER, PTX_QUAL_SCOPE | PTX_SCOPE_CTA},
    {"gpu", MG_ORDER, PTX_QUAL_SCOPE | PTX_SCOPE_GPU}, {"sys", MG_ORDER, PTX_QUAL_SCOPE | PTX_SCOPE_SYS},
    {"gl", MG_ORDER, PTX_QUAL_SCOPE | PTX_SCOPE_GL}, {"cluster", MG_ORDER, PTX_QUAL_SCOPE | PTX_SCOPE_CLUSTER},
    {"f4e", MG_PRMT, PTX_PRMT_F4E}, {"b4e", MG_PRMT, PTX_PRMT_B4E}, {"rc8", MG_PRMT, PTX_PRMT_RC8},
    {"ecl", MG_PRMT, PTX_PRMT_ECL}, {"ecr", MG_PRMT, PTX_PRMT_ECR}, {"rc16", MG_PRMT, PTX_PRMT_RC16},
    {"shiftamt", MG_SHIFTAMT, 1},
    {"1d", MG_GEOM, PTX_TEX_1D}, {"2d", MG_GEOM, PTX_TEX_2D},
    {"l", MG_SHF, PTX_SHF_L}, {"r", MG_SHF, PTX_SHF_R}, {"wrap", MG_SHF, 0}, {"clamp", MG_SHF, 0},
};
const size_t ptx_modifier_count = sizeof ptx_modifiers / sizeof ptx_modifiers[0];

const char *ptx_modifier_spelling(uint32_t groups, uint32_t value)
{
    for (size_t i = 0; i < ptx_modifier_count; i++)
        if ((ptx_modifiers[i].group & groups) && ptx_modifiers[i].value == value)
            return ptx_modifiers[i].name;
    return "?";
}
