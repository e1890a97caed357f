// Seed 001, exercise 3: shared-memory bank conflicts (launch with a 32x32 block).
// Hand-written PTX twin: transpose.ptx.
//
// transpose_with_bank_conflicts / transpose_without_bank_conflicts are the
// seed kernels, kept exactly as the course shows them (its figures come from
// them): they are NOT true transposes.  They write out[x*N+y] = s_data[tx][ty],
// so each 32x32 tile lands at its transposed place but the inside of the tile
// is not transposed, and their global stores are fully uncoalesced.
// Only change: bounds checks so N need not be a multiple of 32.  Tile elements
// whose source lies outside the matrix are loaded as 0.0f, so the result for
// a partial tile is:   out[x*N+y] = (source in range) ? in[src] : 0.0f
// with x = bx*32+tx, y = by*32+ty, src = (by*32+tx)*N + (bx*32+ty).
//
// transpose_coalesced is the correct transpose put beside them: a 32x33
// padded tile, coalesced loads AND coalesced stores; out (width x height)
// is the transpose of in (height rows x width columns).

#define TILE 32

extern "C" __global__ void transpose_with_bank_conflicts(float *in, float *out, int N)
{
    __shared__ float s_data[32][32];

    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // Lecture coalescee depuis Global Memory
    s_data[ty][tx] = (x < N && y < N) ? in[y * N + x] : 0.0f;
    __syncthreads();

    // Acces transpose : BANK CONFLICTS (column of a 32-wide array)
    if (x < N && y < N)
        out[x * N + y] = s_data[tx][ty];
}

extern "C" __global__ void transpose_without_bank_conflicts(float *in, float *out, int N)
{
    // Padding d'1 element : 33 au lieu de 32
    __shared__ float s_data[32][33];

    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    s_data[ty][tx] = (x < N && y < N) ? in[y * N + x] : 0.0f;
    __syncthreads();

    // Pas de bank conflicts grace au padding
    if (x < N && y < N)
        out[x * N + y] = s_data[tx][ty];
}

// A true transpose: in is height x width (row-major), out is width x height.
// Grid: (ceil(width/32), ceil(height/32)), block 32x32.
extern "C" __global__ void transpose_coalesced(float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;      // column in `in`
    int y = blockIdx.y * TILE + threadIdx.y;      // row in `in`
    if (x < width && y < height)
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;          // column in `out`
    y = blockIdx.x * TILE + threadIdx.y;          // row in `out`
    if (x < height && y < width)
        out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

// ---- The seed's host code (its two programs, then the correct transpose),
// with the sizes of all.launch. The seed fills the input with cudaMemset(d_in,
// 1, size) and checks nothing; here the input holds distinct values and each
// output is checked against what the kernel computes on the CPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static float timed_ms(cudaEvent_t start, cudaEvent_t stop)
{
    float milliseconds = 0;
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&milliseconds, start, stop);
    return milliseconds;
}

int main()
{
    const int N = 1024;
    int size = N * N * sizeof(float);
    float *h_in = (float *)malloc(size), *h_out = (float *)malloc(size);
    for (int i = 0; i < N * N; i++)
        h_in[i] = (float)i;
    float *d_in, *d_out;
    cudaMalloc(&d_in, size);
    cudaMalloc(&d_out, size);
    cudaMemcpy(d_in, h_in, size, cudaMemcpyHostToDevice);

    dim3 threads(32, 32);
    dim3 blocks((N + threads.x - 1) / threads.x, (N + threads.y - 1) / threads.y);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    int wrong = 0;

    // The seed's kernels: tile (bx, by) lands at tile (by, bx), its inside not transposed
    void (*seed_kernels[])(float *, float *, int) = {transpose_with_bank_conflicts, transpose_without_bank_conflicts};
    const char *names[] = {"WITH", "WITHOUT"};
    for (int k = 0; k < 2; k++) {
        cudaEventRecord(start);
        seed_kernels[k]<<<blocks, threads>>>(d_in, d_out, N);
        cudaEventRecord(stop);
        printf("Transpose %s bank conflicts: %.3f ms\n", names[k], timed_ms(start, stop));
        cudaMemcpy(h_out, d_out, size, cudaMemcpyDeviceToHost);
        for (int x = 0; x < N; x++)
            for (int y = 0; y < N; y++) {
                int src = (y / 32 * 32 + x % 32) * N + (x / 32 * 32 + y % 32);
                wrong += h_out[x * N + y] != h_in[src];
            }
    }

    // The true transpose: out[c][r] = in[r][c]
    cudaEventRecord(start);
    transpose_coalesced<<<blocks, threads>>>(d_in, d_out, N, N);
    cudaEventRecord(stop);
    printf("Transpose coalesced (true transpose): %.3f ms\n", timed_ms(start, stop));
    cudaMemcpy(h_out, d_out, size, cudaMemcpyDeviceToHost);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            wrong += h_out[c * N + r] != h_in[r * N + c];

    printf("Check: %s\n", wrong ? "FAILED" : "OK");
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return wrong != 0;
}
