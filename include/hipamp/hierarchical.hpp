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
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/fallback/simple_executor.hpp>
#include <hipamp/tiled_extent.hpp>
#include <hipamp/tiled_parallel_for_each.hpp>

// The work-items of a phase are independent: the CPU loops over them use HIPAMP_SIMD_LOOP
// (config.hpp), an ivdep hint that applies after inlining. (`omp simd` was 2.3x slower here:
// OpenMP lowering runs before inlining and privatises the tile_item temporaries per lane.)

namespace hipamp {

// One work-item as a phase sees it.
template <int N>
struct tile_item {
  index<N> global;
  index<N> local;
};

template <int D0, int D1 = 0, int D2 = 0>
class tile_context {
  using shape = detail::tile_shape<D0, D1, D2>;

 public:
  static constexpr int rank = shape::rank;

  // `local` is the running work-item's on a GPU and unused on the CPU.
  HIPAMP_HOST_DEVICE tile_context(const index<rank>& tile, const index<rank>& origin,
                                  const index<rank>& local) noexcept
      : tile_(tile), origin_(origin), local_(local) {}

  HIPAMP_HOST_DEVICE const index<rank>& tile() const noexcept { return tile_; }
  HIPAMP_HOST_DEVICE const index<rank>& tile_origin() const noexcept { return origin_; }
  HIPAMP_HOST_DEVICE static constexpr extent<rank> get_tile_extent() noexcept {
    return shape::as_extent();
  }

  // Runs phase(item) for every work-item of the tile; returns once all have finished.
  template <class Phase>
  HIPAMP_HOST_DEVICE void for_each_item(const Phase& phase) const {
#if HIPAMP_DEVICE_COMPILE
    phase(tile_item<rank>{origin_ + local_, local_});
    __syncthreads();
#else
    if constexpr (rank == 1) {
      HIPAMP_SIMD_LOOP
      for (int i = 0; i < D0; ++i) phase(tile_item<1>{origin_ + index<1>(i), index<1>(i)});
    } else if constexpr (rank == 2) {
      for (int i = 0; i < D0; ++i) {
        HIPAMP_SIMD_LOOP
        for (int j = 0; j < D1; ++j) {
          phase(tile_item<2>{origin_ + index<2>(i, j), index<2>(i, j)});
        }
      }
    } else {
      for (int i = 0; i < D0; ++i) {
        for (int j = 0; j < D1; ++j) {
          HIPAMP_SIMD_LOOP
          for (int k = 0; k < D2; ++k) {
            phase(tile_item<3>{origin_ + index<3>(i, j, k), index<3>(i, j, k)});
          }
        }
      }
    }
#endif
  }

  // Runs f() once for the tile (by work-item 0 on a GPU); returns once it has finished.
  template <class F>
  HIPAMP_HOST_DEVICE void single(const F& f) const {
#if HIPAMP_DEVICE_COMPILE
    if (local_ == index<rank>()) f();
    __syncthreads();
#else
    f();
#endif
  }

 private:
  index<rank> tile_;
  index<rank> origin_;
  index<rank> local_;
};

namespace detail {

// The tile kernel as an ordinary tiled kernel, for GPUs: each work-item runs the body with
// its own local index, and for_each_item runs its phase for that work-item only.
template <int D0, int D1, int D2, class TileKernel>
struct hierarchical_kernel {
  TileKernel body;
  HIPAMP_HOST_DEVICE void operator()(const tiled_index<D0, D1, D2>& idx) const {
    body(tile_context<D0, D1, D2>(idx.tile, idx.tile_origin, idx.local));
  }
};

template <int D0, int D1, int D2, class TileKernel>
struct hierarchical_cpu_launch {
  using shape = tile_shape<D0, D1, D2>;
  static constexpr int rank = shape::rank;
  extent<rank> tiles;
  const TileKernel* kernel;
  bool check_bounds;

  // Inlined twice: with Checked == false the bounds flag is a known false in the loop.
  template <bool Checked>
  HIPAMP_ALWAYS_INLINE static void run_range(const hierarchical_cpu_launch& self,
                                             const TileKernel& body, std::size_t begin,
                                             std::size_t end) {
    const cpu_kernel_mode kernel_mode(Checked);
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
    const auto& self = *static_cast<const hierarchical_cpu_launch*>(context);
    // A per-thread bound copy in kernel mode, as in the simple executor (simple_executor.hpp).
    const TileKernel body = [&] {
      const bound_copy_guard guard;
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

inline namespace HIPAMP_ALGORITHMS_ABI {

template <int D0, int D1, int D2, class TileKernel>
void parallel_for_each_tile(const accelerator_view& av, const tiled_extent<D0, D1, D2>& domain,
                            const TileKernel& kernel) {
  static_assert(std::is_invocable<const TileKernel&, const tile_context<D0, D1, D2>&>::value,
                "hipamp: the kernel of parallel_for_each_tile must be callable with "
                "const hipamp::tile_context<D0, D1, D2>& (the tile sizes of its tiled_extent)");
  detail::check_tiled_compute_domain(domain);
  if (!av.runs_on_cpu()) {
    parallel_for_each(av, domain, detail::hierarchical_kernel<D0, D1, D2, TileKernel>{kernel});
    return;
  }
  using launch = detail::hierarchical_cpu_launch<D0, D1, D2, TileKernel>;
  detail::launch_scope scope(av.queue());
  const TileKernel bound = kernel;  // every captured array_view reports itself here
  scope.close();
  const fallback::cpu_launch_options options = fallback::cpu_options_of(av.queue());
  launch job{{}, &bound, options.check_bounds};
  for (int d = 0; d < launch::rank; ++d) job.tiles[d] = domain[d] / launch::shape::dims[d];
  fallback::parallel_chunks(detail::element_count(job.tiles), 1, &launch::run_tiles, &job,
                            options.serial);
  scope.complete(detail::ready_event());
}

template <int D0, int D1, int D2, class TileKernel>
void parallel_for_each_tile(const tiled_extent<D0, D1, D2>& domain, const TileKernel& kernel) {
  parallel_for_each_tile(detail::auto_selection_view(), domain, kernel);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
