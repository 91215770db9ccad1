// hipamp::sort, parallel_sort and parallel_sort_keys of float keys on every accelerator (NaNs,
// infinities and signed zeros in the documented order), on views and on arrays, checked bit
// for bit against std::stable_sort.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort: primitive keys of every small size and input pattern (float)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : small_sizes) {
      for (pattern p : {pattern::random, pattern::sorted, pattern::reversed, pattern::all_equal,
                        pattern::few_distinct}) {
        check_sort_view<float>(acc, n, p, false);
      }
      check_sort_view<float>(acc, n, pattern::with_nans, false);
    }
  }
}

TEST_CASE("sort: descending order is the exact reverse, NaNs first (float)", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n :
         {std::size_t(1), std::size_t(257), std::size_t(1000), std::size_t(70000)}) {
      check_sort_view<float>(acc, n, pattern::with_nans, true);
    }
  }
}

TEST_CASE("sort: sizes around 2^20 (float)", "[sort][large]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : large_sizes) check_sort_view<float>(acc, n, pattern::with_nans, false);
  }
}

TEST_CASE("sort: arrays, and sorting where the data lives", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<float> input = make_input<float>(3333, pattern::with_nans);
    hx::array<float, 1> a(3333, input.begin(), input.end(), acc.get_default_view());
    hx::sort(a);
    const std::vector<float> out = a;
    CHECK(same_bits(out, reference_sorted(input, false)));
  }
}

TEST_CASE("parallel_sort: primitive arrays, ascending and reversed (float)",
          "[sort][parallel_sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(255), std::size_t(257),
                          std::size_t(1000), std::size_t(40000)}) {
      INFO("n = " << n);
      const std::vector<float> floats = make_input<float>(n, pattern::with_nans);
      const hx::array<float, 1> fa(static_cast<int>(n), floats.begin(), floats.end(),
                                   acc.get_default_view());
      for (bool reverse : {false, true}) {
        const std::vector<float> sorted = *hx::parallel_sort(fa, reverse);
        CHECK(same_bits(sorted, reference_sorted(floats, reverse)));
      }
      // parallel_sort_keys of a primitive type: the sorted values; the source is unchanged.
      const std::vector<float> fk = *hx::parallel_sort_keys(fa);
      CHECK(same_bits(fk, reference_sorted(floats, false)));
      CHECK(same_bits(static_cast<std::vector<float>>(fa), floats));
    }
  }
}
