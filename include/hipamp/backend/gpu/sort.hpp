// The GPU sort, in the HIP kernel language (CUDA under nvcc).
//
// Bitonic network (algorithm/sort/bitonic_network.hpp holds the schedule and the register code):
//  - tile_kernel: a block loads a tile of S positions into shared memory and runs network
//    rounds on it, each thread holding 2^K elements in registers per round (K = 5 for
//    4-byte elements, the seed's degree 5; 4 up to 12 bytes: bitonic::shape_for_bytes).
//    Stages 1..log2 S in one launch; later stages come back to it for their bits below
//    log2 S. Whole tiles run these two schedules with every round a compile-time constant
//    (offsets folded, no checks).
//  - global_round_kernel: the bits >= log2 S of a stage, up to K network levels per pass,
//    each thread loading its 2^K elements once, exchanging in registers, storing once.
//  Only tiles and groups that hold an existing element are launched.
//  The network runs whole for batches of rows and for hipamp::bitonic_sort; a single row of
//  4-byte elements from 2^19 to just past 2^20 takes K = 4 with twice the threads a tile
//  (small_network_tile_shape, tuning_sort.hpp).
// Merge sort (merge_sort.hpp): one row of more than a tile is sorted by tile_kernel's first
// pass (stages 1..log2 S; large sorts of 4-byte elements take larger tiles,
// large_merge_tile_shape) and then merge passes (merge path), each reading and writing every
// element once; stable sorts sort their tiles by a block merge sort (of larger tiles from
// merge_large_block_min elements, large_block_merge_policy) and merge stably. Every kernel
// keeps the first and last key of each merge block's worth of its outputs (run_samples), so
// the next pass's partition searches those before one chunk of the data.
// Radix: primitive keys in the default order and large single sorts go to CUB's
// DeviceRadixSort (rocPRIM's radix_sort_keys on ROCm) over ordered_bits, which keeps the
// documented order (floats: NaNs last).
//
// Include only from GPU translation units.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/sort/bitonic_network.hpp>
#include <hipamp/algorithm/sort/merge_path.hpp>
#include <hipamp/algorithm/sort/sort_kind.hpp>
#include <hipamp/backend/gpu/device_query.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/backend/gpu/scratch.hpp>
#include <hipamp/backend/gpu/tuning_sort.hpp>
#include <hipamp/sort_order.hpp>

#include <hipamp/backend/gpu/block_collectives.hpp>
#include <hipamp/backend/gpu/vendor_primitives.hpp>

#define HIPAMP_SORT_SHARED_ALIGN HIPAMP_GPU_SHARED_ALIGN(16)

#include <hipamp/backend/gpu/merge_sort.hpp>

namespace hipamp::detail::gpu {
namespace sort_kernels {

template <class E, class Shape = default_tile_shape<E>>
struct launch_shape {
  static constexpr bitonic::tile_shape tile = Shape::value;
  static_assert(tile.threads >= 32,
                "hipamp: elements this large do not fit the GPU sort's tiles; sort a "
                "key_index_type (key and index) and gather, as parallel_sort does");
  static_assert(alignof(E) <= 16, "hipamp: GPU sort elements must be at most 16-byte aligned");
  static constexpr int global_threads = 128;
  // Blocks per multiprocessor the launch bounds ask for: at most 128 registers a thread,
  // so that enough warps stay resident to keep loads in flight.
  static constexpr int tile_min_blocks = Shape::min_blocks > 0 ? Shape::min_blocks
                                         : tile.threads >= 512 ? 1
                                                               : 512 / tile.threads;
  static constexpr int global_min_blocks = 4;
  static constexpr std::size_t shared_bytes =
      std::size_t(bitonic::padded_tile_size(tile.log2_tile, sizeof(E))) * sizeof(E);
};

// One network step on the existing prefix [0, reach) of a tile in shared memory (see
// bitonic::for_each_tile_step): each thread takes the pairs j = tid, tid + Threads, ..., the
// j-th pair's lower position being the j-th position with `bit` clear.
template <class E, unsigned Threads, class Less>
__device__ HIPAMP_ALWAYS_INLINE inline void tile_step(E* tile, unsigned reach, unsigned mask,
                                                      int bit, unsigned tid, const Less& less) {
  using slots = bitonic::tile_memory<E>;
  const unsigned low = (1u << bit) - 1u;
#pragma unroll 1
  for (unsigned j = tid;; j += Threads) {
    const unsigned i = ((j >> bit) << (bit + 1)) | (j & low);  // grows with j
    if (i >= reach) break;
    const unsigned partner = i ^ mask;
    if (partner < reach) {
      bitonic::compare_exchange(tile[slots::slot(i)], tile[slots::slot(partner)], less);
    }
  }
}

// Fills the missing positions [reach, S) of a segment's partial last tile with a maximum of
// its existing prefix [0, reach) under `less` (bitonic_network.hpp, after tile_memory: why
// the whole tile's compile-time rounds then move the prefix exactly as the checked ones).
// Every thread folds a strided share of the prefix, each warp combines its lanes by shuffles,
// and the warps' results meet in the tile's pad slots (tile_memory::spare, which no round
// reads), so no extra shared memory and three barriers. (The first version folded on at most
// one thread per spare slot and combined them by a tree through the spares, a barrier a
// level: ncu on the H100 put every later tile pass of 2^20 - 1 at 12.6-13.2 us against
// 10.5-11.0 for 2^20's whole tiles.) Only the partial tile's block runs it; all its threads
// must call.
template <class E, unsigned Threads, int Log2Tile, class Less>
__device__ HIPAMP_ALWAYS_INLINE inline void pad_partial_tile(E* tile, unsigned reach, unsigned tid,
                                                             const Less& less) {
  using slots = bitonic::tile_memory<E>;
  constexpr unsigned tile_size = 1u << Log2Tile;
  static_assert(Threads % warp_size_min == 0 && tile_size % Threads == 0 &&
                    Threads / warp_size_min <= slots::spares(Log2Tile),
                "hipamp: a spare slot per warp of the tile kernel");
  // The library's warp reduction (block_collectives.hpp) with "the larger of two" (either of
  // two equivalent ones, which is why its order does not matter here: any maximum pads).
  const auto larger = [&less](const E& a, const E& b) { return less(a, b) ? b : a; };
  const auto fold_warp = [&larger](const E& m) {
    return warp_reduce(maybe<E>{m, true}, larger).value;  // lane 0 holds the warp's maximum
  };
  __syncthreads();                                  // the prefix is in shared memory
  E m = tile[slots::slot(tid < reach ? tid : 0u)];  // position 0 always exists
  // (Constant trip counts: hipcc warned that it could not unroll loops bounded by reach.)
#pragma unroll 8
  for (unsigned r = 1; r < tile_size / Threads; ++r) {
    const unsigned i = tid + r * Threads;
    if (i < reach) {
      const E e = tile[slots::slot(i)];
      if (less(m, e)) m = e;
    }
  }
  m = fold_warp(m);
  constexpr unsigned lanes = static_cast<unsigned>(warp_size);
  const unsigned warp = tid / lanes;
  if (tid % lanes == 0) tile[slots::spare(warp)] = m;
  __syncthreads();
  if (warp == 0) {
    constexpr unsigned warps = Threads / lanes;
    const E w = fold_warp(tile[slots::spare(tid < warps ? tid : 0u)]);
    if (tid == 0) tile[slots::spare(0)] = w;
  }
  __syncthreads();
  const E padding = tile[slots::spare(0)];
#pragma unroll
  for (unsigned r = 0; r < tile_size / Threads; ++r) {
    const unsigned i = tid + r * Threads;
    if (i >= reach) tile[slots::slot(i)] = padding;
  }
  // (The caller's barrier before the rounds orders these stores.)
}

// Stages s_first..s_last (see for_each_tile_round) on every launched tile.
template <class E, class Shape, class Mem, class Less>
// (The parentheses keep the template's comma out of HIP's __launch_bounds__ macro.)
__global__ void __launch_bounds__((launch_shape<E, Shape>::tile.threads),
                                  (launch_shape<E, Shape>::tile_min_blocks))
    tile_kernel(Mem mem, bitonic::layout lay, bitonic::tile_map tiles, int s_first, int s_last,
                Less less) {
  // Launched chained (network_chained_launches): every thread waits for the pass before it
  // before its first global access, which is what orders the chain; the next pass's blocks may
  // be placed from now on (they wait in turn).
  wait_for_prior_grid();
  release_next_grid();
  constexpr bitonic::tile_shape shape = launch_shape<E, Shape>::tile;
  constexpr unsigned tile_size = 1u << shape.log2_tile;
  extern __shared__ HIPAMP_SORT_SHARED_ALIGN unsigned char sort_tile_storage[];
  E* tile = reinterpret_cast<E*>(sort_tile_storage);
  // Tiles in reverse: a segment's last tile, when partial, took the checked rounds chosen at
  // run time, several times slower than a whole tile; launched first, it ran beside the whole
  // tiles instead of after them (at 2^24 - 1 it added ~7% to the merge sort as the grid's
  // last block). Now padded (pad_partial_tile) it costs a whole tile and a reduction; still
  // first.
  const unsigned start =
      bitonic::tile_start(tiles, lay, shape.log2_tile, tiles.count - 1u - blockIdx.x);
  using slots = bitonic::tile_memory<E>;
  constexpr int per_thread = 1 << shape.k;  // tile_size / threads
  // (A scalar: g++ 12 fails on lambdas below that name a constexpr local of class type.)
  constexpr unsigned threads = shape.threads;
  const unsigned tid = threadIdx.x;
  // Every thread issues all its loads before it uses one (a loop that waited on each load
  // made a segment's last tile set every pass's time whenever the grid fits in one wave).
  // Most tiles lie wholly inside one segment: consecutive addresses, no existence checks.
  const unsigned reach = bitonic::tile_reach(tiles, lay, shape.log2_tile, start);
  const bool whole = !tiles.packed && reach == tile_size;
  const auto copy_in = [&](auto whole_tile) {
    constexpr bool all_exist = decltype(whole_tile)::value;
    const auto base = mem.at(start);
    E v[per_thread];
#pragma unroll
    for (int r = 0; r < per_thread; ++r) {
      const unsigned i = tid + r * threads;
      if (all_exist || lay.exists(start + i))
        v[r] = mem.load(all_exist ? mem.next(base, i) : mem.at(start + i));
    }
#pragma unroll
    for (int r = 0; r < per_thread; ++r) {
      const unsigned i = tid + r * threads;
      if (all_exist || lay.exists(start + i)) tile[slots::slot(i)] = v[r];
    }
  };
  const auto copy_out = [&](auto whole_tile) {
    constexpr bool all_exist = decltype(whole_tile)::value;
    const auto base = mem.at(start);
#pragma unroll
    for (int r = 0; r < per_thread; ++r) {
      const unsigned i = tid + r * threads;
      if (all_exist || lay.exists(start + i))
        mem.store(all_exist ? mem.next(base, i) : mem.at(start + i), tile[slots::slot(i)]);
    }
  };
  constexpr int log2_tile = shape.log2_tile;
  constexpr int k = shape.k;
  // The two stage ranges whole tiles run at compile time (every non-packed tile pass is one).
  const bool first_pass = s_first == 1 && s_last == log2_tile;
  const bool later_pass = s_first == s_last && s_first > log2_tile;
  // A segment's last tile of more than partial_tile_step_reach elements is padded to a whole
  // tile (pad_partial_tile) and runs the whole tiles' rounds: the rounds chosen at run time
  // for it took 1.5-2x a whole tile per pass, and every pass waited for that one block (H100,
  // 2^20 - 1: 0.187 ms against 0.096 for 2^20). Smaller ones take the steps, below.
  const bool padded = !tiles.packed && !whole && (first_pass || later_pass) &&
                      reach > partial_tile_step_reach(shape.log2_tile);
  if (whole) {
    copy_in(std::true_type{});
  } else {
    copy_in(std::false_type{});
    if (padded) pad_partial_tile<E, threads, log2_tile>(tile, reach, tid, less);
  }
  __syncthreads();
  // Whole tiles run the two schedules the network repeats, the first pass and a later
  // stage's bits below the tile, with every round known at compile time and no checks
  // (bitonic::for_each_static_tile_round), and so does a segment's partial last tile once
  // padded. Small last tiles take the steps; packed small segments the checked rounds chosen
  // at run time: a compile-time copy of those, with checks, more than tripled the sort tests'
  // compile time.
  const auto whole_round = [tile, tid, less](auto round) {
    bitonic::static_tile_round<decltype(round), launch_shape<E, Shape>::tile.log2_tile,
                               launch_shape<E, Shape>::tile.threads>(tile, tid, less);
    __syncthreads();
  };
  // Whole tiles and padded partial ones share the very same code below (one instantiation).
  if ((whole || padded) && first_pass) {
    // Stages 1..K sort runs of 2^K consecutive positions: one register round for all of
    // them instead of K rounds through shared memory (the padded slots keep it free of
    // bank conflicts).
    E x[per_thread];
    const unsigned run = tid * per_thread;
#pragma unroll
    for (int j = 0; j < per_thread; ++j) x[j] = tile[slots::slot(run + j)];
    bitonic::sort_runs<k>(x, less);
#pragma unroll
    for (int j = 0; j < per_thread; ++j) tile[slots::slot(run + j)] = x[j];
    __syncthreads();
    bitonic::for_each_static_tile_round<k + 1, log2_tile, log2_tile, k>(whole_round);
  } else if ((whole || padded) && later_pass) {
    bitonic::for_each_static_tile_round<log2_tile + 1, log2_tile + 1, log2_tile, k>(whole_round);
  } else if (!tiles.packed && reach <= partial_tile_step_reach(shape.log2_tile)) {
    // A segment's last tile holding few elements: its existing positions are a prefix, so the
    // network's steps run one at a time over the pairs below `reach`, in a short loop, and
    // steps with no existing pair are skipped (one element: none). The rounds below (unrolled
    // checked code chosen at run time) took a whole tile's time or more per pass even for one
    // element: on the H100 (ncu) every tile pass of 2^20 + 1 took 21 us against 12 us for
    // 2^20, that one block's time, and the whole sort 1.5x 2^20's. Past
    // partial_tile_step_reach the padded whole-tile rounds above (tuning_sort.hpp).
    bitonic::for_each_tile_step(s_first, s_last, log2_tile, reach,
                                [tile, tid, reach, less](unsigned mask, int bit) {
                                  tile_step<E, threads>(tile, reach, mask, bit, tid, less);
                                  __syncthreads();
                                });
  } else {
    // Only groups that reach an existing position: packed tiles of several short segments
    // (each with missing positions inside the tile, so no padding at the end would do).
    const slots local{tile};
    bitonic::for_each_tile_round(s_first, s_last, log2_tile, k, [&](const bitonic::round_spec& r) {
      const unsigned groups = bitonic::groups_below(reach, r);
      for (unsigned g = tid; g < groups; g += threads) {
        bitonic::run_group_dynamic<k, E>(local, lay, r, g, start, less);
      }
      __syncthreads();
    });
  }
  if (whole) {
    copy_out(std::true_type{});
  } else {
    copy_out(std::false_type{});
  }
}

// One global round of `Bits` network levels; one group of 2^Bits elements per thread.
template <int Bits, bool Mirror, class E, class Shape, class Mem, class Less>
__global__ void __launch_bounds__((launch_shape<E, Shape>::global_threads),
                                  (launch_shape<E, Shape>::global_min_blocks))
    global_round_kernel(Mem mem, bitonic::layout lay, bitonic::group_map groups,
                        bitonic::round_spec r, Less less) {
  wait_for_prior_grid();  // as in tile_kernel, before the early return too
  release_next_grid();
  const unsigned long long t =
      static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= groups.count) return;
  const bitonic::group grp =
      bitonic::group_at(bitonic::group_index(groups, static_cast<unsigned>(t)), r);
  bitonic::run_group<Bits, Mirror, E>(mem, lay, grp, 0u, less);
}

template <class T, bool Descending>
__global__ void to_ordered_kernel(T* data, std::size_t n) {
  using U = ordered_unsigned_t<T>;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  U u = ordered_bits(data[i]);
  if (Descending) u = static_cast<U>(~u);
  reinterpret_cast<U*>(data)[i] = u;
}

template <class T, bool Descending>
__global__ void from_ordered_kernel(const ordered_unsigned_t<T>* in, T* out, std::size_t n) {
  using U = ordered_unsigned_t<T>;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  U u = in[i];
  if (Descending) u = static_cast<U>(~u);
  out[i] = from_ordered_bits<T>(u);
}

inline unsigned blocks_for(unsigned long long items, int threads) {
  return static_cast<unsigned>((items + static_cast<unsigned>(threads) - 1) /
                               static_cast<unsigned>(threads));
}

// Launches the network's passes (bitonic::run_schedule) on `stream`, chained to each other
// and to the work before them (Chained: network_chained_launches) or plainly.
template <class E, class Shape, class Mem, class Less, bool Chained = network_chained_launches>
class network_launcher {
 public:
  using shape = launch_shape<E, Shape>;
  network_launcher(const Mem& mem, const bitonic::layout& lay, const Less& less, stream_t stream)
      : mem_(mem),
        lay_(lay),
        less_(less),
        stream_(stream),
        tiles_(bitonic::map_tiles(lay, shape::tile.log2_tile)) {}

  void tile_pass(int s_first, int s_last) {
    if constexpr (shape::shared_bytes > 48 * 1024) {
      // Tiles beyond the default 48 KiB of dynamic shared memory must be allowed explicitly,
      // for the kernel this launch names, on every launch: each translation unit that
      // instantiates the kernel registers its own copy, so a flag remembering that "the"
      // kernel was allowed (one static shared by every unit) let a second unit launch its
      // copy unallowed (cudaErrorInvalidValue in bench_sort, whose units all sort u32 by
      // less_u32, once 2^15 tiles came in). The call costs a host round of microseconds
      // against a sort of 2^22 elements or more.
      HIPAMP_GPU_CHECK(gpu_allow_dynamic_shared(tile_kernel<E, Shape, Mem, Less>,
                                                static_cast<int>(shape::shared_bytes)));
    }
    if constexpr (Chained) {
      check(vendor::launch_chained_shared(tile_kernel<E, Shape, Mem, Less>, tiles_.count,
                                          shape::tile.threads, shape::shared_bytes, stream_, mem_,
                                          lay_, tiles_, s_first, s_last, less_),
            "hipamp::sort: bitonic tile kernel");
    } else {
      tile_kernel<E, Shape, Mem, Less>
          <<<tiles_.count, shape::tile.threads, shape::shared_bytes, stream_>>>(
              mem_, lay_, tiles_, s_first, s_last, less_);
      HIPAMP_GPU_CHECK_LAUNCH("hipamp::sort: bitonic tile kernel");
    }
  }
  void global_round(const bitonic::round_spec& r) {
    const bitonic::group_map groups = bitonic::map_groups(lay_, r);
    launch_global<1>(r, groups);
  }

 private:
  template <int Bits>
  void launch_global(const bitonic::round_spec& r, const bitonic::group_map& groups) {
    if constexpr (Bits <= shape::tile.k) {
      if (r.bits != Bits) return launch_global<Bits + 1>(r, groups);
      const unsigned blocks = blocks_for(groups.count, shape::global_threads);
      if (r.mirror) {
        launch_round(global_round_kernel<Bits, true, E, Shape, Mem, Less>, blocks, groups, r);
      } else {
        launch_round(global_round_kernel<Bits, false, E, Shape, Mem, Less>, blocks, groups, r);
      }
    }
  }
  template <class Kernel>
  void launch_round(Kernel* kernel, unsigned blocks, const bitonic::group_map& groups,
                    const bitonic::round_spec& r) {
    if constexpr (Chained) {
      check(vendor::launch_chained(kernel, blocks, shape::global_threads, stream_, mem_, lay_,
                                   groups, r, less_),
            "hipamp::sort: bitonic global round kernel");
    } else {
      kernel<<<blocks, shape::global_threads, 0, stream_>>>(mem_, lay_, groups, r, less_);
      HIPAMP_GPU_CHECK_LAUNCH("hipamp::sort: bitonic global round kernel");
    }
  }

  Mem mem_;
  bitonic::layout lay_;
  Less less_;
  stream_t stream_;
  bitonic::tile_map tiles_;
};

template <class E, class Shape = default_tile_shape<E>, bool Chained = network_chained_launches,
          class Mem, class Less>
void run_network(const Mem& mem, const bitonic::layout& lay, const Less& less, stream_t stream) {
  network_launcher<E, Shape, Mem, Less, Chained> launcher(mem, lay, less, stream);
  bitonic::run_schedule(lay, launch_shape<E, Shape>::tile, launcher);
}

// Radix sort of primitive keys in the default order, in place.
template <class T>
void radix_sort(const accelerator_view& av, T* data, std::size_t n, bool descending,
                stream_t stream) {
  using U = ordered_unsigned_t<T>;
  const bool transform = !std::is_unsigned<T>::value || descending;
  U* keys = reinterpret_cast<U*>(data);
  constexpr int threads = 256;
  const unsigned blocks = blocks_for(n, threads);
  if (transform) {
    if (descending) {
      to_ordered_kernel<T, true><<<blocks, threads, 0, stream>>>(data, n);
    } else {
      to_ordered_kernel<T, false><<<blocks, threads, 0, stream>>>(data, n);
    }
    HIPAMP_GPU_CHECK_LAUNCH("hipamp::sort: key transform kernel");
  }
  const std::size_t keys_bytes = device_scratch::aligned(n * sizeof(U));
  std::size_t temp_bytes = 0;
  HIPAMP_GPU_CHECK(
      vendor::radix_sort_keys<U>(nullptr, temp_bytes, keys, nullptr, n, nullptr, stream));
  device_scratch scratch(av, keys_bytes + temp_bytes);
  const U* sorted = keys;
  HIPAMP_GPU_CHECK(vendor::radix_sort_keys(scratch.as<void>(keys_bytes), temp_bytes, keys,
                                           scratch.as<U>(), n, &sorted, stream));
  if (transform) {
    if (descending) {
      from_ordered_kernel<T, true><<<blocks, threads, 0, stream>>>(sorted, data, n);
    } else {
      from_ordered_kernel<T, false><<<blocks, threads, 0, stream>>>(sorted, data, n);
    }
    HIPAMP_GPU_CHECK_LAUNCH("hipamp::sort: key transform kernel");
  } else if (sorted != keys) {
    HIPAMP_GPU_CHECK(vendor::copy_between_devices_async(keys, sorted, n * sizeof(U), stream));
  }
}

}  // namespace sort_kernels

namespace sort_kernels {

// Sorts the n elements at `data`: tiles first (Tiles: the bitonic tile kernel, or the block
// merge sort, which stable sorts always take), then merge passes (merge_sort.hpp) through
// `scratch` (n elements; unused when n fits one tile), ending back in `data` (the tile pass
// writes to `scratch` when the number of passes is odd, so no copy is added).
template <class T, bool Stable, block_sort Tiles = default_block_sort<T>>
constexpr unsigned merge_sort_tile() {
  if constexpr (Stable || Tiles == block_sort::merge) {
    return default_block_merge_policy<T>::per_block;
  } else {
    return 1u << launch_shape<T, default_tile_shape<T>>::tile.log2_tile;
  }
}
// `splits`: room for the split of every merge block of the largest pass (merge_split_count),
// used by passes of partition_min_blocks blocks or more.
// (Blocks never straddle pairs, so a pass of short runs may have more blocks than a later one.)
template <class T>
unsigned merge_split_count(unsigned n, unsigned tile) {
  unsigned most = 0;
  for (unsigned long long width = tile; width < n; width *= 2) {
    const unsigned blocks =
        merge::shape_pass(n, static_cast<unsigned>(width), default_merge_policy<T>::per_block)
            .blocks;
    most = blocks > most ? blocks : most;
  }
  return most;
}
// Entries of each of run_samples' two arrays for a sort of n elements from tiles of `tile`:
// the chunks of the tiles (merged tiles; the bitonic tiles keep none) or of any pass's outputs
// (a pass writes one per merge block).
// (Tiles that are a multiple of the chunk count the same whatever their size.)
template <class T>
unsigned merge_sample_count(unsigned n, unsigned tile, bool merged_tiles) {
  const unsigned chunk = default_merge_policy<T>::per_block;
  const unsigned rest = n % tile;
  const unsigned long long of_tiles =
      merged_tiles ? static_cast<unsigned long long>(n / tile) * ((tile + chunk - 1) / chunk) +
                         (rest + chunk - 1) / chunk
                   : 0u;
  const unsigned passes = merge_split_count<T>(n, tile);
  return static_cast<unsigned>(of_tiles > passes ? of_tiles : passes);
}
// Finds the first split of every block of `pass` into `splits`, with `lanes` lanes per block
// (32, 8 or 2: merge_partition_lanes, merge_sampled_partition_lanes), by the samples of the
// input's chunks where given (run_chunks a run).
template <int Lanes, class T, class Less>
void launch_merge_partition(int lanes, const T* in, unsigned n, const merge::pass_shape& pass,
                            unsigned per_block, unsigned* splits, run_samples<const T> samples,
                            unsigned run_chunks, const Less& less, stream_t stream) {
  if constexpr (Lanes > 2) {
    if (lanes < Lanes) {
      return launch_merge_partition<Lanes / 4>(lanes, in, n, pass, per_block, splits, samples,
                                               run_chunks, less, stream);
    }
  }
  constexpr int partition_threads = 256;
  const unsigned long long threads = static_cast<unsigned long long>(pass.blocks) * Lanes;
  check(vendor::launch_chained(merge_partition_kernel<Lanes, T, Less>,
                               blocks_for(threads, partition_threads), partition_threads, stream,
                               in, n, pass, per_block, splits, samples, run_chunks, less),
        "hipamp::sort: merge partition kernel");
}

// Sorts tiles of 2^log2_tile by the bitonic tile kernel of Shape, `data` to `to` (launched
// chained, as the merge passes after it, unless Chained is false).
template <class T, class Shape, bool Chained, class Less>
void bitonic_tiles(const T* data, T* to, unsigned n, const Less& less, stream_t stream) {
  constexpr int log2_tile = launch_shape<T, Shape>::tile.log2_tile;
  const bitonic::layout lay = bitonic::make_layout(n, 1, n);
  const int tile_stages = lay.log2_size < log2_tile ? lay.log2_size : log2_tile;
  using mem = bitonic::copy_memory<T>;
  network_launcher<T, Shape, mem, Less, Chained>(mem{data, to, lay}, lay, less, stream)
      .tile_pass(1, tile_stages);
}

// `samples`: room for merge_sample_count(n, tile, merged tiles) entries twice (first keys, then
// last keys); nullptr: the partitions search the data alone. partition_lanes: the partition
// kernel's lanes (0: the tuning's). large_tile_min: from how many elements the large tiles are
// taken (the bitonic tiles of large_merge_tile_shape, or the block merge sort's of
// large_block_merge_policy; 0: the tuning's). All three for the tests' and the profiles' sake.
// ChainedTiles: the bitonic tile pass launched chained (network_chained_launches) or plainly
// (bench_sort's gpu_sort_tiles_chained_vs_plain_u32 compares the two).
template <class T, bool Stable, block_sort Tiles = default_block_sort<T>,
          bool ChainedTiles = network_chained_launches, class Less>
void merge_sort(T* data, T* scratch, unsigned* splits, unsigned n, const Less& less,
                stream_t stream, unsigned partition_min_blocks = merge_partition_min_blocks,
                unsigned large_tile_min = 0, T* samples = nullptr, int partition_lanes = 0) {
  if (n < 2) return;
  using policy = std::conditional_t<Stable, stable_merge_policy<T>, default_merge_policy<T>>;
  static_assert(policy::per_block == default_merge_policy<T>::per_block,
                "hipamp: merge_split_count sizes the splits by the default merge blocks");
  constexpr bool merged_tiles = Stable || Tiles == block_sort::merge;
  using large_shape = large_merge_tile_shape<T>;
  constexpr bool has_large = !merged_tiles && !std::is_same_v<large_shape, default_tile_shape<T>>;
  bool large = false;
  if constexpr (has_large) {
    if (n >= (large_tile_min != 0 ? large_tile_min : merge_large_tile_min)) {
      int device = 0;
      HIPAMP_GPU_CHECK(gpu_get_device(&device));
      large = launch_shape<T, large_shape>::shared_bytes <=
              static_cast<std::size_t>(max_shared_per_block(device));
    }
  }
  using block_policy = default_block_merge_policy<T>;
  using large_block_policy = large_block_merge_policy<T>;
  constexpr bool has_large_block =
      merged_tiles && !std::is_same_v<large_block_policy, block_policy>;
  static_assert(!has_large_block || large_block_policy::per_block % policy::per_block == 0,
                "hipamp: merge_sample_count counts the chunks of tiles of whole chunks");
  if constexpr (has_large_block) {
    large = n >= (large_tile_min != 0 ? large_tile_min : merge_large_block_min);
  }
  const unsigned tile = !large            ? merge_sort_tile<T, Stable, Tiles>()
                        : has_large_block ? large_block_policy::per_block
                                          : 1u << launch_shape<T, large_shape>::tile.log2_tile;
  const int passes = merge::pass_count(n, tile);
  T* from = passes % 2 == 1 ? scratch : data;
  // Samples of the chunks of per_block outputs of each kernel, for the next pass's partition
  // (the bitonic tiles keep none: the first pass after them searches the data alone).
  const bool keep_samples = samples != nullptr && splits != nullptr;
  const unsigned sample_count = keep_samples ? merge_sample_count<T>(n, tile, merged_tiles) : 0u;
  const run_samples<T> written{keep_samples ? samples : nullptr,
                               keep_samples ? samples + sample_count : nullptr};
  bool sampled = false;
  if constexpr (merged_tiles) {
    // Chained to whatever ran before (it waits for it): the merge passes' chain starts here.
    const auto sort_tiles = [&](auto kernel, int threads) {
      check(vendor::launch_chained(kernel, (n + tile - 1) / tile, threads, stream,
                                   static_cast<const T*>(data), from, n, written,
                                   static_cast<unsigned>(policy::per_block), less),
            "hipamp::sort: block merge sort kernel");
    };
    if constexpr (has_large_block) {
      if (large) {
        sort_tiles(block_merge_sort_kernel<T, large_block_policy, Less>,
                   large_block_policy::threads);
      }
    }
    if (!large) sort_tiles(block_merge_sort_kernel<T, block_policy, Less>, block_policy::threads);
    sampled = keep_samples;
  } else {
    if constexpr (has_large) {
      if (large) bitonic_tiles<T, large_shape, ChainedTiles>(data, from, n, less, stream);
    }
    if (!large) bitonic_tiles<T, default_tile_shape<T>, ChainedTiles>(data, from, n, less, stream);
  }
  T* to = from == data ? scratch : data;
  for (unsigned long long width = tile; width < n; width *= 2) {
    const merge::pass_shape pass =
        merge::shape_pass(n, static_cast<unsigned>(width), policy::per_block);
    const bool partition = splits != nullptr && pass.blocks >= partition_min_blocks;
    if (partition) {
      const int lanes = partition_lanes != 0 ? partition_lanes
                        : sampled            ? merge_sampled_partition_lanes(pass.blocks)
                                             : merge_partition_lanes(pass.blocks);
      const unsigned run_chunks =
          static_cast<unsigned>((width + policy::per_block - 1) / policy::per_block);
      launch_merge_partition<32>(
          lanes, static_cast<const T*>(from), n, pass, policy::per_block, splits,
          sampled ? run_samples<const T>{written.first, written.last} : run_samples<const T>{},
          run_chunks, less, stream);
    }
    check(vendor::launch_chained(merge_kernel<T, policy, Less>, pass.blocks, policy::threads,
                                 stream, static_cast<const T*>(from), to, n, pass,
                                 static_cast<const unsigned*>(partition ? splits : nullptr),
                                 written, less),
          "hipamp::sort: merge kernel");
    sampled = keep_samples;
    std::swap(from, to);
  }
}
template <class T, bool Stable, class Less>
void merge_sort(const accelerator_view& av, T* data, unsigned n, const Less& less,
                stream_t stream) {
  const unsigned tile = merge_sort_tile<T, Stable>();
  const bool fits_tile = n <= tile;
  // (Splits and samples are counted for the smallest tile the sort may take: enough for any.)
  const std::size_t data_bytes = device_scratch::aligned(std::size_t(n) * sizeof(T));
  const std::size_t split_bytes =
      device_scratch::aligned(std::size_t(merge_split_count<T>(n, tile)) * sizeof(unsigned));
  const std::size_t sample_bytes =
      2 *
      std::size_t(
          merge_sample_count<T>(n, tile, Stable || default_block_sort<T> == block_sort::merge)) *
      sizeof(T);
  device_scratch scratch(av, fits_tile ? 0 : data_bytes + split_bytes + sample_bytes);
  merge_sort<T, Stable>(data, fits_tile ? nullptr : scratch.as<T>(),
                        fits_tile ? nullptr : scratch.as<unsigned>(data_bytes), n, less, stream,
                        merge_partition_min_blocks, 0,
                        fits_tile ? nullptr : scratch.as<T>(data_bytes + split_bytes));
}

}  // namespace sort_kernels

// Sorts the rows described by `lay` (real positions of `data`) by `less`. Kind (a type, so
// that a sort instantiates only the kernels it can run):
//  - fastest: tiles, then merge passes (a row of a tile or less: one tile pass); primitive
//    keys in the default order, large enough, go to the vendor radix sort.
//  - stable: the stable merge sort.
//  - network: the bitonic network at every size (hipamp::bitonic_sort, and batched_sort,
//    whose rows share tiles).
// The merge sorts take rows one at a time (sort and stable_sort pass one).
template <class T, class Less, sort_kind Kind>
void sort_rows(const accelerator_view& av, T* data, const bitonic::layout& lay, const Less& less,
               sort_kind_t<Kind>) {
  // The launch protocol's stream: it also makes av's GPU current on machines with several,
  // where a launch into another GPU's stream would fail.
  const stream_t stream = prepare_launch(av.queue()).stream;
  if constexpr (Kind == sort_kind::network) {
    const bitonic::copy_memory<T> mem{data, data, lay};
    using small_shape = sort_kernels::small_network_tile_shape<T>;
    if constexpr (!std::is_same_v<small_shape, sort_kernels::default_tile_shape<T>>) {
      if (lay.segments == 1 && lay.length > sort_kernels::network_small_row_min &&
          lay.length <= sort_kernels::network_small_row_max) {
        sort_kernels::run_network<T, small_shape>(mem, lay, less, stream);
        return;
      }
    }
    sort_kernels::run_network<T>(mem, lay, less, stream);
  } else {
    // Equal keys are bit-identical in the default order: every sort of them is stable.
    constexpr bool default_order =
        is_default_order_v<T, Less> && (sizeof(T) == 4 || sizeof(T) == 8);
    if constexpr (default_order) {
      if (lay.segments == 1 && lay.length >= radix_sort_threshold) {
        sort_kernels::radix_sort(av, data, lay.length, std::is_same<Less, descending>::value,
                                 stream);
        return;
      }
    }
    constexpr bool stable = Kind == sort_kind::stable && !default_order;
    for (unsigned r = 0; r < lay.segments; ++r) {
      sort_kernels::merge_sort<T, stable>(av, data + r * lay.pitch, lay.length, less, stream);
    }
  }
}

// Sorts keys and carries values along (values[i] travels with keys[i]).
template <class K, class V, class Less>
void sort_pairs(const accelerator_view& av, K* keys, V* values, const bitonic::layout& lay,
                const Less& less) {
  const stream_t stream = prepare_launch(av.queue()).stream;
  using pair = bitonic::key_value<K, V>;
  sort_kernels::run_network<pair>(bitonic::pair_memory<K, V>{keys, values, lay}, lay,
                                  bitonic::by_key<Less>{less}, stream);
}

// ---- a GPU's side of the sort dispatch (algorithm/sort/dispatch.hpp) -------------------------

// Sorts `rows` rows of `length` elements (row r at data + r * pitch) in device memory; queued
// on the view's stream.
template <class T, class Less, sort_kind Kind>
event_ptr sort_rows(const device_target& on, T* data, unsigned length, unsigned rows,
                    std::size_t pitch, const Less& less, sort_kind_t<Kind> kind) {
  sort_rows(on.view, data, bitonic::make_layout(length, rows, pitch), less, kind);
  return on.view.queue().record();
}

// Sorts keys by `less`, carrying values along, in device memory.
template <class K, class V, class Less>
event_ptr sort_pairs(const device_target& on, K* keys, V* values, unsigned n, const Less& less) {
  if (n >= 2) sort_pairs(on.view, keys, values, bitonic::make_layout(n, 1, n), less);
  return on.view.queue().record();
}

}  // namespace hipamp::detail::gpu
