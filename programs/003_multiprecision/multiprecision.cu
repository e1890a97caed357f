// Seed 003, "Example: multi-precision addition" of 1024-bit numbers (PTX twin:
// multiprecision.ptx).  Each number is a vector of 32 x 32-bit limbs, least
// significant limb first; one warp adds one pair of numbers, lane l holding
// limb l.  R = A + B (mod 2^1024) per number.
// n is the number of limbs (a multiple of 32); blockDim.x a multiple of 32.
//   r = a + b; c = r < a;               // sum, carry out
//   while (__any(c)) {                  // carry left?
//       c = __shfl_up(c, 1);            // move left (to the next limb)
//       if (laneid == 0) c = 0;
//       r = r + c;  c = r < c;          // sum carry, new carry?
//   }

#define FULL_MASK 0xffffffffu

extern "C" __global__ void mp_add(const unsigned int *A, const unsigned int *B,
                                  unsigned int *R, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int laneid = threadIdx.x % 32;
    unsigned int a = (tid < n) ? A[tid] : 0u;
    unsigned int b = (tid < n) ? B[tid] : 0u;
    unsigned int r, c;

    r = a + b;
    c = r < a;
    while (__any_sync(FULL_MASK, c)) {
        c = __shfl_up_sync(FULL_MASK, c, 1);
        if (laneid == 0) c = 0;
        r = r + c;
        c = r < c;
    }
    if (tid < n)
        R[tid] = r;
}

// ---- Host code (the seed has none): the launches of multiprecision.launch
// (64 pairs of 1024-bit numbers, 8 blocks of 256 threads: random + random,
// all ones + random, all ones + 0) and of worst_case.launch ((2^1024 - 1) + 1
// in one warp), each timed and checked number by number against a
// schoolbook addition with carry on the CPU.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // splitmix64 (random=SEED) and timed (a launch between two events)

// R = A + B (mod 2^1024) for each number of 32 limbs, least significant first.
static bool check(const std::vector<unsigned> &A, const std::vector<unsigned> &B, const std::vector<unsigned> &R)
{
    for (size_t first = 0; first < A.size(); first += 32) {
        uint64_t carry = 0;
        for (size_t l = first; l < first + 32; l++) {
            uint64_t s = (uint64_t)A[l] + B[l] + carry;
            if (R[l] != (unsigned)s)
                return false;
            carry = s >> 32;
        }
    }
    return true;
}

// One launch of mp_add over n limbs, then the result against the CPU's.
static bool add(const char *what, const std::vector<unsigned> &A, const std::vector<unsigned> &B, int block)
{
    int n = (int)A.size();
    size_t bytes = n * sizeof(unsigned);
    unsigned *dA, *dB, *dR;
    cudaMalloc(&dA, bytes);
    cudaMalloc(&dB, bytes);
    cudaMalloc(&dR, bytes);
    cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice);
    timed(what, [&] { mp_add<<<(n + block - 1) / block, block>>>(dA, dB, dR, n); });
    std::vector<unsigned> R(n);
    cudaMemcpy(R.data(), dR, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dR);
    return check(A, B, R);
}

int main()
{
    const int n = 2048;   // 64 numbers of 32 limbs
    std::vector<unsigned> A_random(n), B_random(n), ones(n, 0xffffffffu), zeros(n, 0u);
    uint64_t seed = 1;
    for (unsigned &x : A_random)   // s32 in [-1000, 1000), seen as u32
        x = (unsigned)((int)(splitmix64(seed) % 2000) - 1000);
    seed = 2;
    for (unsigned &x : B_random)   // u32 in [0, 1000)
        x = (unsigned)(splitmix64(seed) % 1000);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    bool ok = add("random + random (64 numbers)", A_random, B_random, 256);
    ok = add("all ones + random (64 numbers)", ones, B_random, 256) && ok;
    ok = add("all ones + 0 (64 numbers)", ones, zeros, 256) && ok;
    // worst_case.launch: one carry ripples through the 32 limbs of one number
    std::vector<unsigned> one(32, 0u);
    one[0] = 1;
    ok = add("(2^1024 - 1) + 1 (one number)", std::vector<unsigned>(32, 0xffffffffu), one, 32) && ok;

    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ok ? 0 : 1;
}
