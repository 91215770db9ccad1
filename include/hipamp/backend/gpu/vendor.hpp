// Picks the vendor file of the GPU compiler running: vendor/hip.hpp under hipcc / ROCm's clang,
// vendor/cuda.hpp under nvcc. The only vendor test in hipamp's GPU room; everything else uses
// the names in gpu::vendor (or kernel_language.hpp's, which come from there).
#pragma once

#if defined(__HIPCC__)
#include <hipamp/backend/gpu/vendor/hip.hpp>
#else
#include <hipamp/backend/gpu/vendor/cuda.hpp>
#endif
