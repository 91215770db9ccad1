// Kernel math (C++ AMP 1.2, chapter 13.2): hipamp::fast_math (float, speed first) and
// hipamp::precise_math (float and double, accuracy first), usable in kernels on every device.
//
// Each function has C++ AMP's spellings: `sinf(float)`, `sin(float)` and, in precise_math,
// `sin(double)`. In the GPU device pass precise functions call the vendor's device math
// library and fast ones its fast intrinsics (__sinf, __expf, __logf, __powf, ...); on the
// host and the CPU device both call the C++ standard library (fast_math therefore is not
// less accurate there). Functions the standard lacks (sinpi, cospi, tanpi, erfinv,
// erfcinv, exp10, phi, rcbrt, rsqrt, scalb) are computed on the host in wider precision
// (float through double, double through long double where the conditioning needs it).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include <hipamp/config.hpp>

#if HIPAMP_DEVICE_COMPILE
#define HIPAMP_MATH_PICK(device_expr, host_expr) device_expr
#else
#define HIPAMP_MATH_PICK(device_expr, host_expr) host_expr
#endif

namespace hipamp {
namespace detail::math {

HIPAMP_HOST_DEVICE inline std::uint32_t bits_of(float x) noexcept {
#if HIPAMP_DEVICE_COMPILE
  return __float_as_uint(x);
#else
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}
HIPAMP_HOST_DEVICE inline std::uint64_t bits_of(double x) noexcept {
#if HIPAMP_DEVICE_COMPILE
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}

// IEEE classification from the bit pattern, so it holds under -ffast-math and on devices.
template <class T>
struct ieee;
template <>
struct ieee<float> {
  static constexpr int mantissa_bits = 23;
  static constexpr std::uint32_t exponent_mask = 0xffu;
};
template <>
struct ieee<double> {
  static constexpr int mantissa_bits = 52;
  static constexpr std::uint64_t exponent_mask = 0x7ffu;
};
template <class T>
HIPAMP_HOST_DEVICE inline int classify_exponent(T x) noexcept {
  return static_cast<int>((bits_of(x) >> ieee<T>::mantissa_bits) & ieee<T>::exponent_mask);
}
template <class T>
HIPAMP_HOST_DEVICE inline bool mantissa_zero(T x) noexcept {
  const auto b = bits_of(x);
  return (b & ((decltype(b){1} << ieee<T>::mantissa_bits) - 1)) == 0;
}
template <class T>
HIPAMP_HOST_DEVICE inline int is_finite(T x) noexcept {
  return classify_exponent(x) != static_cast<int>(ieee<T>::exponent_mask);
}
template <class T>
HIPAMP_HOST_DEVICE inline int is_inf(T x) noexcept {
  return !is_finite(x) && mantissa_zero(x);
}
template <class T>
HIPAMP_HOST_DEVICE inline int is_nan(T x) noexcept {
  return !is_finite(x) && !mantissa_zero(x);
}
template <class T>
HIPAMP_HOST_DEVICE inline int is_normal(T x) noexcept {
  return is_finite(x) && classify_exponent(x) != 0;
}
template <class T>
HIPAMP_HOST_DEVICE inline int sign_bit(T x) noexcept {
  return static_cast<int>(bits_of(x) >> (sizeof(T) * 8 - 1));
}

#if !HIPAMP_DEVICE_COMPILE
// Host implementations of what <cmath> lacks. `wide` is the precision they work in.
template <class T>
using wide = std::conditional_t<sizeof(T) < sizeof(double), double, long double>;

template <class W>
constexpr W pi_v = static_cast<W>(3.141592653589793238462643383279502884L);

// sin(pi x): the reduction x mod 2 is exact, so large arguments stay accurate.
template <class T>
T sinpi(T x) {
  using W = wide<T>;
  W r = std::remainder(static_cast<W>(x), W(2));  // exact, in [-1, 1]
  if (r > W(0.5)) {
    r = W(1) - r;  // exact (Sterbenz)
  } else if (r < W(-0.5)) {
    r = W(-1) - r;
  }
  return static_cast<T>(std::sin(pi_v<W> * r));
}
template <class T>
T cospi(T x) {
  using W = wide<T>;
  const W a = std::fabs(std::remainder(static_cast<W>(x), W(2)));  // [0, 1]
  if (a < W(0.25)) return static_cast<T>(std::cos(pi_v<W> * a));
  return static_cast<T>(std::sin(pi_v<W> * (W(0.5) - a)));  // 0.5 - a exact for a >= 0.25
}
template <class T>
T tanpi(T x) {
  using W = wide<T>;
  const W r = std::remainder(static_cast<W>(x), W(1));  // [-0.5, 0.5]
  return static_cast<T>(sinpi(r) / cospi(r));
}
template <class T>
T exp10(T x) {
  using W = wide<T>;
  return static_cast<T>(std::pow(W(10), static_cast<W>(x)));
}
template <class T>
T rsqrt(T x) {
  using W = wide<T>;
  return static_cast<T>(W(1) / std::sqrt(static_cast<W>(x)));
}
template <class T>
T rcbrt(T x) {
  using W = wide<T>;
  return static_cast<T>(W(1) / std::cbrt(static_cast<W>(x)));
}
// The standard normal distribution function.
template <class T>
T phi(T x) {
  using W = wide<T>;
  const W inv_sqrt2 = static_cast<W>(0.707106781186547524400844362104849039L);
  return static_cast<T>(W(0.5) * std::erfc(-static_cast<W>(x) * inv_sqrt2));
}

// Giles' single-precision approximation of erfinv, written with q = 1 - |y| given exactly so
// that the tails keep their accuracy (M. Giles, "Approximating the erfinv function", 2010).
inline long double erfinv_guess(long double q, long double sign) {
  const long double w = -std::log(q * (2.0L - q));
  long double p;
  if (w < 5.0L) {
    const long double v = w - 2.5L;
    p = 2.81022636e-08L;
    p = 3.43273939e-07L + p * v;
    p = -3.5233877e-06L + p * v;
    p = -4.39150654e-06L + p * v;
    p = 0.00021858087L + p * v;
    p = -0.00125372503L + p * v;
    p = -0.00417768164L + p * v;
    p = 0.246640727L + p * v;
    p = 1.50140941L + p * v;
  } else {
    const long double v = std::sqrt(w) - 3.0L;
    p = -0.000200214257L;
    p = 0.000100950558L + p * v;
    p = 0.00134934322L + p * v;
    p = -0.00367342844L + p * v;
    p = 0.00573950773L + p * v;
    p = -0.0076224613L + p * v;
    p = 0.00943887047L + p * v;
    p = 1.00167406L + p * v;
    p = 2.83297682L + p * v;
  }
  return sign * p * (1.0L - q);
}

long double erfinv_wide(long double y);

// x with erfc(x) = q for q in (0, 2): two Halley steps on erfc from Giles' guess (cubic
// convergence from ~4e-7 relative error). The residual erfc(x) - q keeps full relative
// precision in the tails where erf(x) - y would cancel.
inline long double erfcinv_wide(long double q) {
  if (!(q > 0.0L && q < 2.0L)) {
    if (q == 0.0L) return HUGE_VALL;
    if (q == 2.0L) return -HUGE_VALL;
    return std::nanl("");
  }
  // Near q = 1, x is small and erfc(x) - q would cancel: solve erf(x) = 1 - q (exact).
  if (q > 0.5L && q < 1.5L) return erfinv_wide(1.0L - q);
  if (q > 1.0L) return -erfcinv_wide(2.0L - q);
  const long double two_over_sqrt_pi = 1.128379167095512573896158903121545172L;
  long double x;
  if (q >= 1e-7L) {
    x = erfinv_guess(q, 1.0L);  // Giles' fit covers 1 - q representable in float
  } else {
    // Deep tail: erfc(x) ~ exp(-x^2) / (x sqrt(pi)), solved by fixed-point iteration.
    const long double sqrt_pi = 1.772453850905516027298167483341145183L;
    x = std::sqrt(-std::log(q));
    for (int i = 0; i < 4; ++i) x = std::sqrt(-std::log(q * sqrt_pi * x));
  }
  for (int step = 0; step < 8; ++step) {
    const long double f = std::erfc(x) - q;
    const long double df = -two_over_sqrt_pi * std::exp(-x * x);
    if (df == 0.0L) break;
    const long double dx = f / (df + x * f);  // Halley: erfc'' = -2x erfc'
    x -= dx;
    if (std::fabs(dx) <= 1e-19L * std::fabs(x)) break;
  }
  return x;
}
// x with erf(x) = y for y in (-1, 1): near 0 Halley steps on erf itself, else erfcinv(1-|y|),
// where 1-|y| is exact.
inline long double erfinv_wide(long double y) {
  if (!(y > -1.0L && y < 1.0L)) {
    if (y == 1.0L) return HUGE_VALL;
    if (y == -1.0L) return -HUGE_VALL;
    return std::nanl("");
  }
  const long double a = std::fabs(y);
  if (a >= 0.5L) return std::copysign(erfcinv_wide(1.0L - a), y);
  if (y == 0.0L) return y;
  const long double two_over_sqrt_pi = 1.128379167095512573896158903121545172L;
  long double x = erfinv_guess(1.0L - a, y < 0 ? -1.0L : 1.0L);
  for (int step = 0; step < 2; ++step) {
    const long double f = std::erf(x) - y;
    const long double df = two_over_sqrt_pi * std::exp(-x * x);
    x -= f / (df + x * f);  // Halley: erf'' = -2x erf'
  }
  return x;
}
template <class T>
T erfinv(T y) {
  return static_cast<T>(erfinv_wide(static_cast<long double>(y)));
}
template <class T>
T erfcinv(T q) {
  return static_cast<T>(erfcinv_wide(static_cast<long double>(q)));
}

// lgamma without the write to the global signgam (a data race between CPU threads).
inline float lgamma_reentrant(float x) {
#if defined(__GLIBC__)
  int sign;
  return ::lgammaf_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}
inline double lgamma_reentrant(double x) {
#if defined(__GLIBC__)
  int sign;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}
#endif  // !HIPAMP_DEVICE_COMPILE

}  // namespace detail::math

// ==== precise_math =========================================================================
// The functions live in detail::precise_impl as plain overloads; precise_math exposes them as
// forwarding templates (see "Overloading by restriction" below).
namespace detail::precise_impl {

// name##f(float), name(float) and name(double), with the device call and the host call.
#define HIPAMP_PRECISE_1(name, device_f, device_d, host_f, host_d)              \
  HIPAMP_HOST_DEVICE inline float name##f(float x) noexcept {                   \
    return HIPAMP_MATH_PICK(device_f(x), host_f(x));                            \
  }                                                                             \
  HIPAMP_HOST_DEVICE inline float name(float x) noexcept { return name##f(x); } \
  HIPAMP_HOST_DEVICE inline double name(double x) noexcept {                    \
    return HIPAMP_MATH_PICK(device_d(x), host_d(x));                            \
  }
#define HIPAMP_PRECISE_STD_1(name) HIPAMP_PRECISE_1(name, ::name##f, ::name, std::name, std::name)
#define HIPAMP_PRECISE_OWN_1(name) \
  HIPAMP_PRECISE_1(name, ::name##f, ::name, detail::math::name, detail::math::name)

#define HIPAMP_PRECISE_2(name, device_f, device_d, host)                                    \
  HIPAMP_HOST_DEVICE inline float name##f(float x, float y) noexcept {                      \
    return HIPAMP_MATH_PICK(device_f(x, y), host(x, y));                                    \
  }                                                                                         \
  HIPAMP_HOST_DEVICE inline float name(float x, float y) noexcept { return name##f(x, y); } \
  HIPAMP_HOST_DEVICE inline double name(double x, double y) noexcept {                      \
    return HIPAMP_MATH_PICK(device_d(x, y), host(x, y));                                    \
  }
#define HIPAMP_PRECISE_STD_2(name) HIPAMP_PRECISE_2(name, ::name##f, ::name, std::name)

HIPAMP_PRECISE_STD_1(acos)
HIPAMP_PRECISE_STD_1(acosh)
HIPAMP_PRECISE_STD_1(asin)
HIPAMP_PRECISE_STD_1(asinh)
HIPAMP_PRECISE_STD_1(atan)
HIPAMP_PRECISE_STD_1(atanh)
HIPAMP_PRECISE_STD_1(cbrt)
HIPAMP_PRECISE_STD_1(ceil)
HIPAMP_PRECISE_STD_1(cos)
HIPAMP_PRECISE_STD_1(cosh)
HIPAMP_PRECISE_STD_1(erf)
HIPAMP_PRECISE_STD_1(erfc)
HIPAMP_PRECISE_STD_1(exp)
HIPAMP_PRECISE_STD_1(exp2)
HIPAMP_PRECISE_STD_1(expm1)
HIPAMP_PRECISE_STD_1(fabs)
HIPAMP_PRECISE_STD_1(floor)
HIPAMP_PRECISE_STD_1(log)
HIPAMP_PRECISE_STD_1(log10)
HIPAMP_PRECISE_STD_1(log1p)
HIPAMP_PRECISE_STD_1(log2)
HIPAMP_PRECISE_STD_1(logb)
HIPAMP_PRECISE_STD_1(nearbyint)
HIPAMP_PRECISE_STD_1(round)
HIPAMP_PRECISE_STD_1(sin)
HIPAMP_PRECISE_STD_1(sinh)
HIPAMP_PRECISE_STD_1(sqrt)
HIPAMP_PRECISE_STD_1(tan)
HIPAMP_PRECISE_STD_1(tanh)
HIPAMP_PRECISE_STD_1(tgamma)
HIPAMP_PRECISE_STD_1(trunc)
HIPAMP_PRECISE_1(lgamma, ::lgammaf, ::lgamma, detail::math::lgamma_reentrant,
                 detail::math::lgamma_reentrant)
HIPAMP_PRECISE_OWN_1(cospi)
HIPAMP_PRECISE_OWN_1(sinpi)
HIPAMP_PRECISE_OWN_1(erfinv)
HIPAMP_PRECISE_OWN_1(erfcinv)
HIPAMP_PRECISE_OWN_1(exp10)
HIPAMP_PRECISE_OWN_1(rcbrt)
HIPAMP_PRECISE_OWN_1(rsqrt)
HIPAMP_PRECISE_1(phi, ::normcdff, ::normcdf, detail::math::phi, detail::math::phi)

HIPAMP_PRECISE_STD_2(atan2)
HIPAMP_PRECISE_STD_2(copysign)
HIPAMP_PRECISE_STD_2(fdim)
HIPAMP_PRECISE_STD_2(fmax)
HIPAMP_PRECISE_STD_2(fmin)
HIPAMP_PRECISE_STD_2(fmod)
HIPAMP_PRECISE_STD_2(hypot)
HIPAMP_PRECISE_STD_2(nextafter)
HIPAMP_PRECISE_STD_2(pow)
HIPAMP_PRECISE_STD_2(remainder)

// tan(pi x): CUDA has no tanpi, so the device computes it from its sinpi and cospi too.
HIPAMP_HOST_DEVICE inline float tanpif(float x) noexcept {
  return HIPAMP_MATH_PICK(::sinpif(x) / ::cospif(x), detail::math::tanpi(x));
}
HIPAMP_HOST_DEVICE inline float tanpi(float x) noexcept { return tanpif(x); }
HIPAMP_HOST_DEVICE inline double tanpi(double x) noexcept {
  return HIPAMP_MATH_PICK(::sinpi(x) / ::cospi(x), detail::math::tanpi(x));
}

HIPAMP_HOST_DEVICE inline float fmaf(float x, float y, float z) noexcept {
  return HIPAMP_MATH_PICK(::fmaf(x, y, z), std::fma(x, y, z));
}
HIPAMP_HOST_DEVICE inline float fma(float x, float y, float z) noexcept { return fmaf(x, y, z); }
HIPAMP_HOST_DEVICE inline double fma(double x, double y, double z) noexcept {
  return HIPAMP_MATH_PICK(::fma(x, y, z), std::fma(x, y, z));
}

HIPAMP_HOST_DEVICE inline float frexpf(float x, int* exponent) noexcept {
  return HIPAMP_MATH_PICK(::frexpf(x, exponent), std::frexp(x, exponent));
}
HIPAMP_HOST_DEVICE inline float frexp(float x, int* exponent) noexcept {
  return frexpf(x, exponent);
}
HIPAMP_HOST_DEVICE inline double frexp(double x, int* exponent) noexcept {
  return HIPAMP_MATH_PICK(::frexp(x, exponent), std::frexp(x, exponent));
}

HIPAMP_HOST_DEVICE inline float ldexpf(float x, int exponent) noexcept {
  return HIPAMP_MATH_PICK(::ldexpf(x, exponent), std::ldexp(x, exponent));
}
HIPAMP_HOST_DEVICE inline float ldexp(float x, int exponent) noexcept {
  return ldexpf(x, exponent);
}
HIPAMP_HOST_DEVICE inline double ldexp(double x, int exponent) noexcept {
  return HIPAMP_MATH_PICK(::ldexp(x, exponent), std::ldexp(x, exponent));
}

HIPAMP_HOST_DEVICE inline float scalbnf(float x, int exponent) noexcept {
  return HIPAMP_MATH_PICK(::scalbnf(x, exponent), std::scalbn(x, exponent));
}
HIPAMP_HOST_DEVICE inline float scalbn(float x, int exponent) noexcept {
  return scalbnf(x, exponent);
}
HIPAMP_HOST_DEVICE inline double scalbn(double x, int exponent) noexcept {
  return HIPAMP_MATH_PICK(::scalbn(x, exponent), std::scalbn(x, exponent));
}

// x * 2^y for an integral y (POSIX scalb); NaN for a non-integral y.
template <class T>
HIPAMP_HOST_DEVICE inline T scalb_impl(T x, T y) noexcept {
  if (detail::math::is_nan(x) || detail::math::is_nan(y)) return x + y;
  if (trunc(y) != y) {
    return detail::math::is_inf(y) ? (y > 0 ? x * y : x / -y) : (y - y) / (y - y);
  }
  const T clamped = fmin(fmax(y, T(-65536)), T(65536));
  return scalbn(x, static_cast<int>(clamped));
}
HIPAMP_HOST_DEVICE inline float scalbf(float x, float y) noexcept { return scalb_impl(x, y); }
HIPAMP_HOST_DEVICE inline float scalb(float x, float y) noexcept { return scalb_impl(x, y); }
HIPAMP_HOST_DEVICE inline double scalb(double x, double y) noexcept { return scalb_impl(x, y); }

HIPAMP_HOST_DEVICE inline float modff(float x, float* integral) noexcept {
  return HIPAMP_MATH_PICK(::modff(x, integral), std::modf(x, integral));
}
HIPAMP_HOST_DEVICE inline float modf(float x, float* integral) noexcept {
  return modff(x, integral);
}
HIPAMP_HOST_DEVICE inline double modf(double x, double* integral) noexcept {
  return HIPAMP_MATH_PICK(::modf(x, integral), std::modf(x, integral));
}

HIPAMP_HOST_DEVICE inline int ilogbf(float x) noexcept {
  return HIPAMP_MATH_PICK(::ilogbf(x), std::ilogb(x));
}
HIPAMP_HOST_DEVICE inline int ilogb(float x) noexcept { return ilogbf(x); }
HIPAMP_HOST_DEVICE inline int ilogb(double x) noexcept {
  return HIPAMP_MATH_PICK(::ilogb(x), std::ilogb(x));
}

HIPAMP_HOST_DEVICE inline float remquof(float x, float y, int* quotient) noexcept {
  return HIPAMP_MATH_PICK(::remquof(x, y, quotient), std::remquo(x, y, quotient));
}
HIPAMP_HOST_DEVICE inline float remquo(float x, float y, int* quotient) noexcept {
  return remquof(x, y, quotient);
}
HIPAMP_HOST_DEVICE inline double remquo(double x, double y, int* quotient) noexcept {
  return HIPAMP_MATH_PICK(::remquo(x, y, quotient), std::remquo(x, y, quotient));
}

HIPAMP_HOST_DEVICE inline void sincosf(float x, float* s, float* c) noexcept {
#if HIPAMP_DEVICE_COMPILE
  ::sincosf(x, s, c);
#else
  *s = std::sin(x);
  *c = std::cos(x);
#endif
}
HIPAMP_HOST_DEVICE inline void sincos(float x, float* s, float* c) noexcept { sincosf(x, s, c); }
HIPAMP_HOST_DEVICE inline void sincos(double x, double* s, double* c) noexcept {
#if HIPAMP_DEVICE_COMPILE
  ::sincos(x, s, c);
#else
  *s = std::sin(x);
  *c = std::cos(x);
#endif
}

// A quiet NaN. C++ AMP takes an int it ignores (it names a payload in the C library).
HIPAMP_HOST_DEVICE inline float nanf(int) noexcept {
  return HIPAMP_MATH_PICK(::nanf(""), std::nanf(""));
}
HIPAMP_HOST_DEVICE inline double nan(int) noexcept {
  return HIPAMP_MATH_PICK(::nan(""), std::nan(""));
}

// Classification, returning int as in C++ AMP.
#define HIPAMP_CLASSIFY(name, impl)                                                      \
  HIPAMP_HOST_DEVICE inline int name(float x) noexcept { return detail::math::impl(x); } \
  HIPAMP_HOST_DEVICE inline int name(double x) noexcept { return detail::math::impl(x); }
HIPAMP_CLASSIFY(isfinite, is_finite)
HIPAMP_CLASSIFY(isinf, is_inf)
HIPAMP_CLASSIFY(isnan, is_nan)
HIPAMP_CLASSIFY(isnormal, is_normal)
HIPAMP_CLASSIFY(signbit, sign_bit)
#undef HIPAMP_CLASSIFY
HIPAMP_HOST_DEVICE inline int signbitf(float x) noexcept { return detail::math::sign_bit(x); }

#undef HIPAMP_PRECISE_STD_2
#undef HIPAMP_PRECISE_2
#undef HIPAMP_PRECISE_OWN_1
#undef HIPAMP_PRECISE_STD_1
#undef HIPAMP_PRECISE_1

}  // namespace detail::precise_impl

// ---- Overloading by restriction -------------------------------------------------------------
// In C++ AMP, precise_math and fast_math are restrict(amp): with `using namespace
// concurrency::precise_math;` a host call `sqrt(2.0)` still means ::sqrt, because the amp-only
// overloads are not viable there. hipamp's functions run on the host too, so plain overloads
// would make such calls ambiguous. Each public name is therefore a template forwarding to the
// overloads in detail::*_impl: the standard library's non-template overloads win every call
// they match exactly (same result as before), qualified calls (precise_math::sqrt(x)) resolve
// among the hipamp overloads exactly as plain overloads would (implicit conversions included,
// via decltype in the template's signature), and a call matched only by hipamp's template is
// hipamp's (sqrt(2.0f) with no std::sqrt(float) in scope: float precision, as std's). With
// both namespaces in scope precise_math is the more specialised template (a leading parameter
// before the pack) and wins where C++ AMP would have reported an ambiguity.
#define HIPAMP_MATH_FORWARD_PRECISE(name)                                                   \
  template <class A0, class... A,                                                           \
            class R = decltype(::hipamp::detail::precise_impl::name(std::declval<A0>(),     \
                                                                    std::declval<A>()...))> \
  HIPAMP_HOST_DEVICE inline R name(A0 a0, A... a) noexcept {                                \
    return ::hipamp::detail::precise_impl::name(a0, a...);                                  \
  }
#define HIPAMP_MATH_FORWARD_FAST(name)                                                   \
  template <class... A,                                                                  \
            class R = decltype(::hipamp::detail::fast_impl::name(std::declval<A>()...))> \
  HIPAMP_HOST_DEVICE inline R name(A... a) noexcept {                                    \
    return ::hipamp::detail::fast_impl::name(a...);                                      \
  }
#define HIPAMP_MATH_FORWARD_PRECISE_FD(name) \
  HIPAMP_MATH_FORWARD_PRECISE(name)          \
  HIPAMP_MATH_FORWARD_PRECISE(name##f)
#define HIPAMP_MATH_FORWARD_FAST_FD(name) \
  HIPAMP_MATH_FORWARD_FAST(name)          \
  HIPAMP_MATH_FORWARD_FAST(name##f)

namespace precise_math {
HIPAMP_MATH_FORWARD_PRECISE_FD(acos)
HIPAMP_MATH_FORWARD_PRECISE_FD(acosh)
HIPAMP_MATH_FORWARD_PRECISE_FD(asin)
HIPAMP_MATH_FORWARD_PRECISE_FD(asinh)
HIPAMP_MATH_FORWARD_PRECISE_FD(atan)
HIPAMP_MATH_FORWARD_PRECISE_FD(atanh)
HIPAMP_MATH_FORWARD_PRECISE_FD(cbrt)
HIPAMP_MATH_FORWARD_PRECISE_FD(ceil)
HIPAMP_MATH_FORWARD_PRECISE_FD(cos)
HIPAMP_MATH_FORWARD_PRECISE_FD(cosh)
HIPAMP_MATH_FORWARD_PRECISE_FD(erf)
HIPAMP_MATH_FORWARD_PRECISE_FD(erfc)
HIPAMP_MATH_FORWARD_PRECISE_FD(exp)
HIPAMP_MATH_FORWARD_PRECISE_FD(exp2)
HIPAMP_MATH_FORWARD_PRECISE_FD(expm1)
HIPAMP_MATH_FORWARD_PRECISE_FD(fabs)
HIPAMP_MATH_FORWARD_PRECISE_FD(floor)
HIPAMP_MATH_FORWARD_PRECISE_FD(log)
HIPAMP_MATH_FORWARD_PRECISE_FD(log10)
HIPAMP_MATH_FORWARD_PRECISE_FD(log1p)
HIPAMP_MATH_FORWARD_PRECISE_FD(log2)
HIPAMP_MATH_FORWARD_PRECISE_FD(logb)
HIPAMP_MATH_FORWARD_PRECISE_FD(nearbyint)
HIPAMP_MATH_FORWARD_PRECISE_FD(round)
HIPAMP_MATH_FORWARD_PRECISE_FD(sin)
HIPAMP_MATH_FORWARD_PRECISE_FD(sinh)
HIPAMP_MATH_FORWARD_PRECISE_FD(sqrt)
HIPAMP_MATH_FORWARD_PRECISE_FD(tan)
HIPAMP_MATH_FORWARD_PRECISE_FD(tanh)
HIPAMP_MATH_FORWARD_PRECISE_FD(tgamma)
HIPAMP_MATH_FORWARD_PRECISE_FD(trunc)
HIPAMP_MATH_FORWARD_PRECISE_FD(lgamma)
HIPAMP_MATH_FORWARD_PRECISE_FD(cospi)
HIPAMP_MATH_FORWARD_PRECISE_FD(sinpi)
HIPAMP_MATH_FORWARD_PRECISE_FD(erfinv)
HIPAMP_MATH_FORWARD_PRECISE_FD(erfcinv)
HIPAMP_MATH_FORWARD_PRECISE_FD(exp10)
HIPAMP_MATH_FORWARD_PRECISE_FD(rcbrt)
HIPAMP_MATH_FORWARD_PRECISE_FD(rsqrt)
HIPAMP_MATH_FORWARD_PRECISE_FD(phi)
HIPAMP_MATH_FORWARD_PRECISE_FD(atan2)
HIPAMP_MATH_FORWARD_PRECISE_FD(copysign)
HIPAMP_MATH_FORWARD_PRECISE_FD(fdim)
HIPAMP_MATH_FORWARD_PRECISE_FD(fmax)
HIPAMP_MATH_FORWARD_PRECISE_FD(fmin)
HIPAMP_MATH_FORWARD_PRECISE_FD(fmod)
HIPAMP_MATH_FORWARD_PRECISE_FD(hypot)
HIPAMP_MATH_FORWARD_PRECISE_FD(nextafter)
HIPAMP_MATH_FORWARD_PRECISE_FD(pow)
HIPAMP_MATH_FORWARD_PRECISE_FD(remainder)
HIPAMP_MATH_FORWARD_PRECISE_FD(tanpi)
HIPAMP_MATH_FORWARD_PRECISE_FD(fma)
HIPAMP_MATH_FORWARD_PRECISE_FD(frexp)
HIPAMP_MATH_FORWARD_PRECISE_FD(ldexp)
HIPAMP_MATH_FORWARD_PRECISE_FD(scalbn)
HIPAMP_MATH_FORWARD_PRECISE_FD(scalb)
HIPAMP_MATH_FORWARD_PRECISE_FD(modf)
HIPAMP_MATH_FORWARD_PRECISE_FD(ilogb)
HIPAMP_MATH_FORWARD_PRECISE_FD(remquo)
HIPAMP_MATH_FORWARD_PRECISE_FD(sincos)
HIPAMP_MATH_FORWARD_PRECISE_FD(nan)
HIPAMP_MATH_FORWARD_PRECISE_FD(signbit)
HIPAMP_MATH_FORWARD_PRECISE(isfinite)
HIPAMP_MATH_FORWARD_PRECISE(isinf)
HIPAMP_MATH_FORWARD_PRECISE(isnan)
HIPAMP_MATH_FORWARD_PRECISE(isnormal)
}  // namespace precise_math

// ==== fast_math (float only) ===============================================================
namespace detail::fast_impl {

// name##f(float) and name(float): the device's fast intrinsic where it has one, else the
// precise float function.
#define HIPAMP_FAST_1(name, device_fast)                               \
  HIPAMP_HOST_DEVICE inline float name##f(float x) noexcept {          \
    return HIPAMP_MATH_PICK(device_fast(x), precise_math::name##f(x)); \
  }                                                                    \
  HIPAMP_HOST_DEVICE inline float name(float x) noexcept { return name##f(x); }
#define HIPAMP_FAST_SAME_1(name) HIPAMP_FAST_1(name, precise_math::name##f)
#define HIPAMP_FAST_2(name, device_fast)                                     \
  HIPAMP_HOST_DEVICE inline float name##f(float x, float y) noexcept {       \
    return HIPAMP_MATH_PICK(device_fast(x, y), precise_math::name##f(x, y)); \
  }                                                                          \
  HIPAMP_HOST_DEVICE inline float name(float x, float y) noexcept { return name##f(x, y); }

HIPAMP_FAST_SAME_1(acos)
HIPAMP_FAST_SAME_1(asin)
HIPAMP_FAST_SAME_1(atan)
HIPAMP_FAST_SAME_1(ceil)
HIPAMP_FAST_1(cos, __cosf)
HIPAMP_FAST_SAME_1(cosh)
HIPAMP_FAST_1(exp, __expf)
HIPAMP_FAST_SAME_1(exp2)
HIPAMP_FAST_SAME_1(fabs)
HIPAMP_FAST_SAME_1(floor)
HIPAMP_FAST_1(log, __logf)
HIPAMP_FAST_1(log10, __log10f)
HIPAMP_FAST_1(log2, __log2f)
HIPAMP_FAST_SAME_1(round)
HIPAMP_FAST_SAME_1(rsqrt)
HIPAMP_FAST_1(sin, __sinf)
HIPAMP_FAST_SAME_1(sinh)
HIPAMP_FAST_SAME_1(sqrt)
HIPAMP_FAST_1(tan, __tanf)
HIPAMP_FAST_SAME_1(tanh)
HIPAMP_FAST_SAME_1(trunc)

HIPAMP_FAST_2(atan2, precise_math::atan2f)
HIPAMP_FAST_2(fmax, precise_math::fmaxf)
HIPAMP_FAST_2(fmin, precise_math::fminf)
HIPAMP_FAST_2(fmod, precise_math::fmodf)
HIPAMP_FAST_2(pow, __powf)

HIPAMP_HOST_DEVICE inline float frexpf(float x, int* exponent) noexcept {
  return precise_math::frexpf(x, exponent);
}
HIPAMP_HOST_DEVICE inline float frexp(float x, int* exponent) noexcept {
  return precise_math::frexpf(x, exponent);
}
HIPAMP_HOST_DEVICE inline float ldexpf(float x, int exponent) noexcept {
  return precise_math::ldexpf(x, exponent);
}
HIPAMP_HOST_DEVICE inline float ldexp(float x, int exponent) noexcept {
  return precise_math::ldexpf(x, exponent);
}
HIPAMP_HOST_DEVICE inline float modff(float x, float* integral) noexcept {
  return precise_math::modff(x, integral);
}
HIPAMP_HOST_DEVICE inline float modf(float x, float* integral) noexcept {
  return precise_math::modff(x, integral);
}
HIPAMP_HOST_DEVICE inline void sincosf(float x, float* s, float* c) noexcept {
#if HIPAMP_DEVICE_COMPILE
  __sincosf(x, s, c);
#else
  precise_math::sincosf(x, s, c);
#endif
}
HIPAMP_HOST_DEVICE inline void sincos(float x, float* s, float* c) noexcept { sincosf(x, s, c); }

HIPAMP_HOST_DEVICE inline int isfinite(float x) noexcept { return precise_math::isfinite(x); }
HIPAMP_HOST_DEVICE inline int isinf(float x) noexcept { return precise_math::isinf(x); }
HIPAMP_HOST_DEVICE inline int isnan(float x) noexcept { return precise_math::isnan(x); }
HIPAMP_HOST_DEVICE inline int signbit(float x) noexcept { return precise_math::signbit(x); }
HIPAMP_HOST_DEVICE inline int signbitf(float x) noexcept { return precise_math::signbit(x); }

#undef HIPAMP_FAST_2
#undef HIPAMP_FAST_SAME_1
#undef HIPAMP_FAST_1

}  // namespace detail::fast_impl

namespace fast_math {
HIPAMP_MATH_FORWARD_FAST_FD(acos)
HIPAMP_MATH_FORWARD_FAST_FD(asin)
HIPAMP_MATH_FORWARD_FAST_FD(atan)
HIPAMP_MATH_FORWARD_FAST_FD(ceil)
HIPAMP_MATH_FORWARD_FAST_FD(cos)
HIPAMP_MATH_FORWARD_FAST_FD(cosh)
HIPAMP_MATH_FORWARD_FAST_FD(exp)
HIPAMP_MATH_FORWARD_FAST_FD(exp2)
HIPAMP_MATH_FORWARD_FAST_FD(fabs)
HIPAMP_MATH_FORWARD_FAST_FD(floor)
HIPAMP_MATH_FORWARD_FAST_FD(log)
HIPAMP_MATH_FORWARD_FAST_FD(log10)
HIPAMP_MATH_FORWARD_FAST_FD(log2)
HIPAMP_MATH_FORWARD_FAST_FD(round)
HIPAMP_MATH_FORWARD_FAST_FD(rsqrt)
HIPAMP_MATH_FORWARD_FAST_FD(sin)
HIPAMP_MATH_FORWARD_FAST_FD(sinh)
HIPAMP_MATH_FORWARD_FAST_FD(sqrt)
HIPAMP_MATH_FORWARD_FAST_FD(tan)
HIPAMP_MATH_FORWARD_FAST_FD(tanh)
HIPAMP_MATH_FORWARD_FAST_FD(trunc)
HIPAMP_MATH_FORWARD_FAST_FD(atan2)
HIPAMP_MATH_FORWARD_FAST_FD(fmax)
HIPAMP_MATH_FORWARD_FAST_FD(fmin)
HIPAMP_MATH_FORWARD_FAST_FD(fmod)
HIPAMP_MATH_FORWARD_FAST_FD(pow)
HIPAMP_MATH_FORWARD_FAST_FD(frexp)
HIPAMP_MATH_FORWARD_FAST_FD(ldexp)
HIPAMP_MATH_FORWARD_FAST_FD(modf)
HIPAMP_MATH_FORWARD_FAST_FD(sincos)
HIPAMP_MATH_FORWARD_FAST_FD(signbit)
HIPAMP_MATH_FORWARD_FAST(isfinite)
HIPAMP_MATH_FORWARD_FAST(isinf)
HIPAMP_MATH_FORWARD_FAST(isnan)
}  // namespace fast_math

#undef HIPAMP_MATH_FORWARD_FAST_FD
#undef HIPAMP_MATH_FORWARD_PRECISE_FD
#undef HIPAMP_MATH_FORWARD_FAST
#undef HIPAMP_MATH_FORWARD_PRECISE
}  // namespace hipamp

#undef HIPAMP_MATH_PICK
