// printf becomes a call to the .extern function vprintf: it parses, but the
// executor refuses to run it.
#include <cstdio>
__global__ void hello(int n)
{
    if (threadIdx.x == 0)
        printf("hello from block %d of %d\n", blockIdx.x, n);
}
