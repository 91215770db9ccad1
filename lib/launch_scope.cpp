#include <hipamp/detail/launch_scope.hpp>

namespace hipamp::detail {
namespace {
thread_local launch_scope* open_scope = nullptr;
}

launch_scope::launch_scope(queue_impl& queue) : queue_(queue), previous_(open_scope) {
  open_scope = this;
}

launch_scope::~launch_scope() {
  if (open_) open_scope = previous_;
  for_each_binding([](binding& b) { b.source->release(); });
}

launch_scope* launch_scope::current() noexcept { return open_scope; }

void* launch_scope::bind(data_source* source, footprint where, bool write) {
  void* base = source->acquire_for_kernel(queue_, where, write);
  if (count_ < inline_bindings) {
    inline_[count_] = binding{source, std::move(where), write};
  } else {
    more_.push_back(binding{source, std::move(where), write});
  }
  ++count_;
  // Only once recorded (the push may throw), since the destructor releases what it recorded:
  // the launch keeps every source alive until it completes.
  source->retain();
  return base;
}

void launch_scope::close() noexcept {
  if (open_) open_scope = previous_;
  open_ = false;
}

void launch_scope::complete(const event_ptr& done) {
  if (count_ == 0) return;
  // GPU launches return no event (recording one costs as much as the launch); launches that
  // captured views need one so later users wait for exactly this work.
  const event_ptr event = done ? done : queue_.record();
  for_each_binding(
      [&](binding& b) { b.source->complete_kernel(queue_, b.where, b.write, event); });
}

}  // namespace hipamp::detail
