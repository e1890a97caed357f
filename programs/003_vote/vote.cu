// Seed 003: warp vote (the slides' __all/__any/__ballot, in their modern
// _sync forms with the full mask).  Every lane of every warp votes (threads
// past n vote 0), so blockDim.x must be a multiple of 32.
// Hand-written PTX twin: vote.ptx.
//
// warp_vote: p = (i < n && in[i] > thr);
//   all_out[i] = __all_sync(p), any_out[i] = __any_sync(p)   (i < n; 1 or 0)
//   ballot_out[i / 32] = __ballot_sync(p)                    (written by lane 0)
// warp_vote_if: the slides' "manual divergence management": both sides of
//   if (p) { A } else { C } are skipped when no lane of the warp takes them.
//   A: r = x * 2 ; C: r = x - 1 ; out[i] = r (i < n)   with x = in[i], p = x > thr.

#define FULL_MASK 0xffffffffu

extern "C" __global__ void warp_vote(const int *in, int *all_out, int *any_out,
                                     unsigned int *ballot_out, int n, int thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = (i < n) && (in[i] > thr);
    int all = __all_sync(FULL_MASK, p);
    int any = __any_sync(FULL_MASK, p);
    unsigned int ballot = __ballot_sync(FULL_MASK, p);
    if (i < n) {
        all_out[i] = all ? 1 : 0;
        any_out[i] = any ? 1 : 0;
    }
    if ((threadIdx.x & 31) == 0)
        ballot_out[i / 32] = ballot;
}

extern "C" __global__ void warp_vote_if(const int *in, int *out, int n, int thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = (i < n) ? in[i] : 0;
    int p = (i < n) && (x > thr);
    int r = 0;
    if (__any_sync(FULL_MASK, p)) {
        if (p) { r = x * 2; }
    }
    if (__any_sync(FULL_MASK, !p)) {
        if (!p) { r = x - 1; }
    }
    if (i < n)
        out[i] = r;
}

// ---- Host code (the seed has none): the four launches of vote.launch over
// 8192 ints (random in [-1000, 1000), as the .launch fills `in`), 32 blocks of
// 256 threads, each timed and checked warp by warp against the CPU's votes.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // splitmix64 (random=SEED) and timed (a launch between two events)

int main()
{
    const int n = 8192, nwarps = n / 32;
    std::vector<int> in(n);
    uint64_t seed = 1;
    for (int &x : in)
        x = (int)(splitmix64(seed) % 2000) - 1000;
    const size_t bytes = n * sizeof(int);
    int *din, *dall[2], *dany[2], *dout_if[2];
    unsigned *dballot[2];
    cudaMalloc(&din, bytes);
    for (int k = 0; k < 2; k++) {
        cudaMalloc(&dall[k], bytes);
        cudaMalloc(&dany[k], bytes);
        cudaMalloc(&dballot[k], nwarps * sizeof(unsigned));
        cudaMalloc(&dout_if[k], bytes);
    }
    cudaMemcpy(din, in.data(), bytes, cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    dim3 block(256), grid((n + 255) / 256);
    const int vote_thr[2] = {-960, 960}, if_thr[2] = {990, -2000};
    timed("warp_vote,    thr = -960 (p mostly true)", [&] { warp_vote<<<grid, block>>>(din, dall[0], dany[0], dballot[0], n, vote_thr[0]); });
    timed("warp_vote,    thr = 960 (p mostly false)", [&] { warp_vote<<<grid, block>>>(din, dall[1], dany[1], dballot[1], n, vote_thr[1]); });
    timed("warp_vote_if, thr = 990 (p rare)", [&] { warp_vote_if<<<grid, block>>>(din, dout_if[0], n, if_thr[0]); });
    timed("warp_vote_if, thr = -2000 (p always true)", [&] { warp_vote_if<<<grid, block>>>(din, dout_if[1], n, if_thr[1]); });

    bool ok = true;
    std::vector<int> all(n), any(n), out(n);
    std::vector<unsigned> ballot(nwarps);
    for (int k = 0; k < 2; k++) {
        cudaMemcpy(all.data(), dall[k], bytes, cudaMemcpyDeviceToHost);
        cudaMemcpy(any.data(), dany[k], bytes, cudaMemcpyDeviceToHost);
        cudaMemcpy(ballot.data(), dballot[k], nwarps * sizeof(unsigned), cudaMemcpyDeviceToHost);
        int warps_all = 0, warps_any = 0;
        for (int w = 0; w < nwarps; w++) {
            unsigned b = 0;
            for (int l = 0; l < 32; l++)
                if (in[32 * w + l] > vote_thr[k])
                    b |= 1u << l;
            int a = b == 0xffffffffu, y = b != 0;
            warps_all += a;
            warps_any += y;
            ok = ok && ballot[w] == b;
            for (int l = 0; l < 32; l++)
                ok = ok && all[32 * w + l] == a && any[32 * w + l] == y;
        }
        printf("thr = %d: %d of %d warps all true, %d any true\n", vote_thr[k], warps_all, nwarps, warps_any);
        cudaMemcpy(out.data(), dout_if[k], bytes, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; i++)
            ok = ok && out[i] == (in[i] > if_thr[k] ? in[i] * 2 : in[i] - 1);
        // warp_vote_if's question: how many warps have no lane in side A, and skip it
        int lanes_a = 0, warps_a = 0;
        for (int w = 0; w < nwarps; w++) {
            int l_a = 0;
            for (int l = 0; l < 32; l++)
                l_a += in[32 * w + l] > if_thr[k];
            lanes_a += l_a;
            warps_a += l_a > 0;
        }
        printf("thr = %d: p true in %d of %d lanes (%.2f%%), in %d warps: %d of %d warps (%.0f%%) skip side A\n",
               if_thr[k], lanes_a, n, 100.0 * lanes_a / n, warps_a, nwarps - warps_a, nwarps,
               100.0 * (nwarps - warps_a) / nwarps);
    }
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    for (int k = 0; k < 2; k++) {
        cudaFree(dall[k]);
        cudaFree(dany[k]);
        cudaFree(dballot[k]);
        cudaFree(dout_if[k]);
    }
    return ok ? 0 : 1;
}
