// The GPU reduction's tuning (backend/gpu/reduce.hpp): block size, loads in flight and the
// depth of the pairwise cascade. Kept apart from the kernels so a sweep or a new GPU changes
// this file only (CUB's tuning_*.cuh).
#pragma once

namespace hipamp::detail::gpu {

inline constexpr int reduce_threads = 256;
inline constexpr int reduce_vectors = 4;  // per thread and tile: 64 bytes in flight per thread
// Levels of the per-thread cascade: exact pairwise up to 128 tiles per thread (2^28 floats
// on a 132-SM GPU need ~64), a short extra chain beyond.
inline constexpr int reduce_cascade_levels = 8;

}  // namespace hipamp::detail::gpu
