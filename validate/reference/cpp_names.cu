// Kernels with C++ names (namespaces, templates, const and restrict
// pointers, structs, extern "C"), for the names ncu's CSV gives them.
#include <cstdio>

namespace course {
__global__ void scale(float *v, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= s;
}
}

template <typename T, int N> __global__ void fill(T *v)
{
    if (threadIdx.x < N) v[threadIdx.x] = (T)threadIdx.x;
}

__global__ void add(const float *a, const float *__restrict__ b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

struct Pair { int x; float y; };
__global__ void pairs(Pair *p, Pair v, unsigned long long k, double d, char c) { p[threadIdx.x] = v; p[0].x += (int)k + (int)d + c; }

extern "C" __global__ void plain_c(int *v) { v[threadIdx.x] = 1; }

int main()
{
    float *f; int *i; double *d; Pair *p;
    cudaMalloc(&f, 4096); cudaMalloc(&i, 4096); cudaMalloc(&d, 4096); cudaMalloc(&p, 4096);
    course::scale<<<1, 64>>>(f, 2.0f, 64);
    fill<float, 32><<<1, 32>>>(f);
    fill<int, 16><<<1, 32>>>(i);
    fill<double, 8><<<1, 32>>>(d);
    add<<<1, 64>>>(f, f, f, 64);
    Pair v = {1, 2.0f};
    pairs<<<1, 32>>>(p, v, 3ull, 4.0, 'a');
    plain_c<<<1, 32>>>(i);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
