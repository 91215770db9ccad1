// The coherence directory of one data source (a host buffer, an array's storage, or the
// lazily allocated storage of a view with no source). Every view, section and projection
// of the source shares it. DESIGN.md, "array_view: lazy coherence", states the rules.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <vector>

#include <hipamp/config.hpp>
#include <hipamp/detail/backend.hpp>
#include <hipamp/detail/spin_lock.hpp>

namespace hipamp::detail {

// One value per dimension of a footprint. Ranks up to inline_rank live inside the object and
// higher ranks on the heap: every launch builds one footprint per captured view, and with two
// std::vectors each that was four heap allocations (and frees) per view per launch, the
// largest part of the CPU device's per-launch cost (issue 19's profile).
class dim_values {
 public:
  static constexpr std::size_t inline_rank = 4;

  dim_values() noexcept = default;
  dim_values(std::initializer_list<std::ptrdiff_t> values) { assign(values.begin(), values.end()); }
  dim_values(const dim_values& other) { assign(other.begin(), other.end()); }
  dim_values(dim_values&& other) noexcept : heap_(std::move(other.heap_)), size_(other.size_) {
    std::copy(other.inline_, other.inline_ + inline_rank, inline_);
    other.heap_.clear();
    other.size_ = 0;
  }
  dim_values& operator=(const dim_values& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  dim_values& operator=(dim_values&& other) noexcept {
    if (this != &other) {
      heap_ = std::move(other.heap_);
      std::copy(other.inline_, other.inline_ + inline_rank, inline_);
      size_ = other.size_;
      other.heap_.clear();
      other.size_ = 0;
    }
    return *this;
  }
  ~dim_values() = default;

  void assign(std::size_t count, std::ptrdiff_t value) {
    resize(count);
    std::fill(begin(), end(), value);
  }
  void assign(const std::ptrdiff_t* first, const std::ptrdiff_t* last) {
    resize(static_cast<std::size_t>(last - first));
    std::copy(first, last, begin());
  }
  // The same for a view's few dimensions, by stores: std::copy (or a loop, which the compiler
  // turns into one) calls memmove, which costs more than the copy at rank 1 to 3 (a launch
  // on the CPU device builds a footprint per captured view this way).
  void assign_few(const std::ptrdiff_t* first, std::size_t count) {
    resize(count);
    std::ptrdiff_t* out = begin();
    switch (count) {
      case 3:
        out[2] = first[2];
        [[fallthrough]];
      case 2:
        out[1] = first[1];
        [[fallthrough]];
      case 1:
        out[0] = first[0];
        [[fallthrough]];
      case 0:
        break;
      default:
        std::copy(first, first + count, out);
    }
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::ptrdiff_t* begin() noexcept { return size_ <= inline_rank ? inline_ : heap_.data(); }
  const std::ptrdiff_t* begin() const noexcept {
    return size_ <= inline_rank ? inline_ : heap_.data();
  }
  std::ptrdiff_t* end() noexcept { return begin() + size_; }
  const std::ptrdiff_t* end() const noexcept { return begin() + size_; }
  std::ptrdiff_t& operator[](std::size_t d) noexcept { return begin()[d]; }
  std::ptrdiff_t operator[](std::size_t d) const noexcept { return begin()[d]; }

 private:
  void resize(std::size_t count) {
    if (count > inline_rank) {
      heap_.resize(count);
    } else {
      heap_.clear();
    }
    size_ = count;
  }

  std::ptrdiff_t inline_[inline_rank] = {};
  std::vector<std::ptrdiff_t> heap_;  // the values when size_ > inline_rank
  std::size_t size_ = 0;
};

// Where a view lies inside its source, in elements; enough to list its exact byte runs.
struct footprint {
  std::size_t element_size = 0;
  std::size_t offset = 0;  // first element, from the source's base
  dim_values extent;       // per dimension
  dim_values stride;       // per dimension, in elements; the last is 1
  std::size_t begin_byte() const noexcept;
  std::size_t end_byte() const noexcept;
  bool contiguous() const noexcept;
  // The three above in one pass over the dimensions (a launch asks for them once per view).
  struct byte_span {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool dense = false;  // every byte in [begin, end) belongs to the footprint
  };
  byte_span span() const noexcept;
  // Calls f(begin_byte, end_byte) for each maximal contiguous run, in order.
  template <class F>
  void for_each_run(F&& f) const;
};

struct replica;  // one device's copy of a source (lib/data_source.cpp)

// What one launch's binds did to the notes of launch markers (counted_marker, backend.hpp) in
// kernel tickets, settled once for the launch (launch_scope::close) instead of once per view:
// how often they noted the launch's own marker, and which notes of earlier launches' markers
// they replaced (in a loop of launches: the previous launch's marker, once per view).
class launch_notes {
 public:
  launch_notes() noexcept = default;
  launch_notes(const launch_notes&) = delete;
  launch_notes& operator=(const launch_notes&) = delete;
  ~launch_notes() = default;  // settle() must have run (the launch scope sees to it)

  void noted() noexcept { ++added_; }
  void replaced(const counted_marker* m) noexcept {
    if (m == nullptr) return;
    for (std::size_t i = 0; i < replaced_count_; ++i) {
      if (replaced_[i].marker == m) {
        ++replaced_[i].count;
        return;
      }
    }
    if (replaced_count_ < max_replaced) {
      replaced_[replaced_count_++] = {m, 1};
    } else {
      m->drop_notes(1);  // rare (many launches' markers at once): give it back now
    }
  }
  // Adds the launch's notes to `own` (its marker, held by the caller) and gives back the
  // replaced ones; own's first, so a marker both noted and replaced never dips below zero.
  void settle(const counted_marker* own) noexcept {
    if (added_ != 0) own->add_notes(added_);
    added_ = 0;
    for (std::size_t i = 0; i < replaced_count_; ++i) {
      replaced_[i].marker->drop_notes(replaced_[i].count);
    }
    replaced_count_ = 0;
  }

 private:
  struct replaced_note {
    const counted_marker* marker;
    int count;
  };
  static constexpr std::size_t max_replaced = 4;
  int added_ = 0;
  std::size_t replaced_count_ = 0;
  replaced_note replaced_[max_replaced];  // the first replaced_count_ are set
};

// Cache-line aligned (and so a whole number of lines long): every view copy and destruction
// is an atomic read-modify-write on refs_, and every kernel bind reads host_sole_ and may
// move host_epoch_, on the launching thread. A heap neighbour sharing those lines, written by
// other threads, makes each of them wait for the line to come back from another core: on the
// 16-core GPU host, the time from the end of the OpenMP region to the return of a saxpy launch
// whose caller copies two views went from about 500 to 355 ns with the alignment (issue 19,
// session 16: rdtsc trace, 2 runs a side).
// Its address names the thread (data_source's biased reference count).
inline thread_local char thread_token_anchor = 0;

class alignas(64) data_source {
 public:
  // A source over memory the user owns; the host copy starts as the only valid one. Views
  // created separately over the same memory share one source: if [host, host + bytes) lies
  // inside a live source, that source is returned (with a new reference) and `offset` set
  // to the byte offset of `host` in it; otherwise a new source is made and `offset` is 0.
  static data_source* create_over_host(void* host, std::size_t bytes, std::size_t& offset);
  // Storage the library owns, allocated now on `home` (an array, or a view with no source
  // when home is null: then host memory is allocated on first use). Contents start undefined.
  static data_source* create_owned(std::shared_ptr<queue_impl> home, std::size_t bytes);

  data_source(const data_source&) = delete;
  data_source& operator=(const data_source&) = delete;

  // ---- the reference count, biased to the thread that made the source ---------------------
  //
  // Every copy of a view made outside a launch takes a reference and every destruction drops
  // one: five of each per captured view per GPU launch at nvcc's call site, one per captured
  // view on the CPU device. As locked instructions they were a third of the 4-view GPU
  // launch's host overhead, and on the CPU device the caller's releases, the first locked
  // instructions after the OpenMP join, cost 0.05 of saxpy at 2^16 on 16 threads (issue 19,
  // sessions 17-18). Nearly all of them run on the thread that made the source.
  //
  // So the count starts biased to that thread (owner_): there it moves with a plain load and
  // store of owner_refs_, no locked instruction. The first retain or release on any other
  // thread demotes the source for good: it marks owner_ demoting, runs a process-wide memory
  // barrier (membarrier), waits until the owner is outside its few-instruction update
  // (owner_busy_), folds owner_refs_ into refs_ and from then on everyone uses refs_
  // atomically, as before. The owner's update is the light half of an asymmetric Dekker
  // handshake: it raises owner_busy_, then checks owner_ again; the barrier orders that
  // against the demoter's mark, so either the owner sees the mark and takes the shared path,
  // or the demoter sees owner_busy_ and waits (see demote() in data_source.cpp). While the
  // count is biased only the owner has ever changed it, so the owner alone sees the last
  // release, synchronously, and the last view still writes the data back at once.
  // Without a usable membarrier (not Linux, or a filtered syscall), or with
  // HIPAMP_BIASED_REFS=0, sources start shared.
  static constexpr std::uintptr_t shared_count = 0;  // owner_: refs_ counts
  static constexpr std::uintptr_t demoting = 1;      // owner_: a demotion is under way
  // Nonzero, never `demoting`, and unique among live threads.
  static std::uintptr_t this_thread_token() noexcept {
    return reinterpret_cast<std::uintptr_t>(&thread_token_anchor);
  }

  void retain() noexcept {
    if (owner_.load(std::memory_order_relaxed) == this_thread_token() && owner_add(1)) return;
    retain_shared();
  }
  // Not the last reference (the common case): inline, on the owner without a locked
  // instruction, elsewhere with one compare-exchange. Otherwise release_slow, which may destroy
  // the source.
  void release() noexcept {
    const std::uintptr_t owner = owner_.load(std::memory_order_relaxed);
    if (owner == this_thread_token()) {
      if (owner_release_not_last()) return;
    } else if (owner == shared_count) {
      int refs = refs_.load(std::memory_order_relaxed);
      if (refs > 1 && refs_.compare_exchange_weak(refs, refs - 1, std::memory_order_acq_rel,
                                                  std::memory_order_relaxed)) {
        return;
      }
    }
    release_slow();
  }
  // The references held now (tests: which copies own one). Exact on the owner thread, or once
  // the count is shared.
  int use_count() const noexcept;
  // Whether the count is still biased to the calling thread (tests).
  bool biased_to_this_thread() const noexcept {
    return owner_.load(std::memory_order_acquire) == this_thread_token();
  }
  // Whether sources start biased in this process (membarrier works, HIPAMP_BIASED_REFS != 0).
  static bool biasing_enabled() noexcept;

  std::size_t size_bytes() const noexcept { return bytes_; }
  const std::shared_ptr<queue_impl>& home_queue() const noexcept { return home_; }

  // Bumped whenever the host's claim on any byte changes; host views re-check only then.
  unsigned host_epoch() const noexcept { return host_epoch_.load(std::memory_order_acquire); }

  // Makes the footprint valid on the queue's device (copying in only stale bytes unless
  // `discard`), orders the queue after earlier writers, and returns the device base address.
  // A non-null `marker` (queue_impl::begin_launch) is noted as the kernel's use right away,
  // and complete_kernel is not called for it. In a loop of launches over the same views this
  // takes the kernel ticket's fast path (see kernel_ticket below).
  void* acquire_for_kernel(queue_impl& queue, const footprint& fp, bool write,
                           const event_ptr& marker = nullptr) {
    return acquire_for_kernel(queue, fp, fp.span(), write, marker);
  }
  // The same, given fp.span() (the launch scope computes it anyway).
  void* acquire_for_kernel(queue_impl& queue, const footprint& fp, const footprint::byte_span& span,
                           bool write, const event_ptr& marker);
  // The kernel ticket's fast path alone (see kernel_ticket), for callers that have only the
  // footprint's span at hand: the device base address, or null when acquire_for_kernel must
  // run. One load, inline, where the queue holds no ticket (the CPU devices never do).
  void* acquire_for_kernel_ticketed(queue_impl& queue, const footprint::byte_span& span, bool write,
                                    const event_ptr& marker) {
    if (ticket_queue_.load(std::memory_order_relaxed) != queue.serial()) return nullptr;
    return acquire_with_ticket(queue, span.begin, span.end, write, marker);
  }
  // Whether the source holds a kernel ticket for `queue` now (a hint: the ticket may go at any
  // moment, which the fast path then finds). One load; never true on the devices over host
  // memory.
  bool ticketed_for(const queue_impl& queue) const noexcept {
    return ticket_queue_.load(std::memory_order_relaxed) == queue.serial();
  }
  // The same for a launch scope with a launch marker: the ticket notes `marker` by address and
  // the notes' counts go to `notes`, which the scope settles once for the launch.
  void* acquire_for_kernel_ticketed(queue_impl& queue, const footprint::byte_span& span, bool write,
                                    const counted_marker& marker, launch_notes& notes) {
    if (ticket_queue_.load(std::memory_order_relaxed) != queue.serial()) return nullptr;
    return acquire_with_ticket_noted(queue, span.begin, span.end, write, marker, notes);
  }
  // Records the launch that used the source (read, or possibly written), so later users wait
  // for exactly it.
  void complete_kernel(queue_impl& queue, bool write, const event_ptr& done);

  // Makes the footprint valid in host memory (waiting only for its writers) and returns the
  // host base address; `write` makes the host the only valid copy of those bytes.
  void* acquire_host(const footprint& fp, bool write);
  // What acquire_for_kernel does for a device over host memory (the CPU devices), without the
  // lock: the host base address when the source is *host-sole* (host memory holds every byte
  // and no device holds a replica, so nothing can be stale or need waiting for), else null and
  // the caller takes the slow path. Only acquire_host marks a source host-sole, under
  // state::mutex, after checking; every function that takes state::mutex unmarks it first
  // (revoke_ticket_locked), so a launch that finds the mark orders before whatever changes the
  // state next, as if it had taken the lock first (issue 19: the mutex, the footprint and four
  // calls per view per launch on the CPU device; with the ready event launch_simple no longer
  // makes, a 2-view launch's serial part went from 0.50 to 0.27 us on the 16-core GPU host).
  // A write moves no host epoch here: host views re-check when the host's claim on bytes
  // changes (another copy gains them, or the host loses them), and on a host-sole source a CPU
  // kernel's write changes neither (no replica exists to gain or lose anything; the bytes are
  // written where host views already find them). The epoch never ordered a kernel's data for
  // another thread either: it moved at bind, before the kernel ran. It was the launch's one
  // locked instruction before the fork (issue 19, session 22, scripts/probes/launch_phases.cpp:
  // binding two views went from 0.15 to 0.04 us on the 16-core host, but the launch as a whole
  // moved inside the noise: what it waited for is waited for at the fork instead).
  void* acquire_host_sole() const noexcept {
    if (!host_sole_.load(std::memory_order_acquire)) return nullptr;
    return host_;
  }
  // The host base address if host memory exists, else null (no synchronisation).
  void* host_base() const noexcept { return host_; }
  // Base address on a device, allocating (without copying) if needed.
  void* device_base(device_impl& device);

  // The footprint's current contents are not needed: no copy moves them in next time. With
  // keep_array_data (a user's discard_data), an array's data stays as it is (see the .cpp).
  void discard(const footprint& fp, bool keep_array_data = false);
  // The host bytes of the footprint changed behind the views' backs: device copies are stale.
  // Only a source over program memory has such bytes; for the others this does nothing.
  void refresh(const footprint& fp);
  // Copies the footprint back to host memory if stale, without claiming it for writing.
  void synchronize(const footprint& fp) { (void)acquire_host(fp, false); }
  // Ready once every write to the footprint on any device has finished.
  event_ptr pending_writes(const footprint& fp);

  // Copies `bytes` from [from_offset, +bytes) of `from` to [to_offset, +bytes) of `to` (two
  // different sources) by the shortest route: into the destination array's device when it
  // has one (device to device, or host to device), else into host memory (device to host,
  // or memcpy). The destination bytes end up valid only where they were written.
  static void copy(data_source& from, std::size_t from_offset, data_source& to,
                   std::size_t to_offset, std::size_t bytes);

  // Copies move a footprint's exact byte runs, except that runs separated by at most this
  // many bytes go as one copy (one call costs about as much as moving this much data).
  static constexpr std::size_t merge_gap_bytes = std::size_t{64} * 1024;

  // The program's memory under a source of at least this size is page-locked (pinned) on the
  // GPU once the source has moved, in all, twice as many bytes as it holds and is about to
  // move again: a buffer transferred over and over then moves at the DMA engine's pinned
  // speed instead of being staged by the CPU (0.4-0.8x of it on the H100/H200 machines),
  // while a program that copies a buffer in once and out once never pays for the pinning.
  // From this size on, a staged copy fills the whole staging ring and so waits for earlier
  // work on its stream as a direct copy does. HIPAMP_PIN_TRANSFERS=0 turns pinning off.
  static constexpr std::size_t pin_min_bytes = std::size_t{64} << 20;

 private:
  struct state;
  data_source(std::size_t bytes, void* host, std::shared_ptr<queue_impl> home);
  // Under state::mutex, before bytes move between the host and `device`: pins the program's
  // memory on it if the policy above says so (decided at most once per source).
  void consider_pinning_locked(device_impl& device);
  bool holds_program_memory() const noexcept;
  // The storage of an array (the library's, on the array's accelerator).
  bool is_array_storage() const noexcept;
  void release_slow() noexcept;
  ~data_source();

  // The owner's update of the biased count: false, having changed nothing, when the count is
  // no longer biased to this thread (a demotion began).
  bool owner_add(int delta) noexcept {
    owner_busy_.store(true, std::memory_order_relaxed);
    // The compiler must not move the check above the flag; the CPU may, and demote()'s
    // membarrier is what orders the two (the asymmetric handshake above).
    std::atomic_signal_fence(std::memory_order_seq_cst);
    const bool mine = owner_.load(std::memory_order_relaxed) == this_thread_token();
    if (mine) {
      owner_refs_.store(owner_refs_.load(std::memory_order_relaxed) + delta,
                        std::memory_order_relaxed);
    }
    owner_busy_.store(false, std::memory_order_release);
    return mine;
  }
  // The owner drops a reference that is not its last: true when done. Only the owner changes
  // owner_refs_, so reading it first is exact; owner_add reports a demotion begun meanwhile.
  bool owner_release_not_last() noexcept {
    return owner_refs_.load(std::memory_order_relaxed) > 1 && owner_add(-1);
  }
  // A retain that is not the owner's: demotes a biased count first.
  void retain_shared() noexcept;
  // Makes the count shared (refs_), whoever it was biased to; waits for a demotion under way.
  void demote() noexcept;
  // Under the registry lock: whether some reference still exists (create_over_host may revive
  // the source only then).
  bool referenced_locked() const noexcept;

  // ---- the kernel ticket: the steady state of a loop of launches, without state::mutex ----
  //
  // Issue 19: a GPU launch paid about 0.3 us per captured view on the H100 machine's host
  // for the directory's lock, replica lookup, interval checks and epoch bump, even when the
  // view's bytes were already valid on the device and nothing had changed since the last
  // launch. The ticket is what the last slow acquire_for_kernel proved, kept for the next:
  // "[begin, end) is valid on `queue`'s device, `queue` is ordered after every writer of it
  // (and, when `writable`, after every reader, and no other location holds any of its
  // bytes)". A later acquire on the same queue for a footprint inside that range needs no
  // copy, no ordering, no invalidation and no epoch bump (the host's claim does not change);
  // it only notes the launch's marker on the replica, as the slow path would.
  //
  // The fast path notes the launch's marker in the ticket itself, not in the replica, so it
  // touches only this object (and the marker): revoking the ticket folds those notes into the
  // replica's events, in order, before anyone reads them.
  //
  // Locking. The ticket is guarded by ticket_lock_, a spinlock of one exchange (the fast path
  // holds it for a few compares and a shared_ptr store). Everything else stays under
  // state::mutex, and is frozen while a ticket exists: every function that takes
  // state::mutex calls revoke_ticket_locked() before it reads or changes anything, and only
  // the slow acquire_for_kernel installs a ticket, at its end, still holding the mutex. So a
  // thread holding the mutex after revoking owns the whole state as before (the revoke's
  // spinlock acquisition orders it after every fast path that ran), and a fast path runs only
  // while nothing else can change what the ticket certifies. Tickets are installed and
  // revoked holding both locks; ticket_queue_ is atomic so the fast path can test for a
  // ticket without the spinlock (the CPU devices never get one and so never take it).
  using ticket_lock = spin_lock;
  struct kernel_ticket {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool writable = false;
    void* base = nullptr;       // the replica's base address
    replica* target = nullptr;  // the queue's device's replica (stable while the ticket lives)
    std::uint64_t queue = 0;    // its serial, for the notes (the replica names queues so)
    // Uses noted since the ticket was installed: the last write, and the last read after it,
    // each either by event (write, read) or by a launch marker's counted note (write_note,
    // read_note); at most one of each pair is set.
    event_ptr write;
    event_ptr read;
    const counted_marker* write_note = nullptr;
    const counted_marker* read_note = nullptr;
  };
  // What noting a use replaced: events, destroyed by the caller after unlocking (a marker's
  // destructor runs runtime code), and counted notes, given back by the caller.
  struct retired_notes {
    event_ptr events[2];
    const counted_marker* notes[2] = {nullptr, nullptr};
  };
  // Notes a use in the ticket, by event or by a marker's counted note.
  static void note_in_ticket(kernel_ticket& t, bool write, const event_ptr& done,
                             retired_notes& retired) noexcept;
  static void note_in_ticket(kernel_ticket& t, bool write, const counted_marker& marker,
                             retired_notes& retired) noexcept;
  // The fast path: the device base address, or null when the ticket does not cover the use.
  void* acquire_with_ticket(queue_impl& queue, std::size_t begin, std::size_t end, bool write,
                            const event_ptr& marker);
  void* acquire_with_ticket_noted(queue_impl& queue, std::size_t begin, std::size_t end, bool write,
                                  const counted_marker& marker, launch_notes& notes);
  // Under state::mutex: drops the ticket and folds its notes into the replica (see above), and
  // the host-sole mark (acquire_host_sole). One load and a store when there is no ticket.
  void revoke_ticket_locked();
  // Under state::mutex, at the end of a slow acquire_for_kernel: certifies what it can.
  void install_ticket_locked(queue_impl& queue, replica& target, const footprint& fp, bool write);

  // The count (see retain). refs_ counts while owner_ is shared_count; owner_refs_, changed only
  // by the owner thread, while owner_ names it. Set by the constructor.
  std::atomic<int> refs_{0};
  std::atomic<std::uintptr_t> owner_{shared_count};
  std::atomic<int> owner_refs_{0};
  std::atomic<bool> owner_busy_{false};
  // The ticket's queue, by serial (queue_impl::serial: an address could be a new queue's);
  // 0: no ticket.
  std::atomic<std::uint64_t> ticket_queue_{0};
  ticket_lock ticket_lock_;
  kernel_ticket ticket_;
  std::atomic<unsigned> host_epoch_{0};
  // Host memory holds every byte and no replica exists (acquire_host_sole).
  std::atomic<bool> host_sole_{false};
  std::size_t bytes_;
  void* host_;
  std::shared_ptr<queue_impl> home_;
  std::unique_ptr<state> state_;
  bool registered_ = false;
};

// An intrusive, device-copyable handle to a data_source. Host copies own a reference; the
// copies a kernel launch makes do not (the launch keeps the source alive), so projecting a
// view inside a kernel costs no atomic operation.
class source_ref {
 public:
  HIPAMP_HOST_DEVICE source_ref() noexcept = default;
  explicit source_ref(data_source* adopted) noexcept : ptr_(adopted), owning_(adopted != nullptr) {}
  HIPAMP_HOST_DEVICE source_ref(const source_ref& other) noexcept
      : ptr_(other.ptr_), owning_(other.owning_) {
#if !HIPAMP_DEVICE_COMPILE
    if (owning_) ptr_->retain();
#endif
  }
  // A copy for a bound view: never owns, so copying kernels costs no atomic operation.
  HIPAMP_HOST_DEVICE source_ref(const source_ref& other, bool bound) noexcept
      : ptr_(other.ptr_), owning_(other.owning_ && !bound) {
#if !HIPAMP_DEVICE_COMPILE
    if (owning_) ptr_->retain();
#endif
  }
  HIPAMP_HOST_DEVICE source_ref(source_ref&& other) noexcept
      : ptr_(other.ptr_), owning_(other.owning_) {
    other.ptr_ = nullptr;
    other.owning_ = false;
  }
  HIPAMP_HOST_DEVICE source_ref& operator=(source_ref other) noexcept {
    data_source* p = ptr_;
    bool o = owning_;
    ptr_ = other.ptr_;
    owning_ = other.owning_;
    other.ptr_ = p;
    other.owning_ = o;
    return *this;
  }
  HIPAMP_HOST_DEVICE ~source_ref() {
#if !HIPAMP_DEVICE_COMPILE
    if (owning_) ptr_->release();
#endif
  }
  // Turns this handle into a non-owning one (for copies inside a launch).
  void disown() noexcept {
    if (owning_) ptr_->release();
    owning_ = false;
  }
  HIPAMP_HOST_DEVICE data_source* get() const noexcept { return ptr_; }
  // Whether this handle holds a reference of its own (see launch_scope::hold).
  HIPAMP_HOST_DEVICE bool owns() const noexcept { return owning_; }
  HIPAMP_HOST_DEVICE data_source* operator->() const noexcept { return ptr_; }
  HIPAMP_HOST_DEVICE explicit operator bool() const noexcept { return ptr_ != nullptr; }

 private:
  data_source* ptr_ = nullptr;
  bool owning_ = false;
};

struct host_binding {
  void* base;
  unsigned epoch;
};
// A view's host access slow path: syncs the view's bytes to the host and returns the host
// base with the epoch it is current for. `leaf` promises the compiler that it never calls back
// into the caller's translation unit, which lets the CPU executor's loops prove that their
// kernel-mode flag survives the call (see running_cpu_kernel).
#if defined(__GNUC__) || defined(__clang__)
__attribute__((leaf))
#endif
host_binding
bind_to_host(data_source* source, std::size_t element_size, std::size_t offset, int rank,
             const std::ptrdiff_t* extent, const std::ptrdiff_t* stride, bool write);

template <class F>
void footprint::for_each_run(F&& f) const {
  const int rank = static_cast<int>(extent.size());
  for (int d = 0; d < rank; ++d) {
    if (extent[d] <= 0) return;
  }
  // Merge trailing dimensions that are dense into one run length.
  int inner = rank - 1;
  std::ptrdiff_t run = extent[inner];
  while (inner > 0 && stride[inner - 1] == run) {
    --inner;
    run *= extent[inner];
  }
  dim_values idx;
  idx.assign(static_cast<std::size_t>(inner), 0);
  for (;;) {
    auto first = static_cast<std::ptrdiff_t>(offset);
    for (int d = 0; d < inner; ++d) first += idx[d] * stride[d];
    f(static_cast<std::size_t>(first) * element_size,
      static_cast<std::size_t>(first + run) * element_size);
    int d = inner - 1;
    while (d >= 0 && ++idx[d] == extent[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

}  // namespace hipamp::detail
