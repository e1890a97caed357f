// Seed 003, "Device-mapped memory", "Unified virtual address space (UVA)", "Multi-GPU programming" and
// "Peer-to-peer memory copy/access". Run it on two simulated GPUs:
//     build/warpsim run programs/003_mapped_multi_gpu/mapped_multi_gpu.cu --devices 2
//   1. mapped memory: cudaHostAlloc(cudaHostAllocMapped), cudaHostGetDevicePointer, a kernel that writes
//      host memory directly, read by the host after cudaDeviceSynchronize with no cudaMemcpy;
//   2. UVA: cudaPointerGetAttributes says where an address lives, and cudaMemcpyDefault copies without a
//      direction;
//   3. two GPUs: cudaSetDevice, half of an array on each, a kernel on each at the same time, joined by
//      cudaStreamWaitEvent on an event of the other GPU, against the whole array on one GPU;
//   4. peer to peer: cudaDeviceCanAccessPeer, cudaMemcpyPeer, plain cudaMemcpy between the GPUs (UVA), and
//      after cudaDeviceEnablePeerAccess a kernel on GPU 0 that reads GPU 1's memory directly.
// Each step timed with events and checked on the CPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" __global__ void scale_add(float *x, int n, float a, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

// out[i] = mine[i] + theirs[i]: on GPU 0, with `theirs` in GPU 1's memory once peer access is on
extern "C" __global__ void add_peer(float *out, const float *mine, const float *theirs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = mine[i] + theirs[i];
}

static bool ok = true;
#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            printf("%s: %s (line %d)\n", #call, cudaGetErrorString(e_), __LINE__);           \
            ok = false;                                                                       \
        }                                                                                     \
    } while (0)

static float us_between(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms * 1000.0f;
}

static int wrong(const float *h, int n, float (*want)(int), const char *what)
{
    for (int i = 0; i < n; i++)
        if (h[i] != want(i)) {
            printf("%s: [%d] = %g, the CPU says %g\n", what, i, h[i], want(i));
            ok = false;
            return 1;
        }
    return 0;
}
static float initial(int i) { return (float)(i % 1000); }
static float scaled(int i) { return 2.0f * initial(i) + 1.0f; }
static float summed(int i) { return scaled(i) + scaled(i); }

static const char *where(const void *p)
{
    cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, p) != cudaSuccess)
        return "?";
    static char s[64];
    if (at.type == cudaMemoryTypeDevice)
        snprintf(s, sizeof s, "device memory of GPU %d", at.device);
    else
        snprintf(s, sizeof s, "%s", at.type == cudaMemoryTypeHost ? "pinned host memory"
                                    : at.type == cudaMemoryTypeManaged ? "managed memory" : "unregistered host memory");
    return s;
}

int main()
{
    const int n = 1 << 22, block = 256;
    const size_t bytes = n * sizeof(float);
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    printf("%d GPU%s\n", count, count > 1 ? "s" : "");
    cudaEvent_t start, stop;
    CHECK(cudaSetDevice(0));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    printf("-- 1. mapped host memory, %d floats (%zu MiB)\n", n, bytes >> 20);
    float *h_mapped, *d_mapped, *d_buf, *h = (float *)malloc(bytes);
    CHECK(cudaHostAlloc((void **)&h_mapped, bytes, cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&d_mapped, h_mapped, 0));
    CHECK(cudaMalloc(&d_buf, bytes));
    for (int i = 0; i < n; i++)
        h_mapped[i] = h[i] = initial(i);   // the host writes through its own pointer
    printf("host pointer %s the device pointer\n", (void *)h_mapped == (void *)d_mapped ? "==" : "!=");
    CHECK(cudaEventRecord(start));
    scale_add<<<n / block, block>>>(d_mapped, n, 2.0f, 1.0f);   // the kernel reads and writes host memory
    CHECK(cudaEventRecord(stop));
    float us_mapped = us_between(start, stop);
    CHECK(cudaDeviceSynchronize());
    wrong(h_mapped, n, scaled, "mapped");   // no cudaMemcpy: the host reads what the kernel wrote
    CHECK(cudaEventRecord(start));
    CHECK(cudaMemcpy(d_buf, h, bytes, cudaMemcpyHostToDevice));
    scale_add<<<n / block, block>>>(d_buf, n, 2.0f, 1.0f);
    CHECK(cudaMemcpy(h, d_buf, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaEventRecord(stop));
    float us_copies = us_between(start, stop);
    wrong(h, n, scaled, "copies");
    printf("kernel on mapped memory, no copy:            %8.2f us\n", us_mapped);
    printf("copy in, kernel on device memory, copy out:  %8.2f us (pageable host memory)\n", us_copies);

    printf("-- 2. unified virtual addressing\n");
    printf("h_mapped: %s\n", where(h_mapped));
    printf("d_buf:    %s\n", where(d_buf));
    printf("h:        %s\n", where(h));
    for (int i = 0; i < n; i++)
        h[i] = initial(i);
    CHECK(cudaMemcpy(d_buf, h, bytes, cudaMemcpyDefault));          // the runtime finds the direction
    CHECK(cudaMemcpy(h_mapped, d_buf, bytes, cudaMemcpyDefault));
    printf("cudaMemcpyDefault host -> device -> pinned host: %s\n",
           wrong(h_mapped, n, initial, "cudaMemcpyDefault") ? "WRONG" : "the same values");

    if (count < 2) {   // parts 1 and 2 need one GPU; the rest needs two
        printf("-- 3. and 4. need two GPUs: warpsim run mapped_multi_gpu.cu --devices 2\n");
        CHECK(cudaFree(d_buf));
        CHECK(cudaFreeHost(h_mapped));
        CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
        free(h);
        printf("Check: %s\n", ok ? "OK" : "FAILED");
        return ok ? 0 : 1;
    }

    printf("-- 3. two GPUs: scale_add on %d floats\n", n);
    float *d0, *d1;
    cudaEvent_t done1, start1, stop1;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&d0, bytes));
    CHECK(cudaSetDevice(1));                 // every call from here concerns GPU 1
    CHECK(cudaMalloc(&d1, bytes));
    CHECK(cudaEventCreate(&done1));
    CHECK(cudaEventCreate(&start1));
    CHECK(cudaEventCreate(&stop1));
    CHECK(cudaSetDevice(0));
    CHECK(cudaMemcpy(d0, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    scale_add<<<n / block, block>>>(d0, n, 2.0f, 1.0f);
    CHECK(cudaEventRecord(stop));
    float us_one = us_between(start, stop);
    CHECK(cudaMemcpy(h, d0, bytes, cudaMemcpyDeviceToHost));
    wrong(h, n, scaled, "one GPU");

    // the same array cut in two: the first half on GPU 0, the second on GPU 1
    const int half = n / 2;
    for (int i = 0; i < n; i++)
        h[i] = initial(i);
    CHECK(cudaMemcpy(d0, h, half * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaSetDevice(1));
    CHECK(cudaMemcpy(d1, h + half, half * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaSetDevice(0));
    CHECK(cudaEventRecord(start));
    scale_add<<<half / block, block>>>(d0, half, 2.0f, 1.0f);   // returns at once: GPU 0 works...
    CHECK(cudaEventRecord(stop));
    CHECK(cudaSetDevice(1));
    CHECK(cudaEventRecord(start1));
    scale_add<<<half / block, block>>>(d1, half, 2.0f, 1.0f);   // ...while GPU 1 works
    CHECK(cudaEventRecord(stop1));
    CHECK(cudaEventRecord(done1));
    CHECK(cudaSetDevice(0));
    CHECK(cudaStreamWaitEvent(0, done1, 0));   // GPU 0's stream waits for GPU 1's kernel (one host clock: README)
    float us_gpu0 = us_between(start, stop), us_gpu1 = us_between(start1, stop1);
    CHECK(cudaMemcpy(h, d0, half * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaSetDevice(1));
    CHECK(cudaMemcpy(h + half, d1, half * sizeof(float), cudaMemcpyDeviceToHost));
    wrong(h, n, scaled, "two GPUs");
    printf("one GPU, %d floats:        %8.2f us\n", n, us_one);
    printf("GPU 0, the first %d:       %8.2f us\n", half, us_gpu0);
    printf("GPU 1, the other %d:       %8.2f us (at the same time: %.2fx the one GPU's speed)\n", half, us_gpu1,
           us_one / (us_gpu0 > us_gpu1 ? us_gpu0 : us_gpu1));

    printf("-- 4. peer to peer\n");
    int can01 = 0, can10 = 0;
    CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
    CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
    printf("cudaDeviceCanAccessPeer: 0 -> 1 %d, 1 -> 0 %d\n", can01, can10);
    // both GPUs hold the whole scaled array
    CHECK(cudaSetDevice(1));
    CHECK(cudaMemcpy(d1, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaSetDevice(0));
    CHECK(cudaMemcpy(d0, h, bytes, cudaMemcpyHostToDevice));
    float *d0_copy, *d0_sum;
    CHECK(cudaMalloc(&d0_copy, bytes));
    CHECK(cudaMalloc(&d0_sum, bytes));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    CHECK(cudaMemcpyPeer(d0_copy, 0, d1, 1, bytes));           // GPU 1 -> GPU 0
    CHECK(cudaEventRecord(stop));
    float us_peer = us_between(start, stop);
    CHECK(cudaMemcpy(h, d0_copy, bytes, cudaMemcpyDeviceToHost));
    wrong(h, n, scaled, "cudaMemcpyPeer");
    CHECK(cudaMemset(d0_copy, 0, bytes));
    CHECK(cudaMemcpy(d0_copy, d1, bytes, cudaMemcpyDefault));  // with UVA: a plain copy between the GPUs
    CHECK(cudaMemcpy(h, d0_copy, bytes, cudaMemcpyDeviceToHost));
    wrong(h, n, scaled, "cudaMemcpyDefault between GPUs");
    printf("cudaMemcpyPeer of %zu MiB, GPU 1 -> GPU 0: %8.2f us  %6.1f GB/s\n", bytes >> 20, us_peer,
           bytes / us_peer / 1000.0);
    CHECK(cudaDeviceEnablePeerAccess(1, 0));                   // GPU 0 (current) may now touch GPU 1's memory
    CHECK(cudaEventRecord(start));
    add_peer<<<n / block, block>>>(d0_sum, d0, d1, n);         // reads d1 on GPU 1 directly
    CHECK(cudaEventRecord(stop));
    float us_add = us_between(start, stop);
    CHECK(cudaMemcpy(h, d0_sum, bytes, cudaMemcpyDeviceToHost));
    wrong(h, n, summed, "add_peer");
    CHECK(cudaEventRecord(start));
    add_peer<<<n / block, block>>>(d0_sum, d0, d0_copy, n);    // the same sum, both arrays on GPU 0
    CHECK(cudaEventRecord(stop));
    float us_local = us_between(start, stop);
    CHECK(cudaMemcpy(h, d0_sum, bytes, cudaMemcpyDeviceToHost));
    wrong(h, n, summed, "add_peer, local");
    printf("add_peer on GPU 0 reading GPU 1's array: %8.2f us, out[999] = %g\n", us_add, h[999]);
    printf("the same, both arrays on GPU 0:          %8.2f us\n", us_local);

    CHECK(cudaGetLastError());
    CHECK(cudaFree(d0_copy)); CHECK(cudaFree(d0_sum)); CHECK(cudaFree(d0)); CHECK(cudaFree(d_buf));
    CHECK(cudaFreeHost(h_mapped));
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaSetDevice(1));
    CHECK(cudaFree(d1));
    CHECK(cudaEventDestroy(done1)); CHECK(cudaEventDestroy(start1)); CHECK(cudaEventDestroy(stop1));
    free(h);
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
