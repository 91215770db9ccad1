// The GPU bitonic sort's kernels (backend/gpu/sort.hpp) on the emulated GPU: the
// network's passes (run_network: tile_kernel and global_round_kernel, <<< >>> launches and
// all) over sizes that reach every tile path — whole tiles with their compile-time rounds,
// a segment's last tile, packed tiles of small segments, global rounds of every width — each
// compared with std::stable_sort. Built and run by `run.sh sort`; exits 1 on a mismatch.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <hipamp/backend/gpu/sort.hpp>

namespace gk = hipamp::detail::gpu::sort_kernels;
namespace bn = hipamp::detail::bitonic;

namespace {

struct less_u32 {
  bool operator()(std::uint32_t a, std::uint32_t b) const { return a < b; }
};
struct paper_key {  // the paper's key_index: a float key and the source index
  float k;
  int i;
};
struct less_paper {
  bool operator()(const paper_key& a, const paper_key& b) const { return a.k < b.k; }
};

int failures = 0;
std::mt19937 rng(2026);

// Rows of `length` keys, `pitch` apart, few distinct values so that ties are everywhere.
std::vector<std::uint32_t> random_rows(unsigned length, unsigned rows, std::size_t pitch,
                                       std::uint32_t distinct) {
  std::vector<std::uint32_t> data(pitch * rows, 0xdeadbeefu);
  for (unsigned r = 0; r < rows; ++r) {
    for (unsigned i = 0; i < length; ++i) data[r * pitch + i] = rng() % distinct;
  }
  return data;
}

void report(const char* what, unsigned length, unsigned rows, bool ok) {
  std::printf("%-34s %8u x %-3u %s\n", what, length, rows, ok ? "ok" : "MISMATCH");
  failures += ok ? 0 : 1;
}

// Keys alone, unstable: the sorted keys must equal std::stable_sort's, and the gaps between
// rows must stay untouched.
void check_keys(unsigned length, unsigned rows, std::size_t pitch) {
  std::vector<std::uint32_t> data = random_rows(length, rows, pitch, length / 3 + 2);
  std::vector<std::uint32_t> expected = data;
  for (unsigned r = 0; r < rows; ++r) {
    std::stable_sort(expected.begin() + static_cast<std::ptrdiff_t>(r * pitch),
                     expected.begin() + static_cast<std::ptrdiff_t>(r * pitch + length));
  }
  const bn::layout lay = bn::make_layout(length, rows, pitch);
  gk::run_network<std::uint32_t>(bn::array_memory<std::uint32_t>{data.data(), lay}, lay, less_u32{},
                                 nullptr);
  report("u32 keys", length, rows, data == expected);
}

// Keys with their original index, ties broken by the index (the stable path): the result
// must equal std::stable_sort's exactly, indexes included.
void check_stable_pairs(unsigned length) {
  std::vector<std::uint32_t> keys = random_rows(length, 1, length, 7);
  std::vector<unsigned> index(length);
  for (unsigned i = 0; i < length; ++i) index[i] = i;
  std::vector<std::pair<std::uint32_t, unsigned>> expected(length);
  for (unsigned i = 0; i < length; ++i) expected[i] = {keys[i], i};
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const bn::layout lay = bn::make_layout(length, 1, length);
  gk::run_network<bn::key_value<std::uint32_t, unsigned>>(
      bn::pair_memory<std::uint32_t, unsigned>{keys.data(), index.data(), lay}, lay,
      bn::by_key_then_index<less_u32>{less_u32{}}, nullptr);
  bool ok = true;
  for (unsigned i = 0; i < length; ++i) {
    ok = ok && keys[i] == expected[i].first && index[i] == expected[i].second;
  }
  report("stable key-index pairs", length, 1, ok);
}

// 8-byte elements (another tile shape): sorted by key, and a permutation of the input.
void check_paper_keys(unsigned length) {
  std::vector<paper_key> data(length);
  for (unsigned i = 0; i < length; ++i) data[i] = {static_cast<float>(rng() % 1000), int(i)};
  const bn::layout lay = bn::make_layout(length, 1, length);
  gk::run_network<paper_key>(bn::array_memory<paper_key>{data.data(), lay}, lay, less_paper{},
                             nullptr);
  bool ok = std::is_sorted(data.begin(), data.end(), less_paper{});
  std::vector<int> seen(length, 0);
  for (const paper_key& e : data) ok = ok && e.i >= 0 && unsigned(e.i) < length && !seen[e.i]++;
  report("8-byte key-index elements", length, 1, ok);
}

// The merge sort (tiles, then merge passes through a scratch buffer): unstable keys must equal
// std::stable_sort's; the stable variant must equal it with every element's original index.
// large_tile_min: from how many elements the 2^15 tiles of 4-byte keys are taken (0: the
// tuning's 2^22, out of reach here; 2: at every size, so they run here too).
template <gk::block_sort Tiles = gk::default_block_sort<std::uint32_t>>
void check_merge_keys(unsigned length, std::uint32_t distinct, unsigned large_tile_min = 0) {
  std::vector<std::uint32_t> data = random_rows(length, 1, length, distinct);
  std::vector<std::uint32_t> expected = data;
  std::stable_sort(expected.begin(), expected.end());
  std::vector<std::uint32_t> scratch(length, 0xdeadbeefu);
  constexpr unsigned tile = gk::merge_sort_tile<std::uint32_t, false, Tiles>();
  std::vector<unsigned> splits(gk::merge_split_count<std::uint32_t>(length, tile));
  std::vector<std::uint32_t> samples(
      2 * gk::merge_sample_count<std::uint32_t>(length, tile, Tiles == gk::block_sort::merge));
  // Every other size finds its splits in merge_partition_kernel (from one block on), by the
  // samples of the chunks (run_samples) when the size is also a multiple of 4.
  const unsigned partition_min_blocks = length % 2 == 0 ? 1u : ~0u;
  gk::merge_sort<std::uint32_t, false, Tiles>(
      data.data(), scratch.data(), splits.data(), length, less_u32{}, nullptr, partition_min_blocks,
      large_tile_min, length % 4 == 0 ? samples.data() : nullptr);
  report(Tiles == gk::block_sort::merge ? "merge sort, u32, merged tiles"
         : large_tile_min != 0          ? "merge sort, u32, 2^15 tiles"
                                        : "merge sort, u32 keys",
         length, 1, data == expected);
}
void check_merge_u64(unsigned length) {
  std::vector<std::uint64_t> data(length);
  for (unsigned i = 0; i < length; ++i) data[i] = (std::uint64_t(rng() % 7) << 32) | i;
  const auto by_high = [](std::uint64_t a, std::uint64_t b) { return (a >> 32) < (b >> 32); };
  std::vector<std::uint64_t> expected = data;
  std::stable_sort(expected.begin(), expected.end(), by_high);
  std::vector<std::uint64_t> scratch(length);
  constexpr unsigned tile = gk::merge_sort_tile<std::uint64_t, true>();
  std::vector<unsigned> splits(gk::merge_split_count<std::uint64_t>(length, tile));
  std::vector<std::uint64_t> samples(2 * gk::merge_sample_count<std::uint64_t>(length, tile, true));
  gk::merge_sort<std::uint64_t, true>(data.data(), scratch.data(), splits.data(), length, by_high,
                                      nullptr, 1u, 0, length % 2 == 0 ? samples.data() : nullptr);
  report("stable merge sort, u64 by high half", length, 1, data == expected);
}
void check_merge_u32_stable(unsigned length, unsigned large_tile_min = 0) {
  std::vector<std::uint32_t> data(length);
  for (auto& x : data) x = (rng() % 5) << 16 | (rng() & 0xffffu);
  const auto by_high = [](std::uint32_t a, std::uint32_t b) { return (a >> 16) < (b >> 16); };
  std::vector<std::uint32_t> expected = data;
  std::stable_sort(expected.begin(), expected.end(), by_high);
  std::vector<std::uint32_t> scratch(length);
  constexpr unsigned tile = gk::merge_sort_tile<std::uint32_t, true>();
  std::vector<unsigned> splits(gk::merge_split_count<std::uint32_t>(length, tile));
  std::vector<std::uint32_t> samples(2 * gk::merge_sample_count<std::uint32_t>(length, tile, true));
  // Odd sizes: every pass's blocks search their splits; even: merge_partition_kernel, by the
  // samples (run_samples) unless the size is a multiple of 4; lanes 2, 8 or 32 by the size.
  const int lanes[] = {2, 8, 32};
  gk::merge_sort<std::uint32_t, true>(data.data(), scratch.data(), splits.data(), length, by_high,
                                      nullptr, length % 2 == 0 ? 1u : ~0u, large_tile_min,
                                      length % 4 != 0 ? samples.data() : nullptr,
                                      lanes[length / 2 % 3]);
  report(large_tile_min != 0 ? "stable merge sort, u32, large tiles"
                             : "stable merge sort, u32 by high half",
         length, 1, data == expected);
}
struct tagged {  // 12 bytes, sorted by y only: ties everywhere, x tells the original order
  float z;
  unsigned y;
  unsigned x;
};
struct by_y {
  bool operator()(const tagged& a, const tagged& b) const { return a.y < b.y; }
};
struct by_y_descending {
  bool operator()(const tagged& a, const tagged& b) const { return a.y > b.y; }
};
template <bool Stable, class Less, gk::block_sort Tiles = gk::default_block_sort<tagged>>
void check_merge_tagged(unsigned length, unsigned distinct, const char* what) {
  std::vector<tagged> data(length);
  for (unsigned i = 0; i < length; ++i)
    data[i] = {float(rng() % 100), unsigned(rng() % distinct), i};
  std::vector<tagged> expected = data;
  std::stable_sort(expected.begin(), expected.end(), Less{});
  std::vector<tagged> scratch(length);
  constexpr unsigned tile = gk::merge_sort_tile<tagged, Stable, Tiles>();
  std::vector<unsigned> splits(gk::merge_split_count<tagged>(length, tile));
  std::vector<tagged> samples(
      2 * gk::merge_sample_count<tagged>(length, tile, Stable || Tiles == gk::block_sort::merge));
  gk::merge_sort<tagged, Stable, Tiles>(data.data(), scratch.data(), splits.data(), length, Less{},
                                        nullptr, length % 3 == 0 ? ~0u : 1u, 0,
                                        length % 2 == 1 ? samples.data() : nullptr);
  bool ok = true;
  if (Stable) {
    for (unsigned i = 0; i < length; ++i) ok = ok && data[i].x == expected[i].x;
  } else {
    ok = std::is_sorted(data.begin(), data.end(), Less{});
    std::vector<int> seen(length, 0);
    for (const tagged& e : data) ok = ok && e.x < length && !seen[e.x]++;
    for (unsigned i = 0; i < length; ++i) ok = ok && data[i].y == expected[i].y;
  }
  report(what, length, 1, ok);
}

}  // namespace

int main() {
  constexpr unsigned tile = 1u << bn::shape_of<std::uint32_t>.log2_tile;
  for (unsigned n : {1u, 2u, 3u, 255u, 256u, 257u, 1000u, tile - 1, tile, tile + 1, 3 * tile + 5,
                     4 * tile, 8 * tile, 8 * tile + 1, 100000u, 16 * tile + 3}) {
    check_keys(n, 1, n);
  }
  check_keys(300, 37, 303);     // packed tiles: several segments per tile
  check_keys(10000, 3, 10007);  // each segment's last tile partial
  check_keys(2 * tile, 2, 2 * tile + 11);
  for (unsigned n : {1000u, tile + 1, 5 * tile + 77}) check_stable_pairs(n);
  for (unsigned n : {4095u, 4096u, 4097u, 50000u}) check_paper_keys(n);
  // Merge sort: around the tile (one pass or none), odd sizes, several passes (odd and even
  // counts: the tile pass writes to the scratch buffer or in place), many duplicates.
  constexpr unsigned merge_tile = gk::merge_sort_tile<std::uint32_t, false>();
  for (unsigned n : {2u, 3u, 1000u, merge_tile - 1, merge_tile, merge_tile + 1, 2 * merge_tile,
                     2 * merge_tile + 1, 3 * merge_tile + 17, 4 * merge_tile + 1,
                     8 * merge_tile - 1, 100002u, 100003u}) {
    check_merge_keys(n, n / 3 + 2);
    check_merge_keys(n, 3);
    check_merge_keys<gk::block_sort::merge>(n, n / 3 + 2);
    check_merge_keys<gk::block_sort::bitonic>(n, n / 3 + 2);
  }
  // The 2^15 tiles of large sorts of 4-byte keys (large_merge_tile_shape), forced: around the
  // tile and the merge runs above it.
  constexpr unsigned large_tile =
      1u
      << gk::launch_shape<std::uint32_t, gk::large_merge_tile_shape<std::uint32_t>>::tile.log2_tile;
  for (unsigned n : {large_tile - 1, large_tile + 1, 2 * large_tile + 3, 3 * large_tile - 1}) {
    check_merge_keys(n, n / 3 + 2, 2u);
    check_merge_keys(n, 3, 2u);
  }
  // Stable u32 (block merge sort tiles of default_block_merge_policy, then merges) around the
  // tile and the merge runs, many duplicates: by the high half, against std::stable_sort.
  constexpr unsigned stable_tile = gk::merge_sort_tile<std::uint32_t, true>();
  for (unsigned n : {stable_tile - 1, stable_tile + 1, 2 * stable_tile + 1, 4 * stable_tile - 1,
                     2 * stable_tile + 2, 4 * stable_tile + 6, 8 * stable_tile - 2,
                     9 * stable_tile + 10, 17 * stable_tile + 2, 16 * stable_tile + 14})
    check_merge_u32_stable(n);
  // The block merge sort's large tiles (large_block_merge_policy), forced: around the tile and
  // the merge runs above it, with and without samples.
  constexpr unsigned large_block = gk::large_block_merge_policy<std::uint32_t>::per_block;
  for (unsigned n : {large_block - 1, large_block + 1, large_block + 2, 2 * large_block + 2,
                     4 * large_block + 6, 4 * large_block - 4, 5 * large_block + 10})
    check_merge_u32_stable(n, 2u);
  constexpr unsigned pair_tile = gk::merge_sort_tile<tagged, true>();
  // (8-byte elements: 12 items a thread, a block of 3072; stable with many ties.)
  for (unsigned n : {3071u, 3072u, 3073u, 7000u, 20001u}) check_merge_u64(n);
  for (unsigned n :
       {5u, pair_tile - 1, pair_tile + 1, 3 * pair_tile + 5, 9 * pair_tile + 1, 70001u}) {
    check_merge_tagged<true, by_y>(n, 5, "stable merge sort, 12-byte by y");
    check_merge_tagged<true, by_y_descending>(n, 40, "stable merge sort, descending");
    check_merge_tagged<false, by_y>(n, 1000, "merge sort, 12-byte by y");
    check_merge_tagged<false, by_y, gk::block_sort::merge>(n, 1000,
                                                           "merge sort, 12-byte, merged tiles");
  }
  std::printf("%s\n",
              failures == 0 ? "all sort kernel checks passed" : "SORT KERNEL CHECKS FAILED");
  return failures == 0 ? 0 : 1;
}
