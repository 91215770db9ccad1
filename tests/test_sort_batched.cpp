// hipamp::batched_sort on every accelerator: every row of a 2-D view sorted on its own, with the
// default order and with a comparator on a section, against std::stable_sort per row.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("batched_sort: every row sorted on its own", "[sort]") {
  struct shape {
    int rows;
    int length;
  };
  FOR_EACH_ACCELERATOR(acc) {
    for (shape s : {shape{1000, 1}, shape{300, 3}, shape{100, 255}, shape{64, 256}, shape{37, 257},
                    shape{5, 1000}, shape{3, 9000}, shape{1, 20000}}) {
      INFO(s.rows << " rows of " << s.length);
      const std::size_t n = static_cast<std::size_t>(s.rows) * s.length;
      const std::vector<int> input = hipamp_test::random_vector<int>(n, -500, 500);
      std::vector<int> data = input;
      hx::array_view<int, 2> view(s.rows, s.length, data);
      hx::batched_sort(acc.get_default_view(), view);
      view.synchronize();
      std::vector<int> expected = input;
      for (int r = 0; r < s.rows; ++r) {
        std::stable_sort(expected.begin() + static_cast<std::ptrdiff_t>(r) * s.length,
                         expected.begin() + static_cast<std::ptrdiff_t>(r + 1) * s.length);
      }
      CHECK(data == expected);

      // The same with a comparator (descending) on a section: rows with gaps between them.
      std::vector<float> wide =
          hipamp_test::random_vector<float>(n + std::size_t{2} * s.rows, -1.f, 1.f);
      const std::vector<float> wide_input = wide;
      hx::array_view<float, 2> all(s.rows, s.length + 2, wide);
      hx::batched_sort(acc.get_default_view(),
                       all.section(hx::index<2>(0, 1), hx::extent<2>(s.rows, s.length)),
                       [] HIPAMP_RESTRICT(const float& a, const float& b) { return a > b; });
      all.synchronize();
      std::vector<float> wide_expected = wide_input;
      for (int r = 0; r < s.rows; ++r) {
        auto first = wide_expected.begin() + static_cast<std::ptrdiff_t>(r) * (s.length + 2) + 1;
        std::stable_sort(first, first + s.length, [](float a, float b) { return a > b; });
      }
      CHECK(wide == wide_expected);
    }
  }
}
