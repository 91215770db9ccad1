// ATL's string conversion classes (<atlconv.h>) for Linux: tools/amp2hipamp.py points
// `#include <atlconv.h>` here (and <atlbase.h> at atlbase.h, which includes this one).
//
// CW2A, CA2W, CA2A, CW2W (converting copies), CA2CA, CW2CW (no conversion, the pointer as
// given), their EX templates, and the TCHAR spellings of the multi-byte build (CT2A, CA2T,
// CW2T, CT2W, ...; TCHAR is char in hipamp's compat layer, as in <tchar.h>) and the OLE ones
// (OLECHAR is wchar_t). As in ATL, each is an object that owns the converted text for its own
// lifetime, built from a (possibly null) string and an optional code page, and converts
// implicitly to the pointer type (`std::string(CW2A(acc.description.c_str()))`,
// `printf("%s", (LPCSTR)CW2A(w))`); m_psz is the pointer; the object cannot be copied. A null
// string gives a null pointer.
//
// Encoding: every code page converts as UTF-8 (Linux's narrow text, argv, the terminal), so
// CW2A(L"é") is the two bytes C3 A9 where Windows' default ANSI code page would give cp1252's
// E9, and characters the ANSI code page lacks come out whole instead of as '?'. Invalid input
// becomes U+FFFD (see MultiByteToWideChar in <hipamp/compat/windows.h>).
//
// Not provided: the USES_CONVERSION / W2A / A2W macros (their results live on the calling
// function's stack, which a macro cannot give here), CComBSTR and the rest of ATL.
#pragma once

#include <string>
#include <vector>

#include <hipamp/compat/windows.h>

namespace hipamp::compat::detail {

template <class To, class From>
struct atl_conversion {
  atl_conversion(const From* text, UINT /*code_page*/) {
    if (text == nullptr) return;
    std::vector<To> out;
    if constexpr (std::is_same<To, char>::value && std::is_same<From, wchar_t>::value) {
      wide_to_utf8(text, std::wcslen(text), out);
    } else if constexpr (std::is_same<To, wchar_t>::value && std::is_same<From, char>::value) {
      utf8_to_wide(text, std::strlen(text), out);
    } else {
      out.assign(text, text + std::char_traits<From>::length(text));
    }
    storage.assign(out.begin(), out.end());
    pointer = storage.data();
  }
  atl_conversion(const atl_conversion&) = delete;
  atl_conversion& operator=(const atl_conversion&) = delete;

  std::basic_string<To> storage;
  To* pointer = nullptr;
};

}  // namespace hipamp::compat::detail

// t_nBufferLength is ATL's inline buffer size; here the text lives in a std::string whatever
// its length, and the parameter only keeps the spelling CW2AEX<256> valid.
template <int t_nBufferLength = 128>
class CW2AEX {
 public:
  CW2AEX(LPCWSTR psz) : m_conv(psz, CP_THREAD_ACP), m_psz(m_conv.pointer) {}
  CW2AEX(LPCWSTR psz, UINT nCodePage) : m_conv(psz, nCodePage), m_psz(m_conv.pointer) {}
  CW2AEX(const CW2AEX&) = delete;
  CW2AEX& operator=(const CW2AEX&) = delete;
  operator LPSTR() const noexcept { return m_psz; }

 private:
  hipamp::compat::detail::atl_conversion<char, wchar_t> m_conv;

 public:
  LPSTR m_psz;
};

template <int t_nBufferLength = 128>
class CA2WEX {
 public:
  CA2WEX(LPCSTR psz) : m_conv(psz, CP_THREAD_ACP), m_psz(m_conv.pointer) {}
  CA2WEX(LPCSTR psz, UINT nCodePage) : m_conv(psz, nCodePage), m_psz(m_conv.pointer) {}
  CA2WEX(const CA2WEX&) = delete;
  CA2WEX& operator=(const CA2WEX&) = delete;
  operator LPWSTR() const noexcept { return m_psz; }

 private:
  hipamp::compat::detail::atl_conversion<wchar_t, char> m_conv;

 public:
  LPWSTR m_psz;
};

// Narrow to narrow between two code pages (both UTF-8 here: a copy).
template <int t_nBufferLength = 128>
class CA2AEX {
 public:
  CA2AEX(LPCSTR psz) : m_conv(psz, CP_THREAD_ACP), m_psz(m_conv.pointer) {}
  CA2AEX(LPCSTR psz, UINT nCodePage) : m_conv(psz, nCodePage), m_psz(m_conv.pointer) {}
  CA2AEX(const CA2AEX&) = delete;
  CA2AEX& operator=(const CA2AEX&) = delete;
  operator LPSTR() const noexcept { return m_psz; }

 private:
  hipamp::compat::detail::atl_conversion<char, char> m_conv;

 public:
  LPSTR m_psz;
};

template <int t_nBufferLength = 128>
class CW2WEX {
 public:
  CW2WEX(LPCWSTR psz) : m_conv(psz, CP_THREAD_ACP), m_psz(m_conv.pointer) {}
  CW2WEX(LPCWSTR psz, UINT nCodePage) : m_conv(psz, nCodePage), m_psz(m_conv.pointer) {}
  CW2WEX(const CW2WEX&) = delete;
  CW2WEX& operator=(const CW2WEX&) = delete;
  operator LPWSTR() const noexcept { return m_psz; }

 private:
  hipamp::compat::detail::atl_conversion<wchar_t, wchar_t> m_conv;

 public:
  LPWSTR m_psz;
};

// No conversion: the const pointer as given (ATL's CA2CA / CW2CW; what CT2CA is in a multi-byte
// build).
template <int t_nBufferLength = 128>
class CA2CAEX {
 public:
  CA2CAEX(LPCSTR psz) noexcept : m_psz(psz) {}
  CA2CAEX(LPCSTR psz, UINT /*nCodePage*/) noexcept : m_psz(psz) {}
  CA2CAEX(const CA2CAEX&) = delete;
  CA2CAEX& operator=(const CA2CAEX&) = delete;
  operator LPCSTR() const noexcept { return m_psz; }
  LPCSTR m_psz;
};
template <int t_nBufferLength = 128>
class CW2CWEX {
 public:
  CW2CWEX(LPCWSTR psz) noexcept : m_psz(psz) {}
  CW2CWEX(LPCWSTR psz, UINT /*nCodePage*/) noexcept : m_psz(psz) {}
  CW2CWEX(const CW2CWEX&) = delete;
  CW2CWEX& operator=(const CW2CWEX&) = delete;
  operator LPCWSTR() const noexcept { return m_psz; }
  LPCWSTR m_psz;
};

using CW2A = CW2AEX<>;
using CA2W = CA2WEX<>;
using CA2A = CA2AEX<>;
using CW2W = CW2WEX<>;
using CA2CA = CA2CAEX<>;
using CW2CW = CW2CWEX<>;

// TCHAR is char (the multi-byte build): T is A.
template <int N = 128>
using CW2TEX = CW2AEX<N>;
template <int N = 128>
using CA2TEX = CA2AEX<N>;
template <int N = 128>
using CT2AEX = CA2AEX<N>;
template <int N = 128>
using CT2WEX = CA2WEX<N>;
using CW2T = CW2A;
using CW2CT = CW2A;
using CA2T = CA2A;
using CA2CT = CA2CA;
using CT2A = CA2A;
using CT2CA = CA2CA;
using CT2W = CA2W;
using CT2CW = CA2W;
// OLECHAR is wchar_t.
using COLE2T = CW2A;
using COLE2CT = CW2A;
using CT2OLE = CA2W;
using CT2COLE = CA2W;
using COLE2A = CW2A;
using CA2OLE = CA2W;
