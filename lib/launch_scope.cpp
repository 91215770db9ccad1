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
  for (binding& b : bindings_) b.source->release();
}

launch_scope* launch_scope::current() noexcept { return open_scope; }

void* launch_scope::bind(data_source* source, footprint where, bool write) {
  void* base = source->acquire_for_kernel(queue_, where, write);
  source->retain();  // the launch keeps every source alive until it completes
  bindings_.push_back(binding{source, std::move(where), write});
  return base;
}

void launch_scope::close() noexcept {
  if (open_) open_scope = previous_;
  open_ = false;
}

void launch_scope::complete(const event_ptr& done) {
  if (bindings_.empty()) return;
  // GPU launches return no event (recording one costs as much as the launch); launches that
  // captured views need one so later users wait for exactly this work.
  const event_ptr event = done ? done : queue_.record();
  for (binding& b : bindings_) b.source->complete_kernel(queue_, b.where, b.write, event);
}

}  // namespace hipamp::detail
