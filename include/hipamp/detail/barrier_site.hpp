// barrier_site: which tile_barrier::wait call a work-item stands at.
#pragma once

#include <hipamp/config.hpp>

namespace hipamp {
namespace detail {
// Where a tile_barrier::wait stands in the source, taken by a default argument at the call
// (__builtin_FILE/__builtin_LINE, which GCC, clang and nvcc evaluate at the outermost call).
// The CPU device uses it to check that every work-item of a tile waits at the same barrier
// (C++ AMP's compiler rejected barriers in divergent code; at run time only the place tells
// two barriers apart). GPU code ignores it: the arguments are constants the compiler drops.
struct barrier_site {
  const char* file;
  int line;
  HIPAMP_HOST_DEVICE static constexpr barrier_site here(const char* file = __builtin_FILE(),
                                                        int line = __builtin_LINE()) noexcept {
    return {file, line};
  }
};
}  // namespace detail
}  // namespace hipamp
