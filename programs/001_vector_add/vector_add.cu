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

// ---- The seed's host code (its two programs, vector_add_naive.cu and
// vector_add_optimized.cu, in one), with the sizes of vector_add.launch: the
// grid-stride kernel runs twice, with the seed's grid and with 264 blocks.
#include <cuda_runtime.h>
#include <cstdlib>
#include <iostream>
#include <vector>

constexpr int VECTOR_SIZE = 1024 * 1024;

inline void checkCuda(cudaError_t err, const char *msg)
{
    if (err != cudaSuccess) {
        std::cerr << msg << " : " << cudaGetErrorString(err) << '\n';
        std::exit(EXIT_FAILURE);
    }
}

// The seed checks the first 10 elements; every one is checked here.
static bool check(const std::vector<float> &hC)
{
    for (float c : hC)
        if (c != 3.0f)
            return false;
    return true;
}

int main()
{
    const int N = VECTOR_SIZE;
    const size_t nBytes = N * sizeof(float);
    std::vector<float> hA(N, 1.0f), hB(N, 2.0f), hC(N, 0.0f);
    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    checkCuda(cudaMalloc(&dA, nBytes), "cudaMalloc dA");
    checkCuda(cudaMalloc(&dB, nBytes), "cudaMalloc dB");
    checkCuda(cudaMalloc(&dC, nBytes), "cudaMalloc dC");
    checkCuda(cudaMemcpy(dA, hA.data(), nBytes, cudaMemcpyHostToDevice), "cpy A");
    checkCuda(cudaMemcpy(dB, hB.data(), nBytes, cudaMemcpyHostToDevice), "cpy B");

    dim3 block(256);
    dim3 grid((N + block.x - 1) / block.x);
    cudaEvent_t start, stop;
    checkCuda(cudaEventCreate(&start), "event create start");
    checkCuda(cudaEventCreate(&stop), "event create stop");
    bool ok = true;

    // Naive
    checkCuda(cudaEventRecord(start), "record start naive");
    vector_add_naive<<<grid, block>>>(dA, dB, dC, N);
    checkCuda(cudaEventRecord(stop), "record stop naive");
    checkCuda(cudaEventSynchronize(stop), "sync stop naive");
    float msNaive = 0.0f;
    checkCuda(cudaEventElapsedTime(&msNaive, start, stop), "elapsed naive");
    std::cout << "Naive Vector Add: " << msNaive << " ms\n";
    checkCuda(cudaMemcpy(hC.data(), dC, nBytes, cudaMemcpyDeviceToHost), "cpy C naive");
    ok = ok && check(hC);

    // Optimized (grid-stride loop), with the seed's grid, then with 264 blocks (2 per SM of an H100)
    const unsigned grids[] = {grid.x, 264};
    for (unsigned g : grids) {
        checkCuda(cudaMemset(dC, 0, nBytes), "memset C");
        checkCuda(cudaEventRecord(start), "record start opt");
        vector_add_optimized<<<g, block>>>(dA, dB, dC, N);
        checkCuda(cudaEventRecord(stop), "record stop opt");
        checkCuda(cudaEventSynchronize(stop), "sync stop opt");
        float msOpt = 0.0f;
        checkCuda(cudaEventElapsedTime(&msOpt, start, stop), "elapsed opt");
        std::cout << "Optimized Vector Add (" << g << " blocks): " << msOpt << " ms\n";
        checkCuda(cudaMemcpy(hC.data(), dC, nBytes, cudaMemcpyDeviceToHost), "cpy C opt");
        ok = ok && check(hC);
    }
    std::cout << "Check: " << (ok ? "OK" : "FAILED") << '\n';

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
