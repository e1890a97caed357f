// A whole CUDA program as the course writes them: allocate, copy, launch,
// copy back, check against the CPU. Run by tests/cuda_programs.sh.
#include <cstdio>
#include <cstdlib>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        a[i] = i * 0.5f;
        b[i] = 1000.0f - i;
    }
    float *da, *db, *dc;
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
    int block = 256, grid = (n + block - 1) / block;
    vector_add<<<grid, block>>>(da, db, dc, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += c[i] != a[i] + b[i];
    printf("n=%d grid=%d status=%s c[%d]=%.1f\n", n, grid, cudaGetErrorString(e), n - 1, c[n - 1]);
    printf("Check: %s\n", bad ? "FAILED" : "OK");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    free(a);
    free(b);
    free(c);
    return bad ? 1 : 0;
}
