// Two simulated GPUs (--devices 2): each allocates, device 0 reads device 1's
// memory once peer access is on, cudaMemcpyPeer copies between them, and the
// peer calls return what the CUDA documentation says; a kernel touching the
// other GPU's memory without peer access faults (the last launch).
#include <cstdio>

__global__ void add_from(int *mine, const int *theirs) { mine[threadIdx.x] += theirs[threadIdx.x]; }

#define SHOW(call)                                                                   \
    do {                                                                             \
        int result_ = (int)(call);                                                   \
        printf("%-50s %s\n", #call, cudaGetErrorName((cudaError_t)result_));         \
    } while (0)

int main()
{
    int count = 0, can = -1, h[32];
    SHOW(cudaGetDeviceCount(&count));
    printf("devices %d\n", count);
    SHOW(cudaDeviceCanAccessPeer(&can, 0, 1));
    printf("0 can access 1: %d\n", can);
    SHOW(cudaDeviceCanAccessPeer(&can, 0, 0));
    printf("0 can access 0: %d\n", can);
    SHOW(cudaSetDevice(2));

    int *d0, *d1;
    for (int i = 0; i < 32; i++) h[i] = i;
    SHOW(cudaSetDevice(1));
    SHOW(cudaMalloc(&d1, sizeof h));
    SHOW(cudaMemcpy(d1, h, sizeof h, cudaMemcpyHostToDevice));
    SHOW(cudaSetDevice(0));
    SHOW(cudaMalloc(&d0, sizeof h));
    SHOW(cudaMemcpyPeer(d0, 0, d1, 1, sizeof h));
    SHOW(cudaMemcpyPeer(d0, 1, d1, 1, sizeof h));
    SHOW(cudaDeviceDisablePeerAccess(1));
    SHOW(cudaDeviceEnablePeerAccess(1, 0));
    SHOW(cudaDeviceEnablePeerAccess(1, 0));
    SHOW(cudaDeviceEnablePeerAccess(0, 0));
    add_from<<<1, 32>>>(d0, d1);
    SHOW(cudaDeviceSynchronize());
    SHOW(cudaMemcpy(h, d0, sizeof h, cudaMemcpyDeviceToHost));
    printf("h[31] %d\n", h[31]);
    SHOW(cudaDeviceDisablePeerAccess(1));
    add_from<<<1, 32>>>(d0, d1);
    SHOW(cudaDeviceSynchronize());
    return 0;
}
