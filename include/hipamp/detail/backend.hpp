// The one interface every device implements (the CPU device in fallback/, GPUs through the
// CUDA or HIP runtime wrapper in lib/). Header-only templates reach devices only through
// this, so a kernel launch never names a vendor API outside backend/.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace hipamp {

enum class queuing_mode { queuing_mode_immediate, queuing_mode_automatic };
constexpr queuing_mode queuing_mode_immediate = queuing_mode::queuing_mode_immediate;
constexpr queuing_mode queuing_mode_automatic = queuing_mode::queuing_mode_automatic;

enum access_type {
  access_type_none = 0,
  access_type_read = 1,
  access_type_write = 2,
  access_type_read_write = 3,
  access_type_auto = 4
};

namespace detail {

enum class device_kind {
  cpu,  // the CPU device: its memory is host memory, kernels run on the OpenMP executor
  discrete_emulator,  // CPU execution over separate memory: exercises coherence without a GPU
  gpu
};

// A point in a queue's work; ready once everything before it has finished.
class event_impl {
 public:
  virtual ~event_impl() = default;
  virtual bool is_ready() const = 0;
  virtual void wait() const = 0;
};
using event_ptr = std::shared_ptr<const event_impl>;

// A launch marker (queue_impl::begin_launch) that data sources' kernel tickets note by address,
// with a count of such notes taken in batches, instead of each note owning a shared_ptr
// (issue 19: two atomic read-modify-writes per captured view per launch, on the marker's
// control block, in a loop of launches; the launch scope now adds one launch's notes in one
// step and gives back the notes its binds replaced in one step per replaced marker). A marker
// noted this way stays alive, and is not handed out for another launch, until its notes are
// given back (launch_markers.hpp). The count may dip below zero for a moment: a note made at
// bind may be folded and given back by another thread before the launch scope adds it, while
// the scope still holds the marker.
class counted_marker : public event_impl {
 public:
  // A shared_ptr to this marker (a note folded into a replica's events, which own theirs).
  virtual event_ptr share() const = 0;
  void add_notes(int n) const noexcept { notes_.fetch_add(n, std::memory_order_relaxed); }
  // Gives back n notes. Release order: what the noter did with the marker happens before its
  // reuse (the ring reads the count, then fences).
  // Sequentially consistent with launch_markers::shutdown (the last note given back and the
  // ring closing: one of the two sees the other).
  void drop_notes(int n) const noexcept {
    if (notes_.fetch_sub(n, std::memory_order_seq_cst) == n) last_note_dropped();
  }
  // Acquire: a note given back (drop_notes, release) after its holder took a reference
  // (share) is seen with that reference (launch_markers::begin reads this before use_count).
  int notes() const noexcept { return notes_.load(std::memory_order_acquire); }

 protected:
  // The notes reached zero: a marker kept only for its notes may go now.
  virtual void last_note_dropped() const noexcept {}

 private:
  mutable std::atomic<int> notes_{0};
};

class device_impl;

// An in-order queue of work on one device (an accelerator_view; a stream on a GPU).
class queue_impl {
 public:
  queue_impl() noexcept : serial_(next_serial()) {}
  queue_impl(const queue_impl&) = delete;
  queue_impl& operator=(const queue_impl&) = delete;
  virtual ~queue_impl() = default;
  // Unique among every queue this process ever made, unlike the queue's address, which a
  // later queue may reuse: what a data source's kernel ticket (data_source.hpp) remembers, so
  // a ticket can never be taken for a new queue that happens to live where an old one did.
  std::uint64_t serial() const noexcept { return serial_; }
  virtual device_impl& device() const noexcept = 0;
  virtual queuing_mode mode() const noexcept = 0;
  // The host buffer may be reused as soon as this returns.
  virtual void copy_host_to_device(void* device_dst, const void* host_src, std::size_t bytes) = 0;
  // Returns once the bytes are in host memory.
  virtual void copy_device_to_host(void* host_dst, const void* device_src, std::size_t bytes) = 0;
  virtual void copy_device_to_device(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void wait_for(const event_ptr& event) = 0;
  virtual event_ptr record() = 0;
  // Launch markers (a GPU queue's way to avoid recording an event after every launch): the
  // event that will stand for the work the launch being bound is about to queue here, noted
  // on its views at bind, before that work is queued; null where the queue records an event
  // after each launch instead (the CPU devices). end_launch says the launch has queued its
  // work, or given up without queuing any.
  // A non-null marker is a counted_marker (the launch scope notes it by address).
  virtual event_ptr begin_launch() { return nullptr; }
  virtual void end_launch(const event_ptr& /*marker*/) {}
  // The marker stands for an event the launch's device code returned (work it did not just
  // queue here, such as host-side steps): waiting for the marker waits for `done`.
  virtual void resolve_launch(const event_ptr& /*marker*/, const event_ptr& /*done*/) {}
  virtual void flush() = 0;
  virtual void wait() = 0;
  // cudaStream_t / hipStream_t on a GPU, null on the CPU device.
  virtual void* native_handle() const noexcept = 0;
  // True when kernels launched here check every view and array index (CPU execution only):
  // the reference device's queues, and CPU queues made with checks on.
  virtual bool checks_bounds() const noexcept { return false; }

 private:
  static std::uint64_t next_serial() noexcept;  // lib/runtime.cpp
  std::uint64_t serial_;
};

struct device_properties {
  std::wstring description;
  std::wstring device_path;
  unsigned int version = 0;
  std::size_t dedicated_memory_kb = 0;
  bool supports_double_precision = true;
  bool supports_limited_double_precision = true;
  bool has_display = false;
  bool is_emulated = false;
  bool is_debug = false;
  bool supports_cpu_shared_memory = false;
  int max_tile_size = 1024;
  int ordinal = -1;  // backend device number for GPUs
  // CPU execution only. serial_execution: one thread, tiles in order, work-items in order
  // (the reference device, for deterministic results). checks_bounds: every queue of the
  // device checks kernel indices (the reference device; the CPU device with
  // HIPAMP_CHECK_BOUNDS=1).
  bool serial_execution = false;
  bool checks_bounds = false;
  // The reference device: never picked by default or auto selection.
  bool is_reference = false;
};

class device_impl {
 public:
  virtual ~device_impl() = default;
  virtual device_kind kind() const noexcept = 0;
  virtual const device_properties& properties() const noexcept = 0;
  // Throws out_of_memory naming the request.
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void deallocate(void* ptr) noexcept = 0;
  virtual std::shared_ptr<queue_impl> create_queue(queuing_mode mode) = 0;
  virtual std::shared_ptr<queue_impl> default_queue() = 0;
  // A queue whose kernels check every index (accelerator::create_checked_view). Only devices
  // that run kernels on the CPU can; the others throw unsupported_feature.
  virtual std::shared_ptr<queue_impl> create_checked_queue(queuing_mode mode);
  // True when this device's queues can copy bytes straight out of `source`'s memory (a peer
  // copy between two GPUs, or between two emulated discrete devices). When false, bytes
  // move from `source` to the host and from there to this device, and the transfer
  // counters show both legs.
  virtual bool copies_directly_from(const device_impl& /*source*/) const noexcept { return false; }
  // Page-locks [host, host + bytes) of the program's memory so that this device's copies
  // from and to it run by DMA without staging; false where the device cannot (the CPU
  // devices, or a failed registration). data_source asks for it for large buffers it moves
  // again and again, and calls unpin_host before the memory may be freed.
  virtual bool pin_host(void* /*host*/, std::size_t /*bytes*/) noexcept { return false; }
  virtual void unpin_host(void* /*host*/) noexcept {}
  // True when device pointers are host pointers (the CPU device): views alias host memory.
  bool aliases_host_memory() const noexcept { return kind() == device_kind::cpu; }
  // True when kernels run on the CPU executor.
  bool runs_on_cpu() const noexcept { return kind() != device_kind::gpu; }

  // accelerator::set_default_cpu_access_type's latest choice, which arrays made afterwards
  // with access_type_auto take; access_type_auto while none was made (the runtime's choice).
  // On the device, not the accelerator object, so every copy of the accelerator sees it.
  std::atomic<access_type> default_cpu_access{access_type_auto};
};

// An event that is complete from the start (CPU work runs synchronously).
event_ptr ready_event();

// False when HIPAMP_PEER_COPIES=0: devices then never copy from each other's memory
// directly, and every byte moving between two of them goes through the host (to test that
// path on machines whose GPUs could copy peer to peer, and to work around broken peer links).
// Devices answer copies_directly_from with it in mind (lib/runtime.cpp).
bool peer_copies_allowed() noexcept;

}  // namespace detail
}  // namespace hipamp
