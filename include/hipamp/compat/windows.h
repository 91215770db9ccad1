// The part of <windows.h> (and of the MSVC C runtime) that C++ AMP programs use, for Linux:
// tools/amp2hipamp.py points `#include <windows.h>` (and <Windows.h>, <stdafx.h> leftovers) here.
//
//  - the integer types under their Windows names, with Windows' widths (LONG and DWORD are 32
//    bits on Windows; on Linux `long` is 64), TRUE/FALSE, LARGE_INTEGER with QuadPart;
//  - QueryPerformanceCounter/Frequency (steady_clock in nanoseconds), GetTickCount(64), Sleep,
//    GetCurrentThreadId (a number per thread, distinct among the threads alive, never 0);
//  - min/max as function templates, not <windows.h>'s macros (which would break std::min and
//    numeric_limits<T>::max()): usable in kernels, unambiguous beside std::min under `using
//    namespace std;` and beside CUDA's/HIP's own ::min overloads, mixed argument types giving
//    the common type as the macros' ?: does.
//    Define NOMINMAX before the include to get neither, as with <windows.h>;
//  - __max/__min (stdlib.h's macros, as functions), _countof;
//  - the secure CRT functions the samples use (sprintf_s, swprintf_s, strcpy_s, strcat_s,
//    fopen_s, _wtoi, _wtof, _stricmp, printf_s), ZeroMemory, _getch;
//  - `abs` of float and double in the global namespace, as MSVC's <cmath> has it (glibc's
//    global `abs` is int only, which would silently truncate `abs(x)` on a float).
//
// Not provided (no equivalent worth pretending): window/GUI/COM APIs, HANDLE-based kernel
// objects, __declspec, SetThreadAffinityMask.
#pragma once

#include <strings.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <thread>
#include <type_traits>

#include <hipamp/config.hpp>

// ---- types ----------------------------------------------------------------------------------

using BOOL = int;
using BOOLEAN = unsigned char;
using BYTE = std::uint8_t;
using WORD = std::uint16_t;
using DWORD = std::uint32_t;
using DWORD64 = std::uint64_t;
using INT = int;
using UINT = unsigned int;
using LONG = std::int32_t;
using ULONG = std::uint32_t;
using LONGLONG = std::int64_t;
using ULONGLONG = std::uint64_t;
using INT8 = std::int8_t;
using UINT8 = std::uint8_t;
using INT16 = std::int16_t;
using UINT16 = std::uint16_t;
using INT32 = std::int32_t;
using UINT32 = std::uint32_t;
using INT64 = std::int64_t;
using UINT64 = std::uint64_t;
using SIZE_T = std::size_t;
using SSIZE_T = std::ptrdiff_t;
using INT_PTR = std::intptr_t;
using UINT_PTR = std::uintptr_t;
using LONG_PTR = std::intptr_t;
using ULONG_PTR = std::uintptr_t;
using DWORD_PTR = std::uintptr_t;
using FLOAT = float;
using CHAR = char;
using WCHAR = wchar_t;
using LPSTR = char*;
using LPCSTR = const char*;
using LPWSTR = wchar_t*;
using LPCWSTR = const wchar_t*;
using LPVOID = void*;
using LPCVOID = const void*;
using HANDLE = void*;
using HRESULT = std::int32_t;
using errno_t = int;

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif
#ifndef VOID
#define VOID void
#endif
#ifndef WINAPI
#define WINAPI
#endif
#ifndef CALLBACK
#define CALLBACK
#endif
#ifndef S_OK
#define S_OK ((HRESULT)0)
#endif
#ifndef MAX_PATH
#define MAX_PATH 260
#endif
#ifndef INFINITE
#define INFINITE 0xFFFFFFFFu
#endif

union LARGE_INTEGER {
  struct {
    DWORD LowPart;
    LONG HighPart;
  } u;
  LONGLONG QuadPart;
};
union ULARGE_INTEGER {
  struct {
    DWORD LowPart;
    DWORD HighPart;
  } u;
  ULONGLONG QuadPart;
};

// ---- time ----------------------------------------------------------------------------------

// A monotonic counter in nanoseconds; the frequency is therefore 10^9 per second.
inline BOOL QueryPerformanceCounter(LARGE_INTEGER* count) noexcept {
  if (count == nullptr) return FALSE;
  count->QuadPart = static_cast<LONGLONG>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now().time_since_epoch())
                                              .count());
  return TRUE;
}
inline BOOL QueryPerformanceFrequency(LARGE_INTEGER* frequency) noexcept {
  if (frequency == nullptr) return FALSE;
  frequency->QuadPart = 1000000000;
  return TRUE;
}
// Milliseconds of a monotonic clock (Windows counts from boot; only differences matter).
inline ULONGLONG GetTickCount64() noexcept {
  return static_cast<ULONGLONG>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch())
                                    .count());
}
inline DWORD GetTickCount() noexcept { return static_cast<DWORD>(GetTickCount64()); }
inline void Sleep(DWORD milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}
// Windows numbers threads from a counter and never gives 0; ampblas keys its per-thread
// contexts on it. A thread takes the next number the first time it asks.
inline DWORD GetCurrentThreadId() noexcept {
  static std::atomic<DWORD> next{1};
  thread_local const DWORD id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}

// ---- min, max, __min, __max, _countof ------------------------------------------------------

namespace hipamp::compat {
template <class A, class B>
using common_t = std::common_type_t<A, B>;
}  // namespace hipamp::compat

#ifndef NOMINMAX
// Templates over any two arithmetic types, returning their common type as the macros' ?:
// does. Being templates they never clash with the non-template overloads CUDA and HIP declare
// for kernels (::min(int, int), ...), which win where they match; under `using namespace std;`
// std::min/std::max (more specialised templates) win same-type calls, with the same result.
template <class A, class B,
          typename = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
HIPAMP_HOST_DEVICE constexpr hipamp::compat::common_t<A, B> min(A a, B b) noexcept {
  using C = hipamp::compat::common_t<A, B>;
  return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}
template <class A, class B,
          typename = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
HIPAMP_HOST_DEVICE constexpr hipamp::compat::common_t<A, B> max(A a, B b) noexcept {
  using C = hipamp::compat::common_t<A, B>;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}
#endif  // NOMINMAX

template <class A, class B>
HIPAMP_HOST_DEVICE constexpr hipamp::compat::common_t<A, B> __max(A a, B b) noexcept {
  using C = hipamp::compat::common_t<A, B>;
  return static_cast<C>(a) > static_cast<C>(b) ? static_cast<C>(a) : static_cast<C>(b);
}
template <class A, class B>
HIPAMP_HOST_DEVICE constexpr hipamp::compat::common_t<A, B> __min(A a, B b) noexcept {
  using C = hipamp::compat::common_t<A, B>;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(a) : static_cast<C>(b);
}

// The number of elements of an array (not of a pointer: that does not compile, as in MSVC).
template <class T, std::size_t N>
constexpr std::size_t hipamp_compat_countof(T (&)[N]) noexcept {
  return N;
}
#ifndef _countof
#define _countof(array) hipamp_compat_countof(array)
#endif

// MSVC's <cmath> puts abs(float/double) in the global namespace.
using std::abs;

// ---- secure CRT ------------------------------------------------------------------------------
// The _s functions check their destination size; on overflow MSVC calls the invalid-parameter
// handler (which ends the program by default). Here they return an error code and leave an
// empty string, which is what a program sees under a non-terminating handler.

inline int vsprintf_s(char* buffer, std::size_t size, const char* format, va_list args) {
  if (buffer == nullptr || size == 0 || format == nullptr) return -1;
  const int n = std::vsnprintf(buffer, size, format, args);
  if (n < 0 || static_cast<std::size_t>(n) >= size) {
    buffer[0] = '\0';
    return -1;
  }
  return n;
}
inline int sprintf_s(char* buffer, std::size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsprintf_s(buffer, size, format, args);
  va_end(args);
  return n;
}
template <std::size_t N>
int sprintf_s(char (&buffer)[N], const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsprintf_s(buffer, N, format, args);
  va_end(args);
  return n;
}
inline int vswprintf_s(wchar_t* buffer, std::size_t size, const wchar_t* format, va_list args) {
  if (buffer == nullptr || size == 0 || format == nullptr) return -1;
  const int n = std::vswprintf(buffer, size, format, args);
  if (n < 0) {
    buffer[0] = L'\0';
    return -1;
  }
  return n;
}
inline int swprintf_s(wchar_t* buffer, std::size_t size, const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vswprintf_s(buffer, size, format, args);
  va_end(args);
  return n;
}
template <std::size_t N>
int swprintf_s(wchar_t (&buffer)[N], const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vswprintf_s(buffer, N, format, args);
  va_end(args);
  return n;
}
inline int printf_s(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = std::vprintf(format, args);
  va_end(args);
  return n;
}
inline int wprintf_s(const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = std::vwprintf(format, args);
  va_end(args);
  return n;
}

inline errno_t strcpy_s(char* dest, std::size_t size, const char* src) {
  if (dest == nullptr || size == 0) return EINVAL;
  if (src == nullptr) {
    dest[0] = '\0';
    return EINVAL;
  }
  const std::size_t len = std::strlen(src);
  if (len >= size) {
    dest[0] = '\0';
    return ERANGE;
  }
  std::memcpy(dest, src, len + 1);
  return 0;
}
template <std::size_t N>
errno_t strcpy_s(char (&dest)[N], const char* src) {
  return strcpy_s(dest, N, src);
}
inline errno_t strcat_s(char* dest, std::size_t size, const char* src) {
  if (dest == nullptr || size == 0) return EINVAL;
  const std::size_t have = strnlen(dest, size);
  if (have == size || src == nullptr) {
    dest[0] = '\0';
    return EINVAL;
  }
  return strcpy_s(dest + have, size - have, src) == 0 ? 0 : (dest[0] = '\0', ERANGE);
}
template <std::size_t N>
errno_t strcat_s(char (&dest)[N], const char* src) {
  return strcat_s(dest, N, src);
}

inline errno_t fopen_s(std::FILE** file, const char* name, const char* mode) {
  if (file == nullptr || name == nullptr || mode == nullptr) return EINVAL;
  *file = std::fopen(name, mode);
  return *file == nullptr ? errno : 0;
}

inline int _wtoi(const wchar_t* s) noexcept {
  return s == nullptr ? 0 : static_cast<int>(std::wcstol(s, nullptr, 10));
}
inline long _wtol(const wchar_t* s) noexcept {
  return s == nullptr ? 0 : std::wcstol(s, nullptr, 10);
}
inline double _wtof(const wchar_t* s) noexcept {
  return s == nullptr ? 0.0 : std::wcstod(s, nullptr);
}
inline int _stricmp(const char* a, const char* b) noexcept { return strcasecmp(a, b); }
inline int _strnicmp(const char* a, const char* b, std::size_t n) noexcept {
  return strncasecmp(a, b, n);
}
inline int _wcsicmp(const wchar_t* a, const wchar_t* b) noexcept { return wcscasecmp(a, b); }
inline int _getch() { return std::getchar(); }

inline void ZeroMemory(void* destination, std::size_t length) noexcept {
  std::memset(destination, 0, length);
}
inline void CopyMemory(void* destination, const void* source, std::size_t length) noexcept {
  std::memcpy(destination, source, length);
}
