// The simulated timeline: streams that overlap copies with kernels, pageable
// copies that do not, the legacy default stream's rules, events that are not
// ready until the simulated host clock reaches them. It prints simulated
// nanoseconds; tests/cuda_programs.sh computes what each should be by hand
// from the preset's parameters (`warpsim arch show`) and the kernel's
// predicted duration (`warpsim run --csv`).
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

static const int n = 1 << 18;            // 1 MiB of floats per stream
static const size_t bytes = n * sizeof(float);

static double ns(cudaEvent_t a, cudaEvent_t b)
{
    float ms = -1;
    cudaEventElapsedTime(&ms, a, b);
    return ms * 1e6;
}

int main()
{
    float *h[2], *d[2], *pageable = (float *)malloc(bytes);
    cudaStream_t st[2], nonblocking;
    cudaEvent_t start, stop, mark;
    for (int s = 0; s < 2; s++) {
        cudaMallocHost(&h[s], bytes);
        cudaMalloc(&d[s], bytes);
        cudaStreamCreate(&st[s]);
        for (int i = 0; i < n; i++)
            h[s][i] = (float)(i + s);
    }
    cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventCreate(&mark);

    // an event never recorded: the runtime API reference's cudaErrorInvalidResourceHandle
    float ms;
    printf("elapsed of an unrecorded event: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, start, stop)));
    printf("query of an unrecorded event: %s\n", cudaGetErrorName(cudaEventQuery(mark)));

    // 1. two streams, each copy in, kernel, copy out: stream 1's copy in overlaps stream 0's kernel
    cudaEventRecord(start, 0);
    for (int s = 0; s < 2; s++) {
        cudaMemcpyAsync(d[s], h[s], bytes, cudaMemcpyHostToDevice, st[s]);
        scale<<<n / 256, 256, 0, st[s]>>>(d[s], n);
        cudaMemcpyAsync(h[s], d[s], bytes, cudaMemcpyDeviceToHost, st[s]);
    }
    cudaEventRecord(stop, 0);   // the legacy stream: after both streams' work
    printf("query before the work is done: %s\n", cudaGetErrorName(cudaEventQuery(stop)));
    printf("elapsed before the work is done: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, start, stop)));
    printf("stream query before: %s\n", cudaGetErrorName(cudaStreamQuery(st[1])));
    cudaEventSynchronize(stop);
    printf("query after synchronize: %s\n", cudaGetErrorName(cudaEventQuery(stop)));
    printf("stream query after: %s\n", cudaGetErrorName(cudaStreamQuery(st[1])));
    printf("two streams ns %.0f\n", ns(start, stop));
    int ok = 1;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < n; i++)
            ok &= h[s][i] == 2.0f * (float)(i + s);
    printf("results %s\n", ok ? "OK" : "WRONG");

    // 2. a cudaMemcpyAsync from pageable memory holds the host until it is done: the kernel issued to
    //    another stream after it cannot start before; from pinned memory it starts at once
    for (int pinned = 0; pinned < 2; pinned++) {
        cudaDeviceSynchronize();
        cudaEventRecord(start, 0);
        cudaMemcpyAsync(d[0], pinned ? h[0] : pageable, bytes, cudaMemcpyHostToDevice, st[0]);
        cudaEventRecord(mark, st[1]);   // when stream 1's next work could start
        scale<<<n / 256, 256, 0, st[1]>>>(d[1], n);
        cudaEventSynchronize(mark);
        printf("%s copy, the other stream's kernel may start after ns %.0f\n", pinned ? "pinned" : "pageable",
               ns(start, mark));
    }

    // 3. the legacy default stream waits for a blocking stream's work, not for a non-blocking stream's
    for (int blocking = 1; blocking >= 0; blocking--) {
        cudaDeviceSynchronize();
        cudaEventRecord(start, 0);
        cudaMemcpyAsync(d[0], h[0], bytes, cudaMemcpyHostToDevice, blocking ? st[0] : nonblocking);
        cudaEventRecord(mark, 0);
        cudaEventSynchronize(mark);
        printf("%s stream: the default stream's next work after ns %.0f\n", blocking ? "blocking" : "non-blocking",
               ns(start, mark));
    }

    // 4. polling: cudaEventQuery answers cudaErrorNotReady until the host's simulated clock gets there
    cudaDeviceSynchronize();
    cudaMemcpyAsync(d[0], h[0], bytes, cudaMemcpyHostToDevice, st[0]);
    cudaEventRecord(mark, st[0]);
    int polls = 0;
    while (cudaEventQuery(mark) == cudaErrorNotReady)
        polls++;
    printf("polled until done: %s\n", polls > 0 ? "yes" : "no");

    for (int s = 0; s < 2; s++) {
        cudaFreeHost(h[s]);
        cudaFree(d[s]);
        cudaStreamDestroy(st[s]);
    }
    cudaStreamDestroy(nonblocking);
    free(pageable);
    return 0;
}
