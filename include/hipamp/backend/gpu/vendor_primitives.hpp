// Picks the vendor's primitives library (rocPRIM under hipcc, CUB under nvcc) behind the
// names of gpu::vendor: only the translation units that use them pay for their headers.
#pragma once

#if defined(__HIPCC__)
#include <hipamp/backend/gpu/vendor/rocprim.hpp>
#else
#include <hipamp/backend/gpu/vendor/cub.hpp>
#endif
