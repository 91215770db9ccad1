// extent<N>: the shape of a compute domain or container (C++ AMP 1.2, section 4.2).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <hipamp/detail/coordinate.hpp>
#include <hipamp/index.hpp>

namespace hipamp {

template <int D0, int D1 = 0, int D2 = 0>
class tiled_extent;

template <int N>
class extent : public detail::coordinate<N, extent<N>> {
 public:
  HIPAMP_HOST_DEVICE constexpr extent() noexcept = default;

  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE constexpr extent(int e0) noexcept {  // NOLINT: implicit as in C++ AMP
    (*this)[0] = e0;
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE constexpr extent(int e0, int e1) noexcept {
    (*this)[0] = e0;
    (*this)[1] = e1;
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE constexpr extent(int e0, int e1, int e2) noexcept {
    (*this)[0] = e0;
    (*this)[1] = e1;
    (*this)[2] = e2;
  }
  HIPAMP_HOST_DEVICE explicit constexpr extent(const int components[]) noexcept {
    this->assign(components);
  }

  // Number of points. C++ AMP returns unsigned int; containers check that it fits.
  HIPAMP_HOST_DEVICE constexpr unsigned int size() const noexcept {
    unsigned int n = 1;
    for (int d = 0; d < N; ++d) n *= static_cast<unsigned int>((*this)[d]);
    return n;
  }

  HIPAMP_HOST_DEVICE constexpr bool contains(const index<N>& idx) const noexcept {
    for (int d = 0; d < N; ++d) {
      if (idx[d] < 0 || idx[d] >= (*this)[d]) return false;
    }
    return true;
  }

  HIPAMP_HOST_DEVICE constexpr extent& operator+=(const index<N>& idx) noexcept {
    for (int d = 0; d < N; ++d) (*this)[d] += idx[d];
    return *this;
  }
  HIPAMP_HOST_DEVICE constexpr extent& operator-=(const index<N>& idx) noexcept {
    for (int d = 0; d < N; ++d) (*this)[d] -= idx[d];
    return *this;
  }
  HIPAMP_HOST_DEVICE constexpr extent operator+(const index<N>& idx) const noexcept {
    extent out = *this;
    return out += idx;
  }
  HIPAMP_HOST_DEVICE constexpr extent operator-(const index<N>& idx) const noexcept {
    extent out = *this;
    return out -= idx;
  }
  using detail::coordinate<N, extent<N>>::operator+=;
  using detail::coordinate<N, extent<N>>::operator-=;

  template <int D0>
  tiled_extent<D0> tile() const;
  template <int D0, int D1>
  tiled_extent<D0, D1> tile() const;
  template <int D0, int D1, int D2>
  tiled_extent<D0, D1, D2> tile() const;
};

namespace detail {

// Element count in 64 bits, for allocation sizes that may exceed unsigned int.
template <int N>
constexpr std::size_t element_count(const extent<N>& e) noexcept {
  std::size_t n = 1;
  for (int d = 0; d < N; ++d) n *= static_cast<std::size_t>(e[d] < 0 ? 0 : e[d]);
  return n;
}

template <class Coordinate>
std::string to_string(const Coordinate& c) {
  std::string s = "[";
  for (int d = 0; d < Coordinate::rank; ++d) {
    if (d) s += ", ";
    s += std::to_string(c[d]);
  }
  return s + "]";
}

}  // namespace detail
}  // namespace hipamp

#include <hipamp/tiled_extent.hpp>
