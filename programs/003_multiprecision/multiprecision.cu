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
