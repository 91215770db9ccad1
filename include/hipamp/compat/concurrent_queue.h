// <concurrent_queue.h> for Linux: concurrency::concurrent_queue as C++ AMP programs use it (a
// FIFO that several host threads push to and try_pop from), on a std::mutex and std::deque:
// tools/amp2hipamp.py points `#include <concurrent_queue.h>` here. MSVC's header brings
// <concrt.h> (critical_section, ...), which programs then use without including <ppl.h>; this
// one brings hipamp's <ppl.h> for the same reason.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>

#include <hipamp/compat/ppl.h>

namespace concurrency {

template <class T, class Allocator = std::allocator<T>>
class concurrent_queue {
 public:
  using value_type = T;
  using reference = T&;
  using const_reference = const T&;
  using size_type = std::size_t;
  using allocator_type = Allocator;

  concurrent_queue() = default;
  template <class InputIterator>
  concurrent_queue(InputIterator first, InputIterator last) : items_(first, last) {}
  concurrent_queue(const concurrent_queue& other) : items_(other.snapshot()) {}
  concurrent_queue& operator=(const concurrent_queue&) = delete;

  void push(const T& value) {
    std::lock_guard<std::mutex> lock(mutex_);
    items_.push_back(value);
  }
  void push(T&& value) {
    std::lock_guard<std::mutex> lock(mutex_);
    items_.push_back(std::move(value));
  }
  // Takes the oldest element into `destination`; false (destination untouched) when empty.
  bool try_pop(T& destination) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (items_.empty()) return false;
    destination = std::move(items_.front());
    items_.pop_front();
    return true;
  }
  bool empty() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.empty();
  }
  // "unsafe": exact only while no other thread pushes or pops (as in PPL).
  size_type unsafe_size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.size();
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    items_.clear();
  }
  allocator_type get_allocator() const { return allocator_type(); }

 private:
  std::deque<T, Allocator> snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_;
  }
  mutable std::mutex mutex_;
  std::deque<T, Allocator> items_;
};

}  // namespace concurrency
