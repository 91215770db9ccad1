// A stand-in GPU for the launch tests that run without one (test_launch_markers.cpp,
// test_launch_ticket_notes.cpp): a device of the GPU kind whose memory is host memory, and what
// their queues over it share. Each test file's queue decides what launches record and wait for.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#include "support.hpp"

namespace hipamp_test {

// Queue is the test's queue, made from (device, bool markers); the directory's read-back queue
// is one without markers.
template <class Queue>
class stand_in_device final : public hipamp::detail::device_impl {
 public:
  hipamp::detail::device_kind kind() const noexcept override {
    return hipamp::detail::device_kind::gpu;
  }
  const hipamp::detail::device_properties& properties() const noexcept override { return props_; }
  void* allocate(std::size_t bytes) override { return ::operator new(bytes == 0 ? 1 : bytes); }
  void deallocate(void* ptr) noexcept override { ::operator delete(ptr); }
  std::shared_ptr<hipamp::detail::queue_impl> create_queue(hipamp::queuing_mode) override {
    return std::make_shared<Queue>(*this, false);  // the directory's read-back queue
  }
  std::shared_ptr<hipamp::detail::queue_impl> default_queue() override { return create_queue({}); }

  // One for the process: the directory keeps a queue per device.
  static stand_in_device& get() {
    static stand_in_device d;
    return d;
  }

 private:
  hipamp::detail::device_properties props_;
};

// A queue on a stand_in_device: copies are memcpy (before each, on_copy()), flush and wait
// have nothing to do; waited collects what the test's wait_for was ordered after.
class stand_in_queue_base : public hipamp::detail::queue_impl {
 public:
  explicit stand_in_queue_base(hipamp::detail::device_impl& device) : device_(device) {}
  hipamp::detail::device_impl& device() const noexcept override { return device_; }
  hipamp::queuing_mode mode() const noexcept override { return hipamp::queuing_mode_automatic; }
  void copy_host_to_device(void* dst, const void* src, std::size_t bytes) override {
    on_copy();
    std::memcpy(dst, src, bytes);
  }
  void copy_device_to_host(void* dst, const void* src, std::size_t bytes) override {
    on_copy();
    std::memcpy(dst, src, bytes);
  }
  void copy_device_to_device(void* dst, const void* src, std::size_t bytes) override {
    on_copy();
    std::memcpy(dst, src, bytes);
  }
  void flush() override {}
  void wait() override {}
  void* native_handle() const noexcept override { return nullptr; }

  std::vector<hipamp::detail::event_ptr> waited;

 protected:
  virtual void on_copy() {}

 private:
  hipamp::detail::device_impl& device_;
};

}  // namespace hipamp_test
