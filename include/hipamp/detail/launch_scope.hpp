// The launch scope: while parallel_for_each copies the kernel object, every array_view copy
// constructor reports itself here, which is how the runtime learns what a kernel touches
// without seeing its captures (the idea of LLNL's CHAI). Closing the scope makes each view's
// data valid on the target and points the copies at the target's memory.
#pragma once

#include <cstddef>
#include <vector>

#include <hipamp/detail/backend.hpp>
#include <hipamp/detail/data_source.hpp>

namespace hipamp::detail {

class launch_scope {
 public:
  struct binding {
    data_source* source;
    footprint where;
    bool write;
    void* view;                                  // the captured copy
    void (*rebind)(void* view, void* base);      // points the copy at `base` + its offset
  };

  explicit launch_scope(queue_impl& queue);
  launch_scope(const launch_scope&) = delete;
  launch_scope& operator=(const launch_scope&) = delete;
  ~launch_scope();

  // The scope open on this thread, if any.
  static launch_scope* current() noexcept;

  void capture(binding b);
  // Ends capturing; moves data and rebinds the captured views.
  void close();
  // Records the launch's completion event on every source it touched. A null `done` means
  // "the work just queued on queue()": an event is recorded there only if views were captured.
  void complete(const event_ptr& done);
  queue_impl& queue() const noexcept { return queue_; }

 private:
  queue_impl& queue_;
  launch_scope* previous_;
  bool open_ = true;
  std::vector<binding> bindings_;
};

}  // namespace hipamp::detail
