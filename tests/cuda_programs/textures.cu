// Texture objects: tex1Dfetch over linear memory, tex2D over a cudaArray with
// point and linear filtering, clamp and wrap, normalized coordinates; each
// fetch checked against the CUDA guide's "Texture Fetching" formulas on the host.
#include <cmath>
#include <cstdio>

__global__ void fetch(cudaTextureObject_t lin, cudaTextureObject_t point, cudaTextureObject_t linear,
                      cudaTextureObject_t wrap, float *out)
{
    int i = threadIdx.x;
    out[i] = tex1Dfetch<float>(lin, i - 2);                       // -2..29: the first two and past 20 read 0
    out[32 + i] = tex2D<float>(point, i * 0.37f, 1.6f);           // texel (floor(x), 1), clamped past 7
    out[64 + i] = tex2D<float>(linear, i * 0.25f, 1.25f);         // bilinear
    out[96 + i] = tex2D<float>(wrap, (i - 8) / 8.0f + 0.01f, 0.3f);   // normalized, wrap
}

// cudaReadModeNormalizedFloat: 8-bit channels read as floats in [0, 1]
__global__ void normalized(cudaTextureObject_t bytes, cudaTextureObject_t rgba, float *out)
{
    out[0] = tex1Dfetch<float>(bytes, 2);            // 102 / 255
    float4 mid = tex2D<float4>(rgba, 1.0f, 0.5f);     // halfway between the two texels (linear)
    out[1] = mid.x; out[2] = mid.y; out[3] = mid.z; out[4] = mid.w;
}

static float texel(const float *t, int w, int h, int x, int y, bool wrap)
{
    if (wrap) { x = ((x % w) + w) % w; y = ((y % h) + h) % h; }
    else { x = x < 0 ? 0 : x >= w ? w - 1 : x; y = y < 0 ? 0 : y >= h ? h - 1 : y; }
    return t[y * w + x];
}
static float frac8(float f) { return std::rint(f * 256.0f) / 256.0f; }

int main()
{
    const int W = 8, H = 4;
    float lin[20], img[W * H];
    for (int i = 0; i < 20; i++) lin[i] = 100.0f + i;
    for (int i = 0; i < W * H; i++) img[i] = (float)(i * i % 17);
    float *dlin;
    cudaMalloc(&dlin, sizeof lin);
    cudaMemcpy(dlin, lin, sizeof lin, cudaMemcpyHostToDevice);
    cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &ch, W, H);
    cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);

    cudaResourceDesc rl = {}, ra = {};
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = dlin;
    rl.res.linear.desc = ch;
    rl.res.linear.sizeInBytes = sizeof lin;
    ra.resType = cudaResourceTypeArray;
    ra.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tl, tp, tli, tw;
    cudaCreateTextureObject(&tl, &rl, &td, NULL);
    cudaCreateTextureObject(&tp, &ra, &td, NULL);
    td.filterMode = cudaFilterModeLinear;
    cudaCreateTextureObject(&tli, &ra, &td, NULL);
    td.filterMode = cudaFilterModePoint;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.normalizedCoords = 1;
    cudaCreateTextureObject(&tw, &ra, &td, NULL);

    float *dout, out[128];
    cudaMalloc(&dout, sizeof out);
    fetch<<<1, 32>>>(tl, tp, tli, tw, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++) {
        float want_lin = (i - 2 >= 0 && i - 2 < 20) ? lin[i - 2] : 0.0f;
        float want_point = texel(img, W, H, (int)std::floor(i * 0.37f), 1, false);
        float xb = i * 0.25f - 0.5f, yb = 1.25f - 0.5f;
        int x0 = (int)std::floor(xb), y0 = (int)std::floor(yb);
        float a = frac8(xb - x0), b = frac8(yb - y0);
        float want_linear = (1 - b) * ((1 - a) * texel(img, W, H, x0, y0, false) + a * texel(img, W, H, x0 + 1, y0, false)) +
                            b * ((1 - a) * texel(img, W, H, x0, y0 + 1, false) + a * texel(img, W, H, x0 + 1, y0 + 1, false));
        float u = ((i - 8) / 8.0f + 0.01f) * W, v = 0.3f * H;
        float want_wrap = texel(img, W, H, (int)std::floor(u), (int)std::floor(v), true);
        bad += out[i] != want_lin;
        bad += out[32 + i] != want_point;
        bad += std::fabs(out[64 + i] - want_linear) > 1e-4f;
        bad += out[96 + i] != want_wrap;
    }
    printf("tex1Dfetch %g %g %g, tex2D point %g, linear %g, wrap %g\n", out[0], out[2], out[21], out[32 + 5], out[64 + 5],
           out[96]);
    printf("textures: %s\n", bad ? "FAILED" : "OK");

    unsigned char bytes[6] = {0, 51, 102, 153, 204, 255}, *dbytes;
    uchar4 pixels[2] = {make_uchar4(255, 0, 0, 255), make_uchar4(0, 255, 0, 255)};
    cudaMalloc(&dbytes, sizeof bytes);
    cudaMemcpy(dbytes, bytes, sizeof bytes, cudaMemcpyHostToDevice);
    cudaChannelFormatDesc c8 = cudaCreateChannelDesc<unsigned char>(), c8x4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t image;
    cudaMallocArray(&image, &c8x4, 2, 1);
    cudaMemcpy2DToArray(image, 0, 0, pixels, sizeof pixels, sizeof pixels, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc rb = {}, ri = {};
    rb.resType = cudaResourceTypeLinear;
    rb.res.linear.devPtr = dbytes;
    rb.res.linear.desc = c8;
    rb.res.linear.sizeInBytes = sizeof bytes;
    ri.resType = cudaResourceTypeArray;
    ri.res.array.array = image;
    cudaTextureDesc tn = {};
    tn.readMode = cudaReadModeNormalizedFloat;
    tn.addressMode[0] = tn.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t tb, trgba;
    cudaCreateTextureObject(&tb, &rb, &tn, NULL);
    tn.filterMode = cudaFilterModeLinear;
    cudaCreateTextureObject(&trgba, &ri, &tn, NULL);
    float n[5];
    normalized<<<1, 1>>>(tb, trgba, dout);
    cudaMemcpy(n, dout, sizeof n, cudaMemcpyDeviceToHost);
    printf("normalized: %.4f | %.4f %.4f %.4f %.4f\n", n[0], n[1], n[2], n[3], n[4]);

    // out of an array: rows 1-2 of the image's columns 2-5 (pitch 5 floats), then 3 floats from (row 3, column 1)
    float back[2 * 5] = {}, run[3] = {};
    cudaError_t e2d = cudaMemcpy2DFromArray(back, 5 * sizeof(float), arr, 2 * sizeof(float), 1, 4 * sizeof(float), 2,
                                            cudaMemcpyDeviceToHost);
    cudaError_t e1d = cudaMemcpyFromArray(run, arr, 1 * sizeof(float), 3, sizeof run, cudaMemcpyDeviceToHost);
    int same = e2d == cudaSuccess && e1d == cudaSuccess;
    for (int r = 0; r < 2; r++)
        for (int x = 0; x < 4; x++)
            same &= back[r * 5 + x] == img[(1 + r) * W + 2 + x];
    for (int i = 0; i < 3; i++)
        same &= run[i] == img[3 * W + 1 + i];
    printf("from an array: %s; beyond it: %s\n", same ? "OK" : "WRONG",
           cudaGetErrorName(cudaMemcpyFromArray(run, arr, 0, 3, W * sizeof(float) + 4, cudaMemcpyDeviceToHost)));
    cudaDestroyTextureObject(tl);
    cudaDestroyTextureObject(tp);
    cudaDestroyTextureObject(tli);
    cudaDestroyTextureObject(tw);
    cudaFreeArray(arr);
    cudaFree(dlin);
    cudaFree(dout);
    return bad;
}
