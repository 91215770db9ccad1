// index<N>: a point in an N-dimensional compute domain (C++ AMP 1.2, section 4.1).
#pragma once

#include <type_traits>

#include <hipamp/detail/coordinate.hpp>

namespace hipamp {

template <int N>
class index : public detail::coordinate<N, index<N>> {
  using base = detail::coordinate<N, index<N>>;

 public:
  HIPAMP_HOST_DEVICE constexpr index() noexcept = default;

  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE constexpr index(int i0) noexcept {  // NOLINT: implicit as in C++ AMP
    (*this)[0] = i0;
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE constexpr index(int i0, int i1) noexcept {
    (*this)[0] = i0;
    (*this)[1] = i1;
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE constexpr index(int i0, int i1, int i2) noexcept {
    (*this)[0] = i0;
    (*this)[1] = i1;
    (*this)[2] = i2;
  }
  HIPAMP_HOST_DEVICE explicit constexpr index(const int components[]) noexcept {
    this->assign(components);
  }
};

}  // namespace hipamp
