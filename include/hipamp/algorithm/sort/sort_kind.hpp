// Which sort a call asks for, as a type: the sort family's entry points (sort.hpp) pass it to
// every device's sort_rows, so that a device instantiates only the kernels that sort can run
// (a stable sort's index-carrying tiles are compiled only where stable_sort is called).
#pragma once

#include <type_traits>

namespace hipamp::detail {

enum class sort_kind {
  fastest,  // any order of equal elements; the device picks the schedule by size
  stable,   // equal elements keep their order
  network,  // the data-oblivious bitonic network (hipamp::bitonic_sort), whatever the size
};
template <sort_kind K>
using sort_kind_t = std::integral_constant<sort_kind, K>;
inline constexpr sort_kind_t<sort_kind::fastest> fastest_sort{};
inline constexpr sort_kind_t<sort_kind::stable> stable_sort_kind{};
inline constexpr sort_kind_t<sort_kind::network> network_sort{};

}  // namespace hipamp::detail
