// The reduce family's dispatch (public reduce.hpp -> here -> a device room): the one reduction
// every public overload ends in. It goes through the launch protocol (detail/launch.hpp) with a
// body that calls reduce_range(on, ...), implemented by the CPU device in fallback/reduce.hpp
// and by a GPU in backend/gpu/reduce.hpp (its tuning: backend/gpu/tuning_reduce.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/dense_views.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/reduce.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/reduce.hpp>
#endif

// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
namespace hipamp {
namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

// op(*init, reduction), or the reduction alone when init is null. `result`, when given,
// receives the value on the device (and Acc{} is returned).
template <bool Pairwise, class T, int N, class Acc, class Leaf, class Op>
Acc reduce_view(const accelerator_view& av, const array_view<T, N>& view, const Acc* init,
                const Leaf& leaf, const Op& op, const array_view<same_type<Acc>, 1>* result,
                const char* algorithm) {
  static_assert(std::is_trivially_copyable<Acc>::value && std::is_default_constructible<Acc>::value,
                "hipamp: a reduction's result type must be trivially copyable and default "
                "constructible");
  check_launchable_here(av, algorithm);  // before the result is discarded or a copy made
  if (result != nullptr) {
    if (result->extent[0] != 1) {
      throw runtime_exception(std::string("hipamp: ") + algorithm + " into a view of extent " +
                              std::to_string(result->extent[0]) +
                              "; the result view must have extent 1");
    }
    if (!may_overlap(view, *result)) result->discard_data(overwrite_all{});
  }
  if (!view.is_contiguous()) {
    const array_view<const std::remove_const_t<T>, 1> dense = gather_dense(av, view, algorithm);
    return reduce_view<Pairwise>(av, dense, init, leaf, op, result, algorithm);
  }
  const std::size_t n = element_count(view.extent);
  constexpr std::bool_constant<Pairwise> pairwise{};
  Acc value{};
  if (result != nullptr) {
    launch(
        av, algorithm,
        [&](const auto& on, const array_view<T, N>& in, const array_view<Acc, 1>& out) {
          return reduce_range(on, pairwise, in.unchecked_data(), n, init, leaf, op,
                              out.unchecked_data(), &value);
        },
        view, *result);
  } else {
    launch(
        av, algorithm,
        [&](const auto& on, const array_view<T, N>& in) {
          return reduce_range(on, pairwise, in.unchecked_data(), n, init, leaf, op,
                              static_cast<Acc*>(nullptr), &value);
        },
        view);
  }
  return value;
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail
}  // namespace hipamp
