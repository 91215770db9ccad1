// The coherence directory. Locations are the host (which the CPU device aliases) and one
// replica per other device. Invariant: every byte of a source is valid in at least one
// location unless it was discarded, and a byte valid in several locations is equal in all.
#include <hipamp/detail/data_source.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <hipamp/detail/env_switch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/transfer_statistics.hpp>

#include <hipamp/detail/host_memory.hpp>
#include "interval_set.hpp"

namespace hipamp::detail {

std::size_t footprint::begin_byte() const noexcept {
  auto first = static_cast<std::ptrdiff_t>(offset);
  for (std::size_t d = 0; d < extent.size(); ++d) {
    if (stride[d] < 0) first += (extent[d] - 1) * stride[d];
  }
  return static_cast<std::size_t>(first) * element_size;
}

std::size_t footprint::end_byte() const noexcept {
  auto last = static_cast<std::ptrdiff_t>(offset);
  for (std::size_t d = 0; d < extent.size(); ++d) {
    if (extent[d] <= 0) return begin_byte();
    if (stride[d] > 0) last += (extent[d] - 1) * stride[d];
  }
  return static_cast<std::size_t>(last + 1) * element_size;
}

bool footprint::contiguous() const noexcept {
  std::ptrdiff_t expected = 1;
  for (std::size_t d = extent.size(); d-- > 0;) {
    if (extent[d] > 1 && stride[d] != expected) return false;
    expected *= extent[d];
  }
  return true;
}

footprint::byte_span footprint::span() const noexcept {
  // begin_byte, end_byte and contiguous, fused: one walk over the dimensions.
  const std::ptrdiff_t* n = extent.begin();
  const std::ptrdiff_t* s = stride.begin();
  auto first = static_cast<std::ptrdiff_t>(offset);
  auto last = first;
  std::ptrdiff_t expected = 1;
  bool dense = true;
  bool empty = false;
  for (std::size_t d = extent.size(); d-- > 0;) {
    empty |= n[d] <= 0;
    const std::ptrdiff_t reach = (n[d] - 1) * s[d];
    if (reach < 0) first += reach;
    if (reach > 0) last += reach;
    dense &= n[d] <= 1 || s[d] == expected;
    expected *= n[d];
  }
  const std::size_t b = static_cast<std::size_t>(first) * element_size;
  if (empty) return {b, b, dense};
  return {b, static_cast<std::size_t>(last + 1) * element_size, dense};
}

namespace {

class all_of_events final : public event_impl {
 public:
  explicit all_of_events(std::vector<event_ptr> events) : events_(std::move(events)) {}
  bool is_ready() const override {
    return std::all_of(events_.begin(), events_.end(),
                       [](const event_ptr& e) { return e->is_ready(); });
  }
  void wait() const override {
    for (const event_ptr& e : events_) e->wait();
  }

 private:
  std::vector<event_ptr> events_;
};

}  // namespace

namespace {

// Live sources over user memory, by first byte, so that views made separately over one
// container stay coherent with each other.
struct host_source_registry {
  std::mutex mutex;
  std::map<std::uintptr_t, data_source*> by_begin;
};
host_source_registry& registry() {
  static host_source_registry r;
  return r;
}

}  // namespace

// One queue's last use of a replica. Queues are named by serial (queue_impl::serial), not
// address: a queue made after another one died may live at its address, and must not be taken
// for it (it would skip waiting for the old queue's work).
struct queue_use {
  std::uint64_t queue;
  event_ptr done;
};

struct replica {
  device_impl* device = nullptr;
  void* base = nullptr;
  interval_set valid;
  // Work on one queue runs in order; across queues these events order it. A reader waits for
  // the last writer, a writer (a kernel or a copy in) also for every reader since then.
  event_ptr last_write;
  std::uint64_t write_queue = 0;
  std::vector<queue_use> reads;  // last read per queue since last_write

  void order_read(queue_impl& q) const {
    if (last_write && write_queue != q.serial()) q.wait_for(last_write);
  }
  void order_write(queue_impl& q) const {
    order_read(q);
    for (const queue_use& r : reads) {
      if (r.queue != q.serial()) q.wait_for(r.done);
    }
  }
  void note_read(queue_impl& q, const event_ptr& done) { note_read(q.serial(), done); }
  void note_read(std::uint64_t q, const event_ptr& done) {
    for (queue_use& r : reads) {
      if (r.queue == q) {
        r.done = done;
        return;
      }
    }
    reads.push_back({q, done});
  }
  // The writer waited for every earlier reader, so its event covers them all.
  void note_write(queue_impl& q, const event_ptr& done) { note_write(q.serial(), done); }
  void note_write(std::uint64_t q, const event_ptr& done) {
    last_write = done;
    write_queue = q;
    reads.clear();
  }
  // Blocks until no work uses the replica (before freeing it).
  void wait_idle() const {
    if (last_write) last_write->wait();
    for (const queue_use& r : reads) r.done->wait();
  }
};

struct data_source::state {
  std::mutex mutex;
  interval_set host_valid;
  host_buffer owned_host;
  std::vector<replica> replicas;
  // The pinning policy (data_source::pin_min_bytes): bytes moved between the host and a
  // device so far, whether pinning was decided, and the device that pinned the memory.
  std::size_t moved_bytes = 0;
  bool pin_decided = false;
  device_impl* pinned_on = nullptr;

  replica* find(const device_impl& device) {
    for (replica& r : replicas) {
      if (r.device == &device) return &r;
    }
    return nullptr;
  }
};

namespace {

// The byte ranges a copy of the footprint moves: its exact runs, merged across small holes.
std::vector<byte_range> transfer_ranges(const footprint& fp) {
  std::vector<byte_range> out;
  fp.for_each_run([&](std::size_t b, std::size_t e) {
    if (!out.empty() && b >= out.back().end && b - out.back().end <= data_source::merge_gap_bytes) {
      out.back().end = std::max(out.back().end, e);
    } else {
      out.push_back({b, e});
    }
  });
  return out;
}

// The bytes the footprint's elements occupy, exactly (what a write changes).
template <class F>
void for_each_exact_run(const footprint& fp, F&& f) {
  fp.for_each_run(std::forward<F>(f));
}

// Whether `to`'s queues copy straight from `from`'s memory (a peer copy); otherwise the
// bytes come through host memory.
bool copies_directly(const device_impl& from, const device_impl& to) noexcept {
  return to.copies_directly_from(from);
}

}  // namespace

data_source::data_source(std::size_t bytes, void* host, std::shared_ptr<queue_impl> home)
    : bytes_(bytes), host_(host), home_(std::move(home)), state_(std::make_unique<state>()) {
  // The creator holds the first reference (see retain in the header).
  if (biasing_enabled()) {
    owner_refs_.store(1, std::memory_order_relaxed);
    owner_.store(this_thread_token(), std::memory_order_relaxed);
  } else {
    refs_.store(1, std::memory_order_relaxed);
  }
}

namespace {

// The heavy half of the biased count's handshake: every running thread of the process executes
// a full memory barrier before this returns (Linux membarrier, private expedited: an IPI to the
// CPUs running this process's threads, about 0.5 us). Registered once; sources start shared
// where that fails.
bool register_process_barrier() noexcept {
#if defined(__linux__) && defined(SYS_membarrier)
  const long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (commands < 0 || (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
  return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  return false;
#endif
}

void process_barrier() noexcept {
#if defined(__linux__) && defined(SYS_membarrier)
  // Registered by biasing_enabled() before any source was biased (a child of fork() inherits
  // the registration). Should the call still fail, register again and retry, and failing that
  // take the global barrier (slow, but it needs no registration): never demote without one.
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
      syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) {
    return;
  }
  (void)syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
#endif
}

}  // namespace

bool data_source::biasing_enabled() noexcept {
  static const bool enabled = !env_switch_off("HIPAMP_BIASED_REFS") && register_process_barrier();
  return enabled;
}

void data_source::demote() noexcept {
  std::uintptr_t owner = owner_.load(std::memory_order_acquire);
  for (;;) {
    if (owner == shared_count) return;
    if (owner == demoting) {
      // Another thread is demoting: it waits for nothing that this thread holds.
      std::this_thread::yield();
      owner = owner_.load(std::memory_order_acquire);
      continue;
    }
    if (owner_.compare_exchange_weak(owner, demoting, std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
      break;
    }
  }
  // After the barrier the owner either sees `demoting` in its next check, or had raised
  // owner_busy_ before it, visibly: wait for its update to finish.
  process_barrier();
  while (owner_busy_.load(std::memory_order_acquire)) std::this_thread::yield();
  refs_.store(owner_refs_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  owner_.store(shared_count, std::memory_order_release);
}

void data_source::retain_shared() noexcept {
  if (owner_.load(std::memory_order_acquire) != shared_count) demote();
  refs_.fetch_add(1, std::memory_order_relaxed);
}

int data_source::use_count() const noexcept {
  for (;;) {
    const std::uintptr_t owner = owner_.load(std::memory_order_acquire);
    if (owner == shared_count) return refs_.load(std::memory_order_relaxed);
    if (owner != demoting) return owner_refs_.load(std::memory_order_relaxed);
    std::this_thread::yield();
  }
}

bool data_source::referenced_locked() const noexcept {
  // Under the registry lock. A biased count reaches zero only in release_slow, under the same
  // lock, so any value read here other than 0 means a reference lives; a demotion under way
  // means its thread holds one.
  const std::uintptr_t owner = owner_.load(std::memory_order_acquire);
  if (owner == shared_count) return refs_.load(std::memory_order_acquire) > 0;
  if (owner == demoting) return true;
  return owner_refs_.load(std::memory_order_acquire) > 0;
}

data_source::~data_source() {
  try {
    revoke_ticket_locked();  // the last reference is gone: nobody else holds the mutex
  } catch (...) {
    // Out of memory for a read's note: wait_idle below still waits for every write.
  }
  for (replica& r : state_->replicas) {
    try {
      r.wait_idle();
    } catch (...) {
      // A lost device cannot be waited for; its memory goes with it.
    }
    r.device->deallocate(r.base);
  }
  // Copies to and from pinned memory have finished (they are waited for), and the program
  // may free its memory once the last view is gone: unlock it now.
  if (state_->pinned_on != nullptr) state_->pinned_on->unpin_host(host_);
}

bool data_source::holds_program_memory() const noexcept {
  return host_ != nullptr && home_ == nullptr && state_->owned_host == nullptr;
}

namespace {
bool pinning_enabled() {
  static const bool enabled = [] {
    const char* text = std::getenv("HIPAMP_PIN_TRANSFERS");
    if (text == nullptr) return true;
    const std::string value(text);
    if (value == "0") return false;
    if (value == "1") return true;
    throw runtime_exception("hipamp: HIPAMP_PIN_TRANSFERS='" + value + "' is not 0 or 1");
  }();
  return enabled;
}
}  // namespace

void data_source::consider_pinning_locked(device_impl& device) {
  state& st = *state_;
  if (st.pin_decided || bytes_ < pin_min_bytes || st.moved_bytes < 2 * bytes_) return;
  if (!holds_program_memory() || device.aliases_host_memory() || !pinning_enabled()) return;
  st.pin_decided = true;
  if (device.pin_host(host_, bytes_)) {
    st.pinned_on = &device;
    record_pin(device, bytes_);
  }
}

void data_source::release_slow() noexcept {
  // release()'s one inline try failed: the last reference, or another thread changed the count
  // meanwhile. Not the last reference: drop it without the registry lock (the lock is global,
  // and every view passed or captured by value releases a reference). Safe against
  // create_over_host reviving the source: only a release that may reach zero takes the lock
  // below, and this one leaves at least one reference.
  //
  // A count biased to this thread: release() saw its last reference (or a demotion began).
  // The count biased to another thread: demote it, then drop the reference shared.
  const std::uintptr_t owner = owner_.load(std::memory_order_acquire);
  if (owner != this_thread_token() && owner != shared_count) demote();
  if (owner_.load(std::memory_order_acquire) == shared_count) {
    int refs = refs_.load(std::memory_order_relaxed);
    while (refs > 1) {
      if (refs_.compare_exchange_weak(refs, refs - 1, std::memory_order_acq_rel,
                                      std::memory_order_relaxed)) {
        return;
      }
    }
  }
  // Drops this thread's reference, which may be the last: true when it was.
  auto drop_last = [this]() noexcept {
    if (owner_.load(std::memory_order_acquire) == this_thread_token()) {
      // Only this thread changes a count biased to it: its value is exact unless a demotion
      // began, which owner_add reports.
      const int refs = owner_refs_.load(std::memory_order_relaxed);
      if (owner_add(-1)) return refs == 1;
      demote();  // a demotion began: finish waiting for it
    }
    return refs_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  };
  if (registered_) {
    // Unregister under the registry lock so a concurrent lookup cannot revive this source.
    host_source_registry& reg = registry();
    std::lock_guard<std::mutex> lock(reg.mutex);
    if (!drop_last()) return;
    auto it = reg.by_begin.find(reinterpret_cast<std::uintptr_t>(host_));
    if (it != reg.by_begin.end() && it->second == this) reg.by_begin.erase(it);
  } else if (!drop_last()) {
    return;
  }
  // The last view is gone: the user's memory must hold the data the views wrote. Sources the
  // library owns (arrays, views made without a container) have no one to hand data to.
  if (host_ != nullptr && home_ == nullptr && state_->owned_host == nullptr) {
    try {
      footprint all;
      all.element_size = 1;
      all.extent = {static_cast<std::ptrdiff_t>(bytes_)};
      all.stride = {1};
      (void)acquire_host(all, false);
    } catch (...) {
      // A lost device cannot hand the data back; destruction must not throw.
    }
  }
  delete this;
}

data_source* data_source::create_over_host(void* host, std::size_t bytes, std::size_t& offset) {
  const auto begin = reinterpret_cast<std::uintptr_t>(host);
  host_source_registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto it = reg.by_begin.upper_bound(begin);
  if (it != reg.by_begin.begin()) {
    --it;
    data_source* existing = it->second;
    const std::uintptr_t existing_end = it->first + existing->size_bytes();
    if (begin + bytes <= existing_end && existing->referenced_locked()) {
      existing->retain();
      offset = begin - it->first;
      return existing;
    }
  }
  auto* src = new data_source(bytes, host, nullptr);  // owned by the returned reference
  src->state_->host_valid.add(0, bytes);
  src->registered_ = true;
  reg.by_begin[begin] = src;
  offset = 0;
  return src;
}

data_source* data_source::create_owned(std::shared_ptr<queue_impl> home, std::size_t bytes) {
  // Allocate first, so a failed allocation leaves nothing behind.
  if (home && !home->device().aliases_host_memory()) {
    replica r;
    r.device = &home->device();
    r.base = r.device->allocate(bytes);
    auto* src = new data_source(bytes, nullptr, std::move(home));
    src->state_->replicas.push_back(std::move(r));
    return src;
  }
  host_buffer storage = allocate_host(bytes);
  auto* src = new data_source(bytes, nullptr, std::move(home));
  src->state_->owned_host = std::move(storage);
  src->host_ = src->state_->owned_host.get();
  return src;
}

// ---- helpers that run under state::mutex ------------------------------------------------

namespace {

std::byte* ensure_host_locked(void*& host, host_buffer& owned, std::size_t bytes) {
  if (host == nullptr) {
    owned = allocate_host(bytes);
    host = owned.get();
  }
  return static_cast<std::byte*>(host);
}

replica& ensure_replica_locked(std::vector<replica>& replicas, device_impl& device,
                               std::size_t bytes) {
  for (replica& r : replicas) {
    if (r.device == &device) return r;
  }
  replica r;
  r.device = &device;
  r.base = device.allocate(bytes);
  replicas.push_back(std::move(r));
  return replicas.back();
}

// Copies [b, e) of `from` into host memory at `host_dst` (which need not be this source's).
// One queue per device for copies back to the host, apart from the queues kernels run on, so
// that host access waits for the work that wrote its data (through last_write) and not for
// unrelated work queued behind it.
queue_impl& readback_queue(device_impl& device) {
  static std::mutex mutex;
  // Leaked on purpose: views destroyed during static destruction may still read back.
  // NOLINTNEXTLINE(cppcoreguidelines-owning-memory)
  static auto* queues = new std::map<const device_impl*, std::shared_ptr<queue_impl>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<queue_impl>& q = (*queues)[&device];
  if (!q) q = device.create_queue(queuing_mode_automatic);
  return *q;
}

void copy_replica_to_host(replica& from, std::byte* host_dst, std::size_t b, std::size_t e) {
  queue_impl* queue = &readback_queue(*from.device);
  from.order_read(*queue);
  queue->copy_device_to_host(host_dst, static_cast<const std::byte*>(from.base) + b, e - b);
  record_transfer(*from.device, transfer_direction::device_to_host, e - b);
}

// Makes [b, e) valid in host memory, copying from whichever replica holds each stale byte;
// before_copy(replica, bytes) runs before each copy.
template <class BeforeCopy>
void make_host_valid_locked(interval_set& host_valid, std::vector<replica>& replicas,
                            std::byte* host, std::size_t b, std::size_t e,
                            BeforeCopy&& before_copy) {
  for (const byte_range& gap : host_valid.gaps(b, e)) {
    for (replica& r : replicas) {
      for (const byte_range& part : r.valid.overlap(gap.begin, gap.end)) {
        if (host_valid.covers(part.begin, part.end)) continue;
        before_copy(r, part.size());
        copy_replica_to_host(r, host + part.begin, part.begin, part.end);
        host_valid.add(part.begin, part.end);
      }
    }
    // Bytes valid nowhere (discarded, or never written) become the host's as they are.
    host_valid.add(gap.begin, gap.end);
  }
}

}  // namespace

void* data_source::device_base(device_impl& device) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  // A new replica may move the others (the ticket points at one): revoke first.
  revoke_ticket_locked();
  if (device.aliases_host_memory()) return ensure_host_locked(host_, state_->owned_host, bytes_);
  return ensure_replica_locked(state_->replicas, device, bytes_).base;
}

void* data_source::acquire_host(const footprint& fp, bool write) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  revoke_ticket_locked();
  state& st = *state_;
  // The CPU device's every launch and host sync comes here. When no device holds a replica and
  // host memory holds the footprint's whole span, there is nothing to copy in and no device
  // copy to invalidate: the walk below would only list the footprint's runs (one per row of a
  // section, allocating) to find that out. O(rank) instead of O(rows).
  if (st.replicas.empty() && host_ != nullptr) {
    // Every byte in host memory: later CPU launches may skip the lock (acquire_host_sole)
    // until the next locked function unmarks the source.
    if (st.host_valid.covers(0, bytes_)) {
      host_sole_.store(true, std::memory_order_release);
      return host_;
    }
    if (st.host_valid.covers(fp.begin_byte(), fp.end_byte())) return host_;
  }
  std::byte* host = ensure_host_locked(host_, st.owned_host, bytes_);
  for (const byte_range& range : transfer_ranges(fp)) {
    make_host_valid_locked(st.host_valid, st.replicas, host, range.begin, range.end,
                           [&](replica& from, std::size_t bytes) {
                             consider_pinning_locked(*from.device);
                             st.moved_bytes += bytes;
                           });
  }
  if (write) {
    for_each_exact_run(fp, [&](std::size_t b, std::size_t e) {
      for (replica& r : st.replicas) r.valid.remove(b, e);
    });
  }
  return host_;
}

void data_source::revoke_ticket_locked() {
  // The caller may change what the mark certifies; acquire_host sets it again if it still holds.
  host_sole_.store(false, std::memory_order_relaxed);
  // Only holders of state::mutex (as the caller is) change ticket_queue_, so this relaxed load
  // sees the latest value.
  if (ticket_queue_.load(std::memory_order_relaxed) == 0) return;
  kernel_ticket t;
  {
    std::lock_guard<ticket_lock> lock(ticket_lock_);
    t = std::move(ticket_);
    ticket_ = kernel_ticket{};
    ticket_queue_.store(0, std::memory_order_relaxed);
  }
  // The uses the fast path noted, in the order they happened (a read noted after the write).
  // A counted note becomes a reference in the replica first and is given back after, so the
  // marker is never without either (launch_markers' reuse rule reads the notes first).
  if (t.write) {
    t.target->note_write(t.queue, t.write);
  } else if (t.write_note != nullptr) {
    t.target->note_write(t.queue, t.write_note->share());
  }
  if (t.read) {
    t.target->note_read(t.queue, t.read);
  } else if (t.read_note != nullptr) {
    t.target->note_read(t.queue, t.read_note->share());
  }
  if (t.write_note != nullptr) t.write_note->drop_notes(1);
  if (t.read_note != nullptr) t.read_note->drop_notes(1);
}

void data_source::note_in_ticket(kernel_ticket& t, bool write, const event_ptr& done,
                                 retired_notes& retired) noexcept {
  if (write) {
    retired.events[0] = std::exchange(t.write, done);
    retired.events[1] = std::move(t.read);  // the write covers every read before it
    t.read = nullptr;
    retired.notes[0] = std::exchange(t.write_note, nullptr);
    retired.notes[1] = std::exchange(t.read_note, nullptr);
  } else {
    retired.events[0] = std::exchange(t.read, done);
    retired.notes[0] = std::exchange(t.read_note, nullptr);
  }
}

void data_source::note_in_ticket(kernel_ticket& t, bool write, const counted_marker& marker,
                                 retired_notes& retired) noexcept {
  if (write) {
    retired.notes[0] = std::exchange(t.write_note, &marker);
    retired.notes[1] = std::exchange(t.read_note, nullptr);  // the write covers every read
    retired.events[0] = std::move(t.write);
    retired.events[1] = std::move(t.read);
    t.write = nullptr;
    t.read = nullptr;
  } else {
    retired.notes[0] = std::exchange(t.read_note, &marker);
    retired.events[0] = std::move(t.read);
    t.read = nullptr;
  }
}

void data_source::install_ticket_locked(queue_impl& queue, replica& target, const footprint& fp,
                                        bool write) {
  const std::size_t b = fp.begin_byte();
  const std::size_t e = fp.end_byte();
  // The bounding range, so that any view inside it qualifies: a strided view whose gaps are
  // not valid on the device gets no ticket (and keeps the slow path).
  if (b >= e || !target.valid.covers(b, e)) return;
  state& st = *state_;
  // The queue was ordered after the last writer just now (order_read or order_write above),
  // and any later writer must revoke the ticket first. A write also needs the queue ordered
  // after every reader (order_write did that when this acquire was a write) and no other
  // location holding any byte (else the fast path would have to invalidate it).
  bool writable =
      write || std::all_of(target.reads.begin(), target.reads.end(),
                           [&](const queue_use& r) { return r.queue == queue.serial(); });
  writable = writable && !st.host_valid.intersects(b, e);
  for (const replica& other : st.replicas) {
    if (&other != &target && other.valid.intersects(b, e)) writable = false;
  }
  std::lock_guard<ticket_lock> lock(ticket_lock_);
  ticket_ = kernel_ticket{b, e, writable, target.base, &target, queue.serial(), nullptr, nullptr};
  ticket_queue_.store(queue.serial(), std::memory_order_relaxed);
}

void* data_source::acquire_with_ticket(queue_impl& queue, std::size_t begin, std::size_t end,
                                       bool write, const event_ptr& marker) {
  if (!marker) {
    // Nothing to note (complete_kernel notes the launch's event later): only the check.
    std::lock_guard<ticket_lock> lock(ticket_lock_);
    if (ticket_queue_.load(std::memory_order_relaxed) != queue.serial() || begin < ticket_.begin ||
        end > ticket_.end || (write && !ticket_.writable)) {
      return nullptr;
    }
    return ticket_.base;
  }
  retired_notes retired;  // declared first: dealt with after the spinlock is released
  void* base = nullptr;
  {
    std::lock_guard<ticket_lock> lock(ticket_lock_);
    if (ticket_queue_.load(std::memory_order_relaxed) != queue.serial() || begin < ticket_.begin ||
        end > ticket_.end || (write && !ticket_.writable)) {
      return nullptr;
    }
    // What the slow path would do for bytes already valid here and already ordered: note the
    // launch's marker (without one, complete_kernel notes the launch's event later).
    if (marker) note_in_ticket(ticket_, write, marker, retired);
    base = ticket_.base;
  }
  for (const counted_marker* m : retired.notes) {
    if (m != nullptr) m->drop_notes(1);
  }
  return base;
}

void* data_source::acquire_with_ticket_noted(queue_impl& queue, std::size_t begin, std::size_t end,
                                             bool write, const counted_marker& marker,
                                             launch_notes& notes) {
  // As acquire_with_ticket, but the marker is noted by address: its count, and the counts of
  // the notes it replaces, are settled once for the whole launch (launch_notes). Written out
  // rather than through note_in_ticket: in the steady state no event note is there to move.
  event_ptr retired[2];  // declared first: destroyed after the spinlock is released
  std::lock_guard<ticket_lock> lock(ticket_lock_);
  if (ticket_queue_.load(std::memory_order_relaxed) != queue.serial() || begin < ticket_.begin ||
      end > ticket_.end || (write && !ticket_.writable)) {
    return nullptr;
  }
  kernel_ticket& t = ticket_;
  if (write) {
    notes.replaced(std::exchange(t.write_note, &marker));
    notes.replaced(std::exchange(t.read_note, nullptr));  // the write covers every read
    if (t.write) retired[0] = std::move(t.write);
    if (t.read) retired[1] = std::move(t.read);
  } else {
    notes.replaced(std::exchange(t.read_note, &marker));
    if (t.read) retired[0] = std::move(t.read);
  }
  notes.noted();
  return t.base;
}

void* data_source::acquire_for_kernel(queue_impl& queue, const footprint& fp,
                                      const footprint::byte_span& span, bool write,
                                      const event_ptr& marker) {
  // The steady state of a loop of launches (see kernel_ticket). Only queues on devices with
  // their own memory ever hold a ticket, so the CPU devices skip this after one load.
  if (ticket_queue_.load(std::memory_order_relaxed) == queue.serial()) {
    if (void* base = acquire_with_ticket(queue, span.begin, span.end, write, marker)) {
      return base;
    }
  }
  device_impl& device = queue.device();
  if (device.aliases_host_memory()) {
    void* base = acquire_host(fp, write);
    if (write) host_epoch_.fetch_add(1, std::memory_order_acq_rel);
    return base;
  }
  std::lock_guard<std::mutex> lock(state_->mutex);
  revoke_ticket_locked();
  state& st = *state_;
  replica& target = ensure_replica_locked(st.replicas, device, bytes_);
  auto* dev = static_cast<std::byte*>(target.base);
  std::vector<replica*> peers_read;
  bool copied = false;
  auto before_first_copy = [&] {
    if (!copied) target.order_write(queue);
    copied = true;
  };
  // The common case in a loop of launches: the bytes are already valid on the target.
  // Checked first without building any range list (a launch pays this once per view).
  const bool already_valid = span.dense && target.valid.covers(span.begin, span.end);
  for (const byte_range& range : already_valid ? std::vector<byte_range>{} : transfer_ranges(fp)) {
    for (const byte_range& gap : target.valid.gaps(range.begin, range.end)) {
      // Bytes another device holds move directly between the devices where they can (peer
      // copies); otherwise they come through the host.
      for (replica& other : st.replicas) {
        if (&other == &target) continue;
        for (const byte_range& part : other.valid.overlap(gap.begin, gap.end)) {
          for (const byte_range& missing : st.host_valid.gaps(part.begin, part.end)) {
            if (copies_directly(*other.device, device) &&
                !target.valid.covers(missing.begin, missing.end)) {
              before_first_copy();
              other.order_read(queue);
              queue.copy_device_to_device(dev + missing.begin,
                                          static_cast<const std::byte*>(other.base) + missing.begin,
                                          missing.size());
              record_transfer(device, transfer_direction::device_to_device, missing.size());
              target.valid.add(missing.begin, missing.end);
              peers_read.push_back(&other);
            } else {
              std::byte* host = ensure_host_locked(host_, st.owned_host, bytes_);
              consider_pinning_locked(*other.device);
              st.moved_bytes += missing.size();
              copy_replica_to_host(other, host + missing.begin, missing.begin, missing.end);
              st.host_valid.add(missing.begin, missing.end);
            }
          }
        }
      }
      for (const byte_range& part : st.host_valid.overlap(gap.begin, gap.end)) {
        if (target.valid.covers(part.begin, part.end)) continue;
        before_first_copy();
        consider_pinning_locked(device);
        st.moved_bytes += part.size();
        queue.copy_host_to_device(dev + part.begin,
                                  static_cast<const std::byte*>(host_) + part.begin, part.size());
        record_transfer(device, transfer_direction::host_to_device, part.size());
      }
      // Bytes valid nowhere (discarded or never written) need no copy.
      target.valid.add(gap.begin, gap.end);
    }
  }
  if (copied) {
    // The copies wrote the replica: later users on other queues wait for them.
    const event_ptr done = queue.record();
    target.note_write(queue, done);
    for (replica* peer : peers_read) peer->note_read(queue, done);
  }
  if (write) {
    target.order_write(queue);
    for_each_exact_run(fp, [&](std::size_t b, std::size_t e) {
      st.host_valid.remove(b, e);
      for (replica& other : st.replicas) {
        if (&other != &target) other.valid.remove(b, e);
      }
    });
  } else {
    target.order_read(queue);
  }
  // The launch's marker stands for the kernel from now on (launch_scope::complete calls no
  // complete_kernel for it): a later launch on this queue that binds these views again
  // replaces it before queuing anything, so a queue need record no event for a launch that
  // nobody else waits for.
  if (marker) {
    if (write) {
      target.note_write(queue, marker);
    } else {
      target.note_read(queue, marker);
    }
  }
  // The host's claim changed (it now shares or lost these bytes): host views re-check.
  host_epoch_.fetch_add(1, std::memory_order_acq_rel);
  // Until something else takes state::mutex, the same use on this queue needs none of the
  // above again.
  install_ticket_locked(queue, target, fp, write);
  return target.base;
}

void data_source::complete_kernel(queue_impl& queue, bool write, const event_ptr& done) {
  if (ticket_queue_.load(std::memory_order_relaxed) == queue.serial()) {
    // The ticket's replica is this queue's device's: its events are the spinlock's to guard.
    retired_notes retired;  // dealt with after the spinlock is released
    bool noted = false;
    {
      std::lock_guard<ticket_lock> lock(ticket_lock_);
      if (ticket_queue_.load(std::memory_order_relaxed) == queue.serial()) {
        note_in_ticket(ticket_, write, done, retired);
        noted = true;
      }
    }
    // Counted notes are there only if this queue also hands out markers (never both kinds in
    // practice): one test each.
    if (retired.notes[0] != nullptr) retired.notes[0]->drop_notes(1);
    if (retired.notes[1] != nullptr) retired.notes[1]->drop_notes(1);
    if (noted) return;
  }
  if (queue.device().aliases_host_memory()) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  revoke_ticket_locked();
  replica* r = state_->find(queue.device());
  if (r == nullptr) return;
  if (write) {
    r->note_write(queue, done);
  } else {
    r->note_read(queue, done);
  }
}

bool data_source::is_array_storage() const noexcept { return home_ != nullptr; }

void data_source::discard(const footprint& fp, bool keep_array_data) {
  // A user's discard_data on a view of an array: the array's contents are the array's, which
  // kernels also reach through the array itself, and C++ AMP keeps them (the data of an array
  // lives on its accelerator; discarding a view of it moves nothing). Dropping every copy made
  // the next use take stale bytes "as they are": a launch filled the array from its host
  // shadow, a read-back returned the device's never-written memory (the conformance suite's
  // Projection test on the H100). Keeping every copy keeps the data and moves nothing now.
  if (keep_array_data && is_array_storage()) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  revoke_ticket_locked();
  for_each_exact_run(fp, [&](std::size_t b, std::size_t e) {
    state_->host_valid.remove(b, e);
    for (replica& r : state_->replicas) r.valid.remove(b, e);
  });
  host_epoch_.fetch_add(1, std::memory_order_acq_rel);
}

void data_source::refresh(const footprint& fp) {
  // "The bound memory changed behind the views' backs" can only be the program's own memory:
  // an array's storage changes only through the array and its views, which keep the directory
  // up to date, and a view with no data source has no memory anyone else reaches. Making the
  // host copy the truth there lost what kernels had written (C++ AMP keeps it: the suite's
  // ImplicitSynchronize/Refresh and WithoutDataSource/refresh tests).
  if (!holds_program_memory()) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  revoke_ticket_locked();
  for_each_exact_run(fp, [&](std::size_t b, std::size_t e) {
    state_->host_valid.add(b, e);
    for (replica& r : state_->replicas) r.valid.remove(b, e);
  });
  host_epoch_.fetch_add(1, std::memory_order_acq_rel);
}

event_ptr data_source::pending_writes(const footprint& /*fp*/) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  revoke_ticket_locked();  // to read the events the fast path writes
  std::vector<event_ptr> events;
  for (const replica& r : state_->replicas) {
    if (r.last_write) events.push_back(r.last_write);
  }
  if (events.empty()) return ready_event();
  return std::make_shared<all_of_events>(std::move(events));
}

void data_source::copy(data_source& from, std::size_t from_offset, data_source& to,
                       std::size_t to_offset, std::size_t bytes) {
  if (bytes == 0) return;
  std::scoped_lock lock(from.state_->mutex, to.state_->mutex);
  from.revoke_ticket_locked();
  to.revoke_ticket_locked();
  state& src = *from.state_;
  state& dst = *to.state_;
  const std::size_t sb = from_offset;
  const std::size_t se = from_offset + bytes;
  const std::size_t db = to_offset;
  const std::size_t de = to_offset + bytes;

  // Where the destination's bytes will live: its array's device, else host memory.
  queue_impl* dst_queue = nullptr;
  if (to.home_ && !to.home_->device().aliases_host_memory()) dst_queue = to.home_.get();

  if (dst_queue == nullptr) {
    std::byte* out = ensure_host_locked(to.host_, dst.owned_host, to.bytes_) + db;
    // Stale source bytes come straight from the replica that holds them.
    for (const byte_range& gap : src.host_valid.gaps(sb, se)) {
      interval_set held;
      for (replica& r : src.replicas) {
        for (const byte_range& part : r.valid.overlap(gap.begin, gap.end)) {
          copy_replica_to_host(r, out + (part.begin - sb), part.begin, part.end);
          held.add(part.begin, part.end);
        }
      }
      // Bytes valid nowhere (a view with no data source never written, or discarded data)
      // become the source's host bytes as they are, as host access would make them; without
      // this the destination kept its old bytes while the source later read different ones,
      // and C++ AMP's copy leaves both holding the same values, defined or not.
      for (const byte_range& nowhere : held.gaps(gap.begin, gap.end)) {
        ensure_host_locked(from.host_, src.owned_host, from.bytes_);
        src.host_valid.add(nowhere.begin, nowhere.end);
        from.host_epoch_.fetch_add(1, std::memory_order_acq_rel);
      }
    }
    if (from.host_ != nullptr) {
      for (const byte_range& part : src.host_valid.overlap(sb, se)) {
        std::memcpy(out + (part.begin - sb), static_cast<const std::byte*>(from.host_) + part.begin,
                    part.size());
      }
    }
    dst.host_valid.add(db, de);
    for (replica& r : dst.replicas) r.valid.remove(db, de);
    to.host_epoch_.fetch_add(1, std::memory_order_acq_rel);
    return;
  }

  device_impl& device = dst_queue->device();
  replica& target = ensure_replica_locked(dst.replicas, device, to.bytes_);
  std::byte* out = static_cast<std::byte*>(target.base) + db;
  target.order_write(*dst_queue);
  replica* source_replica = nullptr;
  if (replica* same = src.find(device); same != nullptr && same->valid.covers(sb, se)) {
    source_replica = same;
  } else if (!src.host_valid.covers(sb, se)) {
    for (replica& r : src.replicas) {
      if (copies_directly(*r.device, device) && r.valid.covers(sb, se)) {
        source_replica = &r;
        break;
      }
    }
    if (source_replica == nullptr) {
      // Spread over several places: gather it in the source's host memory first.
      std::byte* host = ensure_host_locked(from.host_, src.owned_host, from.bytes_);
      make_host_valid_locked(src.host_valid, src.replicas, host, sb, se,
                             [](replica&, std::size_t) {});
    }
  }
  if (source_replica != nullptr) {
    source_replica->order_read(*dst_queue);
    dst_queue->copy_device_to_device(out, static_cast<const std::byte*>(source_replica->base) + sb,
                                     bytes);
    record_transfer(device, transfer_direction::device_to_device, bytes);
  } else {
    dst_queue->copy_host_to_device(out, static_cast<const std::byte*>(from.host_) + sb, bytes);
    record_transfer(device, transfer_direction::host_to_device, bytes);
  }
  const event_ptr done = dst_queue->record();
  target.note_write(*dst_queue, done);
  if (source_replica != nullptr) source_replica->note_read(*dst_queue, done);
  target.valid.add(db, de);
  dst.host_valid.remove(db, de);
  for (replica& r : dst.replicas) {
    if (&r != &target) r.valid.remove(db, de);
  }
  to.host_epoch_.fetch_add(1, std::memory_order_acq_rel);
}

host_binding bind_to_host(data_source* source, std::size_t element_size, std::size_t offset,
                          int rank, const std::ptrdiff_t* extent, const std::ptrdiff_t* stride,
                          bool write) {
  footprint where;
  where.element_size = element_size;
  where.offset = offset;
  where.extent.assign(extent, extent + rank);
  where.stride.assign(stride, stride + rank);
  const unsigned epoch = source->host_epoch();
  void* base = source->acquire_host(where, write);
  return host_binding{base, epoch};
}

}  // namespace hipamp::detail
