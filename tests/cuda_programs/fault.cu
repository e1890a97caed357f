// A kernel that writes past its buffer: the launch call succeeds, the next
// synchronising call returns the sticky cudaErrorIllegalAddress, and warpsim
// names this file and line on stderr.
#include <cstdio>

__global__ void past_the_end(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i] = i;   // no bounds check: threads n and above write past the buffer (line 9)
}

int main()
{
    int *d;
    cudaMalloc(&d, 100 * sizeof(int));
    past_the_end<<<1, 128>>>(d, 100);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("launch: %s\nsync: %s (%s)\n", cudaGetErrorName(launch), cudaGetErrorName(sync), cudaGetErrorString(sync));
    return sync == cudaSuccess ? 0 : 3;
}
