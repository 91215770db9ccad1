// hipamp::sort and stable_sort with user comparators on every accelerator: ties left in any
// order by sort and in input order by stable_sort, on ints and on the paper's struct.
// One unit per group of sort kernels (key type and order, or comparator): nvcc instantiates
// each group once per unit, and the single test_sort.cpp of all groups took 556 s to compile.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

TEST_CASE("sort: a user comparator, and stable_sort keeps ties in order", "[sort]") {
  // Sorting by the last decimal digit leaves many ties.
  const auto by_digit = [] HIPAMP_RESTRICT(const int& a, const int& b) { return a % 10 < b % 10; };
  const auto ref_by_digit = [](int a, int b) { return a % 10 < b % 10; };
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : {std::size_t(2), std::size_t(3), std::size_t(257), std::size_t(1000),
                          std::size_t(9000), std::size_t(70001)}) {
      INFO("n = " << n);
      const std::vector<int> input = hipamp_test::random_vector<int>(n, 0, 1 << 30);
      std::vector<int> expected = input;
      std::stable_sort(expected.begin(), expected.end(), ref_by_digit);

      std::vector<int> unstable = input;
      hx::sort(acc.get_default_view(), hx::array_view<int, 1>(static_cast<int>(n), unstable),
               by_digit);
      std::vector<int> digits(n), expected_digits(n);
      for (std::size_t i = 0; i < n; ++i) {
        digits[i] = unstable[i] % 10;
        expected_digits[i] = expected[i] % 10;
      }
      CHECK(digits == expected_digits);
      CHECK(is_permutation_of(unstable, input));

      std::vector<int> stable = input;
      hx::stable_sort(acc.get_default_view(), hx::array_view<int, 1>(static_cast<int>(n), stable),
                      by_digit);
      CHECK(stable == expected);
    }
  }
}

TEST_CASE("sort: stable_sort of a struct by one member", "[sort]") {
  const auto by_y = [] HIPAMP_RESTRICT(const paper_type& a, const paper_type& b) {
    return a.y < b.y;
  };
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n :
         {std::size_t(1), std::size_t(255), std::size_t(5000), std::size_t(20001)}) {
      INFO("n = " << n);
      const std::vector<paper_type> input = paper_input(n, false);
      std::vector<paper_type> expected = input;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const paper_type& a, const paper_type& b) { return a.y < b.y; });
      std::vector<paper_type> data = input;
      hx::stable_sort(acc.get_default_view(),
                      hx::array_view<paper_type, 1>(static_cast<int>(n), data), by_y);
      CHECK(std::equal(data.begin(), data.end(), expected.begin(), same_element));
    }
  }
}
