// What the library's algorithms share when their data is not one dense run: the dense rank-1
// copy of a strided view they work on instead, and the overlap test that decides whether an
// output may be discarded. The algorithms' templates live in the inline namespace
// HIPAMP_ALGORITHMS_ABI (config.hpp): they launch kernels, so host and GPU units compile
// different bodies.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/detail/launch.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>
#include <hipamp/parallel_for_each.hpp>

// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
namespace hipamp {
namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

// The position of `idx` in row-major order over `e`.
template <int N>
HIPAMP_HOST_DEVICE std::size_t row_major_offset(const index<N>& idx, const extent<N>& e) {
  std::size_t offset = 0;
  for (int d = 0; d < N; ++d)
    offset = offset * static_cast<std::size_t>(e[d]) + static_cast<std::size_t>(idx[d]);
  return offset;
}

// Keeps a parameter out of template argument deduction (C++20's std::type_identity_t).
template <class T>
struct same_type_t {
  using type = T;
};
template <class T>
using same_type = typename same_type_t<T>::type;

// The extent of a rank-1 view of `count` elements (a pointer range, or the dense copy of a
// strided view).
inline int dense_extent(std::size_t count, const char* algorithm) {
  if (count > 0x7fffffffu) {
    throw runtime_exception(std::string("hipamp: ") + algorithm + " over " + std::to_string(count) +
                            " elements needs a rank-1 view of them, which holds at most 2^31 - 1");
  }
  return static_cast<int>(count);
}

// The elements of a strided view in row-major order, as a dense rank-1 view made on av.
template <class T, int N>
array_view<std::remove_const_t<T>, 1> gather_dense(const accelerator_view& av,
                                                   const array_view<T, N>& view,
                                                   const char* algorithm) {
  const extent<N> shape = view.extent;
  array_view<std::remove_const_t<T>, 1> dense(dense_extent(element_count(shape), algorithm));
  dense.discard_data(overwrite_all{});
  parallel_for_each(av, shape, [=] HIPAMP_RESTRICT(index<N> idx) {
    dense[index<1>(static_cast<int>(row_major_offset(idx, shape)))] = view[idx];
  });
  return dense;
}

// Writes a dense rank-1 view into a strided view of the same element count, row-major.
template <class T, int N>
void scatter_dense(const accelerator_view& av, const array_view<const T, 1>& dense,
                   const array_view<T, N>& view) {
  const extent<N> shape = view.extent;
  parallel_for_each(av, shape, [=] HIPAMP_RESTRICT(index<N> idx) {
    view[idx] = dense[index<1>(static_cast<int>(row_major_offset(idx, shape)))];
  });
}

// False only when the two views certainly share no memory: different host memory, or host
// memory on one side and none on the other. Views with no host copy yet might share it.
template <class A, int N, class B, int M>
bool may_overlap(const array_view<A, N>& a, const array_view<B, M>& b) {
  const auto* pa = reinterpret_cast<const unsigned char*>(a.unchecked_data());
  const auto* pb = reinterpret_cast<const unsigned char*>(b.unchecked_data());
  if (pa == nullptr && pb == nullptr) return true;
  if (pa == nullptr || pb == nullptr) return false;
  const std::size_t a_bytes = a.where().end_byte() - a.where().begin_byte();
  const std::size_t b_bytes = b.where().end_byte() - b.where().begin_byte();
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail
}  // namespace hipamp
