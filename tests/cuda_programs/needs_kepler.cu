// A shuffle on a GPU older than Kepler: the driver finds no kernel image for
// the device, so the launch fails with cudaErrorNoKernelImageForDevice (as a
// binary built for sm_30 and later does on a Fermi), and warpsim names the
// instruction and the first architecture that has it.
#include <cstdio>

__global__ void broadcast(int *out)
{
    out[threadIdx.x] = __shfl_sync(0xffffffff, (int)threadIdx.x + 1, 0);
}

int main()
{
    int *d, h[32] = {0};
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    broadcast<<<1, 32>>>(d);
    cudaError_t launch = cudaGetLastError();
    cudaError_t after = cudaDeviceSynchronize();   // nothing sticks: the launch never started
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("launch %s, then %s, h[5]=%d\n", cudaGetErrorName(launch), cudaGetErrorName(after), h[5]);
    cudaFree(d);
    return launch == cudaSuccess ? 0 : 1;
}
