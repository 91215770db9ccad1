// Reductions of an array_view on any accelerator: reduce, transform_reduce, reduce_min,
// reduce_max, minmax and the arg- variants that also report where the extreme value is.
//
//   float total = hipamp::reduce(view, 0.0f);                       // sum, default view
//   auto  big   = hipamp::argmax(av, view);                          // {value, index}
//   hipamp::reduce_into(av, view, result, 0.0f, hipamp::plus<>());    // result[0], on av
//
// Semantics (as std::reduce):
// - The result is op(init, x0 op x1 op ... op x(n-1)) grouped and ordered in an unspecified
//   way: `op` must be associative and commutative, callable on the target device
//   (a HIPAMP_RESTRICT lambda or a function object such as hipamp::plus<>), and free of
//   side effects. The result type is the type of `init` (0 for a float view sums in int).
// - Accumulator types must be trivially copyable and default constructible (GPU lanes hold
//   and exchange them in registers).
// - Accumulators that round (floating point, user types) are combined pairwise on every
//   device: no element passes through more than 2 * log2(n) + 20 operations, so a float sum
//   is within (2 * log2(n) + 20) * eps/2 * sum|x_i| of the exact sum, where a left-to-right
//   loop only promises (n - 1) * eps/2 * sum|x_i|. Integer accumulators are plain folds.
// - Views of any rank are reduced in row-major order of their elements; a strided view
//   (a section) is first copied densely on the target. Indices reported by argmin/argmax are
//   row-major positions in the view.
// - A C++ AMP view is never empty; the overloads on pointer ranges accept empty ranges and
//   return init for them.
// - Without an accelerator_view, a view of an array runs where the array lives, any other
//   view on the default accelerator.
// - The *_into variants leave the result on the device in result[0] (result must have
//   extent 1 and must not overlap the input) so that further GPU work reads it without a
//   round trip; the call returns as soon as the work is queued.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/dense_views.hpp>
#include <hipamp/algorithm/reduce/dispatch.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/functional.hpp>

namespace hipamp {

// A value and its row-major position in the reduced view.
template <class T>
struct value_index {
  T value;
  std::size_t index;
};

template <class T>
struct minmax_value {
  T min;
  T max;
};

template <class T>
struct minmax_index {
  value_index<T> min;
  value_index<T> max;
};

namespace detail {
// Selection between copies (prvalues): `c ? b : a` on two lvalues selects between their
// addresses, which makes a GPU compiler keep the operands in local memory, not registers.
// (index is parenthesised below because hipamp::index is a class template.)
template <class T>
HIPAMP_HOST_DEVICE T select_copy(bool take_b, const T& a, const T& b) {
  return take_b ? static_cast<T>(b) : static_cast<T>(a);
}
template <class T>
HIPAMP_HOST_DEVICE value_index<T> pick(bool take_b, const value_index<T>& a,
                                       const value_index<T>& b) {
  return {select_copy(take_b, a.value, b.value), select_copy(take_b, (a.index), (b.index))};
}
}  // namespace detail

// The operators behind argmin / argmax / minmax: total orders on (value, index), so they are
// associative and commutative and ties go to the smallest index whatever the grouping. With
// NaN values the order is not total and the reported element is unspecified.
struct argmin_op {
  template <class T>
  HIPAMP_HOST_DEVICE value_index<T> operator()(const value_index<T>& a,
                                               const value_index<T>& b) const {
    const bool take_b = b.value < a.value || (!(a.value < b.value) && (b.index) < (a.index));
    return detail::pick(take_b, a, b);
  }
};
struct argmax_op {
  template <class T>
  HIPAMP_HOST_DEVICE value_index<T> operator()(const value_index<T>& a,
                                               const value_index<T>& b) const {
    const bool take_b = a.value < b.value || (!(b.value < a.value) && (b.index) < (a.index));
    return detail::pick(take_b, a, b);
  }
};

namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

// Leaves: what each element contributes, given the element and its row-major index.
template <class Acc>
struct convert_leaf {
  template <class T>
  HIPAMP_HOST_DEVICE Acc operator()(const T& x, std::size_t) const {
    return static_cast<Acc>(x);
  }
};
template <class Acc, class Transform>
struct transform_leaf {
  Transform transform;
  template <class T>
  HIPAMP_HOST_DEVICE Acc operator()(const T& x, std::size_t) const {
    return static_cast<Acc>(transform(x));
  }
};
template <class U>
struct value_index_leaf {
  template <class T>
  HIPAMP_HOST_DEVICE value_index<U> operator()(const T& x, std::size_t i) const {
    return {x, i};
  }
};
template <class U>
struct minmax_leaf {
  template <class T>
  HIPAMP_HOST_DEVICE minmax_value<U> operator()(const T& x, std::size_t) const {
    return {x, x};
  }
};
template <class U>
struct minmax_index_leaf {
  template <class T>
  HIPAMP_HOST_DEVICE minmax_index<U> operator()(const T& x, std::size_t i) const {
    return {{x, i}, {x, i}};
  }
};
struct minmax_op {
  template <class U>
  HIPAMP_HOST_DEVICE minmax_value<U> operator()(const minmax_value<U>& a,
                                                const minmax_value<U>& b) const {
    return {select_copy(b.min < a.min, a.min, b.min), select_copy(a.max < b.max, a.max, b.max)};
  }
};
struct minmax_index_op {
  template <class U>
  HIPAMP_HOST_DEVICE minmax_index<U> operator()(const minmax_index<U>& a,
                                                const minmax_index<U>& b) const {
    return {argmin_op()(a.min, b.min), argmax_op()(a.max, b.max)};
  }
};

// Operators that round (floating point, user types) are combined pairwise; exact ones
// (integers, min/max) need no cascade.
template <class Acc>
constexpr bool pairwise_by_default = !std::is_integral<Acc>::value;

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail

inline namespace HIPAMP_ALGORITHMS_ABI {

// ---- reduce ---------------------------------------------------------------------------------

template <class T, int N, class Acc, class Op = plus<>>
Acc reduce(const accelerator_view& av, const array_view<T, N>& view, Acc init, Op op = Op()) {
  return detail::reduce_view<detail::pairwise_by_default<Acc>>(
      av, view, &init, detail::convert_leaf<Acc>(), op, nullptr, "reduce");
}
template <class T, int N, class Acc, class Op = plus<>>
Acc reduce(const array_view<T, N>& view, Acc init, Op op = Op()) {
  return reduce(detail::natural_view(view), view, init, op);
}
// Over host memory [first, last); an empty range gives init.
template <class T, class Acc, class Op = plus<>>
Acc reduce(const accelerator_view& av, const T* first, const T* last, Acc init, Op op = Op()) {
  if (first == last) return init;
  const array_view<const T, 1> view(
      detail::dense_extent(static_cast<std::size_t>(last - first), "reduce"), first);
  return reduce(av, view, init, op);
}
template <class T, class Acc, class Op = plus<>>
Acc reduce(const T* first, const T* last, Acc init, Op op = Op()) {
  return reduce(detail::auto_selection_view(), first, last, init, op);
}

// Leaves op(init, reduction) in result[0] on av without waiting for it.
template <class T, int N, class Acc, class Op = plus<>>
void reduce_into(const accelerator_view& av, const array_view<T, N>& view,
                 const array_view<Acc, 1>& result, Acc init, Op op = Op()) {
  (void)detail::reduce_view<detail::pairwise_by_default<Acc>>(
      av, view, &init, detail::convert_leaf<Acc>(), op, &result, "reduce_into");
}
template <class T, int N, class Acc, class Op = plus<>>
void reduce_into(const array_view<T, N>& view, const array_view<Acc, 1>& result, Acc init,
                 Op op = Op()) {
  reduce_into(detail::natural_view(view), view, result, init, op);
}

// ---- transform_reduce -----------------------------------------------------------------------

// op(init, transform(x0) op transform(x1) op ...); transform runs on the device too.
template <class T, int N, class Acc, class ReduceOp, class Transform>
Acc transform_reduce(const accelerator_view& av, const array_view<T, N>& view, Acc init,
                     ReduceOp reduce_op, Transform transform) {
  return detail::reduce_view<detail::pairwise_by_default<Acc>>(
      av, view, &init, detail::transform_leaf<Acc, Transform>{transform}, reduce_op, nullptr,
      "transform_reduce");
}
template <class T, int N, class Acc, class ReduceOp, class Transform>
Acc transform_reduce(const array_view<T, N>& view, Acc init, ReduceOp reduce_op,
                     Transform transform) {
  return transform_reduce(detail::natural_view(view), view, init, reduce_op, transform);
}
template <class T, class Acc, class ReduceOp, class Transform>
Acc transform_reduce(const accelerator_view& av, const T* first, const T* last, Acc init,
                     ReduceOp reduce_op, Transform transform) {
  if (first == last) return init;
  const array_view<const T, 1> view(
      detail::dense_extent(static_cast<std::size_t>(last - first), "transform_reduce"), first);
  return transform_reduce(av, view, init, reduce_op, transform);
}
template <class T, class Acc, class ReduceOp, class Transform>
Acc transform_reduce(const T* first, const T* last, Acc init, ReduceOp reduce_op,
                     Transform transform) {
  return transform_reduce(detail::auto_selection_view(), first, last, init, reduce_op, transform);
}

template <class T, int N, class Acc, class ReduceOp, class Transform>
void transform_reduce_into(const accelerator_view& av, const array_view<T, N>& view,
                           const array_view<Acc, 1>& result, Acc init, ReduceOp reduce_op,
                           Transform transform) {
  (void)detail::reduce_view<detail::pairwise_by_default<Acc>>(
      av, view, &init, detail::transform_leaf<Acc, Transform>{transform}, reduce_op, &result,
      "transform_reduce_into");
}
template <class T, int N, class Acc, class ReduceOp, class Transform>
void transform_reduce_into(const array_view<T, N>& view, const array_view<Acc, 1>& result, Acc init,
                           ReduceOp reduce_op, Transform transform) {
  transform_reduce_into(detail::natural_view(view), view, result, init, reduce_op, transform);
}

// ---- extremes -------------------------------------------------------------------------------
// Elements are compared with operator< only. A view is never empty, so no init is needed.
// Ties report the smallest index.

template <class T, int N>
value_index<std::remove_const_t<T>> argmin(const accelerator_view& av,
                                           const array_view<T, N>& view) {
  using U = std::remove_const_t<T>;
  return detail::reduce_view<false>(av, view, static_cast<const value_index<U>*>(nullptr),
                                    detail::value_index_leaf<U>(), argmin_op(), nullptr, "argmin");
}
template <class T, int N>
value_index<std::remove_const_t<T>> argmin(const array_view<T, N>& view) {
  return argmin(detail::natural_view(view), view);
}
template <class T, int N>
value_index<std::remove_const_t<T>> argmax(const accelerator_view& av,
                                           const array_view<T, N>& view) {
  using U = std::remove_const_t<T>;
  return detail::reduce_view<false>(av, view, static_cast<const value_index<U>*>(nullptr),
                                    detail::value_index_leaf<U>(), argmax_op(), nullptr, "argmax");
}
template <class T, int N>
value_index<std::remove_const_t<T>> argmax(const array_view<T, N>& view) {
  return argmax(detail::natural_view(view), view);
}
template <class T, int N>
minmax_index<std::remove_const_t<T>> argminmax(const accelerator_view& av,
                                               const array_view<T, N>& view) {
  using U = std::remove_const_t<T>;
  return detail::reduce_view<false>(av, view, static_cast<const minmax_index<U>*>(nullptr),
                                    detail::minmax_index_leaf<U>(), detail::minmax_index_op(),
                                    nullptr, "argminmax");
}
template <class T, int N>
minmax_index<std::remove_const_t<T>> argminmax(const array_view<T, N>& view) {
  return argminmax(detail::natural_view(view), view);
}

template <class T, int N>
std::remove_const_t<T> reduce_min(const accelerator_view& av, const array_view<T, N>& view) {
  using U = std::remove_const_t<T>;
  return detail::reduce_view<false>(av, view, static_cast<const U*>(nullptr),
                                    detail::convert_leaf<U>(), minimum<U>(), nullptr, "reduce_min");
}
template <class T, int N>
std::remove_const_t<T> reduce_min(const array_view<T, N>& view) {
  return reduce_min(detail::natural_view(view), view);
}
template <class T, int N>
std::remove_const_t<T> reduce_max(const accelerator_view& av, const array_view<T, N>& view) {
  using U = std::remove_const_t<T>;
  return detail::reduce_view<false>(av, view, static_cast<const U*>(nullptr),
                                    detail::convert_leaf<U>(), maximum<U>(), nullptr, "reduce_max");
}
template <class T, int N>
std::remove_const_t<T> reduce_max(const array_view<T, N>& view) {
  return reduce_max(detail::natural_view(view), view);
}
template <class T, int N>
minmax_value<std::remove_const_t<T>> minmax(const accelerator_view& av,
                                            const array_view<T, N>& view) {
  using U = std::remove_const_t<T>;
  return detail::reduce_view<false>(av, view, static_cast<const minmax_value<U>*>(nullptr),
                                    detail::minmax_leaf<U>(), detail::minmax_op(), nullptr,
                                    "minmax");
}
template <class T, int N>
minmax_value<std::remove_const_t<T>> minmax(const array_view<T, N>& view) {
  return minmax(detail::natural_view(view), view);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
