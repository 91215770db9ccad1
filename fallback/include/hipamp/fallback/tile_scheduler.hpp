// The CPU device's tile scheduler: runs the work-items of one tile on the calling OS thread,
// as fibers that switch at tile_barrier::wait.
//
// Invariants (HIPAMP_TILE_STATIC is `static thread_local` on the host and relies on them):
//  - every work-item of a tile runs on the same OS thread: fibers never migrate;
//  - a thread runs one tile at a time: a tile finishes (all its fibers return) before the
//    thread starts the next one, and a tile cannot start while another runs on the thread.
// So one thread_local copy per variable is exactly one copy per running tile.
//
// Cost model: work-item 0 runs directly on the thread's stack. Only if it reaches a barrier
// does the tile switch to fibers (work-items 1..n-1 run on fibers made once per thread and
// parked between tiles, item 0 keeps the thread's stack). A tile whose work-item 0 never waits runs
// items 1..n-1 as a plain loop in the caller (tiled_executor.hpp), which the compiler may
// vectorize: barrier-free tiled kernels pay no fiber at all. C++ AMP requires every work-item of a
// tile to reach the same barriers, so item 0 decides for the tile; a tile that breaks that rule
// gets a barrier_divergence exception rather than a hang: work-items that return while others wait,
// wait a different number of times, or wait at different tile_barrier::wait calls (told
// apart by their source line). The message names the tile, the barrier (its number in the
// tile and its file:line) and the work-items on either side.
#pragma once

#include <cstddef>

namespace hipamp::fallback {

// One tile, type-erased: run_item(context, l) runs the work-item with row-major local
// linear index l.
struct tile_job {
  void (*run_item)(const void* context, int local_linear);
  const void* context;
  int item_count;      // 1..1024
  int rank;            // for messages
  int tile_index[3];   // for messages
  int tile_extent[3];  // for messages: local indices from local linear ones
};

// Claims the calling thread for running tiles (one at a time) while it lives.
class tile_session {
 public:
  // Throws runtime_exception if this thread is already running a tile (a parallel_for_each
  // called from inside a kernel).
  tile_session();
  ~tile_session();
  tile_session(const tile_session&) = delete;
  tile_session& operator=(const tile_session&) = delete;

  // Runs work-item 0 of `job`. If it reaches a barrier, the whole tile runs (as fibers)
  // before this returns true. Otherwise returns false, and the caller runs work-items
  // 1..n-1 directly; a barrier one of them reaches throws barrier_divergence at once (work-
  // item 0 returned without it). Rethrows the first exception a work-item raised, after
  // unwinding every other work-item of the tile.
  bool run_first_item(const tile_job& job);
};

// Implemented here for tile_barrier (tile_barrier.hpp): suspends the calling work-item
// until every work-item of its tile has reached a barrier.
// NOLINTNEXTLINE(readability-redundant-declaration): also in tile_barrier.hpp
void tile_barrier_wait(const char* file, int line);

// Bytes of stack each fiber gets (HIPAMP_FIBER_STACK_KIB, default 64 KiB; 256 KiB under
// AddressSanitizer), below a guard page that faults on overflow.
std::size_t fiber_stack_bytes() noexcept;

}  // namespace hipamp::fallback
