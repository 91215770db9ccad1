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

void* launch_scope::bind(data_source* source, const footprint& where, bool write) {
  void* base = source->acquire_for_kernel(queue_, where, write);
  source->retain();  // the launch keeps every source alive until it completes
  if (binding_count_ < inline_bindings) {
    first_bindings_[binding_count_] = binding{source, write};
  } else {
    more_bindings_.push_back(binding{source, write});
  }
  ++binding_count_;
  return base;
}

void launch_scope::close() noexcept {
  if (open_) open_scope = previous_;
  open_ = false;
}

void launch_scope::complete(const event_ptr& done) {
  if (binding_count_ == 0) return;
  // GPU launches return no event (recording one costs as much as the launch); launches that
  // captured views need one so later users wait for exactly this work.
  const event_ptr event = done ? done : queue_.record();
  for_each_binding([&](binding& b) { b.source->complete_kernel(queue_, b.write, event); });
}

}  // namespace hipamp::detail
