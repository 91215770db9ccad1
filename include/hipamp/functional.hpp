// Function objects usable in kernels on every device (std::plus and friends are host-only
// under nvcc without --expt-relaxed-constexpr, and hipcc makes no promise about them).
// They are the default operators of hipamp::reduce and the scans.
#pragma once

#include <hipamp/config.hpp>

namespace hipamp {

// Transparent (void) specialisations deduce the operand type, as std::plus<> does.
template <class T = void>
struct plus {
  HIPAMP_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
template <>
struct plus<void> {
  template <class A, class B>
  HIPAMP_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const -> decltype(a + b) {
    return a + b;
  }
};

template <class T = void>
struct multiplies {
  HIPAMP_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a * b; }
};
template <>
struct multiplies<void> {
  template <class A, class B>
  HIPAMP_HOST_DEVICE constexpr auto operator()(const A& a, const B& b) const -> decltype(a * b) {
    return a * b;
  }
};

// The smaller operand; `a` when neither is smaller (so a left fold keeps the first minimum).
template <class T = void>
struct minimum {
  HIPAMP_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return b < a ? T(b) : T(a);  // copies: a select of two addresses would pin them in memory
  }
};
template <>
struct minimum<void> {
  template <class T>
  HIPAMP_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return b < a ? T(b) : T(a);
  }
};

// The larger operand; `a` when neither is larger.
template <class T = void>
struct maximum {
  HIPAMP_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a < b ? T(b) : T(a);
  }
};
template <>
struct maximum<void> {
  template <class T>
  HIPAMP_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const {
    return a < b ? T(b) : T(a);
  }
};

}  // namespace hipamp
