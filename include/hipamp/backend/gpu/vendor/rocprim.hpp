// The AMD primitives library (rocPRIM) behind the GPU room's names: what cub.hpp provides on
// NVIDIA, call for call. Included through backend/gpu/vendor_primitives.hpp.
#pragma once

#include <cstddef>

#include <rocprim/device/device_radix_sort.hpp>

#include <hipamp/backend/gpu/vendor.hpp>

namespace hipamp::detail::gpu::vendor {

// Radix sort of n unsigned keys on all their bits, ping-ponging between keys and alternate;
// returns whichever of the two holds the result. temp == nullptr: only sets temp_bytes.
template <class U>
error_t radix_sort_keys(void* temp, std::size_t& temp_bytes, U* keys, U* alternate, std::size_t n,
                        const U** sorted, stream_t stream) {
  rocprim::double_buffer<U> buffers(keys, alternate);
  const error_t e = rocprim::radix_sort_keys(temp, temp_bytes, buffers, static_cast<unsigned>(n), 0,
                                             8 * sizeof(U), stream);
  if (sorted != nullptr) *sorted = buffers.current();
  return e;
}

}  // namespace hipamp::detail::gpu::vendor
