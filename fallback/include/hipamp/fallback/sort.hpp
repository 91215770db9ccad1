// The CPU device's sort: a parallel merge sort written for CPUs, not the GPU network run
// through the emulator.
//
//  1. The input is cut into one chunk per thread; each thread sorts its chunk.
//     Primitive keys in the default order (sort_order.hpp) become unsigned integers
//     (ordered_bits) and go through libhipamp's SIMD kernels: cache-sized blocks sorted by a
//     vertical bitonic network over vector registers, then merged by a SIMD bitonic merge
//     (sort_cpu.cpp). Other types and comparators use std::sort / std::stable_sort.
//  2. The sorted chunks are merged pairwise in rounds; every round's output is split evenly
//     over all threads by merge-path partitioning, so each round uses every core.
// Merges take from the left run on ties, so the generic path is stable when asked to be.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include <hipamp/algorithm/sort/bitonic_network.hpp>
#include <hipamp/algorithm/sort/sort_kind.hpp>
#include <hipamp/fallback/simple_executor.hpp>
#include <hipamp/sort_order.hpp>

namespace hipamp::fallback {

// ---- compiled into libhipamp ------------------------------------------------------------------

// The instruction sets libhipamp's SIMD sort kernels are built for.
enum class simd_level { portable, baseline, avx2, avx512 };
const char* to_string(simd_level level) noexcept;
// Whether this CPU (and this build) can run the kernels of `level`.
bool simd_level_supported(simd_level level) noexcept;
// The fastest supported level; HIPAMP_CPU_SORT_SIMD=portable|baseline|avx2|avx512 caps it.
simd_level best_simd_level() noexcept;

// Sorts `rows` consecutive rows of `row_length` unsigned keys each, ascending. One row uses
// every thread of the CPU device; many rows are shared out among the threads.
void sort_unsigned(std::uint32_t* keys, std::size_t row_length, std::size_t rows);
void sort_unsigned(std::uint64_t* keys, std::size_t row_length, std::size_t rows);
// The same on a given instruction set (tests compare every level the CPU supports).
void sort_unsigned(std::uint32_t* keys, std::size_t row_length, std::size_t rows, simd_level level);
void sort_unsigned(std::uint64_t* keys, std::size_t row_length, std::size_t rows, simd_level level);

// ---- header-only parts --------------------------------------------------------------------

namespace detail {

// Calls f(begin, end) on disjoint ranges covering [0, total), one per thread at most.
template <class F>
void parallel_ranges(std::size_t total, std::size_t min_chunk, const F& f) {
  parallel_chunks(
      total, min_chunk,
      [](const void* context, std::size_t begin, std::size_t end) {
        (*static_cast<const F*>(context))(begin, end);
      },
      &f);
}

// Uninitialised storage for trivially copyable elements (they need no constructor).
template <class T>
class scratch {
  static_assert(std::is_trivially_copyable<T>::value, "hipamp: sort scratch holds plain data");

 public:
  explicit scratch(std::size_t n) : n_(n), p_(n ? std::allocator<T>().allocate(n) : nullptr) {}
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() {
    if (p_) std::allocator<T>().deallocate(p_, n_);
  }
  T* get() const noexcept { return p_; }

 private:
  std::size_t n_;
  T* p_;
};

// Merge path: how many of the first `diag` outputs of merging a and b come from a, with
// a's elements first on ties (the stable choice).
template <class T, class Less>
std::size_t merge_path(const T* a, std::size_t na, const T* b, std::size_t nb, std::size_t diag,
                       const Less& less) {
  std::size_t lo = diag > nb ? diag - nb : 0;
  std::size_t hi = std::min(diag, na);
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (!less(b[diag - 1 - mid], a[mid])) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Stable branch-free two-way merge; returns the end of the output.
template <class T, class Less>
T* merge_scalar(const T* a, const T* a_end, const T* b, const T* b_end, T* out, const Less& less) {
  while (a != a_end && b != b_end) {
    // Neither input can run out within `safe` steps, so the loop needs no bounds checks.
    std::size_t safe = std::min<std::size_t>(a_end - a, b_end - b);
    for (; safe != 0; --safe) {
      const bool take_b = less(*b, *a);
      *out++ = take_b ? *b : *a;
      b += take_b;
      a += !take_b;
    }
  }
  if (a != a_end) std::memcpy(static_cast<void*>(out), a, (a_end - a) * sizeof(T));
  out += a_end - a;
  if (b != b_end) std::memcpy(static_cast<void*>(out), b, (b_end - b) * sizeof(T));
  return out + (b_end - b);
}

// One round of the cross-chunk merge: runs [bounds[2p], bounds[2p+1]) and
// [bounds[2p+1], bounds[2p+2]) of `src` are merged into the same place in `dst` (an odd
// last run is copied). The round's output is split evenly over all threads with merge
// path. `merge(a, a_end, b, b_end, out)` is the two-way merge kernel.
template <class T, class Less, class Merge>
void merge_round(const T* src, T* dst, const std::vector<std::size_t>& bounds, const Less& less,
                 const Merge& merge) {
  const std::size_t runs = bounds.size() - 1;
  const std::size_t n = bounds.back();
  parallel_ranges(n, 1 << 14, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t p = 0; p < runs; p += 2) {
      const std::size_t first = bounds[p];
      const std::size_t mid = bounds[p + 1];
      const std::size_t last = p + 2 <= runs ? bounds[p + 2] : mid;
      if (last <= lo || first >= hi) continue;
      const std::size_t begin = std::max(lo, first) - first;
      const std::size_t end = std::min(hi, last) - first;
      const T* a = src + first;
      const T* b = src + mid;
      const std::size_t na = mid - first;
      const std::size_t nb = last - mid;
      const std::size_t a0 = merge_path(a, na, b, nb, begin, less);
      const std::size_t a1 = merge_path(a, na, b, nb, end, less);
      merge(a + a0, a + a1, b + (begin - a0), b + (end - a1), dst + first + begin);
    }
  });
}

// Sorts [data, data + n) with one sorted chunk per thread from `sort_chunk(first, count,
// out_is_scratch)` (which leaves the chunk in data or scratch as asked), then merge rounds.
template <class T, class Less, class SortChunk, class Merge>
void parallel_merge_sort(T* data, std::size_t n, const Less& less, std::size_t min_chunk,
                         const SortChunk& sort_chunk, const Merge& merge) {
  const std::size_t threads = static_cast<std::size_t>(std::max(1, thread_count()));
  const std::size_t chunks = std::max<std::size_t>(1, std::min(threads, n / min_chunk));
  if (chunks == 1) {
    scratch<T> buffer(n);
    sort_chunk(data, buffer.get(), n, false);
    return;
  }
  std::vector<std::size_t> bounds(chunks + 1);
  for (std::size_t c = 0; c <= chunks; ++c) bounds[c] = n * c / chunks;
  std::size_t rounds = 0;
  for (std::size_t r = chunks; r > 1; r = (r + 1) / 2) ++rounds;
  scratch<T> buffer(n);
  // Rounds alternate buffers; start where an even number of flips ends in `data`.
  const bool start_in_scratch = rounds % 2 == 1;
  parallel_ranges(chunks, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t c = first; c < last; ++c) {
      sort_chunk(data + bounds[c], buffer.get() + bounds[c], bounds[c + 1] - bounds[c],
                 start_in_scratch);
    }
  });
  T* src = start_in_scratch ? buffer.get() : data;
  T* dst = start_in_scratch ? data : buffer.get();
  while (bounds.size() > 2) {
    merge_round(src, dst, bounds, less, merge);
    std::vector<std::size_t> next;
    for (std::size_t p = 0; p < bounds.size() - 1; p += 2) next.push_back(bounds[p]);
    next.push_back(n);
    bounds.swap(next);
    std::swap(src, dst);
  }
}

// The generic CPU sort: std::sort (or std::stable_sort) per chunk, stable merges across.
template <class T, class Less>
void merge_sort(T* data, std::size_t n, const Less& less, bool stable) {
  const auto sort_chunk = [&](T* chunk, T* chunk_scratch, std::size_t count, bool out_in_scratch) {
    if (stable) {
      std::stable_sort(chunk, chunk + count, less);
    } else {
      std::sort(chunk, chunk + count, less);
    }
    if (out_in_scratch) std::memcpy(static_cast<void*>(chunk_scratch), chunk, count * sizeof(T));
  };
  const auto merge = [&](const T* a, const T* a_end, const T* b, const T* b_end, T* out) {
    merge_scalar(a, a_end, b, b_end, out, less);
  };
  if (thread_count() == 1 || n < 2 * (std::size_t(1) << 13)) {
    sort_chunk(data, nullptr, n, false);
    return;
  }
  parallel_merge_sort(data, n, less, 1 << 13, sort_chunk, merge);
}

// Maps primitive keys in place to (or back from) the unsigned integers the SIMD kernels
// sort: ordered_bits, complemented for descending order.
template <class T, bool Descending, bool Forward>
void transform_keys(T* data, std::size_t n) {
  using U = hipamp::detail::ordered_unsigned_t<T>;
  if (std::is_unsigned<T>::value && !Descending) return;
  parallel_ranges(n, 1 << 16, [data](std::size_t begin, std::size_t end) {
    HIPAMP_SIMD_LOOP
    for (std::size_t i = begin; i < end; ++i) {
      if constexpr (Forward) {
        U u = hipamp::detail::ordered_bits(data[i]);
        if (Descending) u = static_cast<U>(~u);
        std::memcpy(&data[i], &u, sizeof(U));
      } else {
        U u;
        std::memcpy(&u, &data[i], sizeof(U));
        if (Descending) u = static_cast<U>(~u);
        data[i] = hipamp::detail::from_ordered_bits<T>(u);
      }
    }
  });
}

template <class T, bool Descending>
void sort_primitive(T* data, std::size_t row_length, std::size_t rows) {
  using U = hipamp::detail::ordered_unsigned_t<T>;
  const std::size_t n = row_length * rows;
  transform_keys<T, Descending, true>(data, n);
  sort_unsigned(reinterpret_cast<U*>(data), row_length, rows);
  transform_keys<T, Descending, false>(data, n);
}

}  // namespace detail

// Sorts `rows` rows of `row_length` elements by `less`, row r starting at data + r * pitch;
// ties keep their order when `stable`. Primitive keys in the default order take the SIMD
// path. One row uses every thread; many rows are shared out among the threads.
template <class T, class Less>
void sort(T* data, std::size_t row_length, std::size_t rows, std::size_t pitch, const Less& less,
          bool stable) {
  if (row_length < 2 || rows == 0) return;
  if (rows > 1 && pitch != row_length) {
    // Rows with gaps between them: one row at a time per thread.
    detail::parallel_ranges(rows, 1, [&](std::size_t first, std::size_t last) {
      for (std::size_t r = first; r < last; ++r)
        sort(data + r * pitch, row_length, 1, row_length, less, stable);
    });
    return;
  }
  if constexpr (hipamp::detail::is_default_order_v<T, Less> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    // Equal keys are bit-identical in this order, so stability cannot be observed.
    (void)stable;
    detail::sort_primitive<T, std::is_same<Less, hipamp::descending>::value>(data, row_length,
                                                                             rows);
  } else if (rows == 1) {
    detail::merge_sort(data, row_length, less, stable);
  } else {
    detail::parallel_ranges(rows, 1, [&](std::size_t first, std::size_t last) {
      for (std::size_t r = first; r < last; ++r) {
        T* row = data + r * row_length;
        if (stable) {
          std::stable_sort(row, row + row_length, less);
        } else {
          std::sort(row, row + row_length, less);
        }
      }
    });
  }
}

// ---- the CPU device's side of the sort dispatch (algorithm/sort/dispatch.hpp) ----------------

// Sorts `rows` rows of `length` elements (row r at data + r * pitch) in host memory bound for
// the CPU device; done when this returns.
// (The network kind, hipamp::bitonic_sort, is a GPU schedule; here it is this sort.)
template <class T, class Less, hipamp::detail::sort_kind Kind>
hipamp::detail::event_ptr sort_rows(const device_target& /*on*/, T* data, unsigned length,
                                    unsigned rows, std::size_t pitch, const Less& less,
                                    hipamp::detail::sort_kind_t<Kind>) {
  sort(data, length, rows, pitch, less, Kind == hipamp::detail::sort_kind::stable);
  return hipamp::detail::ready_event();
}

// Sorts keys by `less`, carrying values along: a stable sort of zipped pairs.
template <class K, class V, class Less>
hipamp::detail::event_ptr sort_pairs(const device_target& /*on*/, K* keys, V* values, unsigned n,
                                     const Less& less) {
  if (n < 2) return hipamp::detail::ready_event();
  using pair = hipamp::detail::bitonic::key_value<K, V>;
  detail::scratch<pair> zipped(n);
  pair* z = zipped.get();
  detail::parallel_ranges(n, 1 << 16, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) z[i] = pair{keys[i], values[i]};
  });
  sort(z, n, 1, n, hipamp::detail::bitonic::by_key<Less>{less}, true);
  detail::parallel_ranges(n, 1 << 16, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      keys[i] = z[i].key;
      values[i] = z[i].value;
    }
  });
  return hipamp::detail::ready_event();
}

}  // namespace hipamp::fallback
