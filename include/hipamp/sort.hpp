// hipamp::sort and its family: in-place sorts of array_views on any accelerator.
//
//   sort(av, view)                 ascending (sort_order.hpp; key_index_type keys for
//                                  types that specialise it, see key_index.hpp)
//   sort(av, view, comp)           by a comparator usable in kernels:
//                                  [] HIPAMP_RESTRICT (const T& a, const T& b) { ... }
//   sort(av, first, last[, comp])  a host range (may be empty); sorted on av, copied back
//   stable_sort(av, view[, comp])  ties keep their order
//   bitonic_sort(av, view[, comp]) the data-oblivious bitonic network at every size
//   sort_by_key(av, keys, values[, comp])  values move with their keys (not stable)
//   batched_sort(av, rows[, comp]) every row of a 2-D view sorted on its own (many small
//                                  arrays of equal length; on a GPU, tiles of rows)
// Without `av` the sort runs where the view's data lives: an array's accelerator_view,
// else the CPU device (host data is sorted where it is, with no transfer).
//
// GPU: tiles sorted by a bitonic network in shared memory and registers, then merge passes
// (merge path) that read and write every element once; batches of rows and bitonic_sort run
// the network at every size (no padding). Large sorts of primitive keys in the default order
// go to the vendor radix sort. CPU device: SIMD block sorts and parallel merges.
// Sorting is asynchronous like parallel_for_each: host access to the data waits for it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/sort/dispatch.hpp>
#include <hipamp/array.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/key_index.hpp>
#include <hipamp/parallel_for_each.hpp>
#include <hipamp/sort_order.hpp>

// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
namespace hipamp {

namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

// The key_index path: keys built from the source, sorted, and the source gathered in key
// order into `out` (from the back when `reverse`).
template <class T>
void make_keys(const accelerator_view& av, const array_view<const T, 1>& source,
               const array_view<key_index_t<T>, 1>& keys) {
  using K = key_index_t<T>;
  keys.discard_data(detail::overwrite_all{});
  parallel_for_each(av, source.extent,
                    [=] HIPAMP_RESTRICT(hipamp::index<1> i) { keys[i] = K(source[i], i[0]); });
}
template <class T>
void gather_by_keys(const accelerator_view& av, const array_view<const T, 1>& source,
                    const array_view<const key_index_t<T>, 1>& keys, const array_view<T, 1>& out,
                    bool reverse) {
  const int last = source.extent[0] - 1;
  out.discard_data(detail::overwrite_all{});
  parallel_for_each(av, source.extent, [=] HIPAMP_RESTRICT(hipamp::index<1> i) {
    out[i] = source[static_cast<int>(keys[reverse ? last - i[0] : i[0]].i)];
  });
}
template <class T>
void copy_on(const accelerator_view& av, const array_view<const T, 1>& source,
             const array_view<T, 1>& out) {
  out.discard_data(detail::overwrite_all{});
  parallel_for_each(av, source.extent,
                    [=] HIPAMP_RESTRICT(hipamp::index<1> i) { out[i] = source[i]; });
}

struct operator_less {
  template <class K>
  HIPAMP_HOST_DEVICE bool operator()(const K& a, const K& b) const {
    return a < b;
  }
};

template <class T, class = void>
struct has_operator_less : std::false_type {};
template <class T>
struct has_operator_less<T,
                         std::void_t<decltype(std::declval<const T&>() < std::declval<const T&>())>>
    : std::true_type {};

// Types that sort by their key_index_type keys when no comparator is given.
template <class T>
inline constexpr bool sorts_by_keys_v = !sorts_directly_v<T> && is_valid_key_index_type_v<T>;

template <class T>
void sort_by_key_index(const accelerator_view& av, const array_view<T, 1>& data) {
  using K = key_index_t<T>;
  const int n = data.extent[0];
  array<K, 1> keys(n, av);
  array<T, 1> sorted(n, av);
  const array_view<K, 1> key_view(keys);
  make_keys<T>(av, data, key_view);
  launch(
      av, "sort",
      [&](const auto& on, const array_view<K, 1>& bound) {
        return sort_rows(on, bound.unchecked_data(), static_cast<unsigned>(n), 1u,
                         static_cast<std::size_t>(n), operator_less{}, fastest_sort);
      },
      key_view);
  gather_by_keys<T>(av, data, key_view, array_view<T, 1>(sorted), false);
  copy_on<T>(av, array_view<const T, 1>(sorted), data);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail

inline namespace HIPAMP_ALGORITHMS_ABI {

// ---- sort -------------------------------------------------------------------------------------

template <class T, class Compare>
void sort(const accelerator_view& av, const array_view<T, 1>& data, Compare comp) {
  detail::check_sortable_view(data, "sort");
  const auto n = static_cast<unsigned>(data.extent[0]);
  detail::launch(
      av, "sort",
      [&](const auto& on, const array_view<T, 1>& bound) {
        return sort_rows(on, bound.unchecked_data(), n, 1u, n, comp, detail::fastest_sort);
      },
      data);
}

template <class T>
void sort(const accelerator_view& av, const array_view<T, 1>& data) {
  if constexpr (detail::sorts_by_keys_v<T>) {
    detail::check_sortable_view(data, "sort");
    detail::check_launchable_here(av, "sort");
    detail::sort_by_key_index(av, data);
  } else {
    static_assert(sorts_directly_v<T> || detail::has_operator_less<T>::value,
                  "hipamp::sort: this element type has no operator<; pass a comparator or "
                  "specialise hipamp::key_index_type for it");
    sort(av, data, ascending{});
  }
}

template <class T, class Compare>
void sort(const array_view<T, 1>& data, Compare comp) {
  sort(data.get_source_accelerator_view(), data, comp);
}
template <class T>
void sort(const array_view<T, 1>& data) {
  sort(data.get_source_accelerator_view(), data);
}
template <class T, class Compare>
void sort(array<T, 1>& data, Compare comp) {
  sort(data.get_accelerator_view(), array_view<T, 1>(data), comp);
}
template <class T>
void sort(array<T, 1>& data) {
  sort(data.get_accelerator_view(), array_view<T, 1>(data));
}

// A host range [first, last), which may be empty (array_views cannot be).
template <class T, class Compare>
void sort(const accelerator_view& av, T* first, T* last, Compare comp) {
  if (last < first) {
    throw runtime_exception("hipamp: sort of a host range whose end lies " +
                            std::to_string(first - last) + " elements before its start");
  }
  const auto n = static_cast<unsigned long long>(last - first);
  detail::check_sort_size(n, "sort");
  if (n < 2) return;
  const array_view<T, 1> view(static_cast<int>(n), first);
  sort(av, view, comp);
  view.synchronize();
}
template <class T>
void sort(const accelerator_view& av, T* first, T* last) {
  sort(av, first, last, ascending{});
}

// ---- stable_sort ------------------------------------------------------------------------------

template <class T, class Compare>
void stable_sort(const accelerator_view& av, const array_view<T, 1>& data, Compare comp) {
  detail::check_sortable_view(data, "stable_sort");
  const auto n = static_cast<unsigned>(data.extent[0]);
  detail::launch(
      av, "stable_sort",
      [&](const auto& on, const array_view<T, 1>& bound) {
        return sort_rows(on, bound.unchecked_data(), n, 1u, n, comp, detail::stable_sort_kind);
      },
      data);
}
template <class T>
void stable_sort(const accelerator_view& av, const array_view<T, 1>& data) {
  static_assert(detail::has_operator_less<T>::value,
                "hipamp::stable_sort: this element type has no operator<; pass a comparator");
  stable_sort(av, data, ascending{});
}
template <class T, class Compare>
void stable_sort(const array_view<T, 1>& data, Compare comp) {
  stable_sort(data.get_source_accelerator_view(), data, comp);
}
template <class T>
void stable_sort(const array_view<T, 1>& data) {
  stable_sort(data.get_source_accelerator_view(), data);
}

// ---- bitonic_sort -----------------------------------------------------------------------------

// The bitonic network alone, at every size (sort() switches to merge passes above a tile): a
// data-oblivious sort whose sequence of compare-exchanges depends on the length only. Not
// stable. On the CPU device it is that device's sort.
template <class T, class Compare>
void bitonic_sort(const accelerator_view& av, const array_view<T, 1>& data, Compare comp) {
  detail::check_sortable_view(data, "bitonic_sort");
  const auto n = static_cast<unsigned>(data.extent[0]);
  detail::launch(
      av, "bitonic_sort",
      [&](const auto& on, const array_view<T, 1>& bound) {
        return sort_rows(on, bound.unchecked_data(), n, 1u, n, comp, detail::network_sort);
      },
      data);
}
template <class T>
void bitonic_sort(const accelerator_view& av, const array_view<T, 1>& data) {
  static_assert(detail::has_operator_less<T>::value,
                "hipamp::bitonic_sort: this element type has no operator<; pass a comparator");
  bitonic_sort(av, data, ascending{});
}
template <class T, class Compare>
void bitonic_sort(const array_view<T, 1>& data, Compare comp) {
  bitonic_sort(data.get_source_accelerator_view(), data, comp);
}
template <class T>
void bitonic_sort(const array_view<T, 1>& data) {
  bitonic_sort(data.get_source_accelerator_view(), data);
}

// ---- sort_by_key ------------------------------------------------------------------------------

template <class K, class V, class Compare>
void sort_by_key(const accelerator_view& av, const array_view<K, 1>& keys,
                 const array_view<V, 1>& values, Compare comp) {
  detail::check_sortable_view(keys, "sort_by_key");
  detail::check_sortable_view(values, "sort_by_key");
  if (keys.extent != values.extent) {
    throw runtime_exception("hipamp: sort_by_key of " + std::to_string(keys.extent[0]) +
                            " keys with " + std::to_string(values.extent[0]) +
                            " values: the views must have the same length");
  }
  const auto n = static_cast<unsigned>(keys.extent[0]);
  detail::launch(
      av, "sort_by_key",
      [&](const auto& on, const array_view<K, 1>& k, const array_view<V, 1>& v) {
        return sort_pairs(on, k.unchecked_data(), v.unchecked_data(), n, comp);
      },
      keys, values);
}
template <class K, class V>
void sort_by_key(const accelerator_view& av, const array_view<K, 1>& keys,
                 const array_view<V, 1>& values) {
  sort_by_key(av, keys, values, ascending{});
}
template <class K, class V, class Compare>
void sort_by_key(const array_view<K, 1>& keys, const array_view<V, 1>& values, Compare comp) {
  sort_by_key(keys.get_source_accelerator_view(), keys, values, comp);
}
template <class K, class V>
void sort_by_key(const array_view<K, 1>& keys, const array_view<V, 1>& values) {
  sort_by_key(keys.get_source_accelerator_view(), keys, values, ascending{});
}

// ---- batched_sort -----------------------------------------------------------------------------
// Rows of a batch run the bitonic network (tiles of rows at once on a GPU).

template <class T, class Compare>
void batched_sort(const accelerator_view& av, const array_view<T, 2>& rows, Compare comp) {
  static_assert(!std::is_const<T>::value, "hipamp: sorting needs a writable array_view<T, 2>");
  detail::check_sort_size(rows.extent.size(), "batched_sort");
  const auto row_count = static_cast<unsigned>(rows.extent[0]);
  const auto length = static_cast<unsigned>(rows.extent[1]);
  detail::launch(
      av, "batched_sort",
      [&](const auto& on, const array_view<T, 2>& bound) {
        return sort_rows(on, bound.unchecked_data(), length, row_count,
                         static_cast<std::size_t>(bound.stride(0)), comp, detail::network_sort);
      },
      rows);
}
template <class T>
void batched_sort(const accelerator_view& av, const array_view<T, 2>& rows) {
  batched_sort(av, rows, ascending{});
}
template <class T, class Compare>
void batched_sort(const array_view<T, 2>& rows, Compare comp) {
  batched_sort(rows.get_source_accelerator_view(), rows, comp);
}
template <class T>
void batched_sort(const array_view<T, 2>& rows) {
  batched_sort(rows.get_source_accelerator_view(), rows, ascending{});
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
