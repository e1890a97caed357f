// Seed 001, exercise 2: square matrix product C = A * B (n x n, row-major).
// Hand-written PTX twin: matmul.ptx.
// matmul_naive: global memory only (one thread per C element).
// matmul_optimized: 32x32 shared-memory tiles (launch with a 32x32 block);
// tiles that overhang the matrix are padded with zeros, so any n works.
// nvcc contracts "sum += a * b" into fma.rn.f32.

#define TILE_SIZE 32

extern "C" __global__ void matmul_naive(float *A, float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++) {
            // Acces non-coalesce en k
            sum += A[row * n + k] * B[k * n + col];
        }
        C[row * n + col] = sum;
    }
}

extern "C" __global__ void matmul_optimized(float *A, float *B, float *C, int n)
{
    __shared__ float As[TILE_SIZE][TILE_SIZE];
    __shared__ float Bs[TILE_SIZE][TILE_SIZE];

    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    float sum = 0.0f;

    for (int t = 0; t < (n + TILE_SIZE - 1) / TILE_SIZE; t++) {
        // Charger tile de A en Shared Memory
        if (row < n && t * TILE_SIZE + tx < n) {
            As[ty][tx] = A[row * n + t * TILE_SIZE + tx];
        } else {
            As[ty][tx] = 0.0f;
        }
        // Charger tile de B en Shared Memory
        if (col < n && t * TILE_SIZE + ty < n) {
            Bs[ty][tx] = B[(t * TILE_SIZE + ty) * n + col];
        } else {
            Bs[ty][tx] = 0.0f;
        }

        __syncthreads();

        for (int k = 0; k < TILE_SIZE; k++) {
            sum += As[ty][k] * Bs[k][tx];
        }

        __syncthreads();
    }

    if (row < n && col < n) {
        C[row * n + col] = sum;
    }
}
