// concurrency::direct3d intrinsics in kernels on every accelerator, against host references
// written independently (bit loops, the HLSL definitions) on random data with the edge cases
// (0, -1, INT_MIN, INT_MAX, NaN, the bounds) mixed in.
#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include <hipamp/amp.h>

#include "support.hpp"

namespace d3d = concurrency::direct3d;

namespace {

int ref_firstbithigh(int v) {
  unsigned u = static_cast<unsigned>(v);
  if (v < 0) u = ~u;  // HLSL: a negative value's first bit different from the sign bit
  for (int b = 31; b >= 0; --b)
    if ((u >> b) & 1u) return b;
  return -1;
}
int ref_firstbitlow(int v) {
  const unsigned u = static_cast<unsigned>(v);
  for (int b = 0; b < 32; ++b)
    if ((u >> b) & 1u) return b;
  return -1;
}
unsigned ref_countbits(unsigned u) {
  unsigned n = 0;
  for (int b = 0; b < 32; ++b) n += (u >> b) & 1u;
  return n;
}
unsigned ref_reversebits(unsigned u) {
  unsigned r = 0;
  for (int b = 0; b < 32; ++b)
    if ((u >> b) & 1u) r |= 1u << (31 - b);
  return r;
}

std::vector<int> random_ints(int n) {
  std::vector<int> v = hipamp_test::random_vector<int>(n, INT_MIN, INT_MAX);
  const int edges[] = {0, -1, 1, INT_MIN, INT_MAX, 2, -2, 1 << 30, -(1 << 30)};
  for (std::size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); ++i) v[i * 7] = edges[i];
  // Small values too, so that sign, clamp and the min/max pairs see ties and both sides.
  for (int i = 1; i < n; i += 5) v[i] = v[i] % 64;
  return v;
}

}  // namespace

TEST_CASE("direct3d integer intrinsics match their HLSL definitions", "[compat][direct3d]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 4096;
    const std::vector<int> a = random_ints(n), b = random_ints(n), c = random_ints(n);
    constexpr int outputs = 14;
    std::vector<int> out(n * outputs, 12345);
    concurrency::array_view<const int, 1> av_a(n, a), av_b(n, b), av_c(n, c);
    concurrency::array_view<int, 2> o(n, outputs, out);
    o.discard_data();
    concurrency::parallel_for_each(
        acc.get_default_view(), av_a.extent, [=] HIPAMP_RESTRICT(concurrency::index<1> idx) {
          const int i = idx[0], x = av_a[i], y = av_b[i], z = av_c[i];
          const unsigned ux = static_cast<unsigned>(x), uy = static_cast<unsigned>(y),
                         uz = static_cast<unsigned>(z);
          o(i, 0) = d3d::abs(x);
          o(i, 1) = d3d::clamp(x, -20, 20);
          o(i, 2) = static_cast<int>(d3d::countbits(ux));
          o(i, 3) = d3d::firstbithigh(x);
          o(i, 4) = d3d::firstbitlow(x);
          o(i, 5) = d3d::imax(x, y);
          o(i, 6) = d3d::imin(x, y);
          o(i, 7) = d3d::mad(x, y, z);
          o(i, 8) = static_cast<int>(d3d::mad(ux, uy, uz));
          o(i, 9) = static_cast<int>(d3d::reversebits(ux));
          o(i, 10) = d3d::sign(x);
          o(i, 11) = static_cast<int>(d3d::umax(ux, uy));
          o(i, 12) = static_cast<int>(d3d::umin(ux, uy));
          o(i, 13) = d3d::clamp(x, y < z ? y : z, y < z ? z : y);
        });
    o.synchronize();
    for (int i = 0; i < n; ++i) {
      const int x = a[i], y = b[i], z = c[i];
      const unsigned ux = x, uy = y, uz = z;
      const int* r = &out[i * outputs];
      INFO("x=" << x << " y=" << y << " z=" << z);
      REQUIRE(r[0] == (x == INT_MIN ? INT_MIN : (x < 0 ? -x : x)));
      REQUIRE(r[1] == (x < -20 ? -20 : (x > 20 ? 20 : x)));
      REQUIRE(static_cast<unsigned>(r[2]) == ref_countbits(ux));
      REQUIRE(r[3] == ref_firstbithigh(x));
      REQUIRE(r[4] == ref_firstbitlow(x));
      REQUIRE(r[5] == (x > y ? x : y));
      REQUIRE(r[6] == (x < y ? x : y));
      const long long wide = static_cast<long long>(x) * y + z;  // reduced modulo 2^32
      REQUIRE(static_cast<unsigned>(r[7]) == static_cast<unsigned>(wide & 0xffffffffLL));
      REQUIRE(
          static_cast<unsigned>(r[8]) ==
          static_cast<unsigned>((static_cast<unsigned long long>(ux) * uy + uz) & 0xffffffffULL));
      REQUIRE(static_cast<unsigned>(r[9]) == ref_reversebits(ux));
      REQUIRE(r[10] == (x > 0 ? 1 : (x < 0 ? -1 : 0)));
      REQUIRE(static_cast<unsigned>(r[11]) == (ux > uy ? ux : uy));
      REQUIRE(static_cast<unsigned>(r[12]) == (ux < uy ? ux : uy));
      const int lo = y < z ? y : z, hi = y < z ? z : y;
      REQUIRE(r[13] == (x < lo ? lo : (x > hi ? hi : x)));
    }
  }
}

TEST_CASE("direct3d float intrinsics match their HLSL definitions", "[compat][direct3d]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 4096;
    std::vector<float> a = hipamp_test::random_vector<float>(n, -3.0f, 3.0f);
    const std::vector<float> b = hipamp_test::random_vector<float>(n, -3.0f, 3.0f);
    const std::vector<float> c = hipamp_test::random_vector<float>(n, -3.0f, 3.0f);
    a[0] = std::numeric_limits<float>::quiet_NaN();
    a[1] = 0.0f;
    a[2] = 1.0f;
    a[3] = -0.5f;
    constexpr int outputs = 9;
    std::vector<float> out(n * outputs, -7.0f);
    std::vector<double> dout(n, -7.0);
    concurrency::array_view<const float, 1> va(n, a), vb(n, b), vc(n, c);
    concurrency::array_view<float, 2> o(n, outputs, out);
    concurrency::array_view<double, 1> od(n, dout);
    o.discard_data();
    concurrency::parallel_for_each(
        acc.get_default_view(), va.extent, [=] HIPAMP_RESTRICT(concurrency::index<1> idx) {
          const int i = idx[0];
          const float x = va[i], y = vb[i], z = vc[i];
          o(i, 0) = d3d::clamp(x, -1.0f, 0.5f);
          o(i, 1) = d3d::saturate(x);
          o(i, 2) = d3d::mad(x, y, z);
          o(i, 3) = d3d::rcp(y);
          o(i, 4) = d3d::smoothstep(-2.0f, 2.5f, x);
          o(i, 5) = d3d::step(y, x);
          o(i, 6) = d3d::radians(180.0f * x);
          o(i, 7) = d3d::step(0.0f, x);
          o(i, 8) = static_cast<float>(d3d::rcp(static_cast<double>(z)));
          od[i] = d3d::mad(static_cast<double>(x), static_cast<double>(y), static_cast<double>(z));
        });
    o.synchronize();
    od.synchronize();
    const float pi = 3.14159265358979f;
    for (int i = 0; i < n; ++i) {
      const float x = a[i], y = b[i], z = c[i];
      const float* r = &out[i * outputs];
      INFO("i=" << i << " x=" << x << " y=" << y << " z=" << z);
      if (std::isnan(x)) {
        CHECK(r[0] == -1.0f);  // NaN clamps to the lower bound (D3D10 fmin/fmax rules)
        CHECK(r[1] == 0.0f);
        continue;
      }
      REQUIRE(r[0] == (x < -1.0f ? -1.0f : (x > 0.5f ? 0.5f : x)));
      REQUIRE(r[1] == (x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x)));
      // mad may fuse: within an ulp or two of the exact value, not of the rounded product.
      const double exact = static_cast<double>(x) * y + z;
      REQUIRE(std::abs(r[2] - exact) <=
              4e-7 * (std::abs(static_cast<double>(x) * y) + std::abs(z)) + 1e-30);
      REQUIRE(std::abs(r[3] - 1.0 / y) <= 1e-6 * std::abs(1.0 / y));
      double t = (static_cast<double>(x) + 2.0) / 4.5;
      t = t < 0 ? 0 : (t > 1 ? 1 : t);
      REQUIRE(std::abs(r[4] - t * t * (3 - 2 * t)) <= 1e-5);
      REQUIRE(r[5] == (x >= y ? 1.0f : 0.0f));
      REQUIRE(std::abs(r[6] - static_cast<double>(x) * pi) <= 1e-5 * (1.0 + std::abs(x * pi)));
      REQUIRE(r[7] == (x >= 0.0f ? 1.0f : 0.0f));
      REQUIRE(std::abs(r[8] - 1.0 / z) <= 1e-6 * std::abs(1.0 / z));
      REQUIRE(std::abs(dout[i] - exact) <=
              1e-15 * (std::abs(static_cast<double>(x) * y) + std::abs(z)));
    }
  }
}

TEST_CASE("direct3d intrinsics work on the host too", "[compat][direct3d]") {
  CHECK(d3d::firstbithigh(-1) == -1);
  CHECK(d3d::firstbithigh(INT_MIN) == 30);
  CHECK(d3d::firstbithigh(0x00010000) == 16);
  CHECK(d3d::firstbitlow(0) == -1);
  CHECK(d3d::firstbitlow(INT_MIN) == 31);
  CHECK(d3d::reversebits(1u) == 0x80000000u);
  CHECK(d3d::countbits(0xffffffffu) == 32u);
  CHECK(d3d::smoothstep(0.0f, 1.0f, 0.5f) == 0.5f);
  CHECK(d3d::clamp(5, 0, 3) == 3);
  CHECK(d3d::sign(-7) == -1);
}
