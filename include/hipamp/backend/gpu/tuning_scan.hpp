// The GPU scan's tuning (backend/gpu/scan.hpp): the policy type and the default policy per
// value type, measured against CUB on an H100 (see the numbers below and
// benchmarks/results/h100_sweep_scan_policy_*). Kept apart from the kernels so a sweep or a
// new GPU changes this file only (CUB's tuning_*.cuh).
#pragma once

#include <cstddef>

namespace hipamp::detail::gpu {

// How a scan tile finds its place in the sequence. Every tile waits for its predecessors,
// so a tile may only be given to a block once all earlier tiles' blocks are running.
enum class tile_order {
  // A ticket from an atomic counter: safe under any block scheduling, but the block cannot
  // load its input until the ticket's round trip returns (about a microsecond per tile).
  ticket,
  // The block loads the tile blockIdx.x while its ticket is on its way, and reloads in the
  // rare case that the ticket names another tile: the ticket's safety at no latency.
  speculative_ticket,
};

// One tuning of the scan kernel: Threads per block, Items per thread, the blocks per
// multiprocessor the launch bounds ask for, how tiles are ordered, and how the look-back
// waits on large grids (see patient_scan_grid):
//  - PublishWaitNs: after publishing its aggregate, a tile sleeps this long before its first
//    look back. Its predecessors are rarely done sooner, and early polls only add traffic to
//    the lines they are about to write (CUB's "L2 write latency").
//  - PollNs: the sleep between two polls of a predecessor that has not published.
template <int Threads, int Items, int MinBlocks, tile_order Order, int PublishWaitNs, int PollNs>
struct scan_policy {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;
  static constexpr tile_order order = Order;
  static constexpr int publish_wait_ns = PublishWaitNs;
  static constexpr int poll_ns = PollNs;
  static constexpr std::size_t tile_items = std::size_t{Threads} * Items;
};

// Grids of fewer tiles than this are all resident at once: there the look-back's latency is
// the whole cost, so it polls without sleeping.
inline constexpr unsigned patient_scan_grid = 500;

// The default tuning. A tile waits on its predecessors, and while it waits it loads
// nothing, so bandwidth needs large tiles in flight: 32 items of 4 bytes a thread (128 KiB
// per multiprocessor at 4 blocks of 256). Measured on an H100 at 2^28 int32 elements, ratio
// to CUB: 256x16 0.80 without delays, 0.88 with CUB's; 256x32 with them 0.98 (the
// register-free look-back keeps 32 items from spilling). Wider values keep 64 bytes a
// thread: their tunings are not measured.
template <class Acc>
constexpr int scan_items() noexcept {
  return sizeof(Acc) <= 4    ? 32
         : sizeof(Acc) <= 8  ? 8
         : sizeof(Acc) <= 16 ? 4
         : sizeof(Acc) <= 32 ? 2
                             : 1;
}
// CUB's sm_90 delays for 4-byte scans: 1245 ns after publishing, 648 ns between polls.
inline constexpr int scan_publish_wait_ns = 1245;
inline constexpr int scan_poll_ns = 648;
// Values over 32 bytes run 128 threads a block, so that values up to 180 bytes fit the
// 48 KiB of static shared memory a block may hold.
template <class Acc>
using default_scan_policy =
    scan_policy<sizeof(Acc) <= 32 ? 256 : 128, scan_items<Acc>(), 4, tile_order::speculative_ticket,
                scan_publish_wait_ns, scan_poll_ns>;

}  // namespace hipamp::detail::gpu
