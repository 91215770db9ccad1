// array_ref<T, N> and kernel_handle(): how a kernel holds an `array` by value.
//
// C++ AMP programs reach an `array` from a kernel by capturing it by reference (`[&]`,
// `[&a]`), because an array cannot be copied into a kernel. nvcc rejects by-reference captures
// (and init-captures) in extended __host__ __device__ lambdas, so tools/amp2hipamp.py rewrites
// such a launch as
//
//   { auto& hipamp_ref_a = a; auto a = hipamp::kernel_handle(hipamp_ref_a);
//     parallel_for_each(e, [=] HIPAMP_RESTRICT (index<1> i) { a[i] = ...; }); }
//
// kernel_handle(array<T,N>&) is an array_ref<T,N> (array_ref<const T,N> for a const array);
// kernel_handle(graphics::texture<T,N>&) is a graphics::texture_ref (declared in texture.hpp, with
// the texture it wraps); any other argument comes back as a copy, so the rewrite is harmless for
// views and scalars.
//
// An array_ref holds an array_view of the whole array plus the array's host address. Copying
// it (which is what capturing it by value does) copies the view, so a launch binds it exactly
// like an array_view of the array: the coherence rules and transfer counters are those of the
// same program written with array_view. In the kernel it offers the array's kernel-side
// interface (element access, extent, section, projection, view_as, reinterpret_as, data).
//
// After the launch the shadowing name stays usable on the host: element access, `a.extent`,
// data(), copy(a, ...) / copy(..., a) and copy_async, conversion to array_view, to std::vector, and
// to `array<T,N>&` (so a function taking `array<T,N>&` or `const array<T,N>&` accepts it, and
// `array<T,N> b(a)` deep-copies, and `a = b` deep-copies into a's array). What cannot work: a
// function *template* deducing its parameter from `array<T,N>&` (template deduction ignores
// conversions: pass `a.get_array()`),
// `&a` as an `array<T,N>*`, and `decltype(a)`; and the array must outlive every array_ref of it,
// as a reference would.
#pragma once

#include <type_traits>
#include <utility>
#include <vector>

#include <hipamp/array.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/config.hpp>
#include <hipamp/copy.hpp>

// Lets the porting tool (and user code) test for this header.
#define HIPAMP_HAS_KERNEL_HANDLE 1

namespace hipamp {

template <class T, int N = 1>
class array_ref {
  using nonconst_type = std::remove_const_t<T>;
  static constexpr bool read_only = std::is_const<T>::value;

 public:
  static constexpr int rank = N;
  using value_type = T;
  using array_type =
      std::conditional_t<read_only, const array<nonconst_type, N>, array<nonconst_type, N>>;

  // C++ AMP reads an array's shape as a property (`a.extent`); treat it as read-only.
  hipamp::extent<N> extent;

  array_ref(array_type& a)  // NOLINT: implicit, so an array_ref can stand in for the array
      : extent(a.get_extent()), view_(a), array_(&a) {}
  // A read-only handle from a writable one.
  template <class U,
            typename = std::enable_if_t<read_only && std::is_same<U, nonconst_type>::value>>
  HIPAMP_HOST_DEVICE array_ref(const array_ref<U, N>& other)  // NOLINT: implicit like array_view's
      : extent(other.extent), view_(other.view_), array_(other.array_) {}

  // Copies copy the view: inside parallel_for_each that binds it to the launch.
  array_ref(const array_ref&) = default;
  ~array_ref() = default;

  // Assignment keeps the array's meaning: `a = b` after the rewrite still deep-copies b's data
  // into a's array, as it did when both names were arrays (it never rebinds the handle).
  array_ref& operator=(const array_ref& other) {
    assign(other.get_array());
    return *this;
  }
  template <class U, typename = std::enable_if_t<
                         std::is_same<std::remove_const_t<U>, nonconst_type>::value &&
                         !std::is_same<U, T>::value>>
  array_ref& operator=(const array_ref<U, N>& other) {
    assign(other.get_array());
    return *this;
  }
  array_ref& operator=(const array<nonconst_type, N>& other) {
    assign(other);
    return *this;
  }
  array_ref& operator=(const array_view<const nonconst_type, N>& source) {
    static_assert(!read_only, "hipamp: cannot assign to a read-only array handle");
    *array_ = source;
    return *this;
  }

  // ---- kernel-side interface (host access synchronises first, as the array's does) ----------

  HIPAMP_HOST_DEVICE hipamp::extent<N> get_extent() const noexcept { return extent; }

  HIPAMP_HOST_DEVICE T& operator[](const index<N>& idx) const { return view_[idx]; }
  HIPAMP_HOST_DEVICE T& operator()(const index<N>& idx) const { return view_(idx); }
  template <int M = N>
  HIPAMP_HOST_DEVICE std::enable_if_t<M == 1, T&> operator[](int i) const {
    return view_[i];
  }
  // Rank > 1: the (N-1)-dimensional slice at i, as an array's operator[] gives.
  template <int M = N>
  HIPAMP_HOST_DEVICE std::enable_if_t<(M > 1), array_view<T, N - 1>> operator[](int i) const {
    return view_[i];
  }
  template <int M = N>
  HIPAMP_HOST_DEVICE std::enable_if_t<(M > 1), array_view<T, N - 1>> operator()(int i) const {
    return view_(i);
  }
  template <int M = N>
  HIPAMP_HOST_DEVICE std::enable_if_t<M == 1, T&> operator()(int i0) const {
    return view_(i0);
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE T& operator()(int i0, int i1) const {
    return view_(i0, i1);
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE T& operator()(int i0, int i1, int i2) const {
    return view_(i0, i1, i2);
  }

  // The first element: in a kernel the bound memory, on the host the synchronised host copy.
  HIPAMP_HOST_DEVICE T* data() const {
#if HIPAMP_DEVICE_COMPILE
    return view_.unchecked_data();
#else
    return view_.data();
#endif
  }

  // Sub-views, as array_view's: in host code and in kernels on every device (restrict(cpu, amp)).
  HIPAMP_HOST_DEVICE array_view<T, N> section(const index<N>& origin,
                                              const hipamp::extent<N>& ext) const {
    return view_.section(origin, ext);
  }
  HIPAMP_HOST_DEVICE array_view<T, N> section(const index<N>& origin) const {
    return view_.section(origin);
  }
  HIPAMP_HOST_DEVICE array_view<T, N> section(const hipamp::extent<N>& ext) const {
    return view_.section(ext);
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE array_view<T, N> section(int i0, int e0) const {
    return view_.section(i0, e0);
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE array_view<T, N> section(int i0, int i1, int e0, int e1) const {
    return view_.section(i0, i1, e0, e1);
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE array_view<T, N> section(int i0, int i1, int i2, int e0, int e1,
                                              int e2) const {
    return view_.section(i0, i1, i2, e0, e1, e2);
  }
  template <int K>
  HIPAMP_HOST_DEVICE array_view<T, K> view_as(const hipamp::extent<K>& ext) const {
    return view_.template reshape<K>(ext);
  }
  // The whole array's bytes as a rank-1 view of U (an array is contiguous, so any rank works).
  template <class U>
  HIPAMP_HOST_DEVICE array_view<std::conditional_t<read_only, const U, U>, 1> reinterpret_as()
      const {
    using target = std::conditional_t<read_only, const U, U>;
    return view_.template reshape<1>(hipamp::extent<1>(static_cast<int>(extent.size())))
        .template reinterpret_as<target>();
  }

  // ---- conversions ------------------------------------------------------------------------

  // In kernels too: C++ AMP's array_view(array&) is restrict(amp, cpu), so a kernel makes views
  // of the arrays it holds (host-only, the GPU pass called the host conversion and the view
  // pointed nowhere).
  HIPAMP_HOST_DEVICE operator array_view<T, N>() const { return view_; }  // NOLINT: as array's
  template <bool W = !read_only, typename = std::enable_if_t<W>>
  HIPAMP_HOST_DEVICE operator array_view<const nonconst_type, N>() const {  // NOLINT: as array's
    return view_;
  }
  // The array itself, so host code that takes `array<T,N>&` accepts the handle.
  operator array_type&() const noexcept { return *array_; }  // NOLINT: stands in for the array
  array_type& get_array() const noexcept { return *array_; }
  operator std::vector<nonconst_type>() const { return *array_; }  // NOLINT: as array's

  // ---- host-side properties of the array ----------------------------------------------------

  accelerator_view get_accelerator_view() const { return array_->get_accelerator_view(); }
  accelerator_view get_associated_accelerator_view() const {
    return array_->get_associated_accelerator_view();
  }
  access_type get_cpu_access_type() const { return array_->get_cpu_access_type(); }
  void copy_to(array<nonconst_type, N>& dest) const { array_->copy_to(dest); }
  void copy_to(const array_view<nonconst_type, N>& dest) const { array_->copy_to(dest); }

 private:
  template <class, int>
  friend class array_ref;

  void assign(const array<nonconst_type, N>& other) {
    static_assert(!read_only, "hipamp: cannot assign to a read-only array handle");
    *array_ = other;
  }

  array_view<T, N> view_;  // of the whole array; copying it binds it to an open launch
  array_type* array_;      // host address of the array; never used in a kernel
};

// ---- kernel_handle ------------------------------------------------------------------------

template <class T, int N>
array_ref<T, N> kernel_handle(array<T, N>& a) {
  return array_ref<T, N>(a);
}
template <class T, int N>
array_ref<const T, N> kernel_handle(const array<T, N>& a) {
  return array_ref<const T, N>(a);
}
// Anything else (a view, a scalar, an array_ref already) is captured as it was: by value.
template <class X>
std::decay_t<X> kernel_handle(X&& x) {
  return std::forward<X>(x);
}

// ---- copy with an array_ref on either side ------------------------------------------------
// copy()'s templates deduce from array<T,N>& and array_view<T,N>, which an array_ref only
// converts to; these unwrap it to its array and call the same copy.

namespace detail {
template <class X>
X&& copy_operand(X&& x) noexcept {
  return std::forward<X>(x);
}
template <class T, int N>
typename array_ref<T, N>::array_type& copy_operand(const array_ref<T, N>& r) noexcept {
  return r.get_array();
}
template <class T, int N>
typename array_ref<T, N>::array_type& copy_operand(array_ref<T, N>& r) noexcept {
  return r.get_array();
}
}  // namespace detail

template <class T, int N, class Dst>
void copy(const array_ref<T, N>& src, Dst&& dest) {
  copy(src.get_array(), detail::copy_operand(std::forward<Dst>(dest)));
}
template <class Src, class T, int N>
void copy(const Src& src, const array_ref<T, N>& dest) {
  copy(detail::copy_operand(src), dest.get_array());
}
template <class T, int N, class U, int M>
void copy(const array_ref<T, N>& src, const array_ref<U, M>& dest) {
  copy(src.get_array(), dest.get_array());
}
template <class InputIt, class T, int N>
void copy(InputIt first, InputIt last, const array_ref<T, N>& dest) {
  copy(first, last, dest.get_array());
}

}  // namespace hipamp
