// hipamp::sort and parallel_sort of int keys on every accelerator, ascending and descending,
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

TEST_CASE("sort: primitive keys of every small size and input pattern (int)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : small_sizes) {
      for (pattern p : {pattern::random, pattern::sorted, pattern::reversed, pattern::all_equal,
                        pattern::few_distinct}) {
        check_sort_view<int>(acc, n, p, false);
      }
    }
  }
}

TEST_CASE("sort: descending order is the exact reverse, NaNs first (int)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n :
         {std::size_t(1), std::size_t(257), std::size_t(1000), std::size_t(70000)}) {
      check_sort_view<int>(acc, n, pattern::random, true);
    }
  }
}

TEST_CASE("sort: sizes around 2^20 (int)", "[sort][large]") {
  FOR_EACH_ACCELERATOR(acc) {
    check_sort_view<int>(acc, large_sizes[1], pattern::few_distinct, true);
  }
}

TEST_CASE("parallel_sort: primitive arrays, ascending and reversed (int)",
          "[sort][parallel_sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(255), std::size_t(257),
                          std::size_t(1000), std::size_t(40000)}) {
      INFO("n = " << n);
      const std::vector<int> ints = make_input<int>(n, pattern::random);
      const hx::array<int, 1> ia(static_cast<int>(n), ints.begin(), ints.end(),
                                 acc.get_default_view());
      for (bool reverse : {false, true}) {
        const std::vector<int> sorted = *hx::parallel_sort(ia, reverse);
        CHECK(sorted == reference_sorted(ints, reverse));
      }
    }
  }
}
