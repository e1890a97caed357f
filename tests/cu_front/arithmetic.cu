// Integer and floating-point arithmetic in 8, 16, 32 and 64 bits, conversions
// with each rounding, fast math intrinsics, 64-bit multiprecision.
__global__ void arith(int *i32, long long *i64, unsigned char *u8, short *s16, float *f32, double *f64, int n)
{
    int t = threadIdx.x;
    int a = i32[t], b = i32[t + 1] | 1;
    long long x = i64[t], y = i64[t + 1] | 1;
    i32[t] = a / b + a % b + (a >> 3) + (unsigned)a / (unsigned)b + __mul24(a, b) + __umulhi(a, b) + min(a, b) + max(a, b) + abs(a);
    i64[t] = x / y + x % y + x * y + (x >> 5) + (long long)((unsigned long long)x >> 7) + __mul64hi(x, y);
    u8[t] = u8[t] * 3 + 1;
    s16[t] = s16[t] / 3;
    float p = f32[t], q = f32[t + 1];
    f32[t] = p / q + __fdividef(p, q) + sqrtf(p) + rsqrtf(q) + __expf(p) + __logf(q) + __sinf(p) + __cosf(q)
           + fminf(p, q) + fmaxf(p, q) + fabsf(p) + __saturatef(q) + __frcp_rn(q) + (float)__float2int_rd(p)
           + (float)__float2uint_rn(q) + floorf(p) + ceilf(q) + truncf(p) + rintf(q) + fmaf(p, q, 1.0f);
    double r = f64[t], s = f64[t + 1];
    f64[t] = r / s + sqrt(r) + fma(r, s, 2.0) + (double)p + (double)a + (double)x + fabs(s);
    i32[t + 1] = __float2int_rz(p) + (int)r + (int)(unsigned)s;
}
