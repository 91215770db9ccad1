// The GPU sort's merge passes (issue 18) on every accelerator: sizes around the tile and
// around each merge pass's run length (odd counts of passes too), odd sizes, many duplicates
// (stable_sort must keep their input order: merges take the left run on ties), a 12-byte user
// type, a descending comparator, and hipamp::bitonic_sort (the network at every size) beside
// them. References are std::sort / std::stable_sort of the same random input.
// One unit per group of sort kernels: u32 by a comparator, the paper's type by y.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sort_test_support.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

namespace {

struct less_u32 {
  HIPAMP_HOST_DEVICE bool operator()(const std::uint32_t& a, const std::uint32_t& b) const {
    return a < b;
  }
};
// Sorts by the high 24 bits only: ties everywhere, and the low bits tell stable from not.
struct by_high_bits {
  HIPAMP_HOST_DEVICE bool operator()(const std::uint32_t& a, const std::uint32_t& b) const {
    return (a >> 8) < (b >> 8);
  }
};
struct by_y {
  HIPAMP_HOST_DEVICE bool operator()(const paper_type& a, const paper_type& b) const {
    return a.y < b.y;
  }
};
struct by_y_descending {
  HIPAMP_HOST_DEVICE bool operator()(const paper_type& a, const paper_type& b) const {
    return a.y > b.y;
  }
};

// Tiles: bitonic 2^13 for 4-byte keys; the block merge sort (stable sorts, and 12-byte
// elements) 4352 / 2816 (main's 4096 / 2048 kept too). Merge blocks place 4352 / 2304 outputs.
// The sizes straddle each of them and later merge runs (one, two and three passes, odd counts
// of passes too).
std::vector<std::size_t> merge_sizes() {
  return {2,    3,     2047,  2049,  2303,          2305,  2815,  2817, 3071,
          3073, 4095,  4097,  4351,  4353,          5633,  8191,  8192, 8193,
          8705, 16385, 17407, 32767, 3 * 8192 + 17, 65537, 100003};
}

std::vector<std::uint32_t> random_u32(std::size_t n, std::uint32_t distinct) {
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = static_cast<std::uint32_t>(hipamp_test::rng()());
  if (distinct != 0) {
    for (auto& x : v) x = (x % distinct) << 8 | (x & 0xffu);
  }
  return v;
}

}  // namespace

TEST_CASE("sort: u32 keys by a comparator across tile and merge boundaries", "[sort][merge]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<std::size_t> sizes = merge_sizes();
    sizes.push_back((std::size_t(1) << 18) + 5);  // five merge passes over 2^13 tiles
    for (const std::size_t n : sizes) {
      INFO("n = " << n);
      const std::vector<std::uint32_t> input = random_u32(n, 0);
      std::vector<std::uint32_t> expected = input;
      std::sort(expected.begin(), expected.end());
      std::vector<std::uint32_t> data = input;
      hx::sort(acc.get_default_view(), hx::array_view<std::uint32_t, 1>(static_cast<int>(n), data),
               less_u32{});
      CHECK(data == expected);
      std::vector<std::uint32_t> network = input;
      hx::bitonic_sort(acc.get_default_view(),
                       hx::array_view<std::uint32_t, 1>(static_cast<int>(n), network), less_u32{});
      CHECK(network == expected);
    }
  }
}

TEST_CASE("stable_sort: many duplicate keys keep their order across merge passes",
          "[sort][merge]") {
  FOR_EACH_ACCELERATOR(acc) {
    // The sizes around every GPU tile and merge boundary matter on a GPU; the CPU devices sort
    // by other code (its own tests cover it), and under CI's sanitizers this case cost almost a
    // minute per CPU device with every size: a few sizes there.
    const std::vector<std::size_t> sizes =
        acc.is_cpu() ? std::vector<std::size_t>{2, 3, 4097, 65537} : merge_sizes();
    for (const std::size_t n : sizes) {
      for (const std::uint32_t distinct : {3u, 1000u}) {
        INFO("n = " << n << ", distinct keys = " << distinct);
        const std::vector<std::uint32_t> input = random_u32(n, distinct);
        std::vector<std::uint32_t> expected = input;
        std::stable_sort(expected.begin(), expected.end(), by_high_bits{});
        std::vector<std::uint32_t> stable = input;
        hx::stable_sort(acc.get_default_view(),
                        hx::array_view<std::uint32_t, 1>(static_cast<int>(n), stable),
                        by_high_bits{});
        CHECK(stable == expected);
        // Unstable: the same keys in order, a permutation of the input.
        std::vector<std::uint32_t> unstable = input;
        hx::sort(acc.get_default_view(),
                 hx::array_view<std::uint32_t, 1>(static_cast<int>(n), unstable), by_high_bits{});
        CHECK(std::is_sorted(unstable.begin(), unstable.end(), by_high_bits{}));
        CHECK(is_permutation_of(unstable, input));
      }
    }
  }
}

TEST_CASE("stable_sort: duplicate keys keep their order in large sorts", "[sort][merge]") {
  FOR_EACH_ACCELERATOR(acc) {
    // Around 2^22, where a GPU's unstable sort of 4-byte keys takes 2^15 tiles and the stable
    // one its large block merge sort tiles (8704 = 512 x 17, from 2^21; 4352 = 256 x 17 below:
    // odd runs, no pad slots), around a multiple of those tiles and of a merge block (4352).
    // Then passes of more than 1024 and 2048 merge blocks, whose partitions search the samples
    // of the chunks first (32 and 8 lanes). The CPU devices sort by other code.
    if (acc.is_cpu()) continue;
    constexpr std::size_t big = std::size_t(1) << 22;
    constexpr std::size_t tile = 4352;
    for (const std::size_t n :
         {big / 2 - 1, big / 2 + 1, big - 1, big, big + 1, big + tile - 1, big + 2 * tile + 1,
          big + 2 * tile + 2, 3 * big / 2 + 7, std::size_t(9000001)}) {
      for (const std::uint32_t distinct : {3u, 1000u}) {
        INFO("n = " << n << ", distinct keys = " << distinct);
        const std::vector<std::uint32_t> input = random_u32(n, distinct);
        std::vector<std::uint32_t> expected = input;
        std::stable_sort(expected.begin(), expected.end(), by_high_bits{});
        std::vector<std::uint32_t> stable = input;
        hx::stable_sort(acc.get_default_view(),
                        hx::array_view<std::uint32_t, 1>(static_cast<int>(n), stable),
                        by_high_bits{});
        CHECK(stable == expected);
      }
    }
  }
}

namespace {
// Keys a kernel can compute from a position, 1000 distinct by by_high_bits (ties everywhere).
HIPAMP_HOST_DEVICE std::uint32_t hashed_key(std::uint32_t i) {
  std::uint32_t x = i * 2654435761u + 0x9e3779b9u;
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  x ^= x >> 12;
  return (x % 1000u) << 8 | (i & 0xffu);
}
}  // namespace

TEST_CASE(
    "stable_sort between kernels on one queue: it sees the first's writes, the second its "
    "result",
    "[sort][merge]") {
  // A GPU's merge sort launches its kernels chained (programmatic dependent launch on sm_90):
  // each may start before the one ahead of it ends and waits for it in the kernel. Here the
  // chain starts right after a kernel that writes the keys and ends right before one that
  // reads the sorted keys, on the same queue, with no copy between them; twice in a row. The
  // sizes take the merge blocks' own split search (2^20 + 3) and merge_partition_kernel
  // (2^22 + 5). The CPU devices sort by other code.
  FOR_EACH_ACCELERATOR(acc) {
    if (acc.is_cpu()) continue;
    const hx::accelerator_view view = acc.get_default_view();
    for (const std::size_t n : {(std::size_t(1) << 20) + 3, (std::size_t(1) << 22) + 5}) {
      INFO("n = " << n);
      std::vector<std::uint32_t> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = hashed_key(static_cast<std::uint32_t>(i));
      std::stable_sort(expected.begin(), expected.end(), by_high_bits{});
      std::vector<std::uint32_t> data(n), copy(n);
      const hx::array_view<std::uint32_t, 1> keys(static_cast<int>(n), data);
      const hx::array_view<std::uint32_t, 1> out(static_cast<int>(n), copy);
      for (int round = 0; round < 2; ++round) {
        INFO("round " << round);
        keys.discard_data();
        out.discard_data();
        hx::parallel_for_each(view, keys.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
          keys[i] = hashed_key(static_cast<std::uint32_t>(i[0]));
        });
        hx::stable_sort(view, keys, by_high_bits{});
        hx::parallel_for_each(view, out.extent,
                              [=] HIPAMP_RESTRICT(hx::index<1> i) { out[i] = keys[i] ^ 0x5au; });
        out.synchronize();
        keys.synchronize();
        CHECK(data == expected);
        bool copied = true;
        for (std::size_t i = 0; i < n; ++i) copied &= copy[i] == (expected[i] ^ 0x5au);
        CHECK(copied);
      }
    }
  }
}

TEST_CASE("sort and stable_sort: the paper's type by y, ascending and descending",
          "[sort][merge]") {
  FOR_EACH_ACCELERATOR(acc) {
    for (const std::size_t n : merge_sizes()) {
      INFO("n = " << n);
      const std::vector<paper_type> input = paper_input(n, false);  // about 8 of each key
      std::vector<paper_type> up = input, down = input;
      std::stable_sort(up.begin(), up.end(), by_y{});
      std::stable_sort(down.begin(), down.end(), by_y_descending{});

      std::vector<paper_type> stable = input;
      hx::stable_sort(acc.get_default_view(),
                      hx::array_view<paper_type, 1>(static_cast<int>(n), stable), by_y{});
      CHECK(std::equal(stable.begin(), stable.end(), up.begin(), same_element));
      std::vector<paper_type> stable_down = input;
      hx::stable_sort(acc.get_default_view(),
                      hx::array_view<paper_type, 1>(static_cast<int>(n), stable_down),
                      by_y_descending{});
      CHECK(std::equal(stable_down.begin(), stable_down.end(), down.begin(), same_element));

      std::vector<paper_type> unstable = input;
      hx::sort(acc.get_default_view(), hx::array_view<paper_type, 1>(static_cast<int>(n), unstable),
               by_y{});
      bool keys_match = true;
      for (std::size_t i = 0; i < n; ++i) keys_match &= unstable[i].y == up[i].y;
      CHECK(keys_match);
      CHECK(is_permutation_of(unstable, input));
    }
  }
}

// bitonic_sort's last tile when partial runs the network's steps one at a time over its
// existing prefix (backend/gpu/sort.hpp): a last tile holding 1, 2, 3, a few, half and all but
// one of its positions, after one and several whole tiles, for 4-byte keys (2^13 tiles,
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
      for (const std::size_t n : {std::size_t(1) << 19, (std::size_t(1) << 19) + 1,
                                  (std::size_t(1) << 20) + (std::size_t(1) << 15),
                                  (std::size_t(1) << 20) + (std::size_t(1) << 15) + 1,
                                  (std::size_t(1) << 21) + 3}) {
        u32_sizes.push_back(n);
      }
    }
    for (const std::size_t n : u32_sizes) {
      INFO("u32, n = " << n);
      const std::vector<std::uint32_t> input = random_u32(n, 0);
      std::vector<std::uint32_t> up = input, down = input;
      std::sort(up.begin(), up.end());
      std::sort(down.begin(), down.end(), [](std::uint32_t a, std::uint32_t b) { return a > b; });
      std::vector<std::uint32_t> a = input, b = input;
      hx::bitonic_sort(acc.get_default_view(),
                       hx::array_view<std::uint32_t, 1>(static_cast<int>(n), a), less_u32{});
      CHECK(a == up);
      hx::bitonic_sort(acc.get_default_view(),
                       hx::array_view<std::uint32_t, 1>(static_cast<int>(n), b), hx::descending{});
      CHECK(b == down);
    }
    for (const std::size_t n : {t12 + 1, t12 + 2, t12 + 3, 3 * t12 + 100, 4 * t12 - 1,
                                (std::size_t(1) << 16) + 1, (std::size_t(1) << 16) + t12 / 2 + 1}) {
      INFO("paper type, n = " << n);
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
  }
}
