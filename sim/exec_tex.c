/*
 * PTX tex: a texture fetch through a texture object, tex.{1d,2d}.v4.dtype.ctype
 * d, [t, {coordinates}], what nvcc makes of tex1Dfetch, tex1D and tex2D. The
 * object is the ws_texture_desc warpsim's runtime built (cuda/runtime/textures.c);
 * addressing and filtering are cuda/include/warpsim_texture.h's, the arithmetic
 * clang's path runs as device code, so that both builds fetch the same bits.
 * Each texel tap of the warp (1 for point sampling, 2 or 4 for linear
 * filtering) counts as one global load, as clang's path loads the texels.
 */
#include <inttypes.h>
#include <string.h>

#include "cuda/include/warpsim_texture.h"
#include "sim/exec_alu.h"
#include "sim/exec_mem_lanes.h"
#include "sim/fault.h"
#include "sim/memory.h"

/* One lane's fetch: its texture, the texels it reads, their bytes (zero outside). */
typedef struct {
    const ws_texture_desc *desc;
    ws_tex_footprint at;
    uint8_t texel[4][16];
} lane_fetch;

/* The descriptor a handle names, or NULL when it is not a texture object. */
static const ws_texture_desc *texture_of(ws_exec *x, uint64_t handle)
{
    const ws_allocation *a = ws_global_find(x->launch->global, handle, sizeof(ws_texture_desc));
    if (!a || !a->texture || a->base != handle)
        return NULL;
    const ws_texture_desc *d = (const ws_texture_desc *)(const void *)a->bytes;
    return d->texel_bytes && d->texel_bytes <= 16 && d->channel_bytes ? d : NULL;
}

/* Integer coordinates: tex1Dfetch's texel index (outside reads zero), or a 2D texel through the address modes. */
static void texel_footprint(const ws_texture_desc *d, int two_d, int32_t i, int32_t j, ws_tex_footprint *f)
{
    memset(f, 0, sizeof *f);
    f->taps = 1;
    if (!two_d) {
        f->x[0] = i >= 0 && (uint32_t)i < d->width ? i : -1;
        return;
    }
    f->x[0] = ws_tex_address(i, (int)d->width, d->address_mode[0]);
    f->y[0] = ws_tex_address(j, (int)d->height, d->address_mode[1]);
}

/* Channel k of a texel as the float a .f32 fetch reads. */
static float channel_float(const ws_texture_desc *d, const uint8_t *texel, unsigned k)
{
    uint32_t bits = 0;
    if (k >= d->channels)
        return 0.0f;
    memcpy(&bits, texel + k * d->channel_bytes, d->channel_bytes < 4 ? d->channel_bytes : 4);
    if (d->read_mode == WS_TEX_NORMALIZED_FLOAT)
        return ws_tex_unorm(bits, d->channel_bytes, d->channel_signed);
    return ptx_bits_f32(bits);
}

/* Channel k of a texel as a .s32/.u32 fetch reads it: extended as the channel's format says. */
static uint32_t channel_int(const ws_texture_desc *d, const uint8_t *texel, unsigned k)
{
    uint32_t bits = 0;
    unsigned n = d->channel_bytes < 4 ? d->channel_bytes : 4;
    if (k >= d->channels)
        return 0;
    memcpy(&bits, texel + k * d->channel_bytes, n);
    if (d->channel_signed && n < 4 && (bits >> (8 * n - 1) & 1u))
        bits |= ~0u << (8 * n);
    return bits;
}

/* Read tap t of every lane that has one inside the texture; 0 after a fault. */
static int read_tap(ws_exec *x, const ptx_instr *in, uint32_t mask, lane_fetch *lf, int t)
{
    uint64_t addr[WS_WARP_SIZE] = {0};
    uint32_t reading = 0;
    unsigned bytes = 0;
    WS_FOR_LANES(mask, lane) {
        const ws_texture_desc *d = lf[lane].desc;
        int tx = lf[lane].at.x[t & 1], ty = lf[lane].at.y[t >> 1];
        memset(lf[lane].texel[t], 0, sizeof lf[lane].texel[t]);
        if (t >= lf[lane].at.taps || tx < 0 || ty < 0)
            continue;
        ptx_space space = PTX_SPACE_GLOBAL;
        uint64_t a = d->data + (uint64_t)ty * d->pitch + (uint64_t)tx * d->texel_bytes;
        addr[lane] = a;
        const uint8_t *p = ws_memory_access(x, in, lane, &space, &a, d->texel_bytes, 0);
        if (!p)
            return 0;
        memcpy(lf[lane].texel[t], p, d->texel_bytes);
        reading |= 1u << lane;
        bytes = d->texel_bytes;
    }
    if (reading)
        ws_count_global_load(x, addr, reading, bytes);
    return 1;
}

void exec_tex(ws_exec *x, const ptx_instr *in, uint32_t mask)
{
    uint64_t th[WS_WARP_SIZE];
    const uint64_t *handle = ws_src(x, &in->operand[1], th);
    const ptx_operand *c = &in->operand[2];
    const uint64_t *cx = ws_row(x, c->regs[0]), *cy = c->count > 1 ? ws_row(x, c->regs[1]) : NULL;
    int two_d = in->mode == PTX_TEX_2D, int_coords = in->type2 == PTX_S32;
    lane_fetch lf[WS_WARP_SIZE];
    const ws_texture_desc *d = NULL;
    uint64_t last = 0;
    WS_FOR_LANES(mask, lane) {
        if (!d || handle[lane] != last)   /* the lanes of a warp mostly share one texture */
            d = texture_of(x, last = handle[lane]);
        if (!d) {
            ws_fault_of(x, in, lane, WS_FAULT_ADDRESS, "tex of 0x%" PRIx64 ", which is not a texture object "
                        "(cudaCreateTextureObject makes them)", handle[lane]);
            return;
        }
        lf[lane].desc = d;
        if (int_coords)
            texel_footprint(d, two_d, (int32_t)cx[lane], cy ? (int32_t)cy[lane] : 0, &lf[lane].at);
        else   /* a 1D fetch samples the middle of its one row, as tex1D does */
            ws_tex_footprint_of(d, ptx_bits_f32((uint32_t)cx[lane]), cy ? ptx_bits_f32((uint32_t)cy[lane]) : 0.5f,
                                &lf[lane].at);
    }
    for (int t = 0; t < 4; t++)
        if (!read_tap(x, in, mask, lf, t))
            return;
    const ptx_operand *dst = &in->operand[0];
    for (unsigned k = 0; k < 4; k++) {
        if (dst->regs[k] < 0)
            continue;   /* a sink */
        uint64_t *r = ws_row(x, dst->regs[k]);
        WS_FOR_LANES(mask, lane) {
            const lane_fetch *f = &lf[lane];
            if (in->type != PTX_F32) {
                r[lane] = channel_int(f->desc, f->texel[0], k);
                continue;
            }
            float taps[4];
            for (int t = 0; t < 4; t++)
                taps[t] = channel_float(f->desc, f->texel[t], k);
            float v = ws_tex_filter(&f->at, taps);
            /* a filtered NaN (NaN coordinates) is the GPU's canonical one, as clang's build's add.rn makes it;
             * a texel read unfiltered keeps its bits */
            r[lane] = f->at.taps > 1 ? alu_f32_out(v, false, false) : ptx_f32_bits(v);
        }
    }
}
