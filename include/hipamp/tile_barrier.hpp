// tile_barrier: every work-item of a tile waits until all have arrived. On a GPU this is
// the block barrier; on the CPU device it switches to the next fiber of the tile.
#pragma once

#include <hipamp/config.hpp>

namespace hipamp {
namespace fallback {
// Implemented by the CPU tile scheduler (fallback/): suspends the calling work-item until
// every work-item of its tile has reached a barrier.
void tile_barrier_wait();
}  // namespace fallback

class tile_barrier {
 public:
  HIPAMP_HOST_DEVICE void wait() const { wait_with_all_memory_fence(); }

  HIPAMP_HOST_DEVICE void wait_with_all_memory_fence() const {
#if HIPAMP_DEVICE_COMPILE
    __threadfence();
    __syncthreads();
#else
    fallback::tile_barrier_wait();
#endif
  }
  HIPAMP_HOST_DEVICE void wait_with_global_memory_fence() const {
#if HIPAMP_DEVICE_COMPILE
    __threadfence();
    __syncthreads();
#else
    fallback::tile_barrier_wait();
#endif
  }
  // __syncthreads already orders shared-memory accesses within the block.
  HIPAMP_HOST_DEVICE void wait_with_tile_static_memory_fence() const {
#if HIPAMP_DEVICE_COMPILE
    __syncthreads();
#else
    fallback::tile_barrier_wait();
#endif
  }
};

}  // namespace hipamp
