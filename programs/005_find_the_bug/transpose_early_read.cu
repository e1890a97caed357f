// Find the bug: a tiled transpose that reads the tile transposed before every
// thread has written its element: no barrier between the write and the read.
//   warpsim run transpose_early_read.cu --check racecheck
#include <cstdio>

#define TILE 32

__global__ void transpose_buggy(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    // the bug: no __syncthreads() here
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];   // line 16: another warp's row
}

__global__ void transpose_fixed(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();                                   // the fix
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    const int n = 64;
    static float h[n * n], t[n * n];
    for (int i = 0; i < n * n; i++)
        h[i] = (float)i;
    float *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
    const char *names[2] = {"buggy", "fixed"};
    for (int k = 0; k < 2; k++) {
        if (k == 0)
            transpose_buggy<<<grid, block>>>(in, out, n);
        else
            transpose_fixed<<<grid, block>>>(in, out, n);
        cudaMemcpy(t, out, sizeof t, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                bad += t[j * n + i] != h[i * n + j];
        printf("%s: %d wrong elements\n", names[k], bad);
    }
    return 0;
}
