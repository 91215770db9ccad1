// Inputs, references and the paper's user type shared by the sort tests (test_sort_*.cpp).
// The sort tests are split into one unit per group of sort kernels (key type and order, or
// comparator), so that no unit instantiates more than a few: nvcc compiled the single
// test_sort.cpp for 556 s (issue 17). A new sort test goes into the unit of its kernel group.
// The references are written independently of hipamp's (sort_order.hpp's float order included).
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "support.hpp"

// The helpers launch sorts, so they live in the ABI namespace of the unit's kind (config.hpp):
// a host-only test file may include this header without its copies replacing a GPU unit's.
// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
namespace sort_test {
inline namespace HIPAMP_ALGORITHMS_ABI {

namespace hx = hipamp;

enum class pattern { random, sorted, reversed, all_equal, few_distinct, with_nans };

inline const char* name_of(pattern p) {
  switch (p) {
    case pattern::random:
      return "random";
    case pattern::sorted:
      return "sorted";
    case pattern::reversed:
      return "reversed";
    case pattern::all_equal:
      return "all equal";
    case pattern::few_distinct:
      return "few distinct";
    case pattern::with_nans:
      return "with NaNs";
  }
  return "?";
}

template <class T>
std::vector<T> make_input(std::size_t n, pattern p) {
  std::vector<T> v;
  if constexpr (std::is_floating_point<T>::value) {
    v = hipamp_test::random_vector<T>(n, T(-1000), T(1000));
  } else if constexpr (std::is_signed<T>::value) {
    v = hipamp_test::random_vector<T>(n, std::numeric_limits<T>::min(),
                                      std::numeric_limits<T>::max());
  } else {
    v = hipamp_test::random_vector<T>(n, T(0), std::numeric_limits<T>::max());
  }
  switch (p) {
    case pattern::random:
      break;
    case pattern::sorted:
      std::sort(v.begin(), v.end());
      break;
    case pattern::reversed:
      std::sort(v.begin(), v.end(), [](T a, T b) { return b < a; });
      break;
    case pattern::all_equal:
      std::fill(v.begin(), v.end(), v.empty() ? T() : v[0]);
      break;
    case pattern::few_distinct:
      for (auto& x : v) x = static_cast<T>(hipamp_test::rng()() % 4) - T(1);
      break;
    case pattern::with_nans:
      if constexpr (std::is_floating_point<T>::value) {
        for (std::size_t i = 0; i < n; ++i) {
          const unsigned r = hipamp_test::rng()() % 16;
          if (r == 0) v[i] = std::numeric_limits<T>::quiet_NaN();
          if (r == 1) v[i] = -std::numeric_limits<T>::quiet_NaN();
          if (r == 2) v[i] = std::numeric_limits<T>::infinity();
          if (r == 3) v[i] = -std::numeric_limits<T>::infinity();
          if (r == 4) v[i] = T(0);
          if (r == 5) v[i] = -T(0);
        }
      }
      break;
  }
  return v;
}

// The documented order, written from its definition rather than from ordered_bits: numbers
// by value with -0 before +0, then NaNs with a clear sign bit, then NaNs with a set one.
template <class T>
bool reference_less(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    const int ra = std::isnan(a) ? (std::signbit(a) ? 2 : 1) : 0;
    const int rb = std::isnan(b) ? (std::signbit(b) ? 2 : 1) : 0;
    if (ra != rb) return ra < rb;
    if (ra != 0) return false;  // the tests' NaNs of one sign share their payload
    if (a != b) return a < b;
    return std::signbit(a) && !std::signbit(b);
  } else {
    return a < b;
  }
}

template <class T>
std::vector<T> reference_sorted(std::vector<T> v, bool descending) {
  if (descending) {
    std::stable_sort(v.begin(), v.end(), [](T a, T b) { return reference_less(b, a); });
  } else {
    std::stable_sort(v.begin(), v.end(), [](T a, T b) { return reference_less(a, b); });
  }
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <class T>
std::size_t first_mismatch(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bit-exact (NaN payloads, -0)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return i;
  }
  return std::min(a.size(), b.size());
}

template <class T>
void check_sort_view(const hx::accelerator& acc, std::size_t n, pattern p, bool descending) {
  INFO("n = " << n << ", " << name_of(p) << (descending ? ", descending" : ""));
  const std::vector<T> input = make_input<T>(n, p);
  std::vector<T> data = input;
  const hx::array_view<T, 1> view(static_cast<int>(n), data);
  if (descending) {
    hx::sort(acc.get_default_view(), view, hx::descending{});
  } else {
    hx::sort(acc.get_default_view(), view);
  }
  view.synchronize();
  const std::vector<T> expected = reference_sorted(input, descending);
  INFO("first mismatch at " << first_mismatch(data, expected));
  CHECK(same_bits(data, expected));
}

// ---- the paper's user type -------------------------------------------------------------------

struct paper_type {
  float x;
  unsigned y;
  int z;
};

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace sort_test

template <>
struct hipamp::key_index_type<sort_test::paper_type> {
  unsigned k;
  int i;
  key_index_type() = default;
  HIPAMP_RESTRICT key_index_type(sort_test::paper_type value, int index) : k(value.y), i(index) {}
  HIPAMP_RESTRICT bool operator<(const key_index_type& other) const { return k < other.k; }
};

namespace sort_test {
inline namespace HIPAMP_ALGORITHMS_ABI {

inline std::vector<paper_type> paper_input(std::size_t n, bool unique_keys) {
  std::vector<unsigned> ys(n);
  if (unique_keys) {
    std::iota(ys.begin(), ys.end(), 7u);
    std::shuffle(ys.begin(), ys.end(), hipamp_test::rng());
  } else {
    for (auto& y : ys) y = hipamp_test::rng()() % (n / 8 + 2);
  }
  const auto xs = hipamp_test::random_vector<float>(n, -100.f, 100.f);
  std::vector<paper_type> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {xs[i], ys[i], static_cast<int>(i) * 3 - 5};
  return v;
}

inline bool same_element(const paper_type& a, const paper_type& b) {
  // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bitwise on purpose, no padding
  return std::memcmp(&a, &b, sizeof(paper_type)) == 0;
}

// Same multiset of values, in O(n log n): std::is_permutation is quadratic when the inputs
// differ in order (every element counted against the rest), which made single test cases of
// 64k-70k elements take 20-55 s on the CPU devices and most of CI's sanitizer run.
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
bool is_permutation_of(std::vector<T> a, std::vector<T> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// Same multiset of elements (bitwise).
inline bool is_permutation_of(std::vector<paper_type> a, std::vector<paper_type> b) {
  const auto order = [](const paper_type& l, const paper_type& r) {
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): a bitwise order, on purpose
    return std::memcmp(&l, &r, sizeof(paper_type)) < 0;
  };
  std::sort(a.begin(), a.end(), order);
  std::sort(b.begin(), b.end(), order);
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](auto& l, auto& r) { return same_element(l, r); });
}

// Small and awkward sizes on every accelerator; the large ones for a few cases only.
inline constexpr std::size_t small_sizes[] = {1, 2, 3, 31, 255, 256, 257, 1000, 8193};
inline constexpr std::size_t large_sizes[] = {(1u << 20) - 1, (1u << 20) + 1};

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace sort_test
