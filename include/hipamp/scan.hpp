// Prefix scans of an array_view on any accelerator (std::inclusive_scan / exclusive_scan).
//
//   hipamp::inclusive_scan(av, in, out);                        // running sums
//   hipamp::exclusive_scan(av, in, out, 0, hipamp::plus<>());   // out[0] = 0
//   hipamp::inclusive_scan(av, data, data, hipamp::maximum<>()); // in place: running max
//
// Semantics:
// - inclusive: out[i] = in[0] op in[1] op ... op in[i];
//   exclusive: out[0] = init, out[i] = init op in[0] op ... op in[i-1].
// - `op` must be associative; it need not commute (operands stay in sequence order on every
//   device). It must be callable on the target device (a HIPAMP_RESTRICT lambda or a function
//   object such as hipamp::plus<>) and free of side effects. Values are computed in out's
//   element type, which must be trivially copyable and default constructible.
// - in and out must hold the same number of elements, in any ranks: elements are taken in
//   row-major order. out may be the very same view as in (in place); other overlaps are
//   undefined. Strided views (sections) go through dense copies on the target.
// - Like all hipamp work, the scan is queued: host access to `out` waits for it.
// - A C++ AMP view is never empty; the overloads on pointer ranges accept empty ranges (a
//   no-op) and copy the result back to host memory before returning.
// - Without an accelerator_view, a view of an array runs where the array lives, any other
//   view on the default accelerator.
// - Floating-point scans round like any running sum: out[i] carries an error that grows with
//   i (no scan order avoids that); the sums are not pairwise.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/algorithm_launch.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/scan_cpu.hpp>
#include <hipamp/functional.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/scan_kernels.hpp>
#endif

namespace hipamp {
namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

// The one scan every public overload ends in; init is used by exclusive scans only.
template <bool Exclusive, class T, int N, class U, int M, class Op>
void scan_view(const accelerator_view& av, const array_view<T, N>& in, const array_view<U, M>& out,
               const U& init, const Op& op, const char* algorithm) {
  static_assert(!std::is_const<U>::value, "hipamp: a scan's output view must be writable");
  static_assert(std::is_trivially_copyable<U>::value && std::is_default_constructible<U>::value,
                "hipamp: a scan's value type must be trivially copyable and default constructible");
  check_runnable(av, algorithm);
  const std::size_t n = element_count(in.extent);
  if (element_count(out.extent) != n) {
    throw runtime_exception(
        std::string("hipamp: ") + algorithm + " from extent " + to_string(in.extent) + " (" +
        std::to_string(n) + " elements) into extent " + to_string(out.extent) + " (" +
        std::to_string(element_count(out.extent)) + " elements): the element counts differ");
  }
  if (!out.is_contiguous()) {
    array_view<U, 1> dense_out(dense_extent(n, algorithm));
    dense_out.discard_data();
    scan_view<Exclusive>(av, in, dense_out, init, op, algorithm);
    scatter_dense(av, array_view<const U, 1>(dense_out), out);
    return;
  }
  if (!in.is_contiguous()) {
    const array_view<const std::remove_const_t<T>, 1> dense_in = gather_dense(av, in, algorithm);
    scan_view<Exclusive>(av, dense_in, out, init, op, algorithm);
    return;
  }
  if (!may_overlap(in, out)) out.discard_data();  // every element is overwritten
  launch_scope scope(av.queue());
  const array_view<T, N> bound_in = in;
  const array_view<U, M> bound_out = out;
  scope.close();
  const T* const src = bound_in.unchecked_data();
  U* const dst = bound_out.unchecked_data();
  if (av.runs_on_cpu()) {
    if constexpr (Exclusive) {
      fallback::exclusive_scan(src, dst, n, init, op);
    } else {
      fallback::inclusive_scan(src, dst, n, op);
    }
    scope.complete(ready_event());
    return;
  }
#if HIPAMP_GPU_TRANSLATION_UNIT
  if constexpr (Exclusive) {
    gpu::exclusive_scan(av, src, dst, n, init, op);
  } else {
    gpu::inclusive_scan(av, src, dst, n, op);
  }
  scope.complete(av.queue().record());
#else
  throw unsupported_feature("hipamp: unreachable");  // check_runnable threw already
#endif
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail

inline namespace HIPAMP_ALGORITHMS_ABI {

// ---- inclusive_scan -------------------------------------------------------------------------

template <class T, int N, class U, int M, class Op = plus<>>
void inclusive_scan(const accelerator_view& av, const array_view<T, N>& in,
                    const array_view<U, M>& out, Op op = Op()) {
  detail::scan_view<false>(av, in, out, U{}, op, "inclusive_scan");
}
template <class T, int N, class U, int M, class Op = plus<>>
void inclusive_scan(const array_view<T, N>& in, const array_view<U, M>& out, Op op = Op()) {
  inclusive_scan(detail::natural_view(in), in, out, op);
}
// Over host memory: [first, last) into d_first (which may equal first); empty is a no-op.
template <class T, class U, class Op = plus<>>
void inclusive_scan(const accelerator_view& av, const T* first, const T* last, U* d_first,
                    Op op = Op()) {
  if (first == last) return;
  const int n = detail::dense_extent(static_cast<std::size_t>(last - first), "inclusive_scan");
  const array_view<const T, 1> in(n, first);
  const array_view<U, 1> out(n, d_first);
  inclusive_scan(av, in, out, op);
  out.synchronize();
}
template <class T, class U, class Op = plus<>>
void inclusive_scan(const T* first, const T* last, U* d_first, Op op = Op()) {
  inclusive_scan(accelerator::get_auto_selection_view(), first, last, d_first, op);
}

// ---- exclusive_scan -------------------------------------------------------------------------

template <class T, int N, class U, int M, class Op = plus<>>
void exclusive_scan(const accelerator_view& av, const array_view<T, N>& in,
                    const array_view<U, M>& out, detail::same_type<U> init, Op op = Op()) {
  detail::scan_view<true>(av, in, out, init, op, "exclusive_scan");
}
template <class T, int N, class U, int M, class Op = plus<>>
void exclusive_scan(const array_view<T, N>& in, const array_view<U, M>& out,
                    detail::same_type<U> init, Op op = Op()) {
  exclusive_scan(detail::natural_view(in), in, out, init, op);
}
template <class T, class U, class Op = plus<>>
void exclusive_scan(const accelerator_view& av, const T* first, const T* last, U* d_first,
                    detail::same_type<U> init, Op op = Op()) {
  if (first == last) return;
  const int n = detail::dense_extent(static_cast<std::size_t>(last - first), "exclusive_scan");
  const array_view<const T, 1> in(n, first);
  const array_view<U, 1> out(n, d_first);
  exclusive_scan(av, in, out, init, op);
  out.synchronize();
}
template <class T, class U, class Op = plus<>>
void exclusive_scan(const T* first, const T* last, U* d_first, detail::same_type<U> init,
                    Op op = Op()) {
  exclusive_scan(accelerator::get_auto_selection_view(), first, last, d_first, init, op);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
