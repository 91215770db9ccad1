// Block-wide reduction and scan of one value per thread: warp shuffles first, then one slot
// per warp in shared memory. No identity element is assumed, so a value may be absent
// (`valid == false`) instead of being padded with a neutral element. Include only from GPU
// translation units.
#pragma once

#include <hipamp/backend/gpu/warp_primitives.hpp>

namespace hipamp::detail::gpu {

// A value that may be absent.
template <class T>
struct maybe {
  T value;
  bool valid;
};

// Uninitialised room for N values of T, for __shared__ declarations (which allow no
// constructors) of any trivially copyable T.
template <class T, int N>
struct alignas(T) shared_array {
  unsigned char raw[sizeof(T) * N];
  __device__ T* data() { return reinterpret_cast<T*>(raw); }
  __device__ T& operator[](int i) { return data()[i]; }
};

// Shared memory a block collective needs: one slot per warp.
template <class T, int Threads>
struct block_slots {
  static_assert(Threads % warp_size_min == 0, "hipamp: block size must be a multiple of 32");
  static constexpr int count = Threads / warp_size_min;
  shared_array<T, count> slot;
  __device__ T* values() { return slot.data(); }
  bool valid[count];
};

// Combines the valid values of the warp's lanes in any order (the operator must commute);
// the result is in lane 0. All lanes must call.
template <class T, class Op>
__device__ __forceinline__ maybe<T> warp_reduce(maybe<T> x, const Op& op) {
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
#pragma unroll
  for (int offset = warp_size / 2; offset > 0; offset /= 2) {
    const T other = shuffle_down(x.value, static_cast<unsigned>(offset));
    const bool other_valid = shuffle_down(x.valid, static_cast<unsigned>(offset));
    if (lane + offset < warp_size && other_valid) {
      x.value = x.valid ? static_cast<T>(op(x.value, other)) : other;
      x.valid = true;
    }
  }
  return x;
}

// Combines the valid values of all threads of a block (the operator must commute); the
// result is in thread 0. All threads must call; contains __syncthreads.
template <int Threads, class T, class Op>
__device__ __forceinline__ maybe<T> block_reduce(maybe<T> x, const Op& op,
                                                 block_slots<T, Threads>& slots) {
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  const int warp = static_cast<int>(threadIdx.x) / warp_size;
  constexpr int warps = Threads / warp_size;
  x = warp_reduce(x, op);
  if (lane == 0) {
    slots.values()[warp] = x.value;
    slots.valid[warp] = x.valid;
  }
  __syncthreads();
  if (warp == 0) {
    maybe<T> y = x;
    y.valid = lane < warps && slots.valid[lane];
    if (y.valid) y.value = slots.values()[lane];
    x = warp_reduce(y, op);
  }
  return x;
}

// Inclusive scan across the warp in lane order (the operator need not commute).
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T x, const Op& op) {
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
#pragma unroll
  for (int offset = 1; offset < warp_size; offset *= 2) {
    const T earlier = shuffle_up(x, static_cast<unsigned>(offset));
    if (lane >= offset) x = op(earlier, x);
  }
  return x;
}

// Exclusive scan across the block in thread order: each thread gets the combination of the
// values of all threads before it (absent in thread 0), and every thread gets the block's
// total. All threads must call; contains __syncthreads.
template <int Threads, class T, class Op>
__device__ __forceinline__ maybe<T> block_exclusive_scan(const T& x, const Op& op,
                                                         block_slots<T, Threads>& slots,
                                                         T& block_total) {
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  const int warp = static_cast<int>(threadIdx.x) / warp_size;
  constexpr int warps = Threads / warp_size;
  const T inclusive = warp_inclusive_scan(x, op);
  maybe<T> before{shuffle_up(inclusive, 1u), lane > 0};
  if (lane == warp_size - 1) slots.values()[warp] = inclusive;
  __syncthreads();
  // A handful of warps: every thread folds the totals of the warps before its own.
  T earlier_warps = slots.values()[0];
  for (int w = 1; w < warp; ++w) earlier_warps = op(earlier_warps, slots.values()[w]);
  if (warp > 0) {
    before.value = before.valid ? static_cast<T>(op(earlier_warps, before.value)) : earlier_warps;
    before.valid = true;
  }
  T total = slots.values()[0];
#pragma unroll
  for (int w = 1; w < warps; ++w) total = op(total, slots.values()[w]);
  block_total = total;
  return before;
}

}  // namespace hipamp::detail::gpu
