// Seed 000, "Les latences": the latency of a global load served by L1, by L2 and by
// DRAM, and of an FMA, measured the way the microbenchmark papers do: a chain of
// dependent steps (each needs the one before), timed with events at two lengths, the
// difference divided by the extra steps (so the launch and the cold start cancel).
//
//   chase          one thread follows a ring of indices: j = next[j]. The ring's size
//                  decides who serves it: 4 KiB stays in L1, 1 MiB is beyond L1 but its
//                  second lap hits L2, and the first lap of a ring is always cold (DRAM).
//   fma_dependent  one warp, x = x * a + b: each FMA waits for the one before.
//   fma_independent one warp, 4 chains of FMAs in the same loop: the scheduler
//                  issues one while the others wait (instruction-level parallelism).
// The same dependent chain with 16 warps in the block (4 per scheduler) shows the other
// way to hide a latency: more warps (thread-level parallelism, occupancy).
#include <cstdio>
#include <cstdlib>
#include <cmath>

extern "C" __global__ void chase(const unsigned *next, int steps, unsigned *out)
{
    unsigned j = 0;
    for (int s = 0; s < steps; s++)
        j = next[j];
    out[0] = j;
}

extern "C" __global__ void fma_dependent(float *out, int steps, float a, float b)
{
    float x = threadIdx.x;
    for (int s = 0; s < steps; s++)
        x = x * a + b;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

extern "C" __global__ void fma_independent(float *out, int steps, float a, float b)
{
    float x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
    for (int s = 0; s < steps; s += 4) {   // 4 FMAs per pass, as many in all as fma_dependent's
        x0 = x0 * a + b;
        x1 = x1 * a + b;
        x2 = x2 * a + b;
        x3 = x3 * a + b;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3;
}

static cudaEvent_t start, stop;
static double clock_mhz;

static double time_us()
{
    float ms = 0;
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    return ms * 1000.0;
}

static double chase_us(const unsigned *next, int steps, unsigned *out)
{
    cudaEventRecord(start);
    chase<<<1, 1>>>(next, steps, out);
    cudaEventRecord(stop);
    return time_us();
}

// A ring of `lines` indices, one per 128-byte line: next[i * 32] = (i + 1) * 32.
static unsigned *make_ring(unsigned *host, int lines)
{
    const int stride = 32;   // unsigned ints: 128 bytes
    for (int i = 0; i < lines; i++)
        host[i * stride] = (unsigned)(((i + 1) % lines) * stride);
    unsigned *dev;
    cudaMalloc(&dev, (size_t)lines * stride * sizeof(unsigned));
    cudaMemcpy(dev, host, (size_t)lines * stride * sizeof(unsigned), cudaMemcpyHostToDevice);
    return dev;
}

static bool ok = true;

// One line per measurement: the steps of the two runs, their times, the cycles per step.
static void report(const char *what, int s1, double t1, int s2, double t2)
{
    double cycles = (t2 - t1) / (s2 - s1) * clock_mhz;   // us * MHz = cycles
    printf("%-34s %6d steps %8.2f us, %6d steps %8.2f us: %6.1f cycles per step\n", what, s1, t1, s2, t2, cycles);
}

// CPU check of the chase: where j ends after `steps` steps.
static void check_chase(const unsigned *host, int steps, unsigned *dout)
{
    unsigned j = 0, got;
    for (int s = 0; s < steps; s++)
        j = host[j];
    cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost);
    if (got != j) {
        printf("chase of %d steps ends at %u, the CPU says %u\n", steps, got, j);
        ok = false;
    }
}

static void check_fma(const float *dout, int n, int steps, float a, float b, bool four)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpy(h, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; t++) {
        float tx = (float)(t % 1024), want = 0;
        for (int c = 0; c < (four ? 4 : 1); c++) {
            float x = tx + c;
            for (int s = 0; s < (four ? steps / 4 : steps); s++)
                x = fmaf(x, a, b);
            want += x;
        }
        if (fabsf(h[t] - want) > 1e-4f * fabsf(want) + 1e-6f) {
            printf("fma thread %d: %g, the CPU says %g\n", t, h[t], want);
            ok = false;
            break;
        }
    }
    free(h);
}

int main()
{
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
    clock_mhz = khz / 1000.0;
    printf("SM clock %.0f MHz (cycles = us x MHz)\n", clock_mhz);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    // ---- global loads: L1, L2, DRAM
    const int big = 8192;   // lines: 1 MiB
    unsigned *host = (unsigned *)calloc((size_t)big * 32, sizeof(unsigned)), *out;
    cudaMalloc(&out, sizeof(unsigned));
    unsigned *small = make_ring(host, 32);   // 32 lines: 4 KiB
    double a1 = chase_us(small, 1024, out), a2 = chase_us(small, 4096, out);
    check_chase(host, 4096, out);
    report("L1: ring of 4 KiB", 1024, a1, 4096, a2);
    unsigned *large = make_ring(host, big);
    double d1 = chase_us(large, 2048, out), d2 = chase_us(large, 8192, out);
    double l2 = chase_us(large, 3 * 8192, out);
    check_chase(host, 3 * 8192, out);
    report("DRAM: first lap of a 1 MiB ring", 2048, d1, 8192, d2);
    report("L2: later laps of a 1 MiB ring", 8192, d2, 3 * 8192, l2);

    // ---- arithmetic: dependent FMAs against independent ones
    const float a = 0.999f, b = 0.5f;
    const int s1 = 4096, s2 = 16384;
    float *fout;
    cudaMalloc(&fout, 1024 * sizeof(float));
    double t1, t2;
    cudaEventRecord(start); fma_dependent<<<1, 32>>>(fout, s1, a, b); cudaEventRecord(stop); t1 = time_us();
    cudaEventRecord(start); fma_dependent<<<1, 32>>>(fout, s2, a, b); cudaEventRecord(stop); t2 = time_us();
    check_fma(fout, 32, s2, a, b, false);
    report("FMA, 1 warp, one dependent chain", s1, t1, s2, t2);
    cudaEventRecord(start); fma_independent<<<1, 32>>>(fout, s1, a, b); cudaEventRecord(stop); t1 = time_us();
    cudaEventRecord(start); fma_independent<<<1, 32>>>(fout, s2, a, b); cudaEventRecord(stop); t2 = time_us();
    check_fma(fout, 32, s2, a, b, true);
    report("FMA, 1 warp, 4 independent chains", s1, t1, s2, t2);
    cudaEventRecord(start); fma_dependent<<<1, 512>>>(fout, s1, a, b); cudaEventRecord(stop); t1 = time_us();
    cudaEventRecord(start); fma_dependent<<<1, 512>>>(fout, s2, a, b); cudaEventRecord(stop); t2 = time_us();
    check_fma(fout, 512, s2, a, b, false);
    report("FMA, 16 warps, one chain each", s1, t1, s2, t2);

    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        ok = false;
    }
    cudaFree(small);
    cudaFree(large);
    cudaFree(out);
    cudaFree(fout);
    free(host);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
