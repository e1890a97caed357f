// Seed 003, "Device functions", "Device-side functions: C library support", "Device-side intrinsics" and
// "Atomics":
//   1. a __device__ function and a __host__ __device__ one called from a kernel (the second also on the CPU);
//   2. the hardware math intrinsics against the C library: __sinf, __expf, __fdividef against sinf, expf
//      and '/', one kernel each, with their largest error in ulps against a double-precision CPU reference;
//   3. printf from a kernel;
//   4. every atomic family -- atomicAdd, Sub, Min, Max, Inc, Dec, And, Or, Xor, Exch, CAS -- on int and
//      unsigned, atomicAdd and atomicExch on float, in global memory (all the threads on one counter each)
//      and in shared memory (one set of counters per block), checked against the CPU.
// Each launch is timed with events.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>

// ---- 1. device functions
__device__ int square_plus_one(int i) { return i * i + 1; }   // compiled for the GPU only
__host__ __device__ int mix(int i) { return (i * 37 + 11) % 101; }   // for both: the CPU checks with it

extern "C" __global__ void call_functions(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = square_plus_one(mix(i));
}

// ---- 2. intrinsics against the C library, one kernel each
extern "C" __global__ void k_sinf(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = sinf(x[i]); }
extern "C" __global__ void k___sinf(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = __sinf(x[i]); }
extern "C" __global__ void k_expf(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = expf(x[i]); }
extern "C" __global__ void k___expf(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = __expf(x[i]); }
extern "C" __global__ void k_div(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] / (x[i] + 7.5f); }
extern "C" __global__ void k___fdividef(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = __fdividef(x[i], x[i] + 7.5f); }

// ---- 3. printf from a kernel: the first lane of each warp of block 0
extern "C" __global__ void hello(int n)
{
    if (blockIdx.x == 0 && threadIdx.x % 32 == 0)
        printf("block %d, thread %3d (warp %d): square_plus_one(mix(%d)) = %d of %d\n", blockIdx.x, threadIdx.x,
               threadIdx.x / 32, threadIdx.x, square_plus_one(mix(threadIdx.x)), n);
}

// ---- 4. atomics. The counters, in this order:
enum { ADD, SUB, MIN, MAX, INC, DEC, AND, OR, XOR, EXCH, CAS, NCOUNTERS };
#define LIMIT 1000u   // atomicInc and atomicDec wrap at this value
__host__ __device__ int value(int i) { return (i * 7919) % 10007 - 5000; }   // each thread's operand
__host__ __device__ unsigned bits(int i) { return 1u << (i % 29); }

// every thread applies every atomic once to the same global counters; olds[i] keeps what atomicExch returned
extern "C" __global__ void atomics_global(int *c, float *f, int *olds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = value(i);
    atomicAdd(&c[ADD], v);
    atomicSub(&c[SUB], v);
    atomicMin(&c[MIN], v);
    atomicMax(&c[MAX], v);
    atomicInc((unsigned *)&c[INC], LIMIT);   // old >= LIMIT ? 0 : old + 1
    atomicDec((unsigned *)&c[DEC], LIMIT);   // old == 0 || old > LIMIT ? LIMIT : old - 1
    atomicAnd(&c[AND], ~(int)bits(i));
    atomicOr(&c[OR], (int)bits(i));
    atomicXor(&c[XOR], v);
    olds[i] = atomicExch(&c[EXCH], v);
    int old = c[CAS], seen;                    // an increment by compare-and-swap: retry until no one came between
    do {
        seen = old;
        old = atomicCAS(&c[CAS], seen, seen + 1);
    } while (old != seen);
    atomicAdd(&f[0], (float)(v % 64));         // small integers: every order gives the same exact sum
    atomicExch(&f[1], (float)v);
}

// the same in shared memory, one set per block, then copied out: out[block * NCOUNTERS + k]
extern "C" __global__ void atomics_shared(int *out, float *fout, int n)
{
    __shared__ int c[NCOUNTERS];
    __shared__ float f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        for (int k = 0; k < NCOUNTERS; k++)
            c[k] = 0;
        c[MIN] = INT_MAX; c[MAX] = INT_MIN; c[DEC] = 500; c[AND] = -1; c[EXCH] = -1;
        f = 0.0f;
    }
    __syncthreads();
    if (i < n) {
        int v = value(i);
        atomicAdd(&c[ADD], v);
        atomicSub(&c[SUB], v);
        atomicMin(&c[MIN], v);
        atomicMax(&c[MAX], v);
        atomicInc((unsigned *)&c[INC], LIMIT);
        atomicDec((unsigned *)&c[DEC], LIMIT);
        atomicAnd(&c[AND], ~(int)bits(i));
        atomicOr(&c[OR], (int)bits(i));
        atomicXor(&c[XOR], v);
        atomicExch(&c[EXCH], v);
        int old = c[CAS], seen;
        do {
            seen = old;
            old = atomicCAS(&c[CAS], seen, seen + 1);
        } while (old != seen);
        atomicAdd(&f, (float)(v % 64));
    }
    __syncthreads();
    if (threadIdx.x < NCOUNTERS)
        out[blockIdx.x * NCOUNTERS + threadIdx.x] = c[threadIdx.x];
    if (threadIdx.x == 0)
        fout[blockIdx.x] = f;
}

// ---- the host
#include "../course.h"   // begin() and end_us(): the time between two CUDA events

// floats as integers that grow with the value: the ulp distance is their difference
static long long ordered(float f)
{
    int b;
    memcpy(&b, &f, 4);
    return b < 0 ? -(long long)(b & 0x7fffffff) : (long long)b;
}
static long long ulps(float a, float b) { return std::llabs(ordered(a) - ordered(b)); }

// the CPU's counters after threads [first, first + count) applied every atomic, starting from the initial values
static void cpu_counters(int first, int count, int init_dec, long long c[NCOUNTERS], float *fsum)
{
    long long add = 0, mn = INT_MAX, mx = INT_MIN;
    unsigned inc = 0, dec = (unsigned)init_dec, andv = ~0u, orv = 0, xorv = 0;
    double fs = 0;
    for (int i = first; i < first + count; i++) {
        int v = value(i);
        add += v;
        mn = std::min(mn, (long long)v);
        mx = std::max(mx, (long long)v);
        inc = inc >= LIMIT ? 0 : inc + 1;
        dec = (dec == 0 || dec > LIMIT) ? LIMIT : dec - 1;
        andv &= ~bits(i);
        orv |= bits(i);
        xorv ^= (unsigned)v;
        fs += (float)(v % 64);
    }
    c[ADD] = (int)(unsigned)add; c[SUB] = (int)(unsigned)-add; c[MIN] = mn; c[MAX] = mx;
    c[INC] = (int)inc; c[DEC] = (int)dec; c[AND] = (int)andv; c[OR] = (int)orv; c[XOR] = (int)xorv;
    c[EXCH] = 0; c[CAS] = count;
    *fsum = (float)fs;
}

int main()
{
    bool ok = true;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    const int block = 256;

    printf("-- 1. device functions\n");
    {
        const int n = 1 << 16;
        int *d, *h = (int *)malloc(n * sizeof(int));
        cudaMalloc(&d, n * sizeof(int));
        begin();
        call_functions<<<n / block, block>>>(d, n);
        float us = end_us();
        cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < n; i++)
            if (h[i] != mix(i) * mix(i) + 1)
                bad++;
        printf("call_functions, %d threads: %.2f us, out[5] = %d (mix(5) = %d, the CPU's)%s\n", n, us, h[5], mix(5),
               bad ? ", WRONG" : "");
        ok = ok && bad == 0;
        cudaFree(d);
        free(h);
    }

    printf("-- 2. intrinsics against the C library (%s)\n", "largest error against a double-precision reference");
    {
        const int n = 1 << 16;
        float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float)), *dx, *dy;
        cudaMalloc(&dx, n * sizeof(float));
        cudaMalloc(&dy, n * sizeof(float));
        struct { const char *name; void (*k)(const float *, float *, int); double lo, hi; int fn; } t[] = {
            {"sinf", k_sinf, -M_PI, M_PI, 0}, {"__sinf", k___sinf, -M_PI, M_PI, 0},
            {"expf", k_expf, -10, 10, 1},     {"__expf", k___expf, -10, 10, 1},
            {"x / (x + 7.5)", k_div, 0, 100, 2}, {"__fdividef(x, x + 7.5)", k___fdividef, 0, 100, 2},
        };
        for (auto &e : t) {
            for (int i = 0; i < n; i++)
                x[i] = (float)(e.lo + (e.hi - e.lo) * i / (n - 1));
            cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
            begin();
            e.k<<<n / block, block>>>(dx, dy, n);
            float us = end_us();
            cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
            long long worst = 0;
            double worst_abs = 0;
            int at = 0;
            for (int i = 0; i < n; i++) {
                double r = e.fn == 0 ? std::sin((double)x[i]) : e.fn == 1 ? std::exp((double)x[i])
                                                                            : (double)x[i] / ((double)x[i] + 7.5);
                if (e.fn == 2)   // the divisor the GPU divides by is the float x + 7.5f
                    r = (double)x[i] / (double)(x[i] + 7.5f);
                long long u = ulps(y[i], (float)r);
                if (u > worst)
                    worst = u, at = i;
                worst_abs = std::max(worst_abs, std::fabs(y[i] - r));
            }
            // the CUDA programming guide's bounds: sinf 2 ulp, expf 2 ulp, '/' correctly rounded (0 ulp);
            // __sinf 2^-21.41 absolute on [-pi, pi]; __expf 2 + floor(|1.16 x|) ulp (here |x| <= 10: 13);
            // __fdividef 2 ulp for a divisor in [2^-126, 2^126]
            bool within = e.k == k_sinf ? worst <= 2 : e.k == k_expf ? worst <= 2 : e.k == k_div ? worst == 0
                        : e.k == k___sinf ? worst_abs <= std::pow(2.0, -21.41)
                        : e.k == k___expf ? worst <= 2 + (long long)std::floor(1.16 * 10) : worst <= 2;
            char where[48] = "";
            if (worst > 0)
                snprintf(where, sizeof where, " (at x = %.6f)", x[at]);
            printf("%-24s %7.2f us   %3lld ulp%s, %.3g absolute%s\n", e.name, us, worst, where, worst_abs,
                   within ? "" : "  OUTSIDE THE GUIDE'S BOUND");
            ok = ok && within;
        }
        cudaFree(dx); cudaFree(dy);
        free(x); free(y);
    }

    printf("-- 3. printf from a kernel\n");
    fflush(stdout);
    hello<<<2, 128>>>(42);
    cudaDeviceSynchronize();   // the device's printf buffer is flushed when the host waits for the kernel

    printf("-- 4. atomics\n");
    {
        const int blocks = 64, n = blocks * block;
        int *dc, *dolds, *dout, init[NCOUNTERS] = {0, 0, INT_MAX, INT_MIN, 0, 500, -1, 0, 0, -1, 0};
        float *df, *dfout, finit[2] = {0, 0};
        cudaMalloc(&dc, sizeof init);
        cudaMalloc(&df, sizeof finit);
        cudaMalloc(&dolds, n * sizeof(int));
        cudaMalloc(&dout, blocks * NCOUNTERS * sizeof(int));
        cudaMalloc(&dfout, blocks * sizeof(float));
        cudaMemcpy(dc, init, sizeof init, cudaMemcpyHostToDevice);
        cudaMemcpy(df, finit, sizeof finit, cudaMemcpyHostToDevice);
        begin();
        atomics_global<<<blocks, block>>>(dc, df, dolds, n);
        float us_global = end_us();
        begin();
        atomics_shared<<<blocks, block>>>(dout, dfout, n);
        float us_shared = end_us();
        int c[NCOUNTERS], *out = (int *)malloc(blocks * NCOUNTERS * sizeof(int));
        std::vector<int> olds(n);
        float f[2], *fout = (float *)malloc(blocks * sizeof(float));
        cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
        cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost);
        cudaMemcpy(olds.data(), dolds, n * sizeof(int), cudaMemcpyDeviceToHost);
        cudaMemcpy(out, dout, blocks * NCOUNTERS * sizeof(int), cudaMemcpyDeviceToHost);
        cudaMemcpy(fout, dfout, blocks * sizeof(float), cudaMemcpyDeviceToHost);

        const char *names[NCOUNTERS] = {"atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicInc (1000)",
                                        "atomicDec (1000)", "atomicAnd", "atomicOr", "atomicXor", "atomicExch",
                                        "atomicCAS (+1 loop)"};
        long long want[NCOUNTERS];
        float fwant;
        cpu_counters(0, n, 500, want, &fwant);
        // atomicExch: the final value and the n values returned are the initial value and the n values
        // written, in some order: the same multiset
        std::vector<int> a(olds), b;
        a.push_back(c[EXCH]);
        b.push_back(-1);
        for (int i = 0; i < n; i++)
            b.push_back(value(i));
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        bool exch_ok = a == b;
        printf("global memory, %d threads on one counter each: %.2f us\n", n, us_global);
        for (int k = 0; k < NCOUNTERS; k++) {
            bool good = k == EXCH ? exch_ok : c[k] == (int)want[k];
            printf("  %-20s %11d  (0x%08x)  %s\n", names[k], c[k], (unsigned)c[k],
                   k == EXCH ? (good ? "a value some thread wrote; olds + final = initial + values" : "WRONG")
                             : good ? "= CPU" : "WRONG");
            ok = ok && good;
        }
        bool fexch = false;
        for (int i = 0; i < n; i++)
            fexch = fexch || f[1] == (float)value(i);
        printf("  %-20s %11.1f  %s\n", "atomicAdd (float)", f[0], f[0] == fwant ? "= CPU (exact: small integers)" : "WRONG");
        printf("  %-20s %11.1f  %s\n", "atomicExch (float)", f[1], fexch ? "a value some thread wrote" : "WRONG");
        ok = ok && f[0] == fwant && fexch;

        int bad = 0;
        for (int blk = 0; blk < blocks; blk++) {
            long long w[NCOUNTERS];
            float fw;
            cpu_counters(blk * block, block, 500, w, &fw);
            for (int k = 0; k < NCOUNTERS; k++) {
                int got = out[blk * NCOUNTERS + k];
                bool good = k != EXCH ? got == (int)w[k] : false;
                if (k == EXCH)
                    for (int i = blk * block; i < (blk + 1) * block; i++)
                        good = good || got == value(i);
                if (!good && bad++ < 5)
                    printf("  block %d %s: %d, the CPU says %lld\n", blk, names[k], got, w[k]);
            }
            if (fout[blk] != fw && bad++ < 5)
                printf("  block %d atomicAdd (float): %g, the CPU says %g\n", blk, fout[blk], fw);
        }
        printf("shared memory, %d blocks of %d threads, one set of counters each: %.2f us, %s\n", blocks, block,
               us_shared, bad ? "WRONG" : "every block's counters = CPU");
        printf("  block 0: add %d, min %d, max %d, inc %d, dec %d, or 0x%08x, cas %d, float add %.1f\n", out[ADD],
               out[MIN], out[MAX], out[INC], out[DEC], (unsigned)out[OR], out[CAS], fout[0]);
        ok = ok && bad == 0;
        cudaFree(dc); cudaFree(df); cudaFree(dolds); cudaFree(dout); cudaFree(dfout);
        free(out); free(fout);
    }

    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        ok = false;
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
