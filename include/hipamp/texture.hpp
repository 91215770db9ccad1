// concurrency::graphics textures (C++ AMP 1.2, chapter 10): texture<T, N>, texture_view<T, N>,
// texture_view<const T, N>, C++ AMP 1.0's writeonly_texture_view<T, N>, their copy() overloads,
// and kernel_handle() for textures captured by reference.
//
// Design: a texture is an array<T, N> (its storage) plus the bits_per_scalar_element it was
// created with. C++ AMP textures exist to reach Direct3D's texture units (sampling, format
// conversion); hipamp has no such interop, and what a program can observe of a texture without
// sampling -- element get/set by index, deep copies, copies to and from host memory -- is exactly
// an array's behaviour. Building on array gives textures the same coherence directory, transfer
// counters, devices and launch binding for free, and keeps one data path to test.
//
// Kernels reach a texture the way they reach an array: C++ AMP captures it by reference, which
// works as written on the CPU device only; on every device a kernel holds a texture_view by value
// (copying it binds it to the launch like an array_view), and tools/amp2hipamp.py's rewrite
// `auto t = hipamp::kernel_handle(hipamp_ref_t);` gives a texture_ref, a texture_view that on the
// host still behaves as the texture it shadows (assignment deep-copies, copy() accepts it, it
// converts to texture<T, N>&).
//
// Deviations from C++ AMP (docs/compat.md):
//  - bits_per_scalar_element is validated against C++ AMP's table and reported back, but data
//    are stored at T's own width; data_length and the void* copies use that width (sizeof(T) per
//    element), not a packed 8- or 16-bit format.
//  - No sampling: sampler, address_mode, filter_mode, sample() and gather_*() are not provided
//    (no texture units are used). Neither are staging textures (row/depth pitch), texture
//    sections, or Direct3D interop (make_texture, get_texture).
//  - get() and set() work for every element type and width; C++ AMP restricts kernel-side get()
//    on writable views and set() on textures to some formats, hipamp does not need to.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <future>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <hipamp/accelerator.hpp>
#include <hipamp/array.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/completion_future.hpp>
#include <hipamp/config.hpp>
#include <hipamp/copy.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>
#include <hipamp/short_vector.hpp>

namespace hipamp::graphics {

template <class T, int N>
class texture;
template <class T, int N>
class texture_view;
template <class T, int N>
class texture_ref;
template <class T, int N>
class writeonly_texture_view;

namespace texture_detail {

template <class S>
constexpr bool is_scalar_texel =
    std::is_same<S, int>::value || std::is_same<S, unsigned int>::value ||
    std::is_same<S, float>::value || std::is_same<S, double>::value ||
    std::is_same<S, norm>::value || std::is_same<S, unorm>::value;

// What C++ AMP allows as a texture element: a scalar above or its 2- or 4-component vector.
template <class T>
struct texel_traits {
  static constexpr bool valid = is_scalar_texel<T>;
  using scalar_type = T;
  static constexpr int components = 1;
};
template <class S, int K>
struct texel_traits<basic_short_vector<S, K>> {
  static constexpr bool valid = is_scalar_texel<S> && (K == 2 || K == 4);
  using scalar_type = S;
  static constexpr int components = K;
};

template <class T>
constexpr unsigned int default_bits() noexcept {
  return std::is_same<typename texel_traits<T>::scalar_type, double>::value ? 64u : 32u;
}

// C++ AMP 1.2, 10.1.1: the widths each scalar type can be created with (hipamp also takes 32 for
// norm/unorm, its default).
template <class T>
void check_bits(unsigned int bits) {
  using S = typename texel_traits<T>::scalar_type;
  bool ok = false;
  const char* allowed = "";
  if (std::is_same<S, double>::value) {
    ok = bits == 64;
    allowed = "64";
  } else if (std::is_same<S, float>::value) {
    ok = bits == 16 || bits == 32;
    allowed = "16 or 32";
  } else {
    ok = bits == 8 || bits == 16 || bits == 32;
    allowed = "8, 16 or 32";
  }
  if (!ok)
    throw unsupported_feature("hipamp: texture: bits_per_scalar_element " + std::to_string(bits) +
                              " is not supported for this element type (use " + allowed + ")");
}

template <int N>
std::string extent_string(const hipamp::extent<N>& e) {
  std::string s = "{";
  for (int d = 0; d < N; ++d) s += (d ? ", " : "") + std::to_string(e[d]);
  return s + "}";
}

template <int N>
void check_same_extent(const hipamp::extent<N>& src, const hipamp::extent<N>& dst,
                       const char* what) {
  if (src != dst)
    throw runtime_exception(std::string("hipamp: ") + what + ": extent mismatch (source " +
                            extent_string(src) + ", destination " + extent_string(dst) + ")");
}

}  // namespace texture_detail

// ---- texture -------------------------------------------------------------------------------

template <class T, int N = 1>
class texture {
  static_assert(N >= 1 && N <= 3, "hipamp: textures have rank 1, 2 or 3");
  static_assert(texture_detail::texel_traits<T>::valid,
                "hipamp: texture elements are int, uint, float, double, norm, unorm or their 2- "
                "and 4-component short vectors (3-component vectors are not texture formats)");

  template <class It>
  using if_iterator = std::enable_if_t<!std::is_integral<It>::value>;

 public:
  static constexpr int rank = N;
  using value_type = T;
  using scalar_type = typename texture_detail::texel_traits<T>::scalar_type;

  // C++ AMP reads these as properties; treat them as read-only.
  hipamp::extent<N> extent;
  unsigned int bits_per_scalar_element;
  unsigned int data_length;  // bytes on the host: extent.size() * sizeof(T)

  // -- from an extent (or its ints), optionally on an accelerator_view
  explicit texture(const hipamp::extent<N>& ext) : texture(ext, accelerator().get_default_view()) {}
  texture(const hipamp::extent<N>& ext, const accelerator_view& av)
      : texture(ext, texture_detail::default_bits<T>(), av) {}
  template <int M = N, typename = std::enable_if_t<M == 1>>
  explicit texture(int e0) : texture(hipamp::extent<1>(e0)) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  texture(int e0, int e1) : texture(hipamp::extent<2>(e0, e1)) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  texture(int e0, int e1, int e2) : texture(hipamp::extent<3>(e0, e1, e2)) {}
  template <int M = N, typename = std::enable_if_t<M == 1>>
  texture(int e0, const accelerator_view& av) : texture(hipamp::extent<1>(e0), av) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  texture(int e0, int e1, const accelerator_view& av) : texture(hipamp::extent<2>(e0, e1), av) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  texture(int e0, int e1, int e2, const accelerator_view& av)
      : texture(hipamp::extent<3>(e0, e1, e2), av) {}

  // -- from an iterator range holding at least extent.size() elements
  template <class InputIt, typename = if_iterator<InputIt>>
  texture(const hipamp::extent<N>& ext, InputIt first, InputIt last)
      : texture(ext, first, last, accelerator().get_default_view()) {}
  template <class InputIt, typename = if_iterator<InputIt>>
  texture(const hipamp::extent<N>& ext, InputIt first, InputIt last, const accelerator_view& av)
      : extent(ext),
        bits_per_scalar_element(texture_detail::default_bits<T>()),
        data_length(byte_length(ext)),
        storage_(ext, first, last, av) {}
  template <class InputIt, int M = N, typename = std::enable_if_t<M == 1>,
            typename = if_iterator<InputIt>>
  texture(int e0, InputIt first, InputIt last) : texture(hipamp::extent<1>(e0), first, last) {}
  template <class InputIt, int M = N, typename = std::enable_if_t<M == 2>,
            typename = if_iterator<InputIt>>
  texture(int e0, int e1, InputIt first, InputIt last)
      : texture(hipamp::extent<2>(e0, e1), first, last) {}
  template <class InputIt, int M = N, typename = std::enable_if_t<M == 3>,
            typename = if_iterator<InputIt>>
  texture(int e0, int e1, int e2, InputIt first, InputIt last)
      : texture(hipamp::extent<3>(e0, e1, e2), first, last) {}
  template <class InputIt, int M = N, typename = std::enable_if_t<M == 1>,
            typename = if_iterator<InputIt>>
  texture(int e0, InputIt first, InputIt last, const accelerator_view& av)
      : texture(hipamp::extent<1>(e0), first, last, av) {}
  template <class InputIt, int M = N, typename = std::enable_if_t<M == 2>,
            typename = if_iterator<InputIt>>
  texture(int e0, int e1, InputIt first, InputIt last, const accelerator_view& av)
      : texture(hipamp::extent<2>(e0, e1), first, last, av) {}
  template <class InputIt, int M = N, typename = std::enable_if_t<M == 3>,
            typename = if_iterator<InputIt>>
  texture(int e0, int e1, int e2, InputIt first, InputIt last, const accelerator_view& av)
      : texture(hipamp::extent<3>(e0, e1, e2), first, last, av) {}

  // -- with bits_per_scalar_element (validated and reported; storage stays at T's width)
  texture(const hipamp::extent<N>& ext, unsigned int bits)
      : texture(ext, bits, accelerator().get_default_view()) {}
  texture(const hipamp::extent<N>& ext, unsigned int bits, const accelerator_view& av)
      : extent(ext),
        bits_per_scalar_element(checked_bits(bits)),
        data_length(byte_length(ext)),
        storage_(ext, av) {}
  template <int M = N, typename = std::enable_if_t<M == 1>>
  texture(int e0, unsigned int bits) : texture(hipamp::extent<1>(e0), bits) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  texture(int e0, int e1, unsigned int bits) : texture(hipamp::extent<2>(e0, e1), bits) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  texture(int e0, int e1, int e2, unsigned int bits)
      : texture(hipamp::extent<3>(e0, e1, e2), bits) {}
  template <int M = N, typename = std::enable_if_t<M == 1>>
  texture(int e0, unsigned int bits, const accelerator_view& av)
      : texture(hipamp::extent<1>(e0), bits, av) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  texture(int e0, int e1, unsigned int bits, const accelerator_view& av)
      : texture(hipamp::extent<2>(e0, e1), bits, av) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  texture(int e0, int e1, int e2, unsigned int bits, const accelerator_view& av)
      : texture(hipamp::extent<3>(e0, e1, e2), bits, av) {}

  // -- from host bytes in the texture's format (src_byte_size >= data_length)
  texture(const hipamp::extent<N>& ext, unsigned int bits, const void* source,
          unsigned int src_byte_size)
      : texture(ext, bits, source, src_byte_size, accelerator().get_default_view()) {}
  texture(const hipamp::extent<N>& ext, unsigned int bits, const void* source,
          unsigned int src_byte_size, const accelerator_view& av)
      : texture(ext, bits, av) {
    copy_from_bytes(source, src_byte_size);
  }

  // -- copies are deep, as C++ AMP's
  texture(const texture& other)
      : extent(other.extent),
        bits_per_scalar_element(other.bits_per_scalar_element),
        data_length(other.data_length),
        storage_(other.storage_) {}
  texture(const texture& other, const accelerator_view& av)
      : extent(other.extent),
        bits_per_scalar_element(other.bits_per_scalar_element),
        data_length(other.data_length),
        storage_(other.extent, av) {
    other.storage_.copy_to(storage_);
  }
  texture(texture&&) noexcept = default;
  texture& operator=(const texture& other) {
    if (this != &other) {
      storage_ = other.storage_;
      extent = other.extent;
      bits_per_scalar_element = other.bits_per_scalar_element;
      data_length = other.data_length;
    }
    return *this;
  }
  texture& operator=(texture&&) noexcept = default;
  ~texture() = default;

  // -- properties
  hipamp::extent<N> get_extent() const noexcept { return extent; }
  accelerator_view get_accelerator_view() const { return storage_.get_accelerator_view(); }
  unsigned int get_bits_per_scalar_element() const noexcept { return bits_per_scalar_element; }
  unsigned int get_data_length() const noexcept { return data_length; }

  // -- element access: on the host (which waits for kernels that wrote the texture), and in
  // kernels on the CPU device that capture the texture by reference. Other kernels use a
  // texture_view.
  value_type get(const index<N>& idx) const { return storage_[idx]; }
  void set(const index<N>& idx, const value_type& value) { storage_[idx] = value; }
  value_type operator[](const index<N>& idx) const { return storage_[idx]; }
  value_type operator()(const index<N>& idx) const { return storage_[idx]; }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  value_type operator[](int i0) const {
    return storage_[index<1>(i0)];
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  value_type operator()(int i0) const {
    return storage_[index<1>(i0)];
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  value_type operator()(int i0, int i1) const {
    return storage_[index<2>(i0, i1)];
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  value_type operator()(int i0, int i1, int i2) const {
    return storage_[index<3>(i0, i1, i2)];
  }

  // -- copies to other textures
  void copy_to(texture& dest) const {
    texture_detail::check_same_extent(extent, dest.extent, "texture::copy_to");
    storage_.copy_to(dest.storage_);
  }
  void copy_to(const writeonly_texture_view<T, N>& dest) const;

  // The texture's storage (hipamp extension): an array with the texture's extent and elements.
  array<T, N>& storage() noexcept { return storage_; }
  const array<T, N>& storage() const noexcept { return storage_; }

  // Host bytes <-> texture, checked against data_length (used by the copy() overloads).
  void copy_to_bytes(void* dst, unsigned int dst_byte_size) const {
    if (dst == nullptr) throw runtime_exception("hipamp: copy(texture, void*, size): null buffer");
    if (dst_byte_size < data_length)
      throw runtime_exception("hipamp: copy(texture, void*, size): destination buffer of " +
                              std::to_string(dst_byte_size) +
                              " bytes is smaller than the texture's data_length " +
                              std::to_string(data_length));
    std::memcpy(dst, storage_.data(), data_length);
  }
  void copy_from_bytes(const void* src, unsigned int src_byte_size) {
    if (src == nullptr) throw runtime_exception("hipamp: copy(void*, size, texture): null buffer");
    if (src_byte_size < data_length)
      throw runtime_exception(
          "hipamp: copy(void*, size, texture): source buffer of " + std::to_string(src_byte_size) +
          " bytes is smaller than the texture's data_length " + std::to_string(data_length));
    const T* first = static_cast<const T*>(src);
    hipamp::copy(first, first + extent.size(), storage_);
  }

 private:
  template <class, int>
  friend class texture_view;
  template <class, int>
  friend class writeonly_texture_view;

  static unsigned int checked_bits(unsigned int bits) {
    texture_detail::check_bits<T>(bits);
    return bits;
  }
  static unsigned int byte_length(const hipamp::extent<N>& ext) {
    return static_cast<unsigned int>(ext.size() * sizeof(T));
  }

  array<T, N> storage_;
};

// ---- texture_view --------------------------------------------------------------------------
// A by-value reference to a texture, usable in kernels on every device. texture_view<T, N> reads
// and writes; texture_view<const T, N> only reads. Copying one inside parallel_for_each binds
// it to the launch, as an array_view.

template <class T, int N = 1>
class texture_view {
  using nonconst_type = std::remove_const_t<T>;
  static constexpr bool read_only = std::is_const<T>::value;

 public:
  static constexpr int rank = N;
  using value_type = nonconst_type;
  using texture_type =
      std::conditional_t<read_only, const texture<nonconst_type, N>, texture<nonconst_type, N>>;

  hipamp::extent<N> extent;

  texture_view(texture_type& t)  // NOLINT: implicit, as C++ AMP's
      : extent(t.extent), view_(t.storage_), texture_(&t) {}
  // A read-only view from a writable one.
  template <class U,
            typename = std::enable_if_t<read_only && std::is_same<U, nonconst_type>::value>>
  HIPAMP_HOST_DEVICE texture_view(const texture_view<U, N>& other)  // NOLINT: implicit
      : extent(other.extent), view_(other.view_), texture_(other.texture_) {}
  texture_view(const texture_view&) = default;
  texture_view& operator=(const texture_view&) = default;  // rebinds, as a view's
  ~texture_view() = default;

  HIPAMP_HOST_DEVICE hipamp::extent<N> get_extent() const noexcept { return extent; }

  HIPAMP_HOST_DEVICE value_type get(const index<N>& idx) const { return view_[idx]; }
  HIPAMP_HOST_DEVICE value_type operator[](const index<N>& idx) const { return view_[idx]; }
  HIPAMP_HOST_DEVICE value_type operator()(const index<N>& idx) const { return view_[idx]; }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE value_type operator[](int i0) const {
    return view_[index<1>(i0)];
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE value_type operator()(int i0) const {
    return view_[index<1>(i0)];
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE value_type operator()(int i0, int i1) const {
    return view_[index<2>(i0, i1)];
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE value_type operator()(int i0, int i1, int i2) const {
    return view_[index<3>(i0, i1, i2)];
  }
  template <bool W = !read_only, typename = std::enable_if_t<W>>
  HIPAMP_HOST_DEVICE void set(const index<N>& idx, const value_type& value) const {
    view_[idx] = value;
  }

  // Host-side properties of the viewed texture.
  accelerator_view get_accelerator_view() const { return texture_->get_accelerator_view(); }
  unsigned int get_bits_per_scalar_element() const noexcept {
    return texture_->get_bits_per_scalar_element();
  }
  unsigned int get_data_length() const noexcept { return texture_->get_data_length(); }
  texture_type& get_texture() const noexcept { return *texture_; }

 private:
  template <class, int>
  friend class texture_view;

  array_view<T, N> view_;  // of the texture's storage; copying it binds it to an open launch
  texture_type* texture_;  // host address of the texture; never used in a kernel
};

// ---- texture_ref: what kernel_handle() gives for a texture ---------------------------------
// A texture_view that, on the host, keeps the meaning of the texture name it shadows after
// tools/amp2hipamp.py's rewrite: assignment deep-copies, it converts to texture<T, N>&, and the
// copy() overloads accept it.

template <class T, int N = 1>
class texture_ref : public texture_view<T, N> {
  using base = texture_view<T, N>;
  using nonconst_type = std::remove_const_t<T>;

 public:
  using base::base;
  using typename base::texture_type;
  texture_ref(const texture_ref&) = default;
  ~texture_ref() = default;

  texture_ref& operator=(const texture_ref& other) {
    this->get_texture() = other.get_texture();
    return *this;
  }
  template <class U, typename = std::enable_if_t<
                         std::is_same<std::remove_const_t<U>, nonconst_type>::value &&
                         !std::is_same<U, T>::value>>
  texture_ref& operator=(const texture_ref<U, N>& other) {
    this->get_texture() = other.get_texture();
    return *this;
  }
  texture_ref& operator=(const texture<nonconst_type, N>& other) {
    this->get_texture() = other;
    return *this;
  }

  operator texture_type&() const noexcept { return this->get_texture(); }  // NOLINT
};

// ---- writeonly_texture_view (C++ AMP 1.0; deprecated there in 1.2 for texture_view) ---------

template <class T, int N = 1>
class writeonly_texture_view {
  static_assert(!std::is_const<T>::value, "hipamp: writeonly_texture_view<const T> cannot write");

 public:
  static constexpr int rank = N;
  using value_type = T;

  hipamp::extent<N> extent;

  writeonly_texture_view(texture<T, N>& t)  // NOLINT: implicit, as C++ AMP's
      : extent(t.extent), view_(t.storage_), texture_(&t) {}
  writeonly_texture_view(const writeonly_texture_view&) = default;
  writeonly_texture_view& operator=(const writeonly_texture_view&) = default;
  ~writeonly_texture_view() = default;

  HIPAMP_HOST_DEVICE hipamp::extent<N> get_extent() const noexcept { return extent; }
  HIPAMP_HOST_DEVICE void set(const index<N>& idx, const value_type& value) const {
    view_[idx] = value;
  }

  accelerator_view get_accelerator_view() const { return texture_->get_accelerator_view(); }
  unsigned int get_bits_per_scalar_element() const noexcept {
    return texture_->get_bits_per_scalar_element();
  }
  texture<T, N>& get_texture() const noexcept { return *texture_; }

 private:
  array_view<T, N> view_;
  texture<T, N>* texture_;
};

template <class T, int N>
void texture<T, N>::copy_to(const writeonly_texture_view<T, N>& dest) const {
  copy_to(dest.get_texture());
}

// ---- copy (C++ AMP 1.2, 10.4) --------------------------------------------------------------
// Overloads for texture, and for texture_ref (template deduction would not convert it).

template <class T, int N>
void copy(const texture<T, N>& src, void* dst, unsigned int dst_byte_size) {
  src.copy_to_bytes(dst, dst_byte_size);
}
template <class T, int N>
void copy(const void* src, unsigned int src_byte_size, texture<T, N>& dst) {
  dst.copy_from_bytes(src, src_byte_size);
}
template <class T, int N>
void copy(const void* src, unsigned int src_byte_size, const writeonly_texture_view<T, N>& dst) {
  dst.get_texture().copy_from_bytes(src, src_byte_size);
}
// Reads extent.size() elements from [first, last); fewer is an error and leaves dst untouched.
template <class InputIt, class T, int N>
void copy(InputIt first, InputIt last, texture<T, N>& dst) {
  const auto count = static_cast<std::size_t>(dst.extent.size());
  std::vector<T> staged;
  staged.reserve(count);
  for (; staged.size() < count && first != last; ++first) staged.push_back(*first);
  if (staged.size() < count)
    throw runtime_exception("hipamp: copy(first, last, texture): texture of extent " +
                            texture_detail::extent_string(dst.extent) + " needs " +
                            std::to_string(count) + " elements but the range holds " +
                            std::to_string(staged.size()));
  hipamp::copy(staged.begin(), staged.end(), dst.storage());
}
template <class InputIt, class T, int N>
void copy(InputIt first, InputIt last, const writeonly_texture_view<T, N>& dst) {
  copy(first, last, dst.get_texture());
}
template <class T, int N, class OutputIt,
          typename = std::enable_if_t<!std::is_same<std::decay_t<OutputIt>, void*>::value>>
OutputIt copy(const texture<T, N>& src, OutputIt dst) {
  const T* host = src.storage().data();
  return std::copy(host, host + src.extent.size(), dst);
}
template <class T, int N>
void copy(const texture<T, N>& src, texture<T, N>& dst) {
  src.copy_to(dst);
}
template <class T, int N>
void copy(const texture<T, N>& src, const writeonly_texture_view<T, N>& dst) {
  src.copy_to(dst);
}

template <class T, int N>
void copy(const texture_ref<T, N>& src, void* dst, unsigned int dst_byte_size) {
  copy(src.get_texture(), dst, dst_byte_size);
}
template <class T, int N>
void copy(const void* src, unsigned int src_byte_size, const texture_ref<T, N>& dst) {
  copy(src, src_byte_size, dst.get_texture());
}
template <class InputIt, class T, int N>
void copy(InputIt first, InputIt last, const texture_ref<T, N>& dst) {
  copy(first, last, dst.get_texture());
}
template <class T, int N, class OutputIt,
          typename = std::enable_if_t<!std::is_same<std::decay_t<OutputIt>, void*>::value>>
OutputIt copy(const texture_ref<T, N>& src, OutputIt dst) {
  return copy(src.get_texture(), dst);
}
template <class T, int N>
void copy(const texture_ref<T, N>& src, const texture_ref<T, N>& dst) {
  copy(src.get_texture(), dst.get_texture());
}
template <class T, int N>
void copy(const texture_ref<T, N>& src, texture<T, N>& dst) {
  copy(src.get_texture(), dst);
}
template <class T, int N>
void copy(const texture<T, N>& src, const texture_ref<T, N>& dst) {
  copy(src, dst.get_texture());
}

// ---- copy_async: the copy runs on a helper thread; get() rethrows its errors ----------------
// Textures are taken by reference (the caller keeps them alive until the future completes, as
// in C++ AMP); pointers and iterators are copied.

template <class T, int N>
completion_future copy_async(const texture<T, N>& src, void* dst, unsigned int dst_byte_size) {
  return completion_future(std::async(std::launch::async, [&src, dst, dst_byte_size] {
                             copy(src, dst, dst_byte_size);
                           }).share());
}
template <class T, int N>
completion_future copy_async(const void* src, unsigned int src_byte_size, texture<T, N>& dst) {
  return completion_future(std::async(std::launch::async, [src, src_byte_size, &dst] {
                             copy(src, src_byte_size, dst);
                           }).share());
}
template <class InputIt, class T, int N>
completion_future copy_async(InputIt first, InputIt last, texture<T, N>& dst) {
  return completion_future(
      std::async(std::launch::async, [first, last, &dst] { copy(first, last, dst); }).share());
}
template <class T, int N, class OutputIt,
          typename = std::enable_if_t<!std::is_same<std::decay_t<OutputIt>, void*>::value>>
completion_future copy_async(const texture<T, N>& src, OutputIt dst) {
  return completion_future(std::async(std::launch::async, [&src, dst] { copy(src, dst); }).share());
}
template <class T, int N>
completion_future copy_async(const texture<T, N>& src, texture<T, N>& dst) {
  return completion_future(
      std::async(std::launch::async, [&src, &dst] { copy(src, dst); }).share());
}

}  // namespace hipamp::graphics

namespace hipamp {

// kernel_handle (array_ref.hpp) for textures captured by reference: a texture_ref.
template <class T, int N>
graphics::texture_ref<T, N> kernel_handle(graphics::texture<T, N>& t) {
  return graphics::texture_ref<T, N>(t);
}
template <class T, int N>
graphics::texture_ref<const T, N> kernel_handle(const graphics::texture<T, N>& t) {
  return graphics::texture_ref<const T, N>(t);
}

}  // namespace hipamp
