// The GPU sort's merge passes (issue 18) on every accelerator: sizes around the tile and
// around each merge pass's run length (odd counts of passes too), odd sizes, many duplicates
// (stable_sort must keep their input order: merges take the left run on ties), a 12-byte user
// type and a descending comparator (hipamp::bitonic_sort, the network at every size, is
// test_sort_network.cpp). References are std::sort / std::stable_sort of the same random input.
// One unit per group of sort kernels: u32 by a comparator, the paper's type by y.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sort_merge_cases.hpp"

using namespace sort_test;  // NOLINT(google-build-using-namespace): the sort tests' helpers

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
