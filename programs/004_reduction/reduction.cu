// Seed 004: recursive parallel reduction, BLOCK_DIM = 256 (PTX twin: reduction.ptx; 256-thread blocks,
// grid ceil(n/256)); block k writes the sum of a[256k .. 256k+255] to b[k].
// The seed relaunches the kernel from the device with dynamic parallelism:
//     if (i == 0 && nb > 1)
//         reduction<<<nb, BLOCK_DIM, 0, cudaStreamTailLaunch>>>(b, b, nb);
// A simulator has no device-side launch, so the host does the same: it
// launches `reduction` again on the partial sums, with n = nb, until a single
// value is left (each launch after the previous one, as the tail launch
// guarantees).  The device-side launch is kept below under
// WARPSIM_DYNAMIC_PARALLELISM (needs nvcc -rdc=true), not in the generated PTX.
// Note: with a == b (the seed's in-place relaunch) block k writes b[k] while
// block 0 may still read it, a race as soon as the relaunch has > 1 block;
// the test cases either relaunch in place with a single block or use
// separate buffers.

#define BLOCK_DIM (256)

// b est un buffer en memoire globale
extern "C" __global__ void reduction(float *a, float *b, int n)
{
    __shared__ float r[BLOCK_DIM];
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int step = BLOCK_DIM >> 1;
    if (i < n)
        r[threadIdx.x] = a[i];
    else
        r[threadIdx.x] = 0.0f;
    __syncthreads();
    while (step >= 1) {
        if (threadIdx.x < step)
            r[threadIdx.x] += r[threadIdx.x + step];
        __syncthreads();
        step >>= 1;
    }
    if (threadIdx.x == 0)
        b[blockIdx.x] = r[0];
#ifdef WARPSIM_DYNAMIC_PARALLELISM
    int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
    __syncthreads();
    if (i == 0 && nb > 1)
        reduction<<<nb, BLOCK_DIM, 0, cudaStreamTailLaunch>>>(b, b, nb);
#endif
}
