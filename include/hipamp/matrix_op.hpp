// matrix_op: how a GEMM reads one operand, op(X) = X or X^T (BLAS's 'N' and 'T').
#pragma once

namespace hipamp {

enum class matrix_op {
  none,       // op(X) = X: the view's rows are the matrix's rows
  transpose,  // op(X) = X^T: the view's rows are the matrix's columns
};

namespace detail {
inline const char* to_string(matrix_op op) noexcept {
  return op == matrix_op::none ? "none" : "transpose";
}
}  // namespace detail

}  // namespace hipamp
