// Seed 002 (G80 slides, JD Gascuel 2007): matrix product P = M x N.
//
// The slides pass `Matrix` structs {width, height, pitch, elements} by value.
// A launch file can only pass pointers and scalars, so these kernels take the
// struct fields as separate parameters (the kernel bodies still build the
// slides' Matrix values).  Hand-written PTX twin: matmul_g80.ptx.
//
// Typos fixed (what the text clearly means):
//  * MatrixMulKernel: the loop bound `M.width` refers to the host matrix: the
//    kernel's is Md.width; the result is accumulated in `sum` but stored as
//    `Pvalue`: we store `sum`.
//  * blocMatrixMultiply: the inner loop runs `k < Md.width/BLOCK_SIZE`; it must
//    run over the BLOCK_SIZE columns of the tile (k < BLOCK_SIZE); the result
//    sub-matrix is GetSubMatrix(Pd, ...) (the slide says P, the host matrix).
//    As the slides require, widths and heights are multiples of BLOCK_SIZE (16):
//    this kernel is not bounds-checked.  The slides also pass
//    2*16*16*sizeof(float) bytes of dynamic shared memory although the kernel
//    only uses static __shared__ arrays; matmul_g80.launch does the same.

#define BLOCK_SIZE 16

typedef struct {
    int width;
    int height;
    int pitch;
    float *elements;
} Matrix;

// Single block: dimBlock(width, width), one thread per element of P.
// M, N, P are width x width with row pitches m_pitch, n_pitch, p_pitch (in floats).
extern "C" __global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd,
                                           int width, int m_pitch, int n_pitch, int p_pitch)
{
    int tx = threadIdx.x; // 2D Thread ID
    int ty = threadIdx.y;
    if (tx >= width || ty >= width)
        return;

    float sum = 0;
    for (int k = 0; k < width; ++k) {
        float a = Md[ty * m_pitch + k];
        float b = Nd[k * n_pitch + tx];
        sum += a * b;
    }
    Pd[ty * p_pitch + tx] = sum;
}

// Sub-matrix (BLOCK_SIZE x BLOCK_SIZE) at block column bcol, block row brow.
__device__ Matrix GetSubMatrix(Matrix A, int bcol, int brow)
{
    Matrix s;
    s.width = BLOCK_SIZE;
    s.height = BLOCK_SIZE;
    s.pitch = A.pitch;
    s.elements = A.elements + brow * BLOCK_SIZE * A.pitch + bcol * BLOCK_SIZE;
    return s;
}

// 16x16 blocks: dimBlock(16,16), dimGrid(N.width/16, M.height/16).
// M is m_height x m_width, N is m_width x n_width, P is m_height x n_width.
extern "C" __global__ void blocMatrixMultiply(float *M, float *N, float *P,
                                              int m_width, int m_height, int n_width,
                                              int m_pitch, int n_pitch, int p_pitch)
{
    Matrix Md = { m_width, m_height, m_pitch, M };
    Matrix Nd = { n_width, m_width, n_pitch, N };
    Matrix Pd = { n_width, m_height, p_pitch, P };

    int bx = blockIdx.x; // Block index
    int by = blockIdx.y;
    int tx = threadIdx.x; // Thread index
    int ty = threadIdx.y;

    float sum = 0.0f;
    for (int m = 0; m < Md.width / BLOCK_SIZE; ++m) {
        Matrix Msub = GetSubMatrix(Md, m, by); // Sous-matrices globales
        Matrix Nsub = GetSubMatrix(Nd, bx, m);

        __shared__ float Ms[BLOCK_SIZE][BLOCK_SIZE]; // Copies partagees
        __shared__ float Ns[BLOCK_SIZE][BLOCK_SIZE];

        Ms[ty][tx] = Msub.elements[tx + Msub.pitch * ty];
        Ns[ty][tx] = Nsub.elements[tx + Nsub.pitch * ty];

        __syncthreads();

        for (int k = 0; k < BLOCK_SIZE; ++k)
            sum += Ms[ty][k] * Ns[k][tx];

        __syncthreads();
    }

    Matrix Psub = GetSubMatrix(Pd, bx, by);
    Psub.elements[tx + ty * Psub.pitch] = sum;
}

// ---- The slides' host code ("Transferts CPU/GPU", "Implementation CPU",
// "Lancement du calcul"), with the sizes and inputs of matmul_g80.launch:
// MatrixMulKernel on 16 x 16 matrices (dimBlock(WIDTH, WIDTH), one block),
// then blocMatrixMultiply on 128 x 128 ones (dimGrid(N.width / 16, M.height / 16)
// and the slides' 2 * 16 * 16 * sizeof(float) bytes of dynamic shared memory).
// The kernels take the Matrix fields as parameters (see above). Each launch
// is timed and P checked against MatrixMulOnHost: the GPU's sum += a * b is
// one fma, the CPU's a multiply then an add, so they may differ in the last
// bits: each element within 1e-5 of the sum of |a * b|.
// clang's PTX has fma.rn.f32, which the G80 lacks (sm_20): this program runs
// on today's GPUs; matmul_g80_g80.launch runs the kernels on the G80.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "../course.h"   // splitmix64 (random=SEED), timed (a launch between two events), host_timed

// A width x height matrix on the host, random as the .launch's random=SEED
static Matrix AllocateMatrix(int width, int height, uint64_t seed)
{
    Matrix M = {width, height, width, (float *)malloc(width * height * sizeof(float))};
    for (int i = 0; i < width * height; i++)
        M.elements[i] = seed ? (float)((double)(splitmix64(seed) >> 40) / 8388608.0 - 1.0) : 0.0f;
    return M;
}

// The same matrix on the device, copied from the host (the slides' steps 1-3)
static Matrix AllocateDeviceMatrix(const Matrix M)
{
    Matrix Md = M;
    size_t size = Md.width * Md.height * sizeof(float);
    cudaMalloc((void **)&Md.elements, size);
    cudaMemcpy(Md.elements, M.elements, size, cudaMemcpyHostToDevice);
    return Md;
}

void MatrixMulOnHost(Matrix M, Matrix N, Matrix P)
{
    for (int i = 0; i < M.height; ++i)
        for (int j = 0; j < N.width; ++j) {
            float sum = 0.0;
            for (int k = 0; k < M.width; ++k) {
                float a = M.elements[i * M.pitch + k];
                float b = N.elements[k * N.pitch + j];
                sum += a * b;
            }
            P.elements[i * N.pitch + j] = sum;
        }
}

// P (copied back from Pd: the slides' step 5) against MatrixMulOnHost
static bool check(Matrix M, Matrix N, Matrix P, Matrix Pd)
{
    Matrix ref = AllocateMatrix(P.width, P.height, 0);
    cudaMemcpy(P.elements, Pd.elements, P.width * P.height * sizeof(float), cudaMemcpyDeviceToHost);
    MatrixMulOnHost(M, N, ref);
    bool ok = true;
    for (int i = 0; i < P.height; ++i)
        for (int j = 0; j < P.width; ++j) {
            float mag = 0.0f;
            for (int k = 0; k < M.width; ++k)
                mag += std::fabs(M.elements[i * M.pitch + k] * N.elements[k * N.pitch + j]);
            ok = ok && std::fabs(P.elements[i * P.pitch + j] - ref.elements[i * P.pitch + j]) <= 1e-5f * mag;
        }
    free(ref.elements);
    return ok;
}

int main()
{
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    // 1 seul bloc: WIDTH = 16
    const int WIDTH = 16;
    Matrix M = AllocateMatrix(WIDTH, WIDTH, 1), N = AllocateMatrix(WIDTH, WIDTH, 2), P = AllocateMatrix(WIDTH, WIDTH, 0);
    Matrix Md = AllocateDeviceMatrix(M), Nd = AllocateDeviceMatrix(N), Pd = AllocateDeviceMatrix(P);
    dim3 dimBlock(WIDTH, WIDTH);
    timed("MatrixMulKernel<<<1, (16, 16)>>>", [&] {
        MatrixMulKernel<<<1, dimBlock>>>(Md.elements, Nd.elements, Pd.elements, Md.width, Md.pitch, Nd.pitch, Pd.pitch);
    });
    bool ok = check(M, N, P, Pd);

    // Blocs de 16 x 16 en memoire partagee: 128 x 128
    Matrix M2 = AllocateMatrix(128, 128, 3), N2 = AllocateMatrix(128, 128, 4), P2 = AllocateMatrix(128, 128, 0);
    Matrix M2d = AllocateDeviceMatrix(M2), N2d = AllocateDeviceMatrix(N2), P2d = AllocateDeviceMatrix(P2);
    dim3 dimBlock2(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(N2.width / dimBlock2.x, M2.height / dimBlock2.y);
    size_t shared = 2 * BLOCK_SIZE * BLOCK_SIZE * sizeof(float);
    timed("blocMatrixMultiply<<<(8, 8), (16, 16)>>>", [&] {
        blocMatrixMultiply<<<dimGrid, dimBlock2, shared>>>(M2d.elements, N2d.elements, P2d.elements, M2d.width,
                                                           M2d.height, N2d.width, M2d.pitch, N2d.pitch, P2d.pitch);
    });
    ok = check(M2, N2, P2, P2d) && ok;
    // The slides' "Implementation CPU", on the CPU running this program (course.h)
    host_timed("MatrixMulOnHost 128 x 128", 2.0 * 128 * 128 * 128, [&] { MatrixMulOnHost(M2, N2, P2); });

    printf("Check: %s\n", ok ? "OK" : "FAILED");
    Matrix all[] = {M, N, P, M2, N2, P2}, dall[] = {Md, Nd, Pd, M2d, N2d, P2d};
    for (Matrix &m : all)
        free(m.elements);
    for (Matrix &m : dall)
        cudaFree(m.elements);   // the slides' step 6
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ok ? 0 : 1;
}
