// copy and copy_async between arrays, array_views and iterators (C++ AMP 1.2, 5.3).
// Elements go in row-major order of the source's extent.
#pragma once

#include <cstring>
#include <functional>
#include <future>
#include <iterator>
#include <type_traits>

#include <hipamp/array.hpp>
#include <hipamp/array_view.hpp>

namespace hipamp {
namespace detail {

struct view_access {
  // Calls f(index) for every index of `e` in row-major order (host only).
  template <int N, class F>
  static void for_each_index(const extent<N>& e, F&& f) {
    index<N> idx;
    const std::size_t n = element_count(e);
    for (std::size_t k = 0; k < n; ++k) {
      f(idx);
      for (int d = N - 1; d >= 0; --d) {
        if (++idx[d] < e[d]) break;
        idx[d] = 0;
      }
    }
  }

  template <class S, class D, int N>
  static void copy(const array_view<S, N>& src, const array_view<D, N>& dst) {
    if (src.extent != dst.extent) {
      throw runtime_exception("hipamp: copy from extent " + to_string(src.extent) + " to extent " +
                              to_string(dst.extent) + ": the extents differ");
    }
    if (src.src_.get() == dst.src_.get()) {
      // Same source: go element by element through a temporary to stay correct under overlap.
      std::vector<std::remove_const_t<S>> staging(element_count(src.extent));
      std::size_t k = 0;
      for_each_index(src.extent, [&](const index<N>& i) { staging[k++] = src[i]; });
      k = 0;
      for_each_index(dst.extent, [&](const index<N>& i) { dst[i] = staging[k++]; });
      return;
    }
    if (src.is_contiguous() && dst.is_contiguous()) {
      // The directory picks the route: device to device between arrays (also across GPUs),
      // host to device into an array, device to host out of one, memcpy between host data.
      data_source::copy(*src.src_.get(), src.offset_ * sizeof(S), *dst.src_.get(),
                        dst.offset_ * sizeof(D), element_count(src.extent) * sizeof(S));
      return;
    }
    src.synchronize();
    for_each_index(src.extent, [&](const index<N>& i) { dst[i] = src[i]; });
  }

  template <class InputIt, class T, int N>
  static void copy_in(InputIt first, InputIt last, const array_view<T, N>& dst) {
    // A longer range is an error in C++ AMP (the destination cannot store the rest); a
    // shorter one would leave the destination partly unset.
    const auto available = std::distance(first, last);
    if (available != static_cast<std::ptrdiff_t>(element_count(dst.extent))) {
      throw runtime_exception("hipamp: copy into extent " + to_string(dst.extent) + " needs " +
                              std::to_string(element_count(dst.extent)) +
                              " elements but the iterator range holds " +
                              std::to_string(available));
    }
    if (dst.is_contiguous()) dst.discard_data(overwrite_all{});
    // *it then ++it, never *it++: an iterator's postfix ++ may return a const copy whose
    // operator* is non-const (the suite's Misc/CustomIterator iterators do).
    for_each_index(dst.extent, [&](const index<N>& i) {
      dst[i] = *first;
      ++first;
    });
  }

  template <class T, int N, class OutputIt>
  static void copy_out(const array_view<T, N>& src, OutputIt out) {
    src.synchronize();
    for_each_index(src.extent, [&](const index<N>& i) {
      *out = src[i];
      ++out;
    });
  }
};

}  // namespace detail

template <class T, int N>
void array_view<T, N>::copy_to(const array_view<nonconst_type, N>& dest) const {
  detail::view_access::copy(*this, dest);
}
template <class T, int N>
void array_view<T, N>::copy_to(array<nonconst_type, N>& dest) const {
  detail::view_access::copy(*this, dest.view_);
}

// ---- synchronous ----------------------------------------------------------------------

template <class T, int N>
void copy(const array<T, N>& src, array<T, N>& dest) {
  src.copy_to(dest);
}
template <class T, int N>
void copy(const array<T, N>& src, const array_view<T, N>& dest) {
  src.copy_to(dest);
}
template <class T, int N>
void copy(const array_view<const T, N>& src, array<T, N>& dest) {
  src.copy_to(dest);
}
template <class T, int N>
void copy(const array_view<T, N>& src, array<T, N>& dest) {
  src.copy_to(dest);
}
template <class T, int N>
void copy(const array_view<const T, N>& src, const array_view<T, N>& dest) {
  src.copy_to(dest);
}
template <class T, int N>
void copy(const array_view<T, N>& src, const array_view<T, N>& dest) {
  src.copy_to(dest);
}
template <class InputIt, class T, int N>
void copy(InputIt first, InputIt last, array<T, N>& dest) {
  detail::view_access::copy_in(first, last, array_view<T, N>(dest));
}
template <class InputIt, class T, int N>
void copy(InputIt first, array<T, N>& dest) {
  copy(first, std::next(first, static_cast<std::ptrdiff_t>(dest.extent.size())), dest);
}
template <class InputIt, class T, int N>
void copy(InputIt first, InputIt last, const array_view<T, N>& dest) {
  detail::view_access::copy_in(first, last, dest);
}
template <class InputIt, class T, int N>
void copy(InputIt first, const array_view<T, N>& dest) {
  copy(first, std::next(first, static_cast<std::ptrdiff_t>(dest.extent.size())), dest);
}
template <class T, int N, class OutputIt>
void copy(const array<T, N>& src, OutputIt dest) {
  detail::view_access::copy_out(array_view<const T, N>(src), dest);
}
template <class T, int N, class OutputIt>
void copy(const array_view<T, N>& src, OutputIt dest) {
  detail::view_access::copy_out(src, dest);
}

// ---- asynchronous: the copy runs on a helper thread; get() rethrows its errors ----------
// Arrays are taken by reference (the caller keeps them alive until the future completes, as
// in C++ AMP); views and iterators are copied.

namespace detail {
template <class X>
struct is_array : std::false_type {};
template <class T, int N>
struct is_array<array<T, N>> : std::true_type {};

template <class X>
decltype(auto) async_capture(X&& x) {
  if constexpr (is_array<std::decay_t<X>>::value) {
    return std::ref(x);
  } else {
    return std::decay_t<X>(std::forward<X>(x));
  }
}
template <class X>
X& unwrap(std::reference_wrapper<X> r) {
  return r.get();
}
template <class X>
X& unwrap(X& x) {
  return x;
}
}  // namespace detail

template <class Src, class Dst>
completion_future copy_async(const Src& src, Dst&& dest) {
  auto s = detail::async_capture(src);
  auto d = detail::async_capture(std::forward<Dst>(dest));
  return completion_future(std::async(std::launch::async, [s, d]() mutable {
                             copy(detail::unwrap(s), detail::unwrap(d));
                           }).share());
}
template <class InputIt, class Dst>
completion_future copy_async(InputIt first, InputIt last, Dst&& dest) {
  auto d = detail::async_capture(std::forward<Dst>(dest));
  return completion_future(std::async(std::launch::async, [first, last, d]() mutable {
                             copy(first, last, detail::unwrap(d));
                           }).share());
}

}  // namespace hipamp
