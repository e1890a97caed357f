// libstdc++'s threads and futures beside warpsim's CUDA headers: <future>,
// <thread>, <memory>, <string> (libstdc++ 12 writes __attribute__((__noinline__))
// in bits/shared_ptr_base.h, 13 also in bits/basic_string.h and .tcc), and a
// device function declared __noinline__. Four std::async tasks each scale
// their own slice of a device buffer on their own stream; the main thread
// checks the sums.
#include <algorithm>
#include <future>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

__device__ __noinline__ float twice(float x) { return 2.0f * x; }

__global__ void scale(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = twice(v[i]);
}

static float task(float *dv, int n, int first)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    std::vector<float> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (float)(first + i);
    cudaMemcpyAsync(dv, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s);
    scale<<<(n + 127) / 128, 128, 0, s>>>(dv, n);
    cudaMemcpyAsync(h.data(), dv, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    float sum = 0.0f;
    std::for_each(h.begin(), h.end(), [&](float x) { sum += x; });
    return sum;
}

int main()
{
    const int ntasks = 4, n = 1000;
    float *dv;
    cudaMalloc(&dv, ntasks * n * sizeof(float));
    std::vector<std::future<float>> results;
    for (int t = 0; t < ntasks; t++)
        results.push_back(std::async(std::launch::async, task, dv + t * n, n, t * n));
    auto shared = std::make_shared<std::string>("sums:");
    bool ok = true;
    for (int t = 0; t < ntasks; t++) {
        float got = results[t].get();
        double want = 2.0 * (t * n * (double)n + n * (n - 1) / 2.0);
        ok = ok && got == (float)want;
        *shared += " " + std::to_string((long long)got);
    }
    std::cout << *shared << '\n' << (ok ? "OK" : "FAILED") << '\n';
    cudaFree(dv);
    return ok ? 0 : 1;
}
