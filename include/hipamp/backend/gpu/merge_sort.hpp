// The GPU sort above the tile: merge passes that read and write every element once, in the HIP
// kernel language (CUDA under nvcc). Tiles are sorted first by the bitonic tile kernel
// (sort.hpp); each pass then merges pairs of sorted runs into runs twice as long, until one
// run holds everything. ceil(log2(n / tile)) passes instead of the network's ~log2(n)^2 / 2K
// global rounds, and an odd n costs what its size costs: blocks cover the real elements only.
//
// merge_kernel, one block per `per_block` outputs of one pair of runs (merge path, see
// algorithm/sort/merge_path.hpp):
//  1. The block finds where the path crosses its first and last diagonal: half of its threads
//     search each, probing `threads / 2` points of the range per step (a 128-ary search,
//     four dependent global loads at 2^25 where a binary search makes 25). On grids of many
//     waves those loads' latency is paid again by every wave; there merge_partition_kernel
//     finds every block's first split beforehand (a group of 32, 8 or 2 lanes each, fewer as
//     the pass has more blocks: tuning_sort.hpp) and the blocks read theirs. It searches the
//     first and last keys of the input's chunks (run_samples: each block of the kernel before
//     wrote its own) before the data, so that only one chunk of the data is searched.
//  2. It loads its share of both runs (coalesced) into shared memory.
//  3. Each thread finds its own split there by a binary search and merges `items` outputs
//     sequentially into registers (ties take the left run: stable).
//  4. The outputs go back through shared memory (padded against bank conflicts) and out in
//     coalesced stores.
//
// The sort's kernels are launched chained (vendor::launch_chained: programmatic dependent
// launch on sm_90): each releases the next kernel's launch (release_next_grid) once its loads
// are issued (the partition kernel, which is short, at once), so the next kernel's blocks are
// placed while this one's last wave runs, and waits for the kernel before it
// (wait_for_prior_grid) before its first global access. Every kernel of the chain
// waits, unconditionally and in every thread, which is what orders the whole chain. On the
// H100 (sort_pass_profile s18c, 6ba8e2a, stable u32, us plain / chained): 2^22 248.3 / 235.8,
// 2^24 958.2 / 919.4, 2^26 3780 / 3743, 10^7 623.1 / 583.5: about 1.5 us a kernel boundary.
//
// Include only from GPU translation units (through sort.hpp).
#pragma once

#include <cstddef>
#include <type_traits>

#include <hipamp/algorithm/sort/bitonic_network.hpp>
#include <hipamp/algorithm/sort/merge_path.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/backend/gpu/tuning_sort.hpp>
#include <hipamp/backend/gpu/warp_primitives.hpp>

namespace hipamp::detail::gpu::sort_kernels {

// How a block's thread-major accesses (thread t's items at t * items + k) avoid bank conflicts:
// one pad slot per 32 when `items` is even (threads 2 apart would meet on a bank); none when
// it is odd (t * items + k then meets a bank once per 32 threads), which saves the pad's
// arithmetic on every data-dependent read of a merge.
template <class Policy>
inline constexpr int merge_pad_shift = Policy::items % 2 == 1 ? -1 : 5;
// Slot of position i with one pad per 2^Shift positions (Shift < 0: none).
template <int Shift>
HIPAMP_HOST_DEVICE constexpr unsigned merge_slot(unsigned i) noexcept {
  if constexpr (Shift < 0) {
    return i;
  } else {
    return bitonic::padded(i, Shift);
  }
}

template <class E, class Policy>
struct merge_shared {
  // Slots for the merge (per_block, one more that reads past the last element may touch) and
  // for the padded staging of the outputs (one pad slot per 32).
  static constexpr unsigned slots = bitonic::padded(Policy::per_block, 5) + 1;
  // A struct rather than an aligned array: the alignment then goes with the type, which every
  // compiler (and the kernel emulator's static shared storage) accepts.
  struct alignas(alignof(E) > 16 ? alignof(E) : 16) storage {
    unsigned char bytes[slots * sizeof(E)];
  };
};

// A run of a shared-memory tile kept in padded slots (one pad per 32, as the staging above),
// read by position from `offset`; positions past the tile read its last slot (never used).
template <class E, unsigned PerBlock, int Shift = 5>
struct shared_run {
  const E* keys;
  unsigned offset;
  HIPAMP_HOST_DEVICE E operator[](unsigned i) const {
    const unsigned p = offset + i;
    return keys[merge_slot<Shift>(p < PerBlock ? p : PerBlock)];
  }
};

// The first and last key of every chunk of `chunk` elements (a merge block's outputs) of the
// runs a kernel writes, for the next pass's merge_partition_kernel: chunk c of run r (c from 0,
// each run cut from its start) is entry r * ceil(run / chunk) + c. The partition then finds a
// block's split among the samples first (a few kilobytes, in L2) and searches only one chunk
// of the data (tuning_sort.hpp, merge_sampled_partition_lanes, says what it saved).
template <class E>
struct run_samples {
  E* first = nullptr;  // nullptr: no samples kept
  E* last = nullptr;
};

// The block sort by merging (stable; the tile of the stable sorts, and of the others where the
// policy says so): each thread sorts `items` consecutive elements in registers by odd-even
// transposition (adjacent exchanges only when strictly out of order: stable), then
// log2(threads) rounds merge pairs of runs in shared memory by merge path, ties from the left.
// A tile's missing tail (the last tile of an odd size) is never compared: each thread knows
// how many of its elements exist, and every run is clipped to the tile's count.
template <class E, class Policy, class Less>
__global__ void __launch_bounds__((Policy::threads), (Policy::min_blocks))
    block_merge_sort_kernel(const E* in, E* out, unsigned n, run_samples<E> samples, unsigned chunk,
                            Less less) {
  constexpr unsigned threads = Policy::threads;
  constexpr int items = Policy::items;
  constexpr unsigned per_block = Policy::per_block;
  constexpr int pad = merge_pad_shift<Policy>;
  __shared__ typename merge_shared<E, Policy>::storage block_storage;
  E* keys = reinterpret_cast<E*>(block_storage.bytes);
  const std::size_t start = static_cast<std::size_t>(blockIdx.x) * per_block;
  const unsigned count = n - start < per_block ? static_cast<unsigned>(n - start) : per_block;
  const unsigned tid = threadIdx.x;
  wait_for_prior_grid();
  {
    E v[items];
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const unsigned i = tid + r * threads;
      if (i < count) v[r] = in[start + i];
    }
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const unsigned i = tid + r * threads;
      if (i < count) keys[merge_slot<pad>(i)] = v[r];
    }
  }
  __syncthreads();
  release_next_grid();
  const unsigned first = tid * items;
  const unsigned valid = first >= count ? 0u : count - first < items ? count - first : items;
  E x[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (static_cast<unsigned>(k) < valid) x[k] = keys[merge_slot<pad>(first + k)];
  }
  // Threads whose items all exist (all but the last of a partial tile) exchange unchecked.
  const auto transpose = [&x, valid, &less](auto whole) {
    constexpr bool all_exist = decltype(whole)::value;
#pragma unroll
    for (int phase = 0; phase < items; ++phase) {
#pragma unroll
      for (int j = phase & 1; j + 1 < items; j += 2) {
        if (all_exist || static_cast<unsigned>(j + 1) < valid) {
          bitonic::compare_exchange(x[j], x[j + 1], less);
        }
      }
    }
  };
  if (valid == static_cast<unsigned>(items)) {
    transpose(std::true_type{});
  } else {
    transpose(std::false_type{});
  }
  // Round by round, groups of `group` threads merge two runs of group / 2 threads' items: a
  // group's first position and a thread's place in it by masks (threads is a power of two),
  // where dividing by the run's length (items need not be a power of 2) cost a division a round.
  static_assert((threads & (threads - 1)) == 0,
                "hipamp: the block merge sort's threads are a power of two");
  for (unsigned group = 2; group <= threads; group *= 2) {
    const unsigned width = group / 2 * items;
    __syncthreads();  // the previous round's reads are done
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (static_cast<unsigned>(k) < valid) keys[merge_slot<pad>(first + k)] = x[k];
    }
    __syncthreads();
    if (valid == 0) continue;
    const unsigned pair = (tid & ~(group - 1)) * items;
    const unsigned left = count - pair;
    const unsigned a_count = left < width ? left : width;
    const unsigned b_count = left - a_count < width ? left - a_count : width;
    const shared_run<E, per_block, pad> a{keys, pair};
    const shared_run<E, per_block, pad> b{keys, pair + width};
    const unsigned diag = (tid & (group - 1)) * items;
    const unsigned split = merge::merge_path(a, a_count, b, b_count, diag, less);
    unsigned ai = split;
    unsigned bi = diag - split;
    E xa = a[ai];
    E xb = b[bi];
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const bool take_a = bi >= b_count || (ai < a_count && !less(xb, xa));
      x[k] = take_a ? xa : xb;
      if (take_a) {
        ++ai;
        xa = a[ai];
      } else {
        ++bi;
        xb = b[bi];
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (static_cast<unsigned>(k) < valid) keys[merge_slot<pad>(first + k)] = x[k];
  }
  __syncthreads();
  if (samples.first != nullptr) {
    // The tile is one run: its chunks' first and last keys.
    const unsigned chunks = (per_block + chunk - 1) / chunk;
    if (tid < chunks && tid * chunk < count) {
      const unsigned end = (tid + 1) * chunk < count ? (tid + 1) * chunk : count;
      const std::size_t c = static_cast<std::size_t>(blockIdx.x) * chunks + tid;
      samples.first[c] = keys[merge_slot<pad>(tid * chunk)];
      samples.last[c] = keys[merge_slot<pad>(end - 1)];
    }
  }
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const unsigned i = tid + r * threads;
    if (i < count) out[start + i] = keys[merge_slot<pad>(i)];
  }
}

// The split of every merge block's first diagonal, `Lanes` lanes per block (a divisor of the
// warp size): each step probes Lanes points of the range and a ballot finds where the
// predicate turns false. Every probe of a wide range lands on its own sector of device
// memory, so wide groups multiply the bytes a pass's search reads (tuning_sort.hpp's
// merge_partition_lanes says what that cost).
// With `samples` (the first and last key of every chunk of per_block elements of the input
// runs, run_chunks chunks a run: run_samples) the search first finds the chunk of A where the
// path crosses the diagonal among the samples: at split i = t * per_block the path's test
// compares A[t * per_block], a chunk's first key, with B[d - 1 - i], the last key of a chunk of
// B, since d is a multiple of per_block too. Only that chunk of the data is searched then.

// The first position of [lo, hi) where `before` (true on a prefix) is false, searched by a
// group of `lanes` lanes of a warp (first_lane: the group's first lane); every lane of the warp
// calls it (ballots), with its own range (empty for lanes whose group has none).
template <unsigned lanes, class Before>
__device__ HIPAMP_ALWAYS_INLINE inline unsigned group_search(unsigned lo, unsigned hi,
                                                             unsigned lane, unsigned first_lane,
                                                             const Before& before_at) {
  constexpr lane_mask_t group_mask =
      lanes >= sizeof(lane_mask_t) * 8 ? ~lane_mask_t(0) : (lane_mask_t(1) << lanes) - 1u;
  while (ballot(lo < hi) != 0) {
    const unsigned span = hi - lo;
    const unsigned probes = span < lanes ? span : lanes;
    const auto probe = [&](unsigned j) {
      return span <= lanes ? lo + j
                           : lo + static_cast<unsigned>(static_cast<unsigned long long>(span) *
                                                        (j + 1) / (lanes + 1));
    };
    const bool before = lane < probes && before_at(probe(lane));
    // The predicate holds on a prefix of the probes: its length is the first lane without it.
    const lane_mask_t inverse = ~(ballot(before) >> first_lane) & group_mask;
    const unsigned count = inverse == 0 ? lanes : static_cast<unsigned>(lowest_lane(inverse));
    if (lo < hi) {
      const unsigned new_lo = count > 0 ? probe(count - 1) + 1 : lo;
      hi = count < probes ? probe(count) : hi;
      lo = new_lo;
    }
  }
  return lo;
}

template <int Lanes, class E, class Less>
__global__ void merge_partition_kernel(const E* in, unsigned n, merge::pass_shape pass,
                                       unsigned per_block, unsigned* splits,
                                       run_samples<const E> samples, unsigned run_chunks,
                                       Less less) {
  static_assert(Lanes >= 1 && warp_size_min % Lanes == 0,
                "hipamp: a merge partition group is a divisor of the warp");
  constexpr unsigned lanes = static_cast<unsigned>(Lanes);
  const unsigned long long thread =
      static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned block = static_cast<unsigned>(thread / lanes);
  const unsigned lane = static_cast<unsigned>(thread % lanes);
  // The group's bits in the warp's ballot.
  const unsigned first_lane = threadIdx.x % static_cast<unsigned>(warp_size) / lanes * lanes;
  // Groups past the last block stay in the searches (whole warps take part in every ballot)
  // with an empty range.
  const bool active = block < pass.blocks;
  merge::block_span s{};
  unsigned lo = 0, hi = 0;
  if (active) {
    s = merge::span_of(n, pass, per_block, block);
    lo = s.d_first > s.b_count ? s.d_first - s.b_count : 0u;
    hi = s.d_first < s.a_count ? s.d_first : s.a_count;
  }
  const E* a = in + s.start;
  const E* b = a + s.a_count;
  const unsigned diag = s.d_first;
  // The merge pass after this one may be placed at once: it waits for this kernel's end.
  release_next_grid();
  wait_for_prior_grid();
  if (samples.first != nullptr) {
    // Chunks t of A with t * per_block in [lo, hi); B's chunk before diagonal d - t * per_block
    // is chunk diag / per_block - 1 - t of B (whole: lo >= diag - b_count).
    const unsigned t_lo = (lo + per_block - 1) / per_block;
    const unsigned t_hi = (hi + per_block - 1) / per_block;
    const std::size_t pair = active ? block / pass.blocks_per_pair : 0u;
    const std::size_t a_chunk = 2u * pair * run_chunks;
    const std::size_t b_end = (2u * pair + 1u) * run_chunks + diag / per_block;
    const unsigned t = group_search<lanes>(t_lo, t_hi, lane, first_lane, [&](unsigned c) {
      return !less(samples.last[b_end - 1u - c], samples.first[a_chunk + c]);
    });
    // The path is past chunk t - 1's first key and not past chunk t's.
    if (t > t_lo) lo = (t - 1u) * per_block + 1u;
    if (t < t_hi) hi = t * per_block;
  }
  lo = group_search<lanes>(lo, hi, lane, first_lane,
                           [&](unsigned i) { return merge::before_path(a, b, diag, i, less); });
  if (active && lane == 0) splits[block] = lo;
}

// One merge pass: runs of pass.width in `in` merged in pairs into `out` (in != out).
template <class E, class Policy, class Less>
__global__ void __launch_bounds__((Policy::threads), (Policy::min_blocks))
    merge_kernel(const E* in, E* out, unsigned n, merge::pass_shape pass, const unsigned* splits,
                 run_samples<E> samples, Less less) {
  constexpr unsigned threads = Policy::threads;
  constexpr int items = Policy::items;
  constexpr unsigned per_block = Policy::per_block;
  constexpr unsigned half = threads / 2;
  constexpr int pad = merge_pad_shift<Policy>;
  __shared__ typename merge_shared<E, Policy>::storage merge_storage;
  __shared__ unsigned split_bounds[2][2];  // [first/last diagonal][lo, hi]
  __shared__ unsigned char split_flags[2][half];

  const merge::block_span s = merge::span_of(n, pass, per_block, blockIdx.x);
  const E* a = in + s.start;
  const E* b = a + s.a_count;
  const unsigned tid = threadIdx.x;
  wait_for_prior_grid();

  // 1. The block's two splits: from merge_partition_kernel, or searched here, each by half of
  // the threads. Every step probes up to `half` points of [lo, hi) at once; the predicate is
  // true on a prefix of them, and the probes on either side of the change bound the next
  // range. Each thread tests both ranges' state after the barrier, so all leave together.
  if (splits != nullptr) {
    if (tid < 2) {
      const unsigned next = blockIdx.x + 1;
      // The last block of a pair ends at the pair's end: all of A taken.
      const bool same_pair = next < pass.blocks && next % pass.blocks_per_pair != 0;
      split_bounds[tid][0] = tid == 0 ? splits[blockIdx.x] : same_pair ? splits[next] : s.a_count;
    }
    __syncthreads();
  } else {
    const unsigned which = tid < half ? 0u : 1u;
    const unsigned j = tid - which * half;
    const unsigned diag = which == 0 ? s.d_first : s.d_last;
    if (j == 0) {
      split_bounds[which][0] = diag > s.b_count ? diag - s.b_count : 0u;
      split_bounds[which][1] = diag < s.a_count ? diag : s.a_count;
    }
    for (;;) {
      __syncthreads();
      if (split_bounds[0][0] >= split_bounds[0][1] && split_bounds[1][0] >= split_bounds[1][1])
        break;
      const unsigned lo = split_bounds[which][0];
      const unsigned span = split_bounds[which][1] - lo;
      const unsigned probes = span < half ? span : half;
      bool before = false;
      unsigned mid = 0;
      if (j < probes) {
        mid = span <= half ? lo + j
                           : lo + static_cast<unsigned>(static_cast<unsigned long long>(span) *
                                                        (j + 1) / (half + 1));
        before = merge::before_path(a, b, diag, mid, less);
      }
      split_flags[which][j] = before;
      __syncthreads();
      if (j < probes) {
        if (before && (j + 1 == probes || !split_flags[which][j + 1]))
          split_bounds[which][0] = mid + 1;
        if (!before && (j == 0 || split_flags[which][j - 1])) split_bounds[which][1] = mid;
      }
    }
  }
  const unsigned a_first = split_bounds[0][0];
  const unsigned a_count = split_bounds[1][0] - a_first;
  const unsigned b_first = s.d_first - a_first;
  const unsigned total = s.d_last - s.d_first;
  E* keys = reinterpret_cast<E*>(merge_storage.bytes);

  // 2. The block's share of A, then of B, side by side in shared memory; all loads issued
  // before the first store.
  {
    E v[items];
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const unsigned i = tid + r * threads;
      if (i < total) v[r] = i < a_count ? a[a_first + i] : b[b_first + (i - a_count)];
    }
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const unsigned i = tid + r * threads;
      if (i < total) keys[i] = v[r];
    }
  }
  __syncthreads();
  release_next_grid();

  // 3. This thread's outputs [first, first + items) of the block's share.
  E x[items];
  {
    const unsigned first = tid * items < total ? tid * items : total;
    const unsigned split =
        merge::merge_path(keys, a_count, keys + a_count, total - a_count, first, less);
    unsigned ai = split;
    unsigned bi = a_count + (first - split);
    // Reads past a run's end (clamped inside the buffer) are never compared or kept.
    E xa = keys[ai < per_block ? ai : per_block];
    E xb = keys[bi < per_block ? bi : per_block];
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const bool take_a = bi >= total || (ai < a_count && !less(xb, xa));
      x[k] = take_a ? xa : xb;
      if (take_a) {
        ++ai;
        xa = keys[ai < per_block ? ai : per_block];
      } else {
        ++bi;
        xb = keys[bi < per_block ? bi : per_block];
      }
    }
  }
  __syncthreads();

  // 4. Outputs to shared memory in thread order, then out in coalesced stores. (Stores by each
  // warp over its own slots after a warp barrier, CUB's BLOCK_STORE_WARP_TRANSPOSE, cost a
  // quarter more per pass on the H100: sort_pass_profile s18c at 88cb806, stable u32 2^24 1147.5
  // against 920.4 us, chained; nvcc spilled three registers at the 48 of min_blocks 5.)
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const unsigned i = tid * items + k;
    if (i < total) keys[merge_slot<pad>(i)] = x[k];
  }
  __syncthreads();
  // The block's outputs are chunk blockIdx.x of the next pass's runs (run_samples).
  if (samples.first != nullptr && tid < 2 && total > 0) {
    (tid == 0 ? samples.first : samples.last)[blockIdx.x] =
        keys[merge_slot<pad>(tid == 0 ? 0u : total - 1u)];
  }
  E* o = out + s.start + s.d_first;
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const unsigned i = tid + r * threads;
    if (i < total) o[i] = keys[merge_slot<pad>(i)];
  }
}

}  // namespace hipamp::detail::gpu::sort_kernels
