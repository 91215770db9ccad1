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

// A domain of rank 1 to 3 and a few flags, handed by value to every thread of a launch, so
// that a launch's context can be the kernel object itself (run_simple): a thread then reads
// the region's own data and the kernel, and no launch record in between.
struct chunk_shape {
  int extent[3] = {0, 0, 0};
  int flags = 0;
};
using shaped_chunk_function = void (*)(const void* context, chunk_shape shape, std::size_t begin,
                                       std::size_t end);

// Calls fn(context, begin, end) on disjoint ranges covering [0, total), in parallel on the
// CPU device's threads, and rethrows the first exception a range raised. `serial`: one call
// fn(context, 0, total) on the calling thread (the reference device). `grain`: range
// boundaries fall on multiples of it (a row of a 2-D domain, so that each thread walks whole
// rows as a hand-written `omp parallel for` over rows does) wherever every range still gets
// many grains; when there are too few, ranges of equal size win over whole grains.
void parallel_chunks(std::size_t total, std::size_t min_chunk, chunk_function fn,
                     const void* context, bool serial = false, std::size_t grain = 1);
// parallel_chunks for a shaped function: fn(context, shape, begin, end), the same ranges.
void parallel_shaped_chunks(std::size_t total, std::size_t min_chunk, shaped_chunk_function fn,
                            const void* context, const chunk_shape& shape, bool serial = false,
                            std::size_t grain = 1);
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
  HIPAMP_ALWAYS_INLINE static void run_copy(const Kernel& source, const extent<N>& domain,
                                            std::size_t begin, std::size_t end, bool robust) {
    const Kernel kernel = [&] {
      const hipamp::detail::bound_copy_guard guard;
      return source;
    }();
    run_range<Checked>(kernel, domain, begin, end, Checked && robust);
  }
  // The loop without checks, flattened: the kernel and every accessor it calls are inlined
  // whatever GCC's size heuristics think of them. The kernel's call operator has two call
  // sites (this loop and the checked one), so GCC weighs it by size; with the views' checked
  // branches still in it, a 2-D stencil kernel looked too big and was called per element
  // (0.05x the OpenMP loop, from da2e0d7 until issue 19's session 16). The checked loop keeps
  // the heuristics: it runs on the reference device and under robust access.
  HIPAMP_FLATTEN static void run_unchecked(const Kernel& source, const extent<N>& domain,
                                           std::size_t begin, std::size_t end) {
    run_copy<false>(source, domain, begin, end, false);
  }

  // Rank above 3: the context is this record.
  static void run(const void* context, std::size_t begin, std::size_t end) {
    const auto& self = *static_cast<const simple_launch*>(context);
    if (self.check_bounds) {
      run_copy<true>(*self.kernel, self.domain, begin, end, self.robust);
    } else {
      run_unchecked(*self.kernel, self.domain, begin, end);
    }
  }

  // Ranks 1 to 3: the context is the kernel, the domain and the flags come by value
  // (chunk_shape), so a thread's first reads are the region's data and then the kernel.
  static constexpr bool flat = N <= 3;
  static constexpr int checked_flag = 1;
  static constexpr int robust_flag = 2;
  static chunk_shape shape_of(const extent<N>& domain, bool checked, bool robust) noexcept {
    chunk_shape shape;
    for (int d = 0; d < N && d < 3; ++d) shape.extent[d] = domain[d];
    shape.flags = (checked ? checked_flag : 0) | (robust ? robust_flag : 0);
    return shape;
  }
  static void run_flat(const void* context, chunk_shape shape, std::size_t begin, std::size_t end) {
    const Kernel& source = *static_cast<const Kernel*>(context);
    extent<N> domain;
    for (int d = 0; d < N; ++d) domain[d] = shape.extent[d];
    if ((shape.flags & checked_flag) != 0) {
      run_copy<true>(source, domain, begin, end, (shape.flags & robust_flag) != 0);
    } else {
      run_unchecked(source, domain, begin, end);
    }
  }
};

}  // namespace detail

template <int N, class Kernel>
void run_simple(const extent<N>& domain, const Kernel& kernel,
                const cpu_launch_options& options = {}) {
  using launch_type = detail::simple_launch<N, Kernel>;
  // Threads split rank >= 2 domains at row starts (no row shared by two threads, so no partial
  // rows with their scalar remainders and no cache line written by two threads at a seam) and
  // rank-1 domains at multiples of 16 elements (a 64-byte line of 4-byte elements).
  const std::size_t grain = N >= 2 ? static_cast<std::size_t>(domain[N - 1]) : 16;
  const std::size_t total = hipamp::detail::element_count(domain);
  if constexpr (launch_type::flat) {
    parallel_shaped_chunks(total, 4096, &launch_type::run_flat, &kernel,
                           launch_type::shape_of(domain, options.checked(), options.robust()),
                           options.serial, grain);
  } else {
    const launch_type launch{domain, &kernel, options.checked(), options.robust()};
    parallel_chunks(total, 4096, &launch_type::run, &launch, options.serial, grain);
  }
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
