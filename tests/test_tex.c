/*
 * The PTX tex instruction (sim/exec_tex.c) on texture objects built here by
 * hand, as cudaCreateTextureObject builds them: every address mode with point
 * and linear filtering, normalized coordinates, 1D and 2D, integer channels
 * sign- or zero-extended, normalized-float channels, each lane's four results
 * against a C reference written from the CUDA guide's "Texture Fetching"
 * appendix; each texel tap counted as one global load; a handle that is no
 * texture object an error naming the PTX line. (tests/cuda_programs.sh runs
 * nvcc's PTX of whole texture programs through the CUDA runtime.)
 */
#include <math.h>

#include "cuda/include/warpsim_texture.h"
#include "tests/sim_run.h"

/* out[tid] = the four channels of tex.GEOM at at[tid] (two floats, or two ints); line 13 is the tex. */
static void kernel(char *out, size_t len, const char *tex)
{
    snprintf(out, len, HEADER
             ".visible .entry k(.param .u64 tex, .param .u64 at, .param .u64 out)\n"   /* 4 */
             "{\n"                                                                   /* 5 */
             "  .reg .b32 %%r<8>; .reg .f32 %%f<8>; .reg .b64 %%rd<8>;\n"               /* 6 */
             "  ld.param.u64 %%rd1, [tex];\n"                                          /* 7 */
             "  ld.param.u64 %%rd2, [at];\n"                                           /* 8 */
             "  ld.param.u64 %%rd3, [out];\n"                                          /* 9 */
             "  mov.u32 %%r1, %%tid.x;\n"                                               /* 10 */
             "  mul.wide.u32 %%rd4, %%r1, 8; add.u64 %%rd5, %%rd2, %%rd4;\n"             /* 11 */
             "  ld.global.v2.b32 {%%r2, %%r3}, [%%rd5]; mov.b32 %%f1, %%r2; mov.b32 %%f2, %%r3;\n"   /* 12 */
             "  %s\n"                                                                  /* 13 */
             "  mul.wide.u32 %%rd6, %%r1, 16; add.u64 %%rd7, %%rd3, %%rd6;\n"
             "  st.global.v4.b32 [%%rd7], {%%r4, %%r5, %%r6, %%r7};\n"
             "  ret;\n"
             "}\n", tex);
}
#define TEX_F32_2D "tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}]; " \
                   "mov.b32 %r4, %f3; mov.b32 %r5, %f4; mov.b32 %r6, %f5; mov.b32 %r7, %f6;"
#define TEX_F32_1D "tex.1d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1}]; " \
                   "mov.b32 %r4, %f3; mov.b32 %r5, %f4; mov.b32 %r6, %f5; mov.b32 %r7, %f6;"

/* Open a session of the kernel with `tex` a texture object over the bytes of buffer img, coordinates `at`. */
static sim_run *run_tex(const char *tex_instr, ws_texture_desc desc, const void *image, size_t image_bytes,
                        const void *at, int texture_object)
{
    char ptx[4096], launch[512];
    kernel(ptx, sizeof ptx, tex_instr);
    snprintf(launch, sizeof launch, "ptx /dev/null\ngrid 1\nblock 32\nbuf tex=u8:%zu\nbuf img=u8:%zu\nbuf at=u32:64\n"
             "buf out=u32:128\narg tex\narg at\narg out\n", sizeof desc, image_bytes);
    sim_run *r = calloc(1, sizeof *r);
    ck_assert_int_eq(ws_run_options_parse_launch_text(launch, strlen(launch), "test.launch", &r->options, r->err,
                                                      sizeof r->err), WS_LAUNCH_OK);
    ptx_diag diag = {0};
    ptx_module *m = ptx_parse(ptx, strlen(ptx), "test.ptx", &diag);
    ck_assert_msg(m != NULL, "%s", diag.count ? diag.lines[0] : "?");
    ptx_diag_free(&diag);
    ck_assert_int_eq(ws_session_open_module(&r->session, &r->options, m, r->err, sizeof r->err), 0);
    ws_allocation *t = ws_session_buffer(&r->session, "tex"), *img = ws_session_buffer(&r->session, "img");
    desc.data = img->base;
    memcpy(t->bytes, &desc, sizeof desc);
    t->texture = (uint8_t)texture_object;
    memcpy(img->bytes, image, image_bytes);
    memcpy(ws_session_buffer(&r->session, "at")->bytes, at, 64 * 4);
    r->status = ws_session_run(&r->session, r->err, sizeof r->err);
    return r;
}

#define out(r) ((const uint32_t *)ws_session_buffer(&(r)->session, "out")->bytes)

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* ---- the reference ----------------------------------------------------------------------------------- */
static int address(int i, int n, unsigned mode)   /* -1: border */
{
    if (i >= 0 && i < n) return i;
    if (mode == WS_TEX_WRAP) return ((i % n) + n) % n;
    if (mode == WS_TEX_MIRROR) { int p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
    if (mode == WS_TEX_BORDER) return -1;
    return i < 0 ? 0 : n - 1;
}
static float texel(const float *img, int w, int h, int x, int y, unsigned mode)
{
    int ix = address(x, w, mode), iy = address(y, h, mode);
    return ix < 0 || iy < 0 ? 0.0f : img[iy * w + ix];
}
static float frac8(float f) { return rintf(f * 256.0f) / 256.0f; }
static float lerp(float a, float b, float w) { float p = (1.0f - w) * a, q = w * b; return p + q; }
static float sample(const float *img, int w, int h, float x, float y, unsigned mode, int linear, int normalized)
{
    if (normalized) { x = x * (float)w; y = y * (float)h; }
    if (!linear) return texel(img, w, h, (int)floorf(x), (int)floorf(y), mode);
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = frac8(xb - floorf(xb)), b = frac8(yb - floorf(yb));
    if (h == 1) return lerp(texel(img, w, h, i, 0, mode), texel(img, w, h, i + 1, 0, mode), a);
    return lerp(lerp(texel(img, w, h, i, j, mode), texel(img, w, h, i + 1, j, mode), a),
                lerp(texel(img, w, h, i, j + 1, mode), texel(img, w, h, i + 1, j + 1, mode), a), b);
}

/* ---- float textures: each address mode and filter -------------------------------------------------- */
static const struct { unsigned mode; int linear, normalized, two_d; } cases[] = {
    {WS_TEX_CLAMP, 0, 0, 1}, {WS_TEX_CLAMP, 1, 0, 1}, {WS_TEX_BORDER, 0, 0, 1}, {WS_TEX_BORDER, 1, 0, 1},
    {WS_TEX_CLAMP, 1, 1, 1}, {WS_TEX_WRAP, 0, 1, 1},  {WS_TEX_WRAP, 1, 1, 1},   {WS_TEX_MIRROR, 0, 1, 1},
    {WS_TEX_MIRROR, 1, 1, 1}, {WS_TEX_BORDER, 1, 1, 1}, {WS_TEX_CLAMP, 1, 0, 0}, {WS_TEX_WRAP, 1, 1, 0},
    {WS_TEX_MIRROR, 0, 1, 0},
};

START_TEST(float_fetches_match_the_reference)
{
    const int w = 5, h = _i >= 10 ? 1 : 3;
    float img[15], at[64];
    for (int i = 0; i < 15; i++) img[i] = i * 1.37f - 3.0f + (i % 3) * 0.011f;
    for (int k = 0; k < 32; k++) {   /* from outside on one side to outside on the other */
        float u = -1.3f + k * 0.09f, v = 1.2f - k * 0.08f;
        at[2 * k] = cases[_i].normalized ? u : u * w;
        at[2 * k + 1] = cases[_i].normalized ? v : v * h;
    }
    ws_texture_desc d = {0, w * 4, (unsigned)w, (unsigned)h, 4, {cases[_i].mode, cases[_i].mode},
                         (unsigned)cases[_i].linear, (unsigned)cases[_i].normalized, WS_TEX_ELEMENT_TYPE,
                         {0, 0, 0, 0}, 1, 4, 0};
    sim_run *r = run_tex(cases[_i].two_d ? TEX_F32_2D : TEX_F32_1D, d, img, sizeof img, at, 1);
    ck_assert_msg(r->status == 0, "%s", r->err);
    for (int k = 0; k < 32; k++) {
        float want = sample(img, w, h, at[2 * k], cases[_i].two_d ? at[2 * k + 1] : 0.5f, cases[_i].mode,
                            cases[_i].linear, cases[_i].normalized);
        ck_assert_msg(out(r)[4 * k] == bits(want), "case %d lane %d at (%g, %g): got %a, want %a", _i, k, at[2 * k],
                      at[2 * k + 1], (double)*(const float *)&out(r)[4 * k], (double)want);
        for (int c = 1; c < 4; c++)   /* one channel: the others read zero */
            ck_assert_uint_eq(out(r)[4 * k + c], 0);
    }
    /* one global load request for the coordinates, then one per texel tap (1 point, 2 a row, 4) that some lane
     * reads inside the texture (border taps read nothing) */
    int taps = !cases[_i].linear ? 1 : h == 1 ? 2 : 4, read[4] = {0};
    for (int k = 0; k < 32; k++) {
        float x = at[2 * k], y = cases[_i].two_d ? at[2 * k + 1] : 0.5f;
        if (cases[_i].normalized) { x = x * (float)w; y = y * (float)h; }
        int i = (int)floorf(cases[_i].linear ? x - 0.5f : x), j = (int)floorf(cases[_i].linear && h > 1 ? y - 0.5f : y);
        for (int t = 0; t < taps; t++)
            read[t] |= address(i + (t & 1), w, cases[_i].mode) >= 0 && address(j + (t >> 1), h, cases[_i].mode) >= 0;
    }
    ck_assert_uint_eq(r->session.launches[0].counters[WS_CTR_global_ld_requests], 1 + read[0] + read[1] + read[2] + read[3]);
    done(r);
}
END_TEST

/* tex1Dfetch (.s32 coordinates) of signed bytes: sign-extended to .s32, zero outside [0, width) */
START_TEST(integer_fetch_extends_the_channel)
{
    int8_t bytes[20];
    int32_t at[64] = {0};
    for (int i = 0; i < 20; i++) bytes[i] = (int8_t)(i * 29 - 100);
    for (int k = 0; k < 32; k++) at[2 * k] = k - 5;
    ws_texture_desc d = {0, 20, 20, 1, 1, {WS_TEX_CLAMP, WS_TEX_CLAMP}, WS_TEX_POINT, 0, WS_TEX_ELEMENT_TYPE,
                         {0, 0, 0, 0}, 1, 1, 1};
    sim_run *r = run_tex("tex.1d.v4.s32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r2}];", d, bytes, sizeof bytes, at, 1);
    ck_assert_msg(r->status == 0, "%s", r->err);
    for (int k = 0; k < 32; k++) {
        int i = k - 5;
        ck_assert_int_eq((int32_t)out(r)[4 * k], i >= 0 && i < 20 ? bytes[i] : 0);
    }
    done(r);
    d.channel_signed = 0;   /* unsigned bytes: zero-extended */
    r = run_tex("tex.1d.v4.u32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r2}];", d, bytes, sizeof bytes, at, 1);
    ck_assert_msg(r->status == 0, "%s", r->err);
    for (int k = 5; k < 25; k++)
        ck_assert_uint_eq(out(r)[4 * k], (uint8_t)bytes[k - 5]);
    done(r);
}
END_TEST

/* cudaReadModeNormalizedFloat: two-channel unsigned 16-bit texels as v / 65535, signed 8-bit as max(v / 127, -1) */
START_TEST(normalized_float_channels)
{
    uint16_t pairs[16];
    int32_t at[64] = {0};
    for (int i = 0; i < 16; i++) pairs[i] = (uint16_t)(i * 4099);
    for (int k = 0; k < 32; k++) at[2 * k] = k % 8;
    ws_texture_desc d = {0, 32, 8, 1, 4, {WS_TEX_CLAMP, WS_TEX_CLAMP}, WS_TEX_POINT, 0, WS_TEX_NORMALIZED_FLOAT,
                         {0, 0, 0, 0}, 2, 2, 0};
    sim_run *r = run_tex("tex.1d.v4.f32.s32 {%f3, %f4, %f5, %f6}, [%rd1, {%r2}]; mov.b32 %r4, %f3; mov.b32 %r5, %f4; "
                         "mov.b32 %r6, %f5; mov.b32 %r7, %f6;", d, pairs, sizeof pairs, at, 1);
    ck_assert_msg(r->status == 0, "%s", r->err);
    for (int k = 0; k < 32; k++) {
        int i = k % 8;
        ck_assert_uint_eq(out(r)[4 * k], bits((float)pairs[2 * i] / 65535.0f));
        ck_assert_uint_eq(out(r)[4 * k + 1], bits((float)pairs[2 * i + 1] / 65535.0f));
        ck_assert_uint_eq(out(r)[4 * k + 2], 0);
    }
    done(r);
    int8_t s[8] = {-128, -127, -1, 0, 1, 64, 126, 127};
    ws_texture_desc e = {0, 8, 8, 1, 1, {WS_TEX_CLAMP, WS_TEX_CLAMP}, WS_TEX_POINT, 0, WS_TEX_NORMALIZED_FLOAT,
                         {0, 0, 0, 0}, 1, 1, 1};
    r = run_tex("tex.1d.v4.f32.s32 {%f3, %f4, %f5, %f6}, [%rd1, {%r2}]; mov.b32 %r4, %f3; mov.b32 %r5, %f4; "
                "mov.b32 %r6, %f5; mov.b32 %r7, %f6;", e, s, sizeof s, at, 1);
    ck_assert_msg(r->status == 0, "%s", r->err);
    for (int k = 0; k < 8; k++)   /* -128 / 127 is below -1: clamped */
        ck_assert_uint_eq(out(r)[4 * k], bits(k == 0 ? -1.0f : (float)s[k] / 127.0f));
    done(r);
}
END_TEST

START_TEST(a_handle_that_is_no_texture_object_is_an_error)
{
    float img[4] = {1, 2, 3, 4}, at[64] = {0};
    ws_texture_desc d = {0, 16, 4, 1, 4, {WS_TEX_CLAMP, WS_TEX_CLAMP}, WS_TEX_POINT, 0, WS_TEX_ELEMENT_TYPE,
                         {0, 0, 0, 0}, 1, 4, 0};
    sim_run *r = run_tex(TEX_F32_1D, d, img, sizeof img, at, 0);   /* the same bytes, but a plain buffer */
    ck_assert_int_eq(r->status, 1);
    ck_assert_msg(strstr(r->err, "test.ptx:13: error:") != NULL, "%s", r->err);
    ck_assert_msg(strstr(r->err, "which is not a texture object") != NULL, "%s", r->err);
    done(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tex");
    TCase *tc = tcase_create("tex");
    tcase_add_loop_test(tc, float_fetches_match_the_reference, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, integer_fetch_extends_the_channel);
    tcase_add_test(tc, normalized_float_channels);
    tcase_add_test(tc, a_handle_that_is_no_texture_object_is_an_error);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
