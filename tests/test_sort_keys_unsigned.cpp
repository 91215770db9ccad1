// hipamp::sort and parallel_sort of unsigned keys on every accelerator: ascending, descending,
// whole views and a section, checked against std::stable_sort / std::sort.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort: primitive keys of every small size and input pattern (unsigned)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : small_sizes) {
      for (pattern p : {pattern::random, pattern::sorted, pattern::reversed, pattern::all_equal,
                        pattern::few_distinct}) {
        check_sort_view<unsigned>(acc, n, p, false);
      }
    }
  }
}

TEST_CASE("sort: descending order is the exact reverse, NaNs first (unsigned)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n :
         {std::size_t(1), std::size_t(257), std::size_t(1000), std::size_t(70000)}) {
      check_sort_view<unsigned>(acc, n, pattern::few_distinct, true);
    }
  }
}

TEST_CASE("sort: sizes around 2^20 (unsigned)", "[sort][large]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : large_sizes) check_sort_view<unsigned>(acc, n, pattern::random, false);
  }
}

TEST_CASE("sort: a section is sorted, the rest of its source untouched", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<unsigned> input = make_input<unsigned>(5000, pattern::random);
    std::vector<unsigned> data = input;
    hx::array_view<unsigned, 1> whole(5000, data);
    hx::sort(acc.get_default_view(), whole.section(1000, 3001));
    whole.synchronize();
    std::vector<unsigned> expected = input;
    std::sort(expected.begin() + 1000, expected.begin() + 4001);
    CHECK(data == expected);
  }
}

TEST_CASE("parallel_sort: primitive arrays, ascending and reversed (unsigned)",
          "[sort][parallel_sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(255), std::size_t(257),
                          std::size_t(1000), std::size_t(40000)}) {
      INFO("n = " << n);
      const std::vector<unsigned> uints = make_input<unsigned>(n, pattern::few_distinct);
      const hx::array<unsigned, 1> ua(static_cast<int>(n), uints.begin(), uints.end(),
                                      acc.get_default_view());
      for (bool reverse : {false, true}) {
        const std::vector<unsigned> sorted = *hx::parallel_sort(ua, reverse);
        CHECK(sorted == reference_sorted(uints, reverse));
      }
    }
  }
}
