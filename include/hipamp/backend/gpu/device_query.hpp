// What the library's GPU algorithms ask the runtime about a device: make it current for a
// launch, and how many blocks of a kernel fit on it at once (to size persistent grids).
// Include only from GPU translation units.
#pragma once

#include <atomic>

#include <hipamp/backend/gpu/kernel_language.hpp>

namespace hipamp::detail::gpu {

// Makes `ordinal` the calling thread's current device for the guard's lifetime: kernels
// launch on the current device, and a stream of another device rejects them.
class current_device_guard {
 public:
  explicit current_device_guard(int ordinal) {
    if (ordinal < 0) return;  // a backend that does not number its devices
    HIPAMP_GPU_CHECK(vendor::get_device(&previous_));
    if (previous_ != ordinal) HIPAMP_GPU_CHECK(vendor::set_device(ordinal));
    changed_ = previous_ != ordinal;
  }
  current_device_guard(const current_device_guard&) = delete;
  current_device_guard& operator=(const current_device_guard&) = delete;
  ~current_device_guard() {
    if (!changed_) return;
    (void)vendor::set_device(previous_);
  }

 private:
  int previous_ = -1;
  bool changed_ = false;
};

// Devices whose answers are cached; later ordinals are asked every time.
inline constexpr int cached_device_count = 16;

inline int multiprocessor_count(int ordinal) {
  static std::atomic<int> cache[cached_device_count] = {};
  const bool cached = ordinal >= 0 && ordinal < cached_device_count;
  if (cached) {
    if (const int known = cache[ordinal].load(std::memory_order_relaxed)) return known;
  }
  int count = 0;
  HIPAMP_GPU_CHECK(vendor::multiprocessor_count(&count, ordinal));
  if (count < 1) count = 1;
  if (cached) cache[ordinal].store(count, std::memory_order_relaxed);
  return count;
}

// Bytes of shared memory one block may use on `ordinal` once its kernel opts in; cached.
inline int max_shared_per_block(int ordinal) {
  static std::atomic<int> cache[cached_device_count] = {};
  const bool cached = ordinal >= 0 && ordinal < cached_device_count;
  if (cached) {
    if (const int known = cache[ordinal].load(std::memory_order_relaxed)) return known;
  }
  int bytes = 0;
  HIPAMP_GPU_CHECK(vendor::max_shared_per_block(&bytes, ordinal));
  if (cached && bytes > 0) cache[ordinal].store(bytes, std::memory_order_relaxed);
  return bytes;
}

// Blocks of `kernel` with `threads` threads (and no dynamic shared memory) that one
// multiprocessor holds at once; at least 1. Cached per kernel and device.
template <class Kernel>
int resident_blocks_per_multiprocessor(Kernel* kernel, int threads, int ordinal) {
  static std::atomic<int> cache[cached_device_count] = {};
  const bool cached = ordinal >= 0 && ordinal < cached_device_count;
  if (cached) {
    if (const int known = cache[ordinal].load(std::memory_order_relaxed)) return known;
  }
  int blocks = 0;
  HIPAMP_GPU_CHECK(vendor::resident_blocks(&blocks, kernel, threads));
  if (blocks < 1) blocks = 1;
  if (cached) cache[ordinal].store(blocks, std::memory_order_relaxed);
  return blocks;
}

}  // namespace hipamp::detail::gpu
