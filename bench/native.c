/* The benchmark workloads in plain C (bench/native.h). Plain multiply-add:
 * on baseline x86-64 (no FMA) this is faster than the fused fmaf the kernels'
 * fma.rn.f32 means, so the comparison errs on the side of a faster native run. */
#include "bench/native.h"

#include <string.h>

void native_vector_add(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

void native_matmul_naive(const float *a, const float *b, float *c, int n)
{
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            float sum = 0.0f;
            for (int k = 0; k < n; k++)
                sum += a[row * n + k] * b[k * n + col];
            c[row * n + col] = sum;
        }
}

enum { TILE = 32 };

void native_matmul_tiled(const float *a, const float *b, float *c, int n)
{
    static float as[TILE][TILE], bs[TILE][TILE];
    for (int by = 0; by < n; by += TILE)
        for (int bx = 0; bx < n; bx += TILE) {
            float sum[TILE][TILE];
            memset(sum, 0, sizeof sum);
            for (int t = 0; t < n; t += TILE) {
                for (int y = 0; y < TILE; y++)
                    for (int x = 0; x < TILE; x++) {
                        int ar = by + y, ac = t + x, br = t + y, bc = bx + x;
                        as[y][x] = ar < n && ac < n ? a[ar * n + ac] : 0.0f;
                        bs[y][x] = br < n && bc < n ? b[br * n + bc] : 0.0f;
                    }
                for (int y = 0; y < TILE; y++)
                    for (int k = 0; k < TILE; k++)
                        for (int x = 0; x < TILE; x++)
                            sum[y][x] += as[y][k] * bs[k][x];
            }
            for (int y = 0; y < TILE && by + y < n; y++)
                for (int x = 0; x < TILE && bx + x < n; x++)
                    c[(by + y) * n + bx + x] = sum[y][x];
        }
}

void native_transpose_tiled(const float *in, float *out, int n)
{
    static float tile[TILE][TILE];
    for (int by = 0; by < n; by += TILE)
        for (int bx = 0; bx < n; bx += TILE) {
            for (int y = 0; y < TILE; y++)
                for (int x = 0; x < TILE; x++) {
                    int r = by + y, col = bx + x;
                    tile[y][x] = r < n && col < n ? in[r * n + col] : 0.0f;
                }
            for (int x = 0; x < TILE && bx + x < n; x++)
                for (int y = 0; y < TILE && by + y < n; y++)
                    out[(bx + x) * n + by + y] = tile[x][y];
        }
}

void native_reduce_blocks(const float *in, float *out, int n, int block)
{
    float r[1024];
    for (int b = 0; b * block < n; b++) {
        for (int t = 0; t < block; t++)
            r[t] = b * block + t < n ? in[b * block + t] : 0.0f;
        for (int s = block / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++)
                r[t] = r[t] + r[t + s];
        out[b] = r[0];
    }
}
