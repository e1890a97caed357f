/*
 * What a texture object is in warpsim, and the arithmetic of a texture fetch,
 * written once for both ways a fetch runs: as device code clang compiles
 * (warpsim_device.h's tex1Dfetch, tex1D, tex2D) and as the PTX tex
 * instruction nvcc writes, which the simulator executes (sim/exec_tex.c).
 * Both paths thus compute the same bits. Plain C that clang also compiles as
 * CUDA device code; included by cuda_runtime_api.h.
 *
 * The rules are the CUDA guide's "Texture Fetching" appendix: addressing
 * (wrap, clamp, mirror, border), point sampling at floor(x), and linear
 * filtering between the texel centres with weights of 8 fractional bits, as
 * the hardware's 9-bit fixed point keeps them.
 */
#ifndef WARPSIM_TEXTURE_H
#define WARPSIM_TEXTURE_H

/* What a texture object points to in device memory (cudaCreateTextureObject
 * builds it in cuda/runtime/textures.c). */
typedef struct {
    unsigned long long data;     /* device address of texel (0, 0) */
    unsigned long long pitch;    /* bytes from one row to the next */
    unsigned int width, height;  /* in texels (height 1 for 1D) */
    unsigned int texel_bytes;    /* channels x channel bytes */
    unsigned int address_mode[2], filter, normalized, read_mode;
    float border[4];
    unsigned int channels, channel_bytes, channel_signed;   /* for cudaReadModeNormalizedFloat */
} ws_texture_desc;

/* The values of cudaTextureAddressMode, cudaTextureFilterMode and cudaTextureReadMode (cuda_runtime_api.h). */
enum { WS_TEX_WRAP = 0, WS_TEX_CLAMP = 1, WS_TEX_MIRROR = 2, WS_TEX_BORDER = 3 };
enum { WS_TEX_POINT = 0, WS_TEX_LINEAR = 1 };
enum { WS_TEX_ELEMENT_TYPE = 0, WS_TEX_NORMALIZED_FLOAT = 1 };

#if defined(__CUDA__)
#define WS_TEX_FN static __attribute__((device)) __inline__ __attribute__((always_inline, nodebug))
#else
#define WS_TEX_FN static inline
#endif
/* Each multiplication and addition rounds on its own: clang's CUDA default
 * (-ffp-contract=fast, which no pragma overrides, and which its NVPTX passes
 * apply to __nvvm_mul_rn_f too) would fuse a*b+c into one fma in the device
 * code, where the simulator's C rounds twice. Written as PTX, nothing fuses. */
WS_TEX_FN float ws_tex_mul(float a, float b)
{
#if defined(__CUDA__)
    float r;
    asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return a * b;
#endif
}
WS_TEX_FN float ws_tex_add(float a, float b)
{
#if defined(__CUDA__)
    float r;
    asm("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return a + b;
#endif
}

/* Texel indices stay within +-2^30, so that a neighbour (+1) and the wrap stay in an int. */
#define WS_TEX_INDEX_LIMIT 1073741824.0f

/* floor(f) as a texel index (NaN: 0). */
WS_TEX_FN int ws_tex_floor(float f)
{
    float fl = __builtin_floorf(f);
    return fl >= WS_TEX_INDEX_LIMIT ? (int)WS_TEX_INDEX_LIMIT : fl <= -WS_TEX_INDEX_LIMIT ? -(int)WS_TEX_INDEX_LIMIT
         : fl == fl ? (int)fl : 0;
}

/* The texel index an address mode makes of i (n texels); -1: outside (border). */
WS_TEX_FN int ws_tex_address(int i, int n, unsigned mode)
{
    if (i >= 0 && i < n)
        return i;
    if (n <= 0)
        return -1;
    switch (mode) {
    case WS_TEX_WRAP: { int r = i % n; return r < 0 ? r + n : r; }
    case WS_TEX_MIRROR: { int p = i % (2 * n); if (p < 0) p += 2 * n; return p < n ? p : 2 * n - 1 - p; }
    case WS_TEX_BORDER: return -1;
    default: return i < 0 ? 0 : n - 1;
    }
}

/* A coordinate in texels: normalized ones are scaled by the size. */
WS_TEX_FN float ws_tex_texels(float x, unsigned n, unsigned normalized)
{
    return normalized ? ws_tex_mul(x, (float)n) : x;
}

/* Linear filtering along one axis: the first of the two texels around x, and the second's weight in *w. */
WS_TEX_FN int ws_tex_linear(float x, float *w)
{
    float xb = ws_tex_add(x, -0.5f);
    *w = __builtin_rintf(ws_tex_mul(ws_tex_add(xb, -__builtin_floorf(xb)), 256.0f)) / 256.0f;
    return ws_tex_floor(xb);
}

WS_TEX_FN float ws_tex_lerp(float a, float b, float w)
{
    return ws_tex_add(ws_tex_mul(ws_tex_add(1.0f, -w), a), ws_tex_mul(w, b));
}

/* cudaReadModeNormalizedFloat: an 8- or 16-bit channel's bits as a float,
 * unsigned ones in [0, 1] (v / (2^n - 1)), signed ones in [-1, 1]. */
WS_TEX_FN float ws_tex_unorm(unsigned bits, unsigned bytes, unsigned is_signed)
{
    if (bytes == 1)
        return is_signed ? __builtin_fmaxf((float)(signed char)(bits & 0xffu) / 127.0f, -1.0f)
                         : (float)(bits & 0xffu) / 255.0f;
    return is_signed ? __builtin_fmaxf((float)(short)(bits & 0xffffu) / 32767.0f, -1.0f)
                     : (float)(bits & 0xffffu) / 65535.0f;
}

/* The texels a fetch at (x, y) reads and how it weighs them: taps 1 (point),
 * 2 (linear, one row) or 4 (linear: (x0,y0) (x1,y0) (x0,y1) (x1,y1)); an
 * index of -1 is outside (border: reads zero). */
typedef struct {
    int x[2], y[2];
    float a, b;   /* the weights of x[1] and y[1] */
    int taps;
} ws_tex_footprint;

WS_TEX_FN void ws_tex_footprint_of(const ws_texture_desc *d, float x, float y, ws_tex_footprint *f)
{
    int w = (int)d->width, h = (int)d->height;
    x = ws_tex_texels(x, d->width, d->normalized);
    y = ws_tex_texels(y, d->height, d->normalized);
    if (d->filter != WS_TEX_LINEAR) {
        f->taps = 1;
        f->x[0] = f->x[1] = ws_tex_address(ws_tex_floor(x), w, d->address_mode[0]);
        f->y[0] = f->y[1] = ws_tex_address(ws_tex_floor(y), h, d->address_mode[1]);
        f->a = f->b = 0.0f;
        return;
    }
    int i = ws_tex_linear(x, &f->a), j = ws_tex_linear(y, &f->b);
    f->x[0] = ws_tex_address(i, w, d->address_mode[0]);
    f->x[1] = ws_tex_address(i + 1, w, d->address_mode[0]);
    if (h == 1) {   /* one row: the filter is along x only */
        f->taps = 2;
        f->y[0] = f->y[1] = ws_tex_address(0, 1, d->address_mode[1]);
        f->b = 0.0f;
        return;
    }
    f->taps = 4;
    f->y[0] = ws_tex_address(j, h, d->address_mode[1]);
    f->y[1] = ws_tex_address(j + 1, h, d->address_mode[1]);
}

/* One channel of a filtered fetch from its taps' values (t[k] for tap k). */
WS_TEX_FN float ws_tex_filter(const ws_tex_footprint *f, const float *t)
{
    if (f->taps == 1)
        return t[0];
    if (f->taps == 2)
        return ws_tex_lerp(t[0], t[1], f->a);
    return ws_tex_lerp(ws_tex_lerp(t[0], t[1], f->a), ws_tex_lerp(t[2], t[3], f->a), f->b);
}

#endif
