// The CPU device's side of tile_barrier::wait (tile_barrier.hpp): the call into the tile
// scheduler (fallback/src/tile_scheduler.cpp), fenced for the compiler.
#pragma once

#include <hipamp/detail/barrier_site.hpp>

namespace hipamp {
namespace fallback {
// Implemented by the CPU tile scheduler (fallback/src/tile_scheduler.cpp): suspends the
// calling work-item until every work-item of its tile has reached a barrier; throws
// barrier_divergence if they do not all reach this one (the one at file:line).
void tile_barrier_wait(const char* file, int line);

// On the CPU device all work-items of a tile run on one OS thread, so the three fences need
// no hardware fence: what they must stop is the compiler keeping tile_static or global
// values in registers across the switch. The call is opaque, and the asm clobbers make that
// explicit even for function-local statics whose address never escapes.
inline void tile_barrier_wait_with_compiler_fence(detail::barrier_site site) {
#if defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" ::: "memory");
  tile_barrier_wait(site.file, site.line);
  __asm__ __volatile__("" ::: "memory");
#else
  tile_barrier_wait(site.file, site.line);
#endif
}
}  // namespace fallback
}  // namespace hipamp
