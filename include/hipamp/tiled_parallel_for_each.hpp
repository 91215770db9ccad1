// parallel_for_each over a tiled_extent (C++ AMP 1.2, section 3.2 and chapter 8): the kernel
// gets a tiled_index, may share HIPAMP_TILE_STATIC storage with the other work-items of its
// tile and synchronise with them through idx.barrier.
#pragma once

#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/tiled_executor.hpp>
#include <hipamp/parallel_for_each.hpp>
#include <hipamp/tiled_extent.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/launch.hpp>
#endif

namespace hipamp {

namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

template <int D0, int D1, int D2>
void check_tiled_compute_domain(const tiled_extent<D0, D1, D2>& domain) {
  constexpr int rank = tiled_extent<D0, D1, D2>::rank;
  check_compute_domain(static_cast<const extent<rank>&>(domain));
  const extent<rank> tile = tiled_extent<D0, D1, D2>::get_tile_extent();
  // C++ AMP 1.2 (4.3) rejects the launch at compile time (MSVC's C3574), as the suite expects;
  // naming the tiled_extent stays allowed.
  static_assert(tile_shape<D0, D1, D2>::size <= tile_shape<D0, D1, D2>::max_size,
                "hipamp: C++ AMP allows at most 1024 work-items in a tile (D0 * D1 * D2); "
                "parallel_for_each cannot run a larger tiled_extent");
  for (int d = 0; d < rank; ++d) {
    if (domain[d] % tile[d] != 0) {
      throw invalid_compute_domain(
          "hipamp: parallel_for_each over tiled extent " + to_string(domain) + " with tile " +
          to_string(tile) + ": dimension " + std::to_string(d) + " (" + std::to_string(domain[d]) +
          ") is not a multiple of the tile's " + std::to_string(tile[d]) +
          "; use pad() or truncate()");
    }
  }
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail

inline namespace HIPAMP_ALGORITHMS_ABI {

template <int D0, int D1, int D2, class Kernel>
void parallel_for_each(const accelerator_view& av, const tiled_extent<D0, D1, D2>& domain,
                       const Kernel& kernel) {
  if constexpr (detail::needs_own_copy<Kernel, tiled_index<D0, D1, D2>>) {
    // A mutable kernel: each work-item gets its own copy, as in C++ AMP (parallel_for_each.hpp).
    parallel_for_each(av, domain, detail::per_work_item_copy<Kernel>{kernel});
  } else {
    static_assert(std::is_invocable<const Kernel&, tiled_index<D0, D1, D2>>::value,
                  "hipamp: the kernel of a tiled parallel_for_each must be callable with "
                  "hipamp::tiled_index<D0, D1, D2> (the tile sizes of its tiled_extent)");
    detail::check_tiled_compute_domain(domain);
    detail::launch_kernel(
        av, "parallel_for_each",
        [&](const auto& on, const Kernel& bound) { return launch_tiled(on, domain, bound); },
        kernel);
  }
}

template <int D0, int D1, int D2, class Kernel>
void parallel_for_each(const tiled_extent<D0, D1, D2>& domain, const Kernel& kernel) {
  parallel_for_each(detail::auto_selection_view(), domain, kernel);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
