// Bounds checks on kernel indices (the reference device; the CPU device with
// HIPAMP_CHECK_BOUNDS=1 or a view from accelerator::create_checked_view). The inline test
// lives in array_view.hpp, guarded by the per-translation-unit flag in launch_scope.hpp; this
// is its out-of-line slow path, which builds the message and throws index_out_of_range.
#pragma once

#include <typeinfo>

namespace hipamp::detail {

// What the message names: "array_view<const float, 2>" (or "array<...>") with the index
// and the extent. `leaf`: like bind_to_host (data_source.hpp) it never calls back into the
// caller's translation unit, so the bounds flag and the views stay loop-invariant for the
// compiler; it only ever leaves by throwing.
#if defined(__GNUC__) || defined(__clang__)
#define HIPAMP_BOUNDS_SLOW_PATH __attribute__((leaf, cold))
#else
#define HIPAMP_BOUNDS_SLOW_PATH
#endif
[[noreturn]] HIPAMP_BOUNDS_SLOW_PATH void throw_index_out_of_range(const std::type_info& element,
                                                                   bool read_only,
                                                                   const char* container, int rank,
                                                                   const int* index,
                                                                   const int* extent);

}  // namespace hipamp::detail
