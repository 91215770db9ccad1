// array<T, N>: a container that owns its storage on one accelerator_view (C++ AMP 1.2,
// chapter 5.1). Copying an array copies its data. Kernels on a GPU reach an array through
// an array_view of it; capturing an array by reference works on the CPU device only.
#pragma once

#include <iterator>
#include <vector>

#include <hipamp/array_view.hpp>

namespace hipamp {

template <class T, int N>
class array_ref;

template <class T, int N>
class array {
  static_assert(!std::is_const<T>::value, "hipamp: array elements cannot be const");
  template <class, int>
  friend class array_view;

 public:
  static constexpr int rank = N;
  using value_type = T;

  hipamp::extent<N> extent;

  explicit array(const hipamp::extent<N>& ext) : array(ext, accelerator().get_default_view()) {}
  template <int M = N, typename = std::enable_if_t<M == 1>>
  explicit array(int e0) : array(hipamp::extent<1>(e0)) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  array(int e0, int e1) : array(hipamp::extent<2>(e0, e1)) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  array(int e0, int e1, int e2) : array(hipamp::extent<3>(e0, e1, e2)) {}

  array(const hipamp::extent<N>& ext, const accelerator_view& av)
      : extent(ext),
        view_(make_storage(ext, av)),
        av_(av),
        associated_(av),
        cpu_access_(resolve(av, access_type_auto)) {}
  template <int M = N, typename = std::enable_if_t<M == 1>>
  array(int e0, const accelerator_view& av) : array(hipamp::extent<1>(e0), av) {}
  template <int M = N, typename = std::enable_if_t<M == 2>>
  array(int e0, int e1, const accelerator_view& av) : array(hipamp::extent<2>(e0, e1), av) {}
  template <int M = N, typename = std::enable_if_t<M == 3>>
  array(int e0, int e1, int e2, const accelerator_view& av)
      : array(hipamp::extent<3>(e0, e1, e2), av) {}
  // Staging arrays of C++ AMP: hipamp places the array on `av`; the association is reported
  // (get_associated_accelerator_view) and changes nothing else.
  array(const hipamp::extent<N>& ext, const accelerator_view& av,
        const accelerator_view& associated)
      : array(ext, av) {
    associated_ = staging_association(av, associated);
  }

  // Filled from an iterator range holding at least ext.size() elements.
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first, InputIt last)
      : array(ext, first, last, accelerator().get_default_view()) {}
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first, InputIt last, const accelerator_view& av)
      : array(ext, av) {
    fill_from(first, last);
  }
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first)
      : array(ext, first, accelerator().get_default_view()) {}
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first, const accelerator_view& av) : array(ext, av) {
    fill_from(first, std::next(first, static_cast<std::ptrdiff_t>(detail::element_count(ext))));
  }
  // The same with the extent spelled as integers (C++ AMP 1.2, 5.1.1).
#define HIPAMP_ARRAY_ITERATOR_CTORS(R, PARAMS, ARGS)                                          \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                    \
            typename = typename std::iterator_traits<InputIt>::iterator_category>             \
  array(PARAMS, InputIt first, InputIt last) : array(hipamp::extent<R>(ARGS), first, last) {} \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                    \
            typename = typename std::iterator_traits<InputIt>::iterator_category>             \
  array(PARAMS, InputIt first, InputIt last, const accelerator_view& av)                      \
      : array(hipamp::extent<R>(ARGS), first, last, av) {}                                    \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                    \
            typename = typename std::iterator_traits<InputIt>::iterator_category>             \
  array(PARAMS, InputIt first) : array(hipamp::extent<R>(ARGS), first) {}                     \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                    \
            typename = typename std::iterator_traits<InputIt>::iterator_category>             \
  array(PARAMS, InputIt first, const accelerator_view& av)                                    \
      : array(hipamp::extent<R>(ARGS), first, av) {}
#define HIPAMP_COMMA ,
  HIPAMP_ARRAY_ITERATOR_CTORS(1, int e0, e0)
  HIPAMP_ARRAY_ITERATOR_CTORS(2, int e0 HIPAMP_COMMA int e1, e0 HIPAMP_COMMA e1)
  HIPAMP_ARRAY_ITERATOR_CTORS(3, int e0 HIPAMP_COMMA int e1 HIPAMP_COMMA int e2,
                              e0 HIPAMP_COMMA e1 HIPAMP_COMMA e2)
#undef HIPAMP_COMMA
#undef HIPAMP_ARRAY_ITERATOR_CTORS

  // The CPU access type of C++ AMP's shared-memory arrays. hipamp's coherence directory makes
  // host access correct for every array, so the type only changes what get_cpu_access_type()
  // and data() report, except that access_type_none forbids host access (C++ AMP 1.2, 5.1:
  // operator[] and operator() throw on the host). access_type_auto takes the accelerator's
  // default (accelerator::set_default_cpu_access_type), as C++ AMP resolves it.
  array(const hipamp::extent<N>& ext, const accelerator_view& av, access_type cpu_access)
      : array(ext, av) {
    cpu_access_ = resolve(av, cpu_access);
  }
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first, InputIt last, const accelerator_view& av,
        access_type cpu_access)
      : array(ext, first, last, av) {
    cpu_access_ = resolve(av, cpu_access);
  }
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first, const accelerator_view& av,
        access_type cpu_access)
      : array(ext, first, av) {
    cpu_access_ = resolve(av, cpu_access);
  }
  // Staging arrays filled from iterators; placed on `av`, as the other staging constructor.
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first, InputIt last, const accelerator_view& av,
        const accelerator_view& associated)
      : array(ext, first, last, av) {
    associated_ = staging_association(av, associated);
  }
  template <class InputIt, typename = typename std::iterator_traits<InputIt>::iterator_category>
  array(const hipamp::extent<N>& ext, InputIt first, const accelerator_view& av,
        const accelerator_view& associated)
      : array(ext, first, av) {
    associated_ = staging_association(av, associated);
  }

  // The rest of C++ AMP 1.2's constructors (5.1.1) with the extent spelled as integers: with a
  // CPU access type, and staging arrays (the association ignored, as above).
#define HIPAMP_ARRAY_PLACED_CTORS(R, PARAMS, ARGS)                                               \
  template <int M = N, typename = std::enable_if_t<M == R>>                                      \
  array(PARAMS, const accelerator_view& av, access_type cpu_access)                              \
      : array(hipamp::extent<R>(ARGS), av, cpu_access) {}                                        \
  template <int M = N, typename = std::enable_if_t<M == R>>                                      \
  array(PARAMS, const accelerator_view& av, const accelerator_view& associated)                  \
      : array(hipamp::extent<R>(ARGS), av, associated) {}                                        \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                       \
            typename = typename std::iterator_traits<InputIt>::iterator_category>                \
  array(PARAMS, InputIt first, InputIt last, const accelerator_view& av, access_type cpu_access) \
      : array(hipamp::extent<R>(ARGS), first, last, av, cpu_access) {}                           \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                       \
            typename = typename std::iterator_traits<InputIt>::iterator_category>                \
  array(PARAMS, InputIt first, const accelerator_view& av, access_type cpu_access)               \
      : array(hipamp::extent<R>(ARGS), first, av, cpu_access) {}                                 \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                       \
            typename = typename std::iterator_traits<InputIt>::iterator_category>                \
  array(PARAMS, InputIt first, InputIt last, const accelerator_view& av,                         \
        const accelerator_view& associated)                                                      \
      : array(hipamp::extent<R>(ARGS), first, last, av, associated) {}                           \
  template <class InputIt, int M = N, typename = std::enable_if_t<M == R>,                       \
            typename = typename std::iterator_traits<InputIt>::iterator_category>                \
  array(PARAMS, InputIt first, const accelerator_view& av, const accelerator_view& associated)   \
      : array(hipamp::extent<R>(ARGS), first, av, associated) {}
#define HIPAMP_COMMA ,
  HIPAMP_ARRAY_PLACED_CTORS(1, int e0, e0)
  HIPAMP_ARRAY_PLACED_CTORS(2, int e0 HIPAMP_COMMA int e1, e0 HIPAMP_COMMA e1)
  HIPAMP_ARRAY_PLACED_CTORS(3, int e0 HIPAMP_COMMA int e1 HIPAMP_COMMA int e2,
                            e0 HIPAMP_COMMA e1 HIPAMP_COMMA e2)
#undef HIPAMP_COMMA
#undef HIPAMP_ARRAY_PLACED_CTORS

  // A copy of a view's data, on `av`.
  explicit array(const array_view<const T, N>& source)
      : array(source, accelerator().get_default_view()) {}
  array(const array_view<const T, N>& source, const accelerator_view& av)
      : array(source.extent, av) {
    source.copy_to(view_);
  }
  array(const array_view<const T, N>& source, const accelerator_view& av, access_type cpu_access)
      : array(source, av) {
    cpu_access_ = resolve(av, cpu_access);
  }
  array(const array_view<const T, N>& source, const accelerator_view& av,
        const accelerator_view& associated)
      : array(source, av) {
    associated_ = staging_association(av, associated);
  }

  // Deep copy, on the same accelerator_view.
  array(const array& other) : array(other.extent, other.av_) {
    if (detail::launch_scope::current() != nullptr) {
      throw runtime_exception(
          "hipamp: an array was captured by value in a kernel; capture it through an array_view "
          "(or by reference, on the CPU device only), as C++ AMP requires");
    }
    other.view_.copy_to(view_);
    cpu_access_ = other.cpu_access_;
    associated_ = other.associated_;
  }
  array(array&& other) noexcept = default;
  // Deep copy of the array an array_ref (kernel_handle) stands for; without it the handle's
  // conversions to array& and to array_view would make `array b(a)` ambiguous.
  template <class U, typename = std::enable_if_t<std::is_same<std::remove_const_t<U>, T>::value>>
  array(const array_ref<U, N>& other) : array(other.get_array()) {}  // NOLINT: as a copy
  array& operator=(const array& other) {
    if (this != &other) {
      array copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  array& operator=(array&& other) noexcept = default;
  template <class U, typename = std::enable_if_t<std::is_same<std::remove_const_t<U>, T>::value>>
  array& operator=(const array_ref<U, N>& other) {
    return *this = other.get_array();
  }
  array& operator=(const array_view<const T, N>& source) {
    array copy(source, av_);
    return *this = std::move(copy);
  }
  ~array() = default;

  hipamp::extent<N> get_extent() const noexcept { return extent; }
  // Read-only properties: accelerator_view's assignment takes lvalues only, so
  // `a.get_accelerator_view() = v` does not compile, while `.wait()` on the result does.
  accelerator_view get_accelerator_view() const { return av_; }
  // A staging array's associated accelerator_view; for the others, the array's own.
  accelerator_view get_associated_accelerator_view() const { return associated_; }
  access_type get_cpu_access_type() const noexcept {
    if (cpu_access_ != access_type_auto) {
      return cpu_access_;
    }
    // The runtime's choice, as accelerator::get_default_cpu_access_type reports it: memory
    // shared with the host (the CPU device) is read-write; the others' arrays are not.
    return av_.queue_ptr()->device().properties().supports_cpu_shared_memory
               ? access_type_read_write
               : access_type_none;
  }

  // Host access copies the array's data to the host first if it lives on a GPU.
  T& operator[](const index<N>& idx) { return element(idx); }
  const T& operator[](const index<N>& idx) const { return element(idx); }
  T& operator()(const index<N>& idx) { return element(idx); }
  const T& operator()(const index<N>& idx) const { return element(idx); }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  T& operator()(int i0) {
    return element(index<1>(i0));
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  const T& operator()(int i0) const {
    return element(index<1>(i0));
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  T& operator()(int i0, int i1) {
    return element(index<2>(i0, i1));
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  const T& operator()(int i0, int i1) const {
    return element(index<2>(i0, i1));
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  T& operator()(int i0, int i1, int i2) {
    return element(index<3>(i0, i1, i2));
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  const T& operator()(int i0, int i1, int i2) const {
    return element(index<3>(i0, i1, i2));
  }
  // Rank > 1: operator()(int) projects, as operator[](int) does (C++ AMP 1.2, 5.1.4).
  template <int M = N>
  std::enable_if_t<(M > 1), array_view<T, N - 1>> operator()(int i) {
    return view_[i];
  }
  template <int M = N>
  std::enable_if_t<(M > 1), array_view<const T, N - 1>> operator()(int i) const {
    return const_view()[i];
  }
  template <int M = N>
  std::enable_if_t<M == 1, T&> operator[](int i) {
    return element(index<1>(i));
  }
  template <int M = N>
  std::enable_if_t<M == 1, const T&> operator[](int i) const {
    return element(index<1>(i));
  }
  template <int M = N>
  std::enable_if_t<(M > 1), array_view<T, N - 1>> operator[](int i) {
    return view_[i];
  }
  template <int M = N>
  std::enable_if_t<(M > 1), array_view<const T, N - 1>> operator[](int i) const {
    return const_view()[i];
  }

  // C++ AMP 1.2 (5.1.3): on the host, data() is NULL for an array made with
  // access_type_none (kernels still get the pointer). hipamp keeps host access through
  // operator[] working for every array; only the pointer follows the rule.
  T* data() { return host_inaccessible() ? nullptr : view_.data(); }
  const T* data() const { return host_inaccessible() ? nullptr : const_view().data(); }

  array_view<T, N> section(const index<N>& origin, const hipamp::extent<N>& ext) {
    return view_.section(origin, ext);
  }
  array_view<const T, N> section(const index<N>& origin, const hipamp::extent<N>& ext) const {
    return const_view().section(origin, ext);
  }
  array_view<T, N> section(const index<N>& origin) { return view_.section(origin); }
  array_view<const T, N> section(const index<N>& origin) const {
    return const_view().section(origin);
  }
  array_view<T, N> section(const hipamp::extent<N>& ext) { return view_.section(ext); }
  array_view<const T, N> section(const hipamp::extent<N>& ext) const {
    return const_view().section(ext);
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  array_view<T, N> section(int i0, int e0) {
    return view_.section(i0, e0);
  }
  template <int M = N, typename = std::enable_if_t<M == 1>>
  array_view<const T, N> section(int i0, int e0) const {
    return const_view().section(i0, e0);
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  array_view<T, N> section(int i0, int i1, int e0, int e1) {
    return view_.section(i0, i1, e0, e1);
  }
  template <int M = N, typename = std::enable_if_t<M == 2>>
  array_view<const T, N> section(int i0, int i1, int e0, int e1) const {
    return const_view().section(i0, i1, e0, e1);
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  array_view<T, N> section(int i0, int i1, int i2, int e0, int e1, int e2) {
    return view_.section(i0, i1, i2, e0, e1, e2);
  }
  template <int M = N, typename = std::enable_if_t<M == 3>>
  array_view<const T, N> section(int i0, int i1, int i2, int e0, int e1, int e2) const {
    return const_view().section(i0, i1, i2, e0, e1, e2);
  }
  template <int K>
  array_view<T, K> view_as(const hipamp::extent<K>& ext) {
    return view_.template reshape<K>(ext);
  }
  template <int K>
  array_view<const T, K> view_as(const hipamp::extent<K>& ext) const {
    return const_view().template reshape<K>(ext);
  }
  template <class U>
  array_view<U, 1> reinterpret_as() {
    return view_.template reshape<1>(hipamp::extent<1>(static_cast<int>(extent.size())))
        .template reinterpret_as<U>();
  }
  template <class U>
  array_view<const U, 1> reinterpret_as() const {
    return const_view()
        .template reshape<1>(hipamp::extent<1>(static_cast<int>(extent.size())))
        .template reinterpret_as<const U>();
  }

  void copy_to(array& dest) const { const_view().copy_to(dest.view_); }
  void copy_to(const array_view<T, N>& dest) const { const_view().copy_to(dest); }

  operator std::vector<T>() const {  // NOLINT: implicit as in C++ AMP 1.2
    array_view<const T, N> v = const_view();
    v.synchronize();
    const T* p = v.data();
    return std::vector<T>(p, p + detail::element_count(extent));
  }

 private:
  static array_view<T, N> make_storage(const hipamp::extent<N>& ext, const accelerator_view& av) {
    detail::check_positive_extent(ext, "array");
    array_view<T, N> v;
    v.extent = ext;
    v.src_ = detail::source_ref(
        detail::data_source::create_owned(av.queue_ptr(), detail::element_count(ext) * sizeof(T)));
    v.init_dense(0);
    return v;
  }
  template <class InputIt>
  void fill_from(InputIt first, InputIt last) {
    // C++ AMP throws for a range longer than the array (its copy cannot store the rest);
    // a shorter one would leave elements unset, so both are errors here.
    const auto available = std::distance(first, last);
    if (available != static_cast<std::ptrdiff_t>(detail::element_count(extent))) {
      throw runtime_exception("hipamp: array of extent " + detail::to_string(extent) + " needs " +
                              std::to_string(detail::element_count(extent)) +
                              " elements but the iterator range holds " +
                              std::to_string(available));
    }
    view_.discard_data(detail::overwrite_all{});
    T* host = view_.data();
    for (std::size_t i = 0, n = detail::element_count(extent); i < n; ++i, ++first)
      host[i] = *first;
  }
  array_view<const T, N> const_view() const { return view_; }
  // C++ AMP 1.2 (5.1.1): only an array on the CPU accelerator is a staging array, associated
  // with another view; on any other accelerator the association is the array's own view (the
  // suite's associated_accvl_view Test.02 and Test.03).
  static accelerator_view staging_association(const accelerator_view& av,
                                              const accelerator_view& associated) {
    return av.get_accelerator().get_device_path() == accelerator::cpu_accelerator ? associated : av;
  }
  // access_type_auto becomes the accelerator's default if one was set; left as auto, the
  // runtime's own choice (get_cpu_access_type) applies.
  static access_type resolve(const accelerator_view& av, access_type requested) noexcept {
    if (requested != access_type_auto) return requested;
    return av.queue_ptr()->device().default_cpu_access.load(std::memory_order_relaxed);
  }
  // Element access from host code (or from a kernel on the CPU device, which captures the
  // array by reference): host code may not touch an access_type_none array, except on the CPU
  // device. That device is C++ AMP's cpu_accelerator, whose arrays are host memory that host
  // code indexes whatever their access type (the suite's copy tests do); data() still
  // follows the type there.
  T& element(const index<N>& idx) const {
    if (host_inaccessible() && !on_cpu_accelerator()) {
      throw runtime_exception("hipamp: host access to element " + detail::to_string(idx) +
                              " of an array made with access_type_none; C++ AMP keeps such an "
                              "array's data on its accelerator only (read it through an "
                              "array_view, or copy it out)");
    }
    return view_.checked_element(idx);
  }
  bool on_cpu_accelerator() const noexcept {
    const detail::device_impl& device = av_.queue_ptr()->device();
    return device.aliases_host_memory() && !device.properties().is_reference;
  }
  bool host_inaccessible() const noexcept {
    return cpu_access_ == access_type_none && !detail::running_cpu_kernel;
  }

  array_view<T, N> view_;
  accelerator_view av_;
  accelerator_view associated_;                // the staging constructors' association; else av_
  access_type cpu_access_ = access_type_auto;  // as constructed; see get_cpu_access_type()
};

}  // namespace hipamp
