// The GPU reduction: one pass over memory, one kernel.
//
// A persistent grid (as many blocks as the GPU holds at once, never more than there are
// tiles) walks the tiles grid-stride. A tile is `reduce_threads` x `reduce_vectors` 16-byte
// vectors; each thread loads its vectors (coalesced, all in flight at once), folds their
// elements as a tree in registers and pushes the result into its accumulator: a pairwise
// cascade for rounding operators, so the error bound stays O(log n) eps
// (algorithm/reduce/pairwise.hpp), a plain fold otherwise. Blocks combine their threads with warp
// shuffles and one shared slot per warp and write one partial each; the last block to finish (an
// atomic ticket) combines the partials and the few elements outside whole vectors, applies init and
// writes the result, on the device. Include only from GPU translation units.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <utility>

#include <hipamp/accelerator.hpp>
#include <hipamp/algorithm/reduce/pairwise.hpp>
#include <hipamp/backend/gpu/block_collectives.hpp>
#include <hipamp/backend/gpu/device_query.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/backend/gpu/scratch.hpp>
#include <hipamp/backend/gpu/tuning_reduce.hpp>
#include <hipamp/backend/gpu/warp_primitives.hpp>

namespace hipamp::detail::gpu {

template <class Acc, bool Pairwise>
using reduce_accumulator =
    std::conditional_t<Pairwise, pairwise_accumulator<Acc, reduce_cascade_levels>,
                       sequential_accumulator<Acc>>;

template <class Acc, class T>
struct reduce_args {
  const T* data;
  std::size_t head;        // elements before the first aligned vector
  std::size_t vectors;     // whole vectors after the head
  std::size_t tail;        // elements after the last whole vector (< Vec)
  std::size_t full_tiles;  // tiles of reduce_threads * reduce_vectors vectors
  Acc init;
  bool has_init;
  Acc* partials;          // one per block
  unsigned* has_partial;  // one per block
  unsigned* blocks_done;  // zero on entry, left zero
  Acc* result;
};

// Loads Vec consecutive elements; with VectorLoad as one 16-byte access (p 16-byte aligned).
template <int Vec, bool VectorLoad, class T>
__device__ __forceinline__ void load_elements(const T* p, T (&x)[Vec]) {
  if constexpr (VectorLoad) {
    static_assert(sizeof(T) * Vec == 16, "hipamp: a vector load moves 16 bytes");
    const uint4 raw = *reinterpret_cast<const uint4*>(p);
    __builtin_memcpy(x, &raw, 16);
  } else {
#pragma unroll
    for (int k = 0; k < Vec; ++k) x[k] = p[k];
  }
}

// The tree of leaf(x[k], first_index + k) over one loaded vector.
template <int Vec, class Acc, class T, class Leaf, class Op>
__device__ __forceinline__ Acc fold_vector(const T (&x)[Vec], std::size_t first_index,
                                           const Leaf& leaf, const Op& op) {
  Acc leaves[Vec];
#pragma unroll
  for (int k = 0; k < Vec; ++k) leaves[k] = leaf(x[k], first_index + k);
  pairwise_fold(leaves, op);
  return leaves[0];
}

template <int Vec, bool VectorLoad, bool Pairwise, class Acc, class T, class Leaf, class Op>
__global__ void __launch_bounds__(reduce_threads)
    reduce_kernel(const reduce_args<Acc, T> a, const Leaf leaf, const Op op) {
  constexpr std::size_t tile_vectors = std::size_t{reduce_threads} * reduce_vectors;
  const unsigned tid = threadIdx.x;
  const T* const vectors = a.data + a.head;
  reduce_accumulator<Acc, Pairwise> acc;

  for (std::size_t tile = blockIdx.x; tile < a.full_tiles; tile += gridDim.x) {
    const std::size_t first = tile * tile_vectors + tid;
    T x[reduce_vectors][Vec];
#pragma unroll
    for (int j = 0; j < reduce_vectors; ++j) {
      load_elements<Vec, VectorLoad>(vectors + (first + j * reduce_threads) * Vec, x[j]);
    }
    Acc sums[reduce_vectors];
#pragma unroll
    for (int j = 0; j < reduce_vectors; ++j) {
      sums[j] = fold_vector<Vec, Acc>(x[j], a.head + (first + j * reduce_threads) * Vec, leaf, op);
    }
    pairwise_fold(sums, op);
    acc.push(sums[0], op);
  }
  // The last, partial tile: its vectors go to threads in order, so whole vectors only.
  const std::size_t rest = a.vectors - a.full_tiles * tile_vectors;
  if (rest != 0 && blockIdx.x == a.full_tiles % gridDim.x) {
#pragma unroll
    for (int j = 0; j < reduce_vectors; ++j) {
      const std::size_t v = j * std::size_t{reduce_threads} + tid;
      if (v < rest) {
        const std::size_t at = a.full_tiles * tile_vectors + v;
        T x[Vec];
        load_elements<Vec, VectorLoad>(vectors + at * Vec, x);
        acc.push(fold_vector<Vec, Acc>(x, a.head + at * Vec, leaf, op), op);
      }
    }
  }

  __shared__ block_slots<Acc, reduce_threads> slots;
  __shared__ bool is_last_block;
  maybe<Acc> mine{Acc{}, !acc.empty()};
  if (mine.valid) mine.value = acc.total(op);
  const maybe<Acc> block_total = block_reduce<reduce_threads>(mine, op, slots);
  if (tid == 0) {
    if (block_total.valid) a.partials[blockIdx.x] = block_total.value;
    a.has_partial[blockIdx.x] = block_total.valid ? 1u : 0u;
    __threadfence();  // the partial is visible device-wide before the ticket is
    const unsigned done = atomicAdd(a.blocks_done, 1u);
    is_last_block = done == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return;

  // The last block: every other block's partial is published.
  __threadfence();
  reduce_accumulator<Acc, Pairwise> last;
  for (unsigned b = tid; b < gridDim.x; b += reduce_threads) {
    if (load_coherent(a.has_partial + b) != 0) last.push(load_coherent(a.partials + b), op);
  }
  if (tid < a.head) last.push(leaf(a.data[tid], tid), op);
  if (tid < a.tail) {
    const std::size_t at = a.head + a.vectors * Vec + tid;
    last.push(leaf(a.data[at], at), op);
  }
  __syncthreads();  // `slots` is reused
  maybe<Acc> final_mine{Acc{}, !last.empty()};
  if (final_mine.valid) final_mine.value = last.total(op);
  const maybe<Acc> total = block_reduce<reduce_threads>(final_mine, op, slots);
  if (tid == 0) {
    // total is valid: n > 0 elements were reduced.
    *a.result = a.has_init ? static_cast<Acc>(op(a.init, total.value)) : total.value;
    *a.blocks_done = 0;  // ready for the next reduction on this queue
  }
}

// A reduction enqueued on a queue whose result may still have to come back to the host.
// Holds the queue's scratch until then, so no later reduction overwrites the result slot.
template <class Acc>
class pending_reduction {
 public:
  pending_reduction(std::unique_lock<std::mutex> lock, queue_impl& queue, const Acc* slot)
      : lock_(std::move(lock)), queue_(&queue), slot_(slot) {}
  // Waits for the reduction and returns its result (for a reduction left on the host).
  Acc get() {
    Acc value{};
    queue_->copy_device_to_host(&value, slot_, sizeof(Acc));
    lock_.unlock();
    return value;
  }

 private:
  std::unique_lock<std::mutex> lock_;
  queue_impl* queue_;
  const Acc* slot_;
};

namespace reduce_detail {

inline std::size_t align_up(std::size_t bytes, std::size_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

template <int Vec, bool VectorLoad, bool Pairwise, class Acc, class T, class Leaf, class Op>
pending_reduction<Acc> launch(const accelerator_view& av, const T* data, std::size_t n,
                              std::size_t head, const Acc* init, const Leaf& leaf, const Op& op,
                              Acc* device_result) {
  const int ordinal = av.queue().device().properties().ordinal;
  current_device_guard guard(ordinal);
  algorithm_scratch& scratch = scratch_for(av);
  std::unique_lock<std::mutex> lock(scratch.mutex());

  constexpr std::size_t tile_vectors = std::size_t{reduce_threads} * reduce_vectors;
  reduce_args<Acc, T> a{};
  a.data = data;
  a.head = head;
  a.vectors = (n - head) / Vec;
  a.tail = n - head - a.vectors * Vec;
  a.full_tiles = a.vectors / tile_vectors;
  a.has_init = init != nullptr;
  if (init != nullptr) a.init = *init;
  const std::size_t tiles = a.full_tiles + (a.vectors % tile_vectors != 0 ? 1 : 0);

  auto* kernel = &reduce_kernel<Vec, VectorLoad, Pairwise, Acc, T, Leaf, Op>;
  const std::size_t resident =
      static_cast<std::size_t>(multiprocessor_count(ordinal)) *
      static_cast<std::size_t>(resident_blocks_per_multiprocessor(kernel, reduce_threads, ordinal));
  const std::size_t blocks = tiles == 0 ? 1 : (tiles < resident ? tiles : resident);

  // Workspace: partials | has_partial flags | the host-bound result.
  const std::size_t partials_bytes = align_up(blocks * sizeof(Acc), 256);
  const std::size_t flags_bytes = align_up(blocks * sizeof(unsigned), 256);
  auto* workspace = static_cast<unsigned char*>(
      scratch.workspace(partials_bytes + flags_bytes + align_up(sizeof(Acc), 256)));
  a.partials = reinterpret_cast<Acc*>(workspace);
  a.has_partial = reinterpret_cast<unsigned*>(workspace + partials_bytes);
  a.blocks_done = scratch.counter_word(algorithm_scratch::reduce_blocks_done);
  a.result = device_result != nullptr
                 ? device_result
                 : reinterpret_cast<Acc*>(workspace + partials_bytes + flags_bytes);

  kernel<<<static_cast<unsigned>(blocks), reduce_threads, 0, scratch.stream()>>>(a, leaf, op);
  HIPAMP_GPU_CHECK_LAUNCH("hipamp: reduce kernel");
  return pending_reduction<Acc>(std::move(lock), scratch.queue(), a.result);
}

}  // namespace reduce_detail

// Enqueues op(*init, reduction of leaf(data[i], i) for i < n) on av's queue, n > 0 (the
// reduction alone when init is null). The result goes to device_result, or, when that is
// null, to scratch memory that pending_reduction::get() reads back. data and device_result
// are device pointers.
template <bool Pairwise, class Acc, class T, class Leaf, class Op>
pending_reduction<Acc> reduce(const accelerator_view& av, const T* data, std::size_t n,
                              const Acc* init, const Leaf& leaf, const Op& op, Acc* device_result) {
  static_assert(
      std::is_trivially_copyable<Acc>::value && std::is_default_constructible<Acc>::value,
      "hipamp: GPU reductions need a trivially copyable, default constructible result type");
  if constexpr (16 % sizeof(T) == 0) {
    // 16-byte vectors once the address is aligned: peel the head element by element.
    const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(data) % 16;
    if (misalignment % sizeof(T) == 0) {
      const std::size_t head_wanted = (16 - misalignment) % 16 / sizeof(T);
      const std::size_t head = head_wanted < n ? head_wanted : n;
      return reduce_detail::launch<static_cast<int>(16 / sizeof(T)), true, Pairwise>(
          av, data, n, head, init, leaf, op, device_result);
    }
  }
  return reduce_detail::launch<1, false, Pairwise>(av, data, n, 0, init, leaf, op, device_result);
}

// ---- a GPU's side of the reduce dispatch (algorithm/reduce/dispatch.hpp) ---------------------

// The reduction of data[0, n) (n > 0, device memory), left in *device_result when that is given
// (the *_into forms, queued only), else read back into *value. The event is recorded before
// the read-back, so the views' later users wait for the kernel, not for the copy.
template <bool Pairwise, class Acc, class T, class Leaf, class Op>
event_ptr reduce_range(const device_target& on, std::bool_constant<Pairwise> /*pairwise*/,
                       const T* data, std::size_t n, const Acc* init, const Leaf& leaf,
                       const Op& op, Acc* device_result, Acc* value) {
  pending_reduction<Acc> pending =
      reduce<Pairwise>(on.view, data, n, init, leaf, op, device_result);
  event_ptr done = on.view.queue().record();
  if (device_result == nullptr) *value = pending.get();
  return done;
}

}  // namespace hipamp::detail::gpu
