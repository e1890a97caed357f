// validate/timeline/concurrency.cu: work sharing the GPU, timed by events ("name us", mean of REPS):
// two DRAM-bound kernels, two one-block kernels, two host threads. Run on the card and in warpsim.
#include <cstdio>
#include <thread>

#define REPS 5
#define N (16 << 20)
#define ITERS 20000

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

// one warp, a chain of dependent multiply-adds: latency-bound, one SM
__global__ void spin(float *out, int iters)
{
    float x = threadIdx.x;
    for (int i = 0; i < iters; i++)
        x = x * 0.999f + 0.5f;
    if (x == 12345.0f)
        out[0] = x;
}

static cudaEvent_t start, stop;
static cudaStream_t st[2];
static float *buf[2];

static void dram(int s) { scale<<<N / 256, 256, 0, st[s]>>>(buf[s], N); }
static void small(int s) { spin<<<1, 32, 0, st[s]>>>(buf[s], ITERS); }
// three one-block kernels, each waited for by the host (cudaStreamSynchronize)
static void synced(int s)
{
    for (int k = 0; k < 3; k++) {
        small(s);
        cudaStreamSynchronize(st[s]);
    }
}

// kernel(0) and kernel(streams - 1) between two events of the legacy stream; threads: each on its own thread
static void timed(const char *name, void (*kernel)(int), int streams, int threads)
{
    double sum = 0;
    for (int r = 0; r < REPS; r++) {
        cudaDeviceSynchronize();
        cudaEventRecord(start, 0);
        if (threads) {
            std::thread a(kernel, 0), b(kernel, 1);
            a.join();
            b.join();
        } else {
            kernel(0);
            kernel(streams - 1);
        }
        cudaEventRecord(stop, 0);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        sum += ms * 1000.0;
    }
    printf("%s %.2f\n", name, sum / REPS);
}

int main()
{
    cudaMalloc((void **)&buf[0], N * sizeof(float));
    cudaMalloc((void **)&buf[1], N * sizeof(float));
    cudaMemset(buf[0], 0, N * sizeof(float));
    cudaMemset(buf[1], 0, N * sizeof(float));
    cudaStreamCreate(&st[0]);
    cudaStreamCreate(&st[1]);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    small(0);   // the context and module are ready before anything is timed
    cudaDeviceSynchronize();
    timed("two_dram_kernels_1_stream", dram, 1, 0);
    timed("two_dram_kernels_2_streams", dram, 2, 0);
    timed("two_small_kernels_1_stream", small, 1, 0);
    timed("two_small_kernels_2_streams", small, 2, 0);
    timed("synced_small_kernels_1_thread", synced, 2, 0);
    timed("synced_small_kernels_2_threads", synced, 2, 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        fprintf(stderr, "concurrency: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
