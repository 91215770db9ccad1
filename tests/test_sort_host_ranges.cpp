// hipamp::sort of host ranges (pointer pairs) on every accelerator, empty ones included.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort: host ranges, including empty ones", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> empty;
    hx::sort(acc.get_default_view(), empty.data(), empty.data());
    int one = 42;
    hx::sort(acc.get_default_view(), &one, &one + 1);
    CHECK(one == 42);
    const std::vector<int> input = make_input<int>(777, pattern::random);
    std::vector<int> data = input;
    hx::sort(acc.get_default_view(), data.data(), data.data() + data.size(),
             [] HIPAMP_RESTRICT(const int& a, const int& b) { return a > b; });
    CHECK(data == reference_sorted(input, true));
  }
}
