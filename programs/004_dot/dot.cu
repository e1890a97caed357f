// Seed 004: dot product, one partial sum per block (the CPU adds the partials).  PTX twin: dot.ptx.
// BLOCK_DIM = 256: launch with a 256-thread block, grid ceil(n/256).
//   r[t] = a[i]*b[i] (0 past n); tree: step = 128, 64, ..., 1: r[t] += r[t+step]
//   c[blockIdx.x] = r[0]   (every thread of the block stores it, as in the seed)
// The product and the sums are separate roundings (mul.rn then add.rn):
// the product goes through shared memory before any addition.

#define BLOCK_DIM 256

extern "C" __global__ void dot_product(float *a, float *b, float *c, int n)
{
    __shared__ float r[BLOCK_DIM];
    int i = blockIdx.x * BLOCK_DIM + threadIdx.x;
    int step = BLOCK_DIM >> 1;
    // chargement des donnees
    if (i < n) {
        r[threadIdx.x] = a[i] * b[i];
    } else
        r[threadIdx.x] = 0.0f;
    __syncthreads();
    // calcul de la somme
    while (step >= 1) {
        if (threadIdx.x < step)
            r[threadIdx.x] += r[threadIdx.x + step];
        __syncthreads();
        step >>= 1;
    }
    c[blockIdx.x] = r[0];
}

// ---- The seed's host code: dot_async, which runs device_dot through
// std::async on ntasks CPU threads, each on its own stream, and prints each
// result beside the CPU's. The seed writes `new std::future<float>(ntasks)` and
// `new cudaStream_t(ntasks)` (one object each); it means arrays of ntasks. The
// seed does not show device_dot; this one does what its call means: copy a and
// b on the stream, launch dot_product with the grid of dot.launch (n = 65536:
// 256 blocks of BLOCK_DIM), copy the partial sums back and add them on the
// CPU. Each result is checked against the CPU's sum, which is timed on the
// host (course.h's host_timed: the machine running the program, not simulated).
#include <cmath>
#include <cstdio>
#include <future>
#include <iostream>

#include "../course.h"   // host_timed (the CPU baseline)

float device_dot(float *a, float *b, int n, cudaStream_t stream)
{
    int nb = (n + BLOCK_DIM - 1) / BLOCK_DIM;
    float *da, *db, *dc, *c = new float[nb];
    cudaMalloc(&da, n * sizeof(float));
    cudaMalloc(&db, n * sizeof(float));
    cudaMalloc(&dc, nb * sizeof(float));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaMemcpyAsync(da, a, n * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(db, b, n * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaEventRecord(start, stream);
    dot_product<<<nb, BLOCK_DIM, 0, stream>>>(da, db, dc, n);
    cudaEventRecord(stop, stream);
    cudaMemcpyAsync(c, dc, nb * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    printf("dot_product<<<%d, %d>>>: %.4f ms\n", nb, BLOCK_DIM, ms);
    float s = 0.0f;
    for (int i = 0; i < nb; i++)
        s += c[i];
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    delete[] c;
    return s;
}

bool dot_async(int n, int ntasks)
{
    float *a, *b;
    std::future<float> *dot = new std::future<float>[ntasks];
    cudaStream_t *streams = new cudaStream_t[ntasks];
    a = new float[n];
    b = new float[n];
    for (int i = 0; i < n; i++) {
        a[i] = 1.0f / (float)(i + 1);
        b[i] = (float)(i + 1);
    }
    float r = 0.0f;
    host_timed("dot product on the CPU, 65536 elements", 2.0 * n, [&] {
        for (int i = 0; i < n; i++)
            r += a[i] * b[i];
    });
    for (int tsk = 0; tsk < ntasks; tsk++) {
        cudaStreamCreate(streams + tsk);
        dot[tsk] = std::async(std::launch::async, device_dot, a, b, n, streams[tsk]);
    }
    cudaDeviceSynchronize();
    bool ok = true;
    for (int tsk = 0; tsk < ntasks; tsk++) {
        dot[tsk].wait();
        cudaStreamDestroy(streams[tsk]);
        float d = dot[tsk].get();
        std::cout << tsk << '\t' << r << '\t' << d << std::endl;
        ok = ok && std::fabs(d - r) <= 1e-5f * r;   // the two sum in different orders
    }
    delete[] streams;
    delete[] dot;
    delete[] a;
    delete[] b;
    return ok;
}

int main()
{
    bool ok = dot_async(65536, 2);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
