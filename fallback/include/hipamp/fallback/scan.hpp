// Scans on the CPU device: a two-pass blocked scan. Pass 1 reduces each thread's piece (in
// order), a short serial scan turns the piece totals into carries, pass 2 scans each piece
// from its carry. A scan is a chain of dependent operations, so inside a piece the data is
// cut into blocks of `scan_lanes` consecutive cache lines, one line per lane: the lanes'
// totals are computed together (independent chains the core overlaps), chained into
// carries, then the lanes are scanned together from their carries with the block still in
// L1. One line per lane keeps every access of a block inside a few consecutive lines, so
// the hardware prefetchers see two plain streams (lanes far apart made them miss, and
// 4 KiB-aliased loads and stores stalled). Operators need to be associative only: every
// combination keeps sequence order (earlier operand on the left).
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

constexpr int scan_lanes = 8;
// Elements per lane and block: one 64-byte cache line (at least 4 elements).
template <class Acc>
constexpr std::size_t scan_sub_block() noexcept {
  return sizeof(Acc) >= 16 ? 4 : 64 / sizeof(Acc);
}
template <class Acc>
constexpr std::size_t scan_block() noexcept {
  return scan_lanes * scan_sub_block<Acc>();
}
constexpr std::size_t scan_min_piece = std::size_t{1} << 15;

// A running prefix; an inclusive scan has none before its first element and no identity
// element is assumed.
template <class Acc>
struct carry {
  Acc value{};
  bool valid = false;
  template <class Op>
  carry then(const Acc& x, const Op& op) const {
    carry next;
    next.value = valid ? static_cast<Acc>(op(value, x)) : x;
    next.valid = true;
    return next;
  }
};

// in[0] op in[1] op ... op in[len-1], len > 0, in order.
template <class Acc, class T, class Op>
Acc ordered_reduce(const T* in, std::size_t len, const Op& op) {
  constexpr std::size_t scan_sub_block = detail::scan_sub_block<Acc>();
  constexpr std::size_t scan_block = detail::scan_block<Acc>();
  carry<Acc> total;
  std::size_t i = 0;
  for (; i + scan_block <= len; i += scan_block) {
    Acc lane[scan_lanes];
    for (int w = 0; w < scan_lanes; ++w) lane[w] = static_cast<Acc>(in[i + w * scan_sub_block]);
    for (std::size_t j = 1; j < scan_sub_block; ++j) {
      for (int w = 0; w < scan_lanes; ++w) {
        lane[w] = op(lane[w], static_cast<Acc>(in[i + w * scan_sub_block + j]));
      }
    }
    hipamp::detail::pairwise_fold(lane, op);
    total = total.then(lane[0], op);
  }
  for (; i < len; ++i) total = total.then(static_cast<Acc>(in[i]), op);
  return total.value;
}

// Scans in[0..len) into out starting from `c` (always valid for an exclusive scan). `in` and
// `out` may be the same memory: every element is read before its output is written.
template <bool Exclusive, class Acc, class T, class Op>
void scan_range(const T* in, Acc* out, std::size_t len, carry<Acc> c, const Op& op) {
  constexpr std::size_t scan_sub_block = detail::scan_sub_block<Acc>();
  constexpr std::size_t scan_block = detail::scan_block<Acc>();
  std::size_t i = 0;
  for (; i + scan_block <= len; i += scan_block) {
    const T* block_in = in + i;
    Acc* block_out = out + i;
    Acc sub_total[scan_lanes];
    for (int w = 0; w < scan_lanes; ++w)
      sub_total[w] = static_cast<Acc>(block_in[w * scan_sub_block]);
    for (std::size_t j = 1; j < scan_sub_block; ++j) {
      for (int w = 0; w < scan_lanes; ++w) {
        sub_total[w] = op(sub_total[w], static_cast<Acc>(block_in[w * scan_sub_block + j]));
      }
    }
    carry<Acc> start[scan_lanes];
    start[0] = c;
    for (int w = 1; w < scan_lanes; ++w) start[w] = start[w - 1].then(sub_total[w - 1], op);
    c = start[scan_lanes - 1].then(sub_total[scan_lanes - 1], op);

    Acc run[scan_lanes];
    for (int w = 0; w < scan_lanes; ++w) {
      const Acc x = static_cast<Acc>(block_in[w * scan_sub_block]);
      if constexpr (Exclusive) {
        block_out[w * scan_sub_block] = start[w].value;
        run[w] = op(start[w].value, x);
      } else {
        run[w] = start[w].then(x, op).value;
        block_out[w * scan_sub_block] = run[w];
      }
    }
    for (std::size_t j = 1; j < scan_sub_block; ++j) {
      for (int w = 0; w < scan_lanes; ++w) {
        const std::size_t k = w * scan_sub_block + j;
        const Acc x = static_cast<Acc>(block_in[k]);
        if constexpr (Exclusive) {
          block_out[k] = run[w];
          run[w] = op(run[w], x);
        } else {
          run[w] = op(run[w], x);
          block_out[k] = run[w];
        }
      }
    }
  }
  for (; i < len; ++i) {
    const Acc x = static_cast<Acc>(in[i]);
    if constexpr (Exclusive) {
      out[i] = c.value;
      c = c.then(x, op);
    } else {
      c = c.then(x, op);
      out[i] = c.value;
    }
  }
}

template <bool Exclusive, class Acc, class T, class Op>
struct scan_pieces {
  const T* in;
  Acc* out;
  std::size_t n;
  std::size_t pieces;
  const Op* op;
  Acc* totals;                // pass 1 output, one per piece
  const carry<Acc>* carries;  // pass 2 input, one per piece

  std::size_t piece_begin(std::size_t p) const noexcept {
    return n / pieces * p + std::min(p, n % pieces);
  }
  static void reduce(const void* context, std::size_t first, std::size_t last) {
    const auto& self = *static_cast<const scan_pieces*>(context);
    for (std::size_t p = first; p < last; ++p) {
      const std::size_t b = self.piece_begin(p);
      self.totals[p] = ordered_reduce<Acc>(self.in + b, self.piece_begin(p + 1) - b, *self.op);
    }
  }
  static void scan(const void* context, std::size_t first, std::size_t last) {
    const auto& self = *static_cast<const scan_pieces*>(context);
    for (std::size_t p = first; p < last; ++p) {
      const std::size_t b = self.piece_begin(p);
      scan_range<Exclusive>(self.in + b, self.out + b, self.piece_begin(p + 1) - b, self.carries[p],
                            *self.op);
    }
  }
};

template <bool Exclusive, class Acc, class T, class Op>
void scan(const T* in, Acc* out, std::size_t n, carry<Acc> initial, const Op& op) {
  if (n == 0) return;
  const std::size_t by_size = (n + scan_min_piece - 1) / scan_min_piece;
  const std::size_t pieces = std::max<std::size_t>(
      1, std::min<std::size_t>(by_size, static_cast<std::size_t>(thread_count())));
  if (pieces == 1) {
    scan_range<Exclusive>(in, out, n, initial, op);
    return;
  }
  const std::unique_ptr<Acc[]> totals = std::make_unique<Acc[]>(pieces);
  const std::unique_ptr<carry<Acc>[]> carries = std::make_unique<carry<Acc>[]>(pieces);
  const scan_pieces<Exclusive, Acc, T, Op> work{in,           out,          n, pieces, &op,
                                                totals.get(), carries.get()};
  // The last piece's total is never needed.
  parallel_chunks(pieces - 1, 1, &decltype(work)::reduce, &work);
  carries[0] = initial;
  for (std::size_t p = 1; p < pieces; ++p) carries[p] = carries[p - 1].then(totals[p - 1], op);
  parallel_chunks(pieces, 1, &decltype(work)::scan, &work);
}

}  // namespace detail

// out[i] = in[0] op ... op in[i]; `op` associative (not necessarily commutative).
template <class Acc, class T, class Op>
void inclusive_scan(const T* in, Acc* out, std::size_t n, const Op& op) {
  detail::scan<false, Acc>(in, out, n, detail::carry<Acc>{}, op);
}

// out[i] = init op in[0] op ... op in[i-1]; out[0] = init.
template <class Acc, class T, class Op>
void exclusive_scan(const T* in, Acc* out, std::size_t n, const Acc& init, const Op& op) {
  detail::scan<true, Acc>(in, out, n, detail::carry<Acc>{init, true}, op);
}

// ---- the CPU device's side of the scan dispatch (algorithm/scan/dispatch.hpp) ----------------

// An inclusive (Exclusive = false; init unused) or exclusive scan of in[0, n) into out.
template <bool Exclusive, class Acc, class T, class Op>
hipamp::detail::event_ptr scan_range(const device_target& /*on*/,
                                     std::bool_constant<Exclusive> /*exclusive*/, const T* in,
                                     Acc* out, std::size_t n, const Acc& init, const Op& op) {
  if constexpr (Exclusive) {
    exclusive_scan(in, out, n, init, op);
  } else {
    inclusive_scan(in, out, n, op);
  }
  return hipamp::detail::ready_event();
}

}  // namespace hipamp::fallback
