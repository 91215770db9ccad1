// The launch scope: while parallel_for_each copies the kernel object, every array_view copy
// constructor reports itself here, which is how the runtime learns what a kernel touches
// without seeing its captures (the idea of LLNL's CHAI). Closing the scope makes each view's
// data valid on the target and points the copies at the target's memory.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <hipamp/detail/backend.hpp>
#include <hipamp/detail/data_source.hpp>

namespace hipamp::detail {

class launch_scope;
// The scope open on this thread (launch_scope::current). Inline rather than behind a call into
// libhipamp: every array_view copy reads it, twice (array_view::owns_no_reference).
inline thread_local launch_scope* open_launch_scope = nullptr;

class launch_scope {
 public:
  // What completing the launch needs of each captured view: its source, and whether the
  // kernel may write it (the footprint only matters when the data is made valid, at bind);
  // and what a second bind of the same bytes in this launch reuses: the base address bind
  // returned and, for a contiguous footprint, the byte range it made valid.
  // No default member initializers: the scope keeps eight of these inline, and zeroing them
  // on every launch cost more than the bindings a small launch writes (issue 19). Every field
  // is written when a binding is recorded.
  struct binding {
    data_source* source;
    void* base;
    std::size_t begin;
    std::size_t end;  // begin == end: not reusable (a strided footprint)
    bool write;
    bool retained;  // the scope took a reference (released by its destructor)
  };

  // Where a captured view lies in its source, as the view holds it, with its byte span
  // computed inline (issue 19: building a footprint, two small vectors, and walking it out of
  // line cost a GPU launch about 150 instructions per view when the ticket's fast path needs
  // only the span). The footprint is built from this only when the slow path needs it.
  struct view_place {
    std::size_t element_size = 0;
    std::size_t offset = 0;  // first element, from the source's base
    int rank = 0;
    const std::ptrdiff_t* extent = nullptr;  // rank values
    const std::ptrdiff_t* stride = nullptr;  // rank values, in elements
    footprint::byte_span span;               // footprint::span() of the above
    footprint where() const;
  };
  // footprint::span() of a view of rank N, inline (the same arithmetic: see data_source.cpp).
  template <int N>
  static footprint::byte_span span_of(std::size_t element_size, std::size_t offset,
                                      const std::ptrdiff_t (&extent)[N],
                                      const std::ptrdiff_t (&stride)[N]) noexcept {
    auto first = static_cast<std::ptrdiff_t>(offset);
    auto last = first;
    std::ptrdiff_t expected = 1;
    bool dense = true;
    bool empty = false;
    for (int d = N - 1; d >= 0; --d) {
      empty |= extent[d] <= 0;
      const std::ptrdiff_t reach = (extent[d] - 1) * stride[d];
      if (reach < 0) first += reach;
      if (reach > 0) last += reach;
      dense &= extent[d] <= 1 || stride[d] == expected;
      expected *= extent[d];
    }
    const std::size_t b = static_cast<std::size_t>(first) * element_size;
    if (empty) return {b, b, dense};
    return {b, static_cast<std::size_t>(last + 1) * element_size, dense};
  }

  explicit launch_scope(queue_impl& queue);
  launch_scope(const launch_scope&) = delete;
  launch_scope& operator=(const launch_scope&) = delete;
  ~launch_scope();

  // The scope open on this thread, if any.
  static launch_scope* current() noexcept { return open_launch_scope; }

  // Makes the view's data valid on the target now and returns the source's base address
  // there. Takes no pointer to the view: a kernel copy whose address never escapes lets the
  // compiler prove its views' host checks loop-invariant on the CPU device. `kept`: the view
  // was copied from one that holds a reference to `source` and outlives the scope (see
  // holds), so the scope takes none of its own.
  void* bind(data_source* source, const view_place& place, bool write, bool kept = false);

  // bind in three steps, cheapest first, for the view copy constructor (issue 19: on a GPU each
  // captured view is copied twice inside the scope, once for the device and once into nvcc's
  // heap copy of the lambda, and the generic bind cost about 300 instructions a copy):
  //
  //   reuse: inline, the base address of a binding of this launch that already covers the
  //     view's bytes for this use, or null. No call, no place built.
  //   bind_span, only where the source holds a kernel ticket for this queue (one inline load;
  //     never on the devices over host memory): the ticket's fast path with only the span;
  //     records the binding and returns the base, or returns null having recorded nothing.
  //   bind_place: the rest of bind (the ticket, else the directory's slow path), given the
  //     whole place.
  //
  // Why reuse: nvcc copies an extended __host__ __device__ lambda twice per copy of the kernel
  // object (its captures for the device, and a heap copy of the lambda for host calls), so on
  // a GPU every captured view binds twice; kernels may also capture one view twice. A
  // footprint inside a contiguous range this launch already bound, for a use that bind already
  // covered (a read after a read or write, a write after a write), needs nothing more: its
  // bytes are valid on the target, the queue is ordered after their users, the launch's marker
  // or event is noted as their last use, and the scope (or the view it was copied from) holds
  // the source. Only contiguous ranges are reused: a strided bind made only its own runs
  // valid, not the gaps between them.
  void* reuse(const data_source* source, const footprint::byte_span& span,
              bool write) const noexcept {
    if (!span.dense) return nullptr;
    const std::size_t inline_count =
        binding_count_ < inline_bindings ? binding_count_ : inline_bindings;
    for (std::size_t i = 0; i < inline_count; ++i) {
      const binding& b = first_bindings_[i];
      if (b.source == source && b.begin <= span.begin && span.end <= b.end && b.begin < b.end &&
          (b.write || !write)) {
        return b.base;
      }
    }
    if (binding_count_ <= inline_bindings) return nullptr;
    const binding* done = find_covering(source, span.begin, span.end, write);
    return done != nullptr ? done->base : nullptr;
  }
  void* bind_span(data_source* source, const footprint::byte_span& span, bool write, bool kept);

  // The cheapest bind of all, inline in the view copy constructor before any of the above: on
  // a device that works in host memory (the CPU and reference devices), a view copied from one
  // the scope holds (hold: its reference keeps the source alive for the launch, so the scope
  // takes none) whose source is host-sole binds to the host address with one load, as
  // bind_place would. Nothing is recorded: on such a device
  // complete() has nothing to note and the destructor nothing to release for a kept binding,
  // and a second copy of the same view takes this path again. Null: take the others. (Issue 19,
  // session 16: a 2-view launch went from about 1414 to 1123 instructions on one thread,
  // callgrind; on the 16-core GPU host the launching thread's serial part costs about twice
  // what it does alone, so saxpy 2^16 went from 0.82-0.85 to 0.85-0.88 of the OpenMP loop.)
  void* bind_host_sole(const data_source* source, const void* from, std::size_t from_bytes,
                       bool from_owns) const noexcept {
    if (!over_host_ || !from_owns || !holds(from, from_bytes)) return nullptr;
    return source->acquire_host_sole();
  }
  void* bind_place(data_source* source, const view_place& place, bool write, bool kept);

  // The objects bind_and_run copies (its arguments: the kernel object, views, array handles)
  // live in the caller until the scope has completed and been destroyed, and nothing changes
  // them meanwhile (they are const). A view copied from inside one of them that owns a
  // reference to its source therefore keeps the source alive for the whole launch, and the
  // scope need not retain and release it: two atomic read-modify-writes per view per launch
  // (issue 19). Only these exact byte ranges count; a copy of anything else (a temporary, a
  // heap object such as nvcc's host copy of an extended lambda) is retained as before.
  void hold(const void* object, std::size_t bytes) noexcept {
    if (held_count_ < max_held) {
      const auto begin = reinterpret_cast<std::uintptr_t>(object);
      held_[held_count_++] = {begin, begin + bytes};
    }
  }
  // Whether [object, object + bytes) lies inside an object named to hold().
  bool holds(const void* object, std::size_t bytes) const noexcept {
    const auto begin = reinterpret_cast<std::uintptr_t>(object);
    for (std::size_t i = 0; i < held_count_; ++i) {
      if (held_[i].begin <= begin && begin + bytes <= held_[i].end) return true;
    }
    return false;
  }
  // Ends capturing.
  void close() noexcept;
  // Records the launch's completion event on every source it touched. A null `done` means
  // "the work just queued on queue()": an event is recorded there only if views were bound.
  void complete(const event_ptr& done);
  queue_impl& queue() const noexcept { return queue_; }

 private:
  queue_impl& queue_;
  launch_scope* previous_;
  // The queue's device works in host memory: binds try the source's host-sole fast path first
  // (data_source::acquire_host_sole, bind_host_sole).
  bool over_host_;
  bool open_ = true;
  // The queue's launch marker (queue_impl::begin_launch), asked for at the first bind; null
  // where the queue records an event after each launch instead.
  event_ptr marker_;
  bool marker_asked_ = false;
  // At the first bind: the marker.
  void ask_marker();
  // The notes the ticket fast path made of marker_ and replaced of earlier markers, settled
  // once for the launch by close() (before the launch's work is queued, so a replaced marker
  // nobody else holds is not recorded when the queue settles its pending marker).
  launch_notes notes_;
  void settle_notes() noexcept {
    if (marker_) notes_.settle(static_cast<const counted_marker*>(marker_.get()));
  }
  bool ended_ = false;
  // Most kernels capture a few views: those bindings live inline, so a launch allocates
  // nothing for them; more spill into the vector.
  static constexpr std::size_t inline_bindings = 8;
  std::array<binding, inline_bindings> first_bindings_;  // the first binding_count_ are set
  std::size_t binding_count_ = 0;
  std::vector<binding> more_bindings_;
  // hold()'s ranges; arguments beyond the first few are simply retained per view.
  struct held_range {
    std::uintptr_t begin;
    std::uintptr_t end;
  };
  static constexpr std::size_t max_held = 4;
  std::array<held_range, max_held> held_;  // the first held_count_ are set
  std::size_t held_count_ = 0;

  // A binding of this launch that already did what bind(source, [begin, end), write) would
  // do, or null. See bind.
  const binding* find_covering(const data_source* source, std::size_t begin, std::size_t end,
                               bool write) const noexcept;
  // Notes a binding made (its base address known) and, unless `kept`, takes the scope's
  // reference on the source.
  void record(data_source* source, void* base, const footprint::byte_span& span, bool write,
              bool kept);

  template <class F>
  void for_each_binding(F&& f) {
    const std::size_t inline_count =
        binding_count_ < inline_bindings ? binding_count_ : inline_bindings;
    for (std::size_t i = 0; i < inline_count; ++i) f(first_bindings_[i]);
    for (binding& b : more_bindings_) f(b);
  }
};

// Set by the CPU executor while it copies an already-bound kernel for one worker thread:
// the copies are bound too. The executor sets it in the same function that copies, so once the
// copy is inlined the compiler sees bound_ == true and drops every host check from the loop.
inline thread_local bool copying_bound_kernel = false;

// True while this thread runs a CPU kernel's loop (views bound to the CPU device). Internal
// linkage on purpose: no function outside this translation unit can write it and its address
// is never taken, so the compiler knows the loop cannot change it and unswitches the
// views' host checks out of the loop. (Each translation unit has its own copy; a kernel copy's
// views are bound anyway, so a mismatch can only cost speed, never correctness.)
//
// checking_bounds is the same kind of flag for bounds checks: true while a CPU kernel runs on
// a queue that checks indices (the reference device, HIPAMP_CHECK_BOUNDS=1). The executor
// stores a constant into it right before the loop it runs, once in a checked copy of the loop
// and once in an unchecked one, so in the unchecked copy the compiler folds every view's
// check away and the loop is the loop it was without checks.
//
// Unlike running_cpu_kernel, checking_bounds has one definition program-wide: the views'
// inline check_bounds is one definition too (the linker keeps one copy per element type, and
// unoptimized builds call it out of line), so a per-unit flag made the checks depend on which
// unit's copy the linker kept (an ASan Debug build read past a view's end unchecked). The
// executor's store of a constant right before the loop still lets the optimizer fold the
// unchecked loop's checks away.
inline thread_local bool checking_bounds = false;

// What a checked access does with an index outside its view: false, throw index_out_of_range
// (the reference device, HIPAMP_CHECK_BOUNDS=1); true, Direct3D's robust buffer access (read
// zero, drop the write) for a launch from a unit compiled with HIPAMP_ROBUST_ACCESS
// (config.hpp). Read only on the checked path, so it needs no constant-folding care; set for
// the whole launch by cpu_kernel_mode, and so shared by the fibers of a tile.
inline thread_local bool robust_access = false;

namespace {
thread_local bool running_cpu_kernel = false;

// Marks this thread as running a CPU kernel's loop for the guard's lifetime, with bounds
// checks on or off. In the anonymous namespace with the flags it sets: as a class of external
// linkage its inline destructor would be one definition for the whole program, and the copy
// the linker kept could restore another translation unit's flags. A kernel that threw then
// left this unit's flags set on the calling thread, and later host reads of GPU views skipped
// their coherence check and read device memory (a crash on the H100, 2026-11-24).
class cpu_kernel_mode {
 public:
  explicit cpu_kernel_mode(bool check_bounds = false, bool robust = false) noexcept
      : previous_(running_cpu_kernel),
        previous_checking_(checking_bounds),
        previous_robust_(robust_access) {
    running_cpu_kernel = true;
    checking_bounds = check_bounds;
    robust_access = robust;
  }
  ~cpu_kernel_mode() {
    running_cpu_kernel = previous_;
    checking_bounds = previous_checking_;
    robust_access = previous_robust_;
  }
  cpu_kernel_mode(const cpu_kernel_mode&) = delete;
  cpu_kernel_mode& operator=(const cpu_kernel_mode&) = delete;

 private:
  bool previous_;
  bool previous_checking_;
  bool previous_robust_;
};

// Stores the kernel mode again, as constants, right before an executor's loop that follows an
// opaque call (the tile scheduler's first work-item, a fiber switch). cpu_kernel_mode set these
// flags already, but the optimizer must assume the call changed them: it can reach this unit's
// executors, which set them. Unknown, running_cpu_kernel keeps each view's host check and its
// out-of-line call in the loop, after which checking_bounds must be reloaded and the checked
// branch kept too, per element. Known, both fold and the loop is the loop without checks.
template <bool Checked>
HIPAMP_ALWAYS_INLINE inline void restate_kernel_mode() noexcept {
  running_cpu_kernel = true;
  checking_bounds = Checked;
}
}  // namespace

class bound_copy_guard {
 public:
  bound_copy_guard() noexcept { copying_bound_kernel = true; }
  ~bound_copy_guard() { copying_bound_kernel = false; }
  bound_copy_guard(const bound_copy_guard&) = delete;
  bound_copy_guard& operator=(const bound_copy_guard&) = delete;
};

}  // namespace hipamp::detail
