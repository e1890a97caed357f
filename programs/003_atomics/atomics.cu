// Seed 003, "Atomics" / "Example: reduction": global and shared memory atomics.
// Hand-written PTX twin: atomics.ptx (each atomicAdd whose result is unused is
// a red.* instruction there: a reduction in memory, no value returned).
// Float atomicAdd is order-dependent on hardware (float + is not associative),
// so the float kernels add integers converted to float: with |in[i]| < 1000
// and n <= 16000 every partial sum is an integer below 2^24, so every order
// gives the same, exact, result (the slide's "Floating-point atomics" point).
//
// atomic_reduce_global        : if (i < n) atomicAdd(total, in[i])       (int)
// atomic_reduce_shared        : block sum in a __shared__ int with atomicAdd,
//                               then one atomicAdd(total, blocksum) per block
// atomic_reduce_float_global  : atomicAdd(total, (float)in[i])           (float)
// atomic_reduce_float_shared  : same through a __shared__ float

extern "C" __global__ void atomic_reduce_global(const int *in, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, in[i]);
}

extern "C" __global__ void atomic_reduce_shared(const int *in, int *total, int n)
{
    __shared__ int acc;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        acc = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&acc, in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(total, acc);
}

extern "C" __global__ void atomic_reduce_float_global(const int *in, float *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, (float)in[i]);
}

extern "C" __global__ void atomic_reduce_float_shared(const int *in, float *total, int n)
{
    __shared__ float acc;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        acc = 0.0f;
    __syncthreads();
    if (i < n)
        atomicAdd(&acc, (float)in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(total, acc);
}

// ---- Host code (the seed has none): the sum of n = 16000 ints (random in
// [-1000, 1000), as atomics.launch fills `in`), four ways, each launch timed;
// the int totals start at 100 (as in atomics.launch), the float ones at 0, and
// each is checked against the CPU's sum (exact: every partial sum is an
// integer below 2^24).
// "Change this, see that" (README): --cflags "-D SCALE=1021" multiplies the
// inputs by SCALE, so that partial sums pass 2^24 and float additions round:
// the float totals then depend on the order the atomics reach the word, which
// --jobs 2 (blocks on two threads) changes from run to run; the int ones never.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#ifndef SCALE
#define SCALE 1
#endif

#include "../course.h"   // splitmix64 (random=SEED) and timed (a launch between two events)

int main()
{
    const int n = 16000;
    std::vector<int> hin(n);
    uint64_t seed = 1;
    for (int &x : hin)
        x = ((int)(splitmix64(seed) % 2000) - 1000) * SCALE;
    int *din, *dtotal_global, *dtotal_shared;
    float *dtotal_float_global, *dtotal_float_shared;
    cudaMalloc(&din, n * sizeof(int));
    cudaMalloc(&dtotal_global, sizeof(int));
    cudaMalloc(&dtotal_shared, sizeof(int));
    cudaMalloc(&dtotal_float_global, sizeof(float));
    cudaMalloc(&dtotal_float_shared, sizeof(float));
    cudaMemcpy(din, hin.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    const int hundred = 100;
    const float zero = 0.0f;
    cudaMemcpy(dtotal_global, &hundred, sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dtotal_shared, &hundred, sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dtotal_float_global, &zero, sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dtotal_float_shared, &zero, sizeof(float), cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    dim3 block(256), grid((n + 255) / 256);   // 63 blocks
    timed("atomic_reduce_global (int)", [&] { atomic_reduce_global<<<grid, block>>>(din, dtotal_global, n); });
    timed("atomic_reduce_shared (int)", [&] { atomic_reduce_shared<<<grid, block>>>(din, dtotal_shared, n); });
    timed("atomic_reduce_float_global", [&] { atomic_reduce_float_global<<<grid, block>>>(din, dtotal_float_global, n); });
    timed("atomic_reduce_float_shared", [&] { atomic_reduce_float_shared<<<grid, block>>>(din, dtotal_float_shared, n); });

    int sum = 0;
    double magnitude = 0;   // the sum of |x|: float rounding errors are bounded by n * 2^-24 of it
    for (int x : hin) {
        sum += x;
        magnitude += std::fabs((double)x);
    }
    int tg, ts;
    float fg, fs;
    cudaMemcpy(&tg, dtotal_global, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&ts, dtotal_shared, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&fg, dtotal_float_global, sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(&fs, dtotal_float_shared, sizeof(float), cudaMemcpyDeviceToHost);
    printf("sum on the CPU %d; int totals (from 100) %d %d; float totals %.1f %.1f\n", sum, tg, ts, fg, fs);
    bool ok = tg == 100 + sum && ts == 100 + sum;
    if (SCALE == 1)   // exact: every partial sum is an integer below 2^24
        ok = ok && fg == (float)sum && fs == (float)sum;
    else {
        printf("float totals off the exact sum by %.0f and %.0f (bound %.0f)\n", fg - (double)sum, fs - (double)sum,
               n * magnitude / 16777216.0);
        ok = ok && std::fabs(fg - (double)sum) <= n * magnitude / 16777216.0 &&
             std::fabs(fs - (double)sum) <= n * magnitude / 16777216.0;
    }
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    cudaFree(dtotal_global);
    cudaFree(dtotal_shared);
    cudaFree(dtotal_float_global);
    cudaFree(dtotal_float_shared);
    return ok ? 0 : 1;
}
