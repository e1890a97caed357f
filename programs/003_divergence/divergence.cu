// Seed 003 (Inria, GPU code optimisation part 3): warp divergence.  PTX twin: divergence.ptx.
// All four kernels compute, for thread tid < n (global index), from s = in[tid]:
//   div_branch          if (tid % 2) s += 1.0f/tid; else s -= 1.0f/tid;   (divergent)
//   div_hoisted         t = 1.0f/tid hoisted out of the branch (same result)
//   div_ternary         both sides computed, then selected: R = c ? A : B
//                       (predication/select; same result)
//   div_two_per_thread  i = 2*tid; s += 1.0f/i - 1.0f/(i+1)   (no divergence:
//                       each thread handles one odd and one even term)
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
