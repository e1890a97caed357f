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
