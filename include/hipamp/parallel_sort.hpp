// The API of Steve Dower's "Bitonic Sort for C++ AMP": parallel_sort returns a sorted copy
// of an array, parallel_sort_keys the sorted keys (for arithmetic types, the sorted values;
// for others, key_index_type keys whose `i` indexes the source), leaving the source as is.
// Both run on the source array's accelerator_view and work for any length.
#pragma once
#define HIPAMP_PARALLEL_SORT_HPP 1  // <hipamp/compat/ppl.h> asks

#include <memory>

#include <hipamp/array.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/key_index.hpp>
#include <hipamp/sort.hpp>
#include <hipamp/sort_order.hpp>

namespace hipamp {
inline namespace HIPAMP_ALGORITHMS_ABI {

// Sorted keys of `source`: an array of key_index_t<T> on the source's accelerator_view.
template <class T>
std::shared_ptr<array<key_index_t<T>, 1>> parallel_sort_keys(const array<T, 1>& source) {
  static_assert(detail::check_key_index_type<T>());
  using K = key_index_t<T>;
  const accelerator_view av = source.get_accelerator_view();
  const array_view<const T, 1> src(source);
  detail::check_sort_size(source.extent.size(), "parallel_sort_keys");
  detail::check_launchable_here(av, "parallel_sort_keys");
  auto keys = std::make_shared<array<K, 1>>(source.extent, av);
  const array_view<K, 1> key_view(*keys);
  if constexpr (sorts_directly_v<T>) {
    detail::copy_on<T>(av, src, key_view);
    sort(av, key_view, ascending{});
  } else {
    detail::make_keys<T>(av, src, key_view);
    sort(av, key_view, detail::operator_less{});
  }
  return keys;
}

// A sorted copy of `source` (descending when `reverse`), on the source's accelerator_view.
// Types with a key_index_type sort by key: ties come out in no particular order, and
// `reverse` reads the ascending keys from the back, as in the paper.
template <class T>
std::shared_ptr<array<T, 1>> parallel_sort(const array<T, 1>& source, bool reverse = false) {
  static_assert(detail::check_key_index_type<T>());
  const accelerator_view av = source.get_accelerator_view();
  const array_view<const T, 1> src(source);
  detail::check_sort_size(source.extent.size(), "parallel_sort");
  detail::check_launchable_here(av, "parallel_sort");
  auto result = std::make_shared<array<T, 1>>(source.extent, av);
  const array_view<T, 1> out(*result);
  if constexpr (sorts_directly_v<T>) {
    detail::copy_on<T>(av, src, out);
    if (reverse) {
      sort(av, out, descending{});
    } else {
      sort(av, out, ascending{});
    }
  } else {
    const std::shared_ptr<array<key_index_t<T>, 1>> keys = parallel_sort_keys(source);
    detail::gather_by_keys<T>(av, src, array_view<const key_index_t<T>, 1>(*keys), out, reverse);
  }
  return result;
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp

#if defined(HIPAMP_COMPAT_PPL_H)
// <hipamp/compat/ppl.h> came first: its iterator parallel_sort hides this one from
// concurrency::parallel_sort unless it is named there too (that header says why it is not
// named from there when this one is absent).
namespace concurrency {
using ::hipamp::parallel_sort;
}  // namespace concurrency
#endif
