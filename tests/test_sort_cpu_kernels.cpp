// The CPU device's sort kernels (fallback/sort.hpp) on every instruction set this CPU
// supports, and the key order they sort by: ordered_bits, the order-preserving bijection of
// floats and signed integers onto unsigned keys.
// hipamp-test: host-only (launches no kernel; the C++ compiler builds it in GPU builds)
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <hipamp/fallback/sort.hpp>
#include <hipamp/sort_order.hpp>

#include "support.hpp"

TEST_CASE("CPU sort kernels: every supported instruction set", "[sort][cpu]") {
  using hipamp::fallback::simd_level;
  for (simd_level level :
       {simd_level::portable, simd_level::baseline, simd_level::avx2, simd_level::avx512}) {
    if (!hipamp::fallback::simd_level_supported(level)) continue;
    for (std::size_t n :
         {std::size_t(2), std::size_t(3), std::size_t(15), std::size_t(17), std::size_t(1000),
          std::size_t(4095), std::size_t(8193), std::size_t(100001)}) {
      INFO(hipamp::fallback::to_string(level) << ", n = " << n);
      auto keys32 = hipamp_test::random_vector<std::uint32_t>(
          n, 0, std::numeric_limits<std::uint32_t>::max());
      auto keys64 = hipamp_test::random_vector<std::uint64_t>(
          n, 0, n % 2 ? 9 : std::numeric_limits<std::uint64_t>::max());
      auto expected32 = keys32;
      auto expected64 = keys64;
      std::sort(expected32.begin(), expected32.end());
      std::sort(expected64.begin(), expected64.end());
      hipamp::fallback::sort_unsigned(keys32.data(), n, 1, level);
      hipamp::fallback::sort_unsigned(keys64.data(), n, 1, level);
      CHECK(keys32 == expected32);
      CHECK(keys64 == expected64);
    }
    // Rows, one per thread.
    auto rows = hipamp_test::random_vector<std::uint32_t>(std::size_t{53} * 700, 0, 1000);
    auto expected = rows;
    for (int r = 0; r < 53; ++r)
      std::sort(expected.begin() + std::ptrdiff_t{r} * 700,
                expected.begin() + std::ptrdiff_t{r + 1} * 700);
    hipamp::fallback::sort_unsigned(rows.data(), 700, 53, level);
    CHECK(rows == expected);
  }
}

TEST_CASE("sort order: ordered_bits is an order-preserving bijection", "[sort]") {
  using hipamp::detail::from_ordered_bits;
  using hipamp::detail::ordered_bits;
  // Every float class, in the documented order.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in_order = {-inf,   -1e30f, -1.f,  -1e-40f, -0.f, 0.f,
                                       1e-40f, 1.f,    1e30f, inf,     nan,  -nan};
  for (std::size_t i = 0; i + 1 < in_order.size(); ++i) {
    INFO("element " << i);
    CHECK(ordered_bits(in_order[i]) < ordered_bits(in_order[i + 1]));
    CHECK(hipamp::ascending{}(in_order[i], in_order[i + 1]));
    CHECK(hipamp::descending{}(in_order[i + 1], in_order[i]));
  }
  // Round trips, bit for bit, on random bit patterns (NaN payloads included).
  for (int t = 0; t < 20000; ++t) {
    const auto bits32 = static_cast<std::uint32_t>(hipamp_test::rng()());
    const std::uint64_t bits64 = (std::uint64_t(hipamp_test::rng()()) << 32) | hipamp_test::rng()();
    float f;
    double d;
    std::memcpy(&f, &bits32, 4);
    std::memcpy(&d, &bits64, 8);
    const auto f2 = from_ordered_bits<float>(ordered_bits(f));
    const auto d2 = from_ordered_bits<double>(ordered_bits(d));
    // Bit-exact round trips, NaN payloads and signed zeros included.
    CHECK(std::memcmp(&f, &f2, 4) == 0);  // NOLINT(bugprone-suspicious-memory-comparison)
    CHECK(std::memcmp(&d, &d2, 8) == 0);  // NOLINT(bugprone-suspicious-memory-comparison)
    const int i = static_cast<int>(bits32);
    CHECK(from_ordered_bits<int>(ordered_bits(i)) == i);
  }
}
