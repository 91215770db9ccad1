// Transfer counters: how many bytes and copy calls moved in each direction, per device.
// Tests use them to prove that views move exactly the data they must.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hipamp {

class accelerator;

struct transfer_statistics {
  std::uint64_t host_to_device_bytes = 0;
  std::uint64_t host_to_device_calls = 0;
  std::uint64_t device_to_host_bytes = 0;
  std::uint64_t device_to_host_calls = 0;
  std::uint64_t device_to_device_bytes = 0;
  std::uint64_t device_to_device_calls = 0;
  // The program's memory page-locked for direct copies (large buffers moved again and again:
  // data_source::pin_min_bytes), in bytes and buffers. Unpinned when their last view goes.
  std::uint64_t pinned_bytes = 0;
  std::uint64_t pinned_buffers = 0;
};

// Counters of one accelerator since the last reset (all zero on the CPU device, whose views
// alias host memory).
transfer_statistics get_transfer_statistics(const accelerator& acc);
// Sum over all accelerators.
transfer_statistics get_transfer_statistics();
void reset_transfer_statistics() noexcept;

namespace detail {
class device_impl;
enum class transfer_direction { host_to_device, device_to_host, device_to_device };
void record_transfer(const device_impl& device, transfer_direction direction,
                     std::size_t bytes) noexcept;
void record_pin(const device_impl& device, std::size_t bytes) noexcept;
}  // namespace detail

}  // namespace hipamp
