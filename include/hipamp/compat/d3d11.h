// <d3d11.h> for Linux. C++ AMP samples include it for Direct3D interop (textures shared with
// a swap chain, concurrency::direct3d::create_accelerator_view over an ID3D11Device), which has
// no counterpart off Windows; the samples that only include it compile against this header.
// It offers the Windows base types (HRESULT, S_OK, ...) and nothing of Direct3D itself: code
// that calls Direct3D must be guarded or removed when porting (docs/porting.md). The porting
// tool maps <d3dcommon.h> (which <d3d11.h> includes on Windows) here as well.
#pragma once

#include <hipamp/compat/windows.h>
