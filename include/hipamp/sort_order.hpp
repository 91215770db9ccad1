// The order hipamp's sorts use when the caller gives no comparator: `ascending` and
// `descending`, usable in kernels on every device.
//
// Integers sort by value. Floating-point values sort by a total order, so that every input,
// NaNs included, has one well-defined result on every device and every algorithm (bitonic
// network, CPU merge sort, radix sort):
//
//   -inf < negative values < -0.0 < +0.0 < positive values < +inf < NaNs
//
// All NaNs come last; among them NaNs with a clear sign bit come before those with a set
// sign bit, each group by payload. `descending` is the exact reverse (NaNs first).
// The order is realised as a bijection onto unsigned integers (`ordered_bits`), which is
// also what lets primitive keys go through radix sorts and the CPU's SIMD networks.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <hipamp/config.hpp>

#if defined(__NVCC__)
#define HIPAMP_SORT_NO_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#define HIPAMP_SORT_NO_EXEC_CHECK
#endif

namespace hipamp {
namespace detail {

template <class T>
struct ordered_unsigned {
  static_assert(std::is_arithmetic<T>::value && !std::is_same<T, bool>::value,
                "hipamp: ordered_bits is defined for arithmetic types other than bool");
  using type = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  static_assert(sizeof(type) == sizeof(T), "hipamp: unsupported arithmetic type size");
};
template <class T>
using ordered_unsigned_t = typename ordered_unsigned<T>::type;

// The unsigned integer whose order is the sort order of `x` (see the header comment).
template <class T>
HIPAMP_HOST_DEVICE inline ordered_unsigned_t<T> ordered_bits(T x) noexcept {
  using U = ordered_unsigned_t<T>;
  constexpr int bits = static_cast<int>(sizeof(U) * 8);
  constexpr U sign = static_cast<U>(U(1) << (bits - 1));
  U u;
  memcpy(&u, &x, sizeof(U));
  if constexpr (std::is_floating_point<T>::value) {
    // IEEE totalOrder first (flip all bits of negatives, the sign bit of positives); then
    // rotate the range down by the count of negative NaNs, which sit below -inf in
    // totalOrder, so that they wrap around to the top, after the positive NaNs.
    constexpr int mantissa_bits = std::is_same<T, float>::value ? 23 : 52;
    constexpr U negative_nans = static_cast<U>((U(1) << mantissa_bits) - 1);
    u = (u & sign) ? static_cast<U>(~u) : static_cast<U>(u ^ sign);
    return static_cast<U>(u - negative_nans);
  } else if constexpr (std::is_signed<T>::value) {
    return static_cast<U>(u ^ sign);
  } else {
    return u;
  }
}

// The inverse of ordered_bits.
template <class T>
HIPAMP_HOST_DEVICE inline T from_ordered_bits(ordered_unsigned_t<T> u) noexcept {
  using U = ordered_unsigned_t<T>;
  constexpr int bits = static_cast<int>(sizeof(U) * 8);
  constexpr U sign = static_cast<U>(U(1) << (bits - 1));
  if constexpr (std::is_floating_point<T>::value) {
    constexpr int mantissa_bits = std::is_same<T, float>::value ? 23 : 52;
    constexpr U negative_nans = static_cast<U>((U(1) << mantissa_bits) - 1);
    u = static_cast<U>(u + negative_nans);
    u = (u & sign) ? static_cast<U>(u ^ sign) : static_cast<U>(~u);
  } else if constexpr (std::is_signed<T>::value) {
    u = static_cast<U>(u ^ sign);
  }
  T x;
  memcpy(&x, &u, sizeof(U));
  return x;
}

}  // namespace detail

// Ascending order: operator< for class types, the documented total order for arithmetic ones.
struct ascending {
  // Class types' operator< may be host-only when the sort runs on the CPU device.
  HIPAMP_SORT_NO_EXEC_CHECK
  template <class T>
  HIPAMP_HOST_DEVICE bool operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point<T>::value) {
      return detail::ordered_bits(a) < detail::ordered_bits(b);
    } else {
      return a < b;
    }
  }
};

// The exact reverse of `ascending`.
struct descending {
  HIPAMP_SORT_NO_EXEC_CHECK
  template <class T>
  HIPAMP_HOST_DEVICE bool operator()(const T& a, const T& b) const {
    return ascending{}(b, a);
  }
};

namespace detail {

// Primitive keys in the default order: these may take the radix and SIMD paths, which sort
// ordered_bits instead of calling the comparator.
template <class T, class Compare>
inline constexpr bool is_default_order_v =
    std::is_arithmetic<T>::value && !std::is_same<T, bool>::value &&
    (std::is_same<Compare, ascending>::value || std::is_same<Compare, descending>::value);

}  // namespace detail
}  // namespace hipamp
