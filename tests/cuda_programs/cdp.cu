// Dynamic parallelism (CUDA's CDP2) as warpsim runs it, from nvcc -rdc=true's PTX (cdp.ptx, committed beside:
// `nvcc -rdc=true -ptx -arch=sm_90 -lineinfo tests/cuda_programs/cdp.cu -o tests/cuda_programs/cdp.ptx` from the
// repository's root), the host code by clang++ (`warpsim run cdp.cu --ptx cdp.ptx`). Each part prints what it
// saw and whether CUDA's rules hold; cdp.expected is warpsim's run, each value worked out by hand there.
#include <cstdio>

// log[0] counts the entries; log[1..] the tags in the order grids ran (thread 0 of block 0 of each).
__device__ void note(int *log, int tag)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        log[1 + atomicAdd(&log[0], 1)] = tag;
}

// ---- 1. Order: tail launches after the grid and all its other children, in launch order, each after the
// one before and its descendants; the other children before any tail launch.
__global__ void leaf(int *log, int tag) { note(log, tag); }

__global__ void tail_with_child(int *log, int tag)
{
    note(log, tag);
    if (threadIdx.x == 0 && blockIdx.x == 0)
        leaf<<<1, 32>>>(log, tag * 10);   // a child of the tail launch: before the next tail launch
}

__global__ void order_root(int *log)
{
    note(log, 1);
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        tail_with_child<<<1, 32, 0, cudaStreamTailLaunch>>>(log, 2);
        leaf<<<1, 32, 0, cudaStreamFireAndForget>>>(log, 3);
        tail_with_child<<<1, 32, 0, cudaStreamTailLaunch>>>(log, 4);
        leaf<<<1, 32>>>(log, 5);                       // the NULL stream
    }
    if (threadIdx.x == 0 && blockIdx.x == 1)
        leaf<<<2, 32>>>(log, 6);                       // another block's NULL stream
}

// ---- 2. Parameters of every size through the parameter buffer, computed by the parent's threads.
struct mixed {
    char c;
    double d;
    short s;
};

__global__ void take(long long *out, char c, short s, int i, long long ll, float f, double d, mixed m, int *p)
{
    out[0] = c;
    out[1] = s;
    out[2] = i;
    out[3] = ll;
    out[4] = (long long)(f * 4.0f);
    out[5] = (long long)(d * 8.0);
    out[6] = m.c + m.s + (long long)(m.d * 2.0);
    out[7] = p[3];
}

__global__ void params_root(long long *out, int *p)
{
    int t = threadIdx.x;   // 0..3: one child each, its own out[8 t ..]
    mixed m = {(char)(t + 1), 0.5 * t, (short)(-100 * t)};
    take<<<1, 1>>>(out + 8 * t, (char)(-t), (short)(1000 + t), 100000 * t, 1LL << (40 + t), 0.25f * t, 0.125 * t, m,
                   p + t);
}

// ---- 3. Nesting: each grid launches the next until CUDA's depth limit (24) refuses one (or depth 63: the
// arrays hold 64).
__global__ void nest(int *depths, int *errors, int depth)
{
    depths[depth] = depth;
    if (depth + 1 >= 64)
        return;
    nest<<<1, 1>>>(depths, errors, depth + 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        errors[depth] = e;
}

// ---- 4. Launches CUDA refuses: a block of 2048 threads, and more pending launches than
// cudaLimitDevRuntimePendingLaunchCount's 2048.
__global__ void count(int *n) { atomicAdd(n, 1); }

__global__ void refused_root(int *n, int *errors)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        count<<<1, 2048>>>(n);                         // too many threads per block
        errors[0] = cudaGetLastError();
        errors[1] = cudaGetLastError();                // cleared by the read before
    }
    count<<<1, 1, 0, cudaStreamFireAndForget>>>(n);   // 4 x 514 = 2056 threads: the last 8 are refused
    cudaError_t e = cudaPeekAtLastError();
    if (e != cudaSuccess)
        atomicAdd(&errors[2], 1), errors[3] = e;
}

int main(int argc, char **argv)
{
    int time_only = argc > 1;   // `-- time`: only the order tree's time, in simulated ns
    int *log, *p, *depths, *errors, *n;
    long long *out;
    cudaMallocManaged(&log, 64 * sizeof(int));
    cudaMallocManaged(&out, 32 * sizeof(long long));
    cudaMallocManaged(&p, 8 * sizeof(int));
    cudaMallocManaged(&depths, 64 * sizeof(int));
    cudaMallocManaged(&errors, 64 * sizeof(int));
    cudaMallocManaged(&n, sizeof(int));
    for (int i = 0; i < 64; i++)
        log[i] = 0;
    for (int i = 0; i < 64; i++)
        depths[i] = -1, errors[i] = 0;
    for (int i = 0; i < 8; i++)
        p[i] = 7 * i;
    *n = 0;

    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    order_root<<<2, 32>>>(log);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    if (time_only) {
        printf("tree ns %.0f\n", ms * 1e6);
        return 0;
    }
    printf("order:");
    for (int i = 0; i < log[0]; i++)
        printf(" %d", log[1 + i]);
    int at[64] = {0};
    for (int i = 0; i < log[0]; i++)
        at[log[1 + i]] = i;
    int ok = log[0] == 8 && at[1] == 0 && at[3] < at[2] && at[5] < at[2] && at[6] < at[2] && at[2] < at[20] &&
             at[20] < at[4] && at[4] < at[40];
    printf("  (%s)\n", ok ? "CDP2's order" : "NOT CDP2's order");

    params_root<<<1, 4>>>(out, p);
    cudaDeviceSynchronize();
    for (int t = 0; t < 4; t++) {
        printf("params %d:", t);
        for (int k = 0; k < 8; k++)
            printf(" %lld", out[8 * t + k]);
        printf("\n");
    }

    nest<<<1, 1>>>(depths, errors, 0);
    cudaDeviceSynchronize();
    int deepest = 0;
    while (deepest + 1 < 64 && depths[deepest + 1] == deepest + 1)
        deepest++;
    printf("nest: deepest grid %d, its launch: %s\n", deepest, cudaGetErrorName((cudaError_t)errors[deepest]));
    for (int i = 0; i < 64; i++)
        errors[i] = 0;

    refused_root<<<4, 514>>>(n, errors);
    cudaError_t e = cudaDeviceSynchronize();
    printf("refused: %s, then %s; %d children ran, %d launches refused with %s; host sees %s\n",
           cudaGetErrorName((cudaError_t)errors[0]), cudaGetErrorName((cudaError_t)errors[1]), *n, errors[2],
           cudaGetErrorName((cudaError_t)errors[3]), cudaGetErrorName(e));
    return 0;
}
