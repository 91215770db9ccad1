// The GPU room's scratch memory for the library's algorithms, in two caches with different
// reuse rules, because their callers differ:
//
// - algorithm_scratch (reduce, scan): a small workspace and counter words cached per queue
//   (stream), kept for the queue's life. Work on one queue runs in order, so one set of buffers
//   per queue is never used by two kernels at once; the mutex orders host threads that share a
//   queue. A device allocation per call would cost more than a small reduction itself.
// - device_scratch (the radix sort's buffers): large and rarer, so one block per device,
//   leased per call and handed between queues in stream order (below).
//
// Include only from GPU translation units.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <hipamp/accelerator.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/detail/backend.hpp>

namespace hipamp::detail {

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

namespace hipamp::detail::gpu {

// One device allocation, freed with its owner.
class device_buffer {
 public:
  device_buffer() noexcept = default;
  device_buffer(device_impl& device, std::size_t bytes)
      : device_(&device), ptr_(device.allocate(bytes)), bytes_(bytes) {}
  device_buffer(device_buffer&& other) noexcept
      : device_(other.device_), ptr_(std::exchange(other.ptr_, nullptr)), bytes_(other.bytes_) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    if (this != &other) {
      release();
      device_ = other.device_;
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = other.bytes_;
    }
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { release(); }

  void* get() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return ptr_ ? bytes_ : 0; }

 private:
  void release() noexcept {
    if (ptr_ != nullptr) device_->deallocate(ptr_);
    ptr_ = nullptr;
  }
  device_impl* device_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A template so that every GPU translation unit may define it.
template <class Word>
__global__ void zero_words_kernel(Word* words, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    words[i] = 0;
  }
}

inline void zero_words(void* device_words, std::size_t bytes, stream_t stream) {
  const std::size_t count = bytes / sizeof(unsigned);
  if (count == 0) return;
  constexpr unsigned threads = 256;
  const std::size_t wanted = (count + threads - 1) / threads;
  const unsigned blocks = static_cast<unsigned>(wanted < 4096 ? wanted : 4096);
  zero_words_kernel<unsigned>
      <<<blocks, threads, 0, stream>>>(static_cast<unsigned*>(device_words), count);
  HIPAMP_GPU_CHECK_LAUNCH("hipamp: zeroing algorithm scratch memory");
}

class algorithm_scratch {
 public:
  // Counter words the kernels use; zero when allocated.
  enum counter : int {
    reduce_blocks_done = 0,  // every reduction leaves it at 0 again
    scan_tickets = 1,        // only grows; each scan knows where its tickets start
    counter_words = 2
  };
  // Scan tile states carry a 30-bit epoch, so stale states of an earlier scan never match.
  static constexpr unsigned epoch_limit = 1u << 30;

  explicit algorithm_scratch(const accelerator_view& av)
      : queue_(av.queue()), stream_(static_cast<stream_t>(av.native_handle())) {
    control_ = device_buffer(queue_.device(), 256);
    zero_words(control_.get(), control_.size(), stream_);
  }

  std::mutex& mutex() noexcept { return mutex_; }
  stream_t stream() const noexcept { return stream_; }
  queue_impl& queue() const noexcept { return queue_; }
  unsigned* counter_word(counter which) const noexcept {
    return static_cast<unsigned*>(control_.get()) + which;
  }

  // At least `bytes` of device memory whose contents are undefined. The caller holds mutex().
  void* workspace(std::size_t bytes) { return grow(workspace_, bytes, false); }

  struct scan_plan {
    void* tile_states;
    unsigned epoch;
    unsigned first_ticket;
  };
  // Tile states for a scan of `tiles` tiles launched as `tiles` blocks, `layout` naming the
  // state format. States are zeroed when allocated, when the format changes (old words
  // could then look current) and when the epoch wraps. The caller holds mutex().
  scan_plan begin_scan(std::size_t tiles, std::size_t bytes, unsigned layout) {
    const bool grown = bytes > scan_states_.size();
    void* states = grow(scan_states_, bytes, true);
    if (++epoch_ >= epoch_limit) epoch_ = 1;
    if (!grown && (layout != scan_layout_ || epoch_ == 1))
      zero_words(states, scan_states_.size(), stream_);
    scan_layout_ = layout;
    const scan_plan plan{states, epoch_, tickets_issued_};
    tickets_issued_ += static_cast<unsigned>(tiles);  // wraps like the device counter
    return plan;
  }

 private:
  void* grow(device_buffer& buffer, std::size_t bytes, bool zero) {
    if (bytes <= buffer.size()) return buffer.get();
    // Earlier work on this queue may still use the old buffer.
    if (buffer.get() != nullptr) queue_.wait();
    std::size_t capacity = buffer.size() == 0 ? 4096 : buffer.size();
    while (capacity < bytes) capacity *= 2;
    buffer = device_buffer();  // free first: the new buffer may need the room
    buffer = device_buffer(queue_.device(), capacity);
    if (zero) zero_words(buffer.get(), buffer.size(), stream_);
    return buffer.get();
  }

  queue_impl& queue_;
  stream_t stream_;
  std::mutex mutex_;
  device_buffer control_;
  device_buffer workspace_;
  device_buffer scan_states_;
  unsigned scan_layout_ = 0;
  unsigned epoch_ = 0;
  unsigned tickets_issued_ = 0;
};

// The scratch of av's queue, created on first use and dropped with the queue.
inline algorithm_scratch& scratch_for(const accelerator_view& av) {
  struct entry {
    std::weak_ptr<queue_impl> queue;
    std::unique_ptr<algorithm_scratch> scratch;
  };
  static std::mutex registry_mutex;
  static std::map<const queue_impl*, entry> registry;
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (auto it = registry.begin(); it != registry.end();) {
    it = it->second.queue.expired() ? registry.erase(it) : std::next(it);
  }
  entry& e = registry[&av.queue()];
  if (!e.scratch) {
    e.queue = av.queue_ptr();
    e.scratch = std::make_unique<algorithm_scratch>(av);
  }
  return *e.scratch;
}

}  // namespace hipamp::detail::gpu
