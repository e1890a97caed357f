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

extern "C" __global__ void matmul(int lda, int ncola, float *a, int ncolb, float *b, float *c)
{
    // get indices in the matrix
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int j = threadIdx.y + blockIdx.y * blockDim.y;
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
    __shared__ float blockA[BLOCK_DIM][BLOCK_DIM];
    __shared__ float blockB[BLOCK_DIM][BLOCK_DIM];
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
