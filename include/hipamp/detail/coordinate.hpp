// The arithmetic shared by index<N> and extent<N>: both are N ints with the element-wise
// operator set of C++ AMP 1.2. Written once here so the two types cannot drift apart.
#pragma once

#include <hipamp/config.hpp>

namespace hipamp::detail {

template <int N, class Derived>
class coordinate {
  static_assert(N > 0, "hipamp: rank must be at least 1");

 public:
  static constexpr int rank = N;

  HIPAMP_HOST_DEVICE constexpr coordinate() noexcept : values_{} {}

  HIPAMP_HOST_DEVICE constexpr int operator[](unsigned dim) const noexcept { return values_[dim]; }
  HIPAMP_HOST_DEVICE constexpr int& operator[](unsigned dim) noexcept { return values_[dim]; }

  HIPAMP_HOST_DEVICE friend constexpr bool operator==(const Derived& a, const Derived& b) noexcept {
    for (int d = 0; d < N; ++d) {
      if (a.values_[d] != b.values_[d]) return false;
    }
    return true;
  }
  HIPAMP_HOST_DEVICE friend constexpr bool operator!=(const Derived& a, const Derived& b) noexcept {
    return !(a == b);
  }

  // With an int on either side: index + 1, 2 * extent, ...
#define HIPAMP_COORDINATE_SCALAR(op)                                                              \
  HIPAMP_HOST_DEVICE constexpr Derived& operator op##=(int rhs) noexcept {                        \
    for (int d = 0; d < N; ++d) values_[d] op## = rhs;                                            \
    return self();                                                                                \
  }                                                                                               \
  HIPAMP_HOST_DEVICE friend constexpr Derived operator op(Derived lhs, int rhs) noexcept {        \
    return lhs op## = rhs;                                                                        \
  }                                                                                               \
  HIPAMP_HOST_DEVICE friend constexpr Derived operator op(int lhs, const Derived& rhs) noexcept { \
    Derived out;                                                                                  \
    for (int d = 0; d < N; ++d) out[d] = lhs op rhs[d];                                           \
    return out;                                                                                   \
  }

  // + and - also act element-wise between two coordinates of the same rank.
#define HIPAMP_COORDINATE_COMPOUND(op)                                                   \
  HIPAMP_HOST_DEVICE constexpr Derived& operator op##=(const Derived& rhs) noexcept {    \
    for (int d = 0; d < N; ++d) values_[d] op## = rhs.values_[d];                        \
    return self();                                                                       \
  }                                                                                      \
  HIPAMP_HOST_DEVICE friend constexpr Derived operator op(Derived lhs,                   \
                                                          const Derived& rhs) noexcept { \
    return lhs op## = rhs;                                                               \
  }                                                                                      \
  HIPAMP_COORDINATE_SCALAR(op)

  HIPAMP_COORDINATE_COMPOUND(+)
  HIPAMP_COORDINATE_COMPOUND(-)
#undef HIPAMP_COORDINATE_COMPOUND

  // *, / and % take an int only: C++ AMP 1.2 (4.1.4, 4.2.4) has no element-wise product,
  // quotient or remainder of two indices or extents, and code relying on one is not portable.
#define HIPAMP_COORDINATE_SCALAR_ONLY(op)                                                  \
  HIPAMP_COORDINATE_SCALAR(op)                                                             \
  /* C++ AMP rule: index and extent have no element-wise op##; scale by an int instead. */ \
  Derived& operator op##=(const Derived&) = delete;                                        \
  friend Derived operator op(const Derived&, const Derived&) = delete;

  // Deleted below: index * index, extent / extent, ... (C++ AMP: scalars only).
  HIPAMP_COORDINATE_SCALAR_ONLY(*)
  HIPAMP_COORDINATE_SCALAR_ONLY(/)
  HIPAMP_COORDINATE_SCALAR_ONLY(%)
#undef HIPAMP_COORDINATE_SCALAR_ONLY
#undef HIPAMP_COORDINATE_SCALAR

  HIPAMP_HOST_DEVICE constexpr Derived& operator++() noexcept { return self() += 1; }
  HIPAMP_HOST_DEVICE constexpr Derived& operator--() noexcept { return self() -= 1; }
  HIPAMP_HOST_DEVICE constexpr Derived operator++(int) noexcept {
    Derived old = self();
    ++self();
    return old;
  }
  HIPAMP_HOST_DEVICE constexpr Derived operator--(int) noexcept {
    Derived old = self();
    --self();
    return old;
  }

 protected:
  HIPAMP_HOST_DEVICE constexpr Derived& self() noexcept { return static_cast<Derived&>(*this); }
  HIPAMP_HOST_DEVICE constexpr void assign(const int* components) noexcept {
    for (int d = 0; d < N; ++d) values_[d] = components[d];
  }

  int values_[N];  // NOLINT(modernize-use-default-member-init): host/device constructors
};

}  // namespace hipamp::detail
