// hipamp::sort of long long and short keys on every accelerator, checked bit for bit against
// std::stable_sort.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort: primitive keys of every small size and input pattern (long long, short)",
          "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : small_sizes) {
      check_sort_view<long long>(acc, n, pattern::random, false);
      check_sort_view<short>(acc, n, pattern::random, false);
    }
  }
}
