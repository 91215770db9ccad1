// Overloading by restriction: C++ AMP code says `using namespace concurrency::precise_math;`
// (or fast_math, or std as well) and then calls sqrt / sin / pow unqualified both on the host
// and in kernels. In C++ AMP the amp-only math never competes with the host's; here every
// combination must compile unambiguously, give std's results on the host, and give the
// library's results in kernels.
#include <cmath>
#include <type_traits>
#include <vector>

#include <hipamp/amp.h>

#include "support.hpp"

namespace {

// One body per combination of using-directives, each a host function and a kernel.
#define HIPAMP_TEST_MATH_BODY                                                         \
  static_assert(std::is_same<decltype(sqrt(2.0)), double>::value, "sqrt(double)");    \
  static_assert(std::is_same<decltype(sqrt(2.0f)), float>::value, "sqrt(float)");     \
  static_assert(std::is_same<decltype(pow(2.0, 3.0)), double>::value, "pow(double)"); \
  static_assert(std::is_same<decltype(sin(2.0f)), float>::value, "sin(float)");       \
  host[0] = sqrt(x);                                                                  \
  host[1] = sin(x);                                                                   \
  host[2] = pow(x, y);                                                                \
  host[3] = sqrt(static_cast<float>(x));                                              \
  host[4] = sin(static_cast<float>(x));                                               \
  host[5] = pow(static_cast<float>(x), static_cast<float>(y));                        \
  host[6] = exp(-x) + fabs(-y) + floor(x * y);                                        \
  concurrency::array_view<const double, 1> in(n, xs);                                 \
  concurrency::array_view<double, 2> out(n, 4, dev);                                  \
  out.discard_data();                                                                 \
  concurrency::parallel_for_each(acc.get_default_view(), in.extent,                   \
                                 [=] HIPAMP_RESTRICT(concurrency::index<1> i) {       \
                                   const double v = in[i];                            \
                                   const float f = static_cast<float>(v);             \
                                   out(i[0], 0) = sqrt(v) + sin(v);                   \
                                   out(i[0], 1) = pow(v, 1.5);                        \
                                   out(i[0], 2) = sqrt(f) + sin(f);                   \
                                   out(i[0], 3) = pow(f, 1.5f) + exp(-f) + fabs(-f);  \
                                 });                                                  \
  out.synchronize();

struct results {
  double host[7];
  std::vector<double> dev;
};

constexpr double x = 1.7, y = 2.3;

void check(const results& r, const std::vector<double>& xs, double float_tol) {
  CHECK(r.host[0] == std::sqrt(x));
  CHECK(r.host[1] == std::sin(x));
  CHECK(r.host[2] == std::pow(x, y));
  CHECK(r.host[3] == std::sqrt(static_cast<float>(x)));
  CHECK(r.host[4] == std::sin(static_cast<float>(x)));
  CHECK(r.host[5] == std::pow(static_cast<float>(x), static_cast<float>(y)));
  CHECK(r.host[6] == std::exp(-x) + std::fabs(-y) + std::floor(x * y));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double v = xs[i];
    const float f = static_cast<float>(v);
    const double want_f = std::sqrt(static_cast<double>(f)) + std::sin(static_cast<double>(f));
    const double want_p = std::pow(static_cast<double>(f), 1.5) +
                          std::exp(-static_cast<double>(f)) + static_cast<double>(f);
    REQUIRE(std::abs(r.dev[i * 4 + 0] - (std::sqrt(v) + std::sin(v))) <= 1e-14);
    REQUIRE(std::abs(r.dev[i * 4 + 1] - std::pow(v, 1.5)) <= 1e-13 * std::pow(v, 1.5));
    REQUIRE(std::abs(r.dev[i * 4 + 2] - want_f) <= float_tol * (1.0 + std::abs(want_f)));
    REQUIRE(std::abs(r.dev[i * 4 + 3] - want_p) <= float_tol * (1.0 + std::abs(want_p)));
  }
}

results with_precise(const hipamp::accelerator& acc, const std::vector<double>& xs) {
  using namespace concurrency;
  using namespace concurrency::precise_math;
  const int n = static_cast<int>(xs.size());
  results r{{}, std::vector<double>(4 * n)};
  double* host = r.host;
  std::vector<double>& dev = r.dev;
  HIPAMP_TEST_MATH_BODY
  return r;
}
results with_fast(const hipamp::accelerator& acc, const std::vector<double>& xs) {
  using namespace concurrency;
  using namespace concurrency::fast_math;
  const int n = static_cast<int>(xs.size());
  results r{{}, std::vector<double>(4 * n)};
  double* host = r.host;
  std::vector<double>& dev = r.dev;
  HIPAMP_TEST_MATH_BODY
  return r;
}
results with_precise_and_std(const hipamp::accelerator& acc, const std::vector<double>& xs) {
  using namespace std;
  using namespace concurrency;
  using namespace concurrency::precise_math;
  const int n = static_cast<int>(xs.size());
  results r{{}, std::vector<double>(4 * n)};
  double* host = r.host;
  std::vector<double>& dev = r.dev;
  HIPAMP_TEST_MATH_BODY
  return r;
}
results with_fast_and_std(const hipamp::accelerator& acc, const std::vector<double>& xs) {
  using namespace std;
  using namespace concurrency;
  using namespace concurrency::fast_math;
  const int n = static_cast<int>(xs.size());
  results r{{}, std::vector<double>(4 * n)};
  double* host = r.host;
  std::vector<double>& dev = r.dev;
  HIPAMP_TEST_MATH_BODY
  return r;
}
results with_all(const hipamp::accelerator& acc, const std::vector<double>& xs) {
  using namespace std;
  using namespace concurrency;
  using namespace concurrency::precise_math;
  using namespace concurrency::fast_math;
  const int n = static_cast<int>(xs.size());
  results r{{}, std::vector<double>(4 * n)};
  double* host = r.host;
  std::vector<double>& dev = r.dev;
  HIPAMP_TEST_MATH_BODY
  return r;
}
results with_both_math(const hipamp::accelerator& acc, const std::vector<double>& xs) {
  using namespace concurrency::precise_math;
  using namespace concurrency::fast_math;
  const int n = static_cast<int>(xs.size());
  results r{{}, std::vector<double>(4 * n)};
  double* host = r.host;
  std::vector<double>& dev = r.dev;
  HIPAMP_TEST_MATH_BODY
  return r;
}

}  // namespace

TEST_CASE("unqualified math under precise_math/fast_math/std using-directives",
          "[compat][math_overloads]") {
  // Qualified calls still resolve among hipamp's overloads, conversions included.
  static_assert(std::is_same<decltype(hipamp::precise_math::pow(2.0f, 3)), float>::value, "");
  static_assert(std::is_same<decltype(hipamp::precise_math::sqrt(2.0)), double>::value, "");
  static_assert(std::is_same<decltype(hipamp::fast_math::sqrt(2.0)), float>::value, "");
  CHECK(hipamp::precise_math::sqrt(2.0) == std::sqrt(2.0));
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<double> xs = hipamp_test::random_vector<double>(513, 0.1, 8.0);
    // fast_math on a GPU uses approximate intrinsics; precise_math does not.
    const double fast_tol = 1e-4;
    SECTION("precise_math") { check(with_precise(acc, xs), xs, 1e-6); }
    SECTION("fast_math") { check(with_fast(acc, xs), xs, fast_tol); }
    SECTION("precise_math and std") { check(with_precise_and_std(acc, xs), xs, 1e-6); }
    SECTION("fast_math and std") { check(with_fast_and_std(acc, xs), xs, fast_tol); }
    SECTION("all three") { check(with_all(acc, xs), xs, fast_tol); }
    SECTION("precise_math and fast_math") { check(with_both_math(acc, xs), xs, fast_tol); }
  }
}
