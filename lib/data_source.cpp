// The coherence directory. Locations are the host (which the CPU device aliases) and one
// replica per other device. Invariant: every byte of a source is valid in at least one
// location unless it was discarded, and a byte valid in several locations is equal in all.
#include <hipamp/detail/data_source.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include <hipamp/exceptions.hpp>
#include <hipamp/transfer_statistics.hpp>

#include "host_memory.hpp"
#include "interval_set.hpp"

namespace hipamp::detail {

std::size_t footprint::begin_byte() const noexcept {
  std::ptrdiff_t first = static_cast<std::ptrdiff_t>(offset);
  for (std::size_t d = 0; d < extent.size(); ++d) {
    if (stride[d] < 0) first += (extent[d] - 1) * stride[d];
  }
  return static_cast<std::size_t>(first) * element_size;
}

std::size_t footprint::end_byte() const noexcept {
  std::ptrdiff_t last = static_cast<std::ptrdiff_t>(offset);
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

namespace {

class all_of_events final : public event_impl {
 public:
  explicit all_of_events(std::vector<event_ptr> events) : events_(std::move(events)) {}
  bool is_ready() const override {
    return std::all_of(events_.begin(), events_.end(), [](const event_ptr& e) { return e->is_ready(); });
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

struct replica {
  device_impl* device = nullptr;
  void* base = nullptr;
  bool owned = true;  // false for an array's home allocation handed over at creation
  interval_set valid;
  event_ptr last_write;  // the last work that wrote bytes of this replica
  event_ptr last_use;    // the last work that touched this replica at all
  queue_impl* last_queue = nullptr;
};

struct data_source::state {
  std::mutex mutex;
  interval_set host_valid;
  host_buffer owned_host;
  std::vector<replica> replicas;

  replica* find(const device_impl& device) {
    for (replica& r : replicas) {
      if (r.device == &device) return &r;
    }
    return nullptr;
  }
};

data_source::data_source(std::size_t bytes, void* host, std::shared_ptr<queue_impl> home)
    : bytes_(bytes), host_(host), home_(std::move(home)), state_(std::make_unique<state>()) {}

data_source::~data_source() {
  for (replica& r : state_->replicas) {
    if (r.last_use) r.last_use->wait();
    r.device->deallocate(r.base);
  }
}

void data_source::release() noexcept {
  if (registered_) {
    // Unregister under the registry lock so a concurrent lookup cannot revive this source.
    host_source_registry& reg = registry();
    std::lock_guard<std::mutex> lock(reg.mutex);
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    auto it = reg.by_begin.find(reinterpret_cast<std::uintptr_t>(host_));
    if (it != reg.by_begin.end() && it->second == this) reg.by_begin.erase(it);
  } else if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) {
    return;
  }
  // The last view is gone: the host copy must hold the data the views wrote.
  if (host_ != nullptr && home_ == nullptr) {
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
    if (begin + bytes <= existing_end && existing->refs_.load() > 0) {
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

void* data_source::device_base(device_impl& device) {
  if (device.aliases_host_memory()) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (host_ == nullptr) {
      state_->owned_host = allocate_host(bytes_);
      host_ = state_->owned_host.get();
    }
    return host_;
  }
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (replica* r = state_->find(device)) return r->base;
  replica r;
  r.device = &device;
  r.base = device.allocate(bytes_);
  state_->replicas.push_back(std::move(r));
  return state_->replicas.back().base;
}

namespace {

// Brings [b, e) of `from` into host memory; the caller holds the lock.
void copy_replica_to_host(replica& from, std::byte* host, std::size_t b, std::size_t e) {
  auto queue = from.device->default_queue();
  if (from.last_use && from.last_queue != queue.get()) queue->wait_for(from.last_use);
  queue->copy_device_to_host(host + b, static_cast<std::byte*>(from.base) + b, e - b);
  record_transfer(*from.device, transfer_direction::device_to_host, e - b);
}

}  // namespace

void* data_source::acquire_host(const footprint& fp, bool write) {
  const std::size_t b = fp.begin_byte();
  const std::size_t e = fp.end_byte();
  std::lock_guard<std::mutex> lock(state_->mutex);
  state& st = *state_;
  if (host_ == nullptr) {
    st.owned_host = allocate_host(bytes_);
    host_ = st.owned_host.get();
  }
  auto* host = static_cast<std::byte*>(host_);
  for (const byte_range& gap : st.host_valid.gaps(b, e)) {
    for (replica& r : st.replicas) {
      for (const byte_range& part : r.valid.overlap(gap.begin, gap.end)) {
        if (st.host_valid.covers(part.begin, part.end)) continue;
        copy_replica_to_host(r, host, part.begin, part.end);
        st.host_valid.add(part.begin, part.end);
      }
    }
    // Bytes valid nowhere (discarded, or never written) become the host's as they are.
    st.host_valid.add(gap.begin, gap.end);
  }
  if (write) {
    for (replica& r : st.replicas) r.valid.remove(b, e);
  }
  return host_;
}

void* data_source::acquire_for_kernel(queue_impl& queue, const footprint& fp, bool write) {
  device_impl& device = queue.device();
  if (device.aliases_host_memory()) {
    void* base = acquire_host(fp, write);
    if (write) host_epoch_.fetch_add(1, std::memory_order_acq_rel);
    return base;
  }
  const std::size_t b = fp.begin_byte();
  const std::size_t e = fp.end_byte();
  void* base = device_base(device);
  std::lock_guard<std::mutex> lock(state_->mutex);
  state& st = *state_;
  replica& target = *st.find(device);
  if (target.last_use && target.last_queue != &queue) queue.wait_for(target.last_use);
  auto* host = static_cast<std::byte*>(host_);
  auto* dev = static_cast<std::byte*>(target.base);
  for (const byte_range& gap : target.valid.gaps(b, e)) {
    // Route bytes that only another device holds through the host first.
    for (replica& other : st.replicas) {
      if (&other == &target) continue;
      for (const byte_range& part : other.valid.overlap(gap.begin, gap.end)) {
        for (const byte_range& missing : st.host_valid.gaps(part.begin, part.end)) {
          if (host == nullptr) {
            st.owned_host = allocate_host(bytes_);
            host_ = st.owned_host.get();
            host = static_cast<std::byte*>(host_);
          }
          copy_replica_to_host(other, host, missing.begin, missing.end);
          st.host_valid.add(missing.begin, missing.end);
        }
      }
    }
    for (const byte_range& part : st.host_valid.overlap(gap.begin, gap.end)) {
      queue.copy_host_to_device(dev + part.begin, host + part.begin, part.size());
      record_transfer(device, transfer_direction::host_to_device, part.size());
    }
    target.valid.add(gap.begin, gap.end);
  }
  if (write) {
    st.host_valid.remove(b, e);
    for (replica& other : st.replicas) {
      if (&other != &target) other.valid.remove(b, e);
    }
  }
  // The host's claim changed (it now shares or lost these bytes): host views re-check.
  host_epoch_.fetch_add(1, std::memory_order_acq_rel);
  return base;
}

void data_source::complete_kernel(queue_impl& queue, const footprint& /*fp*/, bool write,
                                  const event_ptr& done) {
  if (queue.device().aliases_host_memory()) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  replica* r = state_->find(queue.device());
  if (r == nullptr) return;
  r->last_use = done;
  r->last_queue = &queue;
  if (write) r->last_write = done;
}

void data_source::discard(const footprint& fp) {
  // A strided view's bounding range holds bytes of other views: only whole ranges may go.
  if (!fp.contiguous()) return;
  const std::size_t b = fp.begin_byte();
  const std::size_t e = fp.end_byte();
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->host_valid.remove(b, e);
  for (replica& r : state_->replicas) r.valid.remove(b, e);
  host_epoch_.fetch_add(1, std::memory_order_acq_rel);
}

void data_source::refresh(const footprint& fp) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  fp.for_each_run([&](std::size_t b, std::size_t e) {
    state_->host_valid.add(b, e);
    for (replica& r : state_->replicas) r.valid.remove(b, e);
  });
  host_epoch_.fetch_add(1, std::memory_order_acq_rel);
}

event_ptr data_source::pending_writes(const footprint& /*fp*/) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  std::vector<event_ptr> events;
  for (const replica& r : state_->replicas) {
    if (r.last_write) events.push_back(r.last_write);
  }
  if (events.empty()) return ready_event();
  return std::make_shared<all_of_events>(std::move(events));
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
