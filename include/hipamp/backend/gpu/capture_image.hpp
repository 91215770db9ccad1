// The bound copy of an nvcc extended __host__ __device__ lambda, made without nvcc's heap copy.
//
// nvcc hands host code such a lambda as its wrapper, __nv_hdl_wrapper_t: the captures as fields
// f1..fN, which the device code reads, and `data`, a heap copy of the whole lambda, which only
// host calls use. Copying the wrapper (what a launch does, to bind every captured view to the
// GPU) therefore allocates a heap copy and copies every capture a second time, only to free it
// all after the launch: a GPU never calls the kernel object on the host. A capture image is the
// wrapper's bytes with each capture copy-constructed in its field, every copy constructor run as
// a real copy would run it (so views bind exactly as they do in a copy), and `data` null. It is
// used only where nothing can call or copy the object: the GPU room of parallel_for_each, which
// hands the kernel's bytes to the runtime by address (launch_by_address).
//
// nvcc documents the lambda's trait (__nv_is_extended_host_device_lambda_closure_type) but not
// the wrapper's members, so each kernel type's wrapper is checked once, at its first GPU launch
// (check_capture_layout): images are used only if f1..fN and `data` tile the wrapper with
// nothing but alignment padding between them, so that no other state of the wrapper's could
// reach the GPU. A later nvcc that adds to the wrapper keeps the real copy; one that renames its
// members is not recognised at all (tests/test_gpu_capture_image.cpp fails then, on purpose).
// HIPAMP_CAPTURE_IMAGE=0 turns images off.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include <hipamp/config.hpp>
#include <hipamp/detail/env_switch.hpp>

// In the GPU room's namespace, as the rest of backend/gpu/: only GPU units include it.
namespace hipamp::detail::gpu {

// Field I (1-based) of nvcc's wrapper W, where W has one.
template <class W, int I, class = void>
struct capture_field {
  static constexpr bool exists = false;
};
#define HIPAMP_CAPTURE_FIELD(I)                                                         \
  template <class W>                                                                    \
  struct capture_field<W, I, std::void_t<decltype(&W::f##I)>> {                         \
    static constexpr bool exists = true;                                                \
    using type = std::remove_reference_t<decltype(std::declval<W&>().f##I)>;            \
    static const type& of(const W& w) noexcept { return w.f##I; }                       \
    static std::size_t offset(const W& w) noexcept {                                    \
      return static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&w.f##I) - \
                                      reinterpret_cast<const unsigned char*>(&w));      \
    }                                                                                   \
  };
HIPAMP_CAPTURE_FIELD(1)
HIPAMP_CAPTURE_FIELD(2)
HIPAMP_CAPTURE_FIELD(3)
HIPAMP_CAPTURE_FIELD(4)
HIPAMP_CAPTURE_FIELD(5)
HIPAMP_CAPTURE_FIELD(6)
HIPAMP_CAPTURE_FIELD(7)
HIPAMP_CAPTURE_FIELD(8)
HIPAMP_CAPTURE_FIELD(9)
HIPAMP_CAPTURE_FIELD(10)
HIPAMP_CAPTURE_FIELD(11)
HIPAMP_CAPTURE_FIELD(12)
HIPAMP_CAPTURE_FIELD(13)
HIPAMP_CAPTURE_FIELD(14)
HIPAMP_CAPTURE_FIELD(15)
HIPAMP_CAPTURE_FIELD(16)
HIPAMP_CAPTURE_FIELD(17)
#undef HIPAMP_CAPTURE_FIELD

template <class W, class = void>
struct has_lambda_data : std::false_type {};
template <class W>
struct has_lambda_data<W, std::void_t<decltype(&W::data)>>
    : std::bool_constant<std::is_same<decltype(std::declval<W&>().data), void*>::value> {};

// The number of consecutive fields f1..fN (0 when f1 is missing).
template <class W, int I = 1>
constexpr int capture_field_count() {
  if constexpr (capture_field<W, I>::exists) {
    return capture_field_count<W, I + 1>();
  } else {
    return I - 1;
  }
}

// Whether a kernel object of type W can be bound as a capture image: nvcc's wrapper of an
// extended __host__ __device__ lambda with 1 to 16 captures and its heap copy in `data`.
template <class W>
constexpr bool capture_image_applies() {
#if defined(__CUDACC_EXTENDED_LAMBDA__) && !HIPAMP_DEVICE_COMPILE
  if constexpr (__nv_is_extended_host_device_lambda_closure_type(W)) {
    constexpr int fields = capture_field_count<W>();
    return fields >= 1 && fields <= 16 && has_lambda_data<W>::value;
  } else {
    return false;
  }
#else
  return false;
#endif
}

// HIPAMP_CAPTURE_IMAGE=0 turns images off (read once).
inline bool capture_images_allowed() {
  static const bool allowed = !env_switch_off("HIPAMP_CAPTURE_IMAGE");
  return allowed;
}

// The image of a kernel object w of type W (capture_image_applies<W>()): made while a launch
// scope is open, so each capture's copy binds as in a real copy. Owns its copies, which it
// destroys; never runs W's constructor or destructor.
template <class W>
class capture_image {
  static constexpr int fields = capture_field_count<W>();

 public:
  explicit capture_image(const W& w) {
    std::memset(bytes_, 0, sizeof(W));
    construct<1>(w);
  }
  capture_image(const capture_image&) = delete;
  capture_image& operator=(const capture_image&) = delete;
  ~capture_image() { destroy_from<fields>(); }

  // The object the GPU receives by address; nothing may call or copy it on the host.
  const W& get() const noexcept { return *std::launder(reinterpret_cast<const W*>(bytes_)); }
  // What detail::bind_as_and_run calls with the launch's run step.
  template <class Run>
  decltype(auto) run_with(const Run& run) const {
    return run(get());
  }

 private:
  template <int I>
  void construct(const W& w) {
    if constexpr (I <= fields) {
      using field = capture_field<W, I>;
      offsets_[I - 1] = field::offset(w);
      ::new (static_cast<void*>(bytes_ + offsets_[I - 1])) typename field::type(field::of(w));
      try {
        construct<I + 1>(w);
      } catch (...) {
        destroy_from<I>();
        throw;
      }
    }
  }
  // Destroys fields I, I-1, ..., 1.
  template <int I>
  void destroy_from() noexcept {
    if constexpr (I >= 1) {
      using type = typename capture_field<W, I>::type;
      std::destroy_at(std::launder(reinterpret_cast<type*>(bytes_ + offsets_[I - 1])));
      destroy_from<I - 1>();
    }
  }

  alignas(W) unsigned char bytes_[sizeof(W)];
  std::size_t offsets_[fields] = {};
};

// Per kernel type: 0 not checked yet, 1 the wrapper is laid out as expected (use images), 2 it
// is not (keep copying).
template <class W>
std::atomic<int>& capture_image_verdict() noexcept {
  static std::atomic<int> verdict{0};
  return verdict;
}

// Calls note(offset, size, alignment) for the fields f1..fN of w.
template <class W, class Note, int... I>
void note_capture_fields(const W& w, Note& note, std::integer_sequence<int, I...>) {
  (note(capture_field<W, I + 1>::offset(w), sizeof(typename capture_field<W, I + 1>::type),
        alignof(typename capture_field<W, I + 1>::type)),
   ...);
}

// Checked at a kernel type's first GPU launch, on the kernel object itself: the fields f1..fN
// and `data` tile the wrapper with nothing between them but alignment padding (each gap shorter
// than the next member's alignment, none before the first, the tail shorter than the wrapper's
// alignment), so no other state of the wrapper's can reach the GPU. A real copy is no reference
// to compare bytes with: the compiler may write padding bytes when it copies a view.
template <class W>
bool check_capture_layout(const W& w) {
  constexpr int fields = capture_field_count<W>();
  struct member {
    std::size_t offset;
    std::size_t size;
    std::size_t align;
  };
  member members[fields + 1] = {};
  std::size_t count = 0;
  auto note = [&](std::size_t offset, std::size_t size, std::size_t align) {
    members[count++] = member{offset, size, align};
  };
  note_capture_fields(w, note, std::make_integer_sequence<int, fields>{});
  note(static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&w.data) -
                                reinterpret_cast<const unsigned char*>(&w)),
       sizeof(void*), alignof(void*));
  std::sort(members, members + count,
            [](const member& x, const member& y) { return x.offset < y.offset; });
  std::size_t end = 0;
  bool tiled = true;
  for (std::size_t k = 0; k < count; ++k) {
    tiled = tiled && members[k].offset >= end && members[k].offset - end < members[k].align;
    end = members[k].offset + members[k].size;
  }
  tiled = tiled && end <= sizeof(W) && sizeof(W) - end < alignof(W);
  capture_image_verdict<W>().store(tiled ? 1 : 2, std::memory_order_release);
  return tiled;
}

}  // namespace hipamp::detail::gpu
