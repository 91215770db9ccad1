#include <hipamp/detail/launch_scope.hpp>

namespace hipamp::detail {
// first_bindings_ and held_ stay unwritten until used: only their first binding_count_ /
// held_count_ entries are ever read (launch_scope.hpp says why they are not zeroed).
// NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init)
launch_scope::launch_scope(queue_impl& queue)
    : queue_(queue),
      previous_(open_launch_scope),
      over_host_(queue.device().aliases_host_memory()) {
  open_launch_scope = this;
}

launch_scope::~launch_scope() {
  if (open_) open_launch_scope = previous_;
  settle_notes();  // nothing left when close() ran
  if (marker_ && !ended_) {
    // The launch failed after binding: its views already name the marker, which must still
    // come to stand for a point after any work the launch did queue.
    try {
      queue_.end_launch(marker_);
    } catch (...) {
      // The queue is lost; waiting for the marker reports that.
    }
  }
  for_each_binding([](binding& b) {
    if (b.retained) b.source->release();
  });
}

const launch_scope::binding* launch_scope::find_covering(const data_source* source,
                                                         std::size_t begin, std::size_t end,
                                                         bool write) const noexcept {
  const std::size_t inline_count =
      binding_count_ < inline_bindings ? binding_count_ : inline_bindings;
  auto covers = [&](const binding& b) {
    return b.source == source && b.begin <= begin && end <= b.end && b.begin < b.end &&
           (b.write || !write);
  };
  for (std::size_t i = 0; i < inline_count; ++i) {
    if (covers(first_bindings_[i])) return &first_bindings_[i];
  }
  for (const binding& b : more_bindings_) {
    if (covers(b)) return &b;
  }
  return nullptr;
}

footprint launch_scope::view_place::where() const {
  footprint fp;
  fp.element_size = element_size;
  fp.offset = offset;
  fp.extent.assign_few(extent, static_cast<std::size_t>(rank));
  fp.stride.assign_few(stride, static_cast<std::size_t>(rank));
  return fp;
}

// Inline into both binds: out of line it cost a call and a frame per captured view.
HIPAMP_ALWAYS_INLINE inline void launch_scope::record(data_source* source, void* base,
                                                      const footprint::byte_span& span, bool write,
                                                      bool kept) {
  // A strided footprint is recorded with an empty range: nothing is ever reused from it.
  const binding made{source, base, span.dense ? span.begin : 0, span.dense ? span.end : 0,
                     write,  !kept};
  if (binding_count_ < inline_bindings) {
    first_bindings_[binding_count_] = made;
  } else {
    more_bindings_.push_back(made);
  }
  ++binding_count_;
  // Only once recorded (the push may throw), since the destructor releases what it recorded:
  // the launch keeps every source alive until it completes, through its own reference or the
  // one of the held view the binding's view was copied from (hold).
  if (!kept) source->retain();
}

void launch_scope::ask_marker() {
  if (marker_asked_) return;
  marker_ = queue_.begin_launch();
  marker_asked_ = true;
}

void* launch_scope::bind(data_source* source, const view_place& place, bool write, bool kept) {
  if (void* base = reuse(source, place.span, write)) return base;
  return bind_place(source, place, write, kept);
}

void* launch_scope::bind_place(data_source* source, const view_place& place, bool write,
                               bool kept) {
  const footprint::byte_span& span = place.span;
  ask_marker();
  // The steady state of a loop of launches needs only the span (the host-sole mark on the CPU
  // devices, the kernel ticket on the others); the footprint is built for the slow path alone.
  void* base = over_host_ ? source->acquire_host_sole()
                          : source->acquire_for_kernel_ticketed(queue_, span, write, marker_);
  if (base == nullptr) {
    const footprint fp = place.where();
    base = source->acquire_for_kernel(queue_, fp, span, write, marker_);
  }
  record(source, base, span, write, kept);
  return base;
}

void* launch_scope::bind_span(data_source* source, const footprint::byte_span& span, bool write,
                              bool kept) {
  ask_marker();
  // With a marker, the ticket notes it by address and the counts wait for close().
  void* base = marker_
                   ? source->acquire_for_kernel_ticketed(
                         queue_, span, write, static_cast<const counted_marker&>(*marker_), notes_)
                   : source->acquire_for_kernel_ticketed(queue_, span, write, marker_);
  if (base != nullptr) record(source, base, span, write, kept);
  return base;
}

void launch_scope::close() noexcept {
  if (open_) open_launch_scope = previous_;
  open_ = false;
  settle_notes();
}

void launch_scope::complete(const event_ptr& done) {
  if (binding_count_ == 0) return;
  if (marker_) {
    // The views noted the marker at bind; it now stands for the queued work (or for `done`).
    if (done) queue_.resolve_launch(marker_, done);
    ended_ = true;
    queue_.end_launch(marker_);
    return;
  }
  // A device that works in host memory (the CPU device, the reference device) keeps no notes
  // of kernels: complete_kernel returns at once for it (its kernels ran synchronously over
  // host memory, and no ticket exists on its queues), so neither the event nor the calls are
  // needed. Keeps the CPU device's launch at or under its cost before issue 19's bind changes.
  if (queue_.device().aliases_host_memory()) return;
  // GPU launches return no event (recording one costs as much as the launch); launches that
  // captured views need one so later users wait for exactly this work.
  const event_ptr event = done ? done : queue_.record();
  for_each_binding([&](binding& b) { b.source->complete_kernel(queue_, b.write, event); });
}

}  // namespace hipamp::detail
