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
        }
        __syncthreads();
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
