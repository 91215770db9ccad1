// C++ AMP's capture rules for parallel_for_each kernels, as ported code checks them.
//
// A C++ AMP compiler rejects a kernel lambda that captures by reference anything but an `array`
// or a `texture` (MSVC error C3590), that captures a pointer (C3596), or that captures an
// `array` or a `texture` by value (C3597), or a value of a class C++ AMP cannot copy to an
// accelerator (one with virtual functions; C3596/C3581). A library cannot see a lambda's
// captures, but tools/amp2hipamp.py sees the capture list and the declarations before the
// launch, and writes these checks into the block it already puts around a launch whose kernel
// captures arrays by reference:
//
//   { auto& hipamp_ref_n = n;
//     auto n =
//     hipamp::detail::forbid_capture<hipamp::detail::capture_rule::by_reference>(hipamp_ref_n);
//     static_assert(hipamp::detail::by_value_capture<decltype(p)>::ok, "C++ AMP capture rules");
//     parallel_for_each(e, [=] HIPAMP_RESTRICT (index<1> i) { ... n ... }); }
//
// The static_assert is for a name the capture list names (`[&, p]`): an explicit capture always
// captures, so checking its type is exact. For a name the kernel captures implicitly (`[&]`,
// `[=]`), the script cannot be sure that a use in the body is a capture (the body may declare
// its own `n`, or use it only in `sizeof`), so it shadows the variable with a forbidden_capture:
// it converts to a reference to the variable, so every use type-checks as before, and only
// copying it, which is what capturing it does, is the error (a default argument of its copy
// constructor instantiates the rule's static_assert at the lambda). A name the kernel does not
// capture leaves the shadow unused: nothing fails.
#pragma once

#include <type_traits>

#include <hipamp/array.hpp>
#include <hipamp/array_ref.hpp>
#include <hipamp/texture.hpp>

namespace hipamp::detail {

enum class capture_rule { by_reference, pointer, array_by_value };

template <capture_rule Rule>
struct capture_rule_broken {
  static_assert(Rule != capture_rule::by_reference,
                "C++ AMP: a parallel_for_each kernel may capture only an array or a texture by "
                "reference; this variable (not an array) is captured by reference: capture it by "
                "value (MSVC: error C3590)");
  static_assert(Rule != capture_rule::pointer,
                "C++ AMP: a parallel_for_each kernel cannot capture a pointer; capture an "
                "array_view or the array by reference (MSVC: error C3596)");
  static_assert(Rule != capture_rule::array_by_value,
                "C++ AMP: a parallel_for_each kernel cannot capture an array or a texture by "
                "value; capture it by reference or through an array_view (MSVC: error C3597)");
  static constexpr int value = 0;
};

// The shadow of a scalar or pointer variable (see above).
template <class T, capture_rule Rule>
class forbidden_capture {
 public:
  explicit forbidden_capture(T& x) noexcept : x_(&x) {}
  // Capturing copies: the default argument is instantiated at the lambda, and fails.
  forbidden_capture(const forbidden_capture& other, int = capture_rule_broken<Rule>::value) noexcept
      : x_(other.x_) {}
  forbidden_capture& operator=(const forbidden_capture&) = delete;
  operator T&() const noexcept { return *x_; }  // NOLINT: stands for the variable

 private:
  T* x_;
};

// The shadow of an array or a texture: its kernel_handle, so the body type-checks as the
// by-reference port would, with the copy that capturing makes forbidden.
template <class Handle, capture_rule Rule>
class forbidden_handle_capture : public Handle {
 public:
  explicit forbidden_handle_capture(const Handle& h) : Handle(h) {}
  forbidden_handle_capture(const forbidden_handle_capture& other,
                           int = capture_rule_broken<Rule>::value)
      : Handle(other) {}
  forbidden_handle_capture& operator=(const forbidden_handle_capture&) = delete;
};

template <class T>
struct is_array_or_texture : std::false_type {};
template <class T, int N>
struct is_array_or_texture<array<T, N>> : std::true_type {};
template <class T, int N>
struct is_array_or_texture<graphics::texture<T, N>> : std::true_type {};

template <capture_rule Rule, class T>
auto forbid_capture(T& x) {
  if constexpr (is_array_or_texture<std::remove_cv_t<T>>::value) {
    using handle = decltype(kernel_handle(x));
    return forbidden_handle_capture<handle, Rule>(kernel_handle(x));
  } else {
    return forbidden_capture<T, Rule>(x);
  }
}

// Rules on a kernel's code the script checks by reading it. Dependent names the types of the
// template the code lies in, if any: the check then waits for an instantiation, as MSVC's did.
enum class amp_code_rule { narrow_type, view_without_data_source, divergent_barrier };

template <amp_code_rule Rule, class... Dependent>
struct amp_code_rule_broken {
  static_assert(Rule != amp_code_rule::narrow_type,
                "C++ AMP: code in a kernel supports only the fundamental types int, unsigned int, "
                "long, unsigned long, bool, float and double (and classes of them); this kernel "
                "names char, short, long long or wchar_t (MSVC: error C3581)");
  static_assert(Rule != amp_code_rule::view_without_data_source,
                "C++ AMP: an array_view without a data source can be made only on the CPU, not "
                "in amp-restricted code (MSVC: error C3930)");
  static_assert(Rule != amp_code_rule::divergent_barrier,
                "C++ AMP: a tile barrier is waited on under control flow that depends on the "
                "work-item (its local or global index, or a value computed from them): every "
                "work-item of a tile must reach the same barriers (MSVC: error C3561); the porting "
                "tool's report names the barrier and the condition");
  static constexpr bool ok = true;
};

// A name a kernel's capture list copies explicitly (`[&, p]`, `[p]`): its type must be one C++
// AMP copies to an accelerator.
template <class Declared>
struct by_value_capture {
  using type = std::remove_cv_t<std::remove_reference_t<Declared>>;
  static_assert(!std::is_pointer<type>::value,
                "C++ AMP: a parallel_for_each kernel cannot capture a pointer; capture an "
                "array_view or the array by reference (MSVC: error C3596)");
  static_assert(!is_array_or_texture<type>::value,
                "C++ AMP: a parallel_for_each kernel cannot capture an array or a texture by "
                "value; capture it by reference or through an array_view (MSVC: error C3597)");
  static_assert(!std::is_polymorphic<type>::value,
                "C++ AMP: a parallel_for_each kernel cannot capture a value of a class with "
                "virtual functions (MSVC: error C3596)");
  static constexpr bool ok = true;
};

}  // namespace hipamp::detail
