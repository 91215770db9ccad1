// tile_context and tile_item: what the kernel of the hierarchical tile API
// (parallel_for_each_tile, hierarchical.hpp) sees of its tile. for_each_item runs one phase
// for every work-item: a plain loop over the tile on the CPU device (the innermost tile
// dimension a SIMD loop), the running work-item's share and a block barrier on a GPU.
// A phase takes a tile_item, or a tiled_index as a C++ AMP tiled kernel does (its barrier
// member must not be waited on inside a phase: the phase's end is the barrier). tile_private
// holds what a work-item keeps from one phase to the next.
#pragma once

#include <type_traits>

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

namespace detail {
// The position of a work-item in its tile, row-major.
template <int D0, int D1, int D2>
HIPAMP_HOST_DEVICE constexpr int flat_local(
    const index<tile_shape<D0, D1, D2>::rank>& local) noexcept {
  if constexpr (tile_shape<D0, D1, D2>::rank == 1) {
    return local[0];
  } else if constexpr (tile_shape<D0, D1, D2>::rank == 2) {
    return local[0] * D1 + local[1];
  } else {
    return (local[0] * D1 + local[1]) * D2 + local[2];
  }
}
}  // namespace detail

// A value of type T for each work-item of a tile, kept across the phases of a tile kernel:
// what a C++ AMP tiled kernel holds in a local variable from before a barrier to after it.
// Declare it in the tile kernel with HIPAMP_TILE_PRIVATE and index it with the phase's
// tiled_index:
//
//   HIPAMP_TILE_PRIVATE hipamp::tile_private<float, 16, 16> sum;
//   t.for_each_item([&](hipamp::tiled_index<16, 16> idx) { sum[idx] = 0.0f; });
//   t.for_each_item([&](hipamp::tiled_index<16, 16> idx) { out[idx] = sum[idx]; });
//
// On a GPU each work-item runs the tile kernel, so the value is its own local (a register);
// on the CPU device one thread runs the whole tile, and the storage holds one value per
// work-item (HIPAMP_TILE_PRIVATE makes it one per thread, like tile_static). Like a local
// declared without an initializer, it starts out unspecified in each tile.
template <class T, int D0, int D1 = 0, int D2 = 0>
class tile_private {
  using shape = detail::tile_shape<D0, D1, D2>;

 public:
  HIPAMP_HOST_DEVICE T& operator[](const tiled_index<D0, D1, D2>& idx) noexcept {
#if HIPAMP_DEVICE_COMPILE
    (void)idx;
    return value_;
#else
    return values_[detail::flat_local<D0, D1, D2>(idx.local)];
#endif
  }
  HIPAMP_HOST_DEVICE const T& operator[](const tiled_index<D0, D1, D2>& idx) const noexcept {
    return const_cast<tile_private&>(*this)[idx];  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  }

 private:
#if HIPAMP_DEVICE_COMPILE
  T value_;
#else
  T values_[shape::size];
#endif
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

  // Runs phase(item) for every work-item of the tile; returns once all have finished. The
  // phase takes a tile_item<rank> or a tiled_index<D0, D1, D2>.
  template <class Phase>
  HIPAMP_HOST_DEVICE void for_each_item(const Phase& phase) const {
    static_assert(std::is_invocable<const Phase&, const tile_item<rank>&>::value ||
                      std::is_invocable<const Phase&, const tiled_index<D0, D1, D2>&>::value,
                  "hipamp: a phase of for_each_item must be callable with "
                  "hipamp::tile_item<rank> or hipamp::tiled_index<D0, D1, D2> (the tile's sizes)");
#if HIPAMP_DEVICE_COMPILE
    run_item(phase, local_);
    __syncthreads();
#else
    if constexpr (rank == 1) {
      HIPAMP_SIMD_LOOP
      for (int i = 0; i < D0; ++i) run_item(phase, index<1>(i));
    } else if constexpr (rank == 2) {
      for (int i = 0; i < D0; ++i) {
        HIPAMP_SIMD_LOOP
        for (int j = 0; j < D1; ++j) run_item(phase, index<2>(i, j));
      }
    } else {
      for (int i = 0; i < D0; ++i) {
        for (int j = 0; j < D1; ++j) {
          HIPAMP_SIMD_LOOP
          for (int k = 0; k < D2; ++k) run_item(phase, index<3>(i, j, k));
        }
      }
    }
#endif
  }

  // Runs phase for the work-items of a rank-1 tile whose local index is below `count` (the
  // others do nothing in this phase): a tree reduction's `if (local < stride)` step, which on
  // the CPU device is then a loop over `count` work-items rather than over the tile.
  template <class Phase>
  HIPAMP_HOST_DEVICE void for_each_item_below(int count, const Phase& phase) const {
    static_assert(rank == 1, "hipamp: for_each_item_below takes a rank-1 tile");
#if HIPAMP_DEVICE_COMPILE
    if (local_[0] < count) run_item(phase, local_);
    __syncthreads();
#else
    const int end = count < D0 ? count : D0;
    HIPAMP_SIMD_LOOP
    for (int i = 0; i < end; ++i) run_item(phase, index<1>(i));
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
  template <class Phase>
  HIPAMP_HOST_DEVICE void run_item(const Phase& phase, const index<rank>& local) const {
    if constexpr (std::is_invocable<const Phase&, const tile_item<rank>&>::value) {
      phase(tile_item<rank>{origin_ + local, local});
    } else {
      phase(tiled_index<D0, D1, D2>(origin_ + local, local, tile_, origin_, tile_barrier()));
    }
  }

  index<rank> tile_;
  index<rank> origin_;
  index<rank> local_;
};

}  // namespace hipamp
