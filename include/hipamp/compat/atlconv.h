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

#include <cstring>
#include <cwchar>
#include <string>
#include <type_traits>
#include <vector>

#include <hipamp/compat/windows.h>

namespace hipamp::compat::detail {

// What every converting class is: it owns the text converted from `text` (null gives null) and
// converts implicitly to the pointer, m_psz, as ATL's do; it cannot be copied.
template <class To, class From>
class converted_text {
 public:
  converted_text(const From* text, UINT /*code_page*/ = CP_THREAD_ACP) {
    if (text == nullptr) return;
    std::vector<To> out;
    if constexpr (std::is_same<To, char>::value && std::is_same<From, wchar_t>::value) {
      wide_to_utf8(text, std::wcslen(text), out);
    } else if constexpr (std::is_same<To, wchar_t>::value && std::is_same<From, char>::value) {
      utf8_to_wide(text, std::strlen(text), out);
    } else {
      out.assign(text, text + std::char_traits<From>::length(text));
    }
    storage_.assign(out.begin(), out.end());
    m_psz = storage_.data();
  }
  converted_text(const converted_text&) = delete;
  converted_text& operator=(const converted_text&) = delete;
  operator To*() const noexcept { return m_psz; }

 private:
  std::basic_string<To> storage_;

 public:
  To* m_psz = nullptr;
};

// ATL's CA2CA / CW2CW (what CT2CA is in a multi-byte build): no conversion, the const pointer
// as given.
template <class Char>
class same_text {
 public:
  same_text(const Char* text, UINT /*code_page*/ = CP_THREAD_ACP) noexcept : m_psz(text) {}
  same_text(const same_text&) = delete;
  same_text& operator=(const same_text&) = delete;
  operator const Char*() const noexcept { return m_psz; }
  const Char* m_psz;
};

}  // namespace hipamp::compat::detail

// The EX templates. t_nBufferLength is ATL's inline buffer size; here the text lives in a
// std::basic_string whatever its length, and the parameter only keeps the spelling
// CW2AEX<256> valid.
template <int t_nBufferLength = 128>
using CW2AEX = hipamp::compat::detail::converted_text<char, wchar_t>;
template <int t_nBufferLength = 128>
using CA2WEX = hipamp::compat::detail::converted_text<wchar_t, char>;
// Narrow to narrow and wide to wide between two code pages (both UTF-8 here: a copy).
template <int t_nBufferLength = 128>
using CA2AEX = hipamp::compat::detail::converted_text<char, char>;
template <int t_nBufferLength = 128>
using CW2WEX = hipamp::compat::detail::converted_text<wchar_t, wchar_t>;
template <int t_nBufferLength = 128>
using CA2CAEX = hipamp::compat::detail::same_text<char>;
template <int t_nBufferLength = 128>
using CW2CWEX = hipamp::compat::detail::same_text<wchar_t>;

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
