// Reductions on the CPU device: one contiguous piece of the data per OpenMP thread; inside a
// piece, blocks of `lanes` independent accumulators that the compiler turns into SIMD
// registers, and for rounding operators a pairwise cascade over the blocks so the error
// grows with log2(n), not n (see algorithm/reduce/pairwise.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>

#include <hipamp/algorithm/reduce/pairwise.hpp>
#include <hipamp/config.hpp>
#include <hipamp/fallback/simple_executor.hpp>

namespace hipamp::fallback {
namespace detail {

// Independent chains per block: 64 bytes of accumulators fill four SSE / two AVX registers
// and hide the adder's latency; wider types get fewer lanes, huge ones one.
template <class Acc>
constexpr int reduce_lanes() noexcept {
  return sizeof(Acc) >= 64
             ? 1
             : (64 / static_cast<int>(sizeof(Acc)) > 16 ? 16 : 64 / static_cast<int>(sizeof(Acc)));
}
// Each lane chains 16 elements of a block before the lanes fold as a tree, so the rounding
// chain inside a block is 16 + log2(lanes) long whatever n is.
constexpr int reduce_chain = 16;
// Below this many elements per thread, forking threads costs more than it saves.
constexpr std::size_t reduce_min_piece = std::size_t{1} << 15;

template <class Acc, bool Pairwise>
using block_accumulator =
    std::conditional_t<Pairwise, hipamp::detail::pairwise_accumulator<Acc, 64>,
                       hipamp::detail::sequential_accumulator<Acc>>;

// Reduces leaf(data[i], i) for i in [begin, end), end > begin. Rounding operators restart
// the lanes every `reduce_chain` elements per lane and push the block into the cascade;
// exact ones run the lanes over the whole range and fold once.
template <bool Pairwise, class Acc, class T, class Leaf, class Op>
Acc reduce_range(const T* data, std::size_t begin, std::size_t end, const Leaf& leaf,
                 const Op& op) {
  constexpr int lanes = reduce_lanes<Acc>();
  constexpr auto lanes_n = static_cast<std::size_t>(lanes);
  const std::size_t block = Pairwise ? lanes_n * reduce_chain : (end - begin) / lanes_n * lanes_n;
  block_accumulator<Acc, Pairwise> blocks;
  std::size_t i = begin;
  if (block != 0) {
    for (; i + block <= end; i += block) {
      Acc lane[lanes];
      HIPAMP_SIMD_LOOP
      for (int w = 0; w < lanes; ++w) lane[w] = leaf(data[i + w], i + w);
      for (std::size_t j = i + lanes_n; j < i + block; j += lanes_n) {
        HIPAMP_SIMD_LOOP
        for (int w = 0; w < lanes; ++w) lane[w] = op(lane[w], leaf(data[j + w], j + w));
      }
      hipamp::detail::pairwise_fold(lane, op);
      blocks.push(lane[0], op);
    }
  }
  // Fewer than one block left: element by element into the cascade, which keeps their
  // rounding chain logarithmic too.
  for (; i < end; ++i) blocks.push(leaf(data[i], i), op);
  return blocks.total(op);
}

template <bool Pairwise, class Acc, class T, class Leaf, class Op>
struct reduce_pieces {
  const T* data;
  std::size_t n;
  std::size_t pieces;
  const Leaf* leaf;
  const Op* op;
  Acc* results;

  std::size_t piece_begin(std::size_t p) const noexcept {
    return n / pieces * p + std::min(p, n % pieces);
  }

  static void run(const void* context, std::size_t first_piece, std::size_t last_piece) {
    const auto& self = *static_cast<const reduce_pieces*>(context);
    for (std::size_t p = first_piece; p < last_piece; ++p) {
      self.results[p] = reduce_range<Pairwise, Acc>(self.data, self.piece_begin(p),
                                                    self.piece_begin(p + 1), *self.leaf, *self.op);
    }
  }
};

}  // namespace detail

// op(*init, reduction of leaf(data[i], i) over [0, n)), or the reduction alone when init is
// null (then n > 0). `op` must be associative and commutative (lanes and threads regroup
// and reorder operands); for floating-point accumulators pass Pairwise = true to bound the
// rounding error by O(log n) eps.
template <bool Pairwise, class Acc, class T, class Leaf, class Op>
Acc reduce(const T* data, std::size_t n, const Acc* init, const Leaf& leaf, const Op& op) {
  if (n == 0) return *init;
  const std::size_t by_size = (n + detail::reduce_min_piece - 1) / detail::reduce_min_piece;
  const std::size_t pieces = std::max<std::size_t>(
      1, std::min<std::size_t>(by_size, static_cast<std::size_t>(thread_count())));
  const std::unique_ptr<Acc[]> results = std::make_unique<Acc[]>(pieces);
  const detail::reduce_pieces<Pairwise, Acc, T, Leaf, Op> work{data,  n,   pieces,
                                                               &leaf, &op, results.get()};
  if (pieces == 1) {
    decltype(work)::run(&work, 0, 1);
  } else {
    parallel_chunks(pieces, 1, &decltype(work)::run, &work);
  }
  // A handful of per-thread results: fold them as a tree too.
  detail::block_accumulator<Acc, Pairwise> total;
  for (std::size_t p = 0; p < pieces; ++p) total.push(results[p], op);
  return init != nullptr ? static_cast<Acc>(op(*init, total.total(op))) : total.total(op);
}

// ---- the CPU device's side of the reduce dispatch (algorithm/reduce/dispatch.hpp) ------------

// The reduction of data[0, n) (n > 0), into *device_result when that is given (the *_into
// forms: the CPU device's memory is host memory), else into *value.
template <bool Pairwise, class Acc, class T, class Leaf, class Op>
hipamp::detail::event_ptr reduce_range(const device_target& /*on*/,
                                       std::bool_constant<Pairwise> /*pairwise*/, const T* data,
                                       std::size_t n, const Acc* init, const Leaf& leaf,
                                       const Op& op, Acc* device_result, Acc* value) {
  const Acc result = reduce<Pairwise>(data, n, init, leaf, op);
  *(device_result != nullptr ? device_result : value) = result;
  return hipamp::detail::ready_event();
}

}  // namespace hipamp::fallback
