// Helpers for the coherence tests: exact transfer counts per accelerator.
//
// On the CPU device views alias host memory, so nothing ever moves and every count is zero;
// on the emulated discrete device and on GPUs every copy the coherence rules call for is
// counted. expect_moves(acc) returns the count a test expects on a device with its own
// memory, or zero on the CPU device.
#pragma once

#include <cstdint>
#include <string>

#include "support.hpp"

namespace hipamp_test {

inline bool has_own_memory(const hipamp::accelerator& acc) {
  return !acc.get_supports_cpu_shared_memory();
}

// Transfers since construction, on one accelerator.
class transfer_meter {
 public:
  explicit transfer_meter(const hipamp::accelerator& acc)
      : acc_(acc), start_(hipamp::get_transfer_statistics(acc)) {}
  hipamp::transfer_statistics since() const {
    const hipamp::transfer_statistics now = hipamp::get_transfer_statistics(acc_);
    hipamp::transfer_statistics d;
    d.host_to_device_bytes = now.host_to_device_bytes - start_.host_to_device_bytes;
    d.host_to_device_calls = now.host_to_device_calls - start_.host_to_device_calls;
    d.device_to_host_bytes = now.device_to_host_bytes - start_.device_to_host_bytes;
    d.device_to_host_calls = now.device_to_host_calls - start_.device_to_host_calls;
    d.device_to_device_bytes = now.device_to_device_bytes - start_.device_to_device_bytes;
    d.device_to_device_calls = now.device_to_device_calls - start_.device_to_device_calls;
    return d;
  }

 private:
  hipamp::accelerator acc_;
  hipamp::transfer_statistics start_;
};

// moves().h2d(2, bytes).d2h(1, bytes): calls and bytes per direction; unnamed ones are zero.
struct expected_moves {
  std::uint64_t h2d_calls = 0, h2d_bytes = 0, d2h_calls = 0, d2h_bytes = 0, d2d_calls = 0,
                d2d_bytes = 0;
  expected_moves& h2d(std::uint64_t calls, std::uint64_t bytes) {
    h2d_calls = calls;
    h2d_bytes = bytes;
    return *this;
  }
  expected_moves& d2h(std::uint64_t calls, std::uint64_t bytes) {
    d2h_calls = calls;
    d2h_bytes = bytes;
    return *this;
  }
  expected_moves& d2d(std::uint64_t calls, std::uint64_t bytes) {
    d2d_calls = calls;
    d2d_bytes = bytes;
    return *this;
  }
};
inline expected_moves moves() { return {}; }

inline std::string describe(const hipamp::transfer_statistics& s) {
  return "h2d " + std::to_string(s.host_to_device_calls) + " calls/" +
         std::to_string(s.host_to_device_bytes) + " B, d2h " +
         std::to_string(s.device_to_host_calls) + " calls/" +
         std::to_string(s.device_to_host_bytes) + " B, d2d " +
         std::to_string(s.device_to_device_calls) + " calls/" +
         std::to_string(s.device_to_device_bytes) + " B";
}

}  // namespace hipamp_test

// Checks the transfers on `acc` since `meter` started: exactly `want` on a device with its
// own memory, nothing on the CPU device.
#define CHECK_MOVES(acc, meter, expected)                                         \
  do {                                                                            \
    hipamp_test::expected_moves want_ = (expected);                               \
    if (!hipamp_test::has_own_memory(acc)) want_ = hipamp_test::expected_moves{}; \
    const hipamp::transfer_statistics got_ = (meter).since();                     \
    INFO("transfers: " << hipamp_test::describe(got_));                           \
    CHECK(got_.host_to_device_calls == want_.h2d_calls);                          \
    CHECK(got_.host_to_device_bytes == want_.h2d_bytes);                          \
    CHECK(got_.device_to_host_calls == want_.d2h_calls);                          \
    CHECK(got_.device_to_host_bytes == want_.d2h_bytes);                          \
    CHECK(got_.device_to_device_calls == want_.d2d_calls);                        \
    CHECK(got_.device_to_device_bytes == want_.d2d_bytes);                        \
  } while (false)
