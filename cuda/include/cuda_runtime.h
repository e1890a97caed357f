/*
 * warpsim's cuda_runtime.h: what nvcc makes visible to every .cu file, for
 * clang compiling CUDA without the CUDA Toolkit. `warpsim run` and `warpsim cc`
 * include it first (-include), so programs that include <cuda_runtime.h>,
 * <cuda.h> or nothing all see the same thing:
 *   the qualifiers (__global__, __device__, __shared__, __constant__, __managed__),
 *   the built-in variables (threadIdx...: clang's own header), the vector types
 *   and make_* functions, the runtime API (cuda_runtime_api.h, implemented by
 *   cuda/runtime/ over the simulator), its C++ template overloads, and the
 *   device functions (warpsim_device.h).
 */
#ifndef WARPSIM_CUDA_RUNTIME_H
#define WARPSIM_CUDA_RUNTIME_H

#ifndef __CUDA__
#error "warpsim's cuda_runtime.h is for CUDA sources compiled by clang (-x cuda): use `warpsim run FILE.cu` or `warpsim cc`"
#endif

/* The C library first, as clang's own CUDA wrapper does, so that the device
 * overloads below sit beside the host declarations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang 14 knows no CUDA managed variables: a __managed__ variable is a
 * __device__ one whose host shadow sits in the warpsim_managed section; the
 * runtime gives the device variable that very storage, so host and device
 * read and write one object at one address, as with unified memory. */
#ifdef __CUDA_ARCH__
#define __managed__ __attribute__((device))
#elif defined(__APPLE__)   /* Mach-O names a section with its segment (untested: cuda/runtime/context.c) */
#define __managed__ __attribute__((device)) __attribute__((section("__DATA,warpsim_managed"))) __attribute__((used))
#else
#define __managed__ __attribute__((device)) __attribute__((section("warpsim_managed"))) __attribute__((used))
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__: clang 15 and later know it as a keyword in CUDA sources, so it
 * needs no macro there. Clang 14 needs one, and the macro breaks libstdc++ 12's
 * __attribute__((__noinline__)) (bits/shared_ptr_base.h, which <future>,
 * <memory> and <thread> include; 13 also writes it in bits/basic_string.h and
 * .tcc): bits/ here holds wrappers that hide the macro around those headers, as
 * clang 15's cuda_wrappers do for the one in NVIDIA's host_defines.h. */
#if !(defined(__clang_major__) && __clang_major__ >= 15)
#define __noinline__ __attribute__((noinline))
#endif
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__

#include "cuda_runtime_api.h"
#include <__clang_cuda_builtin_vars.h>

/* The device runtime's calls a kernel may make beside its launches (dynamic parallelism): declared for device
 * code too, so that clang++ compiles the host code of a program whose kernels call them; nvcc -rdc=true's PTX
 * (--cc nvcc, --ptx) calls them, and warpsim runs them (sim/device_runtime.def). */
#ifdef __cplusplus
extern "C" {
__device__ cudaError_t cudaGetLastError(void);
__device__ cudaError_t cudaPeekAtLastError(void);
__device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
__device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
}
#endif

/* threadIdx and friends convert to uint3 and dim3 as in nvcc (clang's header declares these) */
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }

/* ---- make_* ----------------------------------------------------------------------- */
#define WS_MAKE(T, name)                                                                           \
    __host__ __device__ inline name##1 make_##name##1(T x) { name##1 v = {x}; return v; }          \
    __host__ __device__ inline name##2 make_##name##2(T x, T y) { name##2 v = {x, y}; return v; } \
    __host__ __device__ inline name##3 make_##name##3(T x, T y, T z) { name##3 v = {x, y, z}; return v; } \
    __host__ __device__ inline name##4 make_##name##4(T x, T y, T z, T w) { name##4 v = {x, y, z, w}; return v; }
WS_MAKE(signed char, char)
WS_MAKE(unsigned char, uchar)
WS_MAKE(short, short)
WS_MAKE(unsigned short, ushort)
WS_MAKE(int, int)
WS_MAKE(unsigned int, uint)
WS_MAKE(long long, longlong)
WS_MAKE(unsigned long long, ulonglong)
WS_MAKE(float, float)
WS_MAKE(double, double)
#undef WS_MAKE

/* ---- The runtime API's C++ overloads (as CUDA's cuda_runtime.h has them) ---------------- */
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t size)
{ return ::cudaMalloc((void **)(void *)p, size); }
template <class T> static inline cudaError_t cudaMallocManaged(T **p, size_t size, unsigned flags = cudaMemAttachGlobal)
{ return ::cudaMallocManaged((void **)(void *)p, size, flags); }
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t size, unsigned flags = 0)
{ return ::cudaHostAlloc((void **)(void *)p, size, flags); }
template <class T> static inline cudaError_t cudaHostAlloc(T **p, size_t size, unsigned flags)
{ return ::cudaHostAlloc((void **)(void *)p, size, flags); }
template <class T> static inline cudaError_t cudaHostGetDevicePointer(T **d, void *h, unsigned flags)
{ return ::cudaHostGetDevicePointer((void **)(void *)d, h, flags); }
template <class T> static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t w, size_t h)
{ return ::cudaMallocPitch((void **)(void *)p, pitch, w, h); }
template <class T> static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                                               size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{ return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind); }
template <class T> static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                                    size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                                    cudaStream_t stream = 0)
{ return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream); }
template <class T> static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                                                 size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{ return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind); }
template <class T> static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                                                      size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                                      cudaStream_t stream = 0)
{ return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream); }
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **d, const T &symbol)
{ return ::cudaGetSymbolAddress(d, (const void *)&symbol); }
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{ return ::cudaGetSymbolSize(size, (const void *)&symbol); }
template <class T> static inline cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block, void **args,
                                                             size_t shared = 0, cudaStream_t stream = 0)
{ return ::cudaLaunchKernel((const void *)func, grid, block, args, shared, stream); }
template <class T> static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, T *func)
{ return ::cudaFuncGetAttributes(attr, (const void *)func); }
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr, int value)
{ return ::cudaFuncSetAttribute((const void *)func, attr, value); }
template <class T> static inline cudaError_t cudaFuncSetCacheConfig(T *func, cudaFuncCache config)
{ return ::cudaFuncSetCacheConfig((const void *)func, config); }
template <class T> static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T func,
                                                                                          int block_size, size_t shared)
{ return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)func, block_size, shared); }
/* cudaCreateChannelDesc<T>(): the channel layout of a texel type */
template <class T> struct __ws_channel;
#define WS_CHANNEL(T, n, bits, kind) \
    template <> struct __ws_channel<T> { static cudaChannelFormatDesc get() { return ::cudaCreateChannelDesc( \
        bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 3 ? bits : 0, kind); } };
WS_CHANNEL(float, 1, 32, cudaChannelFormatKindFloat)
WS_CHANNEL(float2, 2, 32, cudaChannelFormatKindFloat)
WS_CHANNEL(float4, 4, 32, cudaChannelFormatKindFloat)
WS_CHANNEL(int, 1, 32, cudaChannelFormatKindSigned)
WS_CHANNEL(int2, 2, 32, cudaChannelFormatKindSigned)
WS_CHANNEL(int4, 4, 32, cudaChannelFormatKindSigned)
WS_CHANNEL(unsigned int, 1, 32, cudaChannelFormatKindUnsigned)
WS_CHANNEL(uint4, 4, 32, cudaChannelFormatKindUnsigned)
WS_CHANNEL(unsigned char, 1, 8, cudaChannelFormatKindUnsigned)
WS_CHANNEL(uchar4, 4, 8, cudaChannelFormatKindUnsigned)
WS_CHANNEL(short, 1, 16, cudaChannelFormatKindSigned)
WS_CHANNEL(unsigned short, 1, 16, cudaChannelFormatKindUnsigned)
#undef WS_CHANNEL
template <class T> static inline cudaChannelFormatDesc cudaCreateChannelDesc() { return __ws_channel<T>::get(); }

static inline cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned flags)
{ return ::cudaEventCreateWithFlags(e, flags); }

#include "warpsim_device.h"

/* The allocation calls carry their caller's file, line and function to the runtime, for
 * --leak-check full's host backtrace. Function-like macros: &cudaMalloc and cudaMalloc<T>(...)
 * are left alone, and a program built without them still links (the runtime keeps cudaMalloc). */
#define cudaMalloc(...) (__warpsim_call_site(__FILE__, __LINE__, __builtin_FUNCTION()), cudaMalloc(__VA_ARGS__))
#define cudaMallocManaged(...) \
    (__warpsim_call_site(__FILE__, __LINE__, __builtin_FUNCTION()), cudaMallocManaged(__VA_ARGS__))
#define cudaMallocPitch(...) \
    (__warpsim_call_site(__FILE__, __LINE__, __builtin_FUNCTION()), cudaMallocPitch(__VA_ARGS__))

#endif
