// A lock of one atomic exchange, for critical sections of a few loads and stores that run once
// per launch or once per captured view (issue 19: the launch path of a GPU queue). A
// std::mutex costs two atomic read-modify-writes per acquisition (lock and unlock); this costs
// one (the unlock is a plain release store). Waiters yield: the holders never block inside.
#pragma once

#include <atomic>
#include <thread>

namespace hipamp::detail {

class spin_lock {
 public:
  spin_lock() noexcept = default;
  spin_lock(const spin_lock&) = delete;
  spin_lock& operator=(const spin_lock&) = delete;

  void lock() noexcept {
    while (held_.exchange(true, std::memory_order_acquire)) {
      while (held_.load(std::memory_order_relaxed)) std::this_thread::yield();
    }
  }
  void unlock() noexcept { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};

}  // namespace hipamp::detail
