// Seed 004 (Programmation CUDA 2023; PTX twin: matmul.ptx): matrix product c = a * b with
//   a: lda x ncola, b: ncola x ncolb, c: lda x ncolb (row-major).
// The row index i comes from x (threadIdx.x + blockIdx.x*blockDim.x), so the
// threads of a warp walk down a column of a and c: uncoalesced on purpose.
// Grid: (ceil(lda/BLOCK_DIM), ceil(ncolb/BLOCK_DIM)), block (BLOCK_DIM, BLOCK_DIM).
//
// matmul: the seed kernel as shown.
// block_matmul: the seed's shared-memory version with BLOCK_DIM = 8 (launch
//   with an 8x8 block).  The seed declares `ncolb` twice in its signature;
//   what the text means (and what the rest of the code needs) is fixed here:
//     * the first one is ncola, the number of columns of a (= rows of b);
//     * the A block start and row stride use ncola: ia = bx*BLOCK_DIM*ncola,
//       element a[ia + ty + tx*ncola];
//     * the loop runs over the common dimension: k < ncola, p = min(BD, ncola-k);
//     * the seed's loop increment `sa += sa` (which would never move the A
//       block) means `ia += sa`.
//   Elements outside the matrices are loaded as 0 and the inner loop runs over
//   the p valid columns only:  s += blockA[tx][l] * blockB[l][ty], l < p.

#define BLOCK_DIM 8

// "Change this, see that" (README): build with --cflags "-D BLOCK_PAD=1" to pad
// the shared blocks to 8 x 9 words, "-D BLOCK_PAD=4" to 8 x 12, and with
// "-D I_IN_Y" to take matmul's row index from y and its column from x.
#ifndef BLOCK_PAD
#define BLOCK_PAD 0
#endif

extern "C" __global__ void matmul(int lda, int ncola, float *a, int ncolb, float *b, float *c)
{
    // get indices in the matrix
#ifdef I_IN_Y
    int i = threadIdx.y + blockIdx.y * blockDim.y;
    int j = threadIdx.x + blockIdx.x * blockDim.x;
#else
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
#endif
    float s;
    if (i < lda && j < ncolb) { // check validity of thread
        s = 0.0f;
        for (int k = 0; k < ncola; k++) // accumulate products
            s += a[i * ncola + k] * b[k * ncolb + j];
        c[i * ncolb + j] = s;
    }
}

extern "C" __global__ void block_matmul(int lda, int ncola, float *a, int ncolb, float *b, float *c)
{
    // indice de debut des blocs A, B et C
    int ia = blockIdx.x * ncola * BLOCK_DIM;
    int ib = blockIdx.y * BLOCK_DIM;
    int ic = blockIdx.x * ncolb * BLOCK_DIM + blockIdx.y * BLOCK_DIM;
    // pas en A et B
    int sa = BLOCK_DIM;
    int sb = ncolb * BLOCK_DIM;
    __shared__ float blockA[BLOCK_DIM][BLOCK_DIM + BLOCK_PAD];
    __shared__ float blockB[BLOCK_DIM][BLOCK_DIM + BLOCK_PAD];
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int j = blockIdx.y * BLOCK_DIM + threadIdx.y;
    float s = 0.0f;
    for (int k = 0; k < ncola; k += BLOCK_DIM, ia += sa, ib += sb) {
        int p = min(BLOCK_DIM, ncola - k);
        // chargement d'un element en memoire partagee
        if (i < lda && threadIdx.y < p)
            blockA[threadIdx.x][threadIdx.y] = a[ia + threadIdx.y + threadIdx.x * ncola];
        else
            blockA[threadIdx.x][threadIdx.y] = 0.0f;
        if (j < ncolb && threadIdx.x < p)
            blockB[threadIdx.x][threadIdx.y] = b[ib + threadIdx.y + threadIdx.x * ncolb];
        else
            blockB[threadIdx.x][threadIdx.y] = 0.0f;
        __syncthreads(); // chargement complet des blocs
        for (int l = 0; l < p; l++)
            s += blockA[threadIdx.x][l] * blockB[l][threadIdx.y];
        __syncthreads(); // fin des calculs sur ces blocs
    }
    if ((i < lda) && (j < ncolb))
        c[ic + threadIdx.y + threadIdx.x * ncolb] = s;
}

// ---- The seed's host code: device_matmul as the slides write it (with a
// cudaEvent pair around the launch), once per kernel, with the sizes of
// matmul.launch (128 x 128: 16 x 16 blocks of 8 x 8), and host_matmul for the
// check. The slides' host_matmul has typos (it loops on `j < k` before k is
// declared, indexes a with lda and b with ldb as if both were square, writes
// c[i * lda + j] outside the j loop, and its result is `res`): this one is
// what it clearly means, C = A (lda x ncol) times B (ncol x ldb), in double.
#include <cmath>
#include <cstdio>

#include "../course.h"   // host_timed (the CPU baseline)

typedef void (*matmul_kernel)(int, int, float *, int, float *, float *);

void device_matmul(matmul_kernel kernel, const char *name, int lda, int ncola, float *a, int ncolb, float *b, float *c)
{
    int nbx, nby;
    // compute required number of blocs in each direction
    nbx = (lda + BLOCK_DIM - 1) / BLOCK_DIM;
    nby = (ncolb + BLOCK_DIM - 1) / BLOCK_DIM;
    // allocate device memory
    float *da, *db, *dc;
    cudaMalloc(&da, lda * ncola * sizeof(float));
    cudaMalloc(&db, ncolb * ncola * sizeof(float));
    cudaMalloc(&dc, lda * ncolb * sizeof(float));
    cudaMemcpy(da, a, lda * ncola * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, ncolb * ncola * sizeof(float), cudaMemcpyHostToDevice);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    // (with -D I_IN_Y the grid's x covers the columns: the same grid here, the matrices being square)
    kernel<<<dim3(nbx, nby, 1), dim3(BLOCK_DIM, BLOCK_DIM, 1)>>>(lda, ncola, da, ncolb, db, dc);
    cudaEventRecord(stop);
    cudaDeviceSynchronize();
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    printf("%s: %.4f ms\n", name, ms);
    cudaMemcpy(c, dc, lda * ncolb * sizeof(float), cudaMemcpyDeviceToHost);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}

void host_matmul(int lda, int ncol, float *a, int ldb, float *b, float *res)
{
    for (int i = 0; i < lda; i++)
        for (int j = 0; j < ldb; j++) {
            double s = 0.0;
            for (int k = 0; k < ncol; k++)
                s += a[i * ncol + k] * b[k * ldb + j];
            res[i * ldb + j] = (float)s;
        }
}

int main()
{
    const int n = 128;
    float *a = new float[n * n], *b = new float[n * n], *c = new float[n * n], *ref = new float[n * n];
    for (int i = 0; i < n * n; i++) {
        a[i] = (float)(i % 9) - 4.0f;
        b[i] = (float)(i % 7) * 0.25f;
    }
    // The slides' CPU figure (2 GFlops), on the CPU running this program (course.h)
    host_timed("host_matmul 128 x 128", 2.0 * n * n * n, [&] { host_matmul(n, n, a, n, b, ref); });
    matmul_kernel kernels[] = {matmul, block_matmul};
    const char *names[] = {"matmul (global memory)", "block_matmul (8 x 8 shared blocks)"};
    double maxErr = 0;
    for (int k = 0; k < 2; k++) {
        device_matmul(kernels[k], names[k], n, n, a, n, b, c);
        for (int i = 0; i < n * n; i++)
            maxErr = fmax(maxErr, fabs(c[i] - ref[i]));
    }
    printf("Max error: %g\n", maxErr);
    bool ok = maxErr < 1e-3;   // exact here: the products are multiples of 1/4 and the sums stay small
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    delete[] a;
    delete[] b;
    delete[] c;
    delete[] ref;
    return ok ? 0 : 1;
}
