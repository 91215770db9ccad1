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

void parallel_chunks(std::size_t total, std::size_t min_chunk, chunk_function fn,
                     const void* context, bool serial, std::size_t grain) {
  if (total == 0) return;
  if (serial) {
    fn(context, 0, total);
    return;
  }
  const std::size_t by_size = (total + min_chunk - 1) / min_chunk;
  const std::size_t chunks = std::max<std::size_t>(
      1, std::min<std::size_t>(by_size, static_cast<std::size_t>(thread_count())));
  if (chunks == 1) {
    fn(context, 0, total);
    return;
  }
  // Whole grains only while each range gets at least this many (imbalance <= 1/8 of a range);
  // otherwise element boundaries, as before.
  constexpr std::size_t min_grains_per_chunk = 8;
  if (grain == 0 || total / grain < chunks * min_grains_per_chunk) grain = 1;
  const std::size_t units = (total + grain - 1) / grain;
  std::exception_ptr first_error;
  std::mutex error_mutex;
#if HIPAMP_HAS_OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(static_cast <int>(chunks))
#endif
  for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(chunks); ++c) {
    const std::size_t begin = std::min(total, units * static_cast<std::size_t>(c) / chunks * grain);
    const std::size_t end =
        std::min(total, units * static_cast<std::size_t>(c + 1) / chunks * grain);
    try {
      fn(context, begin, end);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace hipamp::fallback
