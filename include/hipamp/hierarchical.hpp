// The hierarchical tile API (a hipamp extension beside C++ AMP's tiled model): the kernel is
// written once per tile, and its per-work-item work is a sequence of explicit phases with a
// barrier implied after each:
//
//   hipamp::parallel_for_each_tile(av, domain.tile<16, 16>(),
//       [=] HIPAMP_RESTRICT (const hipamp::tile_context<16, 16>& t) {
//         HIPAMP_TILE_STATIC float block[16][16];
//         t.for_each_item([&](const hipamp::tile_item<2>& it) {
//           block[it.local[0]][it.local[1]] = in[it.global];
//         });                                             // all of block is written here
//         t.for_each_item([&](const hipamp::tile_item<2>& it) {
//           out[it.global] = block[it.local[1]][it.local[0]];
//         });
//       });
//
// On the CPU device each phase is a plain loop over the tile's work-items (the innermost
// tile dimension a SIMD loop): no fibers, no switches. On a GPU the tile kernel becomes an
// ordinary tiled kernel in which every work-item runs every phase for itself with a block
// barrier after each, launched through the tiled parallel_for_each.
//
// Rules that make both readings agree (docs/tiled_vs_hierarchical.md):
//  - data shared between phases lives in HIPAMP_TILE_STATIC variables (per-work-item state
//    carried across phases: a tile_static array indexed by it.local);
//  - code between phases runs once per tile on the CPU and once per work-item on a GPU, so
//    it may only compute values every work-item agrees on (loop bounds, tile origins) and
//    must not write memory; use single() for work done once per tile;
//  - phases are called in the same order by the whole tile (tile-uniform control flow).
#pragma once

#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/fallback/tile_group_executor.hpp>
#include <hipamp/tile_context.hpp>
#include <hipamp/tiled_extent.hpp>
#include <hipamp/tiled_parallel_for_each.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/tile_groups.hpp>
#endif

namespace hipamp {

inline namespace HIPAMP_ALGORITHMS_ABI {

template <int D0, int D1, int D2, class TileKernel>
void parallel_for_each_tile(const accelerator_view& av, const tiled_extent<D0, D1, D2>& domain,
                            const TileKernel& kernel) {
  static_assert(std::is_invocable<const TileKernel&, const tile_context<D0, D1, D2>&>::value,
                "hipamp: the kernel of parallel_for_each_tile must be callable with "
                "const hipamp::tile_context<D0, D1, D2>& (the tile sizes of its tiled_extent)");
  detail::check_tiled_compute_domain(domain);
  detail::launch(
      av, "parallel_for_each_tile",
      [&](const auto& on, const TileKernel& bound) {
        return launch_tile_groups(on, domain, bound);
      },
      kernel);
}

template <int D0, int D1, int D2, class TileKernel>
void parallel_for_each_tile(const tiled_extent<D0, D1, D2>& domain, const TileKernel& kernel) {
  parallel_for_each_tile(detail::auto_selection_view(), domain, kernel);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
