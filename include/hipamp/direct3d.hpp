// hipamp::direct3d (concurrency::direct3d through <hipamp/amp.h>): the HLSL intrinsics of
// C++ AMP 1.2, chapter 13.3 — abs, clamp, countbits, firstbithigh, firstbitlow, imax, imin,
// mad, radians, rcp, reversebits, saturate, sign, smoothstep, step, umax, umin — usable in
// kernels on every device and on the host. (The Direct3D interop functions of that namespace,
// get_device, create_accelerator_view, textures, do not exist: hipamp has no Direct3D.)
//
// In the GPU device pass the bit functions use the vendor intrinsics (__popc, __clz, __ffs,
// __brev, the same names in CUDA and HIP); elsewhere GCC/Clang builtins, with portable loops
// as the fallback. Float functions follow HLSL: saturate and clamp of a NaN give the lower
// bound (D3D10+ rules, which fmin/fmax implement), firstbithigh of a negative int finds the
// highest *clear* bit, and the bit searches return -1 when there is nothing to find.
//
// C++ AMP's direct3d functions are amp-only, so `using namespace concurrency::direct3d;`
// never clashed with ::abs on the host; here they are callable on the host too, so call them
// qualified (direct3d::abs) where ::abs(int) is also visible.
#pragma once

#include <cmath>
#include <cstdint>

#include <hipamp/config.hpp>

namespace hipamp {
namespace detail {

// Bit position (0 = least significant) of the highest set bit, -1 for 0.
HIPAMP_HOST_DEVICE inline int highest_set_bit(unsigned int val) noexcept {
  if (val == 0) return -1;
#if HIPAMP_DEVICE_COMPILE
  return 31 - __clz(static_cast<int>(val));
#elif defined(__GNUC__) || defined(__clang__)
  return 31 - __builtin_clz(val);
#else
  int n = -1;
  for (; val != 0; val >>= 1) ++n;
  return n;
#endif
}

}  // namespace detail

namespace direct3d {

HIPAMP_HOST_DEVICE inline int abs(int val) noexcept {
  // Through unsigned: abs(INT_MIN) is INT_MIN, as on the hardware, not undefined behaviour.
  const unsigned u = static_cast<unsigned>(val);
  return static_cast<int>(val < 0 ? 0u - u : u);
}

HIPAMP_HOST_DEVICE inline float clamp(float x, float min, float max) noexcept {
#if HIPAMP_DEVICE_COMPILE
  return ::fminf(::fmaxf(x, min), max);
#else
  return std::fmin(std::fmax(x, min), max);
#endif
}
HIPAMP_HOST_DEVICE inline int clamp(int x, int min, int max) noexcept {
  const int low = x < min ? min : x;
  return low > max ? max : low;
}

HIPAMP_HOST_DEVICE inline unsigned int countbits(unsigned int val) noexcept {
#if HIPAMP_DEVICE_COMPILE
  return static_cast<unsigned int>(__popc(val));
#elif defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned int>(__builtin_popcount(val));
#else
  unsigned int n = 0;
  for (; val != 0; val &= val - 1) ++n;
  return n;
#endif
}

// HLSL firstbithigh(int): for a negative value the first bit that differs from the sign bit,
// i.e. the highest clear bit; -1 for 0 and for -1.
HIPAMP_HOST_DEVICE inline int firstbithigh(int val) noexcept {
  const unsigned u = static_cast<unsigned>(val);
  return detail::highest_set_bit(val < 0 ? ~u : u);
}

// Bit position of the lowest set bit, -1 for 0.
HIPAMP_HOST_DEVICE inline int firstbitlow(int val) noexcept {
  if (val == 0) return -1;
#if HIPAMP_DEVICE_COMPILE
  return __ffs(val) - 1;
#elif defined(__GNUC__) || defined(__clang__)
  return __builtin_ctz(static_cast<unsigned>(val));
#else
  unsigned u = static_cast<unsigned>(val);
  int n = 0;
  for (; (u & 1u) == 0; u >>= 1) ++n;
  return n;
#endif
}

HIPAMP_HOST_DEVICE inline int imax(int x, int y) noexcept { return x > y ? x : y; }
HIPAMP_HOST_DEVICE inline int imin(int x, int y) noexcept { return x < y ? x : y; }
HIPAMP_HOST_DEVICE inline unsigned int umax(unsigned int x, unsigned int y) noexcept {
  return x > y ? x : y;
}
HIPAMP_HOST_DEVICE inline unsigned int umin(unsigned int x, unsigned int y) noexcept {
  return x < y ? x : y;
}

// val1 * val2 + val3. The float and double forms may fuse (HLSL leaves it to the hardware);
// the integer forms wrap modulo 2^32 as the hardware does.
HIPAMP_HOST_DEVICE inline float mad(float x, float y, float z) noexcept { return x * y + z; }
HIPAMP_HOST_DEVICE inline double mad(double x, double y, double z) noexcept { return x * y + z; }
HIPAMP_HOST_DEVICE inline int mad(int x, int y, int z) noexcept {
  return static_cast<int>(static_cast<unsigned>(x) * static_cast<unsigned>(y) +
                          static_cast<unsigned>(z));
}
HIPAMP_HOST_DEVICE inline unsigned int mad(unsigned int x, unsigned int y,
                                           unsigned int z) noexcept {
  return x * y + z;
}

HIPAMP_HOST_DEVICE inline float radians(float degrees) noexcept {
  return degrees * 0.0174532925199432957692f;  // pi / 180
}

HIPAMP_HOST_DEVICE inline float rcp(float x) noexcept { return 1.0f / x; }
HIPAMP_HOST_DEVICE inline double rcp(double x) noexcept { return 1.0 / x; }

HIPAMP_HOST_DEVICE inline unsigned int reversebits(unsigned int val) noexcept {
#if HIPAMP_DEVICE_COMPILE
  return __brev(val);
#else
  // Swap halves, bytes, nibbles, pairs, bits: five steps instead of 32.
  val = (val >> 16) | (val << 16);
  val = ((val & 0xff00ff00u) >> 8) | ((val & 0x00ff00ffu) << 8);
  val = ((val & 0xf0f0f0f0u) >> 4) | ((val & 0x0f0f0f0fu) << 4);
  val = ((val & 0xccccccccu) >> 2) | ((val & 0x33333333u) << 2);
  val = ((val & 0xaaaaaaaau) >> 1) | ((val & 0x55555555u) << 1);
  return val;
#endif
}

HIPAMP_HOST_DEVICE inline float saturate(float x) noexcept { return clamp(x, 0.0f, 1.0f); }

HIPAMP_HOST_DEVICE inline int sign(int x) noexcept { return (x > 0) - (x < 0); }

// Hermite interpolation between 0 (x <= min) and 1 (x >= max).
HIPAMP_HOST_DEVICE inline float smoothstep(float min, float max, float x) noexcept {
  const float t = saturate((x - min) / (max - min));
  return t * t * (3.0f - 2.0f * t);
}

// 1 where x >= y, else 0 (HLSL's argument order: step(y, x)).
HIPAMP_HOST_DEVICE inline float step(float y, float x) noexcept { return x >= y ? 1.0f : 0.0f; }

}  // namespace direct3d
}  // namespace hipamp
