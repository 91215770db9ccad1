// Kernel launches on a GPU accelerator_view: the simple model (any rank) and the tiled model.
// The GPU room's launch_simple / launch_tiled, which the launch protocol (detail/launch.hpp)
// calls in GPU translation units only.
//
// Both models flatten their index space to one grid dimension and rebuild the N-dimensional
// index with fast_divmod (a multiply-high per dimension), so no grid-dimension limit (65535
// in y and z) ever constrains an extent. One launch covers fewer than 2^31 points (tiles in the
// tiled model), which keeps the in-kernel math in 32 bits; larger domains become several
// launches over boxes of the domain, queued back to back on the same stream.
//
// Launches return a null event_ptr: recording a device event costs as much as the launch
// itself, so the caller's launch_scope records one only if the kernel captured views.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/backend/gpu/launch_geometry.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>
#include <hipamp/tile_barrier.hpp>
#include <hipamp/tiled_extent.hpp>

namespace hipamp::detail::gpu {

inline constexpr unsigned simple_block_threads = 256;

// Direct3D's rules for a tile's groupshared memory (tile_static): an access outside an array
// gives an undefined value, or lands in another of the tile's arrays, but never faults. A GPU
// faults on an access past the end of the block's shared memory, so in units compiled with
// HIPAMP_ROBUST_ACCESS (config.hpp) tiled launches add this much dynamic shared memory after
// the kernel's tile_static arrays: an access a little past the last one (a tree scan that reads
// element [2 * tile] of a 2 * tile array: seen in a public C++ AMP sample) lands there. Capped
// so that static + pad stays within the 48 KiB every launch may have without opting in.
inline constexpr std::size_t robust_tile_static_pad_bytes = 1024;
inline constexpr std::size_t default_shared_limit_bytes = 48 * 1024;
inline unsigned robust_tile_static_pad(const void* kernel) noexcept {
  std::size_t static_bytes = 0;
  if (vendor::kernel_static_shared_bytes(kernel, &static_bytes) != success) {
    (void)last_error();  // no pad then; the launch reports its own errors
    return 0;
  }
  const std::size_t room =
      static_bytes < default_shared_limit_bytes ? default_shared_limit_bytes - static_bytes : 0;
  return static_cast<unsigned>(std::min(robust_tile_static_pad_bytes, room));
}

// Launches entry<<<blocks, threads, shared_bytes, stream>>>(args...) with each parameter passed
// by address. <<< >>> passes its arguments by value: the host copies each one before the runtime
// copies its bytes into the kernel's parameter buffer, and for a kernel object that copy is not
// free: nvcc's host-side wrapper of an extended lambda (__nv_hdl_wrapper_t) copies by allocating
// a heap copy of the lambda, copying every captured view a second time (their reference counts),
// on every launch. The kernel receives the same bytes either way. The arguments must be of the
// parameters' exact types: a conversion would hand the runtime the wrong bytes.
template <class... Params, class... Args>
error_t launch_by_address(void (*entry)(Params...), unsigned blocks, unsigned threads,
                          unsigned shared_bytes, vendor::stream_t stream,
                          const Args&... args) noexcept {
  static_assert(sizeof...(Params) == sizeof...(Args) &&
                    (std::is_same_v<std::remove_cv_t<Params>, Args> && ...),
                "launch_by_address: each argument must have its parameter's type");
  void* params[] = {const_cast<void*>(static_cast<const void*>(std::addressof(args)))...};
  return vendor::launch_kernel(reinterpret_cast<const void*>(entry), blocks, threads, params,
                               shared_bytes, stream);
}

template <int N, class Kernel>
__global__ void __launch_bounds__(simple_block_threads)
    simple_kernel(const Kernel kernel, const launch_box<N> box) {
  const std::uint32_t linear = blockIdx.x * simple_block_threads + threadIdx.x;
  if (linear >= box.count) return;
  kernel(box_index(box, linear));
}

template <int D0, int D1, int D2, class Kernel>
__global__ void __launch_bounds__((tile_shape<D0, D1, D2>::launch_size))
    tiled_kernel(const Kernel kernel, const launch_box<tile_shape<D0, D1, D2>::rank> tiles) {
  constexpr int rank = tile_shape<D0, D1, D2>::rank;
  // The work-item's place in its tile: threadIdx.x row-major over the tile, last dim fastest.
  // The tile sizes are constants, so these divisions are shifts or multiplies.
  index<rank> local;
  const unsigned t = threadIdx.x;
  if constexpr (rank == 1) {
    local[0] = static_cast<int>(t);
  } else if constexpr (rank == 2) {
    local[1] = static_cast<int>(t % D1);
    local[0] = static_cast<int>(t / D1);
  } else {
    local[2] = static_cast<int>(t % D2);
    local[1] = static_cast<int>((t / D2) % D1);
    local[0] = static_cast<int>(t / (D2 * D1));
  }
  const index<rank> tile = box_index(tiles, blockIdx.x);
  index<rank> origin;
  origin[0] = tile[0] * D0;
  if constexpr (rank > 1) origin[1] = tile[1] * D1;
  if constexpr (rank > 2) origin[2] = tile[2] * D2;
  const tiled_index<D0, D1, D2> idx(origin + local, local, tile, origin, tile_barrier());
  kernel(idx);
}

// The simple model with at most max_points points per launch (tests use small values to
// exercise the split).
template <int N, class Kernel>
event_ptr launch_simple_split(const accelerator_view& av, const extent<N>& domain,
                              const Kernel& kernel, std::uint64_t max_points) {
  const launch_target target = prepare_launch(av.queue());
  for_each_launch_box(domain, max_points, [&](const index<N>& origin, const extent<N>& box) {
    const launch_box<N> part = make_launch_box(origin, box);
    const unsigned blocks = (part.count + simple_block_threads - 1) / simple_block_threads;
    const error_t launched = launch_by_address(
        &simple_kernel<N, Kernel>, blocks, simple_block_threads, 0, target.stream, kernel, part);
    if (launched != success) {
      (void)last_error();  // the runtime also keeps it as the thread's last error: clear it
      throw_launch_error(launched, "simple", blocks, simple_block_threads);
    }
  });
  return {};
}

template <int N, class Kernel>
event_ptr launch_simple(const device_target& on, const extent<N>& domain, const Kernel& kernel) {
  return launch_simple_split(on.view, domain, kernel, max_points_per_launch);
}

// The tiled model with at most max_tiles tiles per launch. One tile is one thread block.
template <int D0, int D1, int D2, class Kernel>
event_ptr launch_tiled_split(const accelerator_view& av, const tiled_extent<D0, D1, D2>& domain,
                             const Kernel& kernel, std::uint64_t max_tiles) {
  using shape = tile_shape<D0, D1, D2>;
  constexpr int rank = shape::rank;
  const launch_target target = prepare_launch(av.queue());
  if (shape::size > target.max_threads_per_tile) {
    throw runtime_exception("hipamp: tiles of " + std::to_string(shape::size) +
                            " threads exceed the " + std::to_string(target.max_threads_per_tile) +
                            " threads per tile that this GPU allows");
  }
  extent<rank> tiles;
  for (int d = 0; d < rank; ++d) {
    const int tile_dim = shape::dim(d);
    if (domain[d] <= 0 || domain[d] % tile_dim != 0) {
      throw invalid_compute_domain(
          "hipamp: tiled parallel_for_each over extent " +
          to_string(static_cast<const extent<rank>&>(domain)) + ": dimension " + std::to_string(d) +
          " (" + std::to_string(domain[d]) + ") is not a positive multiple of the tile size " +
          std::to_string(tile_dim));
    }
    tiles[d] = domain[d] / tile_dim;
  }
#if HIPAMP_ROBUST_ACCESS_ON
  // Once per kernel: the kernel's type is this unit's lambda, so the static is this unit's too.
  static const unsigned shared_pad =
      robust_tile_static_pad(reinterpret_cast<const void*>(&tiled_kernel<D0, D1, D2, Kernel>));
#else
  constexpr unsigned shared_pad = 0;
#endif
  for_each_launch_box(tiles, max_tiles, [&](const index<rank>& origin, const extent<rank>& box) {
    const launch_box<rank> part = make_launch_box(origin, box);
    const error_t launched = launch_by_address(&tiled_kernel<D0, D1, D2, Kernel>, part.count,
                                               static_cast<unsigned>(shape::size), shared_pad,
                                               target.stream, kernel, part);
    if (launched != success) {
      (void)last_error();  // the runtime also keeps it as the thread's last error: clear it
      throw_launch_error(launched, "tiled", part.count, shape::size);
    }
  });
  return {};
}

template <int D0, int D1, int D2, class Kernel>
event_ptr launch_tiled(const device_target& on, const tiled_extent<D0, D1, D2>& domain,
                       const Kernel& kernel) {
  return launch_tiled_split(on.view, domain, kernel, max_points_per_launch);
}

}  // namespace hipamp::detail::gpu
