// The emulation has no CUB: the bitonic network's kernels are what it checks. The radix sort
// entry points exist so that backend/gpu/vendor/cub.hpp compiles, and fail if a check reaches them.
#pragma once
#include <cuda_runtime.h>

namespace cub {
template <class T>
struct DoubleBuffer {
  T* buffers[2] = {nullptr, nullptr};
  DoubleBuffer(T* current, T* alternate) : buffers{current, alternate} {}
  T* Current() const { return buffers[0]; }
};
struct DeviceRadixSort {
  template <class T>
  static cudaError_t SortKeys(void*, std::size_t&, DoubleBuffer<T>&, int, int, int, cudaStream_t) {
    return cudaErrorUnknown;
  }
};
}  // namespace cub
