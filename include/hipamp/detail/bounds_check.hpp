// Bounds checks on kernel indices (the reference device; the CPU device with
// HIPAMP_CHECK_BOUNDS=1 or a view from accelerator::create_checked_view). The inline test
// lives in array_view.hpp, guarded by the per-translation-unit flag in launch_scope.hpp; this
// is its out-of-line slow path, which builds the message and throws index_out_of_range.
//
// Also the sink of Direct3D's robust access (HIPAMP_ROBUST_ACCESS, config.hpp): an element
// access outside the view's memory gets a reference to a zeroed slot of the running thread, so
// a read sees zero and a write lands where nothing reads it.
#pragma once

#include <cstddef>
#include <cstring>
#include <typeinfo>

#include <hipamp/config.hpp>

namespace hipamp::detail {

// What the message names: "array_view<const float, 2>" (or "array<...>") with the index
// and the extent. `leaf`: like bind_to_host (data_source.hpp) it never calls back into the
// caller's translation unit, so the bounds flag and the views stay loop-invariant for the
// compiler; it only ever leaves by throwing.
#if defined(__GNUC__) || defined(__clang__)
#define HIPAMP_BOUNDS_SLOW_PATH __attribute__((leaf, cold))
#else
#define HIPAMP_BOUNDS_SLOW_PATH
#endif
[[noreturn]] HIPAMP_BOUNDS_SLOW_PATH void throw_index_out_of_range(const std::type_info& element,
                                                                   bool read_only,
                                                                   const char* container, int rank,
                                                                   const int* index,
                                                                   const int* extent);

// Raw bytes of one element: a __device__ variable cannot have a constructor, and zero bytes are
// what Direct3D returns for an out-of-range read, whatever the element type.
template <std::size_t Size, std::size_t Align>
struct alignas(Align) robust_sink_slot {
  unsigned char bytes[Size];
};

#if HIPAMP_DEVICE_COMPILE
// One slot per resident GPU thread. The slot must be the thread's own: zeroing it and handing
// it back is not atomic, and another thread's dropped write landing in between would become
// this thread's read. On CUDA the hardware's (SM, warp slot, lane) names each resident thread
// uniquely (2048 threads per SM, at most 256 SMs before slots repeat); HIP has no warp-slot
// register, so there the thread's global id picks the slot (threads 2^19 apart share one).
// Static storage of the GPU module: 2^19 slots of the element's size per element size, only in
// units compiled with HIPAMP_ROBUST_ACCESS that take the out-of-range path.
inline constexpr unsigned robust_sink_slots = 1u << 19;
// A function-local static (global memory, zero-initialised) rather than a __device__ variable
// template, whose declaration would have to be the same in nvcc's host pass.
template <std::size_t Size, std::size_t Align>
__device__ robust_sink_slot<Size, Align>* robust_sink_storage() {
  static robust_sink_slot<Size, Align> slots[robust_sink_slots];
  return slots;
}

__device__ inline unsigned robust_sink_index() {
#if defined(__CUDA_ARCH__)
  unsigned sm, warp, lane;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return ((sm * 64u + warp) * 32u + lane) & (robust_sink_slots - 1u);
#else
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return (block * blockDim.x * blockDim.y * blockDim.z + thread) & (robust_sink_slots - 1u);
#endif
}

template <class T>
__device__ T& robust_sink() {
  auto& slot = robust_sink_storage<sizeof(T), alignof(T)>()[robust_sink_index()];
  for (std::size_t i = 0; i < sizeof(T); ++i) slot.bytes[i] = 0;
  return *reinterpret_cast<T*>(slot.bytes);
}
#else
// On the CPU device one slot per OS thread: a tile's work-items are fibers of one thread and
// switch only at barriers, never between taking the reference and using it.
template <class T>
T& robust_sink() noexcept {
  thread_local robust_sink_slot<sizeof(T), alignof(T)> slot;
  std::memset(slot.bytes, 0, sizeof(T));
  return *reinterpret_cast<T*>(slot.bytes);
}
#endif

}  // namespace hipamp::detail
