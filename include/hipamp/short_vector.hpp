// Short vector types of C++ AMP's concurrency::graphics (C++ AMP 1.2, chapter 10.8):
// float_2/3/4, double_2/3/4, int_2/3/4, uint_2/3/4, norm_2/3/4 and unorm_2/3/4, the scalar
// types norm and unorm, and the traits short_vector<T, N> and short_vector_traits<T>. Every
// member is usable in kernels on every device.
//
// Where standard C++ differs from Microsoft's dialect:
//  - C++ AMP's components and swizzles are properties (`v.x`, `v.xy = ...`). Here x, y, z, w are
//    plain data members, and each swizzle is a getter `v.xy()` (also `v.get_xy()`), a setter
//    `v.set_xy(u)`, and, for single components, `get_r()`, `set_r()`, `ref_r()`, `ref_x()`.
//  - `float_4 v;` leaves the components uninitialised, as CUDA's float4 does, so that the types
//    can live in tile_static memory on a GPU (nvcc rejects __shared__ variables whose type has a
//    non-empty default constructor). `float_4()` and `float_4 v{}` are zero, as in C++ AMP.
//  - Besides C++ AMP's vector-vector operators, vector-scalar and scalar-vector forms exist.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <hipamp/config.hpp>

namespace hipamp::graphics {

using uint = unsigned int;

namespace detail {

// NaN becomes 0, as in a GPU's UNORM/SNORM conversion.
HIPAMP_HOST_DEVICE constexpr float clamp_to(float value, float lo, float hi) noexcept {
  return value > lo ? (value < hi ? value : hi) : (value <= lo ? lo : 0.0f);
}

}  // namespace detail

namespace detail {

// C++ AMP's clamped floats, unorm ([0, 1]) and norm ([-1, 1]): the value, its constructors
// from the arithmetic types, and the arithmetic, in one place. Every construction clamps, so
// every arithmetic result does too (each makes a new Derived from a float). `Low` is the lower
// bound; the upper one is 1 for both.
template <class Derived, int Low>
class clamped_float {
 public:
  HIPAMP_HOST_DEVICE constexpr clamped_float() noexcept : value_(0.0f) {}
  HIPAMP_HOST_DEVICE explicit constexpr clamped_float(float v) noexcept
      : value_(clamp_to(v, static_cast<float>(Low), 1.0f)) {}
  HIPAMP_HOST_DEVICE explicit constexpr clamped_float(double v) noexcept
      : value_(clamp_to(static_cast<float>(v), static_cast<float>(Low), 1.0f)) {}
  HIPAMP_HOST_DEVICE explicit constexpr clamped_float(int v) noexcept
      : value_(clamp_to(static_cast<float>(v), static_cast<float>(Low), 1.0f)) {}
  HIPAMP_HOST_DEVICE explicit constexpr clamped_float(unsigned int v) noexcept
      : value_(clamp_to(static_cast<float>(v), static_cast<float>(Low), 1.0f)) {}
  HIPAMP_HOST_DEVICE constexpr operator float() const noexcept { return value_; }  // NOLINT

#define HIPAMP_NORM_COMPOUND(op)                                                         \
  HIPAMP_HOST_DEVICE constexpr Derived& operator op##=(const Derived& rhs) noexcept {    \
    return self() = Derived(value_ op static_cast<float>(rhs));                          \
  }                                                                                      \
  HIPAMP_HOST_DEVICE friend constexpr Derived operator op(Derived lhs,                   \
                                                          const Derived& rhs) noexcept { \
    return lhs op## = rhs;                                                               \
  }
  HIPAMP_NORM_COMPOUND(+)
  HIPAMP_NORM_COMPOUND(-)
  HIPAMP_NORM_COMPOUND(*)
  HIPAMP_NORM_COMPOUND(/)
#undef HIPAMP_NORM_COMPOUND
  HIPAMP_HOST_DEVICE constexpr Derived& operator++() noexcept {
    return self() = Derived(value_ + 1);
  }
  HIPAMP_HOST_DEVICE constexpr Derived& operator--() noexcept {
    return self() = Derived(value_ - 1);
  }
  HIPAMP_HOST_DEVICE constexpr Derived operator++(int) noexcept {
    const Derived old = self();
    ++*this;
    return old;
  }
  HIPAMP_HOST_DEVICE constexpr Derived operator--(int) noexcept {
    const Derived old = self();
    --*this;
    return old;
  }

 private:
  HIPAMP_HOST_DEVICE constexpr Derived& self() noexcept { return static_cast<Derived&>(*this); }
  HIPAMP_HOST_DEVICE constexpr const Derived& self() const noexcept {
    return static_cast<const Derived&>(*this);
  }
  float value_;
};

}  // namespace detail

// A float held in [0, 1]: every construction and every arithmetic result is clamped.
class unorm : public detail::clamped_float<unorm, 0> {
 public:
  using clamped_float::clamped_float;
};

// A float held in [-1, 1]; every unorm is a norm.
class norm : public detail::clamped_float<norm, -1> {
 public:
  using clamped_float::clamped_float;
  HIPAMP_HOST_DEVICE constexpr norm(const unorm& v) noexcept  // NOLINT: lossless, as in C++ AMP
      : clamped_float(static_cast<float>(v)) {}
  HIPAMP_HOST_DEVICE constexpr norm operator-() const noexcept {
    // Not `return {...}`: the float constructor is explicit.
    return norm(-static_cast<float>(*this));  // NOLINT(modernize-return-braced-init-list)
  }
};

namespace detail {

// The component storage: named data members, so `v.x = 1` works as in C++ AMP.
template <class T, int N>
struct vector_components;

// 2- and 4-vectors are aligned like CUDA's float2/float4 (up to 16 bytes), so a GPU loads one
// with a single vector load.
template <class T, int N>
constexpr std::size_t vector_alignment = N == 3 ? alignof(T)
                                                : (sizeof(T) * N < 16 ? sizeof(T) * N : 16);

template <class T>
struct alignas(vector_alignment<T, 2>) vector_components<T, 2> {
  T x, y;
  vector_components() noexcept = default;  // trivial: allowed in tile_static memory
  HIPAMP_HOST_DEVICE constexpr vector_components(T x0, T y0) noexcept : x(x0), y(y0) {}
};
template <class T>
struct vector_components<T, 3> {
  T x, y, z;
  vector_components() noexcept = default;  // trivial: allowed in tile_static memory
  HIPAMP_HOST_DEVICE constexpr vector_components(T x0, T y0, T z0) noexcept : x(x0), y(y0), z(z0) {}
};
template <class T>
struct alignas(vector_alignment<T, 4>) vector_components<T, 4> {
  T x, y, z, w;
  vector_components() noexcept = default;  // trivial: allowed in tile_static memory
  HIPAMP_HOST_DEVICE constexpr vector_components(T x0, T y0, T z0, T w0) noexcept
      : x(x0), y(y0), z(z0), w(w0) {}
};

template <class T>
struct any_component : std::true_type {};
template <class T>
struct is_bitwise_component
    : std::bool_constant<std::is_same<T, int>::value || std::is_same<T, unsigned int>::value> {};
template <class T>
struct is_signed_component
    : std::bool_constant<!std::is_same<T, unsigned int>::value && !std::is_same<T, unorm>::value> {
};

}  // namespace detail

template <class T, int N>
class basic_short_vector : public detail::vector_components<T, N> {
  static_assert(N >= 2 && N <= 4, "hipamp: short vectors have 2, 3 or 4 components");
  using components = detail::vector_components<T, N>;
  using sequence = std::make_index_sequence<N>;

 public:
  using value_type = T;
  static constexpr int size = N;

  using components::components;  // (x, y), (x, y, z) or (x, y, z, w)
  basic_short_vector() noexcept = default;
  // Every component set to v. Implicit, as in C++ AMP 1.2 (10.8: `int_4(int value)`), so
  // `int_4 x = 7;` and std::generate's `*it = rand()` compile; only the conversions between
  // component types are explicit.
  HIPAMP_HOST_DEVICE constexpr basic_short_vector(T v) noexcept : components{} {  // NOLINT
    each([&](auto i) { component<i>() = v; });
  }
  // Between component types, as C++ AMP's explicit conversions (static_cast per component).
  template <class U, typename = std::enable_if_t<!std::is_same<U, T>::value>>
  HIPAMP_HOST_DEVICE explicit constexpr basic_short_vector(
      const basic_short_vector<U, N>& other) noexcept
      : components{} {
    each([&](auto i) { component<i>() = static_cast<T>(other.template component<i>()); });
  }

  // Component I (0 = x, 1 = y, 2 = z, 3 = w); a compile error where the vector has no such one.
  template <int I>
  HIPAMP_HOST_DEVICE constexpr T& component() noexcept {
    static_assert(I >= 0 && I < N, "hipamp: this short vector has no such component");
    if constexpr (I == 0) {
      return this->x;
    } else if constexpr (I == 1) {
      return this->y;
    } else if constexpr (I == 2) {
      return this->z;
    } else {
      return this->w;
    }
  }
  template <int I>
  HIPAMP_HOST_DEVICE constexpr const T& component() const noexcept {
    return const_cast<basic_short_vector&>(*this).template component<I>();
  }

  // ---- arithmetic (component-wise) ------------------------------------------------------
#define HIPAMP_SHORT_VECTOR_OPERATOR(op, enabled)                                            \
  template <class U = T, std::enable_if_t<enabled<U>::value, int> = 0>                       \
  HIPAMP_HOST_DEVICE constexpr basic_short_vector& operator op##=(                           \
      const basic_short_vector& rhs) noexcept {                                              \
    each([&](auto i) { component<i>() op## = rhs.template component<i>(); });                \
    return *this;                                                                            \
  }                                                                                          \
  template <class U = T, std::enable_if_t<enabled<U>::value, int> = 0>                       \
  HIPAMP_HOST_DEVICE constexpr basic_short_vector& operator op##=(T rhs) noexcept {          \
    return *this op## = basic_short_vector(rhs);                                             \
  }                                                                                          \
  template <class U = T, std::enable_if_t<enabled<U>::value, int> = 0>                       \
  HIPAMP_HOST_DEVICE friend constexpr basic_short_vector operator op(                        \
      basic_short_vector lhs, const basic_short_vector& rhs) noexcept {                      \
    return lhs op## = rhs;                                                                   \
  }                                                                                          \
  template <class U = T, std::enable_if_t<enabled<U>::value, int> = 0>                       \
  HIPAMP_HOST_DEVICE friend constexpr basic_short_vector operator op(basic_short_vector lhs, \
                                                                     T rhs) noexcept {       \
    return lhs op## = basic_short_vector(rhs);                                               \
  }                                                                                          \
  template <class U = T, std::enable_if_t<enabled<U>::value, int> = 0>                       \
  HIPAMP_HOST_DEVICE friend constexpr basic_short_vector operator op(                        \
      T lhs, const basic_short_vector& rhs) noexcept {                                       \
    return basic_short_vector(lhs) op## = rhs;                                               \
  }

  HIPAMP_SHORT_VECTOR_OPERATOR(+, detail::any_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(-, detail::any_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(*, detail::any_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(/, detail::any_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(%, detail::is_bitwise_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(&, detail::is_bitwise_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(|, detail::is_bitwise_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(^, detail::is_bitwise_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(<<, detail::is_bitwise_component)
  HIPAMP_SHORT_VECTOR_OPERATOR(>>, detail::is_bitwise_component)
#undef HIPAMP_SHORT_VECTOR_OPERATOR

  template <class U = T, std::enable_if_t<detail::is_signed_component<U>::value, int> = 0>
  HIPAMP_HOST_DEVICE constexpr basic_short_vector operator-() const noexcept {
    basic_short_vector out{};
    each([&](auto i) { out.template component<i>() = -component<i>(); });
    return out;
  }
  template <class U = T, std::enable_if_t<detail::is_bitwise_component<U>::value, int> = 0>
  HIPAMP_HOST_DEVICE constexpr basic_short_vector operator~() const noexcept {
    basic_short_vector out{};
    each([&](auto i) { out.template component<i>() = ~component<i>(); });
    return out;
  }
  HIPAMP_HOST_DEVICE constexpr basic_short_vector& operator++() noexcept {
    each([&](auto i) { ++component<i>(); });
    return *this;
  }
  HIPAMP_HOST_DEVICE constexpr basic_short_vector& operator--() noexcept {
    each([&](auto i) { --component<i>(); });
    return *this;
  }
  HIPAMP_HOST_DEVICE constexpr basic_short_vector operator++(int) noexcept {
    const basic_short_vector old = *this;
    ++*this;
    return old;
  }
  HIPAMP_HOST_DEVICE constexpr basic_short_vector operator--(int) noexcept {
    const basic_short_vector old = *this;
    --*this;
    return old;
  }

  // Equal when every component is (C++ AMP's ==/!= return one bool).
  HIPAMP_HOST_DEVICE friend constexpr bool operator==(const basic_short_vector& a,
                                                      const basic_short_vector& b) noexcept {
    bool equal = true;
    a.each(
        [&](auto i) { equal = equal && a.template component<i>() == b.template component<i>(); });
    return equal;
  }
  HIPAMP_HOST_DEVICE friend constexpr bool operator!=(const basic_short_vector& a,
                                                      const basic_short_vector& b) noexcept {
    return !(a == b);
  }

  // ---- single components under C++ AMP's accessor names --------------------------------
#define HIPAMP_SHORT_VECTOR_COMPONENT(xyzw, rgba, i)                                    \
  HIPAMP_HOST_DEVICE constexpr T get_##xyzw() const noexcept { return component<i>(); } \
  HIPAMP_HOST_DEVICE constexpr void set_##xyzw(T v) noexcept { component<i>() = v; }    \
  HIPAMP_HOST_DEVICE constexpr T& ref_##xyzw() noexcept { return component<i>(); }      \
  HIPAMP_HOST_DEVICE constexpr T get_##rgba() const noexcept { return component<i>(); } \
  HIPAMP_HOST_DEVICE constexpr void set_##rgba(T v) noexcept { component<i>() = v; }    \
  HIPAMP_HOST_DEVICE constexpr T& ref_##rgba() noexcept { return component<i>(); }
  HIPAMP_SHORT_VECTOR_COMPONENT(x, r, 0)
  HIPAMP_SHORT_VECTOR_COMPONENT(y, g, 1)
  HIPAMP_SHORT_VECTOR_COMPONENT(z, b, 2)
  HIPAMP_SHORT_VECTOR_COMPONENT(w, a, 3)
#undef HIPAMP_SHORT_VECTOR_COMPONENT

  // ---- swizzles: C++ AMP has every ordered selection of distinct components ------------
  // (v.xy() == v.get_xy() == float_2(v.x, v.y); v.set_zx(u) sets z = u.x, x = u.y).
#define HIPAMP_SHORT_VECTOR_SWIZZLE(xyzw, rgba, ...)                                               \
  HIPAMP_HOST_DEVICE constexpr auto xyzw() const noexcept { return swizzle<__VA_ARGS__>(); }       \
  HIPAMP_HOST_DEVICE constexpr auto get_##xyzw() const noexcept { return swizzle<__VA_ARGS__>(); } \
  template <class V>                                                                               \
  HIPAMP_HOST_DEVICE constexpr void set_##xyzw(const V& v) noexcept {                              \
    set_swizzle<__VA_ARGS__>(v);                                                                   \
  }                                                                                                \
  HIPAMP_HOST_DEVICE constexpr auto rgba() const noexcept { return swizzle<__VA_ARGS__>(); }       \
  HIPAMP_HOST_DEVICE constexpr auto get_##rgba() const noexcept { return swizzle<__VA_ARGS__>(); } \
  template <class V>                                                                               \
  HIPAMP_HOST_DEVICE constexpr void set_##rgba(const V& v) noexcept {                              \
    set_swizzle<__VA_ARGS__>(v);                                                                   \
  }
  HIPAMP_SHORT_VECTOR_SWIZZLE(xy, rg, 0, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xz, rb, 0, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xw, ra, 0, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yx, gr, 1, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yz, gb, 1, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yw, ga, 1, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zx, br, 2, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zy, bg, 2, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zw, ba, 2, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wx, ar, 3, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wy, ag, 3, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wz, ab, 3, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xyz, rgb, 0, 1, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xyw, rga, 0, 1, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xzy, rbg, 0, 2, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xzw, rba, 0, 2, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xwy, rag, 0, 3, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xwz, rab, 0, 3, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yxz, grb, 1, 0, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yxw, gra, 1, 0, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yzx, gbr, 1, 2, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yzw, gba, 1, 2, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(ywx, gar, 1, 3, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(ywz, gab, 1, 3, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zxy, brg, 2, 0, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zxw, bra, 2, 0, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zyx, bgr, 2, 1, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zyw, bga, 2, 1, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zwx, bar, 2, 3, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zwy, bag, 2, 3, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wxy, arg, 3, 0, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wxz, arb, 3, 0, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wyx, agr, 3, 1, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wyz, agb, 3, 1, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wzx, abr, 3, 2, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wzy, abg, 3, 2, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xyzw, rgba, 0, 1, 2, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xywz, rgab, 0, 1, 3, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xzyw, rbga, 0, 2, 1, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xzwy, rbag, 0, 2, 3, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xwyz, ragb, 0, 3, 1, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(xwzy, rabg, 0, 3, 2, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yxzw, grba, 1, 0, 2, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yxwz, grab, 1, 0, 3, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yzxw, gbra, 1, 2, 0, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(yzwx, gbar, 1, 2, 3, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(ywxz, garb, 1, 3, 0, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(ywzx, gabr, 1, 3, 2, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zxyw, brga, 2, 0, 1, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zxwy, brag, 2, 0, 3, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zyxw, bgra, 2, 1, 0, 3)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zywx, bgar, 2, 1, 3, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zwxy, barg, 2, 3, 0, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(zwyx, bagr, 2, 3, 1, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wxyz, argb, 3, 0, 1, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wxzy, arbg, 3, 0, 2, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wyxz, agrb, 3, 1, 0, 2)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wyzx, agbr, 3, 1, 2, 0)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wzxy, abrg, 3, 2, 0, 1)
  HIPAMP_SHORT_VECTOR_SWIZZLE(wzyx, abgr, 3, 2, 1, 0)
#undef HIPAMP_SHORT_VECTOR_SWIZZLE

  // The components I... in that order, as a short vector (a scalar for one component).
  template <int... I>
  HIPAMP_HOST_DEVICE constexpr basic_short_vector<T, sizeof...(I)> swizzle() const noexcept {
    return basic_short_vector<T, sizeof...(I)>(component<I>()...);
  }
  template <int... I>
  HIPAMP_HOST_DEVICE constexpr void set_swizzle(
      const basic_short_vector<T, sizeof...(I)>& v) noexcept {
    v.each([&](auto j) { component<pick<j, I...>()>() = v.template component<j>(); });
  }

 private:
  template <class U, int M>
  friend class basic_short_vector;

  // Calls f(std::integral_constant<int, i>) for every component i: unrolled at compile time on
  // every device, and `component<i>()` takes the constant as its template argument.
  template <class F>
  HIPAMP_HOST_DEVICE constexpr void each(F&& f) const noexcept {
    each_impl(f, sequence{});
  }
  template <class F, std::size_t... I>
  HIPAMP_HOST_DEVICE static constexpr void each_impl(F& f, std::index_sequence<I...>) noexcept {
    (f(std::integral_constant<int, static_cast<int>(I)>{}), ...);
  }
  // The J-th of I...
  template <int J, int... I>
  HIPAMP_HOST_DEVICE static constexpr int pick() noexcept {
    constexpr int picked[] = {I...};
    return picked[J];
  }
};

// The C++ AMP names.
using float_2 = basic_short_vector<float, 2>;
using float_3 = basic_short_vector<float, 3>;
using float_4 = basic_short_vector<float, 4>;
using double_2 = basic_short_vector<double, 2>;
using double_3 = basic_short_vector<double, 3>;
using double_4 = basic_short_vector<double, 4>;
using int_2 = basic_short_vector<int, 2>;
using int_3 = basic_short_vector<int, 3>;
using int_4 = basic_short_vector<int, 4>;
using uint_2 = basic_short_vector<uint, 2>;
using uint_3 = basic_short_vector<uint, 3>;
using uint_4 = basic_short_vector<uint, 4>;
using norm_2 = basic_short_vector<norm, 2>;
using norm_3 = basic_short_vector<norm, 3>;
using norm_4 = basic_short_vector<norm, 4>;
using unorm_2 = basic_short_vector<unorm, 2>;
using unorm_3 = basic_short_vector<unorm, 3>;
using unorm_4 = basic_short_vector<unorm, 4>;

// short_vector<T, N>::type: T for N == 1, else the N-component vector of T.
template <class T, int N>
struct short_vector {
  static_assert(N >= 1 && N <= 4, "hipamp: short vectors have 1 to 4 components");
  using type = basic_short_vector<T, N>;
};
template <class T>
struct short_vector<T, 1> {
  using type = T;
};

// short_vector_traits<V>: value_type and size of a scalar (size 1) or short vector type.
template <class V>
struct short_vector_traits {
  static_assert(std::is_same<V, float>::value || std::is_same<V, double>::value ||
                    std::is_same<V, int>::value || std::is_same<V, unsigned int>::value ||
                    std::is_same<V, norm>::value || std::is_same<V, unorm>::value,
                "hipamp: short_vector_traits knows float, double, int, uint, norm, unorm and "
                "their short vectors");
  using value_type = V;
  static constexpr int size = 1;
};
template <class T, int N>
struct short_vector_traits<basic_short_vector<T, N>> {
  using value_type = T;
  static constexpr int size = N;
};

}  // namespace hipamp::graphics
