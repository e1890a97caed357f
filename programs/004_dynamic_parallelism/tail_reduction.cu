// Seed 004, "Grilles filles" and "Réduction parallèle": the reduction that relaunches itself from the GPU
// with a tail launch (dynamic parallelism), as a whole program: main(), the sums checked against the CPU,
// each reduction timed with CUDA events (the events cover the grid the host launched and every grid it
// launched: the parent grid completes after its children).
// A device-side launch needs nvcc -rdc=true (clang compiles none): tail_reduction.ptx is nvcc's PTX of this
// file, committed (README.md says how it was made), so that warpsim runs it without the CUDA Toolkit:
//   build/warpsim run programs/004_dynamic_parallelism/tail_reduction.cu --ptx programs/004_dynamic_parallelism/tail_reduction.ptx
//   build/warpsim run programs/004_dynamic_parallelism/tail_reduction.cu --cc nvcc      (with nvcc installed)
// Real GPU: nvcc -rdc=true -arch=sm_90 tail_reduction.cu -o tail_reduction
#include <cstdio>
#include <cstdlib>

#include "../course.h"

#define BLOCK_DIM (256)
#define SIZE (100000)

// The seed's kernel as the slides give it: the relaunch reduces b into itself with nb blocks, one per value.
// b est un buffer en memoire globale
__global__ void reduction(float *a, float *b, int n) {
    __shared__ float r[BLOCK_DIM];
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
    int step = BLOCK_DIM >> 1;
    if (i < n)
        r[threadIdx.x] = a[i];
    else
        r[threadIdx.x] = 0.0f;
    __syncthreads();
    while(step >= 1) {
        if(threadIdx.x < step)
            r[threadIdx.x] += r[threadIdx.x + step];
        __syncthreads();
        step >>= 1;
    }
    if(threadIdx.x == 0)
        b[blockIdx.x] = r[0];
    __syncthreads();
    if(i == 0 && nb > 1)
        reduction<<<nb, BLOCK_DIM, 0, cudaStreamTailLaunch>>>(b, b, nb);
}

// The same reduction without the seed's race: each grid reads one buffer and writes the other (in -> out, then
// out -> spare, ...), its relaunch has ceil(nb / BLOCK_DIM) blocks, and the last grid (one block) also writes
// the total to *result.
__global__ void reduction_pingpong(float *in, float *out, float *spare, float *result, int n) {
    __shared__ float r[BLOCK_DIM];
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
    r[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int step = BLOCK_DIM >> 1; step >= 1; step >>= 1) {
        if (threadIdx.x < step)
            r[threadIdx.x] += r[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = r[0];
        if (nb == 1)
            *result = r[0];
    }
    if (i == 0 && nb > 1)
        reduction_pingpong<<<(nb + BLOCK_DIM - 1) / BLOCK_DIM, BLOCK_DIM, 0, cudaStreamTailLaunch>>>(out, spare, out,
                                                                                                     result, nb);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : SIZE;
    if (n < 1) {
        printf("usage: tail_reduction [N >= 1]\n");
        return 2;
    }
    int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
    // small integers: every partial sum is exact in float, so the checks are equalities
    float *h_a = (float *)malloc(n * sizeof(float));
    double cpu = 0;
    uint64_t seed = 1;
    for (int i = 0; i < n; i++) {
        h_a[i] = (float)(int)(splitmix64(seed) % 17) - 8.0f;
        cpu += h_a[i];
    }
    float *d_a, *d_b, *d_c, *d_result;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMalloc(&d_b, nb * sizeof(float));
    cudaMalloc(&d_c, nb * sizeof(float));
    cudaMalloc(&d_result, sizeof(float));
    cudaMemcpy(d_a, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    printf("n = %d: %d blocks, then tail launches until one value is left\n", n, nb);
    timed("reduction (the seed's, in place)", [&] { reduction<<<nb, BLOCK_DIM>>>(d_a, d_b, n); });
    float seed_sum;
    cudaMemcpy(&seed_sum, d_b, sizeof(float), cudaMemcpyDeviceToHost);
    printf("  sum %.1f (CPU %.1f)%s\n", seed_sum, cpu,
           seed_sum == cpu ? "" : ": wrong, the relaunch's blocks 1.. wrote b[1..] before block 0 read them");

    timed("reduction_pingpong", [&] { reduction_pingpong<<<nb, BLOCK_DIM>>>(d_a, d_b, d_c, d_result, n); });
    float sum;
    cudaMemcpy(&sum, d_result, sizeof(float), cudaMemcpyDeviceToHost);
    printf("  sum %.1f (CPU %.1f)\n", sum, cpu);
    cudaError_t err = cudaDeviceSynchronize();
    printf("%s\n", err == cudaSuccess && sum == cpu ? "Check: OK" : "Check: FAILED");

    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    cudaFree(d_result);
    free(h_a);
    return err == cudaSuccess && sum == cpu ? 0 : 1;
}
