// Seed 003, "VectorAdd using unified memory": vectorAdd2<<<numElements, 1>>>(A, B, C)
// -- one single-thread block per element (the slide does not show the kernel;
// this is what the launch implies).  Memory management is host-side only.
extern "C" __global__ void vectorAdd2(const float *A, const float *B, float *C, int n)
{
    int i = blockIdx.x;
    if (i < n)
        C[i] = A[i] + B[i];
}
