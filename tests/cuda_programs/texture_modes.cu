// Every texture fetch mode warpsim promises, each fetch checked bit for bit against a C reference written
// here from the CUDA guide's "Texture Fetching" appendix: tex2D and tex1D on float textures with point and
// linear filtering under clamp, border, wrap and mirror, with and without normalized coordinates;
// tex1Dfetch of int, char, unsigned char, short and unsigned short element types; cudaReadModeNormalizedFloat
// on 8- and 16-bit channels, signed and unsigned; tex2D<float4> of a uchar4 image and tex2D<float2> of a
// float2 one, filtered; tex2D<int> point-sampled with wrap. Each line ends with a hash of the fetched bits, so
// that the run from clang's PTX (device code in warpsim_device.h) and from nvcc's (PTX tex instructions) can
// be compared byte for byte (tests/cuda_programs.sh).
#include <cmath>
#include <cstdio>
#include <cstring>

#define N 128   // fetches per group

__global__ void fetch2d(cudaTextureObject_t t, const float2 *at, float *out)
{
    int i = threadIdx.x;
    out[i] = tex2D<float>(t, at[i].x, at[i].y);
}
__global__ void fetch1d(cudaTextureObject_t t, const float2 *at, float *out)
{
    int i = threadIdx.x;
    out[i] = tex1D<float>(t, at[i].x);
}
template <class T> __global__ void fetch_element(cudaTextureObject_t t, int *out)
{
    int i = threadIdx.x;
    out[i] = (int)tex1Dfetch<T>(t, i - 3);   // 3 before the start and past the end read zero
}
__global__ void fetch_normalized(cudaTextureObject_t t, float *out)
{
    int i = threadIdx.x;
    out[i] = tex1Dfetch<float>(t, i - 3);
}
__global__ void fetch_rgba(cudaTextureObject_t t, const float2 *at, float4 *out)
{
    int i = threadIdx.x;
    out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}
__global__ void fetch_float2(cudaTextureObject_t t, const float2 *at, float2 *out)
{
    int i = threadIdx.x;
    out[i] = tex2D<float2>(t, at[i].x, at[i].y);
}
__global__ void fetch_int2d(cudaTextureObject_t t, const float2 *at, int *out)
{
    int i = threadIdx.x;
    out[i] = tex2D<int>(t, at[i].x, at[i].y);
}

// ---- the reference --------------------------------------------------------------------------------------
static int address(int i, int n, cudaTextureAddressMode mode)   // -1: outside (border)
{
    if (i >= 0 && i < n) return i;
    if (mode == cudaAddressModeWrap) return ((i % n) + n) % n;
    if (mode == cudaAddressModeMirror) { int p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
    if (mode == cudaAddressModeBorder) return -1;
    return i < 0 ? 0 : n - 1;
}
struct Image {   // channel c of texel (x, y) as a float, already read as the mode says
    int w, h, channels;
    float (*texel)(const Image &, int x, int y, int c);
    const void *data;
};
// linear filtering: weights with 8 fractional bits; each product and sum rounded on its own
static float frac8(float f) { return std::rint(f * 256.0f) / 256.0f; }
static float lerp(float a, float b, float w) { float p = (1.0f - w) * a, q = w * b; return p + q; }
static float sample(const Image &im, float x, float y, int c, bool linear, bool normalized, cudaTextureAddressMode mx,
                    cudaTextureAddressMode my)
{
    if (normalized) { x = x * (float)im.w; y = y * (float)im.h; }
    auto at = [&](int i, int j) {
        int ix = address(i, im.w, mx), iy = address(j, im.h, my);
        return ix < 0 || iy < 0 ? 0.0f : im.texel(im, ix, iy, c);
    };
    if (!linear) return at((int)std::floor(x), (int)std::floor(y));
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)std::floor(xb), j = (int)std::floor(yb);
    float a = frac8(xb - std::floor(xb)), b = frac8(yb - std::floor(yb));
    if (im.h == 1) return lerp(at(i, 0), at(i + 1, 0), a);
    return lerp(lerp(at(i, j), at(i + 1, j), a), lerp(at(i, j + 1), at(i + 1, j + 1), a), b);
}
static float float_texel(const Image &im, int x, int y, int c) { return ((const float *)im.data)[(y * im.w + x) * im.channels + c]; }
static float rgba_texel(const Image &im, int x, int y, int c) { return ((const unsigned char *)im.data)[(y * im.w + x) * 4 + c] / 255.0f; }

static unsigned hash_bits(const void *p, size_t n)   // FNV-1a
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * 16777619u;
    return h;
}
static int failures;
static void report(const char *what, const void *got, const void *want, size_t bytes, int count)
{
    int bad = 0;
    for (int i = 0; i < count; i++)
        bad += memcmp((const char *)got + i * (bytes / count), (const char *)want + i * (bytes / count), bytes / count) != 0;
    failures += bad;
    printf("%-46s %3d fetches, %d differ, bits %08x\n", what, count, bad, hash_bits(got, bytes));
}

static cudaTextureObject_t make(const cudaResourceDesc &r, cudaTextureAddressMode mode, cudaTextureFilterMode filter,
                                bool normalized, cudaTextureReadMode read = cudaReadModeElementType)
{
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = mode;
    td.filterMode = filter;
    td.readMode = read;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &r, &td, NULL) != cudaSuccess) { printf("cudaCreateTextureObject failed\n"); failures++; }
    return t;
}
static cudaResourceDesc array_resource(cudaArray_t a)
{
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}
static cudaResourceDesc linear_resource(void *p, cudaChannelFormatDesc ch, size_t bytes)
{
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = p;
    r.res.linear.desc = ch;
    r.res.linear.sizeInBytes = bytes;
    return r;
}

int main()
{
    const int W = 5, H = 3;
    float img[W * H], row[7];
    for (int i = 0; i < W * H; i++) img[i] = i * 1.37f - 3.0f + (i % 3) * 0.011f;
    for (int i = 0; i < 7; i++) row[i] = 10.0f - i * i * 0.75f;
    // coordinates: normalized ones from -1.3 to 1.45 (x) and 1.2 to -1.2 (y); unnormalized ones scaled
    float2 norm[N], texels[N], *dnorm, *dtexels;
    for (int k = 0; k < N; k++) {
        norm[k] = make_float2(-1.3f + k * 0.0217f, 1.2f - k * 0.019f);
        texels[k] = make_float2(norm[k].x * W, norm[k].y * H);
    }
    cudaMalloc(&dnorm, sizeof norm);
    cudaMalloc(&dtexels, sizeof texels);
    cudaMemcpy(dnorm, norm, sizeof norm, cudaMemcpyHostToDevice);
    cudaMemcpy(dtexels, texels, sizeof texels, cudaMemcpyHostToDevice);
    float *dout, out[N], want[N];
    cudaMalloc(&dout, 4 * N * sizeof(float));

    // float textures: every address mode and filter, with and without normalized coordinates
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t a2, a1;
    cudaMallocArray(&a2, &cf, W, H);
    cudaMemcpy2DToArray(a2, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
    cudaMallocArray(&a1, &cf, 7, 0);
    cudaMemcpy2DToArray(a1, 0, 0, row, sizeof row, sizeof row, 1, cudaMemcpyHostToDevice);
    Image im2 = {W, H, 1, float_texel, img}, im1 = {7, 1, 1, float_texel, row};
    const struct { cudaTextureAddressMode mode; const char *name; bool normalized; } modes[] = {
        {cudaAddressModeClamp, "clamp", false}, {cudaAddressModeBorder, "border", false},
        {cudaAddressModeClamp, "clamp", true},  {cudaAddressModeBorder, "border", true},
        {cudaAddressModeWrap, "wrap", true},    {cudaAddressModeMirror, "mirror", true}};
    char what[80];
    for (const auto &m : modes)
        for (int linear = 0; linear < 2; linear++) {
            cudaTextureFilterMode f = linear ? cudaFilterModeLinear : cudaFilterModePoint;
            const float2 *at = m.normalized ? norm : texels;
            for (int dim = 1; dim <= 2; dim++) {
                cudaTextureObject_t t = make(array_resource(dim == 2 ? a2 : a1), m.mode, f, m.normalized);
                if (dim == 2) fetch2d<<<1, N>>>(t, m.normalized ? dnorm : dtexels, dout);
                else fetch1d<<<1, N>>>(t, m.normalized ? dnorm : dtexels, dout);
                cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
                for (int k = 0; k < N; k++)
                    want[k] = dim == 2 ? sample(im2, at[k].x, at[k].y, 0, linear, m.normalized, m.mode, m.mode)
                                       : sample(im1, at[k].x, 0.5f, 0, linear, m.normalized, m.mode, m.mode);
                snprintf(what, sizeof what, "tex%dD float %s %s%s", dim, m.name, linear ? "linear" : "point",
                         m.normalized ? " normalized" : "");
                report(what, out, want, sizeof out, N);
                cudaDestroyTextureObject(t);
            }
        }

    // coordinates no texel answers (NaN, infinities, beyond 2^31): warpsim keeps indices within +-2^30 (NaN: 0)
    // and a filtered NaN is the GPU's canonical one; no reference (the CUDA guide leaves these open), but clang's
    // device code and nvcc's tex instructions must agree, which the hash shows
    {
        float2 edge[8] = {{NAN, 1}, {1, NAN}, {1e30f, 1}, {-1e30f, 1}, {INFINITY, 0}, {-INFINITY, 2}, {3e9f, -3e9f},
                          {1.5f, 1.5f}}, *dedge;
        float all[48];
        cudaMalloc(&dedge, sizeof edge);
        cudaMemcpy(dedge, edge, sizeof edge, cudaMemcpyHostToDevice);
        for (int m = 0; m < 6; m++) {
            cudaTextureObject_t t = make(array_resource(a2), modes[m].mode, m % 2 ? cudaFilterModeLinear : cudaFilterModePoint,
                                         modes[m].normalized);
            fetch2d<<<1, 8>>>(t, dedge, dout);
            cudaMemcpy(all + 8 * m, dout, 8 * sizeof(float), cudaMemcpyDeviceToHost);
            cudaDestroyTextureObject(t);
        }
        printf("%-46s %3d fetches, bits %08x\n", "tex2D float at NaN, infinite and huge x, y", 48, hash_bits(all, sizeof all));
    }

    // tex1Dfetch of integer element types, then the same bytes read as normalized floats
    signed char bytes[40];
    short shorts[40];
    for (int i = 0; i < 40; i++) { bytes[i] = (signed char)(i * 37 - 128); shorts[i] = (short)(i * 1693 - 32768); }
    void *dbytes, *dshorts;
    cudaMalloc(&dbytes, sizeof bytes);
    cudaMalloc(&dshorts, sizeof shorts);
    cudaMemcpy(dbytes, bytes, sizeof bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dshorts, shorts, sizeof shorts, cudaMemcpyHostToDevice);
    int iout[N], iwant[N], *diout;
    cudaMalloc(&diout, sizeof iout);
    struct { const char *name; cudaChannelFormatDesc ch; void *dev; const void *host; int size; bool is_signed; } ints[] = {
        {"char", cudaCreateChannelDesc<char>(), dbytes, bytes, 1, true},
        {"unsigned char", cudaCreateChannelDesc<unsigned char>(), dbytes, bytes, 1, false},
        {"short", cudaCreateChannelDesc<short>(), dshorts, shorts, 2, true},
        {"unsigned short", cudaCreateChannelDesc<unsigned short>(), dshorts, shorts, 2, false}};
    for (const auto &c : ints) {
        cudaTextureObject_t t = make(linear_resource(c.dev, c.ch, 40 * c.size), cudaAddressModeClamp, cudaFilterModePoint, false);
        if (c.size == 1 && c.is_signed) fetch_element<char><<<1, 48>>>(t, diout);
        else if (c.size == 1) fetch_element<unsigned char><<<1, 48>>>(t, diout);
        else if (c.is_signed) fetch_element<short><<<1, 48>>>(t, diout);
        else fetch_element<unsigned short><<<1, 48>>>(t, diout);
        cudaMemcpy(iout, diout, 48 * sizeof(int), cudaMemcpyDeviceToHost);
        for (int i = 0; i < 48; i++) {
            int k = i - 3;
            if (k < 0 || k >= 40) iwant[i] = 0;
            else if (c.size == 1) iwant[i] = c.is_signed ? bytes[k] : (unsigned char)bytes[k];
            else iwant[i] = c.is_signed ? shorts[k] : (unsigned short)shorts[k];
        }
        snprintf(what, sizeof what, "tex1Dfetch<%s>", c.name);
        report(what, iout, iwant, 48 * sizeof(int), 48);
        cudaDestroyTextureObject(t);
        t = make(linear_resource(c.dev, c.ch, 40 * c.size), cudaAddressModeClamp, cudaFilterModePoint, false,
                 cudaReadModeNormalizedFloat);
        fetch_normalized<<<1, 48>>>(t, dout);
        cudaMemcpy(out, dout, 48 * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < 48; i++) {   // unsigned: v / (2^n - 1); signed: v / (2^(n-1) - 1), at least -1
            int k = i - 3;
            float v = iwant[i], scale = c.size == 1 ? (c.is_signed ? 127.0f : 255.0f) : (c.is_signed ? 32767.0f : 65535.0f);
            want[i] = (k < 0 || k >= 40) ? 0.0f : std::fmax(v / scale, -1.0f);
        }
        snprintf(what, sizeof what, "tex1Dfetch %s, normalized float", c.name);
        report(what, out, want, 48 * sizeof(float), 48);
        cudaDestroyTextureObject(t);
    }
    int words[40], *dwords;
    for (int i = 0; i < 40; i++) words[i] = i * 99991 - 1000000;
    cudaMalloc(&dwords, sizeof words);
    cudaMemcpy(dwords, words, sizeof words, cudaMemcpyHostToDevice);
    cudaTextureObject_t tw = make(linear_resource(dwords, cudaCreateChannelDesc<int>(), sizeof words), cudaAddressModeClamp,
                                  cudaFilterModePoint, false);
    fetch_element<int><<<1, 48>>>(tw, diout);
    cudaMemcpy(iout, diout, 48 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 48; i++) iwant[i] = i - 3 >= 0 && i - 3 < 40 ? words[i - 3] : 0;
    report("tex1Dfetch<int>", iout, iwant, 48 * sizeof(int), 48);

    // a 4x3 int image, point-sampled with wrap (normalized coordinates)
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t ai;
    cudaMallocArray(&ai, &ci, 4, 3);
    cudaMemcpy2DToArray(ai, 0, 0, words, 4 * sizeof(int), 4 * sizeof(int), 3, cudaMemcpyHostToDevice);
    cudaTextureObject_t ti = make(array_resource(ai), cudaAddressModeWrap, cudaFilterModePoint, true);
    fetch_int2d<<<1, N>>>(ti, dnorm, diout);
    cudaMemcpy(iout, diout, sizeof iout, cudaMemcpyDeviceToHost);
    for (int k = 0; k < N; k++)
        iwant[k] = words[address((int)std::floor(norm[k].y * 3), 3, cudaAddressModeWrap) * 4 +
                         address((int)std::floor(norm[k].x * 4), 4, cudaAddressModeWrap)];
    report("tex2D<int> wrap point normalized", iout, iwant, sizeof iout, N);

    // a 3x2 uchar4 image read as float4 (normalized float), linear; a 3x2 float2 image, linear
    unsigned char rgba[3 * 2 * 4];
    float pairs[3 * 2 * 2];
    for (int i = 0; i < 24; i++) rgba[i] = (unsigned char)(i * 53 + 7);
    for (int i = 0; i < 12; i++) pairs[i] = i * 0.625f - 2.0f;
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>(), c2 = cudaCreateChannelDesc<float2>();
    cudaArray_t a4, af2;
    cudaMallocArray(&a4, &c4, 3, 2);
    cudaMemcpy2DToArray(a4, 0, 0, rgba, 12, 12, 2, cudaMemcpyHostToDevice);
    cudaMallocArray(&af2, &c2, 3, 2);
    cudaMemcpy2DToArray(af2, 0, 0, pairs, 24, 24, 2, cudaMemcpyHostToDevice);
    float4 out4[N], want4[N], *dout4 = (float4 *)dout;
    cudaTextureObject_t t4 = make(array_resource(a4), cudaAddressModeClamp, cudaFilterModeLinear, true, cudaReadModeNormalizedFloat);
    fetch_rgba<<<1, N>>>(t4, dnorm, dout4);
    cudaMemcpy(out4, dout4, sizeof out4, cudaMemcpyDeviceToHost);
    Image im4 = {3, 2, 4, rgba_texel, rgba}, imf2 = {3, 2, 2, float_texel, pairs};
    for (int k = 0; k < N; k++) {
        float c[4];
        for (int ch = 0; ch < 4; ch++)
            c[ch] = sample(im4, norm[k].x, norm[k].y, ch, true, true, cudaAddressModeClamp, cudaAddressModeClamp);
        want4[k] = make_float4(c[0], c[1], c[2], c[3]);
    }
    report("tex2D<float4> uchar4 clamp linear normalized", out4, want4, sizeof out4, N);
    float2 out2[N], want2[N], *dout2 = (float2 *)dout;
    cudaTextureObject_t t2 = make(array_resource(af2), cudaAddressModeMirror, cudaFilterModeLinear, true);
    fetch_float2<<<1, N>>>(t2, dnorm, dout2);
    cudaMemcpy(out2, dout2, sizeof out2, cudaMemcpyDeviceToHost);
    for (int k = 0; k < N; k++)
        want2[k] = make_float2(sample(imf2, norm[k].x, norm[k].y, 0, true, true, cudaAddressModeMirror, cudaAddressModeMirror),
                               sample(imf2, norm[k].x, norm[k].y, 1, true, true, cudaAddressModeMirror, cudaAddressModeMirror));
    report("tex2D<float2> float2 mirror linear normalized", out2, want2, sizeof out2, N);

    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { printf("CUDA error: %s\n", cudaGetErrorString(e)); failures++; }
    printf("texture modes: %s\n", failures ? "FAILED" : "OK");
    return failures != 0;
}
