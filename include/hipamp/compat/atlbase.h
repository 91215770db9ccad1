// <atlbase.h> for Linux: tools/amp2hipamp.py points `#include <atlbase.h>` here. C++ AMP programs
// include it for ATL's string conversions (CW2A to print an accelerator's description), which
// <atlconv.h> declares and <atlbase.h> brings, as ATL's own does; and <windows.h>, which ATL's
// header includes too.
//
// Not provided: the rest of ATL (CComPtr, CComBSTR, CComVariant, CRegKey, modules): COM does not
// exist here, so a program that uses it (the book's Direct3D interop) still stops at those names.
#pragma once

#include <hipamp/compat/atlconv.h>
#include <hipamp/compat/windows.h>
