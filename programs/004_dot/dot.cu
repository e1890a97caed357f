// Seed 004: dot product, one partial sum per block (the CPU adds the partials).  PTX twin: dot.ptx.
// BLOCK_DIM = 256: launch with a 256-thread block, grid ceil(n/256).
//   r[t] = a[i]*b[i] (0 past n); tree: step = 128, 64, ..., 1: r[t] += r[t+step]
//   c[blockIdx.x] = r[0]   (every thread of the block stores it, as in the seed)
// The product and the sums are separate roundings (mul.rn then add.rn):
// the product goes through shared memory before any addition.

#define BLOCK_DIM 256

extern "C" __global__ void dot_product(float *a, float *b, float *c, int n)
{
    __shared__ float r[BLOCK_DIM];
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int step = BLOCK_DIM >> 1;
    // chargement des donnees
    if (i < n) {
        r[threadIdx.x] = a[i] * b[i];
    } else
        r[threadIdx.x] = 0.0f;
    __syncthreads();
    // calcul de la somme
    while (step >= 1) {
        if (threadIdx.x < step)
            r[threadIdx.x] += r[threadIdx.x + step];
        __syncthreads();
        step >>= 1;
    }
    c[blockIdx.x] = r[0];
}
