// The Windows compatibility headers the porting tool points includes at: <windows.h>,
// <tchar.h>, <ppl.h>, <d3d11.h>, <concurrent_queue.h>, <concurrent_unordered_map.h>,
// <atlbase.h>/<atlconv.h>, written the
// way the C++ AMP samples use
// them, checked against the standard library on random data.
#include <hipamp/compat/amp.h>
#include <hipamp/compat/atlbase.h>
#include <hipamp/compat/atlconv.h>
#include <hipamp/compat/checked_array_iterator.h>
#include <hipamp/compat/concurrent_queue.h>
#include <hipamp/compat/concurrent_unordered_map.h>
#include <hipamp/compat/d3d11.h>
#include <hipamp/compat/ppl.h>
#include <hipamp/compat/tchar.h>
#include <hipamp/compat/windows.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <list>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <hipamp/amp.h>
#include <hipamp/amp_graphics.h>
#include <hipamp/amp_math.h>
#include <hipamp/amp_short_vectors.h>

#include "support.hpp"

static_assert(sizeof(DWORD) == 4 && sizeof(LONG) == 4 && sizeof(ULONG) == 4, "Windows widths");
static_assert(sizeof(LONGLONG) == 8 && sizeof(LARGE_INTEGER) == 8, "LARGE_INTEGER is 64 bits");
static_assert(sizeof(BYTE) == 1 && sizeof(WORD) == 2 && sizeof(UINT) == 4, "Windows widths");
static_assert(std::is_same<_TCHAR, char>::value, "narrow tchar mapping");

namespace {

// The book's Timer.h, verbatim in its idiom.
inline double ElapsedTime(const LARGE_INTEGER& start, const LARGE_INTEGER& end) {
  LARGE_INTEGER freq;
  QueryPerformanceFrequency(&freq);
  return (double(end.QuadPart) - double(start.QuadPart)) * 1000.0 / double(freq.QuadPart);
}

// Unqualified min/max next to `using namespace std;`, as programs that include <windows.h>
// and <algorithm> write them.
template <class A, class B>
auto min_with_std(A a, B b) {
  using namespace std;
  return min(a, b);
}
template <class A, class B>
auto max_with_std(A a, B b) {
  using namespace std;
  return max(a, b);
}

}  // namespace

TEST_CASE("windows.h timing functions measure elapsed time", "[compat][windows_h]") {
  LARGE_INTEGER start, end, freq;
  CHECK(QueryPerformanceFrequency(&freq) == TRUE);
  CHECK(freq.QuadPart > 0);
  const DWORD ticks = GetTickCount();
  CHECK(QueryPerformanceCounter(&start));
  Sleep(30);
  CHECK(QueryPerformanceCounter(&end));
  const double ms = ElapsedTime(start, end);
  CHECK(ms >= 29.0);
  CHECK(ms < 5000.0);
  CHECK(GetTickCount() - ticks >= 29u);
  CHECK(QueryPerformanceCounter(nullptr) == FALSE);
}

TEST_CASE("windows.h min, max, __min, __max and abs behave as the macros did",
          "[compat][windows_h]") {
  const auto ints = hipamp_test::random_vector<int>(200, -1000, 1000);
  const auto reals = hipamp_test::random_vector<double>(200, -10.0, 10.0);
  for (std::size_t i = 0; i + 1 < ints.size(); ++i) {
    const int a = ints[i], b = ints[i + 1];
    REQUIRE(min(a, b) == std::min(a, b));
    REQUIRE(max(a, b) == std::max(a, b));
    REQUIRE(min_with_std(a, b) == std::min(a, b));
    REQUIRE(max_with_std(a, b) == std::max(a, b));
    const double x = reals[i];
    // Mixed types: the common type, as ((a) < (b) ? (a) : (b)) gives.
    static_assert(std::is_same<decltype(min(a, x)), double>::value, "");
    REQUIRE(min(a, x) == (a < x ? double(a) : x));
    REQUIRE(max_with_std(x, a) == (x > a ? x : double(a)));
    REQUIRE(__max(a, x) == (a > x ? double(a) : x));
    REQUIRE(__min(a, b) == (a < b ? a : b));
  }
  // BlackScholes's host check: abs of a float must not truncate to int.
  const float a = -2.75f, b = 1.5f;
  CHECK(__max(1, __max(abs(a), abs(b))) == 2.75f);
  // numeric_limits<T>::max() and std::min still parse: min/max are not macros.
  CHECK(std::numeric_limits<int>::max() == INT_MAX);
  CHECK(std::min({3, 1, 2}) == 1);
}

TEST_CASE("windows.h min and max run in kernels", "[compat][windows_h]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 1000;
    const auto xs = hipamp_test::random_vector<int>(n, -500, 500);
    std::vector<int> out(n, 0);
    concurrency::array_view<const int, 1> in(n, xs);
    concurrency::array_view<int, 1> o(n, out);
    const int cache = 64;
    concurrency::parallel_for_each(
        acc.get_default_view(), o.extent, [=] HIPAMP_RESTRICT(concurrency::index<1> i) {
          // BinomialOptions: int c_start = min(CACHE_SIZE - 1, ...)
          o[i] = min(cache - 1, in[i]) + max(in[i], -cache) + __max(in[i], 0) - __min(in[i], 0);
        });
    o.synchronize();
    for (int i = 0; i < n; ++i) {
      const int v = xs[i];
      REQUIRE(out[i] ==
              std::min(cache - 1, v) + std::max(v, -cache) + std::max(v, 0) - std::min(v, 0));
    }
  }
}

TEST_CASE("windows.h secure CRT functions check sizes", "[compat][windows_h]") {
  char buf[16];
  CHECK(sprintf_s(buf, "%d-%s", 42, "ab") == 5);
  CHECK(std::string(buf) == "42-ab");
  CHECK(sprintf_s(buf, sizeof buf, "%05.1f", 3.14159) == 5);
  CHECK(std::string(buf) == "003.1");
  CHECK(sprintf_s(buf, "%s", "a string far longer than sixteen") == -1);
  CHECK(buf[0] == '\0');
  wchar_t wbuf[32];
  CHECK(swprintf_s(wbuf, L"%d:%ls", 7, L"xy") == 4);
  CHECK(std::wstring(wbuf) == L"7:xy");
  CHECK(swprintf_s(wbuf, _countof(wbuf), L"%d", -12) == 3);
  CHECK(_wtoi(wbuf) == -12);
  CHECK(_wtoi(L"12345") == 12345);
  CHECK(_wtof(L"2.5") == 2.5);
  CHECK(_countof(buf) == 16u);
  char small[8];
  CHECK(strcpy_s(small, "1234567") == 0);
  CHECK(strcpy_s(small, "12345678") != 0);
  CHECK(small[0] == '\0');
  CHECK(strcpy_s(small, "abc") == 0);
  CHECK(strcat_s(small, "defg") == 0);
  CHECK(std::string(small) == "abcdefg");
  CHECK(strcat_s(small, "h") != 0);
  CHECK(_stricmp("HeLLo", "hello") == 0);
  CHECK(_stricmp("abc", "abd") < 0);
  ZeroMemory(buf, sizeof buf);
  CHECK(std::all_of(buf, buf + 16, [](char c) { return c == 0; }));

  const std::string path = "hipamp_compat_fopen_s.txt";
  FILE* f = nullptr;
  REQUIRE(fopen_s(&f, path.c_str(), "w") == 0);
  REQUIRE(f != nullptr);
  std::fputs("hipamp", f);
  std::fclose(f);
  FILE* g = nullptr;
  REQUIRE(fopen_s(&g, path.c_str(), "r") == 0);
  char back[8] = {};
  CHECK(std::fgets(back, sizeof back, g) != nullptr);
  std::fclose(g);
  std::remove(path.c_str());
  CHECK(std::string(back) == "hipamp");
  FILE* missing = nullptr;
  CHECK(fopen_s(&missing, "no/such/dir/file.txt", "r") != 0);
  CHECK(missing == nullptr);
}

TEST_CASE("tchar.h maps the _t names to the narrow functions", "[compat][tchar_h]") {
  const _TCHAR* text = _T("12345");
  CHECK(_tcslen(text) == 5u);
  CHECK(_ttoi(text) == 12345);
  CHECK(_tcscmp(text, _T("12345")) == 0);
  CHECK(_tcsicmp(_T("ABC"), _T("abc")) == 0);
  _TCHAR buf[32];
  CHECK(_stprintf(buf, _T("%s/%d"), _T("n"), 3) == 3);
  CHECK(std::string(buf) == "n/3");
}

namespace {

// UTF-8 of code points, written independently of the header's encoder.
std::string atl_test_utf8(const std::u32string& text) {
  std::string out;
  for (char32_t c : text) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

// Random text: ASCII only, or any Unicode scalar value (1-, 2-, 3- and 4-byte UTF-8 alike).
std::u32string atl_test_text(std::mt19937& rng, bool ascii) {
  std::uniform_int_distribution<int> length(0, 120);
  std::uniform_int_distribution<int> width(0, 3);
  std::u32string text(static_cast<std::size_t>(length(rng)), U' ');
  for (auto& c : text) {
    const int w = ascii ? 0 : width(rng);
    const char32_t lo[] = {1, 0x80, 0x800, 0x10000}, hi[] = {0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
    do {
      c = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(lo[w], hi[w])(rng));
    } while (c >= 0xD800 && c <= 0xDFFF);
  }
  return text;
}

std::wstring atl_test_wide(const std::u32string& text) {
  static_assert(sizeof(wchar_t) == 4, "Linux's wchar_t is UTF-32");
  return std::wstring(text.begin(), text.end());
}

}  // namespace

TEST_CASE("atlconv.h CW2A and CA2W round-trip random text as UTF-8", "[compat][atl_h]") {
  std::mt19937 rng(20261128);
  for (int round = 0; round < 400; ++round) {
    const bool ascii = round % 2 == 0;
    const std::u32string text = atl_test_text(rng, ascii);
    const std::wstring wide = atl_test_wide(text);
    const std::string expected = atl_test_utf8(text);
    // As aes128bcppamp writes it: a std::string from the conversion of a c_str().
    const std::string narrow(CW2A(wide.c_str()));
    REQUIRE(narrow == expected);
    if (ascii) REQUIRE(narrow == std::string(wide.begin(), wide.end()));
    const std::wstring back(CA2W(narrow.c_str()));
    REQUIRE(back == wide);
    // The code page argument is accepted; every code page converts as UTF-8.
    REQUIRE(std::string(CW2A(wide.c_str(), CP_ACP)) == expected);
    REQUIRE(std::string(CW2A(wide.c_str(), CP_UTF8)) == expected);
    REQUIRE(std::wstring(CA2W(narrow.c_str(), CP_UTF8)) == wide);
    // The Windows functions underneath agree, including their size query.
    const int bytes =
        WideCharToMultiByte(CP_UTF8, 0, wide.c_str(), -1, nullptr, 0, nullptr, nullptr);
    REQUIRE(bytes == static_cast<int>(expected.size()) + 1);
    std::vector<char> buffer(static_cast<std::size_t>(bytes));
    REQUIRE(WideCharToMultiByte(CP_ACP, 0, wide.c_str(), -1, buffer.data(), bytes, nullptr,
                                nullptr) == bytes);
    REQUIRE(std::string(buffer.data()) == expected);
    const int chars = MultiByteToWideChar(CP_UTF8, 0, expected.c_str(), -1, nullptr, 0);
    REQUIRE(chars == static_cast<int>(wide.size()) + 1);
  }
}

TEST_CASE("atlconv.h conversions behave as ATL's objects", "[compat][atl_h]") {
  CHECK(std::string(CW2A(L"caf\u00e9 \u20ac \U0001F600")) ==
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(std::wstring(CA2W("caf\xc3\xa9")) == L"caf\u00e9");
  // A null string gives a null pointer; an empty one an empty string.
  CHECK(static_cast<LPSTR>(CW2A(nullptr)) == nullptr);
  CHECK(CA2W(nullptr).m_psz == nullptr);
  CHECK(std::string(CW2A(L"")).empty());
  // Implicit conversions: to a C string for printf-style code and streams.
  CW2A held(L"accelerator \u00e9");
  const char* p = held;
  CHECK(std::strcmp(p, "accelerator \xc3\xa9") == 0);
  CHECK(p == held.m_psz);
  std::ostringstream os;
  os << CW2A(L"wide") << ' ' << CT2A("tchar");
  CHECK(os.str() == "wide tchar");
  char printed[64];
  std::snprintf(printed, sizeof printed, "%s", static_cast<LPCSTR>(CW2A(L"x\u00e9")));
  CHECK(std::string(printed) == "x\xc3\xa9");
  // The converted text belongs to the object: writable, and independent of the source.
  std::wstring source = L"abc";
  CW2A copy(source.c_str());
  source[0] = L'z';
  copy.m_psz[1] = 'B';
  CHECK(std::string(copy) == "aBc");
  // TCHAR is char: T is A; CA2CA/CT2CA keep the pointer they were given.
  const char* given = "same";
  CHECK(CT2CA(given).m_psz == given);
  CHECK(CA2CA(given, CP_ACP).m_psz == given);
  CHECK(std::string(CT2A(given)) == "same");
  CHECK(std::string(CA2T(given)) == "same");
  CHECK(std::string(CW2T(L"same")) == "same");
  CHECK(std::wstring(CT2W(given)) == L"same");
  CHECK(std::wstring(CW2W(L"same")) == L"same");
  CHECK(std::string(CW2AEX<16>(L"a longer text than sixteen characters")) ==
        "a longer text than sixteen characters");
  static_assert(!std::is_copy_constructible<CW2A>::value, "ATL's conversions are not copyable");
  // Invalid input becomes U+FFFD, as Windows' UTF-8 conversion gives it.
  const wchar_t lone_surrogate[] = {L'a', static_cast<wchar_t>(0xD800), L'b', 0};
  CHECK(std::string(CW2A(lone_surrogate)) ==
        "a\xef\xbf\xbd"
        "b");
  CHECK(std::wstring(CA2W("a\xff"
                          "b\xc0\xaf")) == L"a\ufffdb\ufffd\ufffd");
  // Windows' functions: too small a buffer fails with ERROR_INSUFFICIENT_BUFFER.
  char two[2];
  SetLastError(0);
  CHECK(WideCharToMultiByte(CP_UTF8, 0, L"abc", -1, two, 2, nullptr, nullptr) == 0);
  CHECK(GetLastError() == ERROR_INSUFFICIENT_BUFFER);
  CHECK(WideCharToMultiByte(CP_UTF8, 0, L"abc", 2, two, 2, nullptr, nullptr) == 2);
  CHECK(std::string(two, 2) == "ab");
  CHECK(MultiByteToWideChar(CP_UTF8, 0, nullptr, -1, nullptr, 0) == 0);
  CHECK(GetLastError() == ERROR_INVALID_PARAMETER);
}

namespace {

typedef BOOL(WINAPI* glpi_test_fn)(PSYSTEM_LOGICAL_PROCESSOR_INFORMATION, PDWORD);

// MSDN's example as aes128bcppamp's Helpers/WindowsHelpers.h has it: the logical processors,
// as the set bits of the core entries' masks.
unsigned glpi_test_program_count() {
  glpi_test_fn glpi = (glpi_test_fn)GetProcAddress(GetModuleHandle(TEXT("kernel32")),
                                                   "GetLogicalProcessorInformation");
  PSYSTEM_LOGICAL_PROCESSOR_INFORMATION buffer = NULL;
  DWORD returnLength = 0;
  glpi(buffer, &returnLength);
  buffer = (PSYSTEM_LOGICAL_PROCESSOR_INFORMATION) new char[returnLength];
  glpi(buffer, &returnLength);
  unsigned count = 0;
  for (unsigned i = 0; i < returnLength / sizeof(SYSTEM_LOGICAL_PROCESSOR_INFORMATION); i++)
    if (buffer[i].Relationship == RelationProcessorCore)
      for (ULONG_PTR m = buffer[i].ProcessorMask; m != 0; m &= m - 1) ++count;
  delete[] reinterpret_cast<char*>(buffer);
  return count;
}

std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION> glpi_test_entries() {
  DWORD length = 0;
  REQUIRE(GetLogicalProcessorInformation(nullptr, &length) == FALSE);
  std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION> entries(length / sizeof(entries[0]));
  REQUIRE(GetLogicalProcessorInformation(entries.data(), &length) == TRUE);
  return entries;
}

// The first line of a file, or "" where it cannot be read.
std::string glpi_test_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "0-3,8" -> {0, 1, 2, 3, 8}, parsed here with iostreams, not with the header's parser.
std::vector<int> glpi_test_cpu_list(const std::string& list) {
  std::vector<int> cpus;
  std::istringstream in(list);
  std::string range;
  while (std::getline(in, range, ',')) {
    const auto dash = range.find('-');
    const int first = std::stoi(range.substr(0, dash));
    const int last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
    for (int c = first; c <= last; ++c) cpus.push_back(c);
  }
  return cpus;
}

int glpi_test_bits(ULONG_PTR m) {
  int n = 0;
  for (; m != 0; m &= m - 1) ++n;
  return n;
}

}  // namespace

TEST_CASE("windows.h GetModuleHandle and GetProcAddress find kernel32's functions",
          "[compat][windows_h]") {
  const HMODULE kernel32 = GetModuleHandle(TEXT("kernel32"));
  REQUIRE(kernel32 != nullptr);
  CHECK(GetModuleHandle(L"KERNEL32.DLL") == kernel32);
  CHECK(GetModuleHandleA("Kernel32.dll") == kernel32);
  CHECK(GetModuleHandleW(L"kernel32") == kernel32);
  CHECK(LoadLibrary(TEXT("kernel32.dll")) == kernel32);
  CHECK(FreeLibrary(kernel32) == TRUE);
  // The program itself: a module, not kernel32.
  CHECK(GetModuleHandle(NULL) != nullptr);
  CHECK(GetModuleHandle(nullptr) == GetModuleHandle(NULL));
  CHECK(GetModuleHandle(NULL) != kernel32);
  for (const char* unknown : {"user32", "user32.dll", "kernel", "kernel32x", "", "d3d11.dll"}) {
    SetLastError(0);
    CHECK(GetModuleHandleA(unknown) == nullptr);
    CHECK(GetLastError() == ERROR_MOD_NOT_FOUND);
  }
  CHECK(GetModuleHandle(L"k\u00e9rnel32") == nullptr);

  const FARPROC glpi = GetProcAddress(kernel32, "GetLogicalProcessorInformation");
  REQUIRE(glpi != nullptr);
  CHECK(reinterpret_cast<glpi_test_fn>(glpi) == &GetLogicalProcessorInformation);
  const auto tick = reinterpret_cast<DWORD(WINAPI*)()>(GetProcAddress(kernel32, "GetTickCount"));
  REQUIRE(tick != nullptr);
  CHECK(tick() - GetTickCount() + 5u <= 10u);
  const auto last_error =
      reinterpret_cast<DWORD(WINAPI*)()>(GetProcAddress(kernel32, "GetLastError"));
  REQUIRE(last_error != nullptr);
  SetLastError(1234);
  CHECK(last_error() == 1234u);
  // Names hipamp does not implement, other case (Windows' lookup is case-sensitive), other
  // modules, ordinals: null, with Windows' error codes.
  for (const char* unknown : {"GetLogicalProcessorInformationEx", "getlogicalprocessorinformation",
                              "CreateFileW", "GetProcAddress2", ""}) {
    SetLastError(0);
    CHECK(GetProcAddress(kernel32, unknown) == nullptr);
    CHECK(GetLastError() == ERROR_PROC_NOT_FOUND);
  }
  CHECK(GetProcAddress(GetModuleHandle(NULL), "GetTickCount") == nullptr);
  SetLastError(0);
  CHECK(GetProcAddress(nullptr, "GetTickCount") == nullptr);
  CHECK(GetLastError() == ERROR_MOD_NOT_FOUND);
  CHECK(GetProcAddress(kernel32, reinterpret_cast<LPCSTR>(std::uintptr_t(7))) == nullptr);
}

TEST_CASE("windows.h GetLogicalProcessorInformation: MSDN's buffer protocol",
          "[compat][windows_h]") {
  const std::size_t entry = sizeof(SYSTEM_LOGICAL_PROCESSOR_INFORMATION);
  CHECK(entry == (sizeof(void*) == 8 ? 32u : 24u));  // Windows' layout
  DWORD length = 0;
  SetLastError(0);
  CHECK(GetLogicalProcessorInformation(nullptr, &length) == FALSE);
  CHECK(GetLastError() == ERROR_INSUFFICIENT_BUFFER);
  REQUIRE(length >= 3 * entry);  // a core, a package, a NUMA node at least
  REQUIRE(length % entry == 0);
  const DWORD needed = length;
  std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION> buffer(needed / entry + 2);
  const auto untouched = buffer;
  // One entry short: FALSE, the size needed, nothing written.
  length = needed - static_cast<DWORD>(entry);
  SetLastError(0);
  CHECK(GetLogicalProcessorInformation(buffer.data(), &length) == FALSE);
  CHECK(GetLastError() == ERROR_INSUFFICIENT_BUFFER);
  CHECK(length == needed);
  CHECK(std::memcmp(buffer.data(), untouched.data(), needed) == 0);
  // Exactly enough, and more than enough: TRUE, and the bytes written.
  CHECK(GetLogicalProcessorInformation(buffer.data(), &length) == TRUE);
  CHECK(length == needed);
  length = static_cast<DWORD>(buffer.size() * entry);
  CHECK(GetLogicalProcessorInformation(buffer.data(), &length) == TRUE);
  CHECK(length == needed);
  SetLastError(0);
  CHECK(GetLogicalProcessorInformation(buffer.data(), nullptr) == FALSE);
  CHECK(GetLastError() == ERROR_INVALID_PARAMETER);
}

TEST_CASE("windows.h GetLogicalProcessorInformation counts Linux's cores and processors",
          "[compat][windows_h]") {
  const auto entries = glpi_test_entries();
  const unsigned mask_bits = 8 * sizeof(ULONG_PTR);
  // The logical processors Linux has online (the first mask's worth: one Windows group).
  std::vector<int> online = glpi_test_cpu_list(glpi_test_line("/sys/devices/system/cpu/online"));
  const unsigned hardware = std::thread::hardware_concurrency();
  if (online.empty())  // no /sys: the header falls back to hardware_concurrency
    for (unsigned c = 0; c < std::max(hardware, 1u); ++c) online.push_back(static_cast<int>(c));
  if (online.size() > mask_bits) online.resize(mask_bits);
  const ULONG_PTR all =
      online.size() == mask_bits ? ~ULONG_PTR(0) : (ULONG_PTR(1) << online.size()) - 1;

  ULONG_PTR cores = 0, packages = 0, nodes = 0;
  int core_entries = 0;
  for (const auto& e : entries) {
    CHECK(e.ProcessorMask != 0);
    CHECK((e.ProcessorMask & ~all) == 0);
    switch (e.Relationship) {
      case RelationProcessorCore:
        CHECK((cores & e.ProcessorMask) == 0);  // each processor in one core
        cores |= e.ProcessorMask;
        ++core_entries;
        CHECK(e.ProcessorCore.Flags == (glpi_test_bits(e.ProcessorMask) > 1 ? LTP_PC_SMT : 0));
        break;
      case RelationProcessorPackage:
        CHECK((packages & e.ProcessorMask) == 0);
        packages |= e.ProcessorMask;
        break;
      case RelationNumaNode:
        CHECK((nodes & e.ProcessorMask) == 0);
        nodes |= e.ProcessorMask;
        break;
      case RelationCache:
        CHECK(e.Cache.Level >= 1);
        CHECK(e.Cache.Level <= 4);
        CHECK(e.Cache.Size > 0u);
        break;
      default:
        FAIL("unexpected relationship " << e.Relationship);
    }
  }
  CHECK(cores == all);
  CHECK(packages == all);
  CHECK(nodes == all);
  // aes128bcppamp's count: every logical processor once, as hardware_concurrency says.
  CHECK(glpi_test_program_count() == online.size());
  if (hardware <= mask_bits) CHECK(glpi_test_program_count() == hardware);
  // Cores: as many entries as distinct sets of hardware threads Linux lists.
  std::set<std::string> siblings;
  for (int cpu : online) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    std::string list = glpi_test_line(dir + "core_cpus_list");
    if (list.empty()) list = glpi_test_line(dir + "thread_siblings_list");
    siblings.insert(list.empty() ? "cpu" + std::to_string(cpu) : list);
  }
  CHECK(core_entries == static_cast<int>(siblings.size()));
}

TEST_CASE("ppl.h parallel_for, parallel_for_each and combinable", "[compat][ppl_h]") {
  const int n = 100000;
  const auto xs = hipamp_test::random_vector<int>(n, -1000, 1000);
  concurrency::combinable<long long> sum;
  concurrency::parallel_for(0, n, [&](int i) { sum.local() += xs[i]; });
  const long long want = std::accumulate(xs.begin(), xs.end(), 0LL);
  CHECK(sum.combine(std::plus<long long>()) == want);
  long long each = 0;
  sum.combine_each([&](long long v) { each += v; });
  CHECK(each == want);

  // With a step: only every third index.
  std::vector<int> hit(n, 0);
  concurrency::parallel_for(1, n, 3, [&](int i) { hit[i] += 1; });
  for (int i = 0; i < n; ++i) REQUIRE(hit[i] == (i >= 1 && (i - 1) % 3 == 0 ? 1 : 0));
  CHECK_THROWS_AS(concurrency::parallel_for(0, 10, 0, [](int) {}), std::invalid_argument);
  concurrency::parallel_for(
      0, n, [&](int i) { hit[i] = 2 * i; }, concurrency::static_partitioner());
  CHECK(hit[n - 1] == 2 * (n - 1));

  // Over random-access and over forward iterators.
  std::vector<int> v(xs);
  concurrency::parallel_for_each(v.begin(), v.end(), [](int& x) { x = x * x; });
  for (int i = 0; i < n; ++i) REQUIRE(v[i] == xs[i] * xs[i]);
  std::list<int> l(xs.begin(), xs.begin() + 1000);
  concurrency::parallel_for_each(l.begin(), l.end(), [](int& x) { x = -x; });
  CHECK(std::equal(l.begin(), l.end(), xs.begin(), [](int a, int b) { return a == -b; }));

  // An exception from a body reaches the caller.
  CHECK_THROWS_AS(concurrency::parallel_for(0, n,
                                            [](int i) {
                                              if (i == 777) throw std::runtime_error("body");
                                            }),
                  std::runtime_error);

  // C++ AMP's parallel_for_each over an extent is still concurrency::parallel_for_each.
  std::vector<int> out(64, 0);
  concurrency::array_view<int, 1> ov(64, out);
  concurrency::parallel_for_each(
      ov.extent, [=] HIPAMP_RESTRICT(concurrency::index<1> i) { ov[i] = 3 * i[0]; });
  ov.synchronize();
  CHECK(out[63] == 189);
  {  // Unqualified, under the using-directive C++ AMP programs have: both meanings resolve.
    using namespace concurrency;
    parallel_for_each(ov.extent, [=] HIPAMP_RESTRICT(concurrency::index<1> i) { ov[i] += 1; });
    std::vector<int> host(10, 1);
    parallel_for_each(host.begin(), host.end(), [](int& x) { x += 1; });
    ov.synchronize();
    CHECK(out[63] == 190);
    CHECK(std::accumulate(host.begin(), host.end(), 0) == 20);
    array<int, 1> unsorted(5, xs.begin());
    std::vector<int> sorted = *parallel_sort(unsorted);  // hipamp's array sort, same name
    std::vector<int> want_sorted(xs.begin(), xs.begin() + 5);
    std::sort(want_sorted.begin(), want_sorted.end());
    CHECK(sorted == want_sorted);
  }
}

TEST_CASE("ppl.h parallel_reduce, parallel_transform, parallel_invoke and sorts",
          "[compat][ppl_h]") {
  const int n = 50000;
  const auto xs = hipamp_test::random_vector<int>(n, -1000, 1000);
  // The book's ParallelReduction: parallel_reduce(cbegin, cend, 0, std::plus<int>()).
  CHECK(concurrency::parallel_reduce(xs.cbegin(), xs.cend(), 0, std::plus<int>()) ==
        std::accumulate(xs.begin(), xs.end(), 0));
  const std::list<int> l(xs.begin(), xs.begin() + 999);
  CHECK(concurrency::parallel_reduce(l.begin(), l.end(), 0) ==
        std::accumulate(l.begin(), l.end(), 0));
  CHECK(concurrency::parallel_reduce(xs.begin(), xs.begin(), 17, std::plus<int>()) == 17);
  const auto maximum = [](int a, int b) { return std::max(a, b); };
  CHECK(concurrency::parallel_reduce(xs.begin(), xs.end(), INT_MIN, maximum) ==
        *std::max_element(xs.begin(), xs.end()));

  std::vector<int> doubled(n), want(n);
  concurrency::parallel_transform(xs.begin(), xs.end(), doubled.begin(),
                                  [](int x) { return 2 * x; });
  std::transform(xs.begin(), xs.end(), want.begin(), [](int x) { return 2 * x; });
  CHECK(doubled == want);
  concurrency::parallel_transform(xs.begin(), xs.end(), doubled.begin(), doubled.begin(),
                                  std::minus<int>());
  for (int i = 0; i < n; ++i) REQUIRE(doubled[i] == -xs[i]);

  int a = 0, b = 0, c = 0;
  concurrency::parallel_invoke([&] { a = 1; }, [&] { b = 2; }, [&] { c = 3; });
  CHECK(a + b + c == 6);

  std::vector<int> s(xs), ref(xs);
  concurrency::parallel_sort(s.begin(), s.end());
  std::sort(ref.begin(), ref.end());
  CHECK(s == ref);
  concurrency::parallel_buffered_sort(s.begin(), s.end(), std::greater<int>());
  std::sort(ref.begin(), ref.end(), std::greater<int>());
  CHECK(s == ref);
  // Radix sort by a key is stable: equal keys keep their order.
  std::vector<std::pair<unsigned, int>> pairs(n);
  for (int i = 0; i < n; ++i) pairs[i] = {static_cast<unsigned>(xs[i] & 15), i};
  concurrency::parallel_radixsort(pairs.begin(), pairs.end(),
                                  [](const std::pair<unsigned, int>& p) { return p.first; });
  for (int i = 1; i < n; ++i) {
    REQUIRE(pairs[i - 1].first <= pairs[i].first);
    if (pairs[i - 1].first == pairs[i].first) REQUIRE(pairs[i - 1].second < pairs[i].second);
  }
}

TEST_CASE("ppl.h locks and task groups", "[compat][ppl_h]") {
  concurrency::critical_section cs;
  long long counter = 0;
  concurrency::parallel_for(0, 20000, [&](int) {
    concurrency::critical_section::scoped_lock lock(cs);
    ++counter;
  });
  CHECK(counter == 20000);

  concurrency::reader_writer_lock rw;
  std::vector<int> shared_data(1, 0);
  std::atomic<long long> reads{0};
  concurrency::parallel_for(0, 4000, [&](int i) {
    if (i % 4 == 0) {
      concurrency::reader_writer_lock::scoped_lock lock(rw);
      shared_data[0] += 1;
    } else {
      concurrency::reader_writer_lock::scoped_lock_read lock(rw);
      reads += shared_data[0] >= 0 ? 1 : 0;
    }
  });
  CHECK(shared_data[0] == 1000);
  CHECK(reads.load() == 3000);

  concurrency::task_group tg;
  std::vector<int> results(8, 0);
  for (int t = 0; t < 8; ++t) tg.run([&results, t] { results[t] = t * t; });
  CHECK(tg.wait() == concurrency::completed);
  for (int t = 0; t < 8; ++t) CHECK(results[t] == t * t);
  concurrency::structured_task_group stg;
  int left = 0, right = 0;
  stg.run([&] { left = 5; });
  CHECK(stg.run_and_wait([&] { right = 6; }) == concurrency::completed);
  CHECK(left + right == 11);
  concurrency::task_group failing;
  failing.run([] { throw std::logic_error("task"); });
  CHECK_THROWS_AS(failing.wait(), std::logic_error);
}

TEST_CASE("concurrent_queue.h: FIFO, and work stealing by several threads",
          "[compat][concurrent_queue_h]") {
  std::mt19937 gen(2026);
  const int n = 2000 + int(gen() % 2000);
  std::vector<int> values(n);
  for (int& v : values) v = int(gen() % 200001) - 100000;

  // One thread: first in, first out, as std::deque (the reference) gives them.
  concurrency::concurrent_queue<int> q;
  CHECK(q.empty());
  int untouched = 12345;
  CHECK_FALSE(q.try_pop(untouched));
  CHECK(untouched == 12345);
  for (int v : values) q.push(v);
  CHECK(q.unsafe_size() == std::size_t(n));
  std::vector<int> popped;
  for (int v; q.try_pop(v);) popped.push_back(v);
  CHECK(popped == values);
  CHECK(q.empty());

  // Chapter 9's pattern: tasks queued, then one worker a device pops until empty; every task
  // is taken exactly once (the multiset of what the workers took equals what was pushed).
  for (int v : values) q.push(v);
  const unsigned workers = 4;
  std::vector<std::vector<int>> taken(workers);
  concurrency::parallel_for(0u, workers, [&](unsigned w) {
    for (int v; q.try_pop(v);) taken[w].push_back(v);
  });
  std::vector<int> all;
  for (auto& t : taken) all.insert(all.end(), t.begin(), t.end());
  std::vector<int> expected = values;
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  CHECK(all == expected);
  CHECK(q.empty());
  CHECK(q.unsafe_size() == 0);
}

TEST_CASE("concurrent_unordered_map.h: a map, and inserts and finds from several threads",
          "[compat][concurrent_unordered_map_h]") {
  std::mt19937 gen(4411);
  const int n = 1500 + int(gen() % 1500);
  std::vector<std::pair<int, long>> items(n);
  for (auto& kv : items) kv = {int(gen() % 4001) - 2000, long(gen() % 1000003)};

  // One thread: the first value inserted under a key stays (as std::unordered_map::insert).
  concurrency::concurrent_unordered_map<int, long> m;
  std::unordered_map<int, long> want;
  CHECK(m.empty());
  for (const auto& kv : items) {
    const auto got = m.insert(kv);
    const auto ref = want.insert(kv);
    CHECK(got.second == ref.second);
    CHECK(got.first->first == kv.first);
    CHECK(got.first->second == ref.first->second);
  }
  CHECK(m.size() == want.size());
  std::unordered_map<int, long> seen;
  for (const auto& kv : m) seen.insert(kv);  // iteration visits each element once
  CHECK(seen == want);
  for (int k = -2100; k <= 2100; k += 7) {
    CHECK(m.count(k) == want.count(k));
    const auto f = m.find(k);
    CHECK((f == m.end()) == (want.count(k) == 0));
    if (want.count(k)) {
      CHECK(f->second == want.at(k));
      CHECK(m.at(k) == want.at(k));
    } else {
      CHECK_THROWS_AS(m.at(k), std::out_of_range);
    }
  }
  m[5000] += 3;  // operator[] inserts a value-initialized element
  CHECK(m.at(5000) == 3);
  const int gone = items[gen() % n].first;
  CHECK(m.unsafe_erase(gone) == 1);
  CHECK(m.unsafe_erase(gone) == 0);
  CHECK(m.find(gone) == m.end());
  CHECK(m.size() == want.size());  // one erased, one (5000) added

  // ampblas's use: each thread looks up its own context and inserts it when missing, while
  // the others do the same; an element found or inserted stays where it is (its address does
  // not move) while other threads insert.
  concurrency::concurrent_unordered_map<DWORD, std::unique_ptr<int>> contexts;
  const int threads = 8, rounds = 200;
  std::vector<std::vector<const int*>> addresses(threads);
  std::vector<DWORD> ids(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ids[t] = GetCurrentThreadId();
      for (int r = 0; r < rounds; ++r) {
        auto it = contexts.find(ids[t]);
        if (it == contexts.end())
          it = contexts.insert(std::make_pair(ids[t], std::unique_ptr<int>(new int(t)))).first;
        addresses[t].push_back(it->second.get());
        // other keys too, so that inserts of other threads run beside these finds
        contexts.insert(std::make_pair(DWORD(100000 + t * rounds + r), std::unique_ptr<int>()));
      }
    });
  }
  for (auto& th : pool) th.join();
  CHECK(std::set<DWORD>(ids.begin(), ids.end()).size() == std::size_t(threads));
  CHECK(std::find(ids.begin(), ids.end(), DWORD(0)) == ids.end());
  CHECK(contexts.size() == std::size_t(threads + threads * rounds));
  for (int t = 0; t < threads; ++t) {
    CHECK(*addresses[t].front() == t);  // each thread's own context, never another's
    CHECK(std::count(addresses[t].begin(), addresses[t].end(), addresses[t].front()) == rounds);
    CHECK(contexts.find(ids[t])->second.get() == addresses[t].front());
  }
  CHECK(GetCurrentThreadId() == GetCurrentThreadId());
}

static_assert(
    std::is_same<std::iterator_traits<stdext::checked_array_iterator<float*>>::iterator_category,
                 std::random_access_iterator_tag>::value,
    "checked_array_iterator is a random-access iterator");
static_assert(
    std::is_same<std::iterator_traits<stdext::checked_array_iterator<const int*>>::reference,
                 const int&>::value,
    "over a const pointer it reads only");

TEST_CASE("checked_array_iterator: std::copy within bounds, out_of_range past them",
          "[compat][checked_array_iterator]") {
  std::mt19937 gen(917);
  const std::size_t n = 500 + gen() % 1500;
  std::vector<float> src(n);
  for (float& v : src) v = float(int(gen() % 20001) - 10000) / 8.0f;
  const std::size_t first = gen() % (n / 2), count = 1 + gen() % (n / 2);

  // A checked destination: the same elements std::copy over raw pointers writes.
  std::vector<float> dst(n, -1.0f), want(n, -1.0f);
  std::copy(src.begin() + first, src.begin() + first + count, want.begin() + 3);
  auto end = std::copy(stdext::make_checked_array_iterator(src.data() + first, count),
                       stdext::make_checked_array_iterator(src.data() + first, count, count),
                       stdext::checked_array_iterator<float*>(dst.data(), n, 3));
  CHECK(dst == want);
  CHECK(end.base() == dst.data() + 3 + count);
  CHECK(end - stdext::checked_array_iterator<float*>(dst.data(), n) == std::ptrdiff_t(3 + count));

  // Both ends over different base pointers, as the book's chapter 9 writes them: the range is
  // the elements between the two positions (what MSVC's release std::copy copies).
  std::fill(dst.begin(), dst.end(), -1.0f);
  std::copy(stdext::checked_array_iterator<float*>(src.data(), n),
            stdext::checked_array_iterator<float*>(src.data() + count, n),
            stdext::checked_array_iterator<float*>(dst.data(), n));
  CHECK(std::equal(src.begin(), src.begin() + count, dst.begin()));
  CHECK(std::all_of(dst.begin() + count, dst.end(), [](float v) { return v == -1.0f; }));

  // Random access: [], +, -, ordering, reading through a const pointer, and std::sort.
  stdext::checked_array_iterator<const float*> c(src.data(), n);
  const std::size_t k = gen() % n;
  CHECK(c[std::ptrdiff_t(k)] == src[k]);
  CHECK(*(c + std::ptrdiff_t(k)) == src[k]);
  CHECK(*(std::ptrdiff_t(k) + c) == src[k]);
  CHECK(c < c + 1);
  CHECK((c + std::ptrdiff_t(n)) - std::ptrdiff_t(n) == c);
  std::vector<float> sorted = src;
  std::sort(stdext::make_checked_array_iterator(sorted.data(), n),
            stdext::make_checked_array_iterator(sorted.data(), n, n));
  std::vector<float> sorted_ref = src;
  std::sort(sorted_ref.begin(), sorted_ref.end());
  CHECK(sorted == sorted_ref);
  CHECK(stdext::make_unchecked_array_iterator(dst.data()) == dst.data());

  // Past the array: a clear exception, and nothing written beyond it.
  std::vector<float> small(count / 2 + 1, 7.0f);
  try {
    std::copy(src.begin(), src.begin() + std::ptrdiff_t(small.size() + 1),
              stdext::make_checked_array_iterator(small.data(), small.size()));
    FAIL("copying past the array did not throw");
  } catch (const std::out_of_range& e) {
    const std::string what = e.what();
    CHECK(what.find("checked_array_iterator") != std::string::npos);
    CHECK(what.find(std::to_string(small.size())) != std::string::npos);
  }
  CHECK(std::equal(small.begin(), small.end(), src.begin()));  // what fitted was copied
  CHECK_THROWS_AS(*stdext::make_checked_array_iterator(src.data(), n, n), std::out_of_range);
  CHECK_THROWS_AS(stdext::make_checked_array_iterator(src.data(), n) - 1, std::out_of_range);
  CHECK_THROWS_AS(stdext::make_checked_array_iterator(src.data(), n) + std::ptrdiff_t(n + 1),
                  std::out_of_range);
  CHECK_THROWS_AS(stdext::checked_array_iterator<float*>(src.data(), n, n + 1), std::out_of_range);
}
