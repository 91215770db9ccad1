// tile_barrier: every work-item of a tile waits until all have arrived. On a GPU this is
// the block barrier; on the CPU device it switches to the next fiber of the tile.
#pragma once

#include <hipamp/config.hpp>

namespace hipamp {
namespace fallback {
// Implemented by the CPU tile scheduler (fallback/src/tile_scheduler.cpp): suspends the
// calling work-item until every work-item of its tile has reached a barrier.
void tile_barrier_wait();

// On the CPU device all work-items of a tile run on one OS thread, so the three fences need
// no hardware fence: what they must stop is the compiler keeping tile_static or global
// values in registers across the switch. The call is opaque, and the asm clobbers make that
// explicit even for function-local statics whose address never escapes.
inline void tile_barrier_wait_with_compiler_fence() {
#if defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" ::: "memory");
  tile_barrier_wait();
  __asm__ __volatile__("" ::: "memory");
#else
  tile_barrier_wait();
#endif
}
}  // namespace fallback

class tile_barrier {
 public:
  HIPAMP_HOST_DEVICE void wait() const { wait_with_all_memory_fence(); }

  HIPAMP_HOST_DEVICE void wait_with_all_memory_fence() const {
#if HIPAMP_DEVICE_COMPILE
    __threadfence();
    __syncthreads();
#else
    fallback::tile_barrier_wait_with_compiler_fence();
#endif
  }
  HIPAMP_HOST_DEVICE void wait_with_global_memory_fence() const {
#if HIPAMP_DEVICE_COMPILE
    __threadfence();
    __syncthreads();
#else
    fallback::tile_barrier_wait_with_compiler_fence();
#endif
  }
  // __syncthreads already orders shared-memory accesses within the block.
  HIPAMP_HOST_DEVICE void wait_with_tile_static_memory_fence() const {
#if HIPAMP_DEVICE_COMPILE
    __syncthreads();
#else
    fallback::tile_barrier_wait_with_compiler_fence();
#endif
  }
};

}  // namespace hipamp
