// Seed 002, "Mémoires": besides global and shared memory, the G80 has two read-only, cached memories
// that every thread and the host see: constant memory ("__constant__", a cache for 1-D data read by a
// whole warp at once) and texture memory (a cache for 2-D data, "cudaArray", with addressing modes and
// filtering done by the hardware).
//
//   1. constant memory: a polynomial of degree 15 evaluated at 1 Mi points, its 16 coefficients read
//      by every thread from a __constant__ table (all the lanes of a warp read the same word: a
//      broadcast), from the same table in global memory, and from the constant table at an index that
//      differs between lanes (the case constant memory serves worst: one word at a time on a GPU);
//   2. texture memory: tex1Dfetch over linear memory (a copy through a texture object), then a 64x64
//      image read through a cudaArray with tex2D and magnified 4x, with point and with linear filtering.
// Each launch is timed with events and checked against the CPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define DEGREE 16
__constant__ float c_coef[DEGREE];

// Horner's rule with the coefficients in constant memory: every lane reads c_coef[k] at once.
extern "C" __global__ void poly_constant(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i], s = 0.0f;
        for (int k = DEGREE - 1; k >= 0; k--)
            s = s * v + c_coef[k];
        y[i] = s;
    }
}

// The same, the coefficients in global memory.
extern "C" __global__ void poly_global(const float *coef, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i], s = 0.0f;
        for (int k = DEGREE - 1; k >= 0; k--)
            s = s * v + coef[k];
        y[i] = s;
    }
}

// Each lane starts at its own coefficient: 16 different constant addresses in every warp-level load.
extern "C" __global__ void poly_constant_divergent(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i], s = 0.0f;
        for (int k = DEGREE - 1; k >= 0; k--)
            s = s * v + c_coef[(k + threadIdx.x) % DEGREE];
        y[i] = s;
    }
}

// A copy through a texture over linear memory.
extern "C" __global__ void copy_tex1Dfetch(cudaTextureObject_t t, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = tex1Dfetch<float>(t, i);
}

// Magnify a w x h image by f: pixel (x, y) of the output samples the texture at the centre of its
// footprint, ((x + 0.5) / f, (y + 0.5) / f) in texel coordinates (texel centres are at i + 0.5).
extern "C" __global__ void magnify_tex2D(cudaTextureObject_t t, float *out, int w, int h, int f)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w * f && y < h * f)
        out[y * w * f + x] = tex2D<float>(t, (x + 0.5f) / f, (y + 0.5f) / f);
}

#include "../course.h"   // begin() and end_us(): the time between two CUDA events

static float horner(const float *c, float v, int shift)
{
    float s = 0.0f;
    for (int k = DEGREE - 1; k >= 0; k--)
        s = s * v + c[(k + shift) % DEGREE];
    return s;
}
// the texel (clamped) and the bilinear filter of the CUDA guide's "Texture Fetching", weights on 8 bits
static float texel(const float *img, int w, int h, int x, int y)
{
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return img[y * w + x];
}
static float frac8(float f) { return std::rint(f * 256.0f) / 256.0f; }
static float bilinear(const float *img, int w, int h, float x, float y)
{
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)std::floor(xb), j = (int)std::floor(yb);
    float a = frac8(xb - i), b = frac8(yb - j);
    return (1 - b) * ((1 - a) * texel(img, w, h, i, j) + a * texel(img, w, h, i + 1, j)) +
           b * ((1 - a) * texel(img, w, h, i, j + 1) + a * texel(img, w, h, i + 1, j + 1));
}
// results are checked to a relative 1e-5: the GPU's fused multiply-adds round once where the CPU may round twice
static bool close(float got, float want) { return std::fabs(got - want) <= 1e-5f * std::fmax(1.0f, std::fabs(want)); }

int main()
{
    const int n = 1 << 20, block = 256, grid = n / block;
    bool ok = true;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    float coef[DEGREE], *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
    for (int k = 0; k < DEGREE; k++)
        coef[k] = 1.0f / (k + 1);
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 1000) / 1000.0f;
    float *dx, *dy, *dcoef;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMalloc(&dcoef, sizeof coef);
    cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dcoef, coef, sizeof coef, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(c_coef, coef, sizeof coef);   // the host writes constant memory

    printf("-- 1. constant memory: a degree-15 polynomial at %d points, %d blocks of %d\n", n, grid, block);
    for (int version = 0; version < 3; version++) {
        const char *name[] = {"coefficients in __constant__, broadcast", "coefficients in global memory",
                              "__constant__, 16 addresses per warp"};
        cudaMemset(dy, 0, n * sizeof(float));
        begin();
        if (version == 0)
            poly_constant<<<grid, block>>>(dx, dy, n);
        else if (version == 1)
            poly_global<<<grid, block>>>(dcoef, dx, dy, n);
        else
            poly_constant_divergent<<<grid, block>>>(dx, dy, n);
        float us = end_us();
        cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < n; i++)
            if (!close(y[i], horner(coef, x[i], version == 2 ? i % block : 0)) && bad++ < 3)
                printf("y[%d] = %.8g, the CPU says %.8g\n", i, y[i], horner(coef, x[i], version == 2 ? i % block : 0));
        ok = ok && bad == 0;
        printf("%-42s %8.2f us   p(%.3f) = %.6f\n", name[version], us, x[999], y[999]);
    }

    printf("-- 2. texture memory\n");
    cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
    cudaResourceDesc rl = {};
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = dx;
    rl.res.linear.desc = ch;
    rl.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tlin;
    cudaCreateTextureObject(&tlin, &rl, &td, NULL);
    begin();
    copy_tex1Dfetch<<<grid, block>>>(tlin, dy, n);
    float us = end_us();
    cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (y[i] != x[i]) {
            printf("tex1Dfetch: y[%d] = %g, x[%d] = %g\n", i, y[i], i, x[i]);
            ok = false;
            break;
        }
    printf("%-42s %8.2f us\n", "tex1Dfetch copy of 4 MiB (linear memory)", us);

    const int w = 64, h = 64, f = 4, W = w * f, H = h * f;
    float *img = (float *)malloc(w * h * sizeof(float)), *out = (float *)malloc(W * H * sizeof(float)), *dout;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            img[j * w + i] = (float)((i / 8 + j / 8) % 2) * 100.0f + i;   // a checkerboard of 8x8 squares on a ramp
    cudaArray_t arr;
    cudaMallocArray(&arr, &ch, w, h);
    cudaMemcpy2DToArray(arr, 0, 0, img, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
    cudaMalloc(&dout, W * H * sizeof(float));
    cudaResourceDesc ra = {};
    ra.resType = cudaResourceTypeArray;
    ra.res.array.array = arr;
    for (int linear = 0; linear < 2; linear++) {
        td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
        cudaTextureObject_t t;
        cudaCreateTextureObject(&t, &ra, &td, NULL);
        begin();
        magnify_tex2D<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(t, dout, w, h, f);
        us = end_us();
        cudaMemcpy(out, dout, W * H * sizeof(float), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int Y = 0; Y < H; Y++)
            for (int X = 0; X < W; X++) {
                float u = (X + 0.5f) / f, v = (Y + 0.5f) / f;
                float want = linear ? bilinear(img, w, h, u, v) : texel(img, w, h, (int)std::floor(u), (int)std::floor(v));
                if (!close(out[Y * W + X], want) && bad++ < 3)
                    printf("out[%d][%d] = %g, the CPU says %g\n", Y, X, out[Y * W + X], want);
            }
        ok = ok && bad == 0;
        printf("%-42s %8.2f us   row 0, x = 28..36:", linear ? "tex2D 64x64 -> 256x256, linear filtering" :
                                                             "tex2D 64x64 -> 256x256, point filtering", us);
        for (int X = 28; X <= 36; X++)
            printf(" %.2f", out[X]);
        printf("\n");
        cudaDestroyTextureObject(t);
    }

    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        ok = false;
    }
    cudaDestroyTextureObject(tlin);
    cudaFreeArray(arr);
    cudaFree(dx); cudaFree(dy); cudaFree(dcoef); cudaFree(dout);
    cudaEventDestroy(start); cudaEventDestroy(stop);
    free(x); free(y); free(img); free(out);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
