// <tchar.h> for Linux, mapped to the narrow (char) functions as in an MBCS/ANSI Windows build:
// tools/amp2hipamp.py points `#include <tchar.h>` here. Windows' own <tchar.h> is macros too,
// so these are macros: `int _tmain(int argc, _TCHAR* argv[])` becomes an ordinary main.
//
// Why narrow: on Linux argv, the C library and the terminal are char-based (UTF-8); a wide
// mapping would need a wmain that Linux does not call.
#pragma once

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <hipamp/compat/windows.h>  // _stricmp and the other MSVC names the _tcs* map to

using _TCHAR = char;
using TCHAR = char;
using _TSCHAR = signed char;
using _TUCHAR = unsigned char;
using _TXCHAR = char;
using _TINT = int;
using LPTSTR = char*;
using LPCTSTR = const char*;

#define _T(x) x
#define _TEXT(x) x
#ifndef TEXT
#define TEXT(x) x
#endif
#define _tmain main
#define _tWinMain WinMain

// stdio
#define _tprintf std::printf
#define _ftprintf std::fprintf
#define _stprintf std::sprintf
#define _sntprintf std::snprintf
#define _stprintf_s sprintf_s
#define _tprintf_s printf_s
#define _tscanf std::scanf
#define _stscanf std::sscanf
#define _fgetts std::fgets
#define _fputts std::fputs
#define _puttchar std::putchar
#define _gettchar std::getchar
#define _tfopen std::fopen
#define _tfopen_s fopen_s
#define _tperror std::perror
// strings
#define _tcslen std::strlen
#define _tcscpy std::strcpy
#define _tcscpy_s strcpy_s
#define _tcsncpy std::strncpy
#define _tcscat std::strcat
#define _tcscat_s strcat_s
#define _tcscmp std::strcmp
#define _tcsncmp std::strncmp
#define _tcsicmp _stricmp
#define _tcsnicmp _strnicmp
#define _tcschr std::strchr
#define _tcsrchr std::strrchr
#define _tcsstr std::strstr
#define _tcstok std::strtok
#define _tcsdup strdup
// conversions
#define _ttoi std::atoi
#define _ttol std::atol
#define _tstoi std::atoi
#define _tstof std::atof
#define _ttof std::atof
#define _tcstol std::strtol
#define _tcstoul std::strtoul
#define _tcstod std::strtod
#define _totupper std::toupper
#define _totlower std::tolower
#define _istdigit std::isdigit
#define _istspace std::isspace
#define _istalpha std::isalpha
