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
// CPU device's threads, and rethrows the first exception a range raised. `serial`: one call
// fn(context, 0, total) on the calling thread (the reference device). `grain`: range
// boundaries fall on multiples of it (a row of a 2-D domain, so that each thread walks whole
// rows as a hand-written `omp parallel for` over rows does) wherever every range still gets
// many grains; when there are too few, ranges of equal size win over whole grains.
void parallel_chunks(std::size_t total, std::size_t min_chunk, chunk_function fn,
                     const void* context, bool serial = false, std::size_t grain = 1);
// Threads the CPU device runs on (OMP_NUM_THREADS or the core count; 1 without OpenMP).
int thread_count() noexcept;

// How a queue runs CPU kernels: serially (the reference device) and with bounds checks; and
// whether the launching unit asked for Direct3D's robust access (HIPAMP_ROBUST_ACCESS).
struct cpu_launch_options {
  bool serial = false;
  bool check_bounds = false;
  bool robust_access = false;
  // The executors run their checked copy of the loop for either; a queue that checks bounds
  // wins, so the reference device still names a port's stray access instead of hiding it.
  bool checked() const noexcept { return check_bounds || robust_access; }
  bool robust() const noexcept { return robust_access && !check_bounds; }
};
inline cpu_launch_options cpu_options_of(const hipamp::detail::queue_impl& queue,
                                         bool robust_access = false) noexcept {
  return {queue.device().properties().serial_execution, queue.checks_bounds(), robust_access};
}

// The CPU device as the launch protocol (detail/launch.hpp) hands it to an entry point's body.
// Every CPU-device function an entry point calls takes it first — launch_simple(on, ...),
// launch_tiled(on, ...), sort_rows(on, ...), reduce(on, ...) — so argument-dependent lookup
// finds this room's implementation, and a GPU's device_target finds the GPU room's.
struct device_target {
  hipamp::detail::queue_impl& queue;
  // Set by on_device (detail/launch.hpp) in units compiled with HIPAMP_ROBUST_ACCESS.
  bool robust_access = false;
  cpu_launch_options options() const noexcept { return cpu_options_of(queue, robust_access); }
};

namespace detail {

template <int N, class Kernel>
struct simple_launch {
  extent<N> domain;
  const Kernel* kernel;
  bool check_bounds;
  bool robust;

  // The loop, inlined twice into run(): with Checked == false the compiler sees the bounds
  // flag stored false just before the loop and drops every check (launch_scope.hpp).
  template <bool Checked>
  HIPAMP_ALWAYS_INLINE static void run_range(const Kernel& kernel, const extent<N>& domain,
                                             std::size_t begin, std::size_t end, bool robust) {
    const int inner = domain[N - 1];
    index<N> idx;
    std::size_t rest = begin;
    for (int d = N - 1; d >= 0; --d) {
      idx[d] = static_cast<int>(rest % static_cast<std::size_t>(domain[d]));
      rest /= static_cast<std::size_t>(domain[d]);
    }
    const hipamp::detail::cpu_kernel_mode kernel_mode(Checked, Checked && robust);
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
        if (++idx[d] < domain[d]) break;
        idx[d] = 0;
      }
    }
  }

  // A per-thread copy whose views the compiler can see are bound (see bound_copy_guard):
  // their host-coherence checks fold away and the loop vectorizes.
  template <bool Checked>
  HIPAMP_ALWAYS_INLINE static void run_copy(const simple_launch& self, std::size_t begin,
                                            std::size_t end) {
    const Kernel kernel = [&] {
      const hipamp::detail::bound_copy_guard guard;
      return *self.kernel;
    }();
    run_range<Checked>(kernel, self.domain, begin, end, Checked && self.robust);
  }
  // The loop without checks, flattened: the kernel and every accessor it calls are inlined
  // whatever GCC's size heuristics think of them. The kernel's call operator has two call
  // sites (this loop and the checked one), so GCC weighs it by size; with the views' checked
  // branches still in it, a 2-D stencil kernel looked too big and was called per element
  // (0.05x the OpenMP loop, from da2e0d7 until issue 19's session 16). The checked loop keeps
  // the heuristics: it runs on the reference device and under robust access.
  HIPAMP_FLATTEN static void run_unchecked(const simple_launch& self, std::size_t begin,
                                           std::size_t end) {
    run_copy<false>(self, begin, end);
  }

  static void run(const void* context, std::size_t begin, std::size_t end) {
    const auto& self = *static_cast<const simple_launch*>(context);
    if (self.check_bounds) {
      run_copy<true>(self, begin, end);
    } else {
      run_unchecked(self, begin, end);
    }
  }
};

}  // namespace detail

template <int N, class Kernel>
void run_simple(const extent<N>& domain, const Kernel& kernel,
                const cpu_launch_options& options = {}) {
  const detail::simple_launch<N, Kernel> launch{domain, &kernel, options.checked(),
                                                options.robust()};
  // Threads split rank >= 2 domains at row starts (no row shared by two threads, so no partial
  // rows with their scalar remainders and no cache line written by two threads at a seam) and
  // rank-1 domains at multiples of 16 elements (a 64-byte line of 4-byte elements).
  const std::size_t grain = N >= 2 ? static_cast<std::size_t>(domain[N - 1]) : 16;
  parallel_chunks(hipamp::detail::element_count(domain), 4096,
                  &detail::simple_launch<N, Kernel>::run, &launch, options.serial, grain);
}

// The simple model on the CPU device; the work is done when this returns. Over host memory
// (the CPU and reference devices) the launch scope records nothing at completion
// (launch_scope::complete), so no event is made: the shared ready event's two atomic
// operations per launch were part of issue 19's gap on 16 threads. The emulated discrete
// device notes its views' uses with the ready event.
template <int N, class Kernel>
hipamp::detail::event_ptr launch_simple(const device_target& on, const extent<N>& domain,
                                        const Kernel& kernel) {
  run_simple(domain, kernel, on.options());
  if (on.queue.device().aliases_host_memory()) return nullptr;
  return hipamp::detail::ready_event();
}

}  // namespace hipamp::fallback
