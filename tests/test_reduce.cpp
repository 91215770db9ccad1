// hipamp::reduce and its family on every accelerator, against references computed here in
// higher precision (long double) or exactly (64-bit integers) on fresh random data.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;

namespace {

// Sizes around every boundary the implementations have: SIMD lanes and blocks on the CPU,
// warps, vectors, tiles and the 16-byte alignment peel on a GPU.
const std::vector<std::size_t>& sizes() {
  static const std::vector<std::size_t> s = {
      1,     2,     3,     5,     15,    16,     17,     31,      32,     33,
      255,   256,   257,   1023,  1024,  1025,   4095,   4096,    4097,   16383,
      16385, 65535, 65536, 65537, 99991, 262143, 262145, 1048577, 3000017};
  return s;
}

// Pairwise summation's bound (reduce.hpp): at most 2 log2(n) + 20 roundings per element.
template <class T>
long double pairwise_bound(std::size_t n, long double sum_abs) {
  const long double depth = 2.0L * std::ceil(std::log2(static_cast<long double>(n))) + 20.0L;
  const long double unit_roundoff = std::numeric_limits<T>::epsilon() / 2;
  return depth * unit_roundoff * sum_abs;
}

struct stats {  // a user type: a running sum and a count
  float sum;
  int count;
};

// A user operator with a nontrivial identity-free structure: keep the two largest values.
struct top2 {
  int first;
  int second;
};
struct top2_op {
  HIPAMP_RESTRICT top2 operator()(const top2& a, const top2& b) const {
    const int hi = a.first > b.first ? a.first : b.first;
    const int lo_a = a.first > b.first ? b.first : a.first;
    const int rest = a.second > b.second ? a.second : b.second;
    return top2{hi, lo_a > rest ? lo_a : rest};
  }
};

}  // namespace

TEST_CASE("the pairwise accumulator keeps operand order at every count", "[reduce]") {
  // x -> a*x + b composed in sequence (mod 2^32): associative, not commutative, exact.
  struct affine {
    unsigned a, b;
  };
  const auto then = [](const affine& f, const affine& g) {
    return affine{f.a * g.a, f.b * g.a + g.b};
  };
  for (int count = 1; count <= 1100; count += 1 + count / 16) {
    INFO("count = " << count);
    const std::vector<unsigned> r =
        hipamp_test::random_vector<unsigned>(std::size_t{2} * count, 0u, 0xffffffffu);
    hipamp::detail::pairwise_accumulator<affine, 64> deep;
    hipamp::detail::pairwise_accumulator<affine, 4> shallow;  // overflows its top level
    affine serial{1, 0};
    for (int i = 0; i < count; ++i) {
      const affine x{r[std::size_t{2} * i] | 1u, r[std::size_t{2} * i + 1]};
      deep.push(x, then);
      shallow.push(x, then);
      serial = then(serial, x);
    }
    CHECK(deep.total(then).a == serial.a);
    CHECK(deep.total(then).b == serial.b);
    CHECK(shallow.total(then).a == serial.a);
    CHECK(shallow.total(then).b == serial.b);
  }
}

TEST_CASE("reduce of int32 is exact for every size", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n : sizes()) {
      INFO("n = " << n);
      const std::vector<int> data = hipamp_test::random_vector<int>(n, -1000, 1000);
      const long long exact = std::accumulate(data.begin(), data.end(), 17LL);
      const hx::array_view<const int, 1> view(static_cast<int>(n), data.data());
      CHECK(hx::reduce(av, view, 17LL) == exact);
      CHECK(hx::reduce(av, view, 17) == static_cast<int>(exact));  // no overflow in this range
      CHECK(hx::reduce(av, view, 17LL, hx::plus<>()) == exact);
    }
  }
}

TEST_CASE("reduce of float and double stays within the pairwise bound", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n : sizes()) {
      INFO("n = " << n);
      const std::vector<float> f = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
      long double exact = 0, sum_abs = 0;
      for (float x : f) {
        exact += x;
        sum_abs += std::fabs(x);
      }
      const float got =
          hx::reduce(av, hx::array_view<const float, 1>(static_cast<int>(n), f.data()), 0.0f);
      CHECK(std::fabs(static_cast<long double>(got) - exact) <= pairwise_bound<float>(n, sum_abs));

      // All positive: the error a serial loop accumulates grows with n; pairwise does not.
      const std::vector<double> d = hipamp_test::random_vector<double>(n, 0.0, 1.0);
      long double exact_d = 0.5L;
      for (double x : d) exact_d += x;
      const double got_d =
          hx::reduce(av, hx::array_view<const double, 1>(static_cast<int>(n), d.data()), 0.5);
      CHECK(std::fabs(static_cast<long double>(got_d) - exact_d) <=
            pairwise_bound<double>(n + 1, exact_d));
    }
  }
}

TEST_CASE("reduce of floats is far more accurate than a serial float loop", "[reduce]") {
  // 2^24 values near 0.1: a serial float loop rounds the same way at almost every step and
  // drifts by about 15%; the pairwise tree stays within its bound.
  const std::size_t n = std::size_t{1} << 24;
  const std::vector<float> data = hipamp_test::random_vector<float>(n, 0.1f, 0.1001f);
  long double exact = 0;
  for (float x : data) exact += x;
  float serial = 0;
  for (float x : data) serial += x;
  FOR_EACH_ACCELERATOR(acc) {
    const float got =
        hx::reduce(acc.get_default_view(), hx::array_view<const float, 1>(data), 0.0f);
    const long double error = std::fabs(static_cast<long double>(got) - exact);
    CHECK(error <= pairwise_bound<float>(n, exact));
    CHECK(error * 1000 < std::fabs(serial - exact));
  }
}

TEST_CASE("transform_reduce applies the transform on the device", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n :
         {std::size_t{1}, std::size_t{1000}, std::size_t{65537}, std::size_t{1000003}}) {
      INFO("n = " << n);
      const std::vector<int> data = hipamp_test::random_vector<int>(n, -3000, 3000);
      long long squares = -5;
      for (int x : data) squares += static_cast<long long>(x) * x;
      const hx::array_view<const int, 1> view(static_cast<int>(n), data.data());
      CHECK(hx::transform_reduce(av, view, -5LL, hx::plus<>(), [] HIPAMP_RESTRICT(int x) {
              return static_cast<long long>(x) * x;
            }) == squares);
    }
  }
}

TEST_CASE("reduce with a user type and user operators", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{4097}, std::size_t{300001}}) {
      INFO("n = " << n);
      const std::vector<float> data = hipamp_test::random_vector<float>(n, 0.0f, 2.0f);
      long double exact = 0;
      for (float x : data) exact += x;
      const hx::array_view<const float, 1> view(static_cast<int>(n), data.data());
      const stats s = hx::transform_reduce(
          av, view, stats{1.0f, 3},
          [] HIPAMP_RESTRICT(const stats& a, const stats& b) {
            return stats{a.sum + b.sum, a.count + b.count};
          },
          [] HIPAMP_RESTRICT(float x) {
            return stats{x, 1};
          });
      CHECK(s.count == static_cast<int>(n) + 3);
      CHECK(std::fabs(s.sum - (exact + 1)) <= pairwise_bound<float>(n + 1, exact + 1));

      // A user type as the element type, and an operator that is not arithmetic.
      const std::vector<int> values = hipamp_test::random_vector<int>(n, -1000000, 1000000);
      std::vector<top2> pairs(n);
      for (std::size_t i = 0; i < n; ++i)
        pairs[i] = top2{values[i], std::numeric_limits<int>::min()};
      std::vector<int> sorted = values;
      sorted.push_back(std::numeric_limits<int>::min());
      std::sort(sorted.rbegin(), sorted.rend());
      const top2 best = hx::reduce(
          av, hx::array_view<const top2, 1>(static_cast<int>(n), pairs.data()),
          top2{std::numeric_limits<int>::min(), std::numeric_limits<int>::min()}, top2_op());
      CHECK(best.first == sorted[0]);
      CHECK(best.second == sorted[1]);

      // A user lambda on a built-in type: bitwise xor.
      std::vector<unsigned> bits(n);
      for (std::size_t i = 0; i < n; ++i) bits[i] = static_cast<unsigned>(values[i]) * 2654435761u;
      unsigned expected = 0x5a5a5a5au;
      for (unsigned b : bits) expected ^= b;
      CHECK(hx::reduce(av, hx::array_view<const unsigned, 1>(static_cast<int>(n), bits.data()),
                       0x5a5a5a5au,
                       [] HIPAMP_RESTRICT(unsigned a, unsigned b) { return a ^ b; }) == expected);
    }
  }
}

TEST_CASE("min, max, minmax and their indices report the first extreme element", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n : sizes()) {
      INFO("n = " << n);
      // A narrow range makes ties certain for large n: the first index must win.
      const std::vector<int> data = hipamp_test::random_vector<int>(n, -40, 40);
      const hx::array_view<const int, 1> view(static_cast<int>(n), data.data());
      const auto min_it = std::min_element(data.begin(), data.end());
      const auto max_it = std::max_element(data.begin(), data.end());  // also the first maximum
      const std::size_t min_at = static_cast<std::size_t>(min_it - data.begin());
      const std::size_t max_at = static_cast<std::size_t>(max_it - data.begin());

      CHECK(hx::reduce_min(av, view) == *min_it);
      CHECK(hx::reduce_max(av, view) == *max_it);
      const hx::minmax_value<int> mm = hx::minmax(av, view);
      CHECK(mm.min == *min_it);
      CHECK(mm.max == *max_it);
      const hx::value_index<int> lo = hx::argmin(av, view);
      CHECK(lo.value == *min_it);
      CHECK(lo.index == min_at);
      const hx::value_index<int> hi = hx::argmax(av, view);
      CHECK(hi.value == *max_it);
      CHECK(hi.index == max_at);
      const hx::minmax_index<int> both = hx::argminmax(av, view);
      CHECK(both.min.index == min_at);
      CHECK(both.max.index == max_at);
      CHECK(both.min.value == *min_it);
      CHECK(both.max.value == *max_it);

      const std::vector<double> reals = hipamp_test::random_vector<double>(n, -1e6, 1e6);
      const hx::array_view<const double, 1> real_view(static_cast<int>(n), reals.data());
      const auto real_min = std::min_element(reals.begin(), reals.end());
      const hx::value_index<double> rlo = hx::argmin(av, real_view);
      CHECK(rlo.value == *real_min);
      CHECK(rlo.index == static_cast<std::size_t>(real_min - reals.begin()));
      CHECK(hx::reduce_max(av, real_view) == *std::max_element(reals.begin(), reals.end()));
    }
  }
}

TEST_CASE("reduce over rank 2 and 3 views and strided sections", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const int rows = 301, cols = 517;
    const std::vector<int> data =
        hipamp_test::random_vector<int>(std::size_t{rows} * cols, -100000, 100000);
    const hx::array_view<const int, 2> grid(rows, cols, data.data());
    CHECK(hx::reduce(av, grid, 0LL) == std::accumulate(data.begin(), data.end(), 0LL));
    const hx::array_view<const int, 3> cube(7, 43, 517, data.data());
    CHECK(hx::reduce(av, cube, 0LL) == std::accumulate(data.begin(), data.end(), 0LL));

    // A section is strided: rows 10..209, columns 3..402.
    const hx::array_view<const int, 2> part =
        grid.section(hx::index<2>(10, 3), hx::extent<2>(200, 400));
    long long expected = 0;
    int min_value = std::numeric_limits<int>::max();
    std::size_t min_at = 0;
    for (int r = 0; r < 200; ++r) {
      for (int c = 0; c < 400; ++c) {
        const int x = data[static_cast<std::size_t>(r + 10) * cols + c + 3];
        expected += x;
        if (x < min_value) {
          min_value = x;
          min_at = static_cast<std::size_t>(r) * 400 + c;  // row-major in the section
        }
      }
    }
    CHECK(hx::reduce(av, part, 0LL) == expected);
    const hx::value_index<int> lo = hx::argmin(av, part);
    CHECK(lo.value == min_value);
    CHECK(lo.index == min_at);
  }
}

TEST_CASE("reduce_into leaves the result on the device for the next kernel", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const std::size_t n = 100003;
    const std::vector<int> data = hipamp_test::random_vector<int>(n, -1000, 1000);
    const long long exact = std::accumulate(data.begin(), data.end(), 4LL);
    std::vector<long long> result(1, -777);  // poisoned
    const hx::array_view<long long, 1> result_view(result);
    hx::reduce_into(av, hx::array_view<const int, 1>(data), result_view, 4LL);
    CHECK(result_view[0] == exact);

    std::vector<float> mean(1, -1.0f);
    const hx::array_view<float, 1> mean_view(mean);
    hx::transform_reduce_into(av, hx::array_view<const int, 1>(data), mean_view, 0.0f, hx::plus<>(),
                              [] HIPAMP_RESTRICT(int x) { return static_cast<float>(x); });
    mean_view.synchronize();
    CHECK(std::fabs(mean[0] - static_cast<float>(exact - 4)) <=
          static_cast<float>(pairwise_bound<float>(n, 1000.0L * n)));

    std::vector<long long> two(2);
    CHECK_THROWS_AS(hx::reduce_into(av, hx::array_view<const int, 1>(data),
                                    hx::array_view<long long, 1>(two), 0LL),
                    hx::runtime_exception);
    try {
      hx::reduce_into(av, hx::array_view<const int, 1>(data), hx::array_view<long long, 1>(two),
                      0LL);
    } catch (const hx::runtime_exception& e) {
      CHECK(std::string(e.what()).find("extent 2") != std::string::npos);
    }
  }
}

TEST_CASE("reduce over pointer ranges accepts empty ranges", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const std::vector<int> data = hipamp_test::random_vector<int>(5000, -100, 100);
    CHECK(hx::reduce(av, data.data(), data.data(), 42) == 42);
    CHECK(hx::transform_reduce(av, data.data(), data.data(), 1.5, hx::plus<>(),
                               [] HIPAMP_RESTRICT(int x) { return 2.0 * x; }) == 1.5);
    CHECK(hx::reduce(av, data.data(), data.data() + 1, 42) == 42 + data[0]);
    CHECK(hx::reduce(av, data.data() + 1, data.data() + data.size(), 0LL) ==
          std::accumulate(data.begin() + 1, data.end(), 0LL));  // misaligned start
  }
  const std::vector<int> data = hipamp_test::random_vector<int>(333, -100, 100);
  CHECK(hx::reduce(data.data(), data.data() + data.size(), 0LL) ==
        std::accumulate(data.begin(), data.end(), 0LL));
}

TEST_CASE("reduce of an array's view runs where the array lives", "[reduce]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<int> data = hipamp_test::random_vector<int>(70001, -1000, 1000);
    hx::array<int, 1> on_device(hx::extent<1>(70001), data.begin(), data.end(),
                                acc.get_default_view());
    const hx::array_view<int, 1> view(on_device);
    CHECK(hx::reduce(view, 0LL) == std::accumulate(data.begin(), data.end(), 0LL));
    CHECK(hx::reduce_max(view) == *std::max_element(data.begin(), data.end()));
  }
}

TEST_CASE("reduce over 10^8 elements", "[reduce][.large]") {
  const std::size_t n = 100000000;
  std::vector<int> ints(n);
  std::vector<float> floats(n);
  {
    std::uniform_int_distribution<int> dist(-100, 100);
    auto& rng = hipamp_test::rng();
    for (std::size_t i = 0; i < n; ++i) {
      ints[i] = dist(rng);
      floats[i] = static_cast<float>(ints[i]) * 0.01f + 0.5f;
    }
  }
  const long long exact_int = std::accumulate(ints.begin(), ints.end(), 0LL);
  long double exact_float = 0;
  for (float x : floats) exact_float += x;
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    CHECK(hx::reduce(av, hx::array_view<const int, 1>(ints), 0LL) == exact_int);
    const float got = hx::reduce(av, hx::array_view<const float, 1>(floats), 0.0f);
    CHECK(std::fabs(static_cast<long double>(got) - exact_float) <=
          pairwise_bound<float>(n, exact_float));  // all positive: sum|x| = sum
    const auto lo = hx::argmin(av, hx::array_view<const int, 1>(ints));
    CHECK(lo.index ==
          static_cast<std::size_t>(std::min_element(ints.begin(), ints.end()) - ints.begin()));
  }
}
