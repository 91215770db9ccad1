// Temporary device memory for library algorithms (radix sort buffers, index arrays), taken
// from a per-device cache so that a call does not pay for an allocation (and the implicit
// synchronisation a GPU free can bring) every time.
//
// Each device keeps one cached block. A lease takes it when free (growing it if too small),
// and gives it back with an event marking the end of the work that used it; the next lease
// from another queue waits for that event on its queue, so reuse is stream-ordered. A lease
// that finds the block busy (another thread is inside a call) gets a private allocation,
// freed after its queue drains. The cache is never destroyed: device memory goes back to the
// driver at process exit, after the GPU runtime may already be gone.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include <hipamp/accelerator.hpp>
#include <hipamp/detail/backend.hpp>

namespace hipamp::detail {

class device_scratch {
 public:
  device_scratch(const accelerator_view& av, std::size_t bytes) : av_(av) {
    if (bytes == 0) return;
    device_impl& device = av.get_accelerator().device();
    cache& c = cache::instance();
    std::unique_lock<std::mutex> lock(c.mutex);
    block* b = c.find(device, av.get_accelerator());
    if (b->busy) {
      lock.unlock();
      private_ = true;
      ptr_ = device.allocate(bytes);
      return;
    }
    if (b->bytes < bytes) {
      if (b->ready) b->ready->wait();
      if (b->ptr) device.deallocate(b->ptr);
      b->ptr = nullptr;
      b->bytes = 0;
      const std::size_t rounded =
          (bytes + (std::size_t(1) << 21) - 1) & ~((std::size_t(1) << 21) - 1);
      b->ptr = device.allocate(rounded);
      b->bytes = rounded;
      b->ready.reset();
    }
    if (b->ready) av.queue().wait_for(b->ready);
    b->busy = true;
    block_ = b;
    ptr_ = b->ptr;
  }
  device_scratch(const device_scratch&) = delete;
  device_scratch& operator=(const device_scratch&) = delete;
  ~device_scratch() {
    if (ptr_ == nullptr) return;
    if (private_) {
      av_.queue().wait();
      av_.get_accelerator().device().deallocate(ptr_);
      return;
    }
    cache& c = cache::instance();
    event_ptr done;
    try {
      done = av_.queue().record();
    } catch (...) {
      // The queue is gone (device removed): nothing can still be using the block.
    }
    std::lock_guard<std::mutex> lock(c.mutex);
    block_->ready = done;
    block_->busy = false;
  }

  void* get() const noexcept { return ptr_; }
  // The scratch as an array of T starting `offset_bytes` in (callers keep offsets aligned).
  template <class T>
  T* as(std::size_t offset_bytes = 0) const noexcept {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(ptr_) + offset_bytes);
  }
  // Rounds a byte count up so that what follows it is aligned for any element type.
  static constexpr std::size_t aligned(std::size_t bytes) noexcept {
    return (bytes + 255) & ~std::size_t(255);
  }

 private:
  struct block {
    accelerator owner;  // keeps the device alive while the block exists
    void* ptr = nullptr;
    std::size_t bytes = 0;
    event_ptr ready;
    bool busy = false;
  };
  struct cache {
    std::mutex mutex;
    std::vector<std::unique_ptr<block>> blocks;
    static cache& instance() {
      static cache* const leaked = new cache;  // see the header comment
      return *leaked;
    }
    block* find(device_impl& device, const accelerator& acc) {
      for (auto& b : blocks) {
        if (&b->owner.device() == &device) return b.get();
      }
      blocks.push_back(std::unique_ptr<block>(new block{acc}));
      return blocks.back().get();
    }
  };

  accelerator_view av_;
  void* ptr_ = nullptr;
  block* block_ = nullptr;
  bool private_ = false;
};

}  // namespace hipamp::detail
