// Seed 002 (G80 slides, JD Gascuel 2007): the matrix product with the slides'
// own signature, three `Matrix` structs {width, height, pitch, elements}
// passed by value.  Its PTX has .b8 array parameters read at offsets, which is
// what this file is for (the parser and OPCODES.txt); a launch file can only
// pass pointers and scalars, so it has no test case.  The kernels that run
// (MatrixMulKernel, blocMatrixMultiply) are programs/002_matmul_g80/matmul_g80.cu.

typedef struct {
    int width;
    int height;
    int pitch;
    float *elements;
} Matrix;

extern "C" __global__ void MatrixMulKernel_struct(Matrix Md, Matrix Nd, Matrix Pd)
{
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    if (tx >= Nd.width || ty >= Md.height)
        return;

    float sum = 0;
    for (int k = 0; k < Md.width; ++k) {
        float a = Md.elements[ty * Md.pitch + k];
        float b = Nd.elements[k * Nd.pitch + tx];
        sum += a * b;
    }
    Pd.elements[ty * Pd.pitch + tx] = sum;
}
