// The paper's user type sorted through its key_index_type on every accelerator: a view sorted
// in place by key, parallel_sort and parallel_sort_keys (the differences example).
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort: a view of a key_index type sorts by its keys in place", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<paper_type> input = paper_input(3000, true);
    std::vector<paper_type> data = input;
    hx::array_view<paper_type, 1> view(3000, data);
    hx::sort(acc.get_default_view(), view);
    view.synchronize();
    std::vector<paper_type> expected = input;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const paper_type& a, const paper_type& b) { return a.y < b.y; });
    CHECK(std::equal(data.begin(), data.end(), expected.begin(), same_element));
  }
}

TEST_CASE("parallel_sort: the paper's user type sorted by y", "[sort][parallel_sort]") {
  const auto by_y = [](const paper_type& a, const paper_type& b) { return a.y < b.y; };
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(256), std::size_t(1000),
                          std::size_t(65537)}) {
      INFO("n = " << n);
      for (bool unique : {true, false}) {
        const std::vector<paper_type> input = paper_input(n, unique);
        std::vector<paper_type> expected = input;
        std::stable_sort(expected.begin(), expected.end(), by_y);
        const hx::array<paper_type, 1> source(static_cast<int>(n), input.begin(), input.end(),
                                              acc.get_default_view());
        const std::vector<paper_type> sorted = *hx::parallel_sort(source);
        const std::vector<paper_type> reversed = *hx::parallel_sort(source, true);
        CHECK(is_permutation_of(sorted, input));
        CHECK(is_permutation_of(reversed, input));
        bool keys_match = true;
        for (std::size_t i = 0; i < n; ++i) {
          keys_match &= sorted[i].y == expected[i].y && reversed[i].y == expected[n - 1 - i].y;
        }
        CHECK(keys_match);
        if (unique) {
          CHECK(std::equal(sorted.begin(), sorted.end(), expected.begin(), same_element));
          CHECK(std::equal(reversed.begin(), reversed.end(), expected.rbegin(), same_element));
        }
        CHECK(std::equal(input.begin(), input.end(),
                         static_cast<std::vector<paper_type>>(source).begin(), same_element));
      }
    }
  }
}

TEST_CASE("parallel_sort_keys: the paper's differences example", "[sort][parallel_sort]") {
  using key = hx::key_index_t<paper_type>;
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n :
         {std::size_t(2), std::size_t(257), std::size_t(4096), std::size_t(30001)}) {
      INFO("n = " << n);
      const std::vector<paper_type> input = paper_input(n, true);
      const hx::array<paper_type, 1> source(static_cast<int>(n), input.begin(), input.end(),
                                            acc.get_default_view());
      const std::shared_ptr<hx::array<key, 1>> keys = hx::parallel_sort_keys(source);
      // Differences between each element's x and the next one's, in sorted order,
      // computed on the accelerator from the keys without reordering the source.
      hx::array<float, 1> differences(static_cast<int>(n - 1), acc.get_default_view());
      const hx::array_view<const paper_type, 1> src(source);
      const hx::array_view<const key, 1> k(*keys);
      const hx::array_view<float, 1> d(differences);
      d.discard_data();
      hx::parallel_for_each(acc.get_default_view(), d.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        d[i] = src[k[i[0] + 1].i].x - src[k[i].i].x;
      });
      const std::vector<float> got = differences;

      std::vector<paper_type> expected = input;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const paper_type& a, const paper_type& b) { return a.y < b.y; });
      std::vector<float> want(n - 1);
      for (std::size_t i = 0; i + 1 < n; ++i) want[i] = expected[i + 1].x - expected[i].x;
      CHECK(got == want);
      // The keys index the source: k[j].i is the position of the j-th smallest y.
      const std::vector<key> host_keys = *keys;
      bool indexes_match = true;
      for (std::size_t j = 0; j < n; ++j) {
        indexes_match &= host_keys[j].k == expected[j].y &&
                         input[static_cast<std::size_t>(host_keys[j].i)].y == expected[j].y;
      }
      CHECK(indexes_match);
    }
  }
}
