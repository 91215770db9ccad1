// The sort API's compile-time checks (which key_index_type specialisations are accepted) and its
// refusals of bad requests, each naming the bad value. Only the CPU device is asked to sort.
// hipamp-test: host-only (launches no kernel; the C++ compiler builds it in GPU builds)
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

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

}  // namespace

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
