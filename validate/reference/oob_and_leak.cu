// An out-of-bounds write (memcheck) and a leaked allocation (--leak-check full).
#include <cstdio>
__global__ void past_the_end(int *p) { p[threadIdx.x] = threadIdx.x; }
int main()
{
    int *p, *kept; cudaMalloc(&p, 100 * sizeof(int)); cudaMalloc(&kept, 4096);
    past_the_end<<<1, 128>>>(p);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
