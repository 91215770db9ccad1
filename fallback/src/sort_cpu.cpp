// The CPU device's sort for unsigned keys (every primitive key in the default order arrives
// here as ordered_bits): SIMD block sorts and merges per instruction set, chosen at run
// time, inside the parallel merge sort of fallback/sort.hpp.
#include <hipamp/fallback/sort.hpp>

#include <hipamp/exceptions.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>

namespace hipamp::fallback {
namespace {

using detail::merge_scalar;

}  // namespace

#if defined(__GNUC__) || defined(__clang__)
#define HIPAMP_SORT_HAS_SIMD 1

namespace simd_baseline {
namespace {
#define HIPAMP_SORT_VECTOR_BYTES 16
#include "sort_simd.inc"
#undef HIPAMP_SORT_VECTOR_BYTES
}  // namespace
}  // namespace simd_baseline

#if defined(__x86_64__)
#define HIPAMP_SORT_HAS_X86 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
namespace simd_avx2 {
namespace {
#define HIPAMP_SORT_VECTOR_BYTES 32
#include "sort_simd.inc"
#undef HIPAMP_SORT_VECTOR_BYTES
}  // namespace
}  // namespace simd_avx2
#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif
namespace simd_avx512 {
namespace {
#define HIPAMP_SORT_VECTOR_BYTES 64
#include "sort_simd.inc"
#undef HIPAMP_SORT_VECTOR_BYTES
}  // namespace
}  // namespace simd_avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif  // __x86_64__
#endif  // GNU vector extensions

namespace {

template <class K>
struct kernel_set {
  std::size_t block;  // keys per block sort: 32 KiB, an L1 cache's worth
  void (*block_sort)(const K* in, std::size_t count, K* out, K* work, std::size_t block);
  K* (*merge)(const K* a, const K* a_end, const K* b, const K* b_end, K* out);
};

template <class K>
void portable_block_sort(const K* in, std::size_t count, K* out, K*, std::size_t) {
  if (out != in) std::memcpy(out, in, count * sizeof(K));
  std::sort(out, out + count);
}
template <class K>
K* portable_merge(const K* a, const K* a_end, const K* b, const K* b_end, K* out) {
  return merge_scalar(a, a_end, b, b_end, out, std::less<K>());
}

template <class K>
kernel_set<K> kernels_for(simd_level level) {
  constexpr std::size_t block = 32768 / sizeof(K);
  switch (level) {
#if HIPAMP_SORT_HAS_X86
    case simd_level::avx512:
      return {block, &simd_avx512::simd<K>::block_sort, &simd_avx512::simd<K>::merge};
    case simd_level::avx2:
      return {block, &simd_avx2::simd<K>::block_sort, &simd_avx2::simd<K>::merge};
#endif
#if HIPAMP_SORT_HAS_SIMD
    case simd_level::baseline:
      return {block, &simd_baseline::simd<K>::block_sort, &simd_baseline::simd<K>::merge};
#endif
    default:
      return {block, &portable_block_sort<K>, &portable_merge<K>};
  }
}

// Sorts one chunk sequentially: blocks, then merge levels ping-ponging between data and
// scratch, arranged so that the result ends where the caller wants it.
template <class K>
void sort_chunk(const kernel_set<K>& ks, K* data, K* scratch, std::size_t count,
                bool out_in_scratch) {
  K* const want = out_in_scratch ? scratch : data;
  if (count <= 1) {
    if (out_in_scratch && count == 1) *scratch = *data;
    return;
  }
  const std::size_t block = ks.block;
  const std::size_t blocks = (count + block - 1) / block;
  int levels = 0;
  for (std::size_t runs = 1; runs < blocks; runs *= 2) ++levels;
  K* src = levels % 2 == 0 ? want : (want == data ? scratch : data);
  K* dst = src == data ? scratch : data;
  detail::scratch<K> work(2 * block);
  for (std::size_t first = 0; first < count; first += block) {
    ks.block_sort(data + first, std::min(block, count - first), src + first, work.get(), block);
  }
  for (std::size_t run = block; run < count; run *= 2) {
    for (std::size_t first = 0; first < count; first += 2 * run) {
      const std::size_t mid = std::min(count, first + run);
      const std::size_t last = std::min(count, first + 2 * run);
      ks.merge(src + first, src + mid, src + mid, src + last, dst + first);
    }
    std::swap(src, dst);
  }
}

template <class K>
void sort_unsigned_with(K* keys, std::size_t row_length, std::size_t rows, simd_level level) {
  if (row_length < 2 || rows == 0) return;
  if (!simd_level_supported(level)) {
    throw unsupported_feature(std::string("hipamp: this CPU cannot run the ") + to_string(level) +
                              " sort kernels");
  }
  const kernel_set<K> ks = kernels_for<K>(level);
  if (rows == 1) {
    detail::parallel_merge_sort(
        keys, row_length, std::less<K>(), std::max<std::size_t>(ks.block, 1 << 15),
        [&](K* chunk, K* chunk_scratch, std::size_t count, bool out_in_scratch) {
          sort_chunk(ks, chunk, chunk_scratch, count, out_in_scratch);
        },
        ks.merge);
    return;
  }
  detail::parallel_ranges(rows, 1, [&](std::size_t first, std::size_t last) {
    detail::scratch<K> row_scratch(row_length);
    for (std::size_t r = first; r < last; ++r) {
      sort_chunk(ks, keys + r * row_length, row_scratch.get(), row_length, false);
    }
  });
}

simd_level detect_simd_level() noexcept {
  simd_level best = simd_level::portable;
#if HIPAMP_SORT_HAS_SIMD
  best = simd_level::baseline;
#endif
#if HIPAMP_SORT_HAS_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) best = simd_level::avx2;
  if (__builtin_cpu_supports("avx512f")) best = simd_level::avx512;
#endif
  return best;
}

}  // namespace

const char* to_string(simd_level level) noexcept {
  switch (level) {
    case simd_level::portable:
      return "portable";
    case simd_level::baseline:
      return "baseline";
    case simd_level::avx2:
      return "avx2";
    case simd_level::avx512:
      return "avx512";
  }
  return "unknown";
}

bool simd_level_supported(simd_level level) noexcept {
  static const simd_level detected = detect_simd_level();
  return static_cast<int>(level) <= static_cast<int>(detected);
}

simd_level best_simd_level() noexcept {
  static const simd_level chosen = [] {
    simd_level best = detect_simd_level();
    if (const char* cap = std::getenv("HIPAMP_CPU_SORT_SIMD")) {
      for (simd_level l :
           {simd_level::portable, simd_level::baseline, simd_level::avx2, simd_level::avx512}) {
        if (std::strcmp(cap, to_string(l)) == 0 && static_cast<int>(l) < static_cast<int>(best)) {
          best = l;
        }
      }
    }
    return best;
  }();
  return chosen;
}

void sort_unsigned(std::uint32_t* keys, std::size_t row_length, std::size_t rows) {
  sort_unsigned_with(keys, row_length, rows, best_simd_level());
}
void sort_unsigned(std::uint64_t* keys, std::size_t row_length, std::size_t rows) {
  sort_unsigned_with(keys, row_length, rows, best_simd_level());
}
void sort_unsigned(std::uint32_t* keys, std::size_t row_length, std::size_t rows,
                   simd_level level) {
  sort_unsigned_with(keys, row_length, rows, level);
}
void sort_unsigned(std::uint64_t* keys, std::size_t row_length, std::size_t rows,
                   simd_level level) {
  sort_unsigned_with(keys, row_length, rows, level);
}

}  // namespace hipamp::fallback
