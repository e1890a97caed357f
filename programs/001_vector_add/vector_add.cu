// Seed 001 (TP "Optimisation Memoire CUDA"), exercise 1: vector addition.
// Hand-written PTX twin: vector_add.ptx.
// vector_add_naive: one thread per element, direct global accesses.
// vector_add_optimized: same coalesced indexing plus a grid-stride loop, so a
// grid smaller than N still covers every element.
// Sizes are parameters; every access is bounds-checked.

extern "C" __global__ void vector_add_naive(float *A, float *B, float *C, int N)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        // Chaque thread accede directement a Global Memory
        C[idx] = A[idx] + B[idx];
    }
}

extern "C" __global__ void vector_add_optimized(float *A, float *B, float *C, int N)
{
    // Acces coalesce : threads consecutifs lisent adresses consecutives
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    // Traiter plusieurs elements par thread
    int stride = gridDim.x * blockDim.x;
    for (int i = idx; i < N; i += stride) {
        C[i] = A[i] + B[i];
    }
}
