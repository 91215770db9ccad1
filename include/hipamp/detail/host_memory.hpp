// Page-aligned host allocations for library-owned storage: aligned for SIMD loads and for
// the DMA engines that GPU copies use.
#pragma once

#include <cstddef>
#include <memory>

namespace hipamp::detail {

struct aligned_free {
  void operator()(void* p) const noexcept;
};
using host_buffer = std::unique_ptr<std::byte, aligned_free>;

// Throws out_of_memory naming the request.
host_buffer allocate_host(std::size_t bytes);

}  // namespace hipamp::detail
