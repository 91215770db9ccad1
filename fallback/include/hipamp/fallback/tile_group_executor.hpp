// The CPU device's executor for the hierarchical tile API (parallel_for_each_tile): each
// thread runs a contiguous range of tiles, calling the tile kernel once per tile; its phases
// (tile_context::for_each_item) are plain loops over the tile's work-items, so no fibers and
// no switches are involved.
#pragma once

#include <cstddef>

#include <hipamp/config.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/fallback/simple_executor.hpp>
#include <hipamp/index.hpp>
#include <hipamp/tile_context.hpp>
#include <hipamp/tiled_extent.hpp>

namespace hipamp::fallback {
namespace detail {

template <int D0, int D1, int D2, class TileKernel>
struct tile_group_launch {
  using shape = hipamp::detail::tile_shape<D0, D1, D2>;
  static constexpr int rank = shape::rank;
  extent<rank> tiles;
  const TileKernel* kernel;
  bool check_bounds;
  bool robust;

  // Inlined twice: with Checked == false the bounds flag is a known false in the loop.
  template <bool Checked>
  HIPAMP_ALWAYS_INLINE static void run_range(const tile_group_launch& self, const TileKernel& body,
                                             std::size_t begin, std::size_t end) {
    const hipamp::detail::cpu_kernel_mode kernel_mode(Checked, Checked && self.robust);
    for (std::size_t t = begin; t < end; ++t) {
      index<rank> tile;
      index<rank> origin;
      std::size_t rest = t;
      for (int d = rank - 1; d >= 0; --d) {
        tile[d] = static_cast<int>(rest % static_cast<std::size_t>(self.tiles[d]));
        rest /= static_cast<std::size_t>(self.tiles[d]);
        origin[d] = tile[d] * shape::dims[d];
      }
      body(tile_context<D0, D1, D2>(tile, origin, index<rank>()));
    }
  }

  static void run_tiles(const void* context, std::size_t begin, std::size_t end) {
    const auto& self = *static_cast<const tile_group_launch*>(context);
    // A per-thread bound copy in kernel mode, as in the simple executor (simple_executor.hpp).
    const TileKernel body = [&] {
      const hipamp::detail::bound_copy_guard guard;
      return *self.kernel;
    }();
    if (self.check_bounds) {
      run_range<true>(self, body, begin, end);
    } else {
      run_range<false>(self, body, begin, end);
    }
  }
};

}  // namespace detail

// The hierarchical tile API on the CPU device; the work is done when this returns.
template <int D0, int D1, int D2, class TileKernel>
hipamp::detail::event_ptr launch_tile_groups(const device_target& on,
                                             const tiled_extent<D0, D1, D2>& domain,
                                             const TileKernel& kernel) {
  using launch = detail::tile_group_launch<D0, D1, D2, TileKernel>;
  const cpu_launch_options options = on.options();
  launch job{{}, &kernel, options.checked(), options.robust()};
  for (int d = 0; d < launch::rank; ++d) job.tiles[d] = domain[d] / launch::shape::dims[d];
  parallel_chunks(hipamp::detail::element_count(job.tiles), 1, &launch::run_tiles, &job,
                  options.serial);
  return hipamp::detail::ready_event();
}

}  // namespace hipamp::fallback
