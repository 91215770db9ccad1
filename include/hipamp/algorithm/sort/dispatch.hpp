// The sort family's dispatch (public sort.hpp / parallel_sort.hpp -> here -> a device room):
// the checks every sort makes before any data moves. The sorts themselves go through the launch
// protocol (detail/launch.hpp) with a body that calls sort_rows(on, ...) / sort_pairs(on, ...),
// implemented by the CPU device in fallback/sort.hpp and by a GPU in backend/gpu/sort.hpp.
#pragma once

#include <climits>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/sort/bitonic_network.hpp>
#include <hipamp/algorithm/sort/sort_kind.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/sort.hpp>
#include <hipamp/sort_order.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/sort.hpp>
#endif

// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
namespace hipamp::detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

// Sorts index elements with int (key_index_type::i, C++ AMP extents), so they hold at most
// INT_MAX elements; a larger request is refused before any memory is touched.
inline void check_sort_size(unsigned long long n, const char* what) {
  if (n > static_cast<unsigned long long>(INT_MAX)) {
    throw runtime_exception(std::string("hipamp: ") + what + " of " + std::to_string(n) +
                            " elements: hipamp sorts index elements with int, so at most " +
                            std::to_string(INT_MAX) + " elements can be sorted at once");
  }
}

template <class T>
void check_sortable_view(const array_view<T, 1>& view, const char* what) {
  static_assert(!std::is_const<T>::value, "hipamp: sorting needs a writable array_view<T, 1>");
  check_sort_size(view.extent.size(), what);
  if (!view.is_contiguous()) {
    throw runtime_exception(std::string("hipamp: ") + what + " needs a contiguous view");
  }
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp::detail
