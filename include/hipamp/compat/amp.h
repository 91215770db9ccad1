// <amp.h> as a Windows program sees it: MSVC's <amp.h> pulls in <windows.h> (through
// <amprt.h> and <d3d11.h>), so C++ AMP programs use LARGE_INTEGER, QueryPerformanceCounter,
// GetTickCount, DWORD and the min/max macros having included nothing but <amp.h>
// (the book's Timer.h, BinomialOptions' kernel `min(...)`, fishhe's GetTickCount timing).
// tools/amp2hipamp.py can point such a program's `#include <amp.h>` here; <hipamp/amp.h> alone
// keeps the global namespace free of the Windows names.
#pragma once

#include <hipamp/amp.h>
#include <hipamp/compat/windows.h>
