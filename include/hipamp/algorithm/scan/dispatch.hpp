// The scan family's dispatch (public scan.hpp -> here -> a device room): the one scan every
// public overload ends in. It goes through the launch protocol (detail/launch.hpp) with a body
// that calls scan_range(on, ...), implemented by the CPU device in fallback/scan.hpp and by a
// GPU in backend/gpu/scan.hpp (its tuning: backend/gpu/tuning_scan.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/dense_views.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/scan.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/scan.hpp>
#endif

// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
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
  check_launchable_here(av, algorithm);  // before out is discarded or a copy made
  const std::size_t n = element_count(in.extent);
  if (element_count(out.extent) != n) {
    throw runtime_exception(
        std::string("hipamp: ") + algorithm + " from extent " + to_string(in.extent) + " (" +
        std::to_string(n) + " elements) into extent " + to_string(out.extent) + " (" +
        std::to_string(element_count(out.extent)) + " elements): the element counts differ");
  }
  if (!out.is_contiguous()) {
    array_view<U, 1> dense_out(dense_extent(n, algorithm));
    dense_out.discard_data(overwrite_all{});
    scan_view<Exclusive>(av, in, dense_out, init, op, algorithm);
    scatter_dense(av, array_view<const U, 1>(dense_out), out);
    return;
  }
  if (!in.is_contiguous()) {
    const array_view<const std::remove_const_t<T>, 1> dense_in = gather_dense(av, in, algorithm);
    scan_view<Exclusive>(av, dense_in, out, init, op, algorithm);
    return;
  }
  if (!may_overlap(in, out)) out.discard_data(overwrite_all{});  // every element is overwritten
  launch(
      av, algorithm,
      [&](const auto& on, const array_view<T, N>& bound_in, const array_view<U, M>& bound_out) {
        return scan_range(on, std::bool_constant<Exclusive>{}, bound_in.unchecked_data(),
                          bound_out.unchecked_data(), n, init, op);
      },
      in, out);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail
}  // namespace hipamp
