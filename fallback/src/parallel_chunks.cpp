#include <algorithm>
#include <exception>
#include <mutex>

#include <hipamp/fallback/simple_executor.hpp>

#if HIPAMP_HAS_OPENMP
#include <omp.h>
#endif

namespace hipamp::fallback {

int thread_count() noexcept {
#if HIPAMP_HAS_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

namespace {

// The one parallel region of the CPU device's thread split. Every value a thread needs to find
// its range and its work is a by-value scalar of the region (firstprivate): the region's data
// block, which the calling thread wrote just before the fork, is the only line of its frame a
// thread reads before `context`. A scalar the region names as shared would be read through a
// pointer into that frame: one more cache miss from another core, in series, before any work
// (issue 19: about 0.1 us per step and launch on 2 threads of the dev VM,
// scripts/probes/region_chain.cpp).
// Exactly one of `plain` and `shaped` is set.
void run_region(std::size_t total, std::size_t chunks, std::size_t grain, chunk_function plain,
                shaped_chunk_function shaped, const void* context, const chunk_shape& shape) {
  // Whole grains only while each range gets at least this many (imbalance <= 1/8 of a range);
  // otherwise element boundaries, as before.
  constexpr std::size_t min_grains_per_chunk = 8;
  if (grain == 0 || total / grain < chunks * min_grains_per_chunk) grain = 1;
  const std::size_t units = (total + grain - 1) / grain;
  const int s0 = shape.extent[0], s1 = shape.extent[1], s2 = shape.extent[2];
  const int flags = shape.flags;
  std::exception_ptr first_error;
  std::mutex error_mutex;
#if HIPAMP_HAS_OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(static_cast <int>(chunks)) \
    firstprivate(total, chunks, grain, units, plain, shaped, context, s0, s1, s2, flags)
#endif
  for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(chunks); ++c) {
    const std::size_t begin = std::min(total, units * static_cast<std::size_t>(c) / chunks * grain);
    const std::size_t end =
        std::min(total, units * static_cast<std::size_t>(c + 1) / chunks * grain);
    try {
      if (shaped != nullptr) {
        shaped(context, chunk_shape{{s0, s1, s2}, flags}, begin, end);
      } else {
        plain(context, begin, end);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
}

// Threads for `total` elements in ranges of at least min_chunk: 1 means "call it inline".
std::size_t chunk_count(std::size_t total, std::size_t min_chunk, bool serial) noexcept {
  if (serial) return 1;
  const std::size_t by_size = (total + min_chunk - 1) / min_chunk;
  return std::max<std::size_t>(
      1, std::min<std::size_t>(by_size, static_cast<std::size_t>(thread_count())));
}

}  // namespace

void parallel_chunks(std::size_t total, std::size_t min_chunk, chunk_function fn,
                     const void* context, bool serial, std::size_t grain) {
  if (total == 0) return;
  const std::size_t chunks = chunk_count(total, min_chunk, serial);
  if (chunks == 1) {
    fn(context, 0, total);
    return;
  }
  run_region(total, chunks, grain, fn, nullptr, context, chunk_shape{});
}

void parallel_shaped_chunks(std::size_t total, std::size_t min_chunk, shaped_chunk_function fn,
                            const void* context, const chunk_shape& shape, bool serial,
                            std::size_t grain) {
  if (total == 0) return;
  const std::size_t chunks = chunk_count(total, min_chunk, serial);
  if (chunks == 1) {
    fn(context, shape, 0, total);
    return;
  }
  run_region(total, chunks, grain, nullptr, fn, context, shape);
}

}  // namespace hipamp::fallback
