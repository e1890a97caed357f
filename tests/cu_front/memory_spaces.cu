// Local arrays, static and dynamic shared memory, constant and global
// variables with initializers, managed memory, char/short/double data.
__constant__ float weights[8] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};
__device__ int table[4] = {1, -2, 3, -4};
__device__ double dtable[2] = {1.0, 0.25};
__device__ unsigned long long total;
__managed__ int managed_flag;

extern __shared__ float dyn[];

__global__ void spaces(float *out, const float *__restrict__ in, signed char *c, short *s, double *d, int n)
{
    __shared__ float tile[128];
    float loc[12];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    for (int k = 0; k < 12; k++)
        loc[k] = in[(i + k) % n] * weights[k & 7];
    tile[t] = loc[i % 12];
    dyn[t] = tile[(t + 1) % 128];
    __syncthreads();
    out[i] = dyn[t] + table[i & 3];
    c[i] = c[i] + 1;
    s[i] = s[i] * 3;
    d[i] = d[i] * dtable[i & 1] + 0.5;
    atomicAdd(&total, 1ull);
    if (i == 0)
        managed_flag = 1;
}
