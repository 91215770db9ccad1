// The geometry of GPU launches, vendor-neutral so that every build tests it on the host:
// how a compute domain is cut into launches of fewer than 2^31 points, and how a thread's
// linear number becomes an N-dimensional index.
#pragma once

#include <algorithm>
#include <cstdint>

#include <hipamp/config.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/index.hpp>

namespace hipamp::detail::gpu {

// Division by a divisor fixed at launch time: one multiply-high and one shift instead of a
// ~20-instruction integer division (Granlund and Montgomery 1994; CUTLASS's FastDivmod).
// Valid for dividends below 2^31.

class fast_divmod {
 public:
  HIPAMP_HOST_DEVICE constexpr fast_divmod() noexcept = default;
  // divisor >= 1.
  HIPAMP_HOST_DEVICE constexpr explicit fast_divmod(std::uint32_t divisor) noexcept
      : divisor_(divisor) {
    if (divisor != 1) {
      // ceil(log2(divisor)) for divisor >= 2
      std::uint32_t log2 = 0;
      while ((std::uint32_t{1} << log2) < divisor) ++log2;
      const std::uint32_t p = 31 + log2;
      multiplier_ = static_cast<std::uint32_t>(((std::uint64_t{1} << p) + divisor - 1) / divisor);
      shift_ = p - 32;
    }
  }

  HIPAMP_HOST_DEVICE constexpr std::uint32_t divisor() const noexcept { return divisor_; }

  // dividend < 2^31
  HIPAMP_HOST_DEVICE std::uint32_t quotient(std::uint32_t dividend) const noexcept {
    if (divisor_ == 1) return dividend;
#if HIPAMP_DEVICE_COMPILE
    return __umulhi(dividend, multiplier_) >> shift_;
#else
    return static_cast<std::uint32_t>((std::uint64_t{dividend} * multiplier_) >> 32) >> shift_;
#endif
  }
  // Splits dividend into quotient (returned) and remainder.
  HIPAMP_HOST_DEVICE std::uint32_t divmod(std::uint32_t dividend,
                                          std::uint32_t& remainder) const noexcept {
    const std::uint32_t q = quotient(dividend);
    remainder = dividend - q * divisor_;
    return q;
  }

 private:
  std::uint32_t divisor_ = 1;
  std::uint32_t multiplier_ = 0;
  std::uint32_t shift_ = 0;
};

// Points (simple model) or tiles (tiled model) one launch covers at most, so that in-kernel
// index math stays in 32 bits.
inline constexpr std::uint64_t max_points_per_launch = (std::uint64_t{1} << 31) - 1;

// The part of a domain one launch covers: `count` points of a box starting at `origin`.
// divisors[d] holds the box's extent in dimension d (d >= 1) for the index math.
template <int N>
struct launch_box {
  index<N> origin;
  std::uint32_t count = 0;
  fast_divmod divisors[N];
};

template <int N>
launch_box<N> make_launch_box(const index<N>& origin, const extent<N>& box) {
  launch_box<N> out;
  out.origin = origin;
  out.count = static_cast<std::uint32_t>(element_count(box));
  for (int d = 1; d < N; ++d) out.divisors[d] = fast_divmod(static_cast<std::uint32_t>(box[d]));
  return out;
}

// Row-major position `linear` (< box.count) of a box, as an index of the whole domain.
template <int N>
HIPAMP_HOST_DEVICE inline index<N> box_index(const launch_box<N>& box, std::uint32_t linear) {
  index<N> idx;
  std::uint32_t rest = linear;
  for (int d = N - 1; d > 0; --d) {
    std::uint32_t remainder = 0;
    rest = box.divisors[d].divmod(rest, remainder);
    idx[d] = box.origin[d] + static_cast<int>(remainder);
  }
  idx[0] = box.origin[0] + static_cast<int>(rest);
  return idx;
}

// Calls launch(origin, box) for boxes that cover `domain` in row-major order, each holding at
// most max_points points. Almost every domain is one box; only domains of 2^31 points or
// more are cut: along the outermost dimension whose trailing block still fits, with single
// indices in the dimensions before it.
template <int N, class Launch>
void for_each_launch_box(const extent<N>& domain, std::uint64_t max_points, Launch&& launch) {
  std::uint64_t suffix[N + 1];  // suffix[d] = points in dimensions d..N-1
  suffix[N] = 1;
  for (int d = N - 1; d >= 0; --d)
    suffix[d] = suffix[d + 1] * static_cast<std::uint64_t>(domain[d]);
  if (suffix[0] <= max_points) {
    launch(index<N>(), domain);
    return;
  }
  int whole = N;  // dimensions whole..N-1 fit into one launch
  while (whole > 0 && suffix[whole - 1] <= max_points) --whole;
  const int cut = whole - 1;  // the dimension cut into slabs
  const std::uint64_t slab = max_points / suffix[whole];
  const std::uint64_t outer = suffix[0] / suffix[cut];  // points of the dimensions before `cut`
  for (std::uint64_t o = 0; o < outer; ++o) {
    index<N> origin;
    extent<N> box = domain;
    std::uint64_t rest = o;
    for (int d = cut - 1; d >= 0; --d) {
      origin[d] = static_cast<int>(rest % static_cast<std::uint64_t>(domain[d]));
      rest /= static_cast<std::uint64_t>(domain[d]);
      box[d] = 1;
    }
    for (std::uint64_t row = 0; row < static_cast<std::uint64_t>(domain[cut]); row += slab) {
      origin[cut] = static_cast<int>(row);
      box[cut] = static_cast<int>(std::min<std::uint64_t>(slab, domain[cut] - row));
      launch(origin, box);
    }
  }
}

}  // namespace hipamp::detail::gpu
