// The CPU device's executor for the simple model: the compute domain is flattened and cut
// into one contiguous range per thread (OpenMP, in libhipamp); each thread walks its range
// row by row with the innermost dimension as a SIMD loop.
#pragma once

#include <algorithm>
#include <cstddef>

#include <hipamp/config.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>

namespace hipamp::fallback {

using chunk_function = void (*)(const void* context, std::size_t begin, std::size_t end);

// Calls fn(context, begin, end) on disjoint ranges covering [0, total), in parallel on the
// CPU device's threads, and rethrows the first exception a range raised.
void parallel_chunks(std::size_t total, std::size_t min_chunk, chunk_function fn,
                     const void* context);
// Threads the CPU device runs on (OMP_NUM_THREADS or the core count; 1 without OpenMP).
int thread_count() noexcept;

namespace detail {

template <int N, class Kernel>
struct simple_launch {
  extent<N> domain;
  const Kernel* kernel;

  static void run(const void* context, std::size_t begin, std::size_t end) {
    const auto& self = *static_cast<const simple_launch*>(context);
    // A per-thread copy whose views the compiler can see are bound (see bound_copy_guard):
    // their host-coherence checks fold away and the loop vectorizes.
    const Kernel kernel = [&] {
      const hipamp::detail::bound_copy_guard guard;
      return *self.kernel;
    }();
    const int inner = self.domain[N - 1];
    index<N> idx;
    std::size_t rest = begin;
    for (int d = N - 1; d >= 0; --d) {
      idx[d] = static_cast<int>(rest % static_cast<std::size_t>(self.domain[d]));
      rest /= static_cast<std::size_t>(self.domain[d]);
    }
    const hipamp::detail::cpu_kernel_mode kernel_mode;
    std::size_t linear = begin;
    while (linear < end) {
      const int first = idx[N - 1];
      const int count = static_cast<int>(
          std::min<std::size_t>(end - linear, static_cast<std::size_t>(inner - first)));
      HIPAMP_SIMD_LOOP
      for (int j = 0; j < count; ++j) {
        index<N> at = idx;
        at[N - 1] = first + j;
        kernel(at);
      }
      linear += static_cast<std::size_t>(count);
      idx[N - 1] = 0;
      for (int d = N - 2; d >= 0; --d) {
        if (++idx[d] < self.domain[d]) break;
        idx[d] = 0;
      }
    }
  }
};

}  // namespace detail

template <int N, class Kernel>
void run_simple(const extent<N>& domain, const Kernel& kernel) {
  const detail::simple_launch<N, Kernel> launch{domain, &kernel};
  parallel_chunks(hipamp::detail::element_count(domain), 4096,
                  &detail::simple_launch<N, Kernel>::run, &launch);
}

}  // namespace hipamp::fallback
