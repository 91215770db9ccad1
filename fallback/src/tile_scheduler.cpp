// The CPU tile scheduler (see tile_scheduler.hpp for the invariants it keeps).
//
// Scheduling: a tile in fiber mode runs in rounds. A round starts with work-item 0 (on the
// thread's own stack) and visits work-items 1..n-1 in order; each runs until it reaches a
// barrier or returns, then switches straight to the next (no scheduler hop, so one switch
// per work-item per barrier). The last switches back to item 0, which ends the round. In a
// correct kernel every item of a round waited, at the same tile_barrier::wait (the first
// waiter's file:line), or every item returned; anything else is a barrier that not all
// work-items reached, reported as barrier_divergence after the suspended work-items were
// unwound (so their destructors run and their stacks can be reused). The checks are a
// counter and a compare per wait, next to a stack switch: nothing measurable.
#include <hipamp/fallback/tile_scheduler.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <hipamp/config.hpp>
#include <hipamp/exceptions.hpp>

#include "fiber_context.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define HIPAMP_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HIPAMP_ASAN_FIBERS 1
#endif
#endif
#ifndef HIPAMP_ASAN_FIBERS
#define HIPAMP_ASAN_FIBERS 0
#endif
#if HIPAMP_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

// ThreadSanitizer must be told about stack switches, or it takes each fiber's accesses for
// the OS thread's and reports races between work-items of one tile (and can crash).
#if defined(__SANITIZE_THREAD__)
#define HIPAMP_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HIPAMP_TSAN_FIBERS 1
#endif
#endif
#ifndef HIPAMP_TSAN_FIBERS
#define HIPAMP_TSAN_FIBERS 0
#endif
#if HIPAMP_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
#endif

namespace hipamp::fallback {
namespace {

constexpr int max_items = 1024;

// Thrown into suspended work-items to unwind them when their tile fails. Deliberately not
// a std::exception, so a kernel's catch (const std::exception&) does not swallow it.
struct tile_abandoned {};

std::size_t page_size() noexcept {
  static const auto bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

std::size_t read_stack_bytes() noexcept {
  std::size_t kib = HIPAMP_ASAN_FIBERS ? 256 : 64;  // ASan's redzones make frames larger
  if (const char* env = std::getenv("HIPAMP_FIBER_STACK_KIB")) {
    const long asked = std::strtol(env, nullptr, 10);
    if (asked >= 16 && asked <= 65536) kib = static_cast<std::size_t>(asked);
  }
  const std::size_t page = page_size();
  return (kib * 1024 + page - 1) / page * page;
}

// Fiber stacks from one mapping, each above a PROT_NONE guard page (stacks grow down), so
// an overflowing work-item faults at once instead of corrupting its neighbour.
class stack_block {
 public:
  stack_block(int count, std::size_t stack_bytes)
      : slot_(stack_bytes + page_size()), bytes_(slot_ * static_cast<std::size_t>(count)) {
    void* base = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) {
      throw out_of_memory("hipamp: cannot map " + std::to_string(count) + " fiber stacks of " +
                          std::to_string(stack_bytes / 1024) +
                          " KiB for the CPU tile scheduler: " + std::strerror(errno));
    }
    base_ = static_cast<char*>(base);
    for (int i = 0; i < count; ++i) {
      if (mprotect(base_ + slot_ * static_cast<std::size_t>(i), page_size(), PROT_NONE) != 0) {
        const int err = errno;
        munmap(base_, bytes_);
        throw out_of_memory(std::string("hipamp: cannot protect a fiber stack guard page: ") +
                            std::strerror(err));
      }
    }
  }
  stack_block(const stack_block&) = delete;
  stack_block& operator=(const stack_block&) = delete;
  ~stack_block() {
#if HIPAMP_ASAN_FIBERS
    // Parked fibers still have frames here, whose redzones would stay poisoned in the shadow
    // memory of whatever is mapped at these addresses next.
    __asan_unpoison_memory_region(base_, bytes_);
#endif
    munmap(base_, bytes_);
  }

  char* stack_bottom(int i) const noexcept {
    return base_ + slot_ * static_cast<std::size_t>(i) + page_size();
  }

 private:
  std::size_t slot_;
  std::size_t bytes_;
  char* base_ = nullptr;
};

// One per OS thread that has run a tile; its stacks are reused by every later tile.
class worker {
 public:
  worker() = default;
  worker(const worker&) = delete;
  worker& operator=(const worker&) = delete;
#if HIPAMP_TSAN_FIBERS
  ~worker() {
    for (int k = 1; k < made_; ++k) {
      if (tsan_fiber_[k] != nullptr) __tsan_destroy_fiber(tsan_fiber_[k]);
    }
  }
#endif

  void start_tile(const tile_job& job) noexcept {
    job_ = &job;
    items_ = job.item_count;
    current_ = 0;
    phase_ = phase::first_item;
    abandon_ = false;
    round_waits_ = 0;
    round_finished_ = 0;
    barriers_passed_ = 0;
    zero_finished_ = false;
  }
  void end_session() noexcept { phase_ = phase::idle; }

  bool run_first_item(const tile_job& job) {
    start_tile(job);
    try {
      job.run_item(job.context, 0);
    } catch (const tile_abandoned&) {
      // Unwound because the tile failed; error_ says why.
    } catch (...) {
      record_error(std::current_exception());
    }
    if (phase_ == phase::first_item) {  // work-item 0 never waited: no fibers exist
      phase_ = phase::rest_direct;
      if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
      return false;
    }
    finish_fiber_tile();
    return true;
  }

  // The hot path: a phase test, the site compare, the switch, the round-end test. Everything
  // that builds a message is out of line (cold), so this stays a small leaf-like frame.
  void wait(const char* file, int line) {
    if (HIPAMP_UNLIKELY(phase_ != phase::fibers)) {
      if (!enter_fibers(file, line)) return;  // a barrier of one
    }
    if (abandon_) abandon();
    const int me = current_;
    if (round_waits_ == 0) {  // the round's first waiter names its barrier
      round_file_ = file;
      round_line_ = line;
      round_first_ = me;
    } else if (HIPAMP_UNLIKELY(line != round_line_ ||
                               (file != round_file_ && std::strcmp(file, round_file_) != 0))) {
      other_barrier(me, file, line);
    }
    ++round_waits_;
    switch_to(me + 1 == items_ ? 0 : me + 1);
    if (abandon_) abandon();
    if (me == 0) {  // a round ended: every work-item must have waited
      if (HIPAMP_UNLIKELY(round_finished_ != 0 || error_)) round_failed();
      round_waits_ = 0;
      ++barriers_passed_;
    }
  }

 private:
  enum class phase : unsigned char { idle, first_item, fibers, rest_direct };
  enum class item_state : unsigned char { not_started, running, finished };

  void record_error(std::exception_ptr e) noexcept {
    if (!error_) error_ = std::move(e);
  }

  // Out of the fiber phase: work-item 0's first barrier starts the fibers (false for a tile
  // of one, which needs no switch); anything else is an error.
  HIPAMP_NOINLINE bool enter_fibers(const char* file, int line) {
    switch (phase_) {
      case phase::fibers:
        return true;
      case phase::first_item:
        if (items_ == 1) return false;
        start_fibers();
        return true;
      case phase::rest_direct:
        // Work-item 0 returned without waiting; the caller runs the others in a plain loop
        // (ivdep, not omp simd, so the exception may leave it). Throwing here, before the
        // work-item runs on past the barrier, keeps it from using what was never written.
        throw barrier_divergence(divergence_message(
            "a work-item other than " + local_name(0) + " reached tile_barrier::wait at " +
            site_name(file, line) + " (barrier #1 of the tile), which work-item " + local_name(0) +
            " returned without reaching"));
      case phase::idle:
        break;
    }
    throw runtime_exception(
        "hipamp: tile_barrier::wait called outside a tiled parallel_for_each on the CPU device");
  }

  [[noreturn]] HIPAMP_NOINLINE static void abandon() { throw tile_abandoned{}; }

  // Work-item `me` waits at another tile_barrier::wait than the round's first waiter.
  [[noreturn]] HIPAMP_NOINLINE void other_barrier(int me, const char* file, int line) {
    record_error(std::make_exception_ptr(barrier_divergence(divergence_message(
        "at barrier #" + std::to_string(barriers_passed_ + 1) + " work-item " +
        local_name(round_first_) + " waits at " + site_name(round_file_, round_line_) +
        " but work-item " + local_name(me) + " at " + site_name(file, line) +
        "; every work-item of the tile must wait at the same tile_barrier::wait"))));
    abandon_ = true;
    throw tile_abandoned{};
  }

  // Work-item 0 ends a round in which some work-items returned (or one failed).
  [[noreturn]] HIPAMP_NOINLINE void round_failed() {
    if (!error_) {
      error_ = std::make_exception_ptr(barrier_divergence(divergence_message(
          "at barrier #" + std::to_string(barriers_passed_ + 1) + " (" +
          site_name(round_file_, round_line_) + ") " + std::to_string(round_waits_) +
          " work-item(s) wait (" + item_list(false) + ") but " + std::to_string(round_finished_) +
          " returned without reaching it (" + item_list(true) + ")")));
    }
    abandon_ = true;
    throw tile_abandoned{};
  }

  // Work-item `linear` as its local index in the tile, e.g. "[3, 1]".
  std::string local_name(int linear) const {
    int local[3] = {0, 0, 0};
    for (int d = job_->rank - 1; d >= 0; --d) {
      local[d] = linear % job_->tile_extent[d];
      linear /= job_->tile_extent[d];
    }
    std::string s = "[";
    for (int d = 0; d < job_->rank; ++d) {
      if (d) s += ", ";
      s += std::to_string(local[d]);
    }
    return s + "]";
  }
  static std::string site_name(const char* file, int line) {
    return std::string(file != nullptr ? file : "?") + ":" + std::to_string(line);
  }
  // The first few work-items that have returned (or have not), by local index.
  std::string item_list(bool finished) const {
    constexpr int shown = 6;
    std::string s;
    int count = 0;
    for (int k = 0; k < items_; ++k) {
      if ((state_of(k) == item_state::finished) != finished) continue;
      if (count < shown) s += (count ? ", " : "") + local_name(k);
      ++count;
    }
    if (count > shown) s += ", ... " + std::to_string(count - shown) + " more";
    return s;
  }
  // Work-item 0 runs on the thread's stack and has no state_ slot; it is running (waiting)
  // whenever a round is checked, and finished once finish_fiber_tile runs.
  item_state state_of(int k) const noexcept {
    if (k == 0) return zero_finished_ ? item_state::finished : item_state::running;
    return state_[k];
  }

  std::string divergence_message(const std::string& what) const {
    std::string tile = "[";
    for (int d = 0; d < job_->rank; ++d) {
      if (d) tile += ", ";
      tile += std::to_string(job_->tile_index[d]);
    }
    return "hipamp: tile " + tile + "] (" + std::to_string(items_) + " work-items): " + what +
           "; C++ AMP requires every work-item of a tile to reach the same barriers";
  }

  void ensure_stacks(int count) {
    if (static_cast<int>(stack_bottoms_.size()) >= count) return;
    if (stack_bytes_ == 0) stack_bytes_ = fiber_stack_bytes();
    const int more = count - static_cast<int>(stack_bottoms_.size());
    blocks_.push_back(std::make_unique<stack_block>(more, stack_bytes_));
    for (int i = 0; i < more; ++i) stack_bottoms_.push_back(blocks_.back()->stack_bottom(i));
  }

  // Work-item k (k >= 1) runs on fiber k, on stack k-1. A fiber is made once per worker and
  // then lives in a loop (fiber_main): after its work-item of one tile returns it parks, and
  // the next tile that needs slot k resumes it for that tile's work-item k. Making a context
  // per work-item per tile (a cold stack line, the trampoline, fiber_main's entry) was about
  // a tenth of a barrier-per-step kernel's time (issue 19's profile); a parked fiber costs
  // only the switch that every work-item pays anyway.
  // Each stack's top is offset by a different multiple of 64 bytes so that the hot top frames
  // of a tile's fibers do not all fall into the same cache sets (every stack starts at the
  // same page offset otherwise).
  void start_fibers() {
    if (made_ < items_) make_fibers(items_);
    for (int k = 1; k < items_; ++k) state_[k] = item_state::not_started;
#if HIPAMP_TSAN_FIBERS
    tsan_fiber_[0] = __tsan_get_current_fiber();
#endif
    phase_ = phase::fibers;
  }

  HIPAMP_NOINLINE void make_fibers(int count) {
    ensure_stacks(count - 1);
    for (int k = std::max(made_, 1); k < count; ++k) {
      char* bottom = stack_bottoms_[static_cast<std::size_t>(k - 1)];
      const std::size_t colour = (static_cast<std::size_t>(k) * 320) % 4096;
      context_[k] = fiber::make_context(bottom + stack_bytes_ - colour, &fiber_main, this);
#if HIPAMP_TSAN_FIBERS
      // One TSan fiber per work-item slot, kept for the worker's life; switches synchronise,
      // as the tile's barriers do.
      tsan_fiber_[k] = __tsan_create_fiber(0);
#endif
#if HIPAMP_ASAN_FIBERS
      asan_bottom_[k] = bottom;
      asan_size_[k] = stack_bytes_;
#endif
    }
    made_ = count;
  }

  // Called on the thread's stack once work-item 0 is done (returned, threw or unwound).
  void finish_fiber_tile() {
    zero_finished_ = true;
    if (!error_ && !abandon_) {
      // Items 1..n-1 run the final phase; the last switches back here.
      round_waits_ = 0;
      round_finished_ = 1;
      switch_to(1);
      if (round_waits_ != 0 && !error_) {
        error_ = std::make_exception_ptr(barrier_divergence(divergence_message(
            "work-item " + local_name(0) + " returned after " + std::to_string(barriers_passed_) +
            " barrier(s) while " + std::to_string(round_waits_) +
            " work-item(s) wait at barrier #" + std::to_string(barriers_passed_ + 1) + " (" +
            site_name(round_file_, round_line_) + ": " + item_list(false) +
            "); returned: " + item_list(true))));
      }
    }
    if (error_) {
      abandon_ = true;
      for (int k = 1; k < items_; ++k) {
        if (state_[k] != item_state::finished) switch_to(k);  // it unwinds and parks
      }
      phase_ = phase::rest_direct;  // nothing of this tile runs any more
      std::rethrow_exception(std::exchange(error_, nullptr));
    }
    phase_ = phase::rest_direct;
  }

  // The life of fiber k: one work-item per tile that reaches it, parked in between. It
  // reads job_ and current_ afresh each time, since the tiles (and launches) change.
  [[noreturn]] static void fiber_main(void* arg) {
    worker& self = *static_cast<worker*>(arg);
    self.resumed();
    const int me = self.current_;
    for (;;) {
      self.state_[me] = item_state::running;
      if (!self.abandon_) {
        try {
          self.job_->run_item(self.job_->context, me);
        } catch (const tile_abandoned&) {
        } catch (...) {
          self.record_error(std::current_exception());
        }
      }
      self.state_[me] = item_state::finished;
      ++self.round_finished_;
      const int next = self.abandon_ || me + 1 == self.items_ ? 0 : me + 1;
      self.switch_to(next);  // parks until a later tile needs work-item `me` again
    }
  }

  void switch_to(int next) noexcept {
    const int me = current_;
    current_ = next;
#if HIPAMP_ASAN_FIBERS
    previous_ = me;
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, asan_bottom_[next], asan_size_[next]);
    hipamp_fiber_switch(&context_[me], context_[next]);
    __sanitizer_finish_switch_fiber(fake_stack, &asan_bottom_[previous_], &asan_size_[previous_]);
#else
#if HIPAMP_TSAN_FIBERS
    __tsan_switch_to_fiber(tsan_fiber_[next], 0);
#endif
    hipamp_fiber_switch(&context_[me], context_[next]);
#endif
  }
  // First code of a new fiber: completes the switch that started it.
  void resumed() noexcept {
#if HIPAMP_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(nullptr, &asan_bottom_[previous_], &asan_size_[previous_]);
#endif
  }

  const tile_job* job_ = nullptr;
  int items_ = 0;
  int current_ = 0;
  phase phase_ = phase::idle;
  bool abandon_ = false;
  bool zero_finished_ = false;  // work-item 0 returned (the tile's final phase)
  int round_waits_ = 0;
  int round_finished_ = 0;
  int barriers_passed_ = 0;           // rounds completed by the whole tile
  const char* round_file_ = nullptr;  // where the round's first waiter waits
  int round_line_ = 0;
  int round_first_ = 0;
  std::exception_ptr error_;

  void* context_[max_items] = {};  // saved stack pointers; [0] is the thread's own stack
  item_state state_[max_items] = {};
#if HIPAMP_ASAN_FIBERS
  int previous_ = 0;
  const void* asan_bottom_[max_items] = {};
  std::size_t asan_size_[max_items] = {};
#endif
#if HIPAMP_TSAN_FIBERS
  void* tsan_fiber_[max_items] = {};  // [0] is the thread's own, set when fibers start
#endif

  int made_ = 0;  // fibers 1..made_-1 exist (parked or running)
  std::size_t stack_bytes_ = 0;
  std::vector<std::unique_ptr<stack_block>> blocks_;
  std::vector<char*> stack_bottoms_;
};

worker& this_thread_worker() {
  thread_local std::unique_ptr<worker> owned;
  if (!owned) owned = std::make_unique<worker>();
  return *owned;
}

// The worker of the tile session open on this thread, if any.
thread_local worker* t_active = nullptr;

}  // namespace

std::size_t fiber_stack_bytes() noexcept {
  static const std::size_t bytes = read_stack_bytes();
  return bytes;
}

tile_session::tile_session() {
  if (t_active != nullptr) {
    throw runtime_exception(
        "hipamp: a tiled parallel_for_each was started from inside a running tile (kernels "
        "cannot launch kernels)");
  }
  t_active = &this_thread_worker();
}

tile_session::~tile_session() {
  t_active->end_session();
  t_active = nullptr;
}

bool tile_session::run_first_item(const tile_job& job) { return t_active->run_first_item(job); }

void tile_barrier_wait(const char* file, int line) {
  worker* active = t_active;
  if (active == nullptr) {
    throw runtime_exception("hipamp: tile_barrier::wait (" + std::string(file ? file : "?") + ":" +
                            std::to_string(line) +
                            ") called outside a tiled parallel_for_each on the CPU device");
  }
  active->wait(file, line);
}

}  // namespace hipamp::fallback
