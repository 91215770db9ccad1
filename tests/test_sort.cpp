// hipamp::sort and its family on every accelerator, checked against std::stable_sort with
// comparators written independently of hipamp's (sort_order.hpp's float order included).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;

namespace {

// ---- inputs ---------------------------------------------------------------------------------

enum class pattern { random, sorted, reversed, all_equal, few_distinct, with_nans };

const char* name_of(pattern p) {
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

}  // namespace

template <>
struct hipamp::key_index_type<paper_type> {
  unsigned k;
  int i;
  key_index_type() = default;
  HIPAMP_RESTRICT key_index_type(paper_type value, int index) : k(value.y), i(index) {}
  HIPAMP_RESTRICT bool operator<(const key_index_type& other) const { return k < other.k; }
};

namespace {

// Specialisations missing one requirement each: the checks must reject them.
struct no_key {};
struct no_index {};
struct no_less {};
struct no_value_ctor {};

}  // namespace

template <>
struct hipamp::key_index_type<no_key> {
  int i;
  key_index_type() = default;
  key_index_type(no_key, int index) : i(index) {}
  bool operator<(const key_index_type& o) const { return i < o.i; }
};
template <>
struct hipamp::key_index_type<no_index> {
  int k;
  key_index_type() = default;
  key_index_type(no_index, int index) : k(index) {}
  bool operator<(const key_index_type& o) const { return k < o.k; }
};
template <>
struct hipamp::key_index_type<no_less> {
  int k;
  int i;
  key_index_type() = default;
  key_index_type(no_less, int index) : k(index), i(index) {}
};
template <>
struct hipamp::key_index_type<no_value_ctor> {
  int k;
  int i;
  key_index_type() = default;
  bool operator<(const key_index_type& o) const { return k < o.k; }
};

namespace {

struct not_specialised {
  int a;
};

static_assert(hx::sorts_directly_v<float> && hx::sorts_directly_v<int> &&
                  hx::sorts_directly_v<unsigned>,
              "the paper's primitive types sort directly");
static_assert(hx::is_valid_key_index_type_v<paper_type>, "the paper's user type is accepted");
static_assert(!hx::sorts_directly_v<paper_type>, "user types sort by key");
static_assert(!hx::is_valid_key_index_type_v<no_key>, "a key type needs k");
static_assert(!hx::is_valid_key_index_type_v<no_index>, "a key type needs i");
static_assert(!hx::is_valid_key_index_type_v<no_less>, "a key type needs operator<");
static_assert(!hx::is_valid_key_index_type_v<no_value_ctor>, "a key type needs (T, int)");
static_assert(!hx::is_valid_key_index_type_v<not_specialised>, "user types need a specialisation");

std::vector<paper_type> paper_input(std::size_t n, bool unique_keys) {
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

bool same_element(const paper_type& a, const paper_type& b) {
  // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bitwise on purpose, no padding
  return std::memcmp(&a, &b, sizeof(paper_type)) == 0;
}

// Same multiset of elements (bitwise).
bool is_permutation_of(std::vector<paper_type> a, std::vector<paper_type> b) {
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
const std::size_t small_sizes[] = {1, 2, 3, 31, 255, 256, 257, 1000, 8193};
const std::size_t large_sizes[] = {(1u << 20) - 1, (1u << 20) + 1};

}  // namespace

TEST_CASE("sort: primitive keys of every small size and input pattern", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : small_sizes) {
      for (pattern p : {pattern::random, pattern::sorted, pattern::reversed, pattern::all_equal,
                        pattern::few_distinct}) {
        check_sort_view<int>(acc, n, p, false);
        check_sort_view<unsigned>(acc, n, p, false);
        check_sort_view<float>(acc, n, p, false);
      }
      check_sort_view<float>(acc, n, pattern::with_nans, false);
      check_sort_view<double>(acc, n, pattern::with_nans, false);
      check_sort_view<long long>(acc, n, pattern::random, false);
      check_sort_view<short>(acc, n, pattern::random, false);
    }
  }
}

TEST_CASE("sort: descending order is the exact reverse, NaNs first", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n :
         {std::size_t(1), std::size_t(257), std::size_t(1000), std::size_t(70000)}) {
      check_sort_view<int>(acc, n, pattern::random, true);
      check_sort_view<unsigned>(acc, n, pattern::few_distinct, true);
      check_sort_view<float>(acc, n, pattern::with_nans, true);
      check_sort_view<double>(acc, n, pattern::with_nans, true);
    }
  }
}

TEST_CASE("sort: sizes around 2^20", "[sort][large]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : large_sizes) {
      check_sort_view<unsigned>(acc, n, pattern::random, false);
      check_sort_view<float>(acc, n, pattern::with_nans, false);
    }
    check_sort_view<int>(acc, large_sizes[1], pattern::few_distinct, true);
  }
}

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
      CHECK(std::is_permutation(unstable.begin(), unstable.end(), input.begin()));

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

TEST_CASE("sort_by_key: values travel with their keys", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(256), std::size_t(1000),
                          std::size_t(33000)}) {
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

TEST_CASE("batched_sort: every row sorted on its own", "[sort]") {
  struct shape {
    int rows;
    int length;
  };
  FOR_EACH_ACCELERATOR(acc) {
    for (shape s : {shape{1000, 1}, shape{300, 3}, shape{100, 255}, shape{64, 256}, shape{37, 257},
                    shape{5, 1000}, shape{3, 9000}, shape{1, 20000}}) {
      INFO(s.rows << " rows of " << s.length);
      const std::size_t n = static_cast<std::size_t>(s.rows) * s.length;
      const std::vector<int> input = hipamp_test::random_vector<int>(n, -500, 500);
      std::vector<int> data = input;
      hx::array_view<int, 2> view(s.rows, s.length, data);
      hx::batched_sort(acc.get_default_view(), view);
      view.synchronize();
      std::vector<int> expected = input;
      for (int r = 0; r < s.rows; ++r) {
        std::stable_sort(expected.begin() + static_cast<std::ptrdiff_t>(r) * s.length,
                         expected.begin() + static_cast<std::ptrdiff_t>(r + 1) * s.length);
      }
      CHECK(data == expected);

      // The same with a comparator (descending) on a section: rows with gaps between them.
      std::vector<float> wide =
          hipamp_test::random_vector<float>(n + std::size_t{2} * s.rows, -1.f, 1.f);
      const std::vector<float> wide_input = wide;
      hx::array_view<float, 2> all(s.rows, s.length + 2, wide);
      hx::batched_sort(acc.get_default_view(),
                       all.section(hx::index<2>(0, 1), hx::extent<2>(s.rows, s.length)),
                       [] HIPAMP_RESTRICT(const float& a, const float& b) { return a > b; });
      all.synchronize();
      std::vector<float> wide_expected = wide_input;
      for (int r = 0; r < s.rows; ++r) {
        auto first = wide_expected.begin() + static_cast<std::ptrdiff_t>(r) * (s.length + 2) + 1;
        std::stable_sort(first, first + s.length, [](float a, float b) { return a > b; });
      }
      CHECK(wide == wide_expected);
    }
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

TEST_CASE("sort: arrays, and sorting where the data lives", "[sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<float> input = make_input<float>(3333, pattern::with_nans);
    hx::array<float, 1> a(3333, input.begin(), input.end(), acc.get_default_view());
    hx::sort(a);
    const std::vector<float> out = a;
    CHECK(same_bits(out, reference_sorted(input, false)));
  }
}

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

TEST_CASE("sort: bad requests are refused with the bad value named", "[sort]") {
  // True when call() throws a hipamp exception whose message contains `part`.
  const auto refused_naming = [](auto&& call, const char* part) {
    std::string message = "(no exception)";
    try {
      call();
    } catch (const hx::runtime_exception& e) {
      message = e.what();
    }
    INFO(message);
    CHECK(message.find(part) != std::string::npos);
  };
  const hx::accelerator_view av =
      hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  std::vector<int> data(4, 1);
  refused_naming([&] { hx::sort(av, data.data() + 3, data.data()); }, "3 elements before");
  // Never dereferenced: the size is refused first.
  int* const first = data.data();
  const std::uintptr_t beyond_address = reinterpret_cast<std::uintptr_t>(first) +
                                        (static_cast<std::uintptr_t>(INT_MAX) + 1) * sizeof(int);
  // NOLINTNEXTLINE(performance-no-int-to-ptr): a test address far past the end, on purpose
  int* const beyond = reinterpret_cast<int*>(beyond_address);
  refused_naming([&] { hx::sort(av, first, beyond); }, "2147483648 elements");
  // A 2-D view with more elements than an int holds (its storage is never allocated).
  hx::array_view<int, 2> huge(65536, 32769);
  refused_naming([&] { hx::batched_sort(av, huge); }, "2147549184 elements");
  std::vector<int> keys(10), values(9);
  refused_naming(
      [&] {
        hx::sort_by_key(av, hx::array_view<int, 1>(10, keys), hx::array_view<int, 1>(9, values));
      },
      "10 keys with 9 values");
}

TEST_CASE("parallel_sort: primitive arrays, ascending and reversed", "[sort][parallel_sort]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(255), std::size_t(257),
                          std::size_t(1000), std::size_t(40000)}) {
      INFO("n = " << n);
      const std::vector<int> ints = make_input<int>(n, pattern::random);
      const std::vector<unsigned> uints = make_input<unsigned>(n, pattern::few_distinct);
      const std::vector<float> floats = make_input<float>(n, pattern::with_nans);
      const hx::array<int, 1> ia(static_cast<int>(n), ints.begin(), ints.end(),
                                 acc.get_default_view());
      const hx::array<unsigned, 1> ua(static_cast<int>(n), uints.begin(), uints.end(),
                                      acc.get_default_view());
      const hx::array<float, 1> fa(static_cast<int>(n), floats.begin(), floats.end(),
                                   acc.get_default_view());
      for (bool reverse : {false, true}) {
        const std::vector<int> is = *hx::parallel_sort(ia, reverse);
        const std::vector<unsigned> us = *hx::parallel_sort(ua, reverse);
        const std::vector<float> fs = *hx::parallel_sort(fa, reverse);
        CHECK(is == reference_sorted(ints, reverse));
        CHECK(us == reference_sorted(uints, reverse));
        CHECK(same_bits(fs, reference_sorted(floats, reverse)));
      }
      // parallel_sort_keys of a primitive type: the sorted values; the source is unchanged.
      const std::vector<float> fk = *hx::parallel_sort_keys(fa);
      CHECK(same_bits(fk, reference_sorted(floats, false)));
      CHECK(same_bits(static_cast<std::vector<float>>(fa), floats));
    }
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
