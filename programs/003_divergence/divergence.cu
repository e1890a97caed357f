// Seed 003 (Inria, GPU code optimisation part 3): warp divergence.  PTX twin: divergence.ptx.
// All four kernels compute, for thread tid < n (global index), from s = in[tid]:
//   div_branch          if (tid % 2) s += 1.0f/tid; else s -= 1.0f/tid;   (divergent)
//   div_hoisted         t = 1.0f/tid hoisted out of the branch (same result)
//   div_ternary         both sides computed, then selected: R = c ? A : B
//                       (predication/select; same result)
//   div_two_per_thread  i = 2*tid; s += 1.0f/i - 1.0f/(i+1)   (no divergence:
//                       each thread handles one odd and one even term)
//   div_branch_warp, div_ternary_warp: the first and the third on a condition
//                       the same for all 32 lanes of a warp, (tid / 32) % 2
// tid == 0 divides by zero on purpose, exactly as the slide: 1.0f/0 = +inf.

extern "C" __global__ void div_branch(const float *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float s = in[tid];
        if (tid % 2) {
            s += 1.0f / tid;
        } else {
            s -= 1.0f / tid;
        }
        out[tid] = s;
    }
}

extern "C" __global__ void div_hoisted(const float *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float s = in[tid];
        float t = 1.0f / tid;
        if (tid % 2) {
            s += t;
        } else {
            s -= t;
        }
        out[tid] = s;
    }
}

extern "C" __global__ void div_ternary(const float *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float s = in[tid];
        float t = 1.0f / tid;
        float A = s + t;
        float B = s - t;
        s = (tid % 2) ? A : B;
        out[tid] = s;
    }
}

extern "C" __global__ void div_two_per_thread(const float *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float s = in[tid];
        // Compute 2 values per thread
        int i = 2 * tid;
        s += 1.0f / i - 1.0f / (i + 1);
        out[tid] = s;
    }
}

// The slides' "we lose in all cases", on a warp-uniform condition: the branch
// no longer splits a warp, and each warp runs one side; the ternary still runs both.
extern "C" __global__ void div_branch_warp(const float *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float s = in[tid];
        if ((tid / 32) % 2) {
            s += 1.0f / tid;
        } else {
            s -= 1.0f / tid;
        }
        out[tid] = s;
    }
}

extern "C" __global__ void div_ternary_warp(const float *in, float *out, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float s = in[tid];
        float t = 1.0f / tid;
        float A = s + t;
        float B = s - t;
        s = ((tid / 32) % 2) ? A : B;
        out[tid] = s;
    }
}

// ---- Host code (the seed has none): the four kernels of divergence.launch
// (and the two warp-uniform ones of uniform.launch) over n = 65536 floats (random in [-1, 1), as the .launch fills `in`), 256
// blocks of 256 threads, each launch timed and checked element by element
// against the same arithmetic on the CPU (division correctly rounded, as
// div.rn.f32; tid 0 gives -inf or +inf, as on the GPU).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../course.h"   // splitmix64 (random=SEED) and timed (a launch between two events)

int main()
{
    const int n = 65536;
    const size_t bytes = n * sizeof(float);
    std::vector<float> hin(n);
    uint64_t seed = 1;
    for (float &x : hin)
        x = (float)((double)(splitmix64(seed) >> 40) / 8388608.0 - 1.0);
    float *din, *dout[6];
    cudaMalloc(&din, bytes);
    for (float *&d : dout)
        cudaMalloc(&d, bytes);
    cudaMemcpy(din, hin.data(), bytes, cudaMemcpyHostToDevice);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    dim3 block(256), grid((n + 255) / 256);
    timed("div_branch         (if/else on tid % 2)", [&] { div_branch<<<grid, block>>>(din, dout[0], n); });
    timed("div_hoisted        (1.0f/tid before the if)", [&] { div_hoisted<<<grid, block>>>(din, dout[1], n); });
    timed("div_ternary        (both sides, then select)", [&] { div_ternary<<<grid, block>>>(din, dout[2], n); });
    timed("div_two_per_thread (no divergence)", [&] { div_two_per_thread<<<grid, block>>>(din, dout[3], n); });
    timed("div_branch_warp    (if/else on (tid/32) % 2)", [&] { div_branch_warp<<<grid, block>>>(din, dout[4], n); });
    timed("div_ternary_warp   (both sides, then select)", [&] { div_ternary_warp<<<grid, block>>>(din, dout[5], n); });

    bool ok = true;
    std::vector<float> got(n);
    for (int k = 0; k < 6; k++) {
        cudaMemcpy(got.data(), dout[k], bytes, cudaMemcpyDeviceToHost);
        for (int tid = 0; tid < n; tid++) {
            float s = hin[tid], want;
            if (k < 3 || k > 3) {
                float t = 1.0f / tid;
                want = (k < 3 ? tid % 2 : (tid / 32) % 2) ? s + t : s - t;
            } else {
                int i = 2 * tid;
                want = s + (1.0f / i - 1.0f / (i + 1));
            }
            ok = ok && got[tid] == want;
        }
    }
    printf("Check: %s\n", ok ? "OK" : "FAILED");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    for (float *d : dout)
        cudaFree(d);
    return ok ? 0 : 1;
}
