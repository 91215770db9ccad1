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
#include <hipamp/algorithm/dense_views.hpp>
#include <hipamp/algorithm/scan/dispatch.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/functional.hpp>

namespace hipamp {

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
  inclusive_scan(detail::auto_selection_view(), first, last, d_first, op);
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
  exclusive_scan(detail::auto_selection_view(), first, last, d_first, init, op);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
