/* Which GPUs have an instruction (sim/targets.def holds the data and its sources). */
#include "sim/targets.h"

#include <stdio.h>

enum { ANY_SPACE = 0xff, WS_ROUNDED = 1u << 16 };   /* WS_ROUNDED: beyond ptx_instr.flags' 16 bits */

typedef struct {
    ptx_opcode op;
    uint8_t space;
    uint32_t types, modes, flags;
    unsigned sm;
    const char *name, *source;
} target_row;

static const target_row rows[] = {
#define TARGET(op, space, types, modes, flags, sm, name, source) {OP_##op, space, types, modes, flags, sm, name, source},
#include "sim/targets.def"
#undef TARGET
};

/* The family that brought a compute capability's major version, as NVIDIA names it. */
static const char *const families[] = {
    [1] = "Tesla", [2] = "Fermi", [3] = "Kepler", [5] = "Maxwell", [6] = "Pascal",
    [7] = "Volta", [8] = "Ampere", [9] = "Hopper", [10] = "Blackwell",
};

static int matches(const target_row *r, const ptx_instr *in)
{
    uint32_t flags = in->flags | (in->rounding != PTX_RND_NONE ? (uint32_t)WS_ROUNDED : 0);
    if (r->op != in->opcode)
        return 0;
    if (r->space != ANY_SPACE && r->space != in->space)
        return 0;
    if (r->types && !(r->types & TY_BIT(in->type)) && !(in->type2 != PTX_TYPE_NONE && (r->types & TY_BIT(in->type2))))
        return 0;
    if (r->modes && !(r->modes & (1u << in->mode)))
        return 0;
    return (flags & r->flags) == r->flags;
}

int ws_target_check(const ws_arch *arch, const ptx_instr *in, char *msg, size_t msglen)
{
    unsigned have = ws_arch_sm_version(arch);
    const target_row *worst = NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].sm > have && matches(&rows[i], in) && (!worst || rows[i].sm > worst->sm))
            worst = &rows[i];
    if (!worst)
        return 0;
    unsigned major = worst->sm / 10;
    const char *family = major < sizeof families / sizeof families[0] && families[major] ? families[major] : "?";
    snprintf(msg, msglen, "%s needs sm_%u or later (%s); the %s preset is sm_%u", worst->name, worst->sm, family,
             arch->name, have);
    return -1;
}
