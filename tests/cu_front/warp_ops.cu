// Warp-level operations: shuffles, votes, atomics on shared and global
// memory, barrier reductions, bit tricks.
__global__ void warp_ops(int *out, float *f, unsigned *u, int n)
{
    __shared__ int counts[32];
    int t = threadIdx.x;
    int lane = t & 31;
    int v = out[t];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffff, v, o);
    v += __shfl_xor_sync(0xffffffff, v, 1);
    v += __shfl_up_sync(0xffffffff, v, 2);
    v += __shfl_sync(0xffffffff, v, 0);
    unsigned ballot = __ballot_sync(0xffffffff, v > 0);
    int all = __all_sync(0xffffffff, v > 1);
    int any = __any_sync(0xffffffff, v > 2);
    if (lane == 0)
        counts[t / 32] = 0;
    __syncthreads();
    atomicAdd(&counts[lane], 1);
    atomicMax(&counts[0], v);
    atomicMin(&counts[1], v);
    atomicCAS(&counts[2], 0, v);
    atomicExch(&counts[3], v);
    atomicAnd(&counts[4], v);
    atomicOr(&counts[5], v);
    atomicXor(&counts[6], v);
    atomicInc(&u[0], 100u);
    atomicDec(&u[1], 100u);
    atomicAdd(&f[0], 1.5f);
    int every = __syncthreads_and(v > 0);
    int some = __syncthreads_or(v < 0);
    int howmany = __syncthreads_count(v == 0);
    out[t] = v + ballot + all + any + counts[lane] + every + some + howmany + __popc(ballot) + __clz(v) + __brev(v) + __ffs(v);
}
