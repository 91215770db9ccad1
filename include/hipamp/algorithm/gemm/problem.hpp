// One GEMM, C = alpha * op(A) * op(B) + beta * C, as raw pointers in the memory of the device
// that runs it: what hipamp::gemm hands to the CPU kernel in libhipamp and to the GPU kernel.
// Rows are contiguous; ld* is the distance in elements between consecutive rows of the
// matrix as stored (the view's stride(0)).
#pragma once

#include <cstddef>

#include <hipamp/config.hpp>
#include <hipamp/matrix_op.hpp>

namespace hipamp::detail {

template <class T>
struct gemm_problem {
  matrix_op op_a = matrix_op::none;
  matrix_op op_b = matrix_op::none;
  int m = 0;  // rows of op(A) and C
  int n = 0;  // columns of op(B) and C
  int k = 0;  // columns of op(A), rows of op(B)
  T alpha = T(1);
  T beta = T(0);  // 0: C is written without being read (NaN in C does not propagate)
  const T* a = nullptr;
  std::ptrdiff_t lda = 0;
  const T* b = nullptr;
  std::ptrdiff_t ldb = 0;
  T* c = nullptr;
  std::ptrdiff_t ldc = 0;

  // Element (i, p) of op(A) and (p, j) of op(B), for references and edge code.
  HIPAMP_HOST_DEVICE const T& a_at(int i, int p) const noexcept {
    return op_a == matrix_op::none ? a[i * lda + p] : a[p * lda + i];
  }
  HIPAMP_HOST_DEVICE const T& b_at(int p, int j) const noexcept {
    return op_b == matrix_op::none ? b[p * ldb + j] : b[j * ldb + p];
  }
};

}  // namespace hipamp::detail
