// One host clock for the process (sim/timeline.h): run with --devices 2. Launches on GPU 0 then GPU 1 run side
// by side and the host's synchronisations of both follow one clock; two host threads, each copying 1 MiB from
// or into pageable memory on its own stream, take the host's time one after the other (the driver stages
// pageable copies on the calling thread, and the runtime's calls share the host's clock). It prints simulated
// nanoseconds; tests/cuda_programs.sh computes each from the preset's parameters.
#include <cstdio>
#include <cstdlib>
#include <thread>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

static const int n = 1 << 18;   // 1 MiB of floats
static const size_t bytes = n * sizeof(float);

static double ns(cudaEvent_t a, cudaEvent_t b)
{
    float ms = -1;
    cudaEventElapsedTime(&ms, a, b);
    return ms * 1e6;
}

int main()
{
    float *d[2];
    for (int g = 0; g < 2; g++) {
        cudaSetDevice(g);
        cudaMalloc(&d[g], bytes);
    }
    cudaSetDevice(0);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    // 1. a kernel on GPU 0, one on GPU 1, synchronise GPU 1 then GPU 0, from one clock
    cudaEventRecord(start);
    scale<<<n / 256, 256>>>(d[0], n);
    cudaSetDevice(1);
    scale<<<n / 256, 256>>>(d[1], n);
    cudaDeviceSynchronize();
    cudaSetDevice(0);
    cudaDeviceSynchronize();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    printf("two GPUs ns %.0f\n", ns(start, stop));

    // 2. two host threads, each a pageable copy on its own stream, one to the device and one from it
    float *host[2] = {(float *)calloc(n, sizeof(float)), (float *)calloc(n, sizeof(float))};
    cudaStream_t st[2];
    cudaStreamCreate(&st[0]);
    cudaStreamCreate(&st[1]);
    cudaDeviceSynchronize();
    cudaEventRecord(start);
    std::thread in([&] { cudaMemcpyAsync(d[0], host[0], bytes, cudaMemcpyHostToDevice, st[0]); });
    std::thread out([&] { cudaMemcpyAsync(host[1], d[0], bytes, cudaMemcpyDeviceToHost, st[1]); });
    in.join();
    out.join();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    printf("two threads ns %.0f\n", ns(start, stop));
    free(host[0]);
    free(host[1]);
    return 0;
}
