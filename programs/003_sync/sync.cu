// Seed 003: barriers in divergent code and barriers with a boolean reduction.  PTX twin: sync.ptx.
//
// sync_or_loop: a loop whose trip count depends on the data, written as the
// slide prescribes:  while (__syncthreads_or(p)) { if (p) {...} __syncthreads(); if (p) {...} }
//   Each thread starts from x = in[i] (0 when i >= n), publishes x in shared
//   memory s[tid] once, then while any thread of the block has x != 0:
//     phase A (if p): s[tid] = x
//     barrier
//     phase B (if p): acc += s[(tid+1) % blockDim.x] ^ x; x >>= 1; it++; p = (x != 0)
//   and finally out[i] = acc, iters[i] = it (i < n).   blockDim.x <= 1024.
//
// "Change this, see that" (README): --cflags "-D BARRIER_IN_IF" moves the
// barrier inside the first if (p), where the slide says it must not be: the
// threads that are done skip it, and the block never meets there again.
//
// sync_count_and_or: one call of each barrier-reduction on a data predicate:
//   stats[3*b+0] = __syncthreads_count(v > thr)
//   stats[3*b+1] = __syncthreads_and(v < thr)    (1 or 0)
//   stats[3*b+2] = __syncthreads_or(v < -thr)    (1 or 0)
// with v = in[i] (i < n) or 0 (padding threads), for every block b.

extern "C" __global__ void sync_or_loop(const unsigned int *in, unsigned int *out,
                                        unsigned int *iters, int n)
{
    __shared__ unsigned int s[1024];
    unsigned int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int x = (i < n) ? in[i] : 0u;
    unsigned int acc = 0, it = 0;
    int p = (x != 0);

    s[tid] = x;
    while (__syncthreads_or(p)) {
        if (p) {
            s[tid] = x;
#ifdef BARRIER_IN_IF
            __syncthreads();   // wrong: only the threads with p reach it
#endif
        }
#ifndef BARRIER_IN_IF
        __syncthreads();
#endif
        if (p) {
            unsigned int nb = s[(tid + 1) % blockDim.x];
            acc += nb ^ x;
            x >>= 1;
            it++;
            p = (x != 0);
        }
    }
    if (i < n) {
        out[i] = acc;
        iters[i] = it;
    }
}

extern "C" __global__ void sync_count_and_or(const int *in, int *stats, int n, int thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int count = __syncthreads_count(v > thr);
    int all = __syncthreads_and(v < thr);
    int any = __syncthreads_or(v < -thr);
    if (threadIdx.x == 0) {
        stats[3 * blockIdx.x + 0] = count;
        stats[3 * blockIdx.x + 1] = all ? 1 : 0;
        stats[3 * blockIdx.x + 2] = any ? 1 : 0;
    }
}

// ---- Host code (the seed has none): the two kernels of sync.launch with its
// inputs (in: 4096 unsigned in [0, 1000); v: 4096 ints in [-1000, 1000)),
// each launch timed and checked against the CPU, which runs sync_or_loop's
// rounds block by block (phase A for every thread, then phase B: the barrier
// between them) and counts each block's votes.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // splitmix64 (random=SEED) and timed (a launch between two events)

int main()
{
    const int n = 4096, thr = 990;
    std::vector<unsigned> in(n);
    std::vector<int> v(n);
    uint64_t seed = 1;
    for (unsigned &x : in)
        x = (unsigned)(splitmix64(seed) % 1000);
    seed = 2;
    for (int &x : v)
        x = (int)(splitmix64(seed) % 2000) - 1000;
    unsigned *din, *dout, *diters;
    int *dv, *dstats;
    cudaMalloc(&din, n * sizeof(unsigned));
    cudaMalloc(&dout, n * sizeof(unsigned));
    cudaMalloc(&diters, n * sizeof(unsigned));
    cudaMalloc(&dv, n * sizeof(int));
    cudaMalloc(&dstats, 3 * 64 * sizeof(int));
    cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
    cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    const int B1 = 256, B2 = 64;
    timed("sync_or_loop      (__syncthreads_or loop)", [&] { sync_or_loop<<<n / B1, B1>>>(din, dout, diters, n); });
    timed("sync_count_and_or (_count, _and, _or)", [&] { sync_count_and_or<<<n / B2, B2>>>(dv, dstats, n, thr); });

    std::vector<unsigned> out(n), iters(n);
    std::vector<int> stats(3 * 64);
    cudaMemcpy(out.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(iters.data(), diters, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(stats.data(), dstats, 3 * 64 * sizeof(int), cudaMemcpyDeviceToHost);
    bool ok = true;
    unsigned rounds = 0, total_iters = 0;
    for (int b = 0; b < n / B1; b++) {
        unsigned x[B1], s[B1], acc[B1] = {}, it[B1] = {};
        bool p[B1], any = false;
        for (int t = 0; t < B1; t++) {
            x[t] = s[t] = in[b * B1 + t];
            p[t] = x[t] != 0;
            any = any || p[t];
        }
        while (any) {
            rounds++;
            for (int t = 0; t < B1; t++)
                if (p[t])
                    s[t] = x[t];
            any = false;
            for (int t = 0; t < B1; t++) {
                if (p[t]) {
                    acc[t] += s[(t + 1) % B1] ^ x[t];
                    x[t] >>= 1;
                    it[t]++;
                    p[t] = x[t] != 0;
                }
                any = any || p[t];
            }
        }
        for (int t = 0; t < B1; t++) {
            ok = ok && out[b * B1 + t] == acc[t] && iters[b * B1 + t] == it[t];
            total_iters += it[t];
        }
    }
    for (int b = 0; b < n / B2; b++) {
        int count = 0, all = 1, any = 0;
        for (int t = 0; t < B2; t++) {
            int x = v[b * B2 + t];
            count += x > thr;
            all = all && x < thr;
            any = any || x < -thr;
        }
        ok = ok && stats[3 * b] == count && stats[3 * b + 1] == all && stats[3 * b + 2] == any;
    }
    printf("sync_or_loop: %u rounds over 16 blocks, %u iterations over 4096 threads\n", rounds, total_iters);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    cudaFree(dout);
    cudaFree(diters);
    cudaFree(dv);
    cudaFree(dstats);
    return ok ? 0 : 1;
}
