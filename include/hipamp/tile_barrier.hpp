// tile_barrier: every work-item of a tile waits until all have arrived. On a GPU this is
// the block barrier; on the CPU device it switches to the next fiber of the tile.
#pragma once

#include <hipamp/config.hpp>
#include <hipamp/detail/barrier_site.hpp>
#include <hipamp/fallback/tile_barrier_wait.hpp>  // the CPU device's side of wait()

namespace hipamp {

// C++ AMP's barrier fences are tile-scoped (C++ AMP 1.2, 8.1.2): they make a work-item's
// writes visible to the other work-items of its tile, nothing wider. On a GPU the block
// barrier alone gives that for both shared and global memory (__syncthreads in CUDA; on
// AMD it lowers to a workgroup-scope release/acquire around s_barrier), so all three waits
// are the bare barrier. A device-scope __threadfence before it, which this header once had,
// drains every outstanding global write and cost the seed's tiled matrix multiply 40%.
//
// Each wait takes its call site as a defaulted argument (detail::barrier_site): callers write
// `t.barrier.wait()` as in C++ AMP.
class tile_barrier {
 public:
  using site = detail::barrier_site;
  HIPAMP_HOST_DEVICE void wait(site at = site::here()) const { barrier(at); }
  HIPAMP_HOST_DEVICE void wait_with_all_memory_fence(site at = site::here()) const { barrier(at); }
  HIPAMP_HOST_DEVICE void wait_with_global_memory_fence(site at = site::here()) const {
    barrier(at);
  }
  HIPAMP_HOST_DEVICE void wait_with_tile_static_memory_fence(site at = site::here()) const {
    barrier(at);
  }

 private:
  HIPAMP_HOST_DEVICE static void barrier(site at) {
#if HIPAMP_DEVICE_COMPILE
    (void)at;
    __syncthreads();
#else
    fallback::tile_barrier_wait_with_compiler_fence(at);
#endif
  }
};

// C++ AMP's fences without a barrier: order this work-item's memory accesses as seen by the
// other work-items of its tile. The tile_barrier argument only proves the caller is in a
// tiled kernel. On the CPU device a tile runs on one OS thread, so a compiler fence is all
// that is needed.
HIPAMP_HOST_DEVICE inline void all_memory_fence(const tile_barrier&) {
#if HIPAMP_DEVICE_COMPILE
  __threadfence_block();
#elif defined(__GNUC__) || defined(__clang__)
  __asm__ __volatile__("" ::: "memory");
#endif
}
HIPAMP_HOST_DEVICE inline void global_memory_fence(const tile_barrier& barrier) {
  all_memory_fence(barrier);
}
HIPAMP_HOST_DEVICE inline void tile_static_memory_fence(const tile_barrier& barrier) {
  all_memory_fence(barrier);
}

}  // namespace hipamp
