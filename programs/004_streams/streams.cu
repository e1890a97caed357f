// Seed 004, "Opérations asynchrones" and "Mémoire unifiée".
//
// 1. Streams: the seed's dot product (dot_product, BLOCK_DIM 256, partial sums reduced on
//    the CPU) computed by ntasks = 4 tasks, each on its own stream: cudaMemcpyAsync of a
//    and b, the kernel, cudaMemcpyAsync of the partial sums back. "Les transferts de
//    mémoire asynchrones ne peuvent s'effectuer qu'entre des blocs spécifiquement alloués
//    sur l'hôte par cudaMallocHost": the same work from pageable memory (new float[n], as
//    the seed's dot_async allocates) and from pinned memory, on 4 streams and on 1.
//    The seed runs each task's device_dot in its own CPU thread (std::async); here one
//    thread issues every task's work, then waits for all: the same streams and launches,
//    in an order that does not change from run to run.
// 2. Unified memory: the seed's add kernel on cudaMallocManaged a, b and a __managed__ c,
//    with no cudaMemcpy, beside the same add with cudaMalloc and explicit copies.
#include <cmath>
#include <cstdio>
#include <iostream>

#define BLOCK_DIM (256)

extern "C" __global__ void dot_product(float *a, float *b, float *c, int n)
{
    __shared__ float r[BLOCK_DIM];
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int step = BLOCK_DIM >> 1;
    if (i < n)
        r[threadIdx.x] = a[i] * b[i];
    else
        r[threadIdx.x] = 0.0f;
    __syncthreads();
    while (step >= 1) {
        if (threadIdx.x < step)
            r[threadIdx.x] += r[threadIdx.x + step];
        __syncthreads();
        step >>= 1;
    }
    c[blockIdx.x] = r[0];
}

// ---- 1. streams

struct task {
    cudaStream_t stream;
    float *da, *db, *dc, *c;   // c: the partial sums on the host (pinned when a and b are)
};

static void issue_dot(float *a, float *b, int n, task &t)
{
    int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
    cudaMemcpyAsync(t.da, a, n * sizeof(float), cudaMemcpyHostToDevice, t.stream);
    cudaMemcpyAsync(t.db, b, n * sizeof(float), cudaMemcpyHostToDevice, t.stream);
    dot_product<<<nb, BLOCK_DIM, 0, t.stream>>>(t.da, t.db, t.dc, n);
    cudaMemcpyAsync(t.c, t.dc, nb * sizeof(float), cudaMemcpyDeviceToHost, t.stream);
}

// ntasks dot products of the same a and b; returns false when one differs from the CPU's.
static bool dot_async(int n, int ntasks, bool pinned, int nstreams, cudaEvent_t start, cudaEvent_t stop)
{
    int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
    float *a, *b;
    if (pinned) {
        cudaMallocHost(&a, n * sizeof(float));
        cudaMallocHost(&b, n * sizeof(float));
    } else {
        a = new float[n];
        b = new float[n];
    }
    for (int i = 0; i < n; i++) {
        a[i] = 1.0f / (float)(i + 1);
        b[i] = (float)(i + 1);
    }
    double r = 0.0;   // the CPU's sum, in double: 1M terms
    for (int i = 0; i < n; i++)
        r += a[i] * b[i];
    task *t = new task[ntasks];
    for (int k = 0; k < ntasks; k++) {
        if (k < nstreams)
            cudaStreamCreate(&t[k].stream);
        else
            t[k].stream = t[0].stream;
        cudaMalloc(&t[k].da, n * sizeof(float));
        cudaMalloc(&t[k].db, n * sizeof(float));
        cudaMalloc(&t[k].dc, nb * sizeof(float));
        if (pinned)
            cudaMallocHost(&t[k].c, nb * sizeof(float));
        else
            t[k].c = new float[nb];
    }
    cudaDeviceSynchronize();
    cudaEventRecord(start, 0);
    for (int k = 0; k < ntasks; k++)
        issue_dot(a, b, n, t[k]);
    cudaEventRecord(stop, 0);   // the legacy stream waits for every stream's work
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    printf("%d tasks, %s memory, %d stream%s: %8.2f us\n", ntasks, pinned ? "pinned  " : "pageable", nstreams,
           nstreams > 1 ? "s" : " ", ms * 1000.0);
    bool ok = true;
    for (int k = 0; k < ntasks; k++) {
        double s = 0;
        for (int j = 0; j < nb; j++)
            s += t[k].c[j];
        if (!(std::fabs(s - r) <= 1e-5 * r)) {
            std::cout << k << '\t' << r << '\t' << s << std::endl;   // the seed's line, on a wrong result
            ok = false;
        }
        if (k < nstreams)
            cudaStreamDestroy(t[k].stream);
        cudaFree(t[k].da);
        cudaFree(t[k].db);
        cudaFree(t[k].dc);
        if (pinned)
            cudaFreeHost(t[k].c);
        else
            delete[] t[k].c;
    }
    delete[] t;
    if (pinned) {
        cudaFreeHost(a);
        cudaFreeHost(b);
    } else {
        delete[] a;
        delete[] b;
    }
    return ok;
}

// ---- 2. unified memory: the seed's vectorAdd

#define SIZE (10000)

__device__ __managed__ float c[SIZE];

extern "C" __global__ void add(float *a, float *b, int n)
{
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void add_explicit(float *a, float *b, float *out, int n)
{
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

static bool unified(cudaEvent_t start, cudaEvent_t stop)
{
    float *a, *b, ms;
    int ns = (SIZE + BLOCK_DIM - 1) / BLOCK_DIM;
    cudaMallocManaged(&a, SIZE * sizeof(float));
    cudaMallocManaged(&b, SIZE * sizeof(float));
    for (int i = 0; i < SIZE; i++) {
        a[i] = 1.0f;
        b[i] = (float)i;
    }
    cudaEventRecord(start);
    add<<<ns, BLOCK_DIM>>>(a, b, SIZE);
    cudaEventRecord(stop);
    cudaDeviceSynchronize();
    cudaEventElapsedTime(&ms, start, stop);
    float err = 0.0f;
    for (int i = 0; i < SIZE; i++)
        err += fabsf(b[i] + 1.0f - c[i]);
    std::cout << "Erreur : " << err << std::endl;
    printf("unified memory, add<<<%d, %d>>>, no copy:     %8.2f us\n", ns, BLOCK_DIM, ms * 1000.0);

    // the same with device memory and explicit copies (pageable host memory, as a plain program has)
    float *ha = new float[SIZE], *hb = new float[SIZE], *hc = new float[SIZE], *da, *db, *dc;
    for (int i = 0; i < SIZE; i++) {
        ha[i] = 1.0f;
        hb[i] = (float)i;
    }
    cudaMalloc(&da, SIZE * sizeof(float));
    cudaMalloc(&db, SIZE * sizeof(float));
    cudaMalloc(&dc, SIZE * sizeof(float));
    cudaEventRecord(start);
    cudaMemcpy(da, ha, SIZE * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, SIZE * sizeof(float), cudaMemcpyHostToDevice);
    add_explicit<<<ns, BLOCK_DIM>>>(da, db, dc, SIZE);
    cudaMemcpy(hc, dc, SIZE * sizeof(float), cudaMemcpyDeviceToHost);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    float err2 = 0.0f;
    for (int i = 0; i < SIZE; i++)
        err2 += fabsf(hb[i] + 1.0f - hc[i]);
    printf("device memory, 2 copies in, add, 1 copy out: %8.2f us\n", ms * 1000.0);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    delete[] ha;
    delete[] hb;
    delete[] hc;
    cudaFree(b);
    cudaFree(a);
    return err == 0.0f && err2 == 0.0f;
}

int main()
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    const int n = 1 << 20;
    printf("-- 1. %d dot products of %d floats (4 MiB per vector), each task on its stream\n", 4, n);
    bool ok = dot_async(n, 4, false, 4, start, stop);
    ok = dot_async(n, 4, true, 1, start, stop) && ok;
    ok = dot_async(n, 4, true, 4, start, stop) && ok;
    printf("-- 2. unified memory (the seed's vectorAdd, SIZE %d)\n", SIZE);
    ok = unified(start, stop) && ok;
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        ok = false;
    }
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
