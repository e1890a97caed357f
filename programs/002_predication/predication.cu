// Seed 002, "Controle de flux et SIMD 2/3": the slide's
//     if (x == 10) c = c + 1;
// which the G80 compiler turned into predicated instructions, no branch:
//     LDR r5 <- X ; p1 <- r5 eq 10 ; <p1> LDR r1 <- C ; <p1> ADD r1, r1, 1 ; <p1> STR r1 -> C
// One thread per element: X and C are int arrays of n elements.
// Hand-written PTX twin: predication.ptx.
//
// predication_if      the slide's predicated form: setp, then @p ld / @p add / @p st
// predication_branch  the SAME C code, compiled with a branch around the update
//                     (what a compiler may also choose): the PTX differs, the
//                     result does not.  Compare the branch targets and the
//                     instructions executed.

extern "C" __global__ void predication_if(const int *X, int *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = X[i];
        if (x == 10)
            C[i] = C[i] + 1;
    }
}

extern "C" __global__ void predication_branch(const int *X, int *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = X[i];
        if (x == 10)
            C[i] = C[i] + 1;
    }
}

// ---- Host code (the seed has none for this slide): the four launches of
// predication.launch over the same buffers (X random in [-1000, 1000), then
// X = 10 everywhere), each timed and checked against C + (X == 10).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // random_f32/random_s32 (random=SEED) and timed (a launch between two events)


int main()
{
    const int n = 65536;
    const size_t bytes = n * sizeof(int);
    std::vector<int> hX = random_s32(1, n), hTen(n, 10), hC = random_s32(2, n), hCall = random_s32(3, n);
    int *dX, *dTen, *dC_if, *dC_branch, *dC_if_all, *dC_branch_all;
    cudaMalloc(&dX, bytes);
    cudaMalloc(&dTen, bytes);
    cudaMalloc(&dC_if, bytes);
    cudaMalloc(&dC_branch, bytes);
    cudaMalloc(&dC_if_all, bytes);
    cudaMalloc(&dC_branch_all, bytes);
    cudaMemcpy(dX, hX.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dTen, hTen.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dC_if, hC.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dC_branch, hC.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dC_if_all, hCall.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dC_branch_all, hCall.data(), bytes, cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    dim3 block(256), grid((n + 255) / 256);
    timed("predication_if, X random", [&] { predication_if<<<grid, block>>>(dX, dC_if, n); });
    timed("predication_branch, X random", [&] { predication_branch<<<grid, block>>>(dX, dC_branch, n); });
    timed("predication_if, X = 10", [&] { predication_if<<<grid, block>>>(dTen, dC_if_all, n); });
    timed("predication_branch, X = 10", [&] { predication_branch<<<grid, block>>>(dTen, dC_branch_all, n); });

    // if (x == 10) c = c + 1;  on the CPU
    bool ok = true;
    int updated = 0;
    std::vector<int> got(n);
    int *results[] = {dC_if, dC_branch, dC_if_all, dC_branch_all};
    for (int r = 0; r < 4; r++) {
        cudaMemcpy(got.data(), results[r], bytes, cudaMemcpyDeviceToHost);
        const std::vector<int> &X = r < 2 ? hX : hTen, &C = r < 2 ? hC : hCall;
        for (int i = 0; i < n; i++) {
            int want = C[i] + (X[i] == 10 ? 1 : 0);
            ok = ok && got[i] == want;
            if (r == 0 && X[i] == 10)
                updated++;
        }
    }
    printf("x == 10 in %d of %d elements of X\n", updated, n);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(dX);
    cudaFree(dTen);
    cudaFree(dC_if);
    cudaFree(dC_branch);
    cudaFree(dC_if_all);
    cudaFree(dC_branch_all);
    return ok ? 0 : 1;
}
