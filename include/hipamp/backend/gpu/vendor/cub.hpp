// The NVIDIA primitives library (CUB) behind the GPU room's names: what rocprim.hpp provides on
// AMD, call for call. Kept apart from cuda.hpp so that only the translation units that sort
// pay for CUB's headers. Included through backend/gpu/vendor_primitives.hpp.
#pragma once

#include <cstddef>

#include <cub/device/device_radix_sort.cuh>

#include <hipamp/backend/gpu/vendor.hpp>

namespace hipamp::detail::gpu::vendor {

// Radix sort of n unsigned keys on all their bits, ping-ponging between keys and alternate;
// returns whichever of the two holds the result. temp == nullptr: only sets temp_bytes.
template <class U>
error_t radix_sort_keys(void* temp, std::size_t& temp_bytes, U* keys, U* alternate, std::size_t n,
                        const U** sorted, stream_t stream) {
  cub::DoubleBuffer<U> buffers(keys, alternate);
  const error_t e = cub::DeviceRadixSort::SortKeys(temp, temp_bytes, buffers, static_cast<int>(n),
                                                   0, static_cast<int>(8 * sizeof(U)), stream);
  if (sorted != nullptr) *sorted = buffers.Current();
  return e;
}

}  // namespace hipamp::detail::gpu::vendor
