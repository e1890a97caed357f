// Seed 004, "Grilles filles": the streams a grid launches its children into. Each block of `parent` hands its
// segment of x to a child grid, `scale`: even blocks into the default (NULL) stream, odd blocks into
// cudaStreamFireAndForget ("la grille fille n'est pas synchronisée à sa mère, sauf en fin d'exécution, ni à
// d'autres enfants"); block 0 also tail-launches `checksum` (cudaStreamTailLaunch: "lancée à la fin de
// l'exécution de la mère"), which may read every scaled value, since a tail launch starts only after its
// parent grid and all the parent's other children are done. The host's events cover all of it.
// A device-side launch needs nvcc -rdc=true: fire_and_forget.ptx is nvcc's PTX of this file, committed:
//   build/warpsim run programs/004_dynamic_parallelism/fire_and_forget.cu --ptx programs/004_dynamic_parallelism/fire_and_forget.ptx
// Real GPU: nvcc -rdc=true -arch=sm_90 fire_and_forget.cu -o fire_and_forget
#include <cstdio>
#include <cstdlib>

#include "../course.h"

#define BLOCK_DIM (256)
#define SEGMENT (4096)

// x[i] *= f over one segment
__global__ void scale(float *x, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= f;
}

// The sum of x (one block), after every segment was scaled
__global__ void checksum(const float *x, int n, float *sum)
{
    __shared__ float r[BLOCK_DIM];
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += BLOCK_DIM)
        s += x[i];
    r[threadIdx.x] = s;
    __syncthreads();
    for (int step = BLOCK_DIM >> 1; step >= 1; step >>= 1) {
        if (threadIdx.x < step)
            r[threadIdx.x] += r[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *sum = r[0];
}

// One thread per block launches: segment b is scaled by b + 1
__global__ void parent(float *x, int n, float *sum)
{
    if (threadIdx.x != 0)
        return;
    int first = blockIdx.x * SEGMENT;
    int len = n - first < SEGMENT ? n - first : SEGMENT;
    cudaStream_t stream = blockIdx.x % 2 ? cudaStreamFireAndForget : 0;
    scale<<<(len + BLOCK_DIM - 1) / BLOCK_DIM, BLOCK_DIM, 0, stream>>>(x + first, len, (float)(blockIdx.x + 1));
    if (blockIdx.x == 0)
        checksum<<<1, BLOCK_DIM, 0, cudaStreamTailLaunch>>>(x, n, sum);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 6 * SEGMENT;
    if (n < 1) {
        printf("usage: fire_and_forget [N >= 1]\n");
        return 2;
    }
    int segments = (n + SEGMENT - 1) / SEGMENT;
    float *h_x = (float *)malloc(n * sizeof(float));
    double cpu = 0;
    uint64_t seed = 2;
    for (int i = 0; i < n; i++) {
        h_x[i] = (float)(int)(splitmix64(seed) % 9) - 4.0f;   // small integers: exact sums
        cpu += h_x[i] * (i / SEGMENT + 1);
    }
    float *d_x, *d_sum;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_sum, sizeof(float));
    cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    printf("n = %d: %d segments of %d, each scaled by a child grid; the checksum tail-launched\n", n, segments,
           SEGMENT);
    timed("parent, its children and the tail launch", [&] { parent<<<segments, 32>>>(d_x, n, d_sum); });
    float sum;
    cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
    double host_sum = 0;
    for (int i = 0; i < n; i++)
        host_sum += h_x[i];
    printf("  checksum %.1f, sum of x read back %.1f (CPU %.1f)\n", sum, host_sum, cpu);
    cudaError_t err = cudaDeviceSynchronize();
    int ok = err == cudaSuccess && sum == cpu && host_sum == cpu;
    printf("%s\n", ok ? "Check: OK" : "Check: FAILED");
    cudaFree(d_x);
    cudaFree(d_sum);
    free(h_x);
    return ok ? 0 : 1;
}
