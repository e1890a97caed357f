/*
 * Device-side CUDA for clang without the CUDA Toolkit or libdevice: the
 * intrinsics, atomics, warp functions and math library that CUDA's headers
 * declare, written over clang's NVPTX builtins so each becomes the PTX
 * instruction nvcc would use. Math functions that have no single instruction
 * (expf, sinf, powf...) call __nv_* functions that warpsim runs natively
 * (sim/builtins.def), within the CUDA guide's ulp bounds.
 * Included by cuda_runtime.h; not meant to be included alone.
 */
#ifndef WARPSIM_DEVICE_H
#define WARPSIM_DEVICE_H

#define __WS_DEV static __attribute__((device)) __inline__ __attribute__((always_inline, nodebug))
/* min and max are host functions too in CUDA (math_functions.hpp) */
#define __WS_HD static __attribute__((host)) __attribute__((device)) __inline__ __attribute__((always_inline, nodebug))

/* ---- The functions warpsim runs natively (sim/builtins.def) ---------------------- */
extern "C" {
#define WS_F1(n) __attribute__((device)) float __nv_##n##f(float);
#define WS_D1(n) __attribute__((device)) double __nv_##n(double);
#define WS_F2(n) __attribute__((device)) float __nv_##n##f(float, float);
#define WS_D2(n) __attribute__((device)) double __nv_##n(double, double);
#define WS_BOTH1(n) WS_F1(n) WS_D1(n)
#define WS_BOTH2(n) WS_F2(n) WS_D2(n)
WS_BOTH1(exp) WS_BOTH1(exp2) WS_BOTH1(exp10) WS_BOTH1(expm1) WS_BOTH1(log) WS_BOTH1(log2) WS_BOTH1(log10)
WS_BOTH1(log1p) WS_BOTH1(logb) WS_BOTH1(sin) WS_BOTH1(cos) WS_BOTH1(tan) WS_BOTH1(sinpi) WS_BOTH1(cospi)
WS_BOTH1(asin) WS_BOTH1(acos) WS_BOTH1(atan) WS_BOTH1(sinh) WS_BOTH1(cosh) WS_BOTH1(tanh) WS_BOTH1(asinh)
WS_BOTH1(acosh) WS_BOTH1(atanh) WS_BOTH1(cbrt) WS_BOTH1(erf) WS_BOTH1(erfc) WS_BOTH1(lgamma) WS_BOTH1(tgamma)
WS_BOTH1(round) WS_F1(rcbrt)
WS_BOTH2(atan2) WS_BOTH2(pow) WS_BOTH2(hypot) WS_BOTH2(fmod) WS_BOTH2(remainder) WS_BOTH2(nextafter) WS_BOTH2(fdim)
__attribute__((device)) float __nv_ldexpf(float, int);
__attribute__((device)) double __nv_ldexp(double, int);
__attribute__((device)) int __nv_ilogbf(float);
__attribute__((device)) int __nv_ilogb(double);
#undef WS_F1
#undef WS_D1
#undef WS_F2
#undef WS_D2
#undef WS_BOTH1
#undef WS_BOTH2
__attribute__((device)) int vprintf(const char *, void *);
/* clang turns a device printf into vprintf; this declares it for device code */
__attribute__((device)) int printf(const char *, ...);
__attribute__((device)) void __assertfail(const char *message, const char *file, unsigned line,
                                          const char *function, size_t char_size);
}

/* ---- Synchronisation and fences ---------------------------------------------------- */
__WS_DEV int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__WS_DEV int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__WS_DEV int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__WS_DEV void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
__WS_DEV void __threadfence(void) { __nvvm_membar_gl(); }
__WS_DEV void __threadfence_block(void) { __nvvm_membar_cta(); }
__WS_DEV void __threadfence_system(void) { __nvvm_membar_sys(); }
__WS_DEV void __trap(void) { __asm__ __volatile__("trap;"); }
__WS_DEV void __brkpt(void) { __asm__ __volatile__("brkpt;"); }
__WS_DEV long long clock64(void) { return __nvvm_read_ptx_sreg_clock64(); }
__WS_DEV clock_t clock(void) { return (clock_t)__nvvm_read_ptx_sreg_clock(); }

/* ---- Atomics (generic addresses: global or shared) ------------------------------------ */
#define WS_ATOM(name, T, builtin, CT) \
    __WS_DEV T name(T *p, T v) { return (T)builtin((CT *)p, (CT)v); }
WS_ATOM(atomicAdd, int, __nvvm_atom_add_gen_i, int)
WS_ATOM(atomicAdd, unsigned int, __nvvm_atom_add_gen_i, int)
WS_ATOM(atomicAdd, unsigned long long, __nvvm_atom_add_gen_ll, long long)
WS_ATOM(atomicAdd, float, __nvvm_atom_add_gen_f, float)
WS_ATOM(atomicAdd, double, __nvvm_atom_add_gen_d, double)
WS_ATOM(atomicExch, int, __nvvm_atom_xchg_gen_i, int)
WS_ATOM(atomicExch, unsigned int, __nvvm_atom_xchg_gen_i, int)
WS_ATOM(atomicExch, unsigned long long, __nvvm_atom_xchg_gen_ll, long long)
WS_ATOM(atomicMin, int, __nvvm_atom_min_gen_i, int)
WS_ATOM(atomicMin, unsigned int, __nvvm_atom_min_gen_ui, unsigned int)
WS_ATOM(atomicMin, long long, __nvvm_atom_min_gen_ll, long long)
WS_ATOM(atomicMin, unsigned long long, __nvvm_atom_min_gen_ull, unsigned long long)
WS_ATOM(atomicMax, int, __nvvm_atom_max_gen_i, int)
WS_ATOM(atomicMax, unsigned int, __nvvm_atom_max_gen_ui, unsigned int)
WS_ATOM(atomicMax, long long, __nvvm_atom_max_gen_ll, long long)
WS_ATOM(atomicMax, unsigned long long, __nvvm_atom_max_gen_ull, unsigned long long)
WS_ATOM(atomicInc, unsigned int, __nvvm_atom_inc_gen_ui, unsigned int)
WS_ATOM(atomicDec, unsigned int, __nvvm_atom_dec_gen_ui, unsigned int)
WS_ATOM(atomicAnd, int, __nvvm_atom_and_gen_i, int)
WS_ATOM(atomicAnd, unsigned int, __nvvm_atom_and_gen_i, int)
WS_ATOM(atomicAnd, unsigned long long, __nvvm_atom_and_gen_ll, long long)
WS_ATOM(atomicOr, int, __nvvm_atom_or_gen_i, int)
WS_ATOM(atomicOr, unsigned int, __nvvm_atom_or_gen_i, int)
WS_ATOM(atomicOr, unsigned long long, __nvvm_atom_or_gen_ll, long long)
WS_ATOM(atomicXor, int, __nvvm_atom_xor_gen_i, int)
WS_ATOM(atomicXor, unsigned int, __nvvm_atom_xor_gen_i, int)
WS_ATOM(atomicXor, unsigned long long, __nvvm_atom_xor_gen_ll, long long)
#undef WS_ATOM
__WS_DEV int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
__WS_DEV unsigned int atomicSub(unsigned int *p, unsigned int v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, -(int)v); }
__WS_DEV float atomicExch(float *p, float v)
{
    return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int *)p, __builtin_bit_cast(int, v)));
}
__WS_DEV int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
__WS_DEV unsigned int atomicCAS(unsigned int *p, unsigned int c, unsigned int v)
{
    return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)c, (int)v);
}
__WS_DEV unsigned long long atomicCAS(unsigned long long *p, unsigned long long c, unsigned long long v)
{
    return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)c, (long long)v);
}

/* ---- Warp functions -------------------------------------------------------------- */
__WS_DEV unsigned __ballot_sync(unsigned mask, int p) { return __nvvm_vote_ballot_sync(mask, p); }
__WS_DEV int __any_sync(unsigned mask, int p) { return __nvvm_vote_any_sync(mask, p); }
__WS_DEV int __all_sync(unsigned mask, int p) { return __nvvm_vote_all_sync(mask, p); }
__WS_DEV int __uni_sync(unsigned mask, int p) { return __nvvm_vote_uni_sync(mask, p); }
__WS_DEV unsigned __activemask(void)
{
    unsigned m;
    __asm__ __volatile__("activemask.b32 %0;" : "=r"(m));
    return m;
}
__WS_DEV unsigned __lanemask_lt(void) { return __nvvm_read_ptx_sreg_lanemask_lt(); }
__WS_DEV unsigned __lanemask_le(void) { return __nvvm_read_ptx_sreg_lanemask_le(); }
__WS_DEV unsigned __lanemask_gt(void) { return __nvvm_read_ptx_sreg_lanemask_gt(); }
__WS_DEV unsigned __lanemask_ge(void) { return __nvvm_read_ptx_sreg_lanemask_ge(); }

/* c: the shfl clamp operand, ((32 - width) << 8) | 0x1f for idx/down/bfly, (32 - width) << 8 for up */
#define WS_SHFL(name, kind, up)                                                                        \
    __WS_DEV int name(unsigned m, int v, int s, int w = 32)                                            \
    { return __nvvm_shfl_sync_##kind##_i32(m, v, s, ((32 - w) << 8) | (up ? 0 : 0x1f)); }                \
    __WS_DEV unsigned name(unsigned m, unsigned v, int s, int w = 32)                                  \
    { return (unsigned)__nvvm_shfl_sync_##kind##_i32(m, (int)v, s, ((32 - w) << 8) | (up ? 0 : 0x1f)); } \
    __WS_DEV float name(unsigned m, float v, int s, int w = 32)                                        \
    { return __nvvm_shfl_sync_##kind##_f32(m, v, s, ((32 - w) << 8) | (up ? 0 : 0x1f)); }                \
    __WS_DEV long long name(unsigned m, long long v, int s, int w = 32)                                \
    {                                                                                                  \
        int lo = name(m, (int)(unsigned long long)v, s, w), hi = name(m, (int)((unsigned long long)v >> 32), s, w); \
        return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);                   \
    }                                                                                                  \
    __WS_DEV unsigned long long name(unsigned m, unsigned long long v, int s, int w = 32)              \
    { return (unsigned long long)name(m, (long long)v, s, w); }                                        \
    __WS_DEV long name(unsigned m, long v, int s, int w = 32) { return (long)name(m, (long long)v, s, w); } \
    __WS_DEV unsigned long name(unsigned m, unsigned long v, int s, int w = 32)                        \
    { return (unsigned long)name(m, (long long)v, s, w); }                                             \
    __WS_DEV double name(unsigned m, double v, int s, int w = 32)                                      \
    { return __builtin_bit_cast(double, name(m, __builtin_bit_cast(long long, v), s, w)); }
WS_SHFL(__shfl_sync, idx, 0)
WS_SHFL(__shfl_up_sync, up, 1)
WS_SHFL(__shfl_down_sync, down, 0)
WS_SHFL(__shfl_xor_sync, bfly, 0)
#undef WS_SHFL

__WS_DEV unsigned __reduce_add_sync(unsigned m, unsigned v) { return (unsigned)__nvvm_redux_sync_add((int)v, m); }
__WS_DEV unsigned __reduce_min_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umin(v, m); }
__WS_DEV unsigned __reduce_max_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umax(v, m); }
__WS_DEV int __reduce_min_sync(unsigned m, int v) { return __nvvm_redux_sync_min(v, m); }
__WS_DEV int __reduce_max_sync(unsigned m, int v) { return __nvvm_redux_sync_max(v, m); }
__WS_DEV unsigned __reduce_and_sync(unsigned m, unsigned v) { return (unsigned)__nvvm_redux_sync_and((int)v, m); }
__WS_DEV unsigned __reduce_or_sync(unsigned m, unsigned v) { return (unsigned)__nvvm_redux_sync_or((int)v, m); }
__WS_DEV unsigned __reduce_xor_sync(unsigned m, unsigned v) { return (unsigned)__nvvm_redux_sync_xor((int)v, m); }

/* ---- Integer intrinsics --------------------------------------------------------------- */
__WS_DEV int __popc(unsigned x) { return __builtin_popcount(x); }
__WS_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__WS_DEV int __clz(int x)
{
    int r;
    __asm__("clz.b32 %0, %1;" : "=r"(r) : "r"(x));
    return r;
}
__WS_DEV int __clzll(long long x)
{
    int r;
    __asm__("clz.b64 %0, %1;" : "=r"(r) : "l"(x));
    return r;
}
__WS_DEV int __ffs(int x) { return __builtin_ffs(x); }
__WS_DEV int __ffsll(long long x) { return __builtin_ffsll(x); }
__WS_DEV unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
__WS_DEV unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
__WS_DEV unsigned __byte_perm(unsigned x, unsigned y, unsigned s) { return __nvvm_prmt(x, y, s); }
__WS_DEV int __mul24(int x, int y) { return __nvvm_mul24_i(x, y); }
__WS_DEV unsigned __umul24(unsigned x, unsigned y) { return __nvvm_mul24_ui(x, y); }
__WS_DEV int __mulhi(int x, int y) { return __nvvm_mulhi_i(x, y); }
__WS_DEV unsigned __umulhi(unsigned x, unsigned y) { return __nvvm_mulhi_ui(x, y); }
__WS_DEV long long __mul64hi(long long x, long long y) { return __nvvm_mulhi_ll(x, y); }
__WS_DEV unsigned long long __umul64hi(unsigned long long x, unsigned long long y) { return __nvvm_mulhi_ull(x, y); }
__WS_DEV int __sad(int x, int y, unsigned z) { return __nvvm_sad_i(x, y, z); }
__WS_DEV unsigned __usad(unsigned x, unsigned y, unsigned z) { return __nvvm_sad_ui(x, y, z); }
__WS_DEV int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
__WS_DEV int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
__WS_DEV unsigned __uhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y) >> 1); }
__WS_DEV unsigned __urhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y + 1) >> 1); }
__WS_DEV unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{ return (unsigned)(((((unsigned long long)hi << 32) | lo) << (s & 31)) >> 32); }
__WS_DEV unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{ return (unsigned)((((unsigned long long)hi << 32) | lo) >> (s & 31)); }
__WS_HD int min(int a, int b) { return a < b ? a : b; }
__WS_HD unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
__WS_HD long long min(long long a, long long b) { return a < b ? a : b; }
__WS_HD unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__WS_HD int max(int a, int b) { return a > b ? a : b; }
__WS_HD unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
__WS_HD long long max(long long a, long long b) { return a > b ? a : b; }
__WS_HD unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
__WS_HD float min(float a, float b) { return __builtin_fminf(a, b); }
__WS_HD float max(float a, float b) { return __builtin_fmaxf(a, b); }
__WS_HD double min(double a, double b) { return __builtin_fmin(a, b); }
__WS_HD double max(double a, double b) { return __builtin_fmax(a, b); }
__WS_HD unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
__WS_HD unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
__WS_HD long long llmin(long long a, long long b) { return a < b ? a : b; }
__WS_HD long long llmax(long long a, long long b) { return a > b ? a : b; }
__WS_DEV int abs(int a) { return a < 0 ? -a : a; }
__WS_DEV long labs(long a) { return a < 0 ? -a : a; }
__WS_DEV long long llabs(long long a) { return a < 0 ? -a : a; }

/* ---- Conversions and reinterpretations ------------------------------------------------------ */
__WS_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__WS_DEV unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
__WS_DEV float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__WS_DEV float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__WS_DEV long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__WS_DEV double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__WS_DEV int __double2hiint(double x) { return (int)(__builtin_bit_cast(unsigned long long, x) >> 32); }
__WS_DEV int __double2loint(double x) { return (int)__builtin_bit_cast(unsigned long long, x); }
__WS_DEV double __hiloint2double(int hi, int lo)
{ return __builtin_bit_cast(double, ((unsigned long long)(unsigned)hi << 32) | (unsigned)lo); }
/* __float2int_rn and the others: one nvvm builtin per rounding; clang spells
 * round-down and round-up rm and rp where CUDA says rd and ru. */
#define WS_CVT4(cuda, nvvm, T, R)                                              \
    __WS_DEV R cuda##_rn(T x) { return __nvvm_##nvvm##_rn(x); }                \
    __WS_DEV R cuda##_rz(T x) { return __nvvm_##nvvm##_rz(x); }                \
    __WS_DEV R cuda##_rd(T x) { return __nvvm_##nvvm##_rm(x); }                \
    __WS_DEV R cuda##_ru(T x) { return __nvvm_##nvvm##_rp(x); }
WS_CVT4(__float2int, f2i, float, int)
WS_CVT4(__float2uint, f2ui, float, unsigned)
WS_CVT4(__float2ll, f2ll, float, long long)
WS_CVT4(__float2ull, f2ull, float, unsigned long long)
WS_CVT4(__double2int, d2i, double, int)
WS_CVT4(__double2uint, d2ui, double, unsigned)
WS_CVT4(__double2ll, d2ll, double, long long)
WS_CVT4(__double2ull, d2ull, double, unsigned long long)
WS_CVT4(__int2float, i2f, int, float)
WS_CVT4(__uint2float, ui2f, unsigned, float)
WS_CVT4(__ll2float, ll2f, long long, float)
WS_CVT4(__ull2float, ull2f, unsigned long long, float)
WS_CVT4(__ll2double, ll2d, long long, double)
WS_CVT4(__ull2double, ull2d, unsigned long long, double)
WS_CVT4(__double2float, d2f, double, float)
#undef WS_CVT4
__WS_DEV double __int2double_rn(int x) { return (double)x; }
__WS_DEV double __uint2double_rn(unsigned x) { return (double)x; }

/* ---- Single precision: instructions ---------------------------------------------------------- */
__WS_DEV float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
__WS_DEV float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
__WS_DEV float fabsf(float x) { return __builtin_fabsf(x); }
__WS_DEV float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
__WS_DEV float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
__WS_DEV float floorf(float x) { return __builtin_floorf(x); }
__WS_DEV float ceilf(float x) { return __builtin_ceilf(x); }
__WS_DEV float truncf(float x) { return __builtin_truncf(x); }
__WS_DEV float rintf(float x) { return __builtin_rintf(x); }
__WS_DEV float nearbyintf(float x) { return __builtin_nearbyintf(x); }
__WS_DEV long lrintf(float x) { return (long)__builtin_rintf(x); }
__WS_DEV long long llrintf(float x) { return (long long)__builtin_rintf(x); }
__WS_DEV float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
__WS_DEV float copysignf(float a, float b) { return __builtin_copysignf(a, b); }
__WS_DEV float fdividef(float a, float b) { return a / b; }
__WS_DEV float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
__WS_DEV float __fdiv_rn(float a, float b) { return __nvvm_div_rn_f(a, b); }
__WS_DEV float __fdiv_rz(float a, float b) { return __nvvm_div_rz_f(a, b); }
__WS_DEV float __fadd_rn(float a, float b) { return __nvvm_add_rn_f(a, b); }
__WS_DEV float __fadd_rz(float a, float b) { return __nvvm_add_rz_f(a, b); }
__WS_DEV float __fmul_rn(float a, float b) { return __nvvm_mul_rn_f(a, b); }
__WS_DEV float __fmul_rz(float a, float b) { return __nvvm_mul_rz_f(a, b); }
__WS_DEV float __fsub_rn(float a, float b) { return __nvvm_add_rn_f(a, -b); }
__WS_DEV float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__WS_DEV float __fmaf_rz(float a, float b, float c) { return __nvvm_fma_rz_f(a, b, c); }
__WS_DEV float __frcp_rn(float x) { return __nvvm_rcp_rn_f(x); }
__WS_DEV float __fsqrt_rn(float x) { return __nvvm_sqrt_rn_f(x); }
__WS_DEV float __frsqrt_rn(float x) { return 1.0f / __nvvm_sqrt_rn_f(x); }
__WS_DEV float __saturatef(float x) { return __nvvm_saturate_f(x); }
/* the fast intrinsics: one SFU instruction each, as nvcc compiles them */
__WS_DEV float __expf(float x) { return __nvvm_ex2_approx_ftz_f(x * 1.4426950408889634f); }
__WS_DEV float __exp10f(float x) { return __nvvm_ex2_approx_ftz_f(x * 3.3219280948873622f); }
__WS_DEV float __logf(float x) { return __nvvm_lg2_approx_ftz_f(x) * 0.6931471805599453f; }
__WS_DEV float __log2f(float x) { return __nvvm_lg2_approx_ftz_f(x); }
__WS_DEV float __log10f(float x) { return __nvvm_lg2_approx_ftz_f(x) * 0.3010299956639812f; }
__WS_DEV float __sinf(float x) { return __nvvm_sin_approx_ftz_f(x); }
__WS_DEV float __cosf(float x) { return __nvvm_cos_approx_ftz_f(x); }
__WS_DEV float __tanf(float x) { return __nvvm_div_approx_f(__nvvm_sin_approx_ftz_f(x), __nvvm_cos_approx_ftz_f(x)); }
__WS_DEV void __sincosf(float x, float *s, float *c) { *s = __sinf(x); *c = __cosf(x); }
__WS_DEV float __powf(float a, float b) { return __nvvm_ex2_approx_ftz_f(b * __nvvm_lg2_approx_ftz_f(a)); }

/* ---- Single precision: run natively ------------------------------------------------------------ */
#define WS_F1(n) __WS_DEV float n##f(float x) { return __nv_##n##f(x); }
#define WS_F2(n) __WS_DEV float n##f(float x, float y) { return __nv_##n##f(x, y); }
WS_F1(exp) WS_F1(exp2) WS_F1(exp10) WS_F1(expm1) WS_F1(log) WS_F1(log2) WS_F1(log10) WS_F1(log1p) WS_F1(logb)
WS_F1(sin) WS_F1(cos) WS_F1(tan) WS_F1(sinpi) WS_F1(cospi) WS_F1(asin) WS_F1(acos) WS_F1(atan) WS_F1(sinh)
WS_F1(cosh) WS_F1(tanh) WS_F1(asinh) WS_F1(acosh) WS_F1(atanh) WS_F1(cbrt) WS_F1(rcbrt) WS_F1(erf) WS_F1(erfc)
WS_F1(lgamma) WS_F1(tgamma) WS_F1(round)
WS_F2(atan2) WS_F2(pow) WS_F2(hypot) WS_F2(fmod) WS_F2(remainder) WS_F2(nextafter) WS_F2(fdim)
#undef WS_F1
#undef WS_F2
__WS_DEV float ldexpf(float x, int e) { return __nv_ldexpf(x, e); }
__WS_DEV float scalbnf(float x, int e) { return __nv_ldexpf(x, e); }
__WS_DEV int ilogbf(float x) { return __nv_ilogbf(x); }
__WS_DEV long lroundf(float x) { return (long)__nv_roundf(x); }
__WS_DEV long long llroundf(float x) { return (long long)__nv_roundf(x); }
__WS_DEV void sincosf(float x, float *s, float *c) { *s = __nv_sinf(x); *c = __nv_cosf(x); }
__WS_DEV void sincospif(float x, float *s, float *c) { *s = __nv_sinpif(x); *c = __nv_cospif(x); }
__WS_DEV float frexpf(float x, int *e)
{
    if (x == 0.0f || x != x || __builtin_fabsf(x) == __builtin_inff()) { *e = 0; return x; }
    *e = __nv_ilogbf(x) + 1;
    return __nv_ldexpf(x, -*e);
}
__WS_DEV float modff(float x, float *i) { *i = __builtin_truncf(x); return __builtin_fabsf(x) == __builtin_inff() ? __builtin_copysignf(0.0f, x) : x - *i; }
__WS_DEV float normcdff(float x) { return 0.5f * __nv_erfcf(-x * 0.70710678118654752f); }

/* ---- Double precision ---------------------------------------------------------------------------- */
__WS_DEV double sqrt(double x) { return __nvvm_sqrt_rn_d(x); }
__WS_DEV double rsqrt(double x) { return __nvvm_rsqrt_approx_d(x); }
__WS_DEV double fabs(double x) { return __builtin_fabs(x); }
__WS_DEV double fmin(double a, double b) { return __nvvm_fmin_d(a, b); }
__WS_DEV double fmax(double a, double b) { return __nvvm_fmax_d(a, b); }
__WS_DEV double floor(double x) { return __builtin_floor(x); }
__WS_DEV double ceil(double x) { return __builtin_ceil(x); }
__WS_DEV double trunc(double x) { return __builtin_trunc(x); }
__WS_DEV double rint(double x) { return __builtin_rint(x); }
__WS_DEV double nearbyint(double x) { return __builtin_nearbyint(x); }
__WS_DEV double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
__WS_DEV double copysign(double a, double b) { return __builtin_copysign(a, b); }
__WS_DEV double __drcp_rn(double x) { return __nvvm_rcp_rn_d(x); }
__WS_DEV double __dsqrt_rn(double x) { return __nvvm_sqrt_rn_d(x); }
__WS_DEV double __ddiv_rn(double a, double b) { return __nvvm_div_rn_d(a, b); }
__WS_DEV double __dadd_rn(double a, double b) { return __nvvm_add_rn_d(a, b); }
__WS_DEV double __dmul_rn(double a, double b) { return __nvvm_mul_rn_d(a, b); }
__WS_DEV double __fma_rn(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
#define WS_D1(n) __WS_DEV double n(double x) { return __nv_##n(x); }
#define WS_D2(n) __WS_DEV double n(double x, double y) { return __nv_##n(x, y); }
WS_D1(exp) WS_D1(exp2) WS_D1(exp10) WS_D1(expm1) WS_D1(log) WS_D1(log2) WS_D1(log10) WS_D1(log1p) WS_D1(logb)
WS_D1(sin) WS_D1(cos) WS_D1(tan) WS_D1(sinpi) WS_D1(cospi) WS_D1(asin) WS_D1(acos) WS_D1(atan) WS_D1(sinh)
WS_D1(cosh) WS_D1(tanh) WS_D1(asinh) WS_D1(acosh) WS_D1(atanh) WS_D1(cbrt) WS_D1(erf) WS_D1(erfc)
WS_D1(lgamma) WS_D1(tgamma) WS_D1(round)
WS_D2(atan2) WS_D2(pow) WS_D2(hypot) WS_D2(fmod) WS_D2(remainder) WS_D2(nextafter) WS_D2(fdim)
#undef WS_D1
#undef WS_D2
__WS_DEV double ldexp(double x, int e) { return __nv_ldexp(x, e); }
__WS_DEV double scalbn(double x, int e) { return __nv_ldexp(x, e); }
__WS_DEV int ilogb(double x) { return __nv_ilogb(x); }
__WS_DEV void sincos(double x, double *s, double *c) { *s = __nv_sin(x); *c = __nv_cos(x); }
__WS_DEV double frexp(double x, int *e)
{
    if (x == 0.0 || x != x || __builtin_fabs(x) == __builtin_inf()) { *e = 0; return x; }
    *e = __nv_ilogb(x) + 1;
    return __nv_ldexp(x, -*e);
}
__WS_DEV double modf(double x, double *i) { *i = __builtin_trunc(x); return __builtin_fabs(x) == __builtin_inf() ? __builtin_copysign(0.0, x) : x - *i; }

/* float overloads of the double names, as CUDA's math_functions.hpp has them (sqrt(1.0f) is float) */
__WS_DEV float sqrt(float x) { return sqrtf(x); }
__WS_DEV float fabs(float x) { return fabsf(x); }
__WS_DEV float abs(float x) { return fabsf(x); }
__WS_DEV double abs(double x) { return fabs(x); }
__WS_DEV float exp(float x) { return expf(x); }
__WS_DEV float log(float x) { return logf(x); }
__WS_DEV float sin(float x) { return sinf(x); }
__WS_DEV float cos(float x) { return cosf(x); }
__WS_DEV float tan(float x) { return tanf(x); }
__WS_DEV float pow(float x, float y) { return powf(x, y); }
__WS_DEV float floor(float x) { return floorf(x); }
__WS_DEV float ceil(float x) { return ceilf(x); }
__WS_DEV float fmin(float a, float b) { return fminf(a, b); }
__WS_DEV float fmax(float a, float b) { return fmaxf(a, b); }
__WS_DEV float fma(float a, float b, float c) { return fmaf(a, b, c); }
__WS_DEV float tanh(float x) { return tanhf(x); }
__WS_DEV float round(float x) { return roundf(x); }
__WS_DEV float trunc(float x) { return truncf(x); }

/* ---- Textures: the texture object is the device address of a ws_texture_desc
 * (warpsim_texture.h, which also holds the addressing and filtering arithmetic
 * these share with the simulator's PTX tex instruction, so that clang's and
 * nvcc's builds fetch the same bits). They run as ordinary global loads here,
 * so the counters show global sectors where a GPU would count texture requests. */
__WS_DEV const ws_texture_desc *__ws_tex(cudaTextureObject_t t) { return (const ws_texture_desc *)t; }
/* cudaReadModeNormalizedFloat: the texel's 8- or 16-bit channels as floats */
__WS_DEV float4 __ws_normalized(const ws_texture_desc *d, unsigned long long at)
{
    float c[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < d->channels && k < 4; k++) {
        unsigned long long p = at + k * d->channel_bytes;
        c[k] = ws_tex_unorm(d->channel_bytes == 1 ? *(const unsigned char *)p : *(const unsigned short *)p,
                            d->channel_bytes, d->channel_signed);
    }
    return make_float4(c[0], c[1], c[2], c[3]);
}
template <class T> __WS_DEV T __ws_from_float4(float4 v) { T t; __builtin_memset(&t, 0, sizeof t); (void)v; return t; }
/* explicit specializations take no storage class: inline, not static */
#define __WS_DEV_SPEC __attribute__((device)) __inline__ __attribute__((always_inline, nodebug))
template <> __WS_DEV_SPEC float __ws_from_float4<float>(float4 v) { return v.x; }
template <> __WS_DEV_SPEC float2 __ws_from_float4<float2>(float4 v) { return make_float2(v.x, v.y); }
template <> __WS_DEV_SPEC float4 __ws_from_float4<float4>(float4 v) { return v; }
#undef __WS_DEV_SPEC

/* texel (x, y), indices already addressed; -1: outside, reads zero */
template <class T> __WS_DEV T __ws_texel(const ws_texture_desc *d, int x, int y)
{
    if (x < 0 || y < 0) {
        T zero;
        __builtin_memset(&zero, 0, sizeof zero);
        return zero;
    }
    unsigned long long at = d->data + (unsigned long long)y * d->pitch + (unsigned long long)x * d->texel_bytes;
    if (d->read_mode == cudaReadModeNormalizedFloat)
        return __ws_from_float4<T>(__ws_normalized(d, at));
    return *(const T *)at;
}
template <class T> __WS_DEV T tex1Dfetch(cudaTextureObject_t t, int i)
{
    const ws_texture_desc *d = __ws_tex(t);
    return __ws_texel<T>(d, i >= 0 && (unsigned)i < d->width ? i : -1, 0);   /* linear memory: outside reads zero */
}
/* the filter of ws_tex_filter, channel by channel; integer texels are never filtered (the runtime refuses it) */
template <class T> __WS_DEV T __ws_filter(const ws_tex_footprint *, const T *t) { return t[0]; }
__WS_DEV float __ws_filter(const ws_tex_footprint *f, const float *t) { return ws_tex_filter(f, t); }
__WS_DEV float2 __ws_filter(const ws_tex_footprint *f, const float2 *t)
{
    float x[4] = {t[0].x, t[1].x, t[2].x, t[3].x}, y[4] = {t[0].y, t[1].y, t[2].y, t[3].y};
    return make_float2(ws_tex_filter(f, x), ws_tex_filter(f, y));
}
__WS_DEV float4 __ws_filter(const ws_tex_footprint *f, const float4 *t)
{
    float c[4][4];
    for (int k = 0; k < 4; k++) {
        c[0][k] = t[k].x;
        c[1][k] = t[k].y;
        c[2][k] = t[k].z;
        c[3][k] = t[k].w;
    }
    return make_float4(ws_tex_filter(f, c[0]), ws_tex_filter(f, c[1]), ws_tex_filter(f, c[2]), ws_tex_filter(f, c[3]));
}
template <class T> __WS_DEV T __ws_tex_sample(const ws_texture_desc *d, float x, float y)
{
    ws_tex_footprint f;
    ws_tex_footprint_of(d, x, y, &f);
    if (f.taps == 1)
        return __ws_texel<T>(d, f.x[0], f.y[0]);
    T t[4];
    t[0] = __ws_texel<T>(d, f.x[0], f.y[0]);
    t[1] = __ws_texel<T>(d, f.x[1], f.y[0]);
    t[2] = t[3] = t[0];
    if (f.taps == 4) {
        t[2] = __ws_texel<T>(d, f.x[0], f.y[1]);
        t[3] = __ws_texel<T>(d, f.x[1], f.y[1]);
    }
    return __ws_filter(&f, t);
}
template <class T> __WS_DEV T tex1D(cudaTextureObject_t t, float x) { return __ws_tex_sample<T>(__ws_tex(t), x, 0.5f); }
template <class T> __WS_DEV T tex2D(cudaTextureObject_t t, float x, float y)
{
    return __ws_tex_sample<T>(__ws_tex(t), x, y);
}

/* ---- assert() in device code: the GPU prints the failed condition and stops the kernel ------------- */
extern "C" __attribute__((device, nodebug)) inline void __assert_fail(const char *expr, const char *file, unsigned line,
                                                             const char *function) noexcept
{
    __assertfail(expr, file, line, function, 1);
}

#endif
