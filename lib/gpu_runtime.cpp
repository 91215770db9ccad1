// The GPU device: device_impl / queue_impl / event_impl for every GPU of the configured
// backend. One source for CUDA and HIP, written against the vendor files' names
// (include/hipamp/backend/gpu/vendor/{cuda,hip}.hpp) and compiled as CUDA by nvcc or as HIP by
// ROCm's clang.
//
// - Every accelerator_view is one non-blocking stream; work is submitted when queued, so
//   queuing_mode_immediate and queuing_mode_automatic behave alike and flush() only orders.
// - Events never time (DisableTiming) and come from a per-device pool.
// - Pageable host memory moves through a ring of pinned staging buffers: the CPU copies chunk
//   i+1 into a free buffer (on several threads) while the DMA engine moves chunk i, so a large
//   transfer runs at the slower of the bus and the host's memcpy, not at their sum.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/simple_executor.hpp>

#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/backend/gpu/vendor.hpp>
#include <hipamp/detail/launch_markers.hpp>

#include "device_registry.hpp"

namespace hipamp::detail::gpu {

namespace api = vendor;  // the runtime calls, one spelling for CUDA and HIP

[[noreturn]] void throw_error(error_t error, const char* what) {
  std::string message = std::string("hipamp: ") + what + " failed with " + api::error_name(error) +
                        ": " + error_string(error);
  if (api::is_sticky(error)) {
    throw accelerator_view_removed(message +
                                   " (the device can run no further work in this process)");
  }
  (void)last_error();  // a non-sticky error must not resurface at the next launch check
  if (error == api::allocation_failed) throw hipamp::out_of_memory(message);
  throw runtime_exception(message);
}

[[noreturn]] void throw_launch_error(error_t error, const char* model, unsigned long long blocks,
                                     unsigned threads_per_block) {
  const std::string what = std::string("parallel_for_each (") + model + " model) launching " +
                           std::to_string(blocks) + " blocks of " +
                           std::to_string(threads_per_block) + " threads";
  throw_error(error, what.c_str());
}

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

// Set once at enumeration: only machines with several GPUs pay for set_device.
std::atomic<bool> several_gpus{false};

void make_current(int ordinal) {
  if (several_gpus.load(std::memory_order_relaxed)) {
    check(api::set_device(ordinal), HIPAMP_GPU_API_PREFIX "SetDevice");
  }
}

// Errors from cleanup paths (destructors, frees) cannot be thrown; a sticky one resurfaces
// at the next real call, a non-sticky one must be cleared so it does not.
void discard_error(error_t e) noexcept {
  if (e != success && !api::is_sticky(e)) (void)last_error();
}

// How pageable transfers are staged. The defaults are the best of a sweep on an H200 machine
// (PCIe 5 x16, 16 cores, benchmarks/results/): a ring that stays small enough to live in the
// last-level cache, where the DMA engine reads it, and pieces of 2 MiB (one core's L2) per
// thread; bigger rings, smaller pieces and streaming stores were all slower there. The
// environment can override them for tuning on other machines:
//   HIPAMP_STAGING_MIB           size of one pinned staging buffer (default 16)
//   HIPAMP_STAGING_BUFFERS       buffers in the ring (default 4)
//   HIPAMP_STAGING_THREAD_KIB    least bytes one CPU thread copies per chunk (default 2048)
//   HIPAMP_STAGING_STREAMING     1: non-temporal stores into pinned memory (default 0)
struct staging_config {
  std::size_t buffer_bytes = 16 * mib;
  int buffers = 4;
  std::size_t thread_bytes = 2 * mib;
  bool streaming_stores = false;

  static long read(const char* name, long fallback, long lo, long hi) {
    const char* text = std::getenv(name);
    if (text == nullptr) return fallback;
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) {
      throw runtime_exception(std::string("hipamp: ") + name + "='" + text +
                              "' is not a number in [" + std::to_string(lo) + ", " +
                              std::to_string(hi) + "]");
    }
    return v;
  }
  static staging_config from_environment() {
    staging_config c;
    c.buffer_bytes = static_cast<std::size_t>(read("HIPAMP_STAGING_MIB", 16, 1, 1024)) * mib;
    c.buffers = static_cast<int>(read("HIPAMP_STAGING_BUFFERS", 4, 2, 16));
    c.thread_bytes =
        static_cast<std::size_t>(read("HIPAMP_STAGING_THREAD_KIB", 2048, 64, 1 << 20)) * 1024;
    c.streaming_stores = read("HIPAMP_STAGING_STREAMING", 0, 0, 1) != 0;
    return c;
  }
};

// Copies with non-temporal stores where the CPU has them: the bytes go to memory without
// first reading the destination lines into the cache (and without leaving them there).
void streaming_copy(std::byte* dst, const std::byte* src, std::size_t bytes) {
#if defined(__x86_64__) || defined(_M_X64)
  const std::size_t head =
      std::min(bytes, (16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & std::size_t{15});
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  bytes -= head;
  const std::size_t blocks = bytes / 64;
  for (std::size_t k = 0; k < blocks; ++k) {
    const auto* in = reinterpret_cast<const __m128i*>(src + 64 * k);
    auto* out = reinterpret_cast<__m128i*>(dst + 64 * k);
    const __m128i a = _mm_loadu_si128(in);
    const __m128i b = _mm_loadu_si128(in + 1);
    const __m128i c = _mm_loadu_si128(in + 2);
    const __m128i d = _mm_loadu_si128(in + 3);
    _mm_stream_si128(out, a);
    _mm_stream_si128(out + 1, b);
    _mm_stream_si128(out + 2, c);
    _mm_stream_si128(out + 3, d);
  }
  std::memcpy(dst + 64 * blocks, src + 64 * blocks, bytes - 64 * blocks);
  _mm_sfence();  // streaming stores are weakly ordered: finish them before the DMA starts
#else
  std::memcpy(dst, src, bytes);
#endif
}

// Copies `bytes` on the CPU device's threads, in page-sized pieces of at least
// config.thread_bytes per thread.
void parallel_copy(void* dst, const void* src, std::size_t bytes, const staging_config& config) {
  constexpr std::size_t page = 4096;
  struct job {
    std::byte* dst;
    const std::byte* src;
    std::size_t bytes;
    bool streaming;
  };
  const job j{static_cast<std::byte*>(dst), static_cast<const std::byte*>(src), bytes,
              config.streaming_stores};
  const std::size_t pages = (bytes + page - 1) / page;
  fallback::parallel_chunks(
      pages, std::max<std::size_t>(1, config.thread_bytes / page),
      [](const void* context, std::size_t first, std::size_t last) {
        const job& jj = *static_cast<const job*>(context);
        const std::size_t b = first * page;
        const std::size_t e = std::min(jj.bytes, last * page);
        if (jj.streaming) {
          streaming_copy(jj.dst + b, jj.src + b, e - b);
        } else {
          std::memcpy(jj.dst + b, jj.src + b, e - b);
        }
      },
      &j);
}

// ---- events -------------------------------------------------------------------------------

class event_pool {
 public:
  explicit event_pool(int ordinal) : ordinal_(ordinal) {}
  event_pool(const event_pool&) = delete;
  event_pool& operator=(const event_pool&) = delete;
  ~event_pool() {
    for (api::event_t e : free_) discard_error(api::event_destroy(e));
  }
  api::event_t take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        api::event_t e = free_.back();
        free_.pop_back();
        return e;
      }
    }
    make_current(ordinal_);
    api::event_t e = nullptr;
    check(api::event_create(&e), HIPAMP_GPU_API_PREFIX "EventCreateWithFlags");
    return e;
  }
  void give_back(api::event_t e) noexcept {
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      free_.push_back(e);
    } catch (...) {
      discard_error(api::event_destroy(e));
    }
  }

 private:
  int ordinal_;
  std::mutex mutex_;
  std::vector<api::event_t> free_;
};

class gpu_event final : public event_impl {
 public:
  gpu_event(api::event_t event, std::shared_ptr<event_pool> pool)
      : event_(event), pool_(std::move(pool)) {}
  gpu_event(const gpu_event&) = delete;
  gpu_event& operator=(const gpu_event&) = delete;
  ~gpu_event() override { pool_->give_back(event_); }

  bool is_ready() const override {
    const error_t e = api::event_query(event_);
    if (e == success) return true;
    if (e == api::not_ready) {
      if (api::peek_last_error() == api::not_ready) (void)last_error();
      return false;
    }
    throw_error(e, "waiting for device work (" HIPAMP_GPU_API_PREFIX "EventQuery)");
  }
  void wait() const override {
    check(api::event_synchronize(event_),
          "waiting for device work (" HIPAMP_GPU_API_PREFIX "EventSynchronize)");
  }
  api::event_t handle() const noexcept { return event_; }

 private:
  api::event_t event_;
  std::shared_ptr<event_pool> pool_;
};

// ---- the program's memory, page-locked --------------------------------------------------

// Ranges of the program's memory that pin_host page-locked (registration is process-wide and
// for every device). Copies from or to them skip the staging ring: the DMA engine reads and
// writes them directly, at pinned speed, without the CPU copying every byte once more.
class pinned_host_ranges {
 public:
  void add(const void* host, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto begin = reinterpret_cast<std::uintptr_t>(host);
    ranges_[begin] = begin + bytes;
  }
  void remove(const void* host) {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_.erase(reinterpret_cast<std::uintptr_t>(host));
  }
  bool contains(const void* host, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ranges_.empty()) return false;
    const auto begin = reinterpret_cast<std::uintptr_t>(host);
    auto it = ranges_.upper_bound(begin);
    if (it == ranges_.begin()) return false;
    --it;
    return it->first <= begin && begin + bytes <= it->second;
  }

 private:
  std::mutex mutex_;
  std::map<std::uintptr_t, std::uintptr_t> ranges_;  // begin -> end
};

pinned_host_ranges& pinned_ranges() {
  // Leaked on purpose: sources destroyed during static destruction still unpin.
  // NOLINTNEXTLINE(cppcoreguidelines-owning-memory)
  static auto* ranges = new pinned_host_ranges();
  return *ranges;
}

// ---- pinned staging ---------------------------------------------------------------------

// Chunk sizes for one transfer: small at both ends so the first memcpy (host to device) or
// the last one (device to host), which nothing overlaps, is short; full buffers in between.
std::vector<std::size_t> plan_chunks(std::size_t bytes, std::size_t max_chunk) {
  std::vector<std::size_t> head;
  std::vector<std::size_t> tail;
  std::size_t size = std::min<std::size_t>(mib, max_chunk);
  std::size_t left = bytes;
  while (left > 0) {
    if (left <= 2 * size) {
      if (left > size) {
        head.push_back(left - left / 2);
        tail.push_back(left / 2);
      } else {
        head.push_back(left);
      }
      break;
    }
    head.push_back(size);
    tail.push_back(size);
    left -= 2 * size;
    size = std::min(2 * size, max_chunk);
  }
  head.insert(head.end(), tail.rbegin(), tail.rend());
  return head;
}

class staging_ring {
 public:
  explicit staging_ring(int ordinal) : ordinal_(ordinal) {}
  staging_ring(const staging_ring&) = delete;
  staging_ring& operator=(const staging_ring&) = delete;
  ~staging_ring() {
    for (slot& s : slots_) {
      if (s.pending) discard_error(api::event_synchronize(s.done));
      discard_error(api::event_destroy(s.done));
    }
    if (pinned_ != nullptr) discard_error(api::free_pinned(pinned_));
  }

  // Returns once `src` may be reused; the DMA may still be running on `stream`.
  void to_device(stream_t stream, void* dst, const void* src, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!have_buffers()) {
      // No pinned memory: the driver stages pageable memory itself (and returns once it has).
      check(api::copy_to_device_async(dst, src, bytes, stream),
            "copy to device (" HIPAMP_GPU_API_PREFIX "MemcpyAsync)");
      return;
    }
    auto* out = static_cast<std::byte*>(dst);
    const auto* in = static_cast<const std::byte*>(src);
    for (std::size_t n : plan_chunks(bytes, config_.buffer_bytes)) {
      slot& s = next_slot();
      parallel_copy(s.buffer, in, n, config_);
      check(api::copy_to_device_async(out, s.buffer, n, stream),
            "copy to device (" HIPAMP_GPU_API_PREFIX "MemcpyAsync)");
      check(api::event_record(s.done, stream), HIPAMP_GPU_API_PREFIX "EventRecord");
      s.pending = true;
      out += n;
      in += n;
    }
  }

  // Returns once the bytes are in `dst`.
  void to_host(stream_t stream, void* dst, const void* src, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!have_buffers()) {
      check(api::copy_to_host_async(dst, src, bytes, stream),
            "copy to host (" HIPAMP_GPU_API_PREFIX "MemcpyAsync)");
      check(api::stream_synchronize(stream),
            "copy to host (" HIPAMP_GPU_API_PREFIX "StreamSynchronize)");
      return;
    }
    const std::vector<std::size_t> chunks = plan_chunks(bytes, config_.buffer_bytes);
    std::vector<std::size_t> offsets(chunks.size());
    for (std::size_t i = 1; i < chunks.size(); ++i) offsets[i] = offsets[i - 1] + chunks[i - 1];
    std::vector<slot*> used(chunks.size(), nullptr);
    struct release_all {  // also when a copy fails part-way
      std::vector<slot>& slots;
      ~release_all() {
        for (slot& s : slots) s.held = false;
      }
    } release{slots_};
    auto issue = [&](std::size_t i) {
      slot& s = next_slot();
      check(api::copy_to_host_async(s.buffer, static_cast<const std::byte*>(src) + offsets[i],
                                    chunks[i], stream),
            "copy to host (" HIPAMP_GPU_API_PREFIX "MemcpyAsync)");
      check(api::event_record(s.done, stream), HIPAMP_GPU_API_PREFIX "EventRecord");
      s.pending = true;
      s.held = true;
      used[i] = &s;
    };
    const std::size_t ahead = std::min<std::size_t>(slots_.size(), chunks.size());
    for (std::size_t i = 0; i < ahead; ++i) issue(i);
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      slot& s = *used[i];
      check(api::event_synchronize(s.done),
            "copy to host (" HIPAMP_GPU_API_PREFIX "EventSynchronize)");
      s.pending = false;
      parallel_copy(static_cast<std::byte*>(dst) + offsets[i], s.buffer, chunks[i], config_);
      s.held = false;
      if (i + ahead < chunks.size()) issue(i + ahead);
    }
  }

 private:
  struct slot {
    std::byte* buffer = nullptr;
    api::event_t done = nullptr;
    bool pending = false;  // a copy may still read or write `buffer`, until `done`
    bool held = false;     // holds bytes on their way to the host, not yet copied out
  };

  // A free slot: the first, from the least recently used on, whose last copy has finished;
  // if none has, wait for the least recently used. (A slot's last copy may sit behind other
  // work on its queue, so waiting for it only when no other slot is free keeps transfers on
  // one queue from waiting for work on another.)
  slot& next_slot() {
    std::size_t pick = slots_.size();
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      const std::size_t i = (next_ + k) % slots_.size();
      if (slots_[i].held) continue;
      if (pick == slots_.size()) pick = i;  // the least recently used, as a fallback
      if (!slots_[i].pending || is_done(slots_[i].done)) {
        pick = i;
        break;
      }
    }
    slot& s = slots_[pick];  // to_host holds fewer slots than there are, so one is found
    next_ = (pick + 1) % slots_.size();
    if (s.pending) {
      check(api::event_synchronize(s.done),
            "staging buffer (" HIPAMP_GPU_API_PREFIX "EventSynchronize)");
    }
    s.pending = false;
    return s;
  }

  static bool is_done(api::event_t e) {
    const error_t state = api::event_query(e);
    if (state == success) return true;
    if (state == api::not_ready) {
      if (api::peek_last_error() == api::not_ready) (void)last_error();
      return false;
    }
    throw_error(state, "staging buffer (" HIPAMP_GPU_API_PREFIX "EventQuery)");
  }

  // Allocated on first use; false if the system has no pinned memory to give.
  bool have_buffers() {
    if (!slots_.empty()) return true;
    if (pinned_failed_) return false;
    config_ = staging_config::from_environment();
    make_current(ordinal_);
    void* p = nullptr;
    const error_t e =
        api::malloc_pinned(&p, config_.buffer_bytes * static_cast<std::size_t>(config_.buffers));
    if (e != success) {
      discard_error(e);
      if (api::is_sticky(e)) throw_error(e, HIPAMP_GPU_API_PREFIX "HostAlloc (staging buffers)");
      pinned_failed_ = true;
      return false;
    }
    pinned_ = p;
    std::vector<slot> slots(static_cast<std::size_t>(config_.buffers));
    for (int i = 0; i < config_.buffers; ++i) {
      slots[i].buffer =
          static_cast<std::byte*>(p) + config_.buffer_bytes * static_cast<std::size_t>(i);
      const error_t made = api::event_create(&slots[i].done);
      if (made != success) {
        for (int k = 0; k < i; ++k) discard_error(api::event_destroy(slots[k].done));
        discard_error(api::free_pinned(p));
        pinned_ = nullptr;
        throw_error(made, HIPAMP_GPU_API_PREFIX "EventCreateWithFlags (staging buffers)");
      }
    }
    slots_ = std::move(slots);
    return true;
  }

  int ordinal_;
  staging_config config_;
  std::mutex mutex_;
  std::vector<slot> slots_;
  void* pinned_ = nullptr;
  bool pinned_failed_ = false;
  std::size_t next_ = 0;
};

// ---- queue and device ---------------------------------------------------------------------

class gpu_device;
class gpu_queue;

// The stream side of a GPU queue's launch markers (detail/launch_markers.hpp, which says why
// and when a marker's event is recorded): events from the device's pool, recorded on the
// queue's stream.
struct marker_stream {
  using handle = api::event_t;
  stream_t stream;
  int ordinal;
  std::shared_ptr<event_pool> events;

  handle record() { return record_on(stream, ordinal, *events); }
  // An event from `pool`, recorded on `s` now (gpu_queue::record uses it too).
  static api::event_t record_on(stream_t s, int device, event_pool& pool) {
    make_current(device);
    const api::event_t e = pool.take();
    const error_t recorded = api::event_record(e, s);
    if (recorded != success) {
      pool.give_back(e);
      throw_error(recorded, HIPAMP_GPU_API_PREFIX "EventRecord");
    }
    return e;
  }
  void release(handle e) noexcept { events->give_back(e); }
  static bool ready(handle e) {
    const error_t status = api::event_query(e);
    if (status == success) return true;
    if (status == api::not_ready) {
      if (api::peek_last_error() == api::not_ready) (void)last_error();
      return false;
    }
    throw_error(status, "waiting for device work (" HIPAMP_GPU_API_PREFIX "EventQuery)");
  }
  static void wait(handle e) {
    check(api::event_synchronize(e),
          "waiting for device work (" HIPAMP_GPU_API_PREFIX "EventSynchronize)");
  }
};
using marker_ring = launch_markers<marker_stream>;
using launch_marker = marker_ring::marker;

class gpu_queue final : public queue_impl {
 public:
  gpu_queue(gpu_device& device, queuing_mode mode);
  gpu_queue(const gpu_queue&) = delete;
  gpu_queue& operator=(const gpu_queue&) = delete;
  ~gpu_queue() override {
    // Markers still held outside get their events while the stream exists.
    markers_->shutdown();
    discard_error(api::stream_destroy(stream_));
  }

  device_impl& device() const noexcept override;
  queuing_mode mode() const noexcept override { return mode_; }
  void copy_host_to_device(void* device_dst, const void* host_src, std::size_t bytes) override;
  void copy_device_to_host(void* host_dst, const void* device_src, std::size_t bytes) override;
  void copy_device_to_device(void* dst, const void* src, std::size_t bytes) override {
    settle_pending();
    make_current(ordinal_);
    check(api::copy_between_devices_async(dst, src, bytes, stream_),
          "device to device copy (" HIPAMP_GPU_API_PREFIX "MemcpyAsync)");
  }
  void wait_for(const event_ptr& event) override {
    if (!event) return;
    if (const auto* marker = dynamic_cast<const launch_marker*>(event.get())) {
      marker->wait_until_queued();
      if (marker->resolved()) {
        wait_for(marker->resolved());
        return;
      }
      if (&marker->home() == markers_.get()) return;  // one stream: already in order
      settle_pending();
      const api::event_t e = marker->materialize();
      make_current(ordinal_);
      check(api::stream_wait_event(stream_, e), HIPAMP_GPU_API_PREFIX "StreamWaitEvent");
    } else if (const auto* gpu = dynamic_cast<const gpu_event*>(event.get())) {
      settle_pending();
      make_current(ordinal_);  // the event may be another GPU's; the stream is this one's
      check(api::stream_wait_event(stream_, gpu->handle()),
            HIPAMP_GPU_API_PREFIX "StreamWaitEvent");
    } else {
      event->wait();  // host-side work, or a combination of events
    }
  }
  event_ptr record() override;
  event_ptr begin_launch() override;
  void end_launch(const event_ptr& marker) override;
  void resolve_launch(const event_ptr& marker, const event_ptr& done) override {
    marker_ring::resolve(marker, done);
  }
  void flush() override {}  // work is submitted as it is queued
  void wait() override {
    check(api::stream_synchronize(stream_),
          "accelerator_view::wait (" HIPAMP_GPU_API_PREFIX "StreamSynchronize)");
  }
  // Whoever asks for the stream is about to queue work on it (the program's own, or the
  // vendor libraries' in reduce, scan and gemm): the pending marker is settled first.
  void* native_handle() const noexcept override {
    try {
      const_cast<gpu_queue*>(this)->settle_pending();
    } catch (...) {
      // Not recorded now, the marker is recorded when waited for: later, never too early.
    }
    return stream_;
  }

  stream_t stream() const noexcept { return stream_; }
  int ordinal() const noexcept { return ordinal_; }
  int max_threads_per_tile() const noexcept { return max_threads_; }

  // Before new work enters the stream: records the last launch's marker if anyone still
  // holds it (see launch_markers.hpp).
  void settle_pending() { markers_->settle(); }

 private:
  gpu_device& device_;
  queuing_mode mode_;
  int ordinal_;
  int max_threads_;
  stream_t stream_ = nullptr;
  // After stream_: made from it in the constructor.
  std::shared_ptr<marker_ring> markers_;
};

class gpu_device final : public device_impl {
 public:
  gpu_device(int ordinal, device_properties props)
      : ordinal_(ordinal),
        props_(std::move(props)),
        events_(std::make_shared<event_pool>(ordinal)),
        staging_(ordinal) {}

  device_kind kind() const noexcept override { return device_kind::gpu; }
  const device_properties& properties() const noexcept override { return props_; }

  void* allocate(std::size_t bytes) override {
    make_current(ordinal_);
    void* p = nullptr;
    const error_t e = api::malloc_device(&p, bytes == 0 ? 1 : bytes);
    if (e == api::allocation_failed) {
      (void)last_error();
      std::size_t free_bytes = 0;
      std::size_t total_bytes = 0;
      discard_error(api::memory_info(&free_bytes, &total_bytes));
      throw hipamp::out_of_memory("hipamp: cannot allocate " + std::to_string(bytes) +
                                  " bytes on " + narrow_path(props_.description) + " (" +
                                  std::to_string(free_bytes) + " of " +
                                  std::to_string(total_bytes) + " bytes free)");
    }
    check(e, HIPAMP_GPU_API_PREFIX "Malloc");
    return p;
  }
  void deallocate(void* ptr) noexcept override {
    if (ptr == nullptr) return;
    try {
      make_current(ordinal_);
    } catch (...) {
      return;  // the device is gone, and its memory with it
    }
    discard_error(api::free_device(ptr));
  }
  std::shared_ptr<queue_impl> create_queue(queuing_mode mode) override {
    return std::make_shared<gpu_queue>(*this, mode);
  }
  std::shared_ptr<queue_impl> default_queue() override {
    std::call_once(default_once_, [this] { default_ = create_queue(queuing_mode_automatic); });
    return default_;
  }

  // Peer copies: both directions enabled at enumeration (the copy runs on the reader's
  // stream, and the writer's kernels may later read what the reader wrote back).
  bool copies_directly_from(const device_impl& source) const noexcept override {
    if (source.kind() != device_kind::gpu || &source == this) return false;
    const int from = source.properties().ordinal;
    return std::find(peers_.begin(), peers_.end(), from) != peers_.end();
  }
  void set_peers(std::vector<int> peers) { peers_ = std::move(peers); }

  bool pin_host(void* host, std::size_t bytes) noexcept override {
    try {
      make_current(ordinal_);
    } catch (...) {
      return false;
    }
    const error_t e = api::register_host(host, bytes);
    if (e != success) {
      // Memory the driver cannot lock (a mapped file, a range overlapping another
      // registration): the copies stay staged.
      discard_error(e);
      return false;
    }
    try {
      pinned_ranges().add(host, bytes);
    } catch (...) {
      discard_error(api::unregister_host(host));
      return false;
    }
    return true;
  }
  void unpin_host(void* host) noexcept override {
    try {
      pinned_ranges().remove(host);
      make_current(ordinal_);
    } catch (...) {
      return;
    }
    discard_error(api::unregister_host(host));
  }

  int ordinal() const noexcept { return ordinal_; }
  event_pool& events() noexcept { return *events_; }
  const std::shared_ptr<event_pool>& events_ptr() const noexcept { return events_; }
  staging_ring& staging() noexcept { return staging_; }

 private:
  int ordinal_;
  device_properties props_;
  std::shared_ptr<event_pool> events_;
  staging_ring staging_;
  std::once_flag default_once_;
  std::shared_ptr<queue_impl> default_;
  std::vector<int> peers_;  // ordinals whose memory this device copies from directly
};

gpu_queue::gpu_queue(gpu_device& device, queuing_mode mode)
    : device_(device),
      mode_(mode),
      ordinal_(device.ordinal()),
      max_threads_(device.properties().max_tile_size) {
  make_current(ordinal_);
  check(api::stream_create(&stream_), HIPAMP_GPU_API_PREFIX "StreamCreateWithFlags");
  markers_ = std::make_shared<marker_ring>(marker_stream{stream_, ordinal_, device.events_ptr()});
}

device_impl& gpu_queue::device() const noexcept { return device_; }

// Page-locked memory is copied directly, and waited for: the caller may reuse or change the
// host bytes once the call returns (as after a staged copy). Data sources pin only buffers of
// at least data_source::pin_min_bytes, whose staged copies wait for earlier work on the
// stream too (they need more than the ring's buffers), so waiting here costs no overlap.
void gpu_queue::copy_host_to_device(void* device_dst, const void* host_src, std::size_t bytes) {
  settle_pending();
  make_current(ordinal_);
  if (pinned_ranges().contains(host_src, bytes)) {
    check(api::copy_to_device_async(device_dst, host_src, bytes, stream_),
          "copy to device (" HIPAMP_GPU_API_PREFIX "MemcpyAsync)");
    check(api::stream_synchronize(stream_),
          "copy to device (" HIPAMP_GPU_API_PREFIX "StreamSynchronize)");
    return;
  }
  device_.staging().to_device(stream_, device_dst, host_src, bytes);
}

void gpu_queue::copy_device_to_host(void* host_dst, const void* device_src, std::size_t bytes) {
  settle_pending();
  make_current(ordinal_);
  if (pinned_ranges().contains(host_dst, bytes)) {
    check(api::copy_to_host_async(host_dst, device_src, bytes, stream_),
          "copy to host (" HIPAMP_GPU_API_PREFIX "MemcpyAsync)");
    check(api::stream_synchronize(stream_),
          "copy to host (" HIPAMP_GPU_API_PREFIX "StreamSynchronize)");
    return;
  }
  device_.staging().to_host(stream_, host_dst, device_src, bytes);
}

event_ptr gpu_queue::record() {
  settle_pending();
  return std::make_shared<gpu_event>(marker_stream::record_on(stream_, ordinal_, device_.events()),
                                     device_.events_ptr());
}

event_ptr gpu_queue::begin_launch() { return markers_->begin(); }

void gpu_queue::end_launch(const event_ptr& marker) { markers_->end(marker); }

std::wstring widen(const std::string& s) { return std::wstring(s.begin(), s.end()); }

struct found_gpu {
  int ordinal;
  double score;
  std::size_t memory;
  device_properties props;
};

// Turns on peer access between every pair of GPUs that allow it in both directions, so the
// coherence directory can move a view's bytes from one GPU to the other without the host.
// A pair that cannot (no NVLink or PCIe peer path, an IOMMU in the way) or fails to enable
// copies through the host instead; so do all pairs when HIPAMP_PEER_COPIES=0.
void enable_peer_copies(const std::vector<std::shared_ptr<gpu_device>>& gpus) {
  if (gpus.size() < 2 || !peer_copies_allowed()) return;
  auto reachable = [](int from, int to) {
    int can = 0;
    if (api::can_access_peer(&can, from, to) != success) {
      (void)last_error();
      return false;
    }
    return can != 0;
  };
  auto enable = [](int from, int to) {
    if (api::set_device(from) != success) {
      (void)last_error();
      return false;
    }
    const error_t e = api::enable_peer_access(to);
    // Already enabled (by the user's own code, say) is as good as enabled.
    if (e != success) (void)last_error();
    return e == success || e == api::peer_access_already_enabled;
  };
  // Enumeration must not change the calling thread's current device under the user's feet.
  int previous = 0;
  const bool known = api::get_device(&previous) == success;
  if (!known) (void)last_error();
  for (const auto& reader : gpus) {
    std::vector<int> peers;
    for (const auto& source : gpus) {
      const int a = reader->ordinal();
      const int b = source->ordinal();
      if (a == b || !reachable(a, b) || !reachable(b, a)) continue;
      if (enable(a, b) && enable(b, a)) peers.push_back(b);
    }
    reader->set_peers(std::move(peers));
  }
  if (known && api::set_device(previous) != success) (void)last_error();
}

}  // namespace

launch_target prepare_launch(queue_impl& queue) {
  auto& q = static_cast<gpu_queue&>(queue);
  q.settle_pending();
  make_current(q.ordinal());
  return launch_target{q.stream(), q.max_threads_per_tile()};
}

}  // namespace hipamp::detail::gpu

namespace hipamp::detail {

// GPUs best first: most multiprocessors times clock, then most memory, then lowest ordinal.
std::vector<std::shared_ptr<device_impl>> enumerate_gpu_devices() {
  using namespace gpu;
  int count = 0;
  const error_t counted = api::device_count(&count);
  if (counted != success || count <= 0) {
    (void)last_error();  // no driver or no device: a CPU-only run, not an error
    return {};
  }
  several_gpus.store(count > 1);
  std::vector<found_gpu> found;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    api::device_prop_t p{};
    if (api::device_properties(&p, ordinal) != success) {
      (void)last_error();
      continue;
    }
    int sms = 0;
    int clock = 0;
    int timeout = 0;
    if (api::multiprocessor_count(&sms, ordinal) != success) (void)last_error();
    if (api::clock_khz(&clock, ordinal) != success) (void)last_error();
    if (api::has_kernel_timeout(&timeout, ordinal) != success) (void)last_error();
    device_properties props;
    const std::string arch = api::architecture(p);
    props.description = widen(std::string(p.name) + " (" + HIPAMP_GPU_API_PREFIX + " " + arch +
                              ", " + std::to_string(sms) + " multiprocessors, " +
                              std::to_string(p.totalGlobalMem >> 20) + " MiB)");
    props.device_path = widen(std::string(HIPAMP_GPU_API_PREFIX) + ":" + std::to_string(ordinal));
    props.version = (static_cast<unsigned>(p.major) << 16) | static_cast<unsigned>(p.minor);
    props.dedicated_memory_kb = p.totalGlobalMem / 1024;
    props.supports_double_precision = true;
    props.supports_limited_double_precision = true;
    props.has_display = timeout != 0;  // a watchdog means a display shares the GPU
    props.is_emulated = false;
    props.is_debug = false;
    props.supports_cpu_shared_memory = false;
    props.max_tile_size = p.maxThreadsPerBlock;
    props.ordinal = ordinal;
    found.push_back(
        {ordinal, static_cast<double>(sms) * clock, p.totalGlobalMem, std::move(props)});
  }
  std::stable_sort(found.begin(), found.end(), [](const found_gpu& a, const found_gpu& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.memory > b.memory;
  });
  // The devices are never destroyed: views and arrays the user keeps in static objects may
  // outlive the registry, and the vendor runtime tears itself down at exit in an order that
  // C++ static destruction cannot follow.
  static auto* immortal = new std::vector<std::shared_ptr<device_impl>>();
  std::vector<std::shared_ptr<device_impl>> devices;
  std::vector<std::shared_ptr<gpu_device>> gpus;
  for (found_gpu& f : found) {
    gpus.push_back(std::make_shared<gpu_device>(f.ordinal, std::move(f.props)));
    devices.push_back(gpus.back());
    immortal->push_back(devices.back());
  }
  enable_peer_copies(gpus);
  return devices;
}

}  // namespace hipamp::detail
