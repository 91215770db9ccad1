// The keys, comparators and sizes the GPU sort's merge and network tests share
// (test_sort_merge.cpp, test_sort_network.cpp): u32 keys by a comparator (so the merge sort and
// the network run, not the radix sort), the paper's type by y, and sizes around every tile and
// merge boundary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sort_test_support.hpp"

namespace sort_test {
inline namespace HIPAMP_ALGORITHMS_ABI {

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
inline std::vector<std::size_t> merge_sizes() {
  return {2,    3,     2047,  2049,  2303,          2305,  2815,  2817, 3071,
          3073, 4095,  4097,  4351,  4353,          5633,  8191,  8192, 8193,
          8705, 16385, 17407, 32767, 3 * 8192 + 17, 65537, 100003};
}

inline std::vector<std::uint32_t> random_u32(std::size_t n, std::uint32_t distinct) {
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = static_cast<std::uint32_t>(hipamp_test::rng()());
  if (distinct != 0) {
    for (auto& x : v) x = (x % distinct) << 8 | (x & 0xffu);
  }
  return v;
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace sort_test
