// hipamp::inclusive_scan / exclusive_scan on every accelerator, against std::inclusive_scan
// and std::exclusive_scan run here on the same random data. Outputs are poisoned first.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;

namespace {

const std::vector<std::size_t>& scan_sizes() {
  // Boundaries of CPU blocks (128 ints, 64 doubles) and pieces, GPU warps, tiles (8192
  // ints and floats, 2048 doubles) and look-back windows (32 tiles); the last size makes
  // more than 500 GPU tiles of ints, where the look-back sleeps between polls.
  static const std::vector<std::size_t> s = {
      1,     2,      3,      31,     32,      33,      255,     256,    257,   2047,
      2048,  2049,   4095,   4096,   4097,    8191,    8192,    8193,   65535, 65536,
      65537, 131073, 262145, 524289, 1048575, 1048577, 3000017, 4915205};
  return s;
}

// x -> a*x + b over 32-bit unsigned arithmetic (exact, wraps mod 2^32). Composition is
// associative but not commutative, so a scan that reorders operands gives wrong answers.
struct affine {
  unsigned a;
  unsigned b;
  bool operator==(const affine& o) const { return a == o.a && b == o.b; }
};
struct then_op {  // apply f, then g
  HIPAMP_RESTRICT affine operator()(const affine& f, const affine& g) const {
    return affine{f.a * g.a, f.b * g.a + g.b};
  }
};

std::vector<affine> random_affines(std::size_t n) {
  const std::vector<unsigned> r = hipamp_test::random_vector<unsigned>(2 * n, 0u, 0xffffffffu);
  std::vector<affine> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = affine{r[2 * i] | 1u, r[2 * i + 1]};
  return v;
}

template <class T>
void poison(std::vector<T>& v, const T& value) {
  std::fill(v.begin(), v.end(), value);
}

template <class T>
std::size_t first_mismatch(const std::vector<T>& got, const std::vector<T>& expected) {
  return static_cast<std::size_t>(std::mismatch(got.begin(), got.end(), expected.begin()).first -
                                  got.begin());
}

}  // namespace

TEST_CASE("scans of int32 match std::inclusive_scan and std::exclusive_scan", "[scan]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n : scan_sizes()) {
      INFO("n = " << n);
      const std::vector<int> in = hipamp_test::random_vector<int>(n, -1000, 1000);
      std::vector<int> expected(n), out(n);
      const hx::array_view<const int, 1> in_view(static_cast<int>(n), in.data());

      std::inclusive_scan(in.begin(), in.end(), expected.begin());
      poison(out, 0x7eadbeef);
      {
        const hx::array_view<int, 1> out_view(static_cast<int>(n), out.data());
        hx::inclusive_scan(av, in_view, out_view);
        out_view.synchronize();
      }
      CHECK(first_mismatch(out, expected) == n);

      std::exclusive_scan(in.begin(), in.end(), expected.begin(), -12345);
      poison(out, 0x7eadbeef);
      {
        const hx::array_view<int, 1> out_view(static_cast<int>(n), out.data());
        hx::exclusive_scan(av, in_view, out_view, -12345);
        out_view.synchronize();
      }
      CHECK(first_mismatch(out, expected) == n);

      // Another operator and a wider output type.
      std::vector<long long> wide(n), wide_expected(n);
      std::inclusive_scan(in.begin(), in.end(), wide_expected.begin(),
                          [](long long a, long long b) { return std::max(a, b); });
      poison(wide, -1LL);
      {
        const hx::array_view<long long, 1> wide_view(static_cast<int>(n), wide.data());
        hx::inclusive_scan(av, in_view, wide_view, hx::maximum<>());
        wide_view.synchronize();
      }
      CHECK(first_mismatch(wide, wide_expected) == n);
    }
  }
}

TEST_CASE("scans keep operand order: a non-commutative user operator and user type", "[scan]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n : scan_sizes()) {
      INFO("n = " << n);
      const std::vector<affine> in = random_affines(n);
      std::vector<affine> expected(n), out(n);
      const hx::array_view<const affine, 1> in_view(static_cast<int>(n), in.data());

      std::inclusive_scan(in.begin(), in.end(), expected.begin(), then_op());
      poison(out, affine{0, 0});
      {
        const hx::array_view<affine, 1> out_view(static_cast<int>(n), out.data());
        hx::inclusive_scan(av, in_view, out_view, then_op());
        out_view.synchronize();
      }
      CHECK(first_mismatch(out, expected) == n);

      const affine start{3, 7};
      std::exclusive_scan(in.begin(), in.end(), expected.begin(), start, then_op());
      poison(out, affine{0, 0});
      {
        const hx::array_view<affine, 1> out_view(static_cast<int>(n), out.data());
        hx::exclusive_scan(av, in_view, out_view, start, then_op());
        out_view.synchronize();
      }
      CHECK(first_mismatch(out, expected) == n);
    }
  }
}

TEST_CASE("scans in place, with 4- and 8-byte values and a lambda", "[scan]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (std::size_t n :
         {std::size_t{1}, std::size_t{4097}, std::size_t{65537}, std::size_t{1048577}}) {
      INFO("n = " << n);
      // Integer-valued floats: every partial sum is exact, so any order gives the same bits.
      const std::vector<int> ints = hipamp_test::random_vector<int>(n, -8, 8);
      std::vector<float> data(ints.begin(), ints.end());
      std::vector<float> expected(n);
      std::inclusive_scan(data.begin(), data.end(), expected.begin());
      {
        const hx::array_view<float, 1> view(static_cast<int>(n), data.data());
        hx::inclusive_scan(av, view, view);
        view.synchronize();
      }
      CHECK(first_mismatch(data, expected) == n);

      std::vector<unsigned long long> bits(n);
      for (std::size_t i = 0; i < n; ++i) bits[i] = 0x9e3779b97f4a7c15ull * (ints[i] + 100);
      std::vector<unsigned long long> bits_expected(n);
      std::exclusive_scan(bits.begin(), bits.end(), bits_expected.begin(), 0x1234ull,
                          [](unsigned long long a, unsigned long long b) { return a ^ b; });
      {
        const hx::array_view<unsigned long long, 1> view(static_cast<int>(n), bits.data());
        hx::exclusive_scan(
            av, view, view, 0x1234ull,
            [] HIPAMP_RESTRICT(unsigned long long a, unsigned long long b) { return a ^ b; });
        view.synchronize();
      }
      CHECK(first_mismatch(bits, bits_expected) == n);
    }
  }
}

TEST_CASE("scan of random floats stays within the running-sum error bound", "[scan]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::size_t n = 1000003;
    const std::vector<float> in = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
    std::vector<float> out(n, std::nanf(""));
    {
      const hx::array_view<float, 1> out_view(out);
      hx::inclusive_scan(acc.get_default_view(), hx::array_view<const float, 1>(in), out_view);
      out_view.synchronize();
    }
    // Every prefix is a sum of at most i+1 terms: error <= (i+1) * eps/2 * sum|x_j|.
    long double exact = 0, sum_abs = 0;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      exact += in[i];
      sum_abs += std::fabs(in[i]);
      const long double bound =
          static_cast<long double>(i + 1) * (std::numeric_limits<float>::epsilon() / 2) * sum_abs;
      if (!(std::fabs(static_cast<long double>(out[i]) - exact) <= bound)) ++bad;
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("scans over rank 2 views and strided sections", "[scan]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const int rows = 129, cols = 1031;
    const std::vector<int> in =
        hipamp_test::random_vector<int>(std::size_t{rows} * cols, -500, 500);
    std::vector<int> expected(in.size());
    std::inclusive_scan(in.begin(), in.end(), expected.begin());

    // Rank 2 in, rank 1 out: row-major order.
    std::vector<int> out(in.size(), -1);
    {
      const hx::array_view<int, 1> out_view(out);
      hx::inclusive_scan(av, hx::array_view<const int, 2>(rows, cols, in.data()), out_view);
      out_view.synchronize();
    }
    CHECK(first_mismatch(out, expected) == out.size());

    // A strided section in, into a strided section of a larger output.
    const hx::array_view<const int, 2> grid(rows, cols, in.data());
    const auto part = grid.section(hx::index<2>(5, 17), hx::extent<2>(100, 800));
    std::vector<int> part_values;
    for (int r = 0; r < 100; ++r) {
      for (int c = 0; c < 800; ++c)
        part_values.push_back(in[static_cast<std::size_t>(r + 5) * cols + c + 17]);
    }
    std::vector<int> part_expected(part_values.size());
    std::exclusive_scan(part_values.begin(), part_values.end(), part_expected.begin(), 9);

    std::vector<int> big(static_cast<std::size_t>(rows) * cols, -1);
    {
      const hx::array_view<int, 2> big_view(rows, cols, big.data());
      hx::exclusive_scan(av, part, big_view.section(hx::index<2>(20, 100), hx::extent<2>(100, 800)),
                         9);
      big_view.synchronize();
    }
    std::size_t wrong = 0, outside_touched = 0;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const int got = big[static_cast<std::size_t>(r) * cols + c];
        const bool inside = r >= 20 && r < 120 && c >= 100 && c < 900;
        if (inside) {
          if (got != part_expected[static_cast<std::size_t>(r - 20) * 800 + (c - 100)]) ++wrong;
        } else if (got != -1) {
          ++outside_touched;
        }
      }
    }
    CHECK(wrong == 0);
    CHECK(outside_touched == 0);
  }
}

TEST_CASE("scans over pointer ranges: empty ranges, in place, results on the host", "[scan]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    std::vector<int> data = hipamp_test::random_vector<int>(77777, -100, 100);
    std::vector<int> untouched(1, 555);
    hx::inclusive_scan(av, data.data(), data.data(), untouched.data());
    hx::exclusive_scan(av, data.data(), data.data(), untouched.data(), 3);
    CHECK(untouched[0] == 555);

    std::vector<int> expected(data.size());
    std::exclusive_scan(data.begin(), data.end(), expected.begin(), 3);
    hx::exclusive_scan(av, data.data(), data.data() + data.size(), data.data(), 3);  // in place
    CHECK(first_mismatch(data, expected) == data.size());

    std::vector<long long> out(data.size(), -1);
    std::vector<long long> wide_expected(data.size());
    // The reference is given a long long start: without one, std::inclusive_scan accumulates
    // in the input's type (int), and these running sums can pass 2^31.
    std::inclusive_scan(data.begin() + 1, data.end(), wide_expected.begin() + 1,
                        std::plus<long long>(), 0LL);  // NOLINT: the sum is taken in long long
    hx::inclusive_scan(av, data.data() + 1, data.data() + data.size(),
                       out.data() + 1);  // misaligned
    CHECK(out[0] == -1);
    CHECK(std::equal(out.begin() + 1, out.end(), wide_expected.begin() + 1));
  }
}

TEST_CASE("scans reject views of different sizes, naming them", "[scan]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> a(100), b(99);
    try {
      hx::inclusive_scan(acc.get_default_view(), hx::array_view<const int, 1>(a),
                         hx::array_view<int, 1>(b));
      FAIL("no exception");
    } catch (const hx::runtime_exception& e) {
      const std::string message = e.what();
      CHECK(message.find("100") != std::string::npos);
      CHECK(message.find("99") != std::string::npos);
    }
  }
}

TEST_CASE("scan over 10^8 elements", "[scan][.large]") {
  const std::size_t n = 100000000;
  const std::vector<int> in = hipamp_test::random_vector<int>(n, -10, 10);
  std::vector<long long> expected(n);
  // NOLINTNEXTLINE(modernize-use-transparent-functors): the sum is taken in long long
  std::inclusive_scan(in.begin(), in.end(), expected.begin(), std::plus<long long>(), 0LL);
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<long long> out(n, -1);
    {
      const hx::array_view<long long, 1> out_view(out);
      hx::inclusive_scan(acc.get_default_view(), hx::array_view<const int, 1>(in), out_view);
      out_view.synchronize();
    }
    CHECK(first_mismatch(out, expected) == n);
  }
}
