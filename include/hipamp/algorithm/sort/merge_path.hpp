// Merge path (Green, McColl and Bader, "GPU Merge Path", 2012) as host/device code with no
// vendor names: the GPU merge kernels (backend/gpu/merge_sort.hpp) call it, and the schedule
// of a merge sort's passes is computed here so that a host test can replay it.
//
// Merging sorted runs A and B is a path through the |A| x |B| grid; output position d lies on
// the cross diagonal i + j = d, and the path crosses it at the one split (i, d - i) where
// every element of A[0, i) and B[0, d - i) precedes every element of A[i..) and B[d - i..).
// A binary search along the diagonal finds it, so any number of workers can each take an
// equal share of the output and merge it on their own, reading and writing every element
// once. Ties take A first: a merge of two runs of a stable sort stays stable.
#pragma once

#include <cstddef>

#include <hipamp/config.hpp>

#if defined(__NVCC__)
#define HIPAMP_MERGE_NO_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#define HIPAMP_MERGE_NO_EXEC_CHECK
#endif

namespace hipamp::detail::merge {

// True while split i (A[0, i) taken) lies before the path's crossing of diagonal d: A[i]
// still precedes B[d - 1 - i] (or ties with it, A first).
HIPAMP_MERGE_NO_EXEC_CHECK
template <class A, class B, class Less>
HIPAMP_HOST_DEVICE inline bool before_path(const A& a, const B& b, unsigned d, unsigned i,
                                           const Less& less) {
  return !less(b[d - 1 - i], a[i]);
}

// The split of diagonal d: how many of the first d merged elements come from A.
HIPAMP_MERGE_NO_EXEC_CHECK
template <class A, class B, class Less>
HIPAMP_HOST_DEVICE inline unsigned merge_path(const A& a, unsigned a_count, const B& b,
                                              unsigned b_count, unsigned d, const Less& less) {
  unsigned lo = d > b_count ? d - b_count : 0u;
  unsigned hi = d < a_count ? d : a_count;
  while (lo < hi) {
    const unsigned mid = lo + (hi - lo) / 2;
    if (before_path(a, b, d, mid, less)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// One pass of a merge sort over n elements whose runs of `width` are sorted: pairs of runs
// (the last pair may be short, or a lone run that is only copied) merged into runs of
// 2 * width, each pair cut into blocks of `per_block` outputs. Blocks never straddle pairs.
struct pass_shape {
  unsigned width = 0;
  unsigned blocks_per_pair = 0;
  unsigned blocks = 0;
};
inline pass_shape shape_pass(unsigned n, unsigned width, unsigned per_block) {
  pass_shape p;
  p.width = width;
  const unsigned long long span = 2ull * width;
  p.blocks_per_pair = static_cast<unsigned>((span + per_block - 1) / per_block);
  const unsigned long long pairs = (n + span - 1) / span;
  const unsigned long long last = n - (pairs - 1) * span;
  p.blocks =
      static_cast<unsigned>((pairs - 1) * p.blocks_per_pair + (last + per_block - 1) / per_block);
  return p;
}

// Where block `block` of a pass works: its pair's runs A = [start, start + a_count) and
// B = [start + a_count, start + a_count + b_count), and its diagonals [d_first, d_last) in
// the pair's output.
struct block_span {
  std::size_t start;
  unsigned a_count;
  unsigned b_count;
  unsigned d_first;
  unsigned d_last;
};
HIPAMP_HOST_DEVICE inline block_span span_of(unsigned n, const pass_shape& p, unsigned per_block,
                                             unsigned block) {
  const unsigned pair = block / p.blocks_per_pair;
  const unsigned within = block - pair * p.blocks_per_pair;
  block_span s{};
  s.start = static_cast<std::size_t>(pair) * 2u * p.width;
  const std::size_t left = n - s.start;
  const unsigned length = left < 2ull * p.width ? static_cast<unsigned>(left) : 2u * p.width;
  s.a_count = length < p.width ? length : p.width;
  s.b_count = length - s.a_count;
  s.d_first = within * per_block;
  const unsigned long long last = static_cast<unsigned long long>(s.d_first) + per_block;
  s.d_last = last < length ? static_cast<unsigned>(last) : length;
  return s;
}

// How many merge passes take sorted runs of `run` elements to one run of n.
inline int pass_count(unsigned n, unsigned run) {
  int passes = 0;
  for (unsigned long long w = run; w < n; w *= 2) ++passes;
  return passes;
}

}  // namespace hipamp::detail::merge
