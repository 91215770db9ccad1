// The GPU scan: a single pass with decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", NVIDIA 2016), one kernel per scan.
//
// Each block takes a tile ticket from an atomic counter (so every tile it waits for belongs
// to a block that is already running); by default it loads the tile blockIdx.x while the
// ticket is in flight and reloads in the rare case that the ticket names another tile. The
// tile is loaded coalesced and transposed through shared memory so each thread owns `items`
// consecutive elements, scans them in registers and leaves them in shared memory, scans the
// thread totals across the block, and publishes the tile's aggregate. One warp then sleeps
// briefly and walks back over the predecessors' states, 32 (or 64) at a time, combining
// aggregates until it meets a tile that has published its inclusive prefix; the tile
// publishes its own inclusive prefix and writes its outputs, coalesced, from shared
// memory. Memory traffic is one read and one write per element. Tile states carry the
// scan's epoch, so no memset is needed between scans. Operators need not commute: every
// combination keeps sequence order. Include only from GPU translation units.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/backend/gpu/block_collectives.hpp>
#include <hipamp/backend/gpu/device_query.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/backend/gpu/scratch.hpp>
#include <hipamp/backend/gpu/tuning_scan.hpp>
#include <hipamp/backend/gpu/warp_primitives.hpp>

namespace hipamp::detail::gpu {

enum tile_status : unsigned { tile_invalid = 0, tile_aggregate = 1, tile_inclusive = 2 };

// Tile states for values of at most 4 bytes: status and value in one 64-bit word, written and
// read in one access, so a reader never sees a status without its value.
template <class Acc, bool Packed = (sizeof(Acc) <= 4)>
struct tile_states {
  unsigned long long* words;
  unsigned epoch;

  static std::size_t bytes(std::size_t tiles) { return tiles * sizeof(unsigned long long); }
  static constexpr unsigned layout = 1;
  static tile_states at(void* memory, std::size_t, unsigned epoch) {
    return {static_cast<unsigned long long*>(memory), epoch};
  }

  __device__ void publish(std::size_t tile, tile_status status, const Acc& value) const {
    unsigned bits = 0;
    __builtin_memcpy(&bits, &value, sizeof(Acc));
    const unsigned long long word =
        (static_cast<unsigned long long>((epoch << 2) | status) << 32) | bits;
    store_relaxed_device(words + tile, word);
  }
  // The tile's status in this scan (tile_invalid for a state left by an earlier scan).
  __device__ tile_status peek(std::size_t tile, Acc& value) const {
    const unsigned long long word = load_relaxed_device(words + tile);
    const unsigned status = static_cast<unsigned>(word >> 32);
    if ((status >> 2) != epoch) return tile_invalid;
    const unsigned bits = static_cast<unsigned>(word);
    __builtin_memcpy(&value, &bits, sizeof(Acc));
    return static_cast<tile_status>(status & 3u);
  }
};

// Wider values: status words and two value arrays (aggregates never change once published,
// so a reader that saw "aggregate" cannot read a half-overwritten value). The value is
// fenced before its status.
template <class Acc>
struct tile_states<Acc, false> {
  unsigned* status;
  Acc* aggregates;
  Acc* inclusives;
  unsigned epoch;

  static std::size_t values_offset(std::size_t tiles) {
    const std::size_t a = alignof(Acc) > 16 ? alignof(Acc) : 16;
    return (tiles * sizeof(unsigned) + a - 1) / a * a;
  }
  static std::size_t bytes(std::size_t tiles) {
    return values_offset(tiles) + 2 * tiles * sizeof(Acc);
  }
  static constexpr unsigned layout = 2 + static_cast<unsigned>(sizeof(Acc));
  static tile_states at(void* memory, std::size_t tiles, unsigned epoch) {
    auto* base = static_cast<unsigned char*>(memory);
    Acc* values = reinterpret_cast<Acc*>(base + values_offset(tiles));
    return {static_cast<unsigned*>(memory), values, values + tiles, epoch};
  }

  __device__ void publish(std::size_t tile, tile_status s, const Acc& value) const {
    (s == tile_inclusive ? inclusives : aggregates)[tile] = value;
    __threadfence();
    *reinterpret_cast<volatile unsigned*>(status + tile) = (epoch << 2) | s;
  }
  __device__ tile_status peek(std::size_t tile, Acc& value) const {
    const unsigned word = *reinterpret_cast<const volatile unsigned*>(status + tile);
    if ((word >> 2) != epoch) return tile_invalid;
    const auto s = static_cast<tile_status>(word & 3u);
    if (s == tile_invalid) return s;
    __threadfence();
    value = load_coherent((s == tile_inclusive ? inclusives : aggregates) + tile);
    return s;
  }
};

template <class Acc, class T, bool Exclusive>
struct scan_args {
  const T* in;  // may equal out (in-place): a tile reads all its input before writing
  Acc* out;
  std::size_t n;
  Acc init;  // exclusive scans only
  tile_states<Acc> states;
  unsigned* tickets;
  unsigned first_ticket;
};

// The combination of all tiles before `tile` (tile > 0), in order. Called by every lane of
// one warp; every lane gets the result.
template <class Acc, int PollNs, class States, class Op>
__device__ Acc look_back(const States& states, std::size_t tile, const Op& op, bool patient) {
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  Acc running{};
  bool have_running = false;
  // Lane l inspects tile (window - l): the nearest predecessors in the lowest lanes.
  long long window = static_cast<long long>(tile) - 1;
  for (;;) {
    const long long mine = window - lane;
    Acc value{};
    tile_status s = tile_inclusive;  // lanes past tile 0 never count: tile 0 is inclusive
    if (mine >= 0) {
      while ((s = states.peek(static_cast<std::size_t>(mine), value)) == tile_invalid) {
        if constexpr (PollNs > 0) {
          if (patient) spin_pause<PollNs>();
        }
      }
    }
    const lane_mask_t inclusive = ballot(s == tile_inclusive);
    const int last = inclusive != 0 ? lowest_lane(inclusive) : warp_size - 1;
    // Ordered fold of lanes [0, last]; a higher lane holds an earlier tile, so it goes left.
#pragma unroll
    for (int offset = 1; offset < warp_size; offset *= 2) {
      const Acc earlier = shuffle_down(value, static_cast<unsigned>(offset));
      if (lane + offset <= last) value = op(earlier, value);
    }
    const Acc window_total = shuffle_from(value, 0);
    running = have_running ? static_cast<Acc>(op(window_total, running)) : window_total;
    have_running = true;
    if (inclusive != 0) return running;
    window -= warp_size;
  }
}

// A thread's share of its tile in registers, striped: element k of lane `lane` is warp
// element k * warp_size + lane (coalesced accesses, transposed through shared memory).
template <class Policy, class Acc, class T>
__device__ __forceinline__ void scan_load(const T* in, std::size_t n, std::size_t tile_begin,
                                          bool full, Acc (&x)[Policy::items]) {
  constexpr int items = Policy::items;
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % warp_size;
  const std::size_t warp_begin = tile_begin + std::size_t(tid / warp_size) * warp_size * items;
  if (full) {
#pragma unroll
    for (int k = 0; k < items; ++k) x[k] = static_cast<Acc>(in[warp_begin + k * warp_size + lane]);
  } else {
    // Past the end: a copy of the tile's first element. Those positions come last in the
    // tile, so they only ever flow into other positions past the end, which are not stored.
    const Acc filler = static_cast<Acc>(in[tile_begin]);
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const std::size_t e = warp_begin + k * warp_size + lane;
      x[k] = e < n ? static_cast<Acc>(in[e]) : filler;
    }
  }
}

// The types of a scan block's shared variables, and their size. The tile holds one pad
// value after every 32 so that both the striped and the blocked accesses of a warp hit
// distinct banks. (Separate variables, not one struct: a struct changed the kernel's register
// allocation.)
template <class Policy, class Acc>
struct scan_shared {
  static constexpr int tile_values = Policy::threads * Policy::items;
  using exchange = shared_array<Acc, tile_values + tile_values / 32>;
  using thread_prefixes = shared_array<Acc, Policy::threads>;
  using slots = block_slots<Acc, Policy::threads>;
  using tile_prefix = shared_array<Acc, 1>;
  static constexpr std::size_t bytes = sizeof(exchange) + sizeof(thread_prefixes) + sizeof(slots) +
                                       sizeof(tile_prefix) + sizeof(unsigned);
};

template <class Policy, bool Exclusive, class Acc, class T, class Op>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    scan_kernel(const scan_args<Acc, T, Exclusive> a, const Op op) {
  constexpr int threads = Policy::threads;
  constexpr int items = Policy::items;
  constexpr std::size_t tile_items = Policy::tile_items;
  constexpr int warp_items = warp_size * items;
  using shared = scan_shared<Policy, Acc>;
  __shared__ typename shared::exchange exchange_storage;
  __shared__ typename shared::thread_prefixes thread_prefix;
  __shared__ typename shared::slots slots;
  __shared__ unsigned tile_ticket;
  __shared__ typename shared::tile_prefix tile_prefix_storage;

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % warp_size;
  const int warp = tid / warp_size;
  const auto tile_size_of = [&](std::size_t tile) {
    const std::size_t begin = tile * tile_items;
    return a.n - begin < tile_items ? a.n - begin : tile_items;
  };

  if (tid == 0) tile_ticket = atomicAdd(a.tickets, 1u) - a.first_ticket;
  Acc x[items];
  std::size_t tile;
  if constexpr (Policy::order == tile_order::speculative_ticket) {
    const std::size_t guess = blockIdx.x;
    scan_load<Policy>(a.in, a.n, guess * tile_items, tile_size_of(guess) == tile_items, x);
    __syncthreads();
    tile = tile_ticket;
    if (tile != guess) {
      scan_load<Policy>(a.in, a.n, tile * tile_items, tile_size_of(tile) == tile_items, x);
    }
  } else {
    __syncthreads();
    tile = tile_ticket;
    scan_load<Policy>(a.in, a.n, tile * tile_items, tile_size_of(tile) == tile_items, x);
  }

  // Striped registers -> blocked registers; each thread scans its `items` consecutive
  // elements and leaves the partial sums in shared memory, so that no registers are held
  // through the block scan and the look-back (with them held, 24 items spill at 64
  // registers).
  Acc* const exchange = exchange_storage.data() + warp * (warp_items + warp_items / 32);
  const auto pad = [](int e) { return e + e / 32; };
#pragma unroll
  for (int k = 0; k < items; ++k) exchange[pad(k * warp_size + lane)] = x[k];
  sync_warp();
#pragma unroll
  for (int k = 0; k < items; ++k) x[k] = exchange[pad(lane * items + k)];
#pragma unroll
  for (int k = 1; k < items; ++k) x[k] = op(x[k - 1], x[k]);
#pragma unroll
  for (int k = 0; k < items; ++k) exchange[pad(lane * items + k)] = x[k];
  Acc block_total;
  maybe<Acc> before = block_exclusive_scan<threads>(x[items - 1], op, slots, block_total);

  // The combination of everything before this tile (init for tile 0 of an exclusive scan).
  maybe<Acc> tile_prefix{a.init, Exclusive};
  if (tile == 0) {
    if (tid == 0) {
      a.states.publish(0, tile_inclusive,
                       Exclusive ? static_cast<Acc>(op(a.init, block_total)) : block_total);
    }
  } else {
    if (warp == 0) {
      if (lane == 0) a.states.publish(tile, tile_aggregate, block_total);
      const bool patient = gridDim.x >= patient_scan_grid;
      if constexpr (Policy::publish_wait_ns > 0) {
        if (patient) spin_pause<Policy::publish_wait_ns>();
      }
      const Acc prefix = look_back<Acc, Policy::poll_ns>(a.states, tile, op, patient);
      if (lane == 0) {
        a.states.publish(tile, tile_inclusive, static_cast<Acc>(op(prefix, block_total)));
        tile_prefix_storage[0] = prefix;
      }
    }
    __syncthreads();
    tile_prefix = {tile_prefix_storage[0], true};
  }
  if (tile_prefix.valid) {
    before.value =
        before.valid ? static_cast<Acc>(op(tile_prefix.value, before.value)) : tile_prefix.value;
    before.valid = true;
  }
  // Only the scan's very first thread has nothing before it (inclusive scans).
  thread_prefix[tid] = before.value;
  sync_warp();

  // Out striped (coalesced): warp element e is item e % items of lane e / items, whose
  // prefix comes first.
  const std::size_t tile_begin = tile * tile_items;
  const std::size_t tile_size = tile_size_of(tile);
  const bool full = tile_size == tile_items;
  const std::size_t warp_begin = std::size_t(warp) * warp_items;  // in the tile
  const Acc* const prefixes = thread_prefix.data() + warp * warp_size;
  const bool first_warp_of_scan = !Exclusive && tile == 0 && warp == 0;
  Acc* const out = a.out + tile_begin + warp_begin;
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int e = k * warp_size + lane;
    const int owner = e / items;
    Acc v;
    if constexpr (Exclusive) {
      v = e % items == 0 ? prefixes[owner]
                         : static_cast<Acc>(op(prefixes[owner], exchange[pad(e - 1)]));
    } else {
      v = exchange[pad(e)];
      if (!(first_warp_of_scan && owner == 0)) v = op(prefixes[owner], v);
    }
    if (full || warp_begin + e < tile_size) out[e] = v;
  }
}

namespace scan_detail {

template <class Policy, bool Exclusive, class Acc, class T, class Op>
void launch(const accelerator_view& av, const T* in, Acc* out, std::size_t n, const Acc& init,
            const Op& op) {
  static_assert(std::is_trivially_copyable<Acc>::value && std::is_default_constructible<Acc>::value,
                "hipamp: GPU scans need a trivially copyable, default constructible value type");
  static_assert(
      scan_shared<Policy, Acc>::bytes <= 48 * 1024 - 64,
      "hipamp: this scan's value type is too large for a GPU scan tile (values up to about "
      "180 bytes fit); scan indices or smaller values instead");
  if (n == 0) return;
  const int ordinal = av.queue().device().properties().ordinal;
  current_device_guard guard(ordinal);
  algorithm_scratch& scratch = scratch_for(av);
  std::lock_guard<std::mutex> lock(scratch.mutex());

  const std::size_t tiles = (n + Policy::tile_items - 1) / Policy::tile_items;
  if (tiles > 0x7fffffffu) {
    throw runtime_exception("hipamp: a GPU scan of " + std::to_string(n) +
                            " elements needs more tiles than one launch holds");
  }
  using states_t = tile_states<Acc>;
  const algorithm_scratch::scan_plan plan =
      scratch.begin_scan(tiles, states_t::bytes(tiles), states_t::layout);

  scan_args<Acc, T, Exclusive> a{};
  a.in = in;
  a.out = out;
  a.n = n;
  a.init = init;
  a.states = states_t::at(plan.tile_states, tiles, plan.epoch);
  a.tickets = scratch.counter_word(algorithm_scratch::scan_tickets);
  a.first_ticket = plan.first_ticket;
  scan_kernel<Policy, Exclusive, Acc, T, Op>
      <<<static_cast<unsigned>(tiles), Policy::threads, 0, scratch.stream()>>>(a, op);
  HIPAMP_GPU_CHECK_LAUNCH("hipamp: scan kernel");
}

}  // namespace scan_detail

// Enqueues out[i] = in[0] op ... op in[i] on av's queue (device pointers; in may equal out).
template <class Acc, class T, class Op>
void inclusive_scan(const accelerator_view& av, const T* in, Acc* out, std::size_t n,
                    const Op& op) {
  scan_detail::launch<default_scan_policy<Acc>, false>(av, in, out, n, Acc{}, op);
}

// Enqueues out[i] = init op in[0] op ... op in[i-1] on av's queue.
template <class Acc, class T, class Op>
void exclusive_scan(const accelerator_view& av, const T* in, Acc* out, std::size_t n,
                    const Acc& init, const Op& op) {
  scan_detail::launch<default_scan_policy<Acc>, true>(av, in, out, n, init, op);
}

// ---- a GPU's side of the scan dispatch (algorithm/scan/dispatch.hpp) -------------------------

// An inclusive (Exclusive = false; init unused) or exclusive scan of in[0, n) into out (device
// memory; in may equal out), queued on the view's stream.
template <bool Exclusive, class Acc, class T, class Op>
event_ptr scan_range(const device_target& on, std::bool_constant<Exclusive> /*exclusive*/,
                     const T* in, Acc* out, std::size_t n, const Acc& init, const Op& op) {
  scan_detail::launch<default_scan_policy<Acc>, Exclusive>(on.view, in, out, n, init, op);
  return on.view.queue().record();
}

}  // namespace hipamp::detail::gpu
