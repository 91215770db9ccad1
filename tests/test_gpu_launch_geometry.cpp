// The GPU launch geometry, checked on the host in every build: fast_divmod against plain
// division, and the cutting of domains into launches (every point exactly once, in boxes of
// at most the allowed size, each index rebuilt by box_index as the kernels do).
// hipamp-test: host-only (launches no kernel; the C++ compiler builds it in GPU builds)
#include <cstdint>
#include <vector>

#include <hipamp/backend/gpu/launch_geometry.hpp>

#include "support.hpp"

namespace hg = hipamp::detail::gpu;

TEST_CASE("fast_divmod matches integer division below 2^31", "[gpu][geometry]") {
  std::uniform_int_distribution<std::uint32_t> small(1, 5000);
  std::uniform_int_distribution<std::uint32_t> large(1, 0x7fffffffu);
  std::uniform_int_distribution<std::uint32_t> dividend(0, 0x7fffffffu);
  std::vector<std::uint32_t> divisors = {
      1, 2, 3, 7, 64, 65, 255, 256, 257, 1000, 65535, 65536, 0x7fffffffu, 0x40000000u, 0x40000001u};
  for (int k = 0; k < 200; ++k) divisors.push_back(small(hipamp_test::rng()));
  for (int k = 0; k < 200; ++k) divisors.push_back(large(hipamp_test::rng()));
  for (std::uint32_t d : divisors) {
    const hg::fast_divmod fd(d);
    std::vector<std::uint32_t> values = {0, 1, d - 1, d, d + 1, 0x7fffffffu, 0x7ffffffeu};
    for (int k = 0; k < 500; ++k) values.push_back(dividend(hipamp_test::rng()));
    for (std::uint32_t n : values) {
      if (n > 0x7fffffffu) continue;
      std::uint32_t r = 0;
      const std::uint32_t q = fd.divmod(n, r);
      if (q != n / d || r != n % d) {
        FAIL("fast_divmod(" << d << ") of " << n << " gave " << q << " r " << r);
      }
    }
  }
}

namespace {

template <int N>
void check_cover(const hipamp::extent<N>& domain, std::uint64_t max_points) {
  const std::size_t total = hipamp::detail::element_count(domain);
  std::vector<int> seen(total, 0);
  std::size_t launches = 0;
  hg::for_each_launch_box(domain, max_points,
                          [&](const hipamp::index<N>& origin, const hipamp::extent<N>& box) {
                            ++launches;
                            const auto part = hg::make_launch_box(origin, box);
                            REQUIRE(part.count <= max_points);
                            REQUIRE(part.count == hipamp::detail::element_count(box));
                            for (std::uint32_t linear = 0; linear < part.count; ++linear) {
                              const hipamp::index<N> idx = hg::box_index(part, linear);
                              REQUIRE(domain.contains(idx));
                              std::size_t flat = 0;
                              for (int d = 0; d < N; ++d)
                                flat = flat * static_cast<std::size_t>(domain[d]) + idx[d];
                              ++seen[flat];
                            }
                          });
  for (std::size_t i = 0; i < total; ++i) {
    if (seen[i] != 1)
      FAIL("point " << i << " of " << hipamp::detail::to_string(domain) << " covered " << seen[i]
                    << " times");
  }
  if (total <= max_points) CHECK(launches == 1);
}

}  // namespace

TEST_CASE("domains are cut into launches that cover every point once", "[gpu][geometry]") {
  std::uniform_int_distribution<int> dim(1, 37);
  for (int round = 0; round < 20; ++round) {
    const int a = dim(hipamp_test::rng()), b = dim(hipamp_test::rng()), c = dim(hipamp_test::rng());
    for (std::uint64_t max_points : {std::uint64_t{1}, std::uint64_t{5}, std::uint64_t{64},
                                     std::uint64_t{1000}, hg::max_points_per_launch}) {
      check_cover(hipamp::extent<1>(a * b), max_points);
      check_cover(hipamp::extent<2>(a, b), max_points);
      check_cover(hipamp::extent<3>(a, b, c), max_points);
    }
  }
  // The real limit: 2^31 - 1 points. A domain of 3 * 2^30 points is cut along dimension 0.
  std::size_t launches = 0;
  std::uint64_t points = 0;
  hg::for_each_launch_box(hipamp::extent<2>(3 << 10, 1 << 20), hg::max_points_per_launch,
                          [&](const hipamp::index<2>&, const hipamp::extent<2>& box) {
                            ++launches;
                            points += hipamp::detail::element_count(box);
                            CHECK(hipamp::detail::element_count(box) <= hg::max_points_per_launch);
                          });
  CHECK(points == 3ull << 30);
  CHECK(launches == 2);  // slabs of 2047 and 1025 rows
}
