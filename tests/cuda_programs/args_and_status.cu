// The program's arguments reach main() and its exit status comes back.
#include <cstdio>
#include <cstdlib>

__global__ void twice(int *v) { v[threadIdx.x] *= 2; }

int main(int argc, char **argv)
{
    printf("argc=%d", argc);
    for (int i = 1; i < argc; i++)
        printf(" [%s]", argv[i]);
    printf("\n");
    int h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    for (int k = 0; k < 3; k++)
        twice<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("h[3]=%d\n", h[3]);
    return argc > 1 ? atoi(argv[1]) : 0;
}
