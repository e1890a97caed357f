// Seed 003, "Constant memory": an array declared __constant__ and initialised
// in place, then read-only on the device.  Its PTX has a .const variable with
// an initialiser.
//   const_poly: x = in[i];  y = c[0]; y = y*x + c[1]; y = y*x + c[2]; y = y*x + c[3]
//               (fma.rn.f32 each; every thread reads the same word: broadcast)
//               out[2i] = y;  out[2i+1] = c[4 + (idx[i] & 3)]  (divergent reads)

__constant__ float coeffs[8] = { 0.5f, -1.25f, 2.0f, 0.125f, 1.0f, -2.0f, 3.5f, -0.75f };

extern "C" __global__ void const_poly(const float *in, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        float y = coeffs[0];
        y = y * x + coeffs[1];
        y = y * x + coeffs[2];
        y = y * x + coeffs[3];
        out[2 * i] = y;
        out[2 * i + 1] = coeffs[4 + (idx[i] & 3)];
    }
}
