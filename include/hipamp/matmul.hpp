// Matrix multiply on array_views: hipamp::gemm (C = alpha * op(A) * op(B) + beta * C) and
// hipamp::matmul (C = A * B), for float and double, on every accelerator.
//
// The kernels are compiled into libhipamp (a Goto/BLIS-style SIMD GEMM on the CPU device, a
// register-blocked shared-memory GEMM on GPUs), so any translation unit may call these, also
// one compiled by a plain C++ compiler in a GPU build.
//
// Shapes: A and B are rank-2 views read as op(A) (m x k) and op(B) (k x n); C is m x n. Views
// may be sections of larger matrices (their row stride is the leading dimension). C++ AMP
// extents are positive, so there are no empty matrices: a view with a zero dimension cannot be
// constructed (array_view throws runtime_exception), and hipamp::gemm never sees one.
//
// Coherence: A and B are read-only here; C is written on the target (with beta == 0 it is
// discarded first, so it is neither copied in nor read: NaN in C does not propagate). The call
// is asynchronous on a GPU like parallel_for_each; host access to C waits for it.
#pragma once

#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/gemm/problem.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/matrix_op.hpp>

namespace hipamp {
namespace detail {

// Compiled in libhipamp: runs the problem on av's device (pointers in its memory) and returns
// the event that completes it.
event_ptr run_gemm(const accelerator_view& av, const gemm_problem<float>& problem);
event_ptr run_gemm(const accelerator_view& av, const gemm_problem<double>& problem);

// What the checks need to know about one operand.
struct gemm_operand {
  const char* name = nullptr;  // "A", "B" or "C"
  extent<2> shape;
  const data_source* source = nullptr;
  footprint where;
};

// Throws runtime_exception naming the shapes when op(A), op(B) and C do not fit together, and
// when C shares any element with A or B (same data, overlapping elements).
void check_gemm_operands(const char* function, matrix_op op_a, matrix_op op_b,
                         const gemm_operand& a, const gemm_operand& b, const gemm_operand& c);

// True when the two footprints share a byte: in one source, or in host memory that two
// sources made over overlapping user memory.
bool footprints_overlap(const data_source* x_source, const footprint& x,
                        const data_source* y_source, const footprint& y);

// Where a call without an accelerator_view runs: on C's array's accelerator if C is backed by
// an array (its data already lives there), else on the auto-selection view, as
// parallel_for_each does.
accelerator_view gemm_default_view(const data_source* c_source);

template <class T>
struct type_identity {
  using type = T;
};
template <class T>
using non_deduced = typename type_identity<T>::type;

template <class U>
gemm_operand describe(const char* name, const array_view<U, 2>& view) {
  return {name, view.extent, view.source(), view.where()};
}

}  // namespace detail

// C = alpha * op(A) * op(B) + beta * C on `av`. T (float or double) comes from C; alpha, beta
// and the element type of A and B convert to it.
template <class T>
void gemm(const accelerator_view& av, matrix_op op_a, matrix_op op_b, detail::non_deduced<T> alpha,
          const array_view<const detail::non_deduced<T>, 2>& a,
          const array_view<const detail::non_deduced<T>, 2>& b, detail::non_deduced<T> beta,
          const array_view<T, 2>& c) {
  static_assert(!std::is_const<T>::value, "hipamp::gemm: C must be a writable array_view<T, 2>");
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "hipamp::gemm supports float and double");
  detail::check_gemm_operands("hipamp::gemm", op_a, op_b, detail::describe("A", a),
                              detail::describe("B", b), detail::describe("C", c));
  // Every element of C is overwritten without being read: nothing needs to move in.
  if (beta == T(0)) c.discard_data(detail::overwrite_all{});

  detail::launch_compiled(
      av,
      [&](const array_view<const T, 2>& bound_a, const array_view<const T, 2>& bound_b,
          const array_view<T, 2>& bound_c) {
        detail::gemm_problem<T> problem;
        problem.op_a = op_a;
        problem.op_b = op_b;
        problem.m = c.extent[0];
        problem.n = c.extent[1];
        problem.k = op_a == matrix_op::none ? a.extent[1] : a.extent[0];
        problem.alpha = alpha;
        problem.beta = beta;
        problem.a = bound_a.unchecked_data();
        problem.lda = bound_a.stride(0);
        problem.b = bound_b.unchecked_data();
        problem.ldb = bound_b.stride(0);
        problem.c = bound_c.unchecked_data();
        problem.ldc = bound_c.stride(0);
        return detail::run_gemm(av, problem);
      },
      a, b, c);
}

template <class T>
void gemm(matrix_op op_a, matrix_op op_b, detail::non_deduced<T> alpha,
          const array_view<const detail::non_deduced<T>, 2>& a,
          const array_view<const detail::non_deduced<T>, 2>& b, detail::non_deduced<T> beta,
          const array_view<T, 2>& c) {
  gemm(detail::gemm_default_view(c.source()), op_a, op_b, alpha, a, b, beta, c);
}

// C = A * B. C's previous contents are discarded, never copied to the accelerator.
template <class T>
void matmul(const accelerator_view& av, const array_view<const detail::non_deduced<T>, 2>& a,
            const array_view<const detail::non_deduced<T>, 2>& b, const array_view<T, 2>& c) {
  gemm(av, matrix_op::none, matrix_op::none, T(1), a, b, T(0), c);
}

template <class T>
void matmul(const array_view<const detail::non_deduced<T>, 2>& a,
            const array_view<const detail::non_deduced<T>, 2>& b, const array_view<T, 2>& c) {
  matmul(detail::gemm_default_view(c.source()), a, b, c);
}

}  // namespace hipamp
