// Loops (unrolled and not), divergent branches, early exits, switch.
__global__ void control(int *out, const int *in, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int acc = 0;
#pragma unroll 1
    for (int k = 0; k < in[t]; k++)
        acc += k * k;
    switch (in[t] & 3) {
    case 0: acc += 10; break;
    case 1: acc -= 3; break;
    case 2: acc *= 2; break;
    default: acc = -acc; break;
    }
    while (acc > 1000)
        acc /= 2;
    if (t & 1)
        acc = acc ^ 0x55;
    else
        acc = acc | 0x100;
    out[t] = acc;
}
