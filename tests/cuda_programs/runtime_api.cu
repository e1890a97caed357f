// The runtime API call by call, each result printed so the test can compare
// it with what the CUDA Runtime API reference says the call returns.
// Run by tests/cuda_programs.sh against runtime_api.expected.
#include <cstdio>
#include <cstring>

__device__ int dev_var[4];
__constant__ float const_table[8];
__managed__ int managed_counter;

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

__global__ void with_shared(float *out)
{
    __shared__ float tile[256];
    tile[threadIdx.x] = const_table[threadIdx.x % 8] + dev_var[threadIdx.x % 4];
    __syncthreads();
    out[threadIdx.x] = tile[255 - threadIdx.x];
    atomicAdd(&managed_counter, 1);
}

__global__ void out_of_bounds(int *p)
{
    p[threadIdx.x + 1000000] = 1;
}

/* the call's result, then what cudaGetLastError says after it */
#define SHOW(call)                                                                 \
    do {                                                                           \
        int result_ = (int)(call);                                                 \
        printf("%-60s %d %s\n", #call, result_, cudaGetErrorName(cudaGetLastError())); \
    } while (0)

int main()
{
    int count = -1, device = -1;
    SHOW(cudaGetDeviceCount(&count));
    printf("count %d\n", count);
    SHOW(cudaSetDevice(1));
    SHOW(cudaGetLastError());
    SHOW(cudaSetDevice(0));
    SHOW(cudaGetDevice(&device));
    printf("device %d\n", device);

    cudaDeviceProp prop;
    SHOW(cudaGetDeviceProperties(&prop, 0));
    printf("cc %d.%d sms %d warp %d maxThreads %d sharedPerBlock %zu\n", prop.major, prop.minor,
           prop.multiProcessorCount, prop.warpSize, prop.maxThreadsPerBlock, prop.sharedMemPerBlock);
    int value = 0;
    SHOW(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0));
    printf("attribute sms %d\n", value);

    void *zero = (void *)1;
    SHOW(cudaMalloc(&zero, 0));
    printf("zero-byte pointer is null: %d\n", zero == NULL);
    SHOW(cudaFree(NULL));
    int host_int = 0;
    SHOW(cudaFree(&host_int));

    int *d = NULL;
    SHOW(cudaMalloc(&d, 64 * sizeof(int)));
    SHOW(cudaMemset(d, 0, 64 * sizeof(int)));
    int h[64];
    for (int i = 0; i < 64; i++)
        h[i] = i;
    SHOW(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    SHOW(cudaMemcpy(h, h, sizeof h, cudaMemcpyHostToDevice));
    SHOW(cudaMemcpy(d, h, sizeof h, (cudaMemcpyKind)7));
    SHOW(cudaMemcpy(d, h, 65 * sizeof(int), cudaMemcpyHostToDevice));
    add_one<<<2, 32>>>(d, 64);
    SHOW(cudaGetLastError());
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("h[0] %d h[63] %d\n", h[0], h[63]);
    SHOW(cudaMemset(d, 0xff, 4));
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDefault));
    printf("after memset h[0] %d h[1] %d\n", h[0], h[1]);

    add_one<<<1, 2048>>>(d, 64);
    SHOW(cudaGetLastError());
    SHOW(cudaGetLastError());
    add_one<<<0, 32>>>(d, 64);
    SHOW(cudaPeekAtLastError());
    SHOW(cudaGetLastError());

    float table[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {0};
    int vars[4] = {10, 20, 30, 40};
    size_t size = 0;
    SHOW(cudaMemcpyToSymbol(const_table, table, sizeof table));
    SHOW(cudaMemcpyToSymbol(dev_var, vars, sizeof vars));
    SHOW(cudaMemcpyFromSymbol(back, const_table, sizeof back));
    printf("back[7] %.1f\n", back[7]);
    SHOW(cudaGetSymbolSize(&size, dev_var));
    printf("symbol size %zu\n", size);
    SHOW(cudaMemcpyToSymbol(dev_var, vars, sizeof vars, 4));
    SHOW(cudaMemcpyToSymbol(host_int, vars, 4));

    float *out;
    SHOW(cudaMallocManaged(&out, 256 * sizeof(float)));
    managed_counter = 5;
    with_shared<<<1, 256>>>(out);
    SHOW(cudaDeviceSynchronize());
    printf("managed out[0] %.1f out[255] %.1f counter %d\n", out[0], out[255], managed_counter);

    cudaFuncAttributes attr;
    SHOW(cudaFuncGetAttributes(&attr, with_shared));
    printf("static shared %zu\n", attr.sharedSizeBytes);
    int blocks = 0;
    SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_one, 256, 0));
    printf("blocks per SM %d\n", blocks);

    int *pinned = NULL, *mapped = NULL;
    SHOW(cudaHostAlloc(&pinned, 32 * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < 32; i++)
        pinned[i] = 100 + i;
    SHOW(cudaHostGetDevicePointer(&mapped, pinned, 0));
    add_one<<<1, 32>>>(mapped, 32);
    SHOW(cudaDeviceSynchronize());
    printf("mapped pinned[31] %d\n", pinned[31]);
    SHOW(cudaFreeHost(pinned));

    cudaStream_t stream;
    cudaEvent_t start, stop, untimed;
    float ms = -1;
    SHOW(cudaStreamCreate(&stream));
    SHOW(cudaEventCreate(&start));
    SHOW(cudaEventCreate(&stop));
    SHOW(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    SHOW(cudaEventRecord(start, stream));
    SHOW(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, stream));
    add_one<<<2, 32, 0, stream>>>(d, 64);
    SHOW(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, stream));
    SHOW(cudaEventRecord(stop, stream));
    SHOW(cudaStreamSynchronize(stream));
    SHOW(cudaEventSynchronize(stop));
    SHOW(cudaEventElapsedTime(&ms, start, stop));
    printf("elapsed is a time: %d, stream result h[1] %d\n", ms >= 0, h[1]);
    SHOW(cudaEventRecord(untimed, stream));
    SHOW(cudaEventElapsedTime(&ms, start, untimed));
    SHOW(cudaEventDestroy(start));
    SHOW(cudaEventDestroy(stop));
    SHOW(cudaEventDestroy(untimed));
    SHOW(cudaStreamDestroy(stream));

    printf("%s | %s\n", cudaGetErrorString(cudaErrorIllegalAddress), cudaGetErrorName(cudaErrorInvalidConfiguration));

    out_of_bounds<<<1, 32>>>(d);
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaMalloc(&d, 16));
    SHOW(cudaGetLastError());
    return 0;
}
