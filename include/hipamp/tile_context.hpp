// tile_context and tile_item: what the kernel of the hierarchical tile API
// (parallel_for_each_tile, hierarchical.hpp) sees of its tile. for_each_item runs one phase
// for every work-item: a plain loop over the tile on the CPU device (the innermost tile
// dimension a SIMD loop), the running work-item's share and a block barrier on a GPU.
#pragma once

#include <hipamp/config.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>
#include <hipamp/tiled_extent.hpp>

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

}  // namespace hipamp
