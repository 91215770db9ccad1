// The GPU sort's tuning (backend/gpu/sort.hpp): the bitonic tile shape per element type (the
// rule itself, bitonic::shape_for_bytes, lives with the schedule it shapes in
// algorithm/sort/bitonic_network.hpp) and where the vendor radix sort takes over. Kept apart
// from the kernels so a sweep or a new GPU changes this file only (CUB's tuning_*.cuh).
#pragma once

#include <cstddef>
#include <type_traits>

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

// hipamp::bitonic_sort of one row of more than network_small_row_min and at most
// network_small_row_max 4-byte elements: 16 elements a thread and 512 threads a 2^13 tile
// (<4, 13>) instead of the default 32 and 256 (<5, 13>). With the passes chained, the wider
// blocks lead around 2^20, though they make one global round more there (10 instead of 9); past
// 2^20 + 1 their last stage's global rounds cost more than that gains, and from 2^21 they make
// two rounds more. Measured on the H100 (bench_sort gpu_bitonic_shape, u32, us <4, 13> /
// <5, 13>; four runs from 91bd316 to 3dd822e, then d50488a): 2^16 33.1-35.6 / 34.6-37.4; 2^18
// 48.8-54.1 / 47.9-50.5; 2^19 62.0-64.6 / 60.6-63.2; 2^20 87.4-88.4 / 88.1-94.8
// (hipamp::bitonic_sort with <5, 13>: 94.8-95.9 in six runs); 10^6 91.3-93.6 / 108.6-114.0;
// 2^20 + 1 100.4-102.8 / 102.3-111.3; 2^20 + 2^18 145.2 / 121.8; 2^21 - 2^18 161.3 / 130.3;
// 2^21 164.9-166.0 / 134.2-135.5; 2^24 1935 / 1449. Batches of rows and other element sizes
// keep the default shape (unmeasured). The cost: a second set of network kernels (tile and
// global round) in every unit that instantiates bitonic_sort for a 4-byte type (test_sort_merge
// under nvcc on the dev VM: 110 s before, 124 s after).
template <class E>
using small_network_tile_shape =
    std::conditional_t<sizeof(E) == 4, fixed_tile_shape<4, 13>, default_tile_shape<E>>;
inline constexpr unsigned network_small_row_min = 1u << 19;
inline constexpr unsigned network_small_row_max = (1u << 20) + (1u << 15);

// A segment's last tile, when partial, runs the network step by step over its existing
// elements (tile_kernel) if it holds at most 1/8 of a tile (1024 of a 2^13 tile), else the
// whole tiles' compile-time rounds on the tile padded with its maximum (pad_partial_tile).
// Why a threshold at all: the padded tile costs a whole tile's rounds plus a block reduction
// (~10 barriers), where the steps of a tiny prefix cost next to nothing (one element: no
// step), which matters where the partial tile's block sets a pass's time (grids of about one
// wave: 2^20 + 1 is 129 blocks). Why so low: the steps' loop does a tile's pairs 256 at a
// time with a barrier per step, and grew past a whole tile's time early: on the H100 (bench_sort,
// bitonic_sort of u32 near 2^20, 2^13 tiles, ms, median of 3 runs; the old checked rounds /
// the steps) last tile of 1 element 0.146 / 0.113, 576 (10^6) 0.136 / 0.118, 1025 0.153 /
// 0.132, 2049 0.154 / 0.161, 4097 0.165 / 0.221, 8191 0.187 / 0.333, against 0.096 for 2^20
// (whole tiles only). Measured against the padded rounds (H100, s17, one bench_sort binary
// per side, two runs each, CUB merge sort ms / hipamp ms): last tile of 65 steps 1.05; 576
// steps 1.02 / padded 0.97; 1025 steps 0.94 / padded 0.97; 2049 0.85 / 0.96; 4097 0.76 /
// 0.94; 8191 0.66 / 0.91. The padded rounds cost about the same at any fill (~0.098 ms near
// 2^20), the steps grow with the prefix and cross them between 576 and 1025: 1/8 of a tile.
constexpr unsigned partial_tile_step_reach(int log2_tile) { return (1u << log2_tile) / 8u; }

// The bitonic network's passes (tile_kernel, global_round_kernel: hipamp::bitonic_sort, batched
// sorts, sort_by_key, the merge sort's bitonic tiles) launched chained (vendor::launch_chained,
// programmatic dependent launch on sm_90), as the merge sort's kernels are: a pass's blocks are
// placed while the pass before it ends, instead of after its end and memory flush. A sort of
// 2^20 keys is 17 such passes (8 tile passes, 9 global rounds), each of a few microseconds.
// The kernels wait for the pass before either way (a no-op when launched plainly); false
// launches them plainly. Measured on the H100 (bench_sort gpu_bitonic_chained_vs_plain at
// 91bd316, u32, one process, plain and chained alternating, us chained / plain over 3 runs):
// 2^16 35.4-36.7 / 42.7-43.5, 2^18 47.8-50.0 / 59.6-62.1, 2^20 94.8-95.9 / 98.6-100.1, 2^20 + 1
// 109.3-110.9 / 115.1-116.3, 10^6 111.1-113.6 / 119.3-121.7 (4-24% faster; 2-6% at 2^20 over
// 3 leases). The merge sort's bitonic tile pass (merge_sort's ChainedTiles, one kernel
// boundary) measured the same both ways (gpu_sort_tiles_chained_vs_plain_u32: within 1% from
// 2^16 to 2^24 - 1) and follows this flag too.
inline constexpr bool network_chained_launches = true;

// The merge passes above the tile (backend/gpu/merge_sort.hpp): Threads threads each merging
// Items consecutive outputs, so a block reads and writes Threads * Items elements per pass
// through shared memory. Many items per thread make the per-block split search and the
// per-thread merge-path search cheap next to the data they place.
// MinBlocks: blocks per multiprocessor asked of the register allocator (0: none, the
// compiler's choice; 1 is not the same: nvcc then gave the u32 merge kernel 98 registers where
// it chose 64 unasked, and the passes took 1.3x as long).
template <int Threads, int Items, int MinBlocks = 0>
struct merge_policy {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int per_block = Threads * Items;
  static constexpr int min_blocks = MinBlocks;
  static_assert(Threads % 2 == 0 && Threads >= 64,
                "hipamp: a merge block's two split searches "
                "each take half of its threads");
};
// Up to 16-byte elements: 256 threads, 17 / 12 / 9 / 8 items (4 / 8 / 12 / 16 bytes); larger
// ones keep a block's shared memory near 32 KiB (static shared memory stops at 48 KiB) with 64
// threads. An odd count needs no pad slots (merge_sort.hpp, merge_pad_shift): on the H100
// (scripts/sort_pass_profile.cu s18, 84f977e, us for the whole sort, 16 / 17 items for 4-byte
// keys) u32 2^22 197.6 / 196.1, 10^7 546.9 / 533.2, 2^24 787.9 / 781.4, 2^26 3311 / 3294; the
// stable sort (with 17-item tiles, below) 10^7 668.9 / 644.7, 2^24 1017.5 / 984.2, 2^26 4117 /
// 3978. The paper's 12-byte type, 8 / 9 items (with 11-item tiles): 2^22 663.6 / 651.8, 10^7
// 1458.8 / 1442.3, 2^24 2516.6 / 2491.0, 2^26 10768 / 10679.
constexpr int merge_items_for_bytes(std::size_t bytes) {
  if (bytes <= 4) return 17;
  if (bytes <= 8) return 12;
  if (bytes == 12) return 9;
  if (bytes <= 16) return 8;
  const std::size_t fit = 32768 / (64 * bytes);
  return fit < 1 ? 1 : fit > 8 ? 8 : static_cast<int>(fit);
}
// Elements of 4 bytes or less: 5 blocks per multiprocessor (48 registers, 62.5% occupancy),
// against the compiler's 64 registers (4 blocks): more blocks keep more loads in flight while
// others merge. Measured on the H100 (scripts/sort_pass_profile.cu, u32, 2^15 tiles, 8 partition
// lanes, us for the whole sort with 4 / 5 / 6 / 8 blocks per multiprocessor): 2^22 205.0 / 197.8
// / 202.2 / 242.1 (at 8, 32 registers, it spills); 10^7 564.9 / 544.8 / 578.4 / 720.5; 2^24
// 820.4 / 787.9 / 822.8 / 1071.3; 2^26 3455 / 3305 / 3342 / 4396. The stable sort's block merge
// sort shares the policy, and its time did not move (2^24: 284.7 us at 4, 283.0 at 5; at 6 with
// chained launches, 6ba8e2a: 900.9 us for the whole stable sort against 901.4 at 5). The stable
// sort's merges take 6 (stable_merge_policy, below).
// Larger elements keep the compiler's choice (unmeasured).
template <class E>
struct default_merge_policy
    : merge_policy<(sizeof(E) <= 16 ? 256 : 64), merge_items_for_bytes(sizeof(E)),
                   (sizeof(E) <= 4 ? 5 : 0)> {};

// The stable sort's merge passes: 6 blocks per multiprocessor (40 registers) for elements of 4
// bytes or less, now that the passes are launched chained (merge_sort.hpp). Measured on the H100
// (scripts/sort_pass_profile.cu s18c at 4f0c1c4, stable u32, 256 x 17 tiles of 5 blocks, chained
// 256 x 17 merges, us for the whole sort with 4 / 5 / 6 blocks per multiprocessor): 2^20 86.5 /
// 84.1 / 84.2; 2^22 249.2 / 235.7 / 235.5; 2^23 501.0 / 467.1 / 456.3; 10^7 624.2 / 584.2 /
// 573.2; 2^24 981.2 / 919.9 / 900.3; 2^25 1990 / 1870 / 1835; 2^26 4002 / 3745 / 3670 (again
// at 6ba8e2a: 6 gave 2^24 901.4, 2^26 3674.8; 8, at 32 registers, 911.5 / 3701.3 and 96.1
// against 84.8 at 2^20). The unstable sort keeps default_merge_policy: at 6ba8e2a its merges
// at 5 / 6 took 2^20 95.1 / 94.1, 2^22 178.3 / 179.1, 2^24 750.4 / 741.2, 2^26 3134 / 3105
// (a candidate, not switched without its bench_sort run).
template <class E>
struct stable_merge_policy
    : std::conditional_t<sizeof(E) <= 4, merge_policy<256, merge_items_for_bytes(sizeof(E)), 6>,
                         default_merge_policy<E>> {};

// The block merge sort's tiles (stable sorts, and elements above 8 bytes): the merge policy's
// shape, but 11 items for 12-byte elements, a tile of 2816 instead of 2304, which saves a merge
// pass where n / 2304 is just above a power of two (10^7: 12 passes, not 13). Measured on the
// H100 (scripts/sort_pass_profile.cu s18, 84f977e, paper type by y, us for the whole sort with 8
// / 11 / 12 items a thread and 8-item merges): 2^22 661.7 / 663.6 / 678.6, 10^7 1565.7 / 1458.8
// / 1489.2, 2^24 2528.8 / 2516.6 / 2564.1, 2^26 10841 / 10768 / 10945 (12 items pad; 11 do not).
// Larger tiles for 4-byte keys lost then: 512 x 16 took 412 us at 2^24 against 285 for 256 x 16
// (one merge pass is 60-65 us); 512 x 17 at 3 blocks per SM wins from 2^21
// (large_block_merge_policy, below). Bitonic tiles of (key, position) pairs, 2^13 or
// 2^14 elements with the position breaking ties (stable), took 924-1173 us at 2^24 (four times the
// unstable 2^15 tile's 228 us: twice the bytes a round and three comparisons an exchange).
template <class E>
struct default_block_merge_policy
    : std::conditional_t<sizeof(E) == 12, merge_policy<256, 11>, default_merge_policy<E>> {};

// The block merge sort's tiles from merge_large_block_min elements: 512 x 17 (8704) for 4-byte
// elements, a merge pass fewer for one more merge round in shared memory. Measured on the H100
// (scripts/sort_pass_profile.cu s18d, 891ea83, stable u32, chained merges of 256 x 17 at 6
// blocks per SM, data-alone partitions, us for the whole sort with tiles of 256 x 17 at 5
// blocks per SM / 512 x 17 at 3 / 2 / the compiler's / 1024 x 11 at 1): 2^22 237.6 / 226.9 /
// 230.1 / 230.8 / 235.3; 2^24 905.3 / 873.4 / 893.1 / 891.6 / 925.2; 10^7 576.6 / 553.3 / 564.7
// / 564.0 / 541.4; 2^25 1849.2 / 1794.9 / 1838.3 / 1837.3 / 1880.3; 2^26 3688.3 / 3583.4 /
// 3672.2 / 3673.7 / 3757.4. At 2^21 (s18e, d92aac1, with sampled partitions) 139.6 us with
// 256 x 17 tiles, 134.1 with 512 x 17 (241 blocks). Below 2^21 unmeasured: at 2^20 the larger
// tiles would be 121 blocks for 132 multiprocessors, and the default stays.
template <class E>
using large_block_merge_policy =
    std::conditional_t<sizeof(E) == 4, merge_policy<512, 17, 3>, default_block_merge_policy<E>>;
inline constexpr unsigned merge_large_block_min = 1u << 21;

// Merge passes of at least this many blocks find their splits in a kernel of their own
// (merge_partition_kernel) instead of in every block: on grids of several waves each wave
// would wait again for the in-block search's dependent global loads. Measured on the H100
// (bench_sort, u32 by a comparator, ms with 512 / 1024, two runs each): 2^21 (passes of
// exactly 512 blocks) 0.1247, 0.1240 / 0.1067, 0.1093; 2^22 0.2309, 0.2290 / 0.2261, 0.2262;
// 2^24 0.9287, 0.9282 / 0.9243, 0.9273.
inline constexpr unsigned merge_partition_min_blocks = 1024;

// Lanes of merge_partition_kernel per merge block, by the pass's block count. Each step of a
// group's search probes one point per lane, and every probe of a wide range reads its own
// sector: 32 lanes per block made a pass of 2^26 u32 keys read about 100 MB at random, and the
// passes grew from 228 to 287 us as their runs (and so the searched ranges) grew. Fewer lanes
// read less but take more dependent steps, which costs where the search's latency is not
// hidden: while a pass's data sits in L2 (2^22 keys) 32 lanes stay fastest. Measured on the
// H100 (scripts/sort_pass_profile.cu, u32, 2^13 bitonic tiles + m256x16 passes, us for the
// whole sort with 32 / 8 / 4 / 2 / 1 lanes): 2^22 (1024 blocks a pass) 238.7 / 247.9 / 256.4 /
// 275.5 / 277.5; 10^7 (2442) 609.4 / 601.0 / 611.7 / 636.8 / 656.0; 2^24 (4096) 940.3 / 891.0 /
// 894.9 / 919.1 / 935.9; 2^26 (16384) 3930 / 3648 / 3560 / 3517 / 3525.
constexpr int merge_partition_lanes(unsigned blocks) {
  return blocks < 2048 ? 32 : blocks < 8192 ? 8 : 2;
}

// Lanes of merge_partition_kernel per merge block when it searches the samples of the input's
// chunks first (run_samples, merge_sort.hpp: the first and last key of every chunk of per_block
// elements, in L2), then one chunk of the data. The same steps as merge_partition_lanes: wide
// groups still lose where a pass has many blocks. Measured on the H100
// (scripts/sort_pass_profile.cu s18d, 891ea83, stable u32 by_high_u32, 256 x 17 tiles and
// merges, us for the whole sort, data alone with merge_partition_lanes / samples with 32 / 8 /
// 2 lanes): 2^24 (3855 blocks a pass) 904.4 / 900.0 / 887.6 / 921.0; 10^7 (2298) 575.6 /
// 562.3 / 566.5 / 607.5; 2^25 (7710) 1845.7 / 1845.8 / 1784.1 / 1785.9; 2^26 (15420) 3690.2 /
// 3778.5 / 3672.3 / 3620.5; CUB's stable merge sort in the same run 914.9, 603.1, 1774.0,
// 3592.5. (The unstable sort, 2^15 tiles, data alone / samples with 32-8-8 lanes: 2^24 748.1 /
// 725.2, 2^25 1562.3 / 1481.9, 2^26 3127.9 / 3083.8, 10^7 496.4 / 486.4.)
constexpr int merge_sampled_partition_lanes(unsigned blocks) {
  return blocks < 2048 ? 32 : blocks < 8192 ? 8 : 2;
}

// The bitonic tiles of a large merge sort of 4-byte elements (CUB-sized sorts and up): 2^15
// instead of 2^13, two merge passes fewer for a tile pass that costs about 1.35x (120 network
// levels instead of 91; 1024 threads of 32 keys, which spill a little at 64 registers). Used
// from merge_large_tile_min elements where the device lets a block have the tile's 132 KiB of
// shared memory (sm_80, sm_90), else the default tile. Measured on the H100
// (scripts/sort_pass_profile.cu, u32, 4 partition lanes, us for the whole sort, 2^13 / 2^15
// tiles): 2^20 83.7 / 97.9, 2^21 117.5 / 124.7, 2^22 256.4 / 211.3, 2^24 894.9 / 822.9,
// 2^24 - 1 894.7 / 838.6, 10^7 611.7 / 579.6, 2^26 3560 / 3363. (2^14 tiles: 2^21 109.8, 2^22
// 246.0, 2^24 883.0: between the two, not worth a third tile kernel.)
template <class E>
using large_merge_tile_shape =
    std::conditional_t<sizeof(E) == 4, fixed_tile_shape<5, 15>, default_tile_shape<E>>;
inline constexpr unsigned merge_large_tile_min = 1u << 22;

// How the merge sort sorts its tiles before the merge passes: the bitonic tile kernel (larger
// tiles, fewer passes, not stable) or the block merge sort (stable, tiles of
// default_block_merge_policy).
// Stable sorts always take the block merge sort.
// Measured on the H100 (bench_sort_variants, 68b9f7c; ratio to CUB's merge sort at 2^16 / 2^20
// / 2^24 / 2^26): u32 bitonic tiles 1.12 / 1.34 / 0.86 / 0.78, merged tiles 1.06 / 1.25 / 0.80
// / 0.73; the paper's 12-byte type bitonic 0.96 / 1.02 / 0.96 / 0.91, merged 1.22 / 1.21 /
// 0.97 / 0.92. 8-byte elements are unmeasured and keep the bitonic tiles.
enum class block_sort { bitonic, merge };
template <class E>
inline constexpr block_sort default_block_sort = sizeof(E) > 8 ? block_sort::merge
                                                               : block_sort::bitonic;

}  // namespace sort_kernels

// Above this many elements a single sort of primitive keys in the default order goes to
// the vendor radix sort; below, the merge sort (one or a few launches) is cheaper.
inline constexpr std::size_t radix_sort_threshold = std::size_t(1) << 16;

}  // namespace hipamp::detail::gpu
