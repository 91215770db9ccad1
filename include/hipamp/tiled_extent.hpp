// tiled_extent and tiled_index: a compute domain cut into fixed-size tiles
// (C++ AMP 1.2, sections 4.3 and 4.4). Tile sizes are template arguments so that kernels
// can size tile_static arrays from them.
#pragma once

#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>
#include <hipamp/tile_barrier.hpp>

namespace hipamp {
namespace detail {

template <int D0, int D1, int D2>
struct tile_shape {
  static constexpr int rank = D2 != 0 ? 3 : (D1 != 0 ? 2 : 1);
  static_assert(D0 > 0 && D1 >= 0 && D2 >= 0, "hipamp: tile dimensions must be positive");
  static_assert(!(D1 == 0 && D2 != 0), "hipamp: a 3-D tile needs all three dimensions");
  static constexpr int dims[3] = {D0, D1, D2};
  // dims[d] for code that also runs on a GPU: nvcc keeps static constexpr arrays host-only.
  HIPAMP_HOST_DEVICE static constexpr int dim(int d) noexcept {
    return d == 0 ? D0 : (d == 1 ? D1 : D2);  // NOLINT(bugprone-branch-clone): D1 may equal D2
  }
  static constexpr int size = D0 * (D1 ? D1 : 1) * (D2 ? D2 : 1);
  // C++ AMP tiles hold at most 1024 work-items. A larger tile may still be named and its
  // tiled_extent made (C++ AMP allows that); parallel_for_each over it does not compile
  // (detail::check_tiled_compute_domain).
  static constexpr int max_size = 1024;
  // The GPU kernel's __launch_bounds__: never more than a block can hold, so that a tile that
  // is too large still compiles (it is rejected before any launch).
  static constexpr int launch_size = size <= max_size ? size : max_size;
  HIPAMP_HOST_DEVICE static constexpr extent<rank> as_extent() noexcept {
    extent<rank> e;
    for (int d = 0; d < rank; ++d) e[d] = dim(d);
    return e;
  }
};

}  // namespace detail

template <int D0, int D1, int D2>
class tiled_extent : public extent<detail::tile_shape<D0, D1, D2>::rank> {
  using shape = detail::tile_shape<D0, D1, D2>;

 public:
  static constexpr int rank = shape::rank;
  static constexpr int tile_dim0 = D0;
  static constexpr int tile_dim1 = D1;
  static constexpr int tile_dim2 = D2;

  HIPAMP_HOST_DEVICE constexpr tiled_extent() noexcept = default;
  HIPAMP_HOST_DEVICE constexpr tiled_extent(const extent<rank>& e) noexcept  // NOLINT
      : extent<rank>(e) {}

  HIPAMP_HOST_DEVICE static constexpr extent<rank> get_tile_extent() noexcept {
    return shape::as_extent();
  }
  static constexpr extent<rank> tile_extent = shape::as_extent();

  // Rounds every dimension up to a whole number of tiles; kernels then test
  // original_extent.contains(idx.global) before touching data.
  HIPAMP_HOST_DEVICE constexpr tiled_extent pad() const noexcept {
    tiled_extent out = *this;
    // Through the remainder, not (e + tile - 1) / tile * tile: that overflows int for an
    // extent near INT_MAX even when the padded extent fits (the suite's pad tests do this).
    for (int d = 0; d < rank; ++d) {
      const int rest = out[d] % shape::dim(d);
      if (rest > 0) out[d] += shape::dim(d) - rest;
    }
    return out;
  }
  // Rounds every dimension down to a whole number of tiles.
  HIPAMP_HOST_DEVICE constexpr tiled_extent truncate() const noexcept {
    tiled_extent out = *this;
    for (int d = 0; d < rank; ++d) out[d] = (out[d] / shape::dim(d)) * shape::dim(d);
    return out;
  }

  HIPAMP_HOST_DEVICE friend constexpr bool operator==(const tiled_extent& a,
                                                      const tiled_extent& b) noexcept {
    return static_cast<const extent<rank>&>(a) == static_cast<const extent<rank>&>(b);
  }
  HIPAMP_HOST_DEVICE friend constexpr bool operator!=(const tiled_extent& a,
                                                      const tiled_extent& b) noexcept {
    return !(a == b);
  }
};

template <int N>
template <int D0>
tiled_extent<D0> extent<N>::tile() const {
  static_assert(N == 1, "hipamp: tile<D0>() needs a rank-1 extent");
  return tiled_extent<D0>(*this);
}
template <int N>
template <int D0, int D1>
tiled_extent<D0, D1> extent<N>::tile() const {
  static_assert(N == 2, "hipamp: tile<D0, D1>() needs a rank-2 extent");
  return tiled_extent<D0, D1>(*this);
}
template <int N>
template <int D0, int D1, int D2>
tiled_extent<D0, D1, D2> extent<N>::tile() const {
  static_assert(N == 3, "hipamp: tile<D0, D1, D2>() needs a rank-3 extent");
  return tiled_extent<D0, D1, D2>(*this);
}

// The identity of one work-item in a tiled launch.
template <int D0, int D1 = 0, int D2 = 0>
class tiled_index {
  using shape = detail::tile_shape<D0, D1, D2>;

 public:
  static constexpr int rank = shape::rank;
  static constexpr int tile_dim0 = D0;
  static constexpr int tile_dim1 = D1;
  static constexpr int tile_dim2 = D2;

  HIPAMP_HOST_DEVICE constexpr tiled_index(const index<rank>& global_index,
                                           const index<rank>& local_index,
                                           const index<rank>& tile_index, const index<rank>& origin,
                                           const tile_barrier& tile_barrier_) noexcept
      : global(global_index),
        local(local_index),
        tile(tile_index),
        tile_origin(origin),
        barrier(tile_barrier_) {}

  const index<rank> global;
  const index<rank> local;
  const index<rank> tile;
  const index<rank> tile_origin;
  const tile_barrier barrier;

  HIPAMP_HOST_DEVICE constexpr operator index<rank>() const noexcept { return global; }  // NOLINT
  HIPAMP_HOST_DEVICE static constexpr extent<rank> get_tile_extent() noexcept {
    return shape::as_extent();
  }
  static constexpr extent<rank> tile_extent = shape::as_extent();
};

}  // namespace hipamp
