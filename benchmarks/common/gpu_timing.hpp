// GPU timing and memory for benchmarks' raw-pointer peers, on bench::vendor (vendor.hpp): device
// events around work on one stream, device and pinned host buffers. Empty in host units, so a
// benchmark includes it unconditionally and tests HIPAMP_BENCH_CUDA or
// HIPAMP_GPU_TRANSLATION_UNIT.
#pragma once

#include <cstddef>

#include "common/host.hpp"
#include "common/vendor.hpp"

#if HIPAMP_GPU_TRANSLATION_UNIT
namespace bench {

// Device-event time of work issued on one stream: start(), the work, stop(), then seconds()
// waits for the stop event. Device events exclude the host's launch overhead and clock noise.
class event_timer {
 public:
  explicit event_timer(vendor::stream_t stream) : stream_(stream) {
    BENCH_GPU_CHECK(vendor::event_create(&start_));
    BENCH_GPU_CHECK(vendor::event_create(&stop_));
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer() {
    (void)vendor::event_destroy(start_);
    (void)vendor::event_destroy(stop_);
  }
  void start() { BENCH_GPU_CHECK(vendor::event_record(start_, stream_)); }
  void stop() { BENCH_GPU_CHECK(vendor::event_record(stop_, stream_)); }
  // Seconds between the last start() and stop().
  double seconds() {
    BENCH_GPU_CHECK(vendor::event_synchronize(stop_));
    float ms = 0;
    BENCH_GPU_CHECK(vendor::event_elapsed_ms(&ms, start_, stop_));
    return ms * 1e-3;
  }
  // Seconds per call of f, from events around `batch` calls back to back.
  template <class F>
  double seconds_per_call(int batch, F&& f) {
    start();
    for (int i = 0; i < batch; ++i) f();
    stop();
    return seconds() / batch;
  }

 private:
  vendor::stream_t stream_;
  vendor::event_t start_{};
  vendor::event_t stop_{};
};

// Device memory (at least one byte, so that a zero-byte peer still gets a valid pointer).
class device_buffer {
 public:
  explicit device_buffer(std::size_t bytes) {
    BENCH_GPU_CHECK(vendor::allocate(&ptr_, bytes == 0 ? 1 : bytes));
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { (void)vendor::deallocate(ptr_); }
  void* get() const noexcept { return ptr_; }
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(ptr_);
  }

 private:
  void* ptr_ = nullptr;
};

// Page-locked host memory (the fastest copy source: the peer of pageable copies).
class pinned_buffer {
 public:
  explicit pinned_buffer(std::size_t bytes) {
    BENCH_GPU_CHECK(vendor::allocate_pinned(&ptr_, bytes));
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  ~pinned_buffer() { (void)vendor::deallocate_pinned(ptr_); }
  void* get() const noexcept { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

}  // namespace bench
#endif  // HIPAMP_GPU_TRANSLATION_UNIT
