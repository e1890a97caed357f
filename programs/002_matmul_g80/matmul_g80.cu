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
