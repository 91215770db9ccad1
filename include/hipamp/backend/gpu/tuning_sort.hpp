// The GPU sort's tuning (backend/gpu/sort.hpp): the bitonic tile shape per element type (the
// rule itself, bitonic::shape_for_bytes, lives with the schedule it shapes in
// algorithm/sort/bitonic_network.hpp) and where the vendor radix sort takes over. Kept apart
// from the kernels so a sweep or a new GPU changes this file only (CUB's tuning_*.cuh).
#pragma once

#include <cstddef>

#include <hipamp/algorithm/sort/bitonic_network.hpp>

namespace hipamp::detail::gpu {
namespace sort_kernels {

// A tile shape as a type, so kernels can be instantiated per shape (the sweep in
// bench_sort compares shapes; the library uses default_tile_shape). MinBlocks: the tile
// kernel's blocks per multiprocessor asked of the register allocator (0: the default).
template <int K, int Log2Tile, int MinBlocks = 0>
struct fixed_tile_shape {
  static constexpr bitonic::tile_shape value{K, Log2Tile, 1 << (Log2Tile - K)};
  static constexpr int min_blocks = MinBlocks;
};
template <class E>
struct default_tile_shape {
  static constexpr bitonic::tile_shape value = bitonic::shape_of<E>;
  static constexpr int min_blocks = 0;
};

}  // namespace sort_kernels

// Above this many elements a single sort of primitive keys in the default order goes to
// the vendor radix sort; below, one or a few bitonic launches are cheaper.
inline constexpr std::size_t radix_sort_threshold = std::size_t(1) << 16;

}  // namespace hipamp::detail::gpu
