// Kernel-side atomic operations (C++ AMP 1.2, section 13.1), usable in kernels on every
// device: GPU atomics in the device pass, GCC/Clang __atomic builtins on the host (C++17 has
// no std::atomic_ref). Each returns the value *dest held before the operation.
//
// What C++ AMP has, and what hipamp adds:
//  - int and unsigned: exchange, compare_exchange, fetch_add/sub/max/min/and/or/xor,
//    fetch_inc/dec, as in C++ AMP;
//  - float: atomic_exchange, as in C++ AMP; atomic_fetch_add and atomic_fetch_sub are a
//    hipamp extension (every GPU has a float atomic add; the CPU uses a compare-and-swap
//    loop). There is no float compare_exchange, max or min, as in C++ AMP.
// Ordering: relaxed, as GPU atomics are: each operation is indivisible, but orders nothing
// else. Work-items of a tile order their other memory accesses with tile_barrier.
#pragma once

#include <hipamp/config.hpp>

namespace hipamp {
namespace detail::atomic {

#if HIPAMP_DEVICE_COMPILE
template <class T>
__device__ inline bool device_compare_exchange(T* dest, T* expected, T value) noexcept {
  const T seen = atomicCAS(dest, *expected, value);
  if (seen == *expected) return true;
  *expected = seen;
  return false;
}
#else
template <class T>
inline T host_exchange(T* dest, T value) noexcept {
  T old;
  __atomic_exchange(dest, &value, &old, __ATOMIC_RELAXED);
  return old;
}

template <class T, class Combine>
inline T host_fetch_update(T* dest, Combine combine) noexcept {
  T old;
  __atomic_load(dest, &old, __ATOMIC_RELAXED);
  T desired = combine(old);
  // On failure `old` is reloaded; the loop ends once no other write came in between.
  while (!__atomic_compare_exchange(dest, &old, &desired, /*weak=*/true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
    desired = combine(old);
  }
  return old;
}
#endif

}  // namespace detail::atomic

// Every function is HIPAMP_HOST_DEVICE in both passes of a GPU compilation; the macro below
// picks the GPU call in the device pass and the host builtin otherwise.
#if HIPAMP_DEVICE_COMPILE
#define HIPAMP_ATOMIC_PICK(device_expr, host_expr) device_expr
#else
#define HIPAMP_ATOMIC_PICK(device_expr, host_expr) host_expr
#endif

// ---- exchange and compare-exchange ------------------------------------------------------

#define HIPAMP_ATOMIC_EXCHANGE(T)                                          \
  HIPAMP_HOST_DEVICE inline T atomic_exchange(T* dest, T value) noexcept { \
    return HIPAMP_ATOMIC_PICK(atomicExch(dest, value),                     \
                              detail::atomic::host_exchange(dest, value)); \
  }
HIPAMP_ATOMIC_EXCHANGE(int)
HIPAMP_ATOMIC_EXCHANGE(unsigned int)
HIPAMP_ATOMIC_EXCHANGE(float)
#undef HIPAMP_ATOMIC_EXCHANGE

// If *dest equals *expected, stores `value` and returns true; otherwise copies *dest into
// *expected and returns false (C++ AMP's semantics).
#define HIPAMP_ATOMIC_CAS(T)                                                                       \
  HIPAMP_HOST_DEVICE inline bool atomic_compare_exchange(T* dest, T* expected, T value) noexcept { \
    return HIPAMP_ATOMIC_PICK(detail::atomic::device_compare_exchange(dest, expected, value),      \
                              __atomic_compare_exchange_n(dest, expected, value, false,            \
                                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED));    \
  }
HIPAMP_ATOMIC_CAS(int)
HIPAMP_ATOMIC_CAS(unsigned int)
#undef HIPAMP_ATOMIC_CAS

// ---- read-modify-write ------------------------------------------------------------------

#define HIPAMP_ATOMIC_RMW(name, T, device_expr, host_expr)      \
  HIPAMP_HOST_DEVICE inline T name(T* dest, T value) noexcept { \
    return HIPAMP_ATOMIC_PICK(device_expr, host_expr);          \
  }

#define HIPAMP_ATOMIC_INTEGRAL(T)                                                    \
  HIPAMP_ATOMIC_RMW(atomic_fetch_add, T, atomicAdd(dest, value),                     \
                    __atomic_fetch_add(dest, value, __ATOMIC_RELAXED))               \
  HIPAMP_ATOMIC_RMW(atomic_fetch_sub, T, atomicSub(dest, value),                     \
                    __atomic_fetch_sub(dest, value, __ATOMIC_RELAXED))               \
  HIPAMP_ATOMIC_RMW(atomic_fetch_and, T, atomicAnd(dest, value),                     \
                    __atomic_fetch_and(dest, value, __ATOMIC_RELAXED))               \
  HIPAMP_ATOMIC_RMW(atomic_fetch_or, T, atomicOr(dest, value),                       \
                    __atomic_fetch_or(dest, value, __ATOMIC_RELAXED))                \
  HIPAMP_ATOMIC_RMW(atomic_fetch_xor, T, atomicXor(dest, value),                     \
                    __atomic_fetch_xor(dest, value, __ATOMIC_RELAXED))               \
  HIPAMP_ATOMIC_RMW(atomic_fetch_max, T, atomicMax(dest, value),                     \
                    detail::atomic::host_fetch_update(                               \
                        dest, [value](T old) { return old < value ? value : old; })) \
  HIPAMP_ATOMIC_RMW(atomic_fetch_min, T, atomicMin(dest, value),                     \
                    detail::atomic::host_fetch_update(                               \
                        dest, [value](T old) { return value < old ? value : old; })) \
  HIPAMP_HOST_DEVICE inline T atomic_fetch_inc(T* dest) noexcept {                   \
    return atomic_fetch_add(dest, static_cast<T>(1));                                \
  }                                                                                  \
  HIPAMP_HOST_DEVICE inline T atomic_fetch_dec(T* dest) noexcept {                   \
    return atomic_fetch_sub(dest, static_cast<T>(1));                                \
  }

HIPAMP_ATOMIC_INTEGRAL(int)
HIPAMP_ATOMIC_INTEGRAL(unsigned int)
#undef HIPAMP_ATOMIC_INTEGRAL

// float add and subtract: a hipamp extension (see the top of this file).
HIPAMP_ATOMIC_RMW(atomic_fetch_add, float, atomicAdd(dest, value),
                  detail::atomic::host_fetch_update(dest,
                                                    [value](float old) { return old + value; }))
HIPAMP_ATOMIC_RMW(atomic_fetch_sub, float, atomicAdd(dest, -value),
                  detail::atomic::host_fetch_update(dest,
                                                    [value](float old) { return old - value; }))
#undef HIPAMP_ATOMIC_RMW
#undef HIPAMP_ATOMIC_PICK

}  // namespace hipamp
