// The interface between the CPU GEMM driver (gemm_cpu.cpp, compiled for the baseline target)
// and the kernels compiled once per instruction set (gemm_cpu_<isa>.cpp). Only plain data and
// function pointers cross it, so no inline function compiled with wide-vector flags can be
// picked by the linker for code that runs on a CPU without them.
#pragma once

#include <cstddef>

#include <hipamp/algorithm/gemm/problem.hpp>
#include <hipamp/fallback/gemm.hpp>

namespace hipamp::fallback::gemm_impl {

template <class T>
struct kernel_set {
  gemm_isa isa = gemm_isa::portable;
  int mr = 0;        // micro-tile rows (broadcast operand, op(A))
  int nr = 0;        // micro-tile columns (vector operand, op(B)); a multiple of the SIMD width
  int kc = 0;        // depth of one packed slice: an MR x KC panel of A stays in L1
  int nc_chunk = 0;  // columns of packed B a thread sweeps per A panel: KC x NC_CHUNK in L2
  // Packs rows [i0, i0 + rows) and depths [p0, p0 + kc) of op(A) as ceil(rows / mr) panels,
  // each kc steps of mr values; rows past the end are zero.
  void (*pack_a)(const hipamp::detail::gemm_problem<T>& problem, int i0, int rows, int p0, int kc,
                 T* dst) = nullptr;
  // Packs depths [p0, p0 + kc) and columns [j0, j0 + cols) of op(B) as ceil(cols / nr) panels,
  // each kc steps of nr values; columns past the end are zero.
  void (*pack_b)(const hipamp::detail::gemm_problem<T>& problem, int j0, int cols, int p0, int kc,
                 T* dst) = nullptr;
  // C[0..rows) x [0..cols) = alpha * packed A * packed B + beta * C, where `a` and `b` point at
  // the first packed panel of the rectangle (rows and cols start on panel boundaries).
  // beta == 0 writes C without reading it.
  void (*rectangle)(int rows, int cols, int kc, const T* a, const T* b, T* c, std::ptrdiff_t ldc,
                    T alpha, T beta, int nc_chunk) = nullptr;
};

struct kernel_table {
  kernel_set<float> f32;
  kernel_set<double> f64;
};

kernel_table portable_kernels();
#if HIPAMP_GEMM_HAVE_AVX2
kernel_table avx2_kernels();
#endif
#if HIPAMP_GEMM_HAVE_AVX512
kernel_table avx512_kernels();
#endif

}  // namespace hipamp::fallback::gemm_impl
