// hipamp::sort of double keys on every accelerator, ascending and descending, NaNs included,
// checked bit for bit against std::stable_sort.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort: primitive keys of every small size and input pattern (double)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : small_sizes) {
      check_sort_view<double>(acc, n, pattern::with_nans, false);
    }
  }
}

TEST_CASE("sort: descending order is the exact reverse, NaNs first (double)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n :
         {std::size_t(1), std::size_t(257), std::size_t(1000), std::size_t(70000)}) {
      check_sort_view<double>(acc, n, pattern::with_nans, true);
    }
  }
}
