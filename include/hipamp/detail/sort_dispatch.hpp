// Where a sort runs: binds views on the target accelerator_view (the launch-scope pattern
// of parallel_for_each) and hands raw memory to the CPU device's merge sort or the GPU's
// kernels. Host-only translation units cannot launch GPU kernels; they get
// unsupported_feature for a GPU target, as parallel_for_each does.
#pragma once

#include <climits>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <hipamp/accelerator.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/bitonic_network.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/sort_cpu.hpp>
#include <hipamp/sort_order.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/sort_kernels.hpp>
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

[[noreturn]] inline void throw_gpu_sort_from_host_unit(const char* what) {
  throw unsupported_feature(
      std::string("hipamp: ") + what +
      ": this translation unit was compiled by a host compiler, so it cannot sort on the GPU "
      "accelerator; " HIPAMP_HOST_UNIT_FIX);
}

// Refuses a GPU target in a host-only translation unit before any data moves.
inline void check_can_sort_on(const accelerator_view& av, const char* what) {
#if !HIPAMP_GPU_TRANSLATION_UNIT
  if (!av.runs_on_cpu()) throw_gpu_sort_from_host_unit(what);
#else
  (void)av;
  (void)what;
#endif
}

// Binds the views for a library launch on `av`, calls run(bound views...), and records the
// launch on the views' data sources so later users wait for it.
template <class Run, class... Views>
void with_bound_views(const accelerator_view& av, const char* what, const Run& run,
                      const Views&... views) {
  check_can_sort_on(av, what);
  launch_scope scope(av.queue());
  const std::tuple<const Views...> bound(views...);  // every copy reports itself to the scope
  scope.close();
  std::apply(run, bound);
  scope.complete(av.queue().record());
}

// Sorts `rows` rows of `length` elements (row r at data + r * pitch) in memory bound on av.
template <class T, class Less>
void sort_rows_bound(const accelerator_view& av, T* data, unsigned length, unsigned rows,
                     std::size_t pitch, const Less& less, bool stable) {
  if (av.runs_on_cpu()) {
    fallback::sort(data, length, rows, pitch, less, stable);
    return;
  }
#if HIPAMP_GPU_TRANSLATION_UNIT
  gpu::sort_rows(av, data, bitonic::make_layout(length, rows, pitch), less, stable);
#else
  throw_gpu_sort_from_host_unit("sort");
#endif
}

// Sorts keys by `less`, carrying values along, in memory bound on av.
template <class K, class V, class Less>
void sort_pairs_bound(const accelerator_view& av, K* keys, V* values, unsigned n,
                      const Less& less) {
  if (n < 2) return;
  if (av.runs_on_cpu()) {
    using pair = bitonic::key_value<K, V>;
    fallback::detail::scratch<pair> zipped(n);
    pair* z = zipped.get();
    fallback::detail::parallel_ranges(n, 1 << 16, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) z[i] = pair{keys[i], values[i]};
    });
    fallback::sort(z, n, 1, n, bitonic::by_key<Less>{less}, true);
    fallback::detail::parallel_ranges(n, 1 << 16, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) {
        keys[i] = z[i].key;
        values[i] = z[i].value;
      }
    });
    return;
  }
#if HIPAMP_GPU_TRANSLATION_UNIT
  gpu::sort_pairs(av, keys, values, bitonic::make_layout(n, 1, n), less);
#else
  throw_gpu_sort_from_host_unit("sort_by_key");
#endif
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
