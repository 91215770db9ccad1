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
//    global `abs` is int only, which would silently truncate `abs(x)` on a float);
//  - GetLastError/SetLastError (per thread); MultiByteToWideChar/WideCharToMultiByte, which
//    treat every code page as UTF-8 (Linux text is UTF-8; see below);
//  - GetModuleHandle(A/W)/LoadLibrary(A/W) for "kernel32" and GetProcAddress of the kernel32
//    functions this header implements, and GetLogicalProcessorInformation from Linux's
//    /sys/devices/system/cpu topology (programs fetch it through GetProcAddress, as MSDN's
//    example does, to count cores).
//
// Not provided (no equivalent worth pretending): window/GUI/COM APIs, HANDLE-based kernel
// objects, __declspec, SetThreadAffinityMask, other DLLs than kernel32.
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
#include <vector>

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
using PDWORD = DWORD*;
using LPDWORD = DWORD*;
using PBOOL = BOOL*;
using LPBOOL = BOOL*;
using PVOID = void*;
using CCHAR = char;
using LPCCH = const char*;
using LPCWCH = const wchar_t*;
// A module handle, as <windows.h>'s DECLARE_HANDLE(HINSTANCE) makes it: a pointer to a distinct
// struct, so it does not mix with other handles.
struct HINSTANCE__ {
  int unused;
};
using HINSTANCE = HINSTANCE__*;
using HMODULE = HINSTANCE;
// What GetProcAddress returns, as in <minwindef.h>: cast it to the function's own type.
using FARPROC = INT_PTR (*)();
using NEARPROC = INT_PTR (*)();
using PROC = INT_PTR (*)();
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
// <winnt.h>'s TEXT: narrow, as <tchar.h>'s _T (hipamp's compat layer is the multi-byte build).
#ifndef TEXT
#define TEXT(x) x
#endif
#ifndef __TEXT
#define __TEXT(x) x
#endif

// <winerror.h>'s codes that the functions below set (GetLastError).
#ifndef ERROR_SUCCESS
#define ERROR_SUCCESS 0L
#endif
#ifndef NO_ERROR
#define NO_ERROR 0L
#endif
#ifndef ERROR_INVALID_PARAMETER
#define ERROR_INVALID_PARAMETER 87L
#endif
#ifndef ERROR_INSUFFICIENT_BUFFER
#define ERROR_INSUFFICIENT_BUFFER 122L
#endif
#ifndef ERROR_MOD_NOT_FOUND
#define ERROR_MOD_NOT_FOUND 126L
#endif
#ifndef ERROR_PROC_NOT_FOUND
#define ERROR_PROC_NOT_FOUND 127L
#endif
#ifndef ERROR_NO_UNICODE_TRANSLATION
#define ERROR_NO_UNICODE_TRANSLATION 1113L
#endif
// <winnls.h>'s code pages (all of them convert as UTF-8 here).
#ifndef CP_ACP
#define CP_ACP 0
#endif
#ifndef CP_OEMCP
#define CP_OEMCP 1
#endif
#ifndef CP_MACCP
#define CP_MACCP 2
#endif
#ifndef CP_THREAD_ACP
#define CP_THREAD_ACP 3
#endif
#ifndef CP_UTF7
#define CP_UTF7 65000
#endif
#ifndef CP_UTF8
#define CP_UTF8 65001
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

// ---- last error -------------------------------------------------------------------------------

namespace hipamp::compat::detail {
inline DWORD& last_error() noexcept {
  thread_local DWORD error = 0;
  return error;
}
}  // namespace hipamp::compat::detail

inline DWORD GetLastError() noexcept { return hipamp::compat::detail::last_error(); }
inline void SetLastError(DWORD error) noexcept { hipamp::compat::detail::last_error() = error; }

// ---- text conversion
// ----------------------------------------------------------------------------- Windows converts
// between UTF-16 and a code page (the "ANSI" one, cp1252 on a western system, unless a program
// names CP_UTF8). On Linux narrow text is UTF-8 (argv, the terminal, files) and wchar_t is UTF-32,
// so every code page argument is accepted and the conversion is UTF-8: a program that narrows L"é"
// with CP_ACP gets the two bytes C3 A9 rather than cp1252's E9, which is what a Linux terminal
// shows as é. Invalid input (a lone surrogate, a code point past U+10FFFF, a malformed UTF-8
// sequence) becomes U+FFFD, as Windows' UTF-8 conversion does.

namespace hipamp::compat::detail {

inline void utf8_append(std::vector<char>& out, char32_t c) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// n wide characters (UTF-32, or UTF-16 where wchar_t has 16 bits; a surrogate pair is joined
// in either case) -> UTF-8. Returns whether every character was valid.
inline bool wide_to_utf8(const wchar_t* s, std::size_t n, std::vector<char>& out) {
  bool valid = true;
  for (std::size_t i = 0; i < n; ++i) {
    char32_t c = static_cast<char32_t>(s[i]) & (sizeof(wchar_t) == 2 ? 0xFFFFu : 0xFFFFFFFFu);
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n) {
      const char32_t low = static_cast<char32_t>(s[i + 1]) & 0xFFFFFFFFu;
      if (low >= 0xDC00 && low <= 0xDFFF) {
        c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
        ++i;
      }
    }
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) valid = false;
    utf8_append(out, c);
  }
  return valid;
}

// n bytes of UTF-8 -> wide characters (surrogate pairs where wchar_t has 16 bits). Returns
// whether the input was valid UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
inline bool utf8_to_wide(const char* s, std::size_t n, std::vector<wchar_t>& out) {
  bool valid = true;
  const auto* b = reinterpret_cast<const unsigned char*>(s);
  for (std::size_t i = 0; i < n;) {
    const unsigned char lead = b[i];
    std::size_t len = lead < 0x80           ? 1
                      : (lead >> 5) == 0x6  ? 2
                      : (lead >> 4) == 0xE  ? 3
                      : (lead >> 3) == 0x1E ? 4
                                            : 0;
    char32_t c = len == 1   ? lead
                 : len == 2 ? (lead & 0x1F)
                 : len == 3 ? (lead & 0x0F)
                            : (lead & 0x07);
    bool ok = len != 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) {
      if ((b[i + k] & 0xC0) != 0x80)
        ok = false;
      else
        c = (c << 6) | (b[i + k] & 0x3F);
    }
    if (ok) {
      const char32_t least = len == 2 ? 0x80 : len == 3 ? 0x800 : len == 4 ? 0x10000 : 0;
      ok = c >= least && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
    }
    if (!ok) {  // one replacement character per bad byte
      valid = false;
      c = 0xFFFD;
      len = 1;
    }
    if (sizeof(wchar_t) == 2 && c >= 0x10000) {
      out.push_back(static_cast<wchar_t>(0xD800 + ((c - 0x10000) >> 10)));
      out.push_back(static_cast<wchar_t>(0xDC00 + ((c - 0x10000) & 0x3FF)));
    } else {
      out.push_back(static_cast<wchar_t>(c));
    }
    i += len;
  }
  return valid;
}

}  // namespace hipamp::compat::detail

// Length -1: the string is null-terminated and the terminator is converted (and counted) too.
// A zero output size asks for the size needed; a too-small one fails with
// ERROR_INSUFFICIENT_BUFFER. Flags and the default character are accepted and ignored (invalid
// input gives U+FFFD; *used_default tells whether any did).
inline int WideCharToMultiByte(UINT /*code_page*/, DWORD /*flags*/, LPCWCH wide, int wide_length,
                               LPSTR narrow, int narrow_size, LPCCH /*default_char*/,
                               LPBOOL used_default) {
  if (wide == nullptr || wide_length == 0 || wide_length < -1 || narrow_size < 0 ||
      (narrow == nullptr && narrow_size != 0)) {
    SetLastError(ERROR_INVALID_PARAMETER);
    return 0;
  }
  const std::size_t n = wide_length == -1 ? std::wcslen(wide) + 1 : std::size_t(wide_length);
  std::vector<char> out;
  const bool valid = hipamp::compat::detail::wide_to_utf8(wide, n, out);
  if (used_default != nullptr) *used_default = valid ? FALSE : TRUE;
  if (narrow_size == 0) return static_cast<int>(out.size());
  if (out.size() > std::size_t(narrow_size)) {
    SetLastError(ERROR_INSUFFICIENT_BUFFER);
    return 0;
  }
  std::memcpy(narrow, out.data(), out.size());
  return static_cast<int>(out.size());
}
inline int MultiByteToWideChar(UINT /*code_page*/, DWORD /*flags*/, LPCCH narrow, int narrow_length,
                               LPWSTR wide, int wide_size) {
  if (narrow == nullptr || narrow_length == 0 || narrow_length < -1 || wide_size < 0 ||
      (wide == nullptr && wide_size != 0)) {
    SetLastError(ERROR_INVALID_PARAMETER);
    return 0;
  }
  const std::size_t n = narrow_length == -1 ? std::strlen(narrow) + 1 : std::size_t(narrow_length);
  std::vector<wchar_t> out;
  hipamp::compat::detail::utf8_to_wide(narrow, n, out);
  if (wide_size == 0) return static_cast<int>(out.size());
  if (out.size() > std::size_t(wide_size)) {
    SetLastError(ERROR_INSUFFICIENT_BUFFER);
    return 0;
  }
  std::memcpy(wide, out.data(), out.size() * sizeof(wchar_t));
  return static_cast<int>(out.size());
}

// ---- processor topology: GetLogicalProcessorInformation
// ------------------------------------------

enum LOGICAL_PROCESSOR_RELATIONSHIP {
  RelationProcessorCore = 0,
  RelationNumaNode = 1,
  RelationCache = 2,
  RelationProcessorPackage = 3,
  RelationGroup = 4,
  RelationAll = 0xffff
};
enum PROCESSOR_CACHE_TYPE { CacheUnified, CacheInstruction, CacheData, CacheTrace };
#ifndef LTP_PC_SMT
#define LTP_PC_SMT 0x1
#endif
#ifndef CACHE_FULLY_ASSOCIATIVE
#define CACHE_FULLY_ASSOCIATIVE 0xFF
#endif
struct CACHE_DESCRIPTOR {
  BYTE Level;
  BYTE Associativity;
  WORD LineSize;
  DWORD Size;
  PROCESSOR_CACHE_TYPE Type;
};
using PCACHE_DESCRIPTOR = CACHE_DESCRIPTOR*;
// Windows' layout (32 bytes on a 64-bit system), its union nameless as <winnt.h> declares it
// under a C++ compiler.
struct SYSTEM_LOGICAL_PROCESSOR_INFORMATION {
  ULONG_PTR ProcessorMask;
  LOGICAL_PROCESSOR_RELATIONSHIP Relationship;
  union {
    struct {
      BYTE Flags;
    } ProcessorCore;
    struct {
      DWORD NodeNumber;
    } NumaNode;
    CACHE_DESCRIPTOR Cache;
    ULONGLONG Reserved[2];
  };
};
using PSYSTEM_LOGICAL_PROCESSOR_INFORMATION = SYSTEM_LOGICAL_PROCESSOR_INFORMATION*;

namespace hipamp::compat::detail {

// The first line of a /sys file, without its newline; false if it cannot be read.
inline bool read_sys_line(const char* path, char* line, std::size_t size) {
  std::FILE* f = std::fopen(path, "r");
  if (f == nullptr) return false;
  const bool ok = std::fgets(line, static_cast<int>(size), f) != nullptr;
  std::fclose(f);
  if (ok) line[std::strcspn(line, "\n")] = '\0';
  return ok;
}

// A Linux CPU list ("0-3,8,10-11") -> the CPU numbers.
inline std::vector<int> parse_cpu_list(const char* list) {
  std::vector<int> cpus;
  for (const char* p = list; *p != '\0';) {
    char* end = nullptr;
    const long first = std::strtol(p, &end, 10);
    if (end == p) break;
    long last = first;
    p = end;
    if (*p == '-') {
      last = std::strtol(p + 1, &end, 10);
      p = end;
    }
    for (long c = first; c <= last && c - first < 65536; ++c) cpus.push_back(static_cast<int>(c));
    while (*p == ',' || *p == ' ') ++p;
  }
  return cpus;
}

// Windows numbers the logical processors of a processor group 0..63 (0..31 for a 32-bit
// program) and GetLogicalProcessorInformation reports the calling thread's group only. Here the
// group is the online CPUs in Linux's order, numbered densely: bit k of a mask is the k-th
// online CPU (Linux may skip numbers of CPUs that are offline). A machine with more logical
// processors than a mask has bits reports the first ones, as Windows reports one group.
struct cpu_topology {
  std::vector<int> cpus;  // online Linux CPU numbers, at most one mask's worth

  ULONG_PTR bit(int cpu) const {
    for (std::size_t k = 0; k < cpus.size(); ++k)
      if (cpus[k] == cpu) return ULONG_PTR(1) << k;
    return 0;
  }
  // The mask of a /sys CPU list file; 0 if the file is unreadable.
  ULONG_PTR mask_of_file(const char* path) const {
    char line[4096];
    if (!read_sys_line(path, line, sizeof line)) return 0;
    ULONG_PTR m = 0;
    for (int cpu : parse_cpu_list(line)) m |= bit(cpu);
    return m;
  }
};

inline cpu_topology online_cpus() {
  cpu_topology t;
  char line[4096];
  if (read_sys_line("/sys/devices/system/cpu/online", line, sizeof line))
    t.cpus = parse_cpu_list(line);
  if (t.cpus.empty()) {  // no /sys: hardware_concurrency processors, numbered 0..n-1
    const unsigned n = std::thread::hardware_concurrency();
    for (unsigned c = 0; c < (n == 0 ? 1u : n); ++c) t.cpus.push_back(static_cast<int>(c));
  }
  const std::size_t bits = sizeof(ULONG_PTR) * 8;
  if (t.cpus.size() > bits) t.cpus.resize(bits);
  return t;
}

inline void add_unique(std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION>& entries,
                       const SYSTEM_LOGICAL_PROCESSOR_INFORMATION& e) {
  for (const auto& x : entries) {
    if (x.Relationship != e.Relationship || x.ProcessorMask != e.ProcessorMask) continue;
    if (e.Relationship != RelationCache ||
        (x.Cache.Level == e.Cache.Level && x.Cache.Type == e.Cache.Type))
      return;
  }
  entries.push_back(e);
}

// One entry per core (its hardware threads' bits; LTP_PC_SMT when it has several), per cache
// (L1 data and instruction, L2, L3, ... with the processors that share it), per package and per
// NUMA node, from /sys/devices/system/cpu and /sys/devices/system/node. Where a file is missing
// each processor is its own core, and one package and one node hold them all.
inline std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION> logical_processor_information() {
  const cpu_topology t = online_cpus();
  ULONG_PTR all = 0;
  for (int cpu : t.cpus) all |= t.bit(cpu);
  std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION> entries;
  char path[256];
  char line[256];
  auto entry = [](ULONG_PTR mask, LOGICAL_PROCESSOR_RELATIONSHIP r) {
    SYSTEM_LOGICAL_PROCESSOR_INFORMATION e;
    std::memset(&e, 0, sizeof e);
    e.ProcessorMask = mask;
    e.Relationship = r;
    return e;
  };
  const char* base = "/sys/devices/system/cpu/cpu%d/topology/%s";
  for (int cpu : t.cpus) {  // cores
    std::snprintf(path, sizeof path, base, cpu, "core_cpus_list");
    ULONG_PTR m = t.mask_of_file(path);
    if (m == 0) {  // kernels before 5.6 call it thread_siblings_list
      std::snprintf(path, sizeof path, base, cpu, "thread_siblings_list");
      m = t.mask_of_file(path);
    }
    m |= t.bit(cpu);
    auto e = entry(m, RelationProcessorCore);
    ULONG_PTR rest = m & (m - 1);
    e.ProcessorCore.Flags = rest != 0 ? LTP_PC_SMT : 0;
    add_unique(entries, e);
  }
  for (int cpu : t.cpus) {  // caches
    for (int index = 0; index < 16; ++index) {
      auto field = [&](const char* name) {
        std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/%s", cpu,
                      index, name);
        return read_sys_line(path, line, sizeof line);
      };
      if (!field("level")) break;
      auto e = entry(0, RelationCache);
      e.Cache.Level = static_cast<BYTE>(std::atoi(line));
      e.Cache.Type = !field("type")                          ? CacheUnified
                     : std::strcmp(line, "Data") == 0        ? CacheData
                     : std::strcmp(line, "Instruction") == 0 ? CacheInstruction
                                                             : CacheUnified;
      if (field("size")) {
        char* unit = nullptr;
        unsigned long long size = std::strtoull(line, &unit, 10);
        if (*unit == 'K')
          size <<= 10;
        else if (*unit == 'M')
          size <<= 20;
        else if (*unit == 'G')
          size <<= 30;
        e.Cache.Size = static_cast<DWORD>(size);
      }
      if (field("coherency_line_size")) e.Cache.LineSize = static_cast<WORD>(std::atoi(line));
      if (field("ways_of_associativity")) {  // Linux says 0 for fully associative
        const int ways = std::atoi(line);
        e.Cache.Associativity =
            static_cast<BYTE>(ways <= 0 || ways > 0xFF ? CACHE_FULLY_ASSOCIATIVE : ways);
      }
      std::snprintf(path, sizeof path,
                    "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, index);
      e.ProcessorMask = t.mask_of_file(path) | t.bit(cpu);
      add_unique(entries, e);
    }
  }
  for (int cpu : t.cpus) {  // packages
    std::snprintf(path, sizeof path, base, cpu, "package_cpus_list");
    ULONG_PTR m = t.mask_of_file(path);
    if (m == 0) {  // kernels before 5.6: core_siblings_list
      std::snprintf(path, sizeof path, base, cpu, "core_siblings_list");
      m = t.mask_of_file(path);
    }
    add_unique(entries, entry(m == 0 ? all : (m | t.bit(cpu)), RelationProcessorPackage));
  }
  bool any_node = false;  // NUMA nodes with processors of the group
  std::vector<int> nodes;
  if (read_sys_line("/sys/devices/system/node/online", line, sizeof line))
    nodes = parse_cpu_list(line);
  for (int node : nodes) {
    std::snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", node);
    const ULONG_PTR m = t.mask_of_file(path);
    if (m == 0) continue;
    auto e = entry(m, RelationNumaNode);
    e.NumaNode.NodeNumber = static_cast<DWORD>(node);
    add_unique(entries, e);
    any_node = true;
  }
  if (!any_node) entries.push_back(entry(all, RelationNumaNode));
  return entries;
}

}  // namespace hipamp::compat::detail

// MSDN's protocol: a call whose buffer is null or smaller than the information sets
// *ReturnedLength to the bytes needed, fails with ERROR_INSUFFICIENT_BUFFER and returns FALSE;
// a call with enough room fills the buffer, sets *ReturnedLength to the bytes written and
// returns TRUE. Programs sum the bits of the RelationProcessorCore masks to count logical
// processors, or count those entries to count cores.
inline BOOL WINAPI GetLogicalProcessorInformation(PSYSTEM_LOGICAL_PROCESSOR_INFORMATION buffer,
                                                  PDWORD returned_length) {
  if (returned_length == nullptr) {
    SetLastError(ERROR_INVALID_PARAMETER);
    return FALSE;
  }
  const auto entries = hipamp::compat::detail::logical_processor_information();
  const DWORD needed =
      static_cast<DWORD>(entries.size() * sizeof(SYSTEM_LOGICAL_PROCESSOR_INFORMATION));
  if (buffer == nullptr || *returned_length < needed) {
    *returned_length = needed;
    SetLastError(ERROR_INSUFFICIENT_BUFFER);
    return FALSE;
  }
  std::memcpy(buffer, entries.data(), needed);
  *returned_length = needed;
  return TRUE;
}

// ---- modules: GetModuleHandle, LoadLibrary, GetProcAddress
// ----------------------------------------- There are no DLLs to load: "kernel32" (any case, with
// or without ".dll") is a module whose GetProcAddress finds the kernel32 functions this header
// implements; the null name is the program itself (it exports nothing). Any other module is not
// found (null handle, ERROR_MOD_NOT_FOUND); any other function name gives null and
// ERROR_PROC_NOT_FOUND.

namespace hipamp::compat::detail {

inline HMODULE kernel32_module() noexcept {
  static HINSTANCE__ module{0};
  return &module;
}
inline HMODULE program_module() noexcept {
  static HINSTANCE__ module{0};
  return &module;
}
template <class Char>
HMODULE find_module(const Char* name) noexcept {
  if (name == nullptr) return program_module();
  char narrow[16];
  std::size_t n = 0;
  for (; name[n] != 0; ++n) {
    if (n + 1 >= sizeof narrow || static_cast<unsigned long>(name[n]) > 0x7F) {
      n = 0;
      break;
    }
    narrow[n] = static_cast<char>(name[n]);
  }
  narrow[n] = '\0';
  if (n != 0 && (strcasecmp(narrow, "kernel32") == 0 || strcasecmp(narrow, "kernel32.dll") == 0))
    return kernel32_module();
  SetLastError(ERROR_MOD_NOT_FOUND);
  return nullptr;
}

}  // namespace hipamp::compat::detail

inline HMODULE GetModuleHandleA(LPCSTR name) noexcept {
  return hipamp::compat::detail::find_module(name);
}
inline HMODULE GetModuleHandleW(LPCWSTR name) noexcept {
  return hipamp::compat::detail::find_module(name);
}
// <windows.h> makes GetModuleHandle a macro for the A or W function; overloads take both
// TEXT("...") (narrow here) and L"...", and NULL / 0 / nullptr (the program).
inline HMODULE GetModuleHandle(LPCSTR name) noexcept { return GetModuleHandleA(name); }
inline HMODULE GetModuleHandle(LPCWSTR name) noexcept { return GetModuleHandleW(name); }
inline HMODULE GetModuleHandle(std::nullptr_t) noexcept { return GetModuleHandleA(nullptr); }
template <class Zero, typename = std::enable_if_t<std::is_integral<Zero>::value>>
HMODULE GetModuleHandle(Zero null) noexcept {
  if (null != 0) {
    SetLastError(ERROR_INVALID_PARAMETER);
    return nullptr;
  }
  return GetModuleHandleA(nullptr);
}
inline HMODULE LoadLibraryA(LPCSTR name) noexcept {
  return name == nullptr ? (SetLastError(ERROR_INVALID_PARAMETER), nullptr)
                         : GetModuleHandleA(name);
}
inline HMODULE LoadLibraryW(LPCWSTR name) noexcept {
  return name == nullptr ? (SetLastError(ERROR_INVALID_PARAMETER), nullptr)
                         : GetModuleHandleW(name);
}
inline HMODULE LoadLibrary(LPCSTR name) noexcept { return LoadLibraryA(name); }
inline HMODULE LoadLibrary(LPCWSTR name) noexcept { return LoadLibraryW(name); }
inline BOOL FreeLibrary(HMODULE module) noexcept {
  if (module == nullptr) {
    SetLastError(ERROR_INVALID_PARAMETER);
    return FALSE;
  }
  return TRUE;
}

namespace hipamp::compat::detail {
// Through void (*)(), the type g++'s -Wcast-function-type lets any function pointer become.
template <class F>
FARPROC as_farproc(F* f) noexcept {
  return reinterpret_cast<FARPROC>(reinterpret_cast<void (*)()>(f));
}
}  // namespace hipamp::compat::detail

inline FARPROC GetProcAddress(HMODULE module, LPCSTR name) noexcept {
  // An ordinal (MAKEINTRESOURCE: a "pointer" below 0x10000) names no function here.
  if (module != hipamp::compat::detail::kernel32_module() || name == nullptr ||
      reinterpret_cast<std::uintptr_t>(name) < 0x10000) {
    SetLastError(module == nullptr ? ERROR_MOD_NOT_FOUND : ERROR_PROC_NOT_FOUND);
    return nullptr;
  }
  struct export_entry {
    const char* name;
    FARPROC address;
  };
  using hipamp::compat::detail::as_farproc;
  using HMODULE_A = HMODULE (*)(LPCSTR);
  using HMODULE_W = HMODULE (*)(LPCWSTR);
  static const export_entry exports[] = {
      {"GetLogicalProcessorInformation", as_farproc(&GetLogicalProcessorInformation)},
      {"QueryPerformanceCounter", as_farproc(&QueryPerformanceCounter)},
      {"QueryPerformanceFrequency", as_farproc(&QueryPerformanceFrequency)},
      {"GetTickCount", as_farproc(&GetTickCount)},
      {"GetTickCount64", as_farproc(&GetTickCount64)},
      {"Sleep", as_farproc(&Sleep)},
      {"GetCurrentThreadId", as_farproc(&GetCurrentThreadId)},
      {"GetLastError", as_farproc(&GetLastError)},
      {"SetLastError", as_farproc(&SetLastError)},
      {"MultiByteToWideChar", as_farproc(&MultiByteToWideChar)},
      {"WideCharToMultiByte", as_farproc(&WideCharToMultiByte)},
      {"GetModuleHandleA", as_farproc(static_cast<HMODULE_A>(&GetModuleHandleA))},
      {"GetModuleHandleW", as_farproc(static_cast<HMODULE_W>(&GetModuleHandleW))},
      {"LoadLibraryA", as_farproc(static_cast<HMODULE_A>(&LoadLibraryA))},
      {"LoadLibraryW", as_farproc(static_cast<HMODULE_W>(&LoadLibraryW))},
      {"FreeLibrary", as_farproc(&FreeLibrary)},
  };
  for (const auto& e : exports)
    if (std::strcmp(e.name, name) == 0) return e.address;  // case-sensitive, as Windows
  SetLastError(ERROR_PROC_NOT_FOUND);
  return nullptr;
}
