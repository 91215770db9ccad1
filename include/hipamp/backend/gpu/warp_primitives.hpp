// Warp-level building blocks of the library's GPU algorithms, one spelling for CUDA and HIP:
// shuffles of any trivially copyable type, ballots, and loads that see other blocks' writes.
// Include only from GPU translation units.
#pragma once

#include <cstring>
#include <type_traits>

#include <hipamp/backend/gpu/kernel_language.hpp>

namespace hipamp::detail::gpu {

// Lanes per warp as the device code sees it (32 on NVIDIA; 64 or 32 on AMD, known only in the
// device pass there). Host code sizes shared memory with warp_size_min.
using vendor::lane_mask_t;
using vendor::warp_size;
inline constexpr int warp_size_min = 32;

namespace warp_detail {

template <class T>
constexpr int words_of() noexcept {
  return static_cast<int>((sizeof(T) + sizeof(int) - 1) / sizeof(int));
}

// The vendor shuffles move 32-bit words; larger types move word by word.
using vendor::shfl_down_word;
using vendor::shfl_up_word;
using vendor::shfl_word;

template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(const T& value, Shuffle shuffle) {
  static_assert(std::is_trivially_copyable<T>::value,
                "hipamp: values exchanged between GPU lanes must be trivially copyable");
  constexpr int words = words_of<T>();
  int in[words] = {};
  __builtin_memcpy(in, &value, sizeof(T));
  int out[words];
#pragma unroll
  for (int w = 0; w < words; ++w) out[w] = shuffle(in[w]);
  T result;
  __builtin_memcpy(&result, out, sizeof(T));
  return result;
}

}  // namespace warp_detail

// All lanes of the warp must call these (they are full-warp shuffles). A source lane outside
// the warp yields the caller's own value, as the vendor shuffles do.
template <class T>
__device__ __forceinline__ T shuffle_down(const T& value, unsigned delta) {
  return warp_detail::shuffle_words(
      value, [delta](int w) { return warp_detail::shfl_down_word(w, delta); });
}
template <class T>
__device__ __forceinline__ T shuffle_up(const T& value, unsigned delta) {
  return warp_detail::shuffle_words(value,
                                    [delta](int w) { return warp_detail::shfl_up_word(w, delta); });
}
template <class T>
__device__ __forceinline__ T shuffle_from(const T& value, int lane) {
  return warp_detail::shuffle_words(value,
                                    [lane](int w) { return warp_detail::shfl_word(w, lane); });
}

// Bit l set when lane l's predicate holds.
using vendor::ballot;
// Index of the lowest set bit; mask must not be 0.
using vendor::lowest_lane;
using vendor::sync_warp;

// A pause of about Ns nanoseconds inside a spin loop, so waiting warps leave issue slots and
// memory bandwidth to working ones.
template <int Ns>
__device__ __forceinline__ void spin_pause() {
  static_assert(Ns > 0 && Ns <= 4000, "hipamp: spin pauses are 1 ns to 4 us");
  vendor::pause_ns<Ns>();
}

// A word that blocks publish to each other (scan tile states): relaxed accesses at device
// scope, which is all the look-back needs. On NVIDIA sm_70+ a volatile access is a relaxed
// access at system scope; the narrower scope measured no faster on an H200, but it says
// what the protocol relies on.
using vendor::load_relaxed_device;
using vendor::store_relaxed_device;

// Reads *p bypassing the (non-coherent) L1, so a value another block published after a
// __threadfence() is seen. For any trivially copyable T.
template <class T>
__device__ __forceinline__ T load_coherent(const T* p) {
  static_assert(std::is_trivially_copyable<T>::value,
                "hipamp: coherent loads need a trivially copyable type");
  if constexpr (sizeof(T) % sizeof(unsigned) == 0 && alignof(T) >= alignof(unsigned)) {
    constexpr int words = static_cast<int>(sizeof(T) / sizeof(unsigned));
    const volatile unsigned* src = reinterpret_cast<const volatile unsigned*>(p);
    unsigned raw[words];
#pragma unroll
    for (int w = 0; w < words; ++w) raw[w] = src[w];
    T result;
    __builtin_memcpy(&result, raw, sizeof(T));
    return result;
  } else {
    const volatile unsigned char* src = reinterpret_cast<const volatile unsigned char*>(p);
    unsigned char raw[sizeof(T)];
#pragma unroll
    for (int b = 0; b < static_cast<int>(sizeof(T)); ++b) raw[b] = src[b];
    T result;
    __builtin_memcpy(&result, raw, sizeof(T));
    return result;
  }
}

}  // namespace hipamp::detail::gpu
