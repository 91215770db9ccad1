// hipamp::bitonic_sort (the GPU's bitonic network at every size, issue 18) on every accelerator:
// u32 keys by a comparator at the merge tests' sizes (tiles and merge boundaries), partial last
// tiles of every kind, both sides of each size where a GPU changes the network's shape, and the
// paper's 12-byte type. References are std::sort / std::stable_sort of the same random input.
// A unit of its own: the network's kernels (two shapes for 4-byte keys) next to the merge
// sort's made test_sort_merge.cpp the slowest sort unit under nvcc.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sort_merge_cases.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

namespace {
// bitonic_sort of u32 keys on acc ascending (less_u32) and descending, against std::sort;
// returns the ascending reference.
std::vector<std::uint32_t> check_u32_up_and_down(const hx::accelerator& acc,
                                                 const std::vector<std::uint32_t>& input) {
  const int n = static_cast<int>(input.size());
  std::vector<std::uint32_t> up = input, down = input;
  std::sort(up.begin(), up.end());
  std::sort(down.begin(), down.end(), [](std::uint32_t a, std::uint32_t b) { return a > b; });
  std::vector<std::uint32_t> a = input, b = input;
  hx::bitonic_sort(acc.get_default_view(), hx::array_view<std::uint32_t, 1>(n, a), less_u32{});
  CHECK(a == up);
  hx::bitonic_sort(acc.get_default_view(), hx::array_view<std::uint32_t, 1>(n, b),
                   hx::descending{});
  CHECK(b == down);
  return up;
}

// bitonic_sort of n of the paper's 12-byte type by y on acc: keys as std::stable_sort's, and
// the same elements (the network is not stable: ties may come in any order).
void check_paper_type_network(const hx::accelerator& acc, std::size_t n) {
  const std::vector<paper_type> input = paper_input(n, false);
  std::vector<paper_type> up = input;
  std::stable_sort(up.begin(), up.end(), by_y{});
  std::vector<paper_type> network = input;
  hx::bitonic_sort(acc.get_default_view(),
                   hx::array_view<paper_type, 1>(static_cast<int>(n), network), by_y{});
  bool keys_match = true;
  for (std::size_t i = 0; i < n; ++i) keys_match &= network[i].y == up[i].y;
  CHECK(keys_match);
  CHECK(is_permutation_of(network, input));
}
}  // namespace

TEST_CASE("bitonic_sort: u32 keys across tile and merge boundaries", "[sort][merge]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<std::size_t> sizes = merge_sizes();
    sizes.push_back((std::size_t(1) << 18) + 5);
    for (const std::size_t n : sizes) {
      INFO("n = " << n);
      const std::vector<std::uint32_t> input = random_u32(n, 0);
      std::vector<std::uint32_t> expected = input;
      std::sort(expected.begin(), expected.end());
      std::vector<std::uint32_t> network = input;
      hx::bitonic_sort(acc.get_default_view(),
                       hx::array_view<std::uint32_t, 1>(static_cast<int>(n), network), less_u32{});
      CHECK(network == expected);
    }
  }
}

// bitonic_sort's last tile when partial runs the network's steps one at a time over its
// existing prefix if small, else the whole tiles' rounds padded with its maximum
// (backend/gpu/sort.hpp): a last tile holding 1, 2, 3, a few, half and all but one of its
// positions, after one and several whole tiles, for 4-byte keys (2^13 tiles,
// ascending and descending) and the paper's 12-byte type (2^11 tiles), against std::sort.
TEST_CASE("bitonic_sort: a partial last tile of every kind", "[sort][merge]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::size_t t4 = 8192, t12 = 2048;
    std::vector<std::size_t> u32_sizes;
    for (const std::size_t whole : {std::size_t(1), std::size_t(2), std::size_t(5)}) {
      for (const std::size_t r : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(33),
                                  std::size_t(257), t4 / 2 + 1, t4 - 1}) {
        u32_sizes.push_back(whole * t4 + r);
      }
    }
    u32_sizes.push_back((std::size_t(1) << 20) + 1);
    u32_sizes.push_back((std::size_t(1) << 20) + 4097);
    u32_sizes.push_back((std::size_t(1) << 20) - 1);
    u32_sizes.push_back(1000000);
    // A GPU sorts one row of 4-byte keys from 2^19 to just past 2^20 with one network shape
    // and other rows with another (tuning_sort.hpp, network_small_row_min and _max): both sides
    // of each change. (The CPU devices sort these by other code; under CI's sanitizers every
    // million keys cost seconds per device.)
    if (!acc.is_cpu()) {
      for (const std::size_t n :
           {std::size_t(1) << 19, (std::size_t(1) << 19) + 1,
            (std::size_t(1) << 20) + (std::size_t(1) << 15),
            (std::size_t(1) << 20) + (std::size_t(1) << 15) + 1, (std::size_t(1) << 21) + 3}) {
        u32_sizes.push_back(n);
      }
    }
    for (const std::size_t n : u32_sizes) {
      INFO("u32, n = " << n);
      const std::vector<std::uint32_t> input = random_u32(n, 0);
      check_u32_up_and_down(acc, input);
    }
    for (const std::size_t n : {t12 + 1, t12 + 2, t12 + 3, 3 * t12 + 100, 4 * t12 - 1,
                                (std::size_t(1) << 16) + 1, (std::size_t(1) << 16) + t12 / 2 + 1}) {
      INFO("paper type, n = " << n);
      check_paper_type_network(acc, n);
    }
  }
}

// Sizes just below a power of two, or a tile short of whole tiles: the last tile is nearly full
// and runs the whole tiles' compile-time rounds padded with its maximum (backend/gpu/sort.hpp,
// pad_partial_tile). Random keys with many duplicates: u32 by less_u32 (ascending and
// descending), by their high 24 bits (ties whose low bits must all survive: a permutation
// check) and the paper's 12-byte type by y, against std::sort / std::stable_sort.
TEST_CASE("bitonic_sort: sizes just below powers of two, duplicate keys", "[sort][merge]") {
  FOR_EACH_ACCELERATOR(acc) {
    const std::size_t t4 = 8192, t12 = 2048;
    std::vector<std::size_t> u32_sizes = {t4 - 1,
                                          2 * t4 - 1,
                                          2 * t4 - 3,
                                          4 * t4 - 1,
                                          4 * t4 - 3,
                                          3 * t4 - 1,
                                          5 * t4 + t4 / 8,
                                          5 * t4 + t4 / 8 + 1,
                                          7 * t4 - 2,
                                          (std::size_t(1) << 18) - 1,
                                          (std::size_t(1) << 18) - 3};
    if (!acc.is_cpu()) {  // both network shapes of one row of 4-byte keys (tuning_sort.hpp)
      for (const std::size_t n : {(std::size_t(1) << 19) - 1, (std::size_t(1) << 20) - 1,
                                  (std::size_t(1) << 20) - 3, (std::size_t(1) << 20) - t4 / 2,
                                  (std::size_t(1) << 21) - 1, (std::size_t(1) << 22) - 3}) {
        u32_sizes.push_back(n);
      }
    }
    for (const std::size_t n : u32_sizes) {
      INFO("u32, n = " << n);
      const std::vector<std::uint32_t> input = random_u32(n, 97);  // 97 keys, low bits random
      const std::vector<std::uint32_t> up = check_u32_up_and_down(acc, input);
      std::vector<std::uint32_t> c = input;
      hx::bitonic_sort(acc.get_default_view(),
                       hx::array_view<std::uint32_t, 1>(static_cast<int>(n), c), by_high_bits{});
      bool keys_match = true;
      for (std::size_t i = 0; i < n; ++i) keys_match &= (c[i] >> 8) == (up[i] >> 8);
      CHECK(keys_match);
      std::sort(c.begin(), c.end());
      CHECK(c == up);  // the same multiset: no element lost or duplicated among ties
    }
    for (const std::size_t n : {t12 - 1, 2 * t12 - 1, 4 * t12 - 3, 8 * t12 - 1,
                                (std::size_t(1) << 16) - 1, (std::size_t(1) << 16) - 3}) {
      INFO("paper type, n = " << n);
      check_paper_type_network(acc, n);
    }
  }
}
