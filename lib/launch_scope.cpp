#include <hipamp/detail/launch_scope.hpp>

namespace hipamp::detail {
launch_scope::launch_scope(queue_impl& queue) : queue_(queue), previous_(open_launch_scope) {
  open_launch_scope = this;
}

launch_scope::~launch_scope() {
  if (open_) open_launch_scope = previous_;
  if (marker_ && !ended_) {
    // The launch failed after binding: its views already name the marker, which must still
    // come to stand for a point after any work the launch did queue.
    try {
      queue_.end_launch(marker_);
    } catch (...) {
      // The queue is lost; waiting for the marker reports that.
    }
  }
  for_each_binding([](binding& b) { b.source->release(); });
}

void* launch_scope::bind(data_source* source, const footprint& where, bool write) {
  if (!marker_asked_) {
    marker_ = queue_.begin_launch();
    marker_asked_ = true;
  }
  void* base = source->acquire_for_kernel(queue_, where, write, marker_);
  if (binding_count_ < inline_bindings) {
    first_bindings_[binding_count_] = binding{source, write};
  } else {
    more_bindings_.push_back(binding{source, write});
  }
  ++binding_count_;
  // Only once recorded (the push may throw), since the destructor releases what it recorded:
  // the launch keeps every source alive until it completes.
  source->retain();
  return base;
}

void launch_scope::close() noexcept {
  if (open_) open_launch_scope = previous_;
  open_ = false;
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
  // GPU launches return no event (recording one costs as much as the launch); launches that
  // captured views need one so later users wait for exactly this work.
  const event_ptr event = done ? done : queue_.record();
  for_each_binding([&](binding& b) { b.source->complete_kernel(queue_, b.write, event); });
}

}  // namespace hipamp::detail
