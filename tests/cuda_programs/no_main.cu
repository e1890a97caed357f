// Kernels without a main(): run as a .ptx would be, with --kernel, --grid, --block, --arg.
extern "C" __global__ void scale(float *v, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= s;
}

__global__ void fill(int *v) { v[threadIdx.x] = threadIdx.x * 3; }
