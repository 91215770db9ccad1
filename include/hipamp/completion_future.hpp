// completion_future: the handle of asynchronous work (copy_async, synchronize_async,
// create_marker). Like std::shared_future<void>, plus then() for a continuation.
#pragma once

#include <chrono>
#include <exception>
#include <future>
#include <memory>
#include <thread>
#include <utility>

#include <hipamp/detail/backend.hpp>
#include <hipamp/task.hpp>

namespace hipamp {

class completion_future {
 public:
  completion_future() noexcept = default;
  // Completes with the device event.
  explicit completion_future(detail::event_ptr event) : event_(std::move(event)) {}
  // Completes with host-side asynchronous work (which may throw).
  explicit completion_future(std::shared_future<void> work) : work_(std::move(work)) {}

  bool valid() const noexcept { return event_ != nullptr || work_.valid(); }

  void wait() const {
    if (event_) event_->wait();
    if (work_.valid()) work_.wait();
  }
  // Rethrows an exception the work raised.
  void get() const {
    wait();
    if (work_.valid()) work_.get();
  }

  template <class Rep, class Period>
  std::future_status wait_for(const std::chrono::duration<Rep, Period>& timeout) const {
    return wait_until(std::chrono::steady_clock::now() + timeout);
  }

  template <class Clock, class Duration>
  std::future_status wait_until(const std::chrono::time_point<Clock, Duration>& deadline) const {
    if (work_.valid() && work_.wait_until(deadline) == std::future_status::timeout) {
      return std::future_status::timeout;
    }
    if (event_) {
      // Device events have no timed wait in every backend: poll with a short back-off.
      auto pause = std::chrono::microseconds(20);
      while (!event_->is_ready()) {
        if (Clock::now() >= deadline) return std::future_status::timeout;
        std::this_thread::sleep_for(pause);
        if (pause < std::chrono::milliseconds(1)) pause *= 2;
      }
    }
    return std::future_status::ready;
  }

  // Runs `continuation` once the work is done: at once if it already is, else on a helper
  // thread, so the caller is never blocked.
  template <class Functor>
  void then(const Functor& continuation) const {
    if (!valid()) return;
    if (event_ && !work_.valid() && event_->is_ready()) {
      continuation();
      return;
    }
    completion_future self = *this;
    std::thread([self, continuation]() mutable {
      self.wait();
      // Let go of the device event before the continuation runs: a program may end as soon as
      // the continuation signals it, and this detached thread must not then release the event
      // into a runtime that exit() is tearing down (the suite's Continuation/Then tests
      // crashed at exit on the GPU).
      self = completion_future();
      continuation();
    }).detach();
  }

  // PPL's task for the work (C++ AMP 1.2, 8.2), for then() chains and `t1 && t2`.
  task<void> to_task() const { return task<void>(static_cast<std::shared_future<void>>(*this)); }

  operator std::shared_future<void>() const {  // NOLINT: C++ AMP converts implicitly
    if (work_.valid() && !event_) return work_;
    completion_future self = *this;
    return std::async(std::launch::deferred, [self]() { self.get(); }).share();
  }

 private:
  detail::event_ptr event_;
  std::shared_future<void> work_;
};

}  // namespace hipamp
