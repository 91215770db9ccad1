// A queue's launch markers (queue_impl::begin_launch), recycled: the event of one launch's work,
// recorded on the queue's stream only when someone needs it. Written once for any stream (the
// GPU queue's in lib/gpu_runtime.cpp; stand-ins in the tests and in
// benchmarks/bench_launch_bookkeeping.cpp, which run this very code without a GPU).
//
// Why markers: recording an event after every launch cost about a quarter of the launch (H100
// machine: 0.24 us of 3 us). In a loop of launches over the same views each launch's marker
// replaces the last one's in the views' notes at bind, before any work is queued, so the
// replaced marker is held by nobody and never recorded.
//
// Exactness: a marker's event is recorded at the first of (a) someone waiting for it and (b)
// new work about to enter the stream while anyone still holds the marker (settle: copies,
// launches, waits, record, native_handle). Until then nothing has entered the stream after the
// marker's work, so recording "now" marks exactly its end. Work that enters the stream
// otherwise (the program's own, through the stream) can only make a later wait wait longer.
//
// Why recycled (issue 19): a marker per launch was a heap allocation, a shared_ptr control
// block, two reference counts it took (its queue, the event pool) and gave back, and a weak
// pointer to the pending one, all per launch. Here the markers live in a ring that belongs to
// the queue and are handed out again once nobody but the ring holds them: a loop of launches
// alternates between two markers and allocates nothing.
//
// Reuse rule: a slot is reused only when the ring holds its only reference (use_count() == 1),
// no kernel ticket notes it (counted_marker::notes() == 0, read first: a ticket's note is
// turned into a reference before it is given back) and it is not the pending marker. Nobody can
// then wait for it or note it: a note or a waiter holds a note or a reference, and only the
// ring hands out new ones. So a later launch never inherits an
// earlier launch's waiters, and no waiter of an earlier launch ever waits on a later one
// (tests/test_launch_markers.cpp). The pending marker is excluded because settle() looks it
// up by slot: reused, settle would record the new launch's marker before its work.
//
// Ownership: the queue owns the ring (through a shared_ptr); every marker owns the ring too,
// so a marker that outlives its queue (a view's note) still reaches what it needs. That cycle
// is broken by shutdown(), which the queue's destructor calls: it records every marker still
// held or noted that has no event yet (none can be waited for after the stream is gone) and
// lets go of the slots not noted, after which the ring lives exactly as long as the last
// marker held outside; a slot still noted by a ticket is let go when its last note is given
// back (note_free).
//
// Stream requirements (a small value type):
//   using handle = ...;                 an event handle
//   handle record();                    records a point on the stream now (may throw)
//   void release(handle) noexcept;      gives a recorded handle back
//   bool ready(handle);                 the point has passed (may throw)
//   void wait(handle);                  blocks until it has (may throw)
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <hipamp/detail/backend.hpp>
#include <hipamp/detail/spin_lock.hpp>

namespace hipamp::detail {

template <class Stream>
class launch_markers : public std::enable_shared_from_this<launch_markers<Stream>> {
 public:
  using handle = typename Stream::handle;

  class marker final : public counted_marker, public std::enable_shared_from_this<marker> {
   public:
    marker(std::shared_ptr<launch_markers> home, std::size_t slot)
        : home_(std::move(home)), slot_(slot) {}
    marker(const marker&) = delete;
    marker& operator=(const marker&) = delete;
    ~marker() override {
      if (recorded_) home_->stream_.release(event_);
    }

    bool is_ready() const override {
      if (!queued_.load(std::memory_order_acquire)) return false;
      if (resolved_) return resolved_->is_ready();
      return home_->stream_.ready(materialize());
    }
    void wait() const override {
      wait_until_queued();
      if (resolved_) {
        resolved_->wait();
        return;
      }
      home_->stream_.wait(materialize());
    }
    // The event to wait for, recorded on the stream now if it was not yet. Waits first until
    // the launch has queued its work (another thread may still be launching it).
    handle materialize() const {
      wait_until_queued();
      return home_->materialize(*this);
    }
    // The ring this marker belongs to: a queue is already ordered after its own markers.
    const launch_markers& home() const noexcept { return *home_; }
    // Set by resolve_launch: the event that stands for the launch's work instead.
    const event_ptr& resolved() const noexcept { return resolved_; }
    event_ptr share() const override { return this->shared_from_this(); }
    void wait_until_queued() const {
      while (!queued_.load(std::memory_order_acquire)) std::this_thread::yield();
    }

   private:
    friend class launch_markers;
    // After shutdown the ring keeps a noted slot until now. May destroy *this (the slot was its
    // last owner): nothing here touches the marker after note_free; `home` keeps the ring alive
    // to the end of the call.
    void last_note_dropped() const noexcept override {
      // The common case, a queue still open, costs one load (see shutdown for the order).
      if (!home_->closed_.load(std::memory_order_seq_cst)) return;
      const std::shared_ptr<launch_markers> home = home_;
      home->note_free(slot_);
    }
    // Back to "a launch being bound" for its next use; only when nobody else holds it.
    void recycle() noexcept {
      if (recorded_) home_->stream_.release(event_);
      recorded_ = false;
      event_ = handle{};
      resolved_ = nullptr;
      queued_.store(false, std::memory_order_relaxed);
    }

    std::shared_ptr<launch_markers> home_;
    std::size_t slot_;               // its index in the ring, for pending_
    mutable handle event_{};         // guarded by the ring's lock
    mutable bool recorded_ = false;  // guarded by the ring's lock
    mutable event_ptr resolved_;     // written before queued_ is set
    mutable std::atomic<bool> queued_{false};
  };

  explicit launch_markers(Stream stream) : stream_(std::move(stream)) {}
  launch_markers(const launch_markers&) = delete;
  launch_markers& operator=(const launch_markers&) = delete;

  // queue_impl::begin_launch: a marker for the launch being bound, nobody else's.
  event_ptr begin() {
    std::lock_guard<spin_lock> lock(lock_);
    const std::size_t n = slots_.size();
    // Oldest first: in a loop the slot after the last one handed out is the one the last
    // launch's binds just let go of. Bounded, so a queue whose markers are all held (a program
    // that keeps many views, each noting a different launch) pays O(1) and grows the ring.
    for (std::size_t i = 0; i < n && i < scan_limit; ++i) {
      std::size_t k = next_ + i;
      if (k >= n) k -= n;
      if (k != pending_ && slots_[k]->notes() == 0 && slots_[k].use_count() == 1) {
        // Pairs with the release in the last holder's reference drop: what it did with the
        // marker happened before the reset.
        std::atomic_thread_fence(std::memory_order_acquire);
        slots_[k]->recycle();
        next_ = k + 1 == n ? 0 : k + 1;
        return slots_[k];
      }
    }
    slots_.push_back(std::make_shared<marker>(this->shared_from_this(), n));
    next_ = 0;
    return slots_.back();
  }

  // queue_impl::end_launch: the launch has queued its work (or given up without any).
  void end(const event_ptr& launched) {
    const auto& m = static_cast<const marker&>(*launched);
    std::lock_guard<spin_lock> lock(lock_);
    // A launch that queued nothing settled nothing: the one before it is settled now (nothing
    // entered the stream since its work, so this is still exact).
    settle_locked();
    pending_ = m.slot_;
    m.queued_.store(true, std::memory_order_release);
  }

  // queue_impl::resolve_launch: waiting for the marker waits for `done` instead.
  static void resolve(const event_ptr& launched, const event_ptr& done) {
    static_cast<const marker&>(*launched).resolved_ = done;
  }

  // Before new work enters the stream: records the last launch's marker if anyone still
  // holds it.
  void settle() {
    std::lock_guard<spin_lock> lock(lock_);
    settle_locked();
  }

  // The queue is going away (its destructor, before the stream is destroyed): every marker
  // still held outside gets its event now, and the ring lets go of its slots (see Ownership).
  void shutdown() noexcept {
    std::vector<std::shared_ptr<marker>> slots;
    {
      std::lock_guard<spin_lock> lock(lock_);
      for (const std::shared_ptr<marker>& m : slots_) {
        if ((m.use_count() > 1 || m->notes() != 0) && !m->recorded_ && !m->resolved_ &&
            m->queued_.load(std::memory_order_acquire)) {
          try {
            m->event_ = stream_.record();
            m->recorded_ = true;
          } catch (...) {
            // A lost device: waiting for the marker later reports nothing more useful.
          }
        }
      }
      pending_ = npos;
      closed_.store(true, std::memory_order_seq_cst);
      // Against drop_notes (its count's fetch_sub, then this flag): either it sees the ring
      // closed and frees the slot itself, or the loop below sees the notes at zero.
      std::atomic_thread_fence(std::memory_order_seq_cst);
      // Slots still noted by a ticket stay (their index is how note_free finds them).
      for (std::shared_ptr<marker>& m : slots_) {
        if (m->notes() == 0) slots.push_back(std::move(m));
      }
    }
    // Outside the lock: dropping the last reference to a slot runs its destructor.
  }

  // How many markers the ring holds (tests: a loop of launches needs two).
  std::size_t size() const {
    std::lock_guard<spin_lock> lock(lock_);
    return slots_.size();
  }

 private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  static constexpr std::size_t scan_limit = 16;

  // The last note of a slot was given back: after shutdown, the slot goes (see Ownership).
  void note_free(std::size_t slot) noexcept {
    std::shared_ptr<marker> dying;  // destroyed after the lock is released
    std::lock_guard<spin_lock> lock(lock_);
    if (closed_.load(std::memory_order_relaxed) && slot < slots_.size() && slots_[slot] &&
        slots_[slot]->notes() == 0) {
      dying = std::move(slots_[slot]);
    }
  }

  void settle_locked() {
    if (pending_ == npos) return;
    const marker& m = *slots_[pending_];
    // use_count() == 1 and no notes: only the ring holds it, and only the ring could hand out
    // more.
    if ((slots_[pending_].use_count() > 1 || m.notes() != 0) && !m.recorded_ && !m.resolved_) {
      m.event_ = stream_.record();
      m.recorded_ = true;
    }
    pending_ = npos;
  }

  handle materialize(const marker& m) {
    std::lock_guard<spin_lock> lock(lock_);
    // After shutdown every marker that can be waited for has its event (shutdown records
    // them); the stream must not be touched.
    if (!m.recorded_ && !closed_.load(std::memory_order_relaxed)) {
      m.event_ = stream_.record();
      m.recorded_ = true;
    }
    return m.event_;
  }

  Stream stream_;
  mutable spin_lock lock_;
  std::vector<std::shared_ptr<marker>> slots_;
  std::size_t next_ = 0;             // where begin() looks first
  std::size_t pending_ = npos;       // the last launch's slot while its event may still be needed
  std::atomic<bool> closed_{false};  // written under lock_; read without it by drop_notes
};

}  // namespace hipamp::detail
