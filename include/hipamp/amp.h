// C++ AMP compatibility. `#include <hipamp/amp.h>` replaces <amp.h>, <amp_math.h>,
// <amp_graphics.h> and <amp_short_vectors.h>; tools/amp2hipamp.py makes that and the other
// mechanical edits (docs/porting.md).
//
// What it provides:
//  - namespaces concurrency and Concurrency: every hipamp name, so concurrency::array_view,
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

// The model only, as C++ AMP's <amp.h>: no algorithms (<hipamp/model.hpp> says why). A program
// that also uses hipamp's algorithms includes <hipamp/hipamp.hpp> or the algorithm's header.
// HCC's <amp.h> brings <cassert> (hc_defines.h): C++ AMP code written for HCC on Linux calls
// assert() without including it. MSVC's brings <climits>: ports use UINT_MAX without it.
#include <cassert>
#include <climits>

#include <hipamp/model.hpp>
#include <hipamp/short_vector.hpp>

// A port defines HIPAMP_ROBUST_ACCESS before this header (tools/amp2hipamp.py does). Defined
// after another hipamp header was already included, it would reach only some of this unit's
// code, so a kernel's out-of-range access would fault in one place and read zero in another.
#if (defined(HIPAMP_ROBUST_ACCESS) && HIPAMP_ROBUST_ACCESS) != HIPAMP_ROBUST_ACCESS_ON
#error \
    "hipamp: HIPAMP_ROBUST_ACCESS changed after the first hipamp header of this unit; define it before every hipamp include (or on the command line)"
#endif
#if __has_include(<hipamp/math.hpp>)
#include <hipamp/math.hpp>  // hipamp::fast_math and hipamp::precise_math
#endif

namespace concurrency {
using namespace ::hipamp;
}  // namespace concurrency

// C++ AMP's original spelling. MSVC makes `concurrency` an alias of `Concurrency`, so code may
// reopen either one and name what it added through the other (the conformance suite's harness
// opens `namespace Concurrency { namespace Test` before it includes <amp.h>, its tests name
// `concurrency::Test`). An alias cannot be reopened; two namespaces that nominate each other
// can, in any order, and qualified lookup through either finds what either holds.
namespace Concurrency {  // NOLINT(readability-identifier-naming)
using namespace ::concurrency;
}  // namespace Concurrency
namespace concurrency {
using namespace ::Concurrency;
}  // namespace concurrency

#ifndef tile_static
#define tile_static HIPAMP_TILE_STATIC
#endif

// MSVC's <amp.h> names restrict(amp,cpu) __GPU and restrict(amp) __GPU_ONLY, and __CPU_ONLY
// is empty. tools/amp2hipamp.py moves their uses before the declaration, where nvcc needs
// HIPAMP_RESTRICT; a use left after the declarator still compiles with a host compiler.
// NOLINTBEGIN(bugprone-reserved-identifier)
#ifndef __GPU
#define __GPU HIPAMP_RESTRICT
#endif
#ifndef __GPU_ONLY
#define __GPU_ONLY HIPAMP_RESTRICT
#endif
#ifndef __CPU_ONLY
#define __CPU_ONLY
#endif
// NOLINTEND(bugprone-reserved-identifier)

// C++ AMP 1.2, 10.8.1.
#define NORM_ZERO ((::hipamp::graphics::norm)0.0f)
#define NORM_MIN ((::hipamp::graphics::norm)-1.0f)
#define NORM_MAX ((::hipamp::graphics::norm)1.0f)
#define UNORM_ZERO ((::hipamp::graphics::unorm)0.0f)
#define UNORM_MIN ((::hipamp::graphics::unorm)0.0f)
#define UNORM_MAX ((::hipamp::graphics::unorm)1.0f)
