// hipamp::sort_by_key on every accelerator: values travel with their keys.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort_by_key: values travel with their keys", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    // (On a GPU the network of 8-byte pairs, 2^12 tiles: 4095 .. 2^16 - 3 end in a nearly full
    // tile, padded with its maximum; few distinct keys, so the values check the ties.)
    for (std::size_t n :
         {std::size_t(1), std::size_t(3), std::size_t(256), std::size_t(1000), std::size_t(33000),
          std::size_t(4095), std::size_t(3 * 4096 - 1), std::size_t(65535), std::size_t(65533)}) {
      INFO("n = " << n);
      const std::vector<float> input = make_input<float>(n, pattern::few_distinct);
      std::vector<float> keys = input;
      std::vector<int> values(n);
      std::iota(values.begin(), values.end(), 0);
      hx::array_view<float, 1> key_view(static_cast<int>(n), keys);
      hx::array_view<int, 1> value_view(static_cast<int>(n), values);
      hx::sort_by_key(acc.get_default_view(), key_view, value_view);
      key_view.synchronize();
      value_view.synchronize();
      CHECK(same_bits(keys, reference_sorted(input, false)));
      std::vector<int> seen = values;
      std::sort(seen.begin(), seen.end());
      std::vector<int> all(n);
      std::iota(all.begin(), all.end(), 0);
      CHECK(seen == all);
      bool pairs_intact = true;
      for (std::size_t i = 0; i < n; ++i)
        pairs_intact &= input[static_cast<std::size_t>(values[i])] == keys[i];
      CHECK(pairs_intact);
    }
  }
}
