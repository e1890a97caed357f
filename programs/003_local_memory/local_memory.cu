// Seed 003: local memory and loop unrolling.  Hand-written PTX twin: local_memory.ptx.
//
// local_array_dynamic: "int a[17]; b = a[i];" -- an array read with an index
//   known only at run time must live in (per-thread) local memory.
//     x = in[i]; a[k] = (x * (k + 1)) ^ (k << 4)  for k < 17 (loop kept rolled);
//     j = (unsigned)x % 17;  out[i] = a[j] + a[(j + 5) % 17]
// local_array_loop: the slide's "not unrolled" loop  a[k] = 3*k (+ x here, so
//   it is not constant), kept rolled with #pragma unroll 1: indirect addressing,
//   a in local memory (st.local in the loop, one ld.local.v4 after it).
//   out[i] = a[0]*a[1] + a[2]*a[3]
// local_array_unrolled: the same with #pragma unroll: static addressing, a in
//   registers (no .local in the PTX).      out[i] = a[0]*a[1] + a[2]*a[3]
// Integer arithmetic wraps (two's complement).

extern "C" __global__ void local_array_dynamic(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int a[17];
#pragma unroll 1
    for (int k = 0; k < 17; k++)
        a[k] = (x * (k + 1)) ^ (k << 4);
    unsigned int j = (unsigned int)x % 17u;
    out[i] = a[j] + a[(j + 5) % 17];
}

extern "C" __global__ void local_array_loop(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int a[4];
#pragma unroll 1
    for (int k = 0; k < 4; k++)
        a[k] = 3 * k + x;
    out[i] = a[0] * a[1] + a[2] * a[3];
}

extern "C" __global__ void local_array_unrolled(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int a[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
        a[k] = 3 * k + x;
    out[i] = a[0] * a[1] + a[2] * a[3];
}
