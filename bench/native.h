/*
 * The benchmark workloads as plain single-threaded C: the work the simulated
 * kernels do, computed on the CPU, so the benchmark can say how much slower
 * simulating a kernel is than just running its computation natively.
 * Built at -O2 (bench/CMakeLists.txt) whatever the build type.
 */
#ifndef WARPSIM_BENCH_NATIVE_H
#define WARPSIM_BENCH_NATIVE_H

void native_vector_add(const float *a, const float *b, float *c, int n);
/* C = A * B for n x n row-major matrices, the k loop innermost as the naive kernel runs it. */
void native_matmul_naive(const float *a, const float *b, float *c, int n);
/* The same product through 32 x 32 tiles, as matmul_optimized stages them in shared memory. */
void native_matmul_tiled(const float *a, const float *b, float *c, int n);
/* The course's tile transpose (tests/nvcc/001_transpose.ptx): a 32 x 32 tile is read by
 * rows and written by columns: out[(bx*32+tx)*n + by*32+ty] = in[(by*32+tx)*n + bx*32+ty]. */
void native_transpose_tiled(const float *in, float *out, int n);
/* One partial sum per block of `block` elements, by the sequential-addressing tree. */
void native_reduce_blocks(const float *in, float *out, int n, int block);

#endif
