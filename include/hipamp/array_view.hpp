// array_view<T, N>: a view of data that lives anywhere (a host container, a raw pointer, an
// array, or nothing yet) and moves lazily to where it is used (C++ AMP 1.2, chapter 5.2).
// array_view<const T, N> is read-only and never copied back.
#pragma once

#include <cstddef>
#include <cstring>
#include <future>
#include <string>
#include <type_traits>
#include <vector>

#include <hipamp/accelerator.hpp>
#include <hipamp/completion_future.hpp>
#include <hipamp/config.hpp>
#include <hipamp/detail/bounds_check.hpp>
#include <hipamp/detail/data_source.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>

// A copy made by the CPU executor of an already-bound kernel is bound (host pass only).
#if HIPAMP_DEVICE_COMPILE
#define HIPAMP_COPY_BOUND(b) (b)
#else
#define HIPAMP_COPY_BOUND(b) (::hipamp::detail::copying_bound_kernel || (b))
#endif

namespace hipamp {

template <class T, int N = 1>
class array;
template <class T, int N = 1>
class array_view;
template <class T, int N>
class array_ref;

namespace detail {

template <class Container, class = void>
struct is_container : std::false_type {};
template <class Container>
struct is_container<Container, std::void_t<decltype(std::declval<Container&>().data()),
                                           decltype(std::declval<Container&>().size())>>
    : std::true_type {};

template <int N>
void check_positive_extent(const extent<N>& e, const char* what) {
  for (int d = 0; d < N; ++d) {
    if (e[d] <= 0) {
      throw runtime_exception(std::string("hipamp: ") + what + " extent " + to_string(e) +
                              " has a component <= 0; every dimension must be positive");
    }
  }
  if (element_count(e) > 0xFFFFFFFFull) {
    throw runtime_exception(std::string("hipamp: ") + what + " extent " + to_string(e) +
                            " holds more than 2^32 - 1 elements, the most C++ AMP can index");
  }
}

struct view_access;

// Tag of the library's own discard_data: every element is about to be overwritten, so no copy
// of the bytes, an array's included, need survive (see array_view::discard_data).
struct overwrite_all {};

// What the host-access slow path needs to know of a view, passed by value.
template <int N>
struct view_geometry {
  std::size_t element_size;
  std::size_t offset;
  extent<N> shape;
  std::ptrdiff_t stride[N];
  footprint where() const {
    footprint fp;
    fp.element_size = element_size;
    fp.offset = offset;
    fp.extent.assign(N, 0);
    fp.stride.assign(N, 0);
    for (int d = 0; d < N; ++d) {
      fp.extent[d] = shape[d];
      fp.stride[d] = stride[d];
    }
    return fp;
  }
};

// Whether elements of type T may move by memcpy: C++ AMP 1.2 (5.0) accepts element types
// with a user-provided destructor (it restricts members, bases and virtual functions), and
// hipamp never runs an element's destructor (storage is raw bytes), so only the copies must
// be trivial. The standard's traits all count the destructor (is_trivially_copyable, and in
// GCC and Clang is_trivially_copy_constructible too), so the copy constructor's own
// triviality is asked of the compiler's builtin, which GCC, Clang and nvcc's front end have.
template <class T>
constexpr bool copies_bytewise() {
  if constexpr (std::is_trivially_copyable<T>::value) {
    return true;
  } else {
#if defined(__clang__) && defined(__has_warning)
#if __has_warning("-Wdeprecated-builtins")
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-builtins"
#define HIPAMP_POP_DEPRECATED_BUILTINS
#endif
#endif
    constexpr bool trivial_copies = __has_trivial_copy(T) && __has_trivial_assign(T);
#ifdef HIPAMP_POP_DEPRECATED_BUILTINS
#pragma clang diagnostic pop
#undef HIPAMP_POP_DEPRECATED_BUILTINS
#endif
    return trivial_copies && std::is_copy_constructible<T>::value &&
           std::is_copy_assignable<T>::value && !std::is_polymorphic<T>::value;
  }
}

}  // namespace detail

template <class T, int N>
class array_view {
  static_assert(N > 0, "hipamp: array_view rank must be at least 1");
  // The element-type rules of C++ AMP 1.2 (section 5.0) that a library can check; array<T, N>
  // holds an array_view<T, N>, so they guard both containers.
  static_assert(!std::is_pointer<T>::value && !std::is_reference<T>::value,
                "hipamp: C++ AMP forbids pointers and references as array/array_view elements "
                "(an address does not survive the move to an accelerator)");
  static_assert(detail::copies_bytewise<std::remove_const_t<T>>(),
                "hipamp: array/array_view elements must be trivially copyable (they move by "
                "memcpy; C++ AMP also forbids virtual functions, virtual bases and containers "
                "such as array or array_view as members)");
  // Fundamental types of 1 or 2 bytes (char, short) stay allowed as a hipamp extension.
  static_assert(!std::is_class<T>::value || sizeof(T) % sizeof(int) == 0,
                "hipamp: C++ AMP requires the size of a class element type of array/array_view "
                "to be a multiple of 4 bytes (an empty class, or one with only static members, "
                "is not)");
  using nonconst_type = std::remove_const_t<T>;
  static constexpr bool read_only = std::is_const<T>::value;
  template <class, int>
  friend class array_view;
  template <class, int>
  friend class array;
  template <class, int>
  friend class array_ref;
  friend struct detail::view_access;

 public:
  static constexpr int rank = N;
  using value_type = T;
  using reference = T&;

  // C++ AMP reads the shape as a property (`av.extent`); treat it as read-only.
  hipamp::extent<N> extent;

 private:
  // True in the copies a launch made: no host checks. Declared first so a copy sets it before
  // any other member's copy runs (see detail::bound_copy_guard).
  bool bound_ = false;

 public:
  // ---- construction ---------------------------------------------------------------------

  // Over a container with data() and size() (std::vector, std::array, ...).
  template <class Container, typename = std::enable_if_t<detail::is_container<Container>::value>>
  array_view(const hipamp::extent<N>& ext, Container& source)
      : array_view(ext, checked_data(source, ext)) {}
  template <class Container, int M = N,
            typename = std::enable_if_t<M == 1 && detail::is_container<Container>::value>>
  array_view(int e0, Container& source) : array_view(hipamp::extent<1>(e0), source) {}
  template <class Container, int M = N,
            typename = std::enable_if_t<M == 2 && detail::is_container<Container>::value>>
  array_view(int e0, int e1, Container& source) : array_view(hipamp::extent<2>(e0, e1), source) {}
  template <class Container, int M = N,
            typename = std::enable_if_t<M == 3 && detail::is_container<Container>::value>>
  array_view(int e0, int e1, int e2, Container& source)
      : array_view(hipamp::extent<3>(e0, e1, e2), source) {}
  // A rank-1 view of a whole container.
  template <class Container, int M = N,
            typename = std::enable_if_t<M == 1 && detail::is_container<Container>::value>>
  explicit array_view(Container& source)
      : array_view(hipamp::extent<1>(static_cast<int>(source.size())), source) {}

  // Over raw memory holding at least ext.size() elements. C++ AMP 1.2 (5.2.1) makes these
  // restrict(amp, cpu): in a kernel the view wraps memory the work-item can already reach (a
  // local array, a bound view's data()), with no data source and nothing to synchronise. The
  // device pass must compile that body, not the host one: a kernel calling the host
  // constructor on a GPU built a view over nothing and wrote nowhere (found by the
  // conformance suite on the H100).
  HIPAMP_HOST_DEVICE array_view(const hipamp::extent<N>& ext, T* source) : extent(ext) {
#if !HIPAMP_DEVICE_COMPILE
    if (!detail::running_cpu_kernel) {  // host code: a data source over the memory
      detail::check_positive_extent(ext, "array_view");
      if (source == nullptr) throw runtime_exception("hipamp: array_view over a null pointer");
      std::size_t offset_bytes = 0;
      const std::size_t bytes = detail::element_count(ext) * sizeof(T);
      src_ = detail::source_ref(detail::data_source::create_over_host(
          const_cast<nonconst_type*>(source), bytes, offset_bytes));
      init_dense(offset_bytes / sizeof(T));
      data_ = source;
      return;
    }
#endif
    // A kernel (the device pass; the CPU devices' kernels as on a GPU): the memory alone.
    init_strides();
    data_ = source;
    bound_ = true;
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE array_view(int e0, T* source) : array_view(hipamp::extent<1>(e0), source) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE array_view(int e0, int e1, T* source)
      : array_view(hipamp::extent<2>(e0, e1), source) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE array_view(int e0, int e1, int e2, T* source)
      : array_view(hipamp::extent<3>(e0, e1, e2), source) {}

  // With no data source: storage appears where the view is first used.
  explicit array_view(const hipamp::extent<N>& ext) : extent(ext) {
    static_assert(!read_only, "hipamp: a read-only view needs a data source");
    detail::check_positive_extent(ext, "array_view");
    src_ = detail::source_ref(
        detail::data_source::create_owned(nullptr, detail::element_count(ext) * sizeof(T)));
    init_dense(0);
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  explicit array_view(int e0) : array_view(hipamp::extent<1>(e0)) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  explicit array_view(int e0, int e1) : array_view(hipamp::extent<2>(e0, e1)) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  explicit array_view(int e0, int e1, int e2) : array_view(hipamp::extent<3>(e0, e1, e2)) {}

  // Over an array (array_view<const T> binds to a const array).
  template <class A, typename = std::enable_if_t<
                         std::is_same<std::remove_const_t<A>, array<nonconst_type, N>>::value &&
                         (read_only || !std::is_const<A>::value)>>
  array_view(A& source) : array_view(source.view_) {}  // NOLINT: implicit as in C++ AMP
  // Over a temporary array: MSVC's extension, emulated. MSVC binds an rvalue array to
  // array_view's `array&` constructor (and the const view's `const array&` one binds it in any
  // compiler), and its views hold the array's buffer by reference count, so
  // `views.push_back(array<float, 2>(ext, av))` gives a view whose data outlives the array
  // expression (the book's chapter 9). hipamp's views already co-own their data source; the
  // array's storage is one (data_source::create_owned on the array's accelerator_view), so the
  // view simply takes a reference before the temporary's destructor drops the array's: the
  // storage, its replicas and the coherence directory live until the last view (or copy) is
  // gone, on the array's accelerator_view. Nothing else changes: no cost to other views.
  // A template, so only an array itself binds: as a plain `array&&` parameter it also took
  // anything that converts to an array (an array_ref, through array's copying constructor),
  // which would have made a view of a temporary *copy* (writes lost), and nvcc 13 crashed
  // compiling such a conversion in a __host__ __device__ function (test_subviews_in_kernels).
  template <class A, typename = std::enable_if_t<std::is_same<A, array<nonconst_type, N>>::value>>
  array_view(A&& source)  // NOLINT: implicit as in MSVC; A is never an lvalue reference here
      : array_view(source.view_) {}

  // Read-only view of a writable one.
  template <class U,
            typename = std::enable_if_t<read_only && std::is_same<U, nonconst_type>::value>>
  HIPAMP_HOST_DEVICE array_view(const array_view<U, N>& other)  // NOLINT: implicit as in C++ AMP
      : extent(other.extent),
        bound_(HIPAMP_COPY_BOUND(other.bound_)),
        data_(other.data_),
        offset_(other.offset_),
        src_(other.src_, owns_no_reference(bound_)),
        seen_epoch_(other.seen_epoch_) {
    for (int d = 0; d < N; ++d) stride_[d] = other.stride_[d];
    capture_if_launching(&other, sizeof(other), other.src_.owns());
  }

  // Copies share the source. Inside parallel_for_each the copy reports itself to the launch.
  HIPAMP_HOST_DEVICE array_view(const array_view& other)
      : extent(other.extent),
        bound_(HIPAMP_COPY_BOUND(other.bound_)),
        data_(other.data_),
        offset_(other.offset_),
        src_(other.src_, owns_no_reference(bound_)),
        seen_epoch_(other.seen_epoch_) {
    for (int d = 0; d < N; ++d) stride_[d] = other.stride_[d];
    capture_if_launching(&other, sizeof(other), other.src_.owns());
  }
  // Member-wise, so assigning a view to itself is harmless.
  // NOLINTNEXTLINE(bugprone-unhandled-self-assignment)
  HIPAMP_HOST_DEVICE array_view& operator=(const array_view& other) {
    extent = other.extent;
    data_ = other.data_;
    offset_ = other.offset_;
    src_ = other.src_;
    bound_ = other.bound_;
    seen_epoch_ = other.seen_epoch_;
    for (int d = 0; d < N; ++d) stride_[d] = other.stride_[d];
    return *this;
  }
  HIPAMP_HOST_DEVICE ~array_view() = default;

  // ---- shape and placement ----------------------------------------------------------------

  HIPAMP_HOST_DEVICE hipamp::extent<N> get_extent() const noexcept { return extent; }
  accelerator_view get_source_accelerator_view() const {
    if (src_->home_queue()) return accelerator_view(src_->home_queue());
    return accelerator(accelerator::cpu_accelerator).get_default_view();
  }

  // ---- element access (host access synchronises first) -----------------------------------

  HIPAMP_HOST_DEVICE T& operator[](const index<N>& idx) const { return element(idx); }
  HIPAMP_HOST_DEVICE T& operator()(const index<N>& idx) const { return element(idx); }
  HIPAMP_HOST_DEVICE T& get_ref(const index<N>& idx) const { return element(idx); }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE T& operator()(int i0) const {
    return element(index<1>(i0));
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE T& operator()(int i0, int i1) const {
    return element(index<2>(i0, i1));
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE T& operator()(int i0, int i1, int i2) const {
    return element(index<3>(i0, i1, i2));
  }
  // Rank 1: the element. Rank > 1: the (N-1)-dimensional slice at i (a projection).
  template <int M = N>
  HIPAMP_HOST_DEVICE std::enable_if_t<M == 1, T&> operator[](int i) const {
    return element(index<1>(i));
  }
  template <int M = N>
  HIPAMP_HOST_DEVICE std::enable_if_t<(M > 1), array_view<T, N - 1>> operator[](int i) const {
    return project(i);
  }
  template <int M = N>
  HIPAMP_HOST_DEVICE std::enable_if_t<(M > 1), array_view<T, N - 1>> operator()(int i) const {
    return project(i);
  }

  // Host pointer to the first element; the view must be dense (not a strided section).
  // (C++ AMP: restrict(cpu, amp). In kernels the checks are the host pass's alone.)
  HIPAMP_HOST_DEVICE T* data() const {
#if !HIPAMP_DEVICE_COMPILE
    if (!is_contiguous()) {
      throw runtime_exception("hipamp: data() needs a contiguous view; this section of extent " +
                              detail::to_string(extent) + " is strided");
    }
    host_check();
#endif
    return data_;
  }

  // ---- sub-views --------------------------------------------------------------------------

  // Sub-views are restrict(cpu, amp) in C++ AMP: kernels make them too (the Microsoft samples'
  // transposes call view_as inside the kernel). Device code cannot throw, so the checks are
  // the host pass's alone; a kernel's out-of-range sub-view is caught on the CPU devices.
  HIPAMP_HOST_DEVICE array_view section(const index<N>& origin,
                                        const hipamp::extent<N>& ext) const {
#if !HIPAMP_DEVICE_COMPILE
    for (int d = 0; d < N; ++d) {
      if (origin[d] < 0 || ext[d] <= 0 || origin[d] + ext[d] > extent[d]) {
        throw runtime_exception("hipamp: section at " + detail::to_string(origin) + " of extent " +
                                detail::to_string(ext) + " does not fit in a view of extent " +
                                detail::to_string(extent));
      }
    }
#endif
    array_view out(*this, no_capture{});
    out.extent = ext;
    std::ptrdiff_t shift = 0;
    for (int d = 0; d < N; ++d) shift += static_cast<std::ptrdiff_t>(origin[d]) * stride_[d];
    out.offset_ = offset_ + static_cast<std::size_t>(shift);
    if (out.data_ != nullptr) out.data_ += shift;
    return out;
  }
  HIPAMP_HOST_DEVICE array_view section(const index<N>& origin) const {
    return section(origin, extent - origin);
  }
  HIPAMP_HOST_DEVICE array_view section(const hipamp::extent<N>& ext) const {
    return section(index<N>(), ext);
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE array_view section(int i0, int e0) const {
    return section(index<1>(i0), hipamp::extent<1>(e0));
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  HIPAMP_HOST_DEVICE array_view section(int i0, int i1, int e0, int e1) const {
    return section(index<2>(i0, i1), hipamp::extent<2>(e0, e1));
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  HIPAMP_HOST_DEVICE array_view section(int i0, int i1, int i2, int e0, int e1, int e2) const {
    return section(index<3>(i0, i1, i2), hipamp::extent<3>(e0, e1, e2));
  }

  // The same elements under another shape of no larger size. C++ AMP 1.2 (5.2.5) offers it on
  // rank-1 views only; arrays (and their kernel handles) reshape at any rank through reshape().
  template <int K, int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE array_view<T, K> view_as(const hipamp::extent<K>& ext) const {
    return reshape(ext);
  }
  // C++ AMP rule: view_as is for an array_view of rank 1 only; reshape the array instead, or
  // view_as a rank-1 view of the same data.
  template <int K, int M = N, typename = std::enable_if_t<(M > 1)>, typename = void>
  array_view<T, K> view_as(const hipamp::extent<K>& ext) const = delete;

 private:
  // view_as at any rank; the view must be contiguous.
  template <int K>
  HIPAMP_HOST_DEVICE array_view<T, K> reshape(const hipamp::extent<K>& ext) const {
#if !HIPAMP_DEVICE_COMPILE
    if (!is_contiguous()) {
      throw runtime_exception("hipamp: view_as needs a contiguous view; this one of extent " +
                              detail::to_string(extent) + " is strided");
    }
    // C++ AMP 1.2 (5.1.4, 5.2.5): the new shape may cover fewer elements (the first ones),
    // never more.
    if (detail::element_count(ext) > detail::element_count(extent)) {
      throw runtime_exception("hipamp: view_as " + detail::to_string(ext) + " holds " +
                              std::to_string(detail::element_count(ext)) +
                              " elements but the view " + detail::to_string(extent) +
                              " holds only " + std::to_string(detail::element_count(extent)));
    }
    detail::check_positive_extent(ext, "view_as");
#endif
    array_view<T, K> out;
    out.extent = ext;
    out.data_ = data_;
    out.offset_ = offset_;
    out.src_ = src_;
    out.bound_ = bound_;
    out.seen_epoch_ = seen_epoch_;
    out.init_strides();
    return out;
  }

 public:
  // The bytes of a rank-1 view as elements of another type. On a read-only view the result is
  // read-only too: reinterpret_as<U>() gives array_view<const U> (C++ AMP 1.2, 5.2.5).
  template <class U, int M = N, typename = std::enable_if_t<M == 1>>
  HIPAMP_HOST_DEVICE array_view<std::conditional_t<read_only, const U, U>, 1> reinterpret_as()
      const {
    using target = std::conditional_t<read_only, const U, U>;
    const std::size_t bytes = detail::element_count(extent) * sizeof(T);
    const std::size_t offset_bytes = offset_ * sizeof(T);
#if !HIPAMP_DEVICE_COMPILE
    if (bytes % sizeof(U) != 0 || offset_bytes % sizeof(U) != 0) {
      throw runtime_exception("hipamp: reinterpret_as: " + std::to_string(bytes) +
                              " bytes at byte offset " + std::to_string(offset_bytes) +
                              " are not a whole number of " + std::to_string(sizeof(U)) +
                              "-byte elements");
    }
#endif
    array_view<target, 1> out;
    out.extent = hipamp::extent<1>(static_cast<int>(bytes / sizeof(U)));
    out.data_ = reinterpret_cast<target*>(data_);
    out.offset_ = offset_bytes / sizeof(U);
    out.src_ = src_;
    out.bound_ = bound_;
    out.seen_epoch_ = seen_epoch_;
    out.init_strides();
    return out;
  }

  // ---- coherence ----------------------------------------------------------------------------

  // Makes the host copy current (for const views and writable ones alike).
  void synchronize() const { (void)src_->acquire_host(where(), false); }
  completion_future synchronize_async() const {
    array_view self = *this;
    return completion_future(
        std::async(std::launch::async, [self] { self.synchronize(); }).share());
  }
  // Makes the data current on `target` without a kernel.
  void synchronize_to(const accelerator_view& target) const {
    detail::launch_scope scope(target.queue());
    scope.close();
    (void)src_->acquire_for_kernel(target.queue(), where(), false);
    target.queue().wait();
  }
  completion_future synchronize_to_async(const accelerator_view& target) const {
    array_view self = *this;
    return completion_future(
        std::async(std::launch::async, [self, target] { self.synchronize_to(target); }).share());
  }
  // The host memory changed behind the view: cached device copies are stale.
  void refresh() const { src_->refresh(where()); }
  // The current contents are not needed: the next use copies nothing in. A view of an array
  // keeps the array's data (C++ AMP: the array's storage is the truth; see
  // data_source::discard).
  void discard_data() const {
    static_assert(!read_only, "hipamp: discard_data on a read-only view would lose data");
    src_->discard(where(), /*keep_array_data=*/true);
  }
  // The library's algorithms and copies, about to overwrite every element: drops every copy.
  void discard_data(detail::overwrite_all) const {
    static_assert(!read_only, "hipamp: discard_data on a read-only view would lose data");
    src_->discard(where());
  }

  // ---- copies -------------------------------------------------------------------------------

  void copy_to(const array_view<nonconst_type, N>& dest) const;
  void copy_to(array<nonconst_type, N>& dest) const;

  // ---- hipamp extensions ----------------------------------------------------------------------

  HIPAMP_HOST_DEVICE bool is_contiguous() const noexcept {
    std::ptrdiff_t expected = 1;
    for (int d = N - 1; d >= 0; --d) {
      if (extent[d] > 1 && stride_[d] != expected) return false;
      expected *= extent[d];
    }
    return true;
  }
  // The element [0,...,0] in the memory the view is bound to, with no synchronisation: inside
  // a kernel (or library code holding a launch_scope) that is the target's memory.
  HIPAMP_HOST_DEVICE T* unchecked_data() const noexcept { return data_; }
  // Distance in elements between neighbours along dimension d (the last is 1).
  HIPAMP_HOST_DEVICE std::ptrdiff_t stride(int d) const noexcept { return stride_[d]; }
  // The data source the view shows (shared by every view of the same data): with where(),
  // what library algorithms compare to detect outputs that overlap inputs.
  const detail::data_source* source() const noexcept { return src_.get(); }
  // Where the view lies in its source (what the coherence directory tracks).
  detail::footprint where() const { return geometry().where(); }

 private:
  struct no_capture {};
  array_view() = default;
  // A copy that never reports to a launch (sub-views made by the library itself).
  HIPAMP_HOST_DEVICE array_view(const array_view& other, no_capture)
      : extent(other.extent),
        data_(other.data_),
        offset_(other.offset_),
        src_(other.src_),
        bound_(other.bound_),
        seen_epoch_(other.seen_epoch_) {
    for (int d = 0; d < N; ++d) stride_[d] = other.stride_[d];
  }

  template <class Container>
  static T* checked_data(Container& source, const hipamp::extent<N>& ext) {
    using element = std::remove_pointer_t<decltype(source.data())>;
    static_assert(std::is_same<std::remove_const_t<element>, nonconst_type>::value,
                  "hipamp: the container's elements must have the view's element type");
    static_assert(
        read_only || !std::is_const<element>::value,
        "hipamp: a writable array_view needs a writable container; use array_view<const T>");
    detail::check_positive_extent(ext, "array_view");
    if (static_cast<std::size_t>(source.size()) < detail::element_count(ext)) {
      throw runtime_exception("hipamp: array_view of extent " + detail::to_string(ext) + " needs " +
                              std::to_string(detail::element_count(ext)) +
                              " elements but the container holds " + std::to_string(source.size()));
    }
    return source.data();
  }

  HIPAMP_HOST_DEVICE void init_strides() noexcept {
    std::ptrdiff_t s = 1;
    for (int d = N - 1; d >= 0; --d) {
      stride_[d] = s;
      s *= extent[d];
    }
  }
  void init_dense(std::size_t offset_elements) {
    init_strides();
    offset_ = offset_elements;
    void* base = src_->host_base();
    data_ = base ? reinterpret_cast<T*>(static_cast<char*>(base)) + offset_ : nullptr;
    seen_epoch_ = ~src_->host_epoch();  // force one check before the first host access
  }

  // Whether a copy holds no reference to the source: a bound copy, and a copy made while a
  // launch scope is open, which binds right away (capture_if_launching) and is kept alive by
  // the scope's own reference. Taking none then saves a retain and a release per view per
  // launch (issue 19); if binding throws, the half-made copy has nothing to release.
  HIPAMP_HOST_DEVICE static bool owns_no_reference(bool bound) noexcept {
#if HIPAMP_DEVICE_COMPILE
    return bound;
#else
    return bound || detail::launch_scope::current() != nullptr;
#endif
  }

  // Neither path below lets `this` escape (see launch_scope::bind): the CPU executor relies
  // on that to hoist the host check out of its loops. The copy's src_ owns no reference when
  // this binds (owns_no_reference: the scope is open). `from` is the view copied: when it owns
  // a reference and lies inside an object the scope holds (bind_and_run's arguments), that
  // reference keeps the source alive for the launch and the scope takes none (issue 19).
  // The place is passed by value, not by a footprint: the ticket's fast path needs only its
  // span, computed here where the rank is known.
  HIPAMP_HOST_DEVICE void capture_if_launching(const void* from, std::size_t from_bytes,
                                               bool from_owns) {
#if !HIPAMP_DEVICE_COMPILE
    if (bound_) return;
    if (detail::launch_scope* scope = detail::launch_scope::current()) {
      if (void* host = scope->bind_host_sole(src_.get(), from, from_bytes, from_owns)) {
        data_ = reinterpret_cast<T*>(static_cast<char*>(host)) + offset_;
        bound_ = true;
        return;
      }
      std::ptrdiff_t ext[N];
      std::ptrdiff_t str[N];
      for (int d = 0; d < N; ++d) {
        ext[d] = extent[d];
        str[d] = stride_[d];
      }
      const detail::footprint::byte_span span =
          detail::launch_scope::span_of<N>(sizeof(T), offset_, ext, str);
      // Cheapest first (launch_scope::reuse): bytes this launch bound already (the second copy
      // of every view on a GPU), then the kernel ticket, then the slow path with the place.
      void* base = scope->reuse(src_.get(), span, !read_only);
      if (base == nullptr) {
        const bool kept = from_owns && scope->holds(from, from_bytes);
        if (src_->ticketed_for(scope->queue())) {
          base = scope->bind_span(src_.get(), span, !read_only, kept);
        }
        if (base == nullptr) {
          detail::launch_scope::view_place place;
          place.element_size = sizeof(T);
          place.offset = offset_;
          place.rank = N;
          place.extent = ext;
          place.stride = str;
          place.span = span;
          base = scope->bind_place(src_.get(), place, !read_only, kept);
        }
      }
      data_ = reinterpret_cast<T*>(static_cast<char*>(base)) + offset_;
      bound_ = true;
    }
#else
    (void)from;
    (void)from_bytes;
    (void)from_owns;
#endif
  }

  // The inline part is one load and a branch on bound_, small enough for the compiler to
  // unswitch out of a CPU kernel loop; the slow path only writes data_ and seen_epoch_ (which
  // GCC's IPA mod/ref analysis can see, so bound_ stays loop-invariant).
  HIPAMP_HOST_DEVICE void host_check() const {
#if !HIPAMP_DEVICE_COMPILE
    if (HIPAMP_UNLIKELY(!detail::running_cpu_kernel && !bound_)) host_check_unbound();
#endif
  }
  // For arrays reached by reference from a CPU kernel: their views are not bound, so they
  // check even in kernel mode.
  T& checked_element(const index<N>& idx) const {
    if (!bound_) host_check_unbound();
    return kernel_element(idx, "array");
  }
  // The element at idx, as a kernel reaches it. Host pass: unchecked unless the executor runs
  // its checked loop (checking_bounds, launch_scope.hpp), which folds away otherwise. Device
  // pass: unchecked, except in units compiled with HIPAMP_ROBUST_ACCESS (config.hpp), where an
  // offset outside the view's memory gets the thread's zeroed sink: Direct3D's robust buffer
  // access, one multiply-add per dimension and a compare, and nothing without the macro.
  HIPAMP_HOST_DEVICE T& kernel_element(const index<N>& idx, const char* container) const {
#if !HIPAMP_DEVICE_COMPILE
    if (HIPAMP_UNLIKELY(detail::checking_bounds)) {
      // The checked loop: the reference device, HIPAMP_CHECK_BOUNDS=1, or a launch from a unit
      // compiled with HIPAMP_ROBUST_ACCESS. The inline part stays small, so element() still
      // inlines into kernels (with the index test inline too, GCC stopped inlining it into a
      // 2-D stencil: 10x the instructions), and calls nothing that returns and may write
      // memory, or GCC would reload checking_bounds in unchecked loops (once 2.3x a plain
      // kernel's instructions): checked_offset only reads (`pure`), out_of_range never
      // returns, and the sink is an inline store to a thread_local of its own. The index goes
      // by value, in registers: by reference, GCC stored every work-item's index to the stack
      // wherever this branch was not folded away (after a barrier's fiber switch). The branch
      // below reads robust_access rather than telling the two outcomes apart by checked_offset's
      // value: with `if (at == outside_checked) out_of_range(...); return sink;` GCC 12 and 13
      // stopped inlining the 2-D stencil's kernel into the executor's loop (a call per element,
      // 0.05x the OpenMP loop on one core, from da2e0d7 until issue 19's session 16).
      const std::ptrdiff_t at = checked_offset(idx);
      if (HIPAMP_UNLIKELY(at < 0)) {
        if (detail::robust_access) return detail::robust_sink<nonconst_type>();
        out_of_range(idx, container);
      }
      return data_[at];
    }
    return data_[linear(idx)];
#elif HIPAMP_ROBUST_ACCESS_ON
    (void)container;
    const std::ptrdiff_t at = linear(idx);
    if (HIPAMP_UNLIKELY(static_cast<std::size_t>(at) >= span())) {
      return detail::robust_sink<nonconst_type>();
    }
    return data_[at];
#else
    (void)container;
    return data_[linear(idx)];
#endif
  }
  // idx's offset from [0,...,0] when a checked access may reach it; else outside_checked
  // (throw, naming the access) or, under robust access, outside_robust (the sink). Every
  // dimension must be inside (the reference device's rule), except under robust access, which
  // asks what Direct3D asked of a buffer: is the element's offset inside the memory? Row r,
  // column -1 is the last element of row r-1 there, as on Direct3D. Reads only (see
  // kernel_element).
  static constexpr std::ptrdiff_t outside_robust = -1;
  static constexpr std::ptrdiff_t outside_checked = -2;
  HIPAMP_NOINLINE HIPAMP_PURE_FUNCTION std::ptrdiff_t checked_offset(index<N> idx) const noexcept {
    if (detail::robust_access) {
      const std::ptrdiff_t at = linear(idx);
      return static_cast<std::size_t>(at) < span() ? at : outside_robust;
    }
    for (int d = 0; d < N; ++d) {
      if (static_cast<unsigned>(idx[d]) >= static_cast<unsigned>(extent[d])) {
        return outside_checked;
      }
    }
    return linear(idx);
  }
  [[noreturn]] HIPAMP_NOINLINE void out_of_range(index<N> idx, const char* container) const {
    int at[N];
    int shape[N];
    for (int d = 0; d < N; ++d) {
      at[d] = idx[d];
      shape[d] = extent[d];
    }
    detail::throw_index_out_of_range(typeid(nonconst_type), read_only, container, N, at, shape);
  }
  // Elements from [0,...,0] to the last one, in the memory's order: the view's footprint.
  HIPAMP_HOST_DEVICE std::size_t span() const noexcept {
    std::size_t elements = 1;
    for (int d = 0; d < N; ++d) {
      if (extent[d] <= 0) return 0;
      elements += static_cast<std::size_t>(extent[d] - 1) * static_cast<std::size_t>(stride_[d]);
    }
    return elements;
  }
  // Kernel bounds checks (detail/bounds_check.hpp). Host pass only: device code keeps no
  // check and can throw nothing. In a CPU kernel without checks the executor has just stored
  // false into checking_bounds, so this folds away (launch_scope.hpp); outside kernels it is
  // false too, one predictable branch.
  HIPAMP_HOST_DEVICE void check_bounds(const index<N>& idx, const char* container) const {
#if !HIPAMP_DEVICE_COMPILE
    if (HIPAMP_UNLIKELY(detail::checking_bounds)) {
      bool inside = true;
      for (int d = 0; d < N; ++d) {
        inside &= static_cast<unsigned>(idx[d]) < static_cast<unsigned>(extent[d]);
      }
      if (HIPAMP_UNLIKELY(!inside)) out_of_range(idx, container);
    }
#else
    (void)idx;
    (void)container;
#endif
  }
  HIPAMP_NOINLINE void host_check_unbound() const {
    if (src_->host_epoch() == seen_epoch_) return;
    std::ptrdiff_t shape[N];
    for (int d = 0; d < N; ++d) shape[d] = extent[d];
    const detail::host_binding b =
        detail::bind_to_host(src_.get(), sizeof(T), offset_, N, shape, stride_, !read_only);
    data_ = reinterpret_cast<T*>(static_cast<char*>(b.base)) + offset_;
    seen_epoch_ = b.epoch;
  }

  detail::view_geometry<N> geometry() const noexcept {
    detail::view_geometry<N> g{sizeof(T), offset_, extent, {}};
    for (int d = 0; d < N; ++d) g.stride[d] = stride_[d];
    return g;
  }

  HIPAMP_HOST_DEVICE std::ptrdiff_t linear(const index<N>& idx) const noexcept {
    std::ptrdiff_t off = idx[N - 1];
    for (int d = 0; d < N - 1; ++d) off += static_cast<std::ptrdiff_t>(idx[d]) * stride_[d];
    return off;
  }
  HIPAMP_HOST_DEVICE T& element(const index<N>& idx) const {
    host_check();
    return kernel_element(idx, "array_view");
  }

  HIPAMP_HOST_DEVICE array_view<T, N - 1> project(int i) const {
#if !HIPAMP_DEVICE_COMPILE
    // Robust access leaves projections alone (docs/porting.md): a row outside the view is a
    // view of memory outside it, whose elements only a per-buffer bound could catch.
    if (HIPAMP_UNLIKELY(detail::checking_bounds) && !detail::robust_access) {
      index<N> first;  // the projection's first element: only dimension 0 can be out
      first[0] = i;
      check_bounds(first, "array_view");
    } else if (!detail::running_cpu_kernel &&
               HIPAMP_UNLIKELY(static_cast<unsigned>(i) >= static_cast<unsigned>(extent[0]))) {
      // Host code: C++ AMP 1.2 (5.2.4) throws for a projection outside the view or array.
      throw runtime_exception("hipamp: projection [" + std::to_string(i) + "] of extent " +
                              detail::to_string(extent) + " is out of range");
    }
#endif
    array_view<T, N - 1> out;
    for (int d = 1; d < N; ++d) {
      out.extent[d - 1] = extent[d];
      out.stride_[d - 1] = stride_[d];
    }
    out.offset_ = offset_ + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) * stride_[0]);
    out.data_ = data_ == nullptr ? nullptr : data_ + static_cast<std::ptrdiff_t>(i) * stride_[0];
    out.src_ = src_;
    out.bound_ = bound_;
    out.seen_epoch_ = seen_epoch_;
    return out;
  }

  mutable T* data_ = nullptr;      // element [0,...,0] in the memory the view is bound to
  std::ptrdiff_t stride_[N] = {};  // in elements; stride_[N-1] == 1
  std::size_t offset_ = 0;         // of element [0,...,0] from the source's base, in elements
  detail::source_ref src_;
  mutable unsigned seen_epoch_ = 0;
};

}  // namespace hipamp
