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

// ---- Host code: the slides launch the first grid and let each grid launch
// the next one itself (the tail launch above, dynamic parallelism, which
// warpsim does not run yet: issue 12). Here the host launches each step in
// turn, as reduction.launch does (n = 100000: 391 blocks, then 2, then 1, into
// new arrays) and as inplace.launch does (n = 50000: 196 blocks, then 1 block
// reducing b into itself, the tail launch's reduction<<<nb, BLOCK_DIM>>>(b, b, nb)).
// The input holds small integers, so the float sums are exact and the check
// against the CPU's sum is an equality.
#include <cstdio>
#include <cstdlib>

// Reduce n values of d_a on the GPU, each step's partial sums into the next
// array of `steps` (or into itself when in_place), timing each launch.
static float gpu_sum(float *d_a, int n, float **steps, bool in_place)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    float *in = d_a;
    for (int s = 0;; s++) {
        int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
        float *out = in_place && s > 0 ? in : steps[s];
        cudaEventRecord(start);
        reduction<<<nb, BLOCK_DIM>>>(in, out, n);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        printf("  reduction<<<%d, %d>>> over %d values: %.4f ms\n", nb, BLOCK_DIM, n, ms);
        in = out;
        n = nb;
        if (nb == 1)
            break;
    }
    float total;
    cudaMemcpy(&total, in, sizeof(float), cudaMemcpyDeviceToHost);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return total;
}

int main()
{
    const int sizes[] = {100000, 50000};
    int wrong = 0;
    for (int t = 0; t < 2; t++) {
        int n = sizes[t];
        bool in_place = t == 1;
        float *a = (float *)malloc(n * sizeof(float)), *d_a, *steps[3];
        double cpu = 0;
        for (int i = 0; i < n; i++) {
            a[i] = (float)(i % 13 - 6);
            cpu += a[i];
        }
        cudaMalloc(&d_a, n * sizeof(float));
        cudaMemcpy(d_a, a, n * sizeof(float), cudaMemcpyHostToDevice);
        for (int s = 0, m = n; s < 3; s++) {
            m = (m + BLOCK_DIM - 1) / BLOCK_DIM;
            cudaMalloc(&steps[s], m * sizeof(float));
        }
        printf("%s, n = %d:\n", in_place ? "in place (as the tail launch)" : "into new arrays", n);
        float total = gpu_sum(d_a, n, steps, in_place);
        printf("  sum %.0f (CPU: %.0f)\n", total, cpu);
        wrong += total != cpu;
        for (int s = 0; s < 3; s++)
            cudaFree(steps[s]);
        cudaFree(d_a);
        free(a);
    }
    printf("Check: %s\n", wrong ? "FAILED" : "OK");
    return wrong != 0;
}
