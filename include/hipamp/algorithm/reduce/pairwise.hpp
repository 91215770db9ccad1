// Pairwise (tree) combination, shared by the CPU and GPU reductions. Summing n floating-point
// numbers in a balanced tree bounds the rounding error by about ceil(log2 n) * eps * sum|x_i|
// instead of the (n - 1) * eps of a left-to-right loop (Higham, "Accuracy and Stability of
// Numerical Algorithms", 4.2). Both helpers keep operands in sequence order (earlier on the
// left), so they are correct for associative operators that do not commute.
#pragma once

#include <cstdint>

#include <hipamp/config.hpp>

#if HIPAMP_DEVICE_COMPILE
#define HIPAMP_DETAIL_UNROLL HIPAMP_PRAGMA(unroll)
#elif defined(__GNUC__) && !defined(__NVCC__)
#define HIPAMP_DETAIL_UNROLL HIPAMP_PRAGMA(GCC unroll 16)
#else
#define HIPAMP_DETAIL_UNROLL
#endif

namespace hipamp::detail {

template <int Stride, int M, class Acc, class Op>
HIPAMP_HOST_DEVICE inline void pairwise_fold_from(Acc (&x)[M], const Op& op) {
  if constexpr (Stride < M) {
    HIPAMP_DETAIL_UNROLL
    for (int i = 0; i + Stride < M; i += 2 * Stride) x[i] = op(x[i], x[i + Stride]);
    pairwise_fold_from<2 * Stride>(x, op);
  }
}

// Combines x[0..M) as a balanced tree; the result is left in x[0]. One loop of constant trip
// count per level, so that on a GPU every index is a constant and the tree stays in registers.
template <int M, class Acc, class Op>
HIPAMP_HOST_DEVICE inline void pairwise_fold(Acc (&x)[M], const Op& op) {
  pairwise_fold_from<1>(x, op);
}

// Adds a stream of values as the leaves of a balanced binary tree without storing the tree:
// level l holds the combination of the latest complete run of 2^l values, exactly the carry
// chain of a binary counter (the "cascade" of pairwise summation). With Levels levels the
// tree is exact up to 2^(Levels-1) pushes; the top level then absorbs further carries, which
// only lengthens the chain of that one level. Works with any associative operator and keeps
// sequence order. Acc must be default constructible (the GPU keeps the levels in registers).
template <class Acc, int Levels>
class pairwise_accumulator {
  static_assert(Levels >= 1, "hipamp: a pairwise accumulator needs at least one level");

 public:
  HIPAMP_HOST_DEVICE bool empty() const noexcept { return count_ == 0; }

  template <class Op>
  HIPAMP_HOST_DEVICE void push(Acc value, const Op& op) {
#if HIPAMP_DEVICE_COMPILE
    // No early exit: with every index a constant after unrolling, a GPU keeps the levels in
    // registers instead of addressable local memory.
    bool carrying = true;
    HIPAMP_DETAIL_UNROLL
    for (int l = 0; l < Levels - 1; ++l) {
      if (carrying) {
        if (((count_ >> l) & 1u) == 0) {
          level_[l] = value;
          carrying = false;
        } else {
          value = op(level_[l], value);
        }
      }
    }
    if (carrying) {
      level_[Levels - 1] = (count_ >> (Levels - 1)) != 0 ? op(level_[Levels - 1], value) : value;
    }
#else
    // On a CPU: exactly as many carries as the count has trailing ones (one on average).
    int l = 0;
    for (; l < Levels - 1 && ((count_ >> l) & 1u) != 0; ++l) value = op(level_[l], value);
    if (l < Levels - 1) {
      level_[l] = value;
    } else {
      level_[l] = (count_ >> l) != 0 ? op(level_[l], value) : value;
    }
#endif
    ++count_;
  }

  // The combination of everything pushed, in push order. Requires !empty().
  template <class Op>
  HIPAMP_HOST_DEVICE Acc total(const Op& op) const {
    bool have = (count_ >> (Levels - 1)) != 0;
    Acc result = level_[Levels - 1];
    HIPAMP_DETAIL_UNROLL
    for (int l = Levels - 2; l >= 0; --l) {
      if ((count_ >> l) & 1u) {
        result = have ? op(result, level_[l]) : level_[l];
        have = true;
      }
    }
    return result;
  }

 private:
  Acc level_[Levels] = {};
  std::uint64_t count_ = 0;
};

// The same interface as pairwise_accumulator for operators that do not round (integer
// arithmetic, min, max): a left fold, cheaper in registers.
template <class Acc>
class sequential_accumulator {
 public:
  HIPAMP_HOST_DEVICE bool empty() const noexcept { return empty_; }
  template <class Op>
  HIPAMP_HOST_DEVICE void push(const Acc& value, const Op& op) {
    value_ = empty_ ? value : op(value_, value);
    empty_ = false;
  }
  template <class Op>
  HIPAMP_HOST_DEVICE Acc total(const Op&) const {
    return value_;
  }

 private:
  Acc value_ = {};
  bool empty_ = true;
};

}  // namespace hipamp::detail
