// programs/course.h: what the course's whole programs share on the host side, as NVIDIA's
// samples share helper_cuda.h: the .launch files' random=SEED generator, so that a program's
// data (and so its data-dependent counters) equal its folder's .launch runs, work timed between
// two CUDA events, and the CPU baselines the seeds compare against, timed on the host.
#ifndef WARPSIM_PROGRAMS_COURSE_H
#define WARPSIM_PROGRAMS_COURSE_H

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

// The .launch files' random=SEED contents (sim/buffers.c), so that the
// data-dependent counters compare: one splitmix64 draw z per element;
// f32: (z >> 40) / 2^23 - 1, in [-1, 1); signed: z % 2000 - 1000; unsigned: z % 1000.
static uint64_t splitmix64(uint64_t &s)
{
    s += 0x9E3779B97F4A7C15ull;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline std::vector<float> random_f32(uint64_t seed, int n)
{
    std::vector<float> v(n);
    for (float &x : v)
        x = (float)((double)(splitmix64(seed) >> 40) / 8388608.0 - 1.0);
    return v;
}

static inline std::vector<int> random_s32(uint64_t seed, int n)
{
    std::vector<int> v(n);
    for (int &x : v)
        x = (int)(splitmix64(seed) % 2000) - 1000;
    return v;
}

static cudaEvent_t start, stop;

// The time between begin() and end_us(), in simulated microseconds, as the events measure it.
static inline void begin() { cudaEventRecord(start, 0); }
static inline float end_us()
{
    float ms = 0;
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    return ms * 1000.0f;
}

// One launch between two CUDA events (simulated milliseconds), printed.
template <class Launch> static void timed(const char *what, Launch launch)
{
    cudaEventRecord(start);
    launch();
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        printf("%s: %s\n", what, cudaGetErrorString(err));
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    printf("%-44s %.4f ms\n", what, ms);
}

// A computation on the host timed with std::chrono, printed with its rate when flops > 0. Host
// code runs natively under warpsim: this is the CPU of the machine running the program, not a
// simulated figure (the READMEs mask it in their checked output).
template <class Work> static double host_timed(const char *what, double flops, Work work)
{
    auto t0 = std::chrono::steady_clock::now();
    work();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (flops > 0)
        printf("%-44s %.3f ms on this machine's CPU, %.2f GFLOP/s\n", what, ms, flops / (ms * 1e6));
    else
        printf("%-44s %.3f ms on this machine's CPU\n", what, ms);
    return ms;
}

#endif
