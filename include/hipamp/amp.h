// C++ AMP compatibility. `#include <hipamp/amp.h>` replaces <amp.h>, <amp_math.h>,
// <amp_graphics.h> and <amp_short_vectors.h>; tools/amp2hipamp.py makes that and the other
// mechanical edits (docs/porting.md).
//
// What it provides:
//  - namespace concurrency (and Concurrency): every hipamp name, so concurrency::array_view,
//    concurrency::graphics::float_4, concurrency::fast_math::sqrt, ... name the hipamp ones;
//  - `tile_static`, spelled for HIPAMP_TILE_STATIC;
//  - C++ AMP's norm/unorm constants (NORM_ZERO, UNORM_MAX, ...).
//
// What it cannot provide: `restrict(amp)` is not C++ (write HIPAMP_RESTRICT before a lambda's
// parameter list or a function's declaration); DirectX interop and texture sampling do not exist
// (textures themselves do: <hipamp/texture.hpp>) (concurrency::direct3d holds the HLSL intrinsics
// only, <hipamp/direct3d.hpp>). With `using namespace concurrency;` at global scope, `index<1>` is
// ambiguous with the POSIX function index() from <strings.h>: write concurrency::index<1>.
//
// Why a namespace holding a using-directive rather than `namespace concurrency = hipamp;`:
// C++ AMP code may reopen `namespace concurrency { ... }` to add its own helpers, which a
// namespace alias forbids; and hipamp's own headers never see the compatibility names. The
// price: a template cannot be explicitly specialised through the concurrency:: name (write
// hipamp:: there).
#pragma once

#include <hipamp/hipamp.hpp>
#include <hipamp/short_vector.hpp>
#if __has_include(<hipamp/math.hpp>)
#include <hipamp/math.hpp>  // hipamp::fast_math and hipamp::precise_math
#endif

namespace concurrency {
using namespace ::hipamp;
}  // namespace concurrency

namespace Concurrency = concurrency;  // NOLINT: C++ AMP's original spelling

#ifndef tile_static
#define tile_static HIPAMP_TILE_STATIC
#endif

// C++ AMP 1.2, 10.8.1.
#define NORM_ZERO ((::hipamp::graphics::norm)0.0f)
#define NORM_MIN ((::hipamp::graphics::norm)-1.0f)
#define NORM_MAX ((::hipamp::graphics::norm)1.0f)
#define UNORM_ZERO ((::hipamp::graphics::unorm)0.0f)
#define UNORM_MIN ((::hipamp::graphics::unorm)0.0f)
#define UNORM_MAX ((::hipamp::graphics::unorm)1.0f)
