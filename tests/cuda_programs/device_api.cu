// The device-side API warpsim's headers provide, each result checked on the
// host against a plain C++ computation of the same thing.
// Run by tests/cuda_programs.sh against device_api.expected.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

struct Atomics {
    int i_add, i_sub, i_min, i_max, i_and, i_or, i_xor, i_exch, i_cas;
    unsigned u_add, u_inc, u_dec, u_min, u_max;
    unsigned long long ull_add, ull_max, ull_cas;
    long long ll_min;
    float f_add;
    double d_add;
    int shared_add, shared_max;
    unsigned shared_or;
    float shared_fadd;
};

__global__ void atomics(Atomics *a)
{
    __shared__ int s_add, s_max;
    __shared__ unsigned s_or;
    __shared__ float s_fadd;
    int t = threadIdx.x;
    if (t == 0) {
        s_add = 0;
        s_max = -1000;
        s_or = 0;
        s_fadd = 0;
    }
    __syncthreads();
    atomicAdd(&a->i_add, t);
    atomicSub(&a->i_sub, t);
    atomicMin(&a->i_min, 50 - t);
    atomicMax(&a->i_max, t * 3);
    atomicAnd(&a->i_and, ~(1 << (t % 31)));
    atomicOr(&a->i_or, 1 << (t % 31));
    atomicXor(&a->i_xor, t);
    atomicExch(&a->i_exch, 77);
    atomicCAS(&a->i_cas, 0, 1);
    atomicAdd(&a->u_add, 2u);
    atomicInc(&a->u_inc, 9u);
    atomicDec(&a->u_dec, 9u);
    atomicMin(&a->u_min, 1000u + t);
    atomicMax(&a->u_max, 1000u + t);
    atomicAdd(&a->ull_add, 1ull << 33);
    atomicMax(&a->ull_max, (unsigned long long)t << 40);
    atomicCAS(&a->ull_cas, 5ull, 6ull);
    atomicMin(&a->ll_min, -(long long)t * 100000000000ll);
    atomicAdd(&a->f_add, 0.5f);
    atomicAdd(&a->d_add, 0.25);
    atomicAdd(&s_add, t);
    atomicMax(&s_max, t);
    atomicOr(&s_or, 1u << (t % 32));
    atomicAdd(&s_fadd, 1.0f);
    __syncthreads();
    if (t == 0) {
        a->shared_add = s_add;
        a->shared_max = s_max;
        a->shared_or = s_or;
        a->shared_fadd = s_fadd;
    }
}

__global__ void warp_functions(int *out)
{
    int lane = threadIdx.x;
    int v = lane * 10;
    out[0 * 32 + lane] = __shfl_sync(0xffffffff, v, 3);
    out[1 * 32 + lane] = __shfl_up_sync(0xffffffff, v, 1);
    out[2 * 32 + lane] = __shfl_down_sync(0xffffffff, v, 2);
    out[3 * 32 + lane] = __shfl_xor_sync(0xffffffff, v, 1);
    out[4 * 32 + lane] = __shfl_sync(0xffffffff, v, 1, 8);   // width 8: lane 1 of each group of 8
    __syncwarp();
    out[5 * 32 + lane] = (int)__ballot_sync(0xffffffff, lane % 3 == 0);
    out[6 * 32 + lane] = __any_sync(0xffffffff, lane == 31) * 10 + __all_sync(0xffffffff, lane < 31);
    out[7 * 32 + lane] = lane < 20 ? (int)__activemask() : -1;
    out[8 * 32 + lane] = (int)__reduce_add_sync(0xffffffff, (unsigned)lane);
    out[9 * 32 + lane] = __reduce_max_sync(0xffffffff, lane * 7 % 32);
    double d = lane * 1.5;
    out[10 * 32 + lane] = (int)(__shfl_down_sync(0xffffffff, d, 1) * 2);
    out[11 * 32 + lane] = __syncthreads_count(lane & 1) * 100 + __syncthreads_and(lane < 40) * 10 + __syncthreads_or(lane == 5);
}

__global__ void intrinsics(unsigned *out, unsigned x, unsigned y)
{
    out[0] = __popc(x);
    out[1] = __clz(x);
    out[2] = __ffs(x);
    out[3] = __brev(x);
    out[4] = __byte_perm(x, y, 0x5410);
    out[5] = __umulhi(x, y);
    out[6] = __mul24(x, y);
    out[7] = (unsigned)__popcll(((unsigned long long)x << 32) | y);
    out[8] = __clzll(1ull << 40);
    out[9] = (unsigned)__float_as_int(1.0f);
    out[10] = (unsigned)__float2int_rn(2.5f) + 100 * (unsigned)__float2int_rd(-2.5f) + 10000 * (unsigned)__float2int_ru(2.1f);
    out[11] = min(x, y) + max(3, 4) + abs(-6);
}

__global__ void maths(float *f, double *d, const float *x)
{
    int i = threadIdx.x;
    float v = x[i];
    f[0 * 32 + i] = sqrtf(v);
    f[1 * 32 + i] = expf(v);
    f[2 * 32 + i] = logf(v);
    f[3 * 32 + i] = sinf(v);
    f[4 * 32 + i] = cosf(v);
    f[5 * 32 + i] = powf(v, 1.5f);
    f[6 * 32 + i] = atan2f(v, 2.0f);
    f[7 * 32 + i] = fmaf(v, v, 1.0f);
    f[8 * 32 + i] = fminf(v, 3.0f) + fmaxf(v, 3.0f) + fabsf(-v) + floorf(v) + ceilf(v);
    f[9 * 32 + i] = __expf(v);
    f[10 * 32 + i] = __sinf(v);
    f[11 * 32 + i] = __fdividef(v, 3.0f);
    d[0 * 32 + i] = sqrt((double)v);
    d[1 * 32 + i] = exp((double)v);
    d[2 * 32 + i] = log((double)v);
    d[3 * 32 + i] = sin((double)v);
    d[4 * 32 + i] = pow((double)v, 2.5);
}

// cooperative groups: block rank and sync, 8-thread tiles reducing, a coalesced group in a branch
__global__ void groups(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ int ranks[64];
    ranks[block.thread_rank()] = (int)block.thread_rank();
    block.sync();
    int rank = (int)block.thread_rank();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int tile_sum = cg::reduce(tile, ranks[63 - rank], cg::plus<int>());
    tile.sync();
    int down = tile.shfl_down(rank, 1);
    unsigned odd = tile.ballot(rank & 1);
    out[rank] = tile_sum * 1000 + (int)tile.meta_group_rank() * 10 + (int)tile.thread_rank();
    out[64 + rank] = down * 1000 + (int)odd;
    if (rank % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        out[128 + rank] = (int)active.thread_rank() * 100 + (int)active.size();
    } else {
        out[128 + rank] = -1;
    }
}

__global__ void say_hello(int n)
{
    if (threadIdx.x < n)
        printf("block %d thread %d: %5.2f %s %c %x %lld\n", blockIdx.x, threadIdx.x, threadIdx.x * 0.5, "hi", 'A' + threadIdx.x,
               255u, -1234567890123ll);
}

static int check(const char *what, bool ok)
{
    printf("%s: %s\n", what, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}

/* __mul24 multiplies the low 24 bits as signed numbers */
static long long sext24(unsigned v)
{
    v &= 0xffffff;
    return v & 0x800000 ? (long long)v - (1 << 24) : (long long)v;
}

/* |a - b| in units in the last place of b (floats) */
static double ulps(float a, double b)
{
    if (std::isnan(a) && std::isnan(b))
        return 0;
    float fb = (float)b;
    float next = std::nextafter(fb, INFINITY);
    return std::fabs((double)a - b) / ((double)next - (double)fb);
}

int main()
{
    int failures = 0;
    Atomics init = {0}, got;
    init.i_min = 1000; init.i_and = -1; init.i_cas = 0; init.u_dec = 3; init.u_min = 5000;
    init.ull_cas = 5; init.ll_min = 0;
    Atomics *da;
    cudaMalloc(&da, sizeof(Atomics));
    cudaMemcpy(da, &init, sizeof init, cudaMemcpyHostToDevice);
    atomics<<<1, 64>>>(da);
    cudaMemcpy(&got, da, sizeof got, cudaMemcpyDeviceToHost);
    Atomics want = init;
    for (int t = 0; t < 64; t++) {
        want.i_add += t; want.i_sub -= t; want.i_min = std::min(want.i_min, 50 - t); want.i_max = std::max(want.i_max, t * 3);
        want.i_and &= ~(1 << (t % 31)); want.i_or |= 1 << (t % 31); want.i_xor ^= t; want.i_exch = 77;
        if (want.i_cas == 0) want.i_cas = 1;
        want.u_add += 2; want.u_inc = want.u_inc >= 9 ? 0 : want.u_inc + 1;
        want.u_dec = (want.u_dec == 0 || want.u_dec > 9) ? 9 : want.u_dec - 1;
        want.u_min = std::min(want.u_min, 1000u + t); want.u_max = std::max(want.u_max, 1000u + t);
        want.ull_add += 1ull << 33; want.ull_max = std::max(want.ull_max, (unsigned long long)t << 40);
        if (want.ull_cas == 5) want.ull_cas = 6;
        want.ll_min = std::min(want.ll_min, -(long long)t * 100000000000ll);
        want.f_add += 0.5f; want.d_add += 0.25;
    }
    want.shared_add = 63 * 64 / 2; want.shared_max = 63; want.shared_or = 0xffffffffu; want.shared_fadd = 64;
    failures += check("atomics int", got.i_add == want.i_add && got.i_sub == want.i_sub && got.i_min == want.i_min &&
                      got.i_max == want.i_max && got.i_and == want.i_and && got.i_or == want.i_or &&
                      got.i_xor == want.i_xor && got.i_exch == want.i_exch && got.i_cas == want.i_cas);
    failures += check("atomics unsigned", got.u_add == want.u_add && got.u_inc == want.u_inc && got.u_dec == want.u_dec &&
                      got.u_min == want.u_min && got.u_max == want.u_max);
    failures += check("atomics 64-bit", got.ull_add == want.ull_add && got.ull_max == want.ull_max &&
                      got.ull_cas == want.ull_cas && got.ll_min == want.ll_min);
    failures += check("atomics float double", got.f_add == want.f_add && got.d_add == want.d_add);
    failures += check("atomics shared", got.shared_add == want.shared_add && got.shared_max == want.shared_max &&
                      got.shared_or == want.shared_or && got.shared_fadd == want.shared_fadd);

    int *dw, w[12 * 32];
    cudaMalloc(&dw, sizeof w);
    warp_functions<<<1, 32>>>(dw);
    cudaMemcpy(w, dw, sizeof w, cudaMemcpyDeviceToHost);
    bool ok = true;
    unsigned ballot = 0;
    for (int l = 0; l < 32; l += 3)
        ballot |= 1u << l;
    for (int l = 0; l < 32; l++) {
        ok = ok && w[l] == 30 && w[32 + l] == (l >= 1 ? (l - 1) * 10 : 0) && w[64 + l] == (l + 2 < 32 ? (l + 2) * 10 : l * 10);
        ok = ok && w[96 + l] == (l ^ 1) * 10 && w[128 + l] == ((l / 8) * 8 + 1) * 10 && w[160 + l] == (int)ballot;
        ok = ok && w[192 + l] == 10 && w[224 + l] == (l < 20 ? (int)0xfffff : -1) && w[256 + l] == 31 * 32 / 2;
        ok = ok && w[288 + l] == 31 /* max of l*7%32 over 32 lanes */;
        ok = ok && w[320 + l] == (int)((l + 1 < 32 ? l + 1 : l) * 1.5 * 2) && w[352 + l] == 16 * 100 + 10 + 1;
    }
    failures += check("warp functions", ok);

    unsigned *di, in[12], x = 0x00f0f00fu, y = 0x12345678u;
    cudaMalloc(&di, sizeof in);
    intrinsics<<<1, 1>>>(di, x, y);
    cudaMemcpy(in, di, sizeof in, cudaMemcpyDeviceToHost);
    unsigned brev = 0;
    for (int b = 0; b < 32; b++)
        if (x & (1u << b)) brev |= 1u << (31 - b);
    ok = in[0] == (unsigned)__builtin_popcount(x) && in[1] == (unsigned)__builtin_clz(x) && in[2] == 1 && in[3] == brev;
    ok = ok && in[4] == ((y & 0xffff) << 16 | (x & 0xffff)) && in[5] == (unsigned)(((unsigned long long)x * y) >> 32);
    ok = ok && in[6] == (unsigned)(sext24(x) * sext24(y)) && in[7] == (unsigned)(__builtin_popcount(x) + __builtin_popcount(y));
    ok = ok && in[8] == 23 && in[9] == 0x3f800000u && in[10] == (unsigned)(2 + 100 * -3 + 10000 * 3) && in[11] == y * 0 + x + 4 + 6;
    failures += check("intrinsics", ok);

    float hx[32], *dx, *df, f[12 * 32];
    double *dd, d[5 * 32];
    for (int i = 0; i < 32; i++)
        hx[i] = 0.125f + i * 0.37f;
    cudaMalloc(&dx, sizeof hx);
    cudaMalloc(&df, sizeof f);
    cudaMalloc(&dd, sizeof d);
    cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
    maths<<<1, 32>>>(df, dd, dx);
    cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost);
    cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost);
    bool exact = true, bounded = true, fast = true, dbl = true;
    for (int i = 0; i < 32; i++) {
        double v = hx[i];
        exact = exact && f[i] == std::sqrt(hx[i]) && f[7 * 32 + i] == std::fma(hx[i], hx[i], 1.0f) &&
                f[8 * 32 + i] == std::fmin(hx[i], 3.0f) + std::fmax(hx[i], 3.0f) + hx[i] + std::floor(hx[i]) + std::ceil(hx[i]);
        /* the CUDA Programming Guide's bounds: expf, logf, sinf, cosf 2 ulp (1 for logf... 1), powf 4, atan2f 3 */
        bounded = bounded && ulps(f[32 + i], std::exp(v)) <= 2 && ulps(f[64 + i], std::log(v)) <= 1 &&
                  ulps(f[96 + i], std::sin(v)) <= 2 && ulps(f[128 + i], std::cos(v)) <= 2 &&
                  ulps(f[160 + i], std::pow(v, 1.5)) <= 4 && ulps(f[192 + i], std::atan2(v, 2.0)) <= 3;
        /* the fast intrinsics: __expf within 2 + 1.16|x| ulp would need the GPU's table; check a loose relative error */
        fast = fast && std::fabs(f[9 * 32 + i] - std::exp(v)) <= 1e-5 * std::exp(v) + 1e-6 &&
               std::fabs(f[10 * 32 + i] - std::sin(v)) <= 1e-5 && std::fabs(f[11 * 32 + i] - v / 3) <= 1e-6 * v;
        dbl = dbl && d[i] == std::sqrt(v) && std::fabs(d[32 + i] - std::exp(v)) <= 2e-16 * std::exp(v) &&
              std::fabs(d[64 + i] - std::log(v)) <= 2e-16 * std::fabs(std::log(v)) + 1e-300 &&
              std::fabs(d[96 + i] - std::sin(v)) <= 2e-16 && std::fabs(d[128 + i] - std::pow(v, 2.5)) <= 4e-16 * std::pow(v, 2.5);
    }
    failures += check("math correctly rounded (sqrtf, fmaf, fminf...)", exact);
    failures += check("math within the guide's ulp bounds (expf, logf, sinf, cosf, powf, atan2f)", bounded);
    failures += check("math fast intrinsics (__expf, __sinf, __fdividef)", fast);
    failures += check("math double", dbl);

    int *dg, g[3 * 64];
    cudaMalloc(&dg, sizeof g);
    groups<<<1, 64>>>(dg);
    cudaMemcpy(g, dg, sizeof g, cudaMemcpyDeviceToHost);
    ok = true;
    for (int r = 0; r < 64; r++) {
        int base = r / 8 * 8, sum = 0;
        for (int k = base; k < base + 8; k++)
            sum += 63 - k;
        int down = (r % 8 < 7) ? r + 1 : r;   /* shfl_down past the tile's end keeps the own value */
        ok = ok && g[r] == sum * 1000 + (r / 8) * 10 + r % 8 && g[64 + r] == down * 1000 + 0xaa;
        /* lanes 0,3,...,30 of warp 0 (11 of them) and 33,36,...,63 of warp 1 (11) */
        int members = 11, crank = (r % 32 - (r < 32 ? 0 : 1)) / 3;
        ok = ok && g[128 + r] == (r % 3 == 0 ? crank * 100 + members : -1);
    }
    failures += check("cooperative groups", ok);

    say_hello<<<2, 4>>>(3);
    cudaDeviceSynchronize();
    printf("failures: %d\n", failures);
    return failures;
}
