// validate/timeline/l2_fill.cu: how much the H100's L2 fetches from DRAM on a read miss, seen
// through ncu's lts__t_sector_hit_rate and dram__bytes_read (run under ncu --cache-control all,
// so every launch starts cold). Each launch reads one float every STRIDE floats of a 64 MiB
// buffer: stride 1 reads every sector, 8 one float per 32-byte sector, 16 sectors 0 and 2 of
// each 128-byte line, 32 sector 0 only. If a miss brought its whole 128-byte line, stride 1
// would hit 3 of 4 sectors; if only its sector, none.
#include <cstdio>

__global__ void read_stride(const float *in, float *out, int stride, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[(size_t)i * stride];
        if (v == 12345.0f)   // never true: the load stays, nothing is written
            out[0] = v;
    }
}

int main()
{
    const size_t bytes = 64u << 20;
    float *in, *out;
    cudaMalloc(&in, bytes);
    cudaMalloc(&out, 4);
    cudaMemset(in, 0, bytes);
    const int strides[] = {1, 2, 4, 8, 16, 32, 64};
    for (int s = 0; s < 7; s++) {
        int n = (int)(bytes / 4 / strides[s]);
        read_stride<<<(n + 255) / 256, 256>>>(in, out, strides[s], n);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
