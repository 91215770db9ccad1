// The CPU device's executor for the tiled model: tiles are cut into one contiguous range per
// thread; each thread runs its tiles one after another through the tile scheduler
// (tile_scheduler.hpp), whose work-items are fibers that switch at tile_barrier::wait.
#pragma once

#include <cstddef>

#include <hipamp/config.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/fallback/simple_executor.hpp>
#include <hipamp/fallback/tile_scheduler.hpp>
#include <hipamp/index.hpp>
#include <hipamp/tiled_extent.hpp>

namespace hipamp::fallback {
namespace detail {

// Runs a tiled launch on the CPU device: tiles are cut into one contiguous range per thread;
// each thread runs its tiles one after another through the tile scheduler.
template <int D0, int D1, int D2, class Kernel>
struct tiled_launch {
  using shape = hipamp::detail::tile_shape<D0, D1, D2>;
  static constexpr int rank = shape::rank;

  extent<rank> tiles;  // tile count per dimension
  const Kernel* kernel;
  bool check_bounds;
  bool robust;

  // What a work-item needs to find its tile; lives on the running thread's stack.
  struct tile_frame {
    const Kernel* kernel;
    index<rank> tile;
    index<rank> origin;
  };

  static index<rank> local_of(int linear) noexcept {
    index<rank> local;
    for (int d = rank - 1; d >= 0; --d) {
      local[d] = linear % shape::dims[d];  // compile-time divisors
      linear /= shape::dims[d];
    }
    return local;
  }

  // Stores the kernel mode (launch_scope.hpp) as constants first, so that without checks the
  // work-item's code up to its first barrier folds every check away.
  template <bool Checked>
  static void run_item(const void* context, int local_linear) {
    hipamp::detail::restate_kernel_mode<Checked>();
    const auto& frame = *static_cast<const tile_frame*>(context);
    const index<rank> local = local_of(local_linear);
    (*frame.kernel)(
        tiled_index<D0, D1, D2>(frame.origin + local, local, frame.tile, frame.origin, {}));
  }

  // Work-items 1..n-1 of a tile whose work-item 0 never waited, as plain loops with the
  // innermost tile dimension a SIMD loop. A barrier reached here throws barrier_divergence
  // (work-item 0 returned without it); ivdep lets the exception leave the loop.
  template <bool Checked>
  HIPAMP_ALWAYS_INLINE static void run_rest_directly(const Kernel& kernel,
                                                     const tile_frame& frame) {
    hipamp::detail::restate_kernel_mode<Checked>();  // constants again after the opaque call
    constexpr int inner = shape::dims[rank - 1];
    constexpr int outer = shape::size / inner;
    for (int o = 0; o < outer; ++o) {
      index<rank> local = local_of(o * inner);
      const int first = o == 0 ? 1 : 0;
      HIPAMP_SIMD_LOOP
      for (int j = first; j < inner; ++j) {
        index<rank> at = local;
        at[rank - 1] = j;
        kernel(tiled_index<D0, D1, D2>(frame.origin + at, at, frame.tile, frame.origin, {}));
      }
    }
  }

  template <bool Checked>
  HIPAMP_ALWAYS_INLINE static void run_tile_range(const tiled_launch& self, const Kernel& kernel,
                                                  std::size_t begin, std::size_t end) {
    const hipamp::detail::cpu_kernel_mode kernel_mode(Checked, Checked && self.robust);
    tile_session session;
    for (std::size_t t = begin; t < end; ++t) {
      tile_frame frame{&kernel, {}, {}};
      std::size_t rest = t;
      for (int d = rank - 1; d >= 0; --d) {
        frame.tile[d] = static_cast<int>(rest % static_cast<std::size_t>(self.tiles[d]));
        rest /= static_cast<std::size_t>(self.tiles[d]);
        frame.origin[d] = frame.tile[d] * shape::dims[d];
      }
      tile_job job{&run_item<Checked>, &frame, shape::size, rank, {0, 0, 0}, {1, 1, 1}};
      for (int d = 0; d < rank; ++d) {
        job.tile_index[d] = frame.tile[d];
        job.tile_extent[d] = shape::dims[d];
      }
      if (!session.run_first_item(job)) run_rest_directly<Checked>(kernel, frame);
    }
  }

  static void run_tiles(const void* context, std::size_t begin, std::size_t end) {
    const auto& self = *static_cast<const tiled_launch*>(context);
    // A per-thread bound copy in kernel mode, as in the simple executor (simple_executor.hpp).
    const Kernel kernel = [&] {
      const hipamp::detail::bound_copy_guard guard;
      return *self.kernel;
    }();
    if (self.check_bounds) {
      run_tile_range<true>(self, kernel, begin, end);
    } else {
      run_tile_range<false>(self, kernel, begin, end);
    }
  }
};

template <int D0, int D1, int D2, class Kernel>
void run_tiled(const tiled_extent<D0, D1, D2>& domain, const Kernel& kernel,
               const cpu_launch_options& options) {
  using launch = tiled_launch<D0, D1, D2, Kernel>;
  launch job{{}, &kernel, options.checked(), options.robust()};
  for (int d = 0; d < launch::rank; ++d) {
    job.tiles[d] = domain[d] / hipamp::detail::tile_shape<D0, D1, D2>::dims[d];
  }
  // Serial (the reference device): one thread runs the tiles in order, and within a tile the
  // scheduler runs the work-items in order, so every run is the same.
  parallel_chunks(hipamp::detail::element_count(job.tiles), 1, &launch::run_tiles, &job,
                  options.serial);
}

// With the default options (parallel, unchecked): the form tests/kernel_emulator's launch shim
// declares and calls.
template <int D0, int D1, int D2, class Kernel>
void run_tiled(const tiled_extent<D0, D1, D2>& domain, const Kernel& kernel) {
  run_tiled(domain, kernel, cpu_launch_options{});
}

}  // namespace detail

// The tiled model on the CPU device; the work is done when this returns.
template <int D0, int D1, int D2, class Kernel>
hipamp::detail::event_ptr launch_tiled(const device_target& on,
                                       const tiled_extent<D0, D1, D2>& domain,
                                       const Kernel& kernel) {
  detail::run_tiled(domain, kernel, on.options());
  return hipamp::detail::ready_event();
}

}  // namespace hipamp::fallback
