// The hierarchical tile API (parallel_for_each_tile) on a GPU: the tile kernel becomes an
// ordinary tiled kernel in which every work-item runs the body with its own local index, and
// tile_context::for_each_item runs each phase for that work-item only, then a block barrier.
// Include only from GPU translation units.
#pragma once

#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/backend/gpu/launch.hpp>
#include <hipamp/tile_context.hpp>
#include <hipamp/tiled_extent.hpp>

namespace hipamp::detail::gpu {

template <int D0, int D1, int D2, class TileKernel>
struct tile_group_kernel {
  TileKernel body;
  HIPAMP_HOST_DEVICE void operator()(const tiled_index<D0, D1, D2>& idx) const {
    body(tile_context<D0, D1, D2>(idx.tile, idx.tile_origin, idx.local));
  }
};

template <int D0, int D1, int D2, class TileKernel>
event_ptr launch_tile_groups(const device_target& on, const tiled_extent<D0, D1, D2>& domain,
                             const TileKernel& kernel) {
  return launch_tiled(on, domain, tile_group_kernel<D0, D1, D2, TileKernel>{kernel});
}

}  // namespace hipamp::detail::gpu
