#!/usr/bin/env python3
"""amp2hipamp: ports C++ AMP sources to hipamp.

Usage:
  amp2hipamp.py SOURCE [-o OUTPUT]     write the port to OUTPUT (default: stdout)
  amp2hipamp.py -i SOURCE...           port the files in place
  amp2hipamp.py --check SOURCE...      exit 1 if any file would change (nothing is written)

What it rewrites (each change is reported as FILE:LINE: [rule] ...):
  include    #include <amp.h>, <amp_math.h>, <amp_graphics.h>, <amp_short_vectors.h>
             -> one #include <hipamp/amp.h>; a quoted #include whose case or \\ separators
             differ from the file on disk -> the file's own spelling
  windows    <windows.h>/<Windows.h>, <tchar.h>, <ppl.h>, <d3d11.h> (and <D3Dcommon.h>),
             <concurrent_queue.h>, <concurrent_unordered_map.h>, ATL's <atlbase.h> and
             <atlconv.h> (CW2A & co) -> <hipamp/compat/...>;
             concurrency::parallel_for (PPL, which MSVC's <amp.h> brings) without <ppl.h> ->
             the compat <ppl.h> added;
             <SDKDDKVer.h> dropped; MSVC's internal <xutility> -> <algorithm>; a file using QueryPerformanceCounter/LARGE_INTEGER/DWORD/
             GetTickCount without <windows.h> (<amp.h> brought it on MSVC) gets the compat one,
             and so does a file calling the secure CRT (strcpy_s, sprintf_s, fopen_s, ...)
             without it; a file calling memcpy/memset/strlen/strcmp/... without <cstring> or
             <string.h> gets <cstring> (MSVC's C++ headers bring both);
             a file naming stdext::checked_array_iterator (or unchecked_, make_...) gets
             <hipamp/compat/checked_array_iterator.h> (MSVC's <iterator> declares them)
  main       void main -> int main; _tmain -> main; _TCHAR -> char
  restrict   restrict(amp), restrict(cpu, amp), restrict(amp, cpu), restrict(direct3d),
             restrict(auto) -> HIPAMP_RESTRICT where nvcc wants it: before a lambda's parameter
             list, before a function's declaration (also inside a #define); restrict(cpu) alone
             is dropped
  index      bare index<N>, index<RANK> -> concurrency::index<...> everywhere in a C++ AMP file
             (POSIX declares a function ::index, so the bare name is ambiguous); not index<...>(
             where the program declares a function named index (ampblas's index<S>(i, j)), nor
             index<S> of a constant S of a non-integer type
  qualify    bare texture<...>, texture_view<...>, writeonly_texture_view<...> ->
             concurrency::graphics::...; bare norm as a type under `using namespace
             concurrency::graphics;` -> concurrency::graphics::norm (CUDA's math headers
             declare a function ::norm, so nvcc finds the bare name ambiguous); in a helper
             header without a using-directive, the other C++ AMP type names -> concurrency::...
  property   C++ AMP properties of accelerator, accelerator_view and array
             (acc.description, av.accelerator, ...) -> their getters (acc.get_description())
  direct3d_ref  acc == accelerator(accelerator::direct3d_ref) ->
             (acc.get_device_path() == accelerator::direct3d_ref): the same question without
             constructing the reference device
  call       assert(cond, "msg") -> assert((cond) && "msg"); <windows.h> min/max and MSVC
             __min/__max -> their macro expansion (works in kernels and on mixed types);
             direct3d::clamp/mad/imin/imax/umin/umax/saturate -> written out
  template   x.tile<...>() -> x.template tile<...>() (required when x's type is dependent);
             typedef P::name T; (or typedef std::iterator_traits<P>::name T;) in a template with
             type parameter P -> typedef typename ...; typename before a bare template parameter
             in template arguments dropped; a member template's parameter that repeats the
             class template's renamed within it; a dependent std::iterator<...> base's member
             types used unqualified -> declared in the class from the base;
             static_assert(false, ...) in a template -> a condition depending on its parameter;
             av.reinterpret_as<T>() / av.view_as<N>(e) -> av.template ...; T::value_type(x)
             (a functional cast) -> typename T::value_type(x); these apply to every file of the
             program, also one that shows no sign of C++ AMP
  msvc       MSVC's permissive parsing: names a template uses before their declaration (also
             ones only a sibling header declares) -> forward declarations ahead of the first
             use (enumerations move there, or their header is included); array_view<...>&
             parameters -> const array_view<...>& (by value where the function swaps them);
             std::max(0U, n.size()) -> std::max<decltype(...)>; template arguments of another
             signedness -> converted; `unsigned int Rank` template parameters deduced from a
             C++ AMP rank (array_view<T, Rank>, index<Rank>, ...) -> int Rank;
             std::exception("message") (MSVC's constructor taking a message) ->
             std::runtime_error("message") (not a base initializer `: std::exception(other)`;
             in every file of the program, also one that shows no sign of C++ AMP);
             __declspec(dllimport) / __declspec(dllexport) dropped; a comparison operator
             defined in its class whose T& parameter it only reads -> const T& (MSVC bound
             temporaries to it: `s == T::Invalid()`; every file); a local declared const and
             written through a cast later in its block (`((int*)c.Key)[i] = x`) -> declared
             without const (undefined behaviour MSVC tolerated; g++ and clang read the
             initializer; every file); a constant that does not fit its target's type in a
             braced initializer (`Settings{ -1 }` into an unsigned int member, `unsigned x{-1}`)
             -> static_cast<unsigned int>(-1), the value MSVC stored (nvcc rejects the
             narrowing), only where the tool sees the type: an aggregate defined in the file or
             a local header it includes, or a variable of an integral type (every file)
  posix      a class of the program's own at global scope named like a function that glibc's
             C headers declare there and MSVC's do not (random, srandom, drand48, index, rindex,
             bzero, ...; symbolic-amp's std::mt19937 wrapper `class random`): the function hides
             the class in g++, so its type uses (`random* rnd`, `make_unique<random>()`,
             `new random(7)`) -> `class random ...`, an elaborated type specifier (every file of
             the program); a temporary `random()` is reported
  wcout      std::wcout -> amp2hipamp_wout, a helper defined once in the file that narrows wide
             text and writes through std::cout: on glibc, wide and narrow output to one stdout
             lose the narrow part
  robust     every file whose port includes a hipamp header: #define HIPAMP_ROBUST_ACCESS 1
             (under #ifndef) before its first #include, so its kernels keep Direct3D's rules
             for out-of-range accesses (reads give 0, writes are dropped), which C++ AMP
             programs relied on; --no-robust-access leaves it out
  capture    parallel_for_each(..., [&] / [=, &a] / [&a] ... restrict(amp) ...); ->
             { auto& hipamp_ref_a = a; auto a = hipamp::kernel_handle(hipamp_ref_a);
               parallel_for_each(..., [=] ...); }  for every captured name declared as a C++ AMP
             array or texture (in the function, at file scope or in included local headers); kernel-only
             functions' array<T, N>& parameters -> hipamp::array_ref<T, N>, const ones ->
             hipamp::array_ref<const T, N> (const array_ref<T, N> where T is a template parameter);
             a private or protected member function holding a kernel -> public: (nvcc rejects
             an extended lambda there), also one defined out of its class, in the file or in a
             source beside the header that declares it;
             C++ AMP's capture rules, in the same block (include/hipamp/kernel_capture.hpp): a
             static_assert on the type of each name the capture list copies (no pointer, array
             or class with virtual functions), and a local scalar or pointer captured by
             reference, or a local pointer or array captured by `[=]`, shadowed by a value whose
             copy (the capture) fails to compile; a kernel naming char, short, long long or
             wchar_t gets a static_assert (outside templates), and so does
             `array_view<T, N> v(16, 16);` (N integer literals) in amp-restricted code
  tile       parallel_for_each(tiled_extent, [=](tiled_index<...> t) ... { ... t.barrier.wait(); ... })
             -> parallel_for_each_tile(tiled_extent, [=](const hipamp::tile_context<...>& ...) {
             phases }): the statements between barriers become phases
             (tile_context::for_each_item), loops over the tile on the CPU device instead of a
             fiber switch per work-item per barrier; loops and tile-uniform ifs holding barriers
             stay around their phases; locals read across a barrier are recomputed or kept in a
             hipamp::tile_private; `if (l < bound) ...` phases of rank-1 tiles run for the first
             `bound` work-items (for_each_item_below); a restrict(amp) function that waits at its
             tiled_index parameter's barrier, called by the kernel, takes the tile_context
             instead. Runs last, on the ported
             text; kernels it cannot prove safe keep their barriers (reported with the reason);
             --no-tile-phases turns it off, --tile-phases-only applies it alone (to a source
             already written for hipamp)

Files that show no sign of C++ AMP (no AMP header, no concurrency:: name or using-directive, no
restrict(...), no array_view/tiled_index/parallel_for_each/tile_static/.default_view) get only
the windows and main rules, the template rules, std::exception("message") and the posix rule. Sources may be UTF-8 (with or without BOM), UTF-16 with a BOM, or
cp1252; each is written back in its own encoding.

What it reports but leaves alone (FILE:LINE: warning [rule] ...): restrict inside a macro that
does not hold its lambda or declaration, functions overloaded on restriction, kernels capturing
by reference outside a parallel_for_each statement, captured names it cannot resolve (auto),
this captured by a kernel, writes to properties, property-style swizzles, DirectX interop,
constructing the reference device, samplers, PPL interop, wprintf/wcerr beside narrow output.

The rewrite is idempotent: porting a ported file changes nothing. `concurrency::` names and
`tile_static` stay as they are: <hipamp/amp.h> defines them, which keeps the diff small.
"""
import argparse
import bisect
import os
import re
import sys

AMP_HEADERS = ("amp.h", "amp_math.h", "amp_graphics.h", "amp_short_vectors.h")
# Functions glibc's C headers declare at global scope (g++ defines _GNU_SOURCE) and MSVC's do
# not: a program's own class of that name is hidden by them (the posix rule).
POSIX_FUNCTION_NAMES = ("random", "srandom", "initstate", "setstate", "drand48", "erand48",
                        "lrand48", "nrand48", "mrand48", "jrand48", "srand48", "seed48",
                        "index", "rindex", "bcmp", "bcopy", "bzero", "ffs")
HIPAMP_INCLUDE = "#include <hipamp/amp.h>"
# Ahead of a port's first #include (the robust rule): Direct3D's out-of-range rules.
ROBUST_DEFINE = ("#ifndef HIPAMP_ROBUST_ACCESS  // amp2hipamp: Direct3D's rules for out-of-range\n"
                 "#define HIPAMP_ROBUST_ACCESS 1  // accesses in kernels: reads give 0, writes are dropped\n"
                 "#endif\n")
RESTRICT_MACRO = "HIPAMP_RESTRICT"
RESTRICT_DEFINITION = "#include <hipamp/config.hpp>"
# MSVC's <amp.h> names for restriction clauses, and what each stands for.
AMP_RESTRICT_MACROS = {"__GPU_ONLY": ["amp"], "__GPU": ["amp", "cpu"], "__CPU_ONLY": ["cpu"]}

# C++ AMP properties (MSVC __declspec(property)) and the getters hipamp has instead.
PROPERTIES = (
    "description", "device_path", "version", "dedicated_memory", "supports_double_precision",
    "supports_limited_double_precision", "has_display", "is_emulated", "is_debug",
    "default_view", "supports_cpu_shared_memory", "default_cpu_access_type", "queuing_mode",
    "is_auto_selection", "accelerator", "accelerator_view", "associated_accelerator_view",
    "cpu_access_type",
)

# Things hipamp does not have, with what to do instead.
UNSUPPORTED = (
    (r"\bdirect3d\s*::\s*(?:get_device|create_accelerator_view|make_array|get_buffer|"
     r"get_texture|make_texture|get_sampler|make_sampler|d3d_access_lock|d3d_access_unlock|"
     r"d3d_access_try_lock|is_timeout_disabled)\b",
     "direct3d", "DirectX interop has no equivalent: share memory through native_handle() of "
     "the accelerator_view, or keep this part on Windows"),
    (r"\bdirect3d\s*::", "direct3d",
     "concurrency::direct3d (interop and HLSL intrinsics) is not provided; write the intrinsic "
     "out (mad(a,b,c) -> a*b+c, clamp -> min/max, ...)"),
    (r"#\s*include\s*[<\"](?:amp_.*d3d.*|dxgi\.h)[>\"]", "direct3d",
     "DirectX headers: there is no DirectX interop"),
    (r"\bdirect3d_ref\b", "direct3d_ref",
     "accelerator(direct3d_ref) is hipamp's reference device (the CPU device run serially, "
     "every access bounds-checked); a hipamp without it throws runtime_exception here"),
    (r"\bsampler\s+[A-Za-z_]\w*\s*[;({=]|\bsampler\s*\(", "texture",
     "samplers are not provided (textures are hipamp::graphics::texture); read a texture "
     "with operator[] / get, or use array / array_view"),
    (r"\bto_task\s*\(", "ppl", "completion_future::to_task gives hipamp::task<void> with "
     "then / get / wait / && only (no PPL scheduler, cancellation or when_any)"),
)


# <windows.h> and <tchar.h> and friends -> hipamp's compatibility headers (lower-case keys).
COMPAT_HEADERS = {
    "windows.h": "hipamp/compat/windows.h", "tchar.h": "hipamp/compat/tchar.h",
    "ppl.h": "hipamp/compat/ppl.h", "d3d11.h": "hipamp/compat/d3d11.h",
    # <d3d11.h> includes it on Windows; samples name it beside <d3d11.h> for D3D_FEATURE_LEVEL.
    "d3dcommon.h": "hipamp/compat/d3d11.h",
    "concurrent_queue.h": "hipamp/compat/concurrent_queue.h",
    "concurrent_unordered_map.h": "hipamp/compat/concurrent_unordered_map.h",
    # ATL's string conversions (CW2A, CA2W, ...), which programs use to print an accelerator's
    # wide description; both compat headers declare them and include the compat <windows.h>.
    "atlbase.h": "hipamp/compat/atlbase.h", "atlconv.h": "hipamp/compat/atlconv.h",
}
# Compatibility headers that include hipamp's <windows.h>: a file including one needs no other.
COMPAT_HEADERS_WITH_WINDOWS = {"hipamp/compat/atlbase.h", "hipamp/compat/atlconv.h"}
# MSVC's stdext::checked_array_iterator / unchecked_array_iterator (and their make_ functions).
CHECKED_ITERATOR_HEADER = "hipamp/compat/checked_array_iterator.h"
DROPPED_HEADERS = {"sdkddkver.h": "Windows SDK version macros, nothing to port"}
# MSVC's internal standard-library headers that programs include by name -> the standard header
# that declares what they bring (xutility: min/max, swap, iterator helpers).
MSVC_STD_HEADERS = {"xutility": "algorithm"}

# Calls rewritten in place: name -> (number of arguments, what the report says, expansion).
CALL_RULES = {
    "assert": (2, 'assert((cond) && "message") (<cassert> takes one argument)',
               lambda a: "assert((%s) && %s)" % (a[0], a[1])),
    "min": (2, "((a) < (b) ? (a) : (b)) (the <windows.h> macro, also inside kernels)",
            lambda a: "((%s) < (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "max": (2, "((a) > (b) ? (a) : (b)) (the <windows.h> macro, also inside kernels)",
            lambda a: "((%s) > (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "__min": (2, "((a) < (b) ? (a) : (b)) (the <stdlib.h> macro of MSVC)",
              lambda a: "((%s) < (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "__max": (2, "((a) > (b) ? (a) : (b)) (the <stdlib.h> macro of MSVC)",
              lambda a: "((%s) > (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "clamp": (3, "((x) < (lo) ? (lo) : (x) > (hi) ? (hi) : (x)) (HLSL intrinsic written out)",
              lambda a: "((%s) < (%s) ? (%s) : (%s) > (%s) ? (%s) : (%s))" %
              (a[0], a[1], a[1], a[0], a[2], a[2], a[0])),
    "mad": (3, "((a) * (b) + (c)) (HLSL intrinsic written out)",
            lambda a: "((%s) * (%s) + (%s))" % tuple(a)),
    "imin": (2, "a < b ? a : b", lambda a: "((%s) < (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "umin": (2, "a < b ? a : b", lambda a: "((%s) < (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "imax": (2, "a > b ? a : b", lambda a: "((%s) > (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "umax": (2, "a > b ? a : b", lambda a: "((%s) > (%s) ? (%s) : (%s))" % (a[0], a[1], a[0], a[1])),
    "saturate": (1, "clamped to [0, 1] (HLSL intrinsic written out)",
                 lambda a: "((%s) < 0.0f ? 0.0f : (%s) > 1.0f ? 1.0f : (%s))" % (a[0], a[0], a[0])),
}
CALL_PATTERN = re.compile(r"(?<![\w.:>])(?<!->)(assert|min|max|__min|__max)\s*\(|"
                          r"(?<![\w.])(?:(?:concurrency|Concurrency)\s*::\s*)?direct3d\s*::\s*"
                          r"(clamp|mad|imin|imax|umin|umax|saturate)\s*\(")


def expand_call(text, mask, m, own):
    """The rewrite of the call matched by m (CALL_PATTERN), calls inside its arguments
    rewritten too; (None, None) when it is not a call this rule handles."""
    name = m.group(1) or m.group(2)
    open_at = m.end() - 1
    close = match_forward(mask, open_at)
    if close is None:
        return None, None
    spans = split_with_offsets(mask[open_at + 1:close], ",", base=open_at + 1)
    args = [text[a:b] for a, b in spans]
    masks = [mask[a:b] for a, b in spans]
    count, _, build = CALL_RULES[name]
    if len(args) != count or any(not a.strip() for a in args):
        return None, None
    if name == "assert" and not re.match(r'\s*L?"', args[1]):
        return None, None
    args = [expand_segment(a, am, own).strip() for a, am in zip(args, masks)]
    return build(args), close + 1


def expand_segment(text, mask, own):
    out, last, done_to = [], 0, 0
    for m in CALL_PATTERN.finditer(mask):
        if m.start() < done_to or (m.group(1) or m.group(2)) in own:
            continue
        new, end = expand_call(text, mask, m, own)
        if new is None:
            continue
        out.append(text[last:m.start()])
        out.append(new)
        last = done_to = end
    out.append(text[last:])
    return "".join(out)


def more_declarators(s, i):
    """Names after the first in a declaration `T a(x), b(y), c;` whose first name ends at i."""
    names = set()
    while True:
        while i < len(s) and s[i].isspace():
            i += 1
        if i < len(s) and s[i] in "([{":
            close = match_forward(s, i)
            if close is None:
                return names
            i = close + 1
            continue
        if i < len(s) and s[i] == "=":
            depth = 0
            while i < len(s) and not (depth == 0 and s[i] in ",;"):
                depth += s[i] in "([{"
                depth -= s[i] in ")]}"
                if depth < 0:
                    return names
                i += 1
            continue
        m = re.match(r",\s*&{0,2}\s*([A-Za-z_]\w*)(?=\s*[;,=({\[)])", s[i:])
        if not m:
            return names
        names.add(m.group(1))
        i += m.end()


def match_forward(s, open_at):
    depth = 0
    pairs = {"(": ")", "[": "]", "{": "}"}
    for i in range(open_at, len(s)):
        if s[i] in pairs:
            depth += 1
        elif s[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return None


WIDE_OUT_NAME = "amp2hipamp_wout"
WIDE_OUT_GUARD = "AMP2HIPAMP_WIDE_OUT"
WIDE_OUT_HELPER = """#ifndef AMP2HIPAMP_WIDE_OUT  // amp2hipamp: on glibc, narrow output after std::wcout is lost;
#define AMP2HIPAMP_WIDE_OUT  // wide output is narrowed and written through std::cout instead.
#include <iostream>
#include <string>
struct amp2hipamp_wide_out {
  template <class T> amp2hipamp_wide_out& operator<<(const T& v) { std::cout << v; return *this; }
  amp2hipamp_wide_out& operator<<(wchar_t c) { std::cout.put(c >= 0 && c < 128 ? char(c) : '?'); return *this; }
  amp2hipamp_wide_out& operator<<(const wchar_t* s) { while (*s) *this << *s++; return *this; }
  amp2hipamp_wide_out& operator<<(const std::wstring& s) { return *this << s.c_str(); }
  amp2hipamp_wide_out& operator<<(std::wostream& (*m)(std::wostream&)) {
    if (m == static_cast<std::wostream& (*)(std::wostream&)>(std::endl)) std::cout << std::endl; else std::cout.flush();
    return *this;
  }
  amp2hipamp_wide_out& operator<<(std::ios_base& (*m)(std::ios_base&)) { m(std::cout); return *this; }
  std::streamsize width() const { return std::cout.width(); }
  std::streamsize width(std::streamsize w) { return std::cout.width(w); }
  std::streamsize precision() const { return std::cout.precision(); }
  std::streamsize precision(std::streamsize p) { return std::cout.precision(p); }
  amp2hipamp_wide_out& flush() { std::cout.flush(); return *this; }
};
inline amp2hipamp_wide_out amp2hipamp_wout;
#endif
"""


class Source:
    """The text, a mask with comments and literals blanked (offsets preserved), and where the
    preprocessor lines are."""

    def __init__(self, text):
        self.text = text
        self.mask = blank_comments_and_literals(text)
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.directive_lines = set()
        self.directive_group = {}  # line -> first line of its (continued) directive
        continued = False
        for number, line in enumerate(self.mask.split("\n")):
            if continued or line.lstrip().startswith("#"):
                self.directive_lines.add(number)
                self.directive_group[number] = self.directive_group[number - 1] if continued else number
                continued = line.rstrip().endswith("\\")
            else:
                continued = False

    def line_of(self, offset):
        return bisect.bisect_right(self.line_starts, offset) - 1  # 0-based

    def in_directive(self, offset):
        return self.line_of(offset) in self.directive_lines


def blank_comments_and_literals(text):
    out = list(text)
    i, n = 0, len(text)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            blank(i + 1, j)
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum() and re.match(r"[0-9a-fA-F]'", text[i - 1:i + 1]) \
                    and i + 1 < n and text[i + 1].isalnum():
                i += 1  # digit separator (1'000'000)
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


class Port:
    def __init__(self, path, text, only_amp=True, robust_access=True):
        self.path = path
        self.only_amp = only_amp
        self.robust_access = robust_access
        self.src = Source(text)
        self.edits = []     # (start, end, replacement, rule, message)
        self.warnings = []  # (offset, rule, message)
        # (start, end, at, in_place, template): text[start:end], ported, becomes in_place, and
        # template.format(moved=<the ported text>, indent=<at's indentation>) goes in at `at`.
        self.hoists = []

    # ---- bookkeeping -------------------------------------------------------------------
    def edit(self, start, end, replacement, rule, message):
        self.edits.append((start, end, replacement, rule, message))

    def warn(self, offset, rule, message):
        self.warnings.append((offset, rule, message))

    def result(self):
        text = self.src.text
        for lo, hi, at, in_place, template in self.hoists:
            # The moved text is ported first: the edits inside it go with it.
            inner = [e for e in self.edits if lo <= e[0] and e[1] <= hi and not e[0] == e[1] == hi
                     and not (e[0] == e[1] and e[2] == "")]  # reports stay
            moved = text[lo:hi]
            for start, end, replacement, _, _ in sorted(inner, key=lambda e: (e[0], e[1]),
                                                        reverse=True):
                moved = moved[:start - lo] + replacement + moved[end - lo:]
            line = self.src.line_starts[self.src.line_of(at)]
            indent = re.match(r"[ \t]*", text[line:at]).group(0)
            self.edits = [e for e in self.edits if e not in inner]
            self.edits.append((at, at, template.format(moved=moved, stripped=moved.strip(), indent=indent), "hoist", None))
            self.edits.append((lo, hi, in_place, "hoist", None))
        self.edits.sort(key=lambda e: (e[0], e[1]))
        for a, b in zip(self.edits, self.edits[1:]):
            if b[0] < a[1]:
                raise RuntimeError("%s: overlapping edits at offset %d" % (self.path, b[0]))
        for start, end, replacement, _, _ in reversed(self.edits):
            text = text[:start] + replacement + text[end:]
        return text

    def report(self):
        lines = []
        for start, _, _, rule, message in self.edits:
            if message is None:
                continue  # the second half of a move
            lines.append((self.src.line_of(start), "%s:%d: [%s] %s" % (
                self.path, self.src.line_of(start) + 1, rule, message)))
        for offset, rule, message in self.warnings:
            lines.append((self.src.line_of(offset), "%s:%d: warning [%s] %s" % (
                self.path, self.src.line_of(offset) + 1, rule, message)))
        lines.sort(key=lambda l: l[0])
        return [l for _, l in lines]

    def includes_amp_header(self, hipamp_header, directive_in_headers=False):
        """Whether this file includes a C++ AMP header or a hipamp header matching the pattern
        `hipamp_header`, outside comments, or a local header it includes does (or, with
        directive_in_headers, holds `using namespace concurrency;`)."""
        include = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](?:%s|%s)[>"]' %
                             ("|".join(re.escape(h) for h in AMP_HEADERS), hipamp_header), re.M)
        for m in include.finditer(self.src.text):
            if self.src.mask[m.start() + m.group(0).index("#")] == "#":
                return True
        directive = r"\busing\s+namespace\s+(?:::\s*)?(?:concurrency|Concurrency)\b"
        return any(include.search(m) or (directive_in_headers and re.search(directive, m))
                   for m in self.included_masks())

    def looks_like_amp(self):
        """Only C++ AMP sources are touched: the property rule would misfire elsewhere."""
        # A file that reaches <amp.h> through a local header (a stdafx.h) is C++ AMP too: its
        # bare `accelerator`, `wcout` and properties are the header's.
        if self.includes_amp_header(r"hipamp/amp\.h", directive_in_headers=True):
            return True
        # Helper headers often lean on the includer's `using namespace concurrency;`: their C++
        # AMP shows only in its types, launches and properties.
        return re.search(r"\b(?:concurrency|Concurrency)\s*::|\brestrict\s*\(|"
                         r"\busing\s+namespace\s+(?:::\s*)?(?:concurrency|Concurrency)\b|"
                         r"\b(?:array_view|tiled_index|tiled_extent)\s*<|\bparallel_for_each\s*\(|"
                         r"\btile_static\b|\btile_barrier\b|(?:\.|->)\s*default_view\b|"
                         r"\b__GPU(?:_ONLY)?\b",  # the conformance suite's restrict(amp) macros
                         self.src.mask) is not None

    def run(self):
        # A program's own Windows-only files (stdafx.h, targetver.h, a Timer.h using
        # QueryPerformanceCounter) show no sign of C++ AMP but must be ported all the same.
        self.port_windows_includes()
        self.port_dll_linkage()
        self.port_main()
        self.port_missing_return()
        if self.only_amp and not self.looks_like_amp():
            # MSVC's template parsing, as in the program's other files: a test driver calling
            # only a C++ AMP library's API (ampblas's `T::value_type(10)`) builds with MSVC.
            self.port_template_keyword()
            # MSVC's std::exception("message") is no more C++ AMP's than its template parsing:
            # a program's settings or CPU-reference files throw it too (aes128bcppamp).
            self.port_exception_message()
            self.port_posix_class_names()
            self.port_comparison_references()
            self.port_const_written_through_cast()
            self.port_narrowing_constants()
            self.port_out_of_line_kernel_members()
            self.port_robust_access()
            return self
        self.port_includes()
        kernels = self.port_restrict()
        self.port_index()
        self.port_texture_names()
        self.port_norm_type()
        self.port_properties()
        self.port_ref_checks()
        self.port_calls()
        self.port_template_keyword()
        self.port_wide_output()
        self.port_captures(kernels)
        self.port_local_types(kernels)
        self.port_overloaded_kernel_templates(kernels)
        self.port_kernel_member_access(kernels)
        self.port_out_of_line_kernel_members()
        self.check_views_without_source()
        self.check_divergent_barriers()
        self.port_view_references()
        self.port_mixed_min_max()
        self.port_exception_message()
        self.port_posix_class_names()
        self.port_comparison_references()
        self.port_const_written_through_cast()
        self.port_narrowing_constants()
        self.port_template_argument_signedness()
        self.port_unsigned_rank_parameters()
        self.port_unqualified_names()  # never inside another rule's rewrite
        self.port_declaration_order()  # last: moves whole declarations
        self.check_unsupported()
        self.port_restrict_definition()
        self.port_robust_access()  # after every rule that writes a hipamp include
        return self

    # ---- restrict without a C++ AMP header ------------------------------------------------------
    def port_restrict_definition(self):
        """MSVC and HCC read restrict(...) as a keyword, so a file may use it and include no C++
        AMP header (a header of restrict(amp, cpu) helpers, a parser test). Its port names
        HIPAMP_RESTRICT, which such a file must then define itself: it gets
        #include <hipamp/config.hpp>, the lightest hipamp header that defines it, ahead of its
        first #include (or its first line). Whole files only (only_amp, the command line's
        mode): a snippet is a piece of a file."""
        if not self.only_amp:
            return
        if not any(e[2] and RESTRICT_MACRO in e[2] for e in self.edits):
            return
        if any(e[2] and "<hipamp/" in e[2] for e in self.edits):
            return
        if self.includes_amp_header(r'hipamp/[^>"]+'):
            return  # directly or through a local header (a stdafx.h)
        mask = self.src.mask
        first = re.search(r"^[ \t]*#[ \t]*include\b", mask, re.M)
        if first:
            at = first.start()
        else:
            code = re.search(r"\S", mask)
            at = self.src.line_starts[self.src.line_of(code.start())] if code else 0
            once = re.match(r"[ \t]*#[ \t]*pragma[ \t]+once[ \t\r]*(?:\n|$)", mask[at:])
            if once:
                at += once.end()  # a header's #pragma once stays its first line
        self.insert_first(at, RESTRICT_DEFINITION + "\n", "include",
                          "%s: the file uses restrict(...) and includes no C++ AMP header, so "
                          "nothing else defines HIPAMP_RESTRICT" % RESTRICT_DEFINITION)

    # ---- robust ------------------------------------------------------------------------
    def port_robust_access(self):
        """C++ AMP ran on Direct3D, whose robust buffer access made a kernel's out-of-range
        read give 0 and dropped its out-of-range write; programs relied on it unknowingly (a
        scan writing past its tile sums, a histogram merge reading past its partial results)
        and fault on a device that does not. hipamp gives a unit those rules when it defines
        HIPAMP_ROBUST_ACCESS before its first hipamp header (config.hpp), so every file whose
        port includes a hipamp header gets the definition ahead of its first #include: a
        header it includes first (stdafx.h, a Timer.h pointed at <hipamp/compat/windows.h>)
        may already bring hipamp in. Guarded by #ifndef, so -DHIPAMP_ROBUST_ACCESS=0 on the
        command line turns it off."""
        if not self.robust_access or re.search(r"\bHIPAMP_ROBUST_ACCESS\b", self.src.text):
            return
        mask = self.src.mask
        hipamp_at = [e[0] for e in self.edits if e[2] and "<hipamp/" in e[2]]
        hipamp_at += [m.start() for m in re.finditer(r"^[ \t]*#[ \t]*include[ \t]*<hipamp/", mask, re.M)]
        if not hipamp_at:
            return
        first = min(hipamp_at)
        m = re.search(r"^[ \t]*#[ \t]*include\b", mask, re.M)
        at = m.start() if m and m.start() <= first else self.src.line_starts[self.src.line_of(first)]
        self.insert_first(at, ROBUST_DEFINE, "robust",
                          "#define HIPAMP_ROBUST_ACCESS 1 before the first #include: Direct3D's "
                          "rules for out-of-range accesses (reads give 0, writes are dropped)")

    def insert_first(self, at, text, rule, message):
        """Inserts text at offset `at`, ahead of whatever another edit starting there writes (an
        include inserted at the top, a rewritten include line, HIPAMP_RESTRICT before a
        function on the first line), so the two cannot swap places."""
        starting = [k for k, e in enumerate(self.edits) if e[0] == at]
        if starting:
            k = min(starting, key=lambda k: (self.edits[k][1], k))
            start, end, replacement, other_rule, what = self.edits[k]
            self.edits[k] = (start, end, text + replacement, other_rule, what)
            self.edits.insert(k, (at, at, "", rule, message))
        else:
            self.edit(at, at, text, rule, message)

    # ---- include ----------------------------------------------------------------------
    def port_includes(self):
        text = self.src.text
        pattern = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](%s)[>"][^\n]*(\n|$)' %
                             "|".join(re.escape(h) for h in AMP_HEADERS), re.M)
        have_hipamp = re.search(r'^[ \t]*#[ \t]*include[ \t]*[<"]hipamp/amp\.h[>"]', text, re.M)
        for m in pattern.finditer(text):
            if self.src.mask[m.start() + m.group(0).index("#")] != "#":
                continue  # inside a comment
            if have_hipamp:
                self.edit(m.start(), m.end(), "", "include",
                          "removed #include <%s> (<hipamp/amp.h> has it)" % m.group(1))
            else:
                self.edit(m.start(), m.end() - len(m.group(2)), HIPAMP_INCLUDE, "include",
                          "#include <%s> -> %s" % (m.group(1), HIPAMP_INCLUDE))
                have_hipamp = True

    # ---- restrict ---------------------------------------------------------------------
    def port_restrict(self):
        """Returns the kernel lambdas found: (capture_start, capture_end) offsets."""
        mask = self.src.mask
        kernels = []
        amp_only, cpu_only, out_of_line_cpu = {}, {}, []
        # A file's own names for the clause (`#define RESTRICT_AMP restrict(amp)`, a public
        # sample's idiom) stand where restrict(...) does, as MSVC's __GPU does: their uses move
        # before a lambda's parameter list like it (nvcc rejects HIPAMP_RESTRICT after it).
        macros = dict(AMP_RESTRICT_MACROS)
        for d in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+restrict\s*\(([^()]*)\)[ \t]*$",
                             mask, re.M):
            specifiers = [s.strip() for s in d.group(2).split(",") if s.strip()]
            if specifiers and all(s in ("cpu", "amp") for s in specifiers):
                macros.setdefault(d.group(1), specifiers)
        for m in re.finditer(r"\brestrict\s*\(([^()]*)\)|(?<![\w#])(%s)(?!\w)" %
                             "|".join(macros), mask):
            if m.group(2):
                # MSVC's <amp.h> spells restrict(amp,cpu) __GPU and restrict(amp) __GPU_ONLY;
                # they stand where restrict(...) does. In a directive they are the macros
                # themselves (#define __GPU ..., #ifndef __GPU): <hipamp/amp.h> defines them.
                if self.src.in_directive(m.start()):
                    continue
                specifiers = macros[m.group(2)]
            else:
                specifiers = [s.strip() for s in m.group(1).split(",") if s.strip()]
                if not specifiers and "," in m.group(1):
                    # `restrict(,)`: empty entries are skipped (HCC's parser), so a list of
                    # nothing else names no restriction, the default: cpu.
                    specifiers = ["cpu"]
            unknown = [s for s in specifiers if s not in ("cpu", "amp", "direct3d", "auto")]
            if unknown or not specifiers:
                self.warn(m.start(), "restrict", "unknown restriction %r left as is" % m.group(0))
                continue
            device = any(s != "cpu" for s in specifiers)
            if self.src.in_directive(m.start()):
                line = self.src.line_starts[self.src.line_of(m.start())]
                whole = re.match(r"[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+$", mask[line:m.start()])
                if whole and not mask[m.end():mask.find("\n", m.end()) % (len(mask) + 1)].strip():
                    # `#define __GPU restrict(amp,cpu)`: a name for the clause. Its uses keep
                    # their place after the declarator, which the host compilers accept for an
                    # empty or attribute macro; the known names (__GPU, __GPU_ONLY) move.
                    self.edit(m.start(), m.end(), RESTRICT_MACRO if device else "", "restrict",
                              "#define %s %s -> %s" % (whole.group(1), squash(m.group(0)),
                                                       RESTRICT_MACRO if device else "(empty)"))
                    continue
            before = len(self.edits)
            placed = self.place_restrict(m, device)
            if self.src.in_directive(m.start()):
                # Inside a macro the clause moves only within the same #define.
                group = self.src.directive_group[self.src.line_of(m.start())]
                spans = [e[0] for e in self.edits[before:]] + [e[1] for e in self.edits[before:]]
                if placed is not None and placed[2] is not None:
                    spans.append(placed[2][0])
                if placed is None or any(self.src.directive_group.get(self.src.line_of(
                        min(x, len(mask) - 1))) != group for x in spans):
                    del self.edits[before:]
                    self.warn(m.start(), "restrict",
                              "%s inside a macro, not on a lambda or declaration of the same "
                              "#define: move HIPAMP_RESTRICT by hand (before a lambda's parameter "
                              "list, before a function's declaration)" % squash(m.group(0)))
                    continue
            if placed is None:
                self.warn(m.start(), "restrict", "could not tell the lambda or function that %s "
                          "belongs to; left as is" % squash(m.group(0)))
                continue
            kind, name, where = placed
            if kind == "lambda" and device and not nested_in_device_lambda(mask, where[0]):
                kernels.append(where)  # lambdas nested in device code are not kernels
                self.hoist_macro_argument(where)
            if kind == "function" and device:
                # restrict(amp) and restrict(cpu, amp) alike: a kernel that calls the function
                # passes the handle it holds; host code passing an array converts implicitly.
                self.port_array_parameters(*self.last_params, host_too="cpu" in specifiers)
            if kind == "function" and name:
                params = re.sub(r"\s+", " ", mask[self.last_params[0] + 1:self.last_params[1]]).strip()
                decl = (m.start(), params, self.last_decl_start, m.end())
                if specifiers == ["cpu"]:
                    cpu_only.setdefault(name, []).append(decl)
                    if re.search(r"::\s*~?\w+\s*$", mask[self.last_decl_start:self.last_params[0]]):
                        out_of_line_cpu.append((name, decl))
                elif "cpu" not in specifiers and "auto" not in specifiers:
                    amp_only.setdefault(name, []).append(decl)
        for name in sorted(set(amp_only) & set(cpu_only)):
            self.port_restriction_overloads(name, amp_only[name], cpu_only[name])
        for name in sorted(set(amp_only) - set(cpu_only)):
            # No clause means restrict(cpu): `int f() restrict(amp) {...}` beside `int f() {...}`
            # is the same overload pair (HCC's Overload/Test_Overload).
            implicit = self.unrestricted_namesakes(name, {params for _, params, _, _ in amp_only[name]})
            if implicit:
                self.port_restriction_overloads(name, amp_only[name], implicit)
        for name, decl in out_of_line_cpu:
            if decl[1] not in {params for _, params, _, _ in amp_only.get(name, [])}:
                self.port_out_of_line_cpu_definition(name, decl)
        # Kernels already ported (a second run) still get their captures checked.
        for m in re.finditer(r"\[[^\[\]]*\]\s*" + RESTRICT_MACRO + r"\b", mask):
            kernels.append((m.start(), mask.index("]", m.start()) + 1))
        return kernels

    def place_restrict(self, m, device):
        """Moves one restrict clause. Returns (kind, function name, capture span) or None."""
        mask = self.src.mask
        # Walk back over what may stand between the parameter list and restrict(...).
        i = m.start()
        while True:
            j = skip_space_back(mask, i)
            word = re.search(r"(mutable|const|volatile|noexcept|&&|&)$", mask[:j])
            if word and (word.group(1) in "&&" or not is_ident_char(mask, word.start() - 1)):
                i = word.start()
                continue
            break
        close = skip_space_back(mask, i) - 1
        clause_start = m.start()  # also remove the space before it (not a continuation)
        while clause_start > 0 and mask[clause_start - 1].isspace() and not (
                mask[clause_start - 1] == "\n" and mask[clause_start - 2:clause_start - 1] == "\\"):
            clause_start -= 1
        if close >= 0 and mask[close] == "]":
            # A lambda without a parameter list: [=] restrict(amp) { ... }
            open_bracket = match_back(mask, close, "[", "]")
            if open_bracket is None:
                return None
            device = device and not nested_in_device_lambda(mask, open_bracket)
            self.edit(clause_start, m.end(), " " + RESTRICT_MACRO + " ()" if device else "",
                      "restrict", "%s on a lambda -> %s" % (squash(m.group(0)),
                                                            RESTRICT_MACRO if device else "(none)"))
            return ("lambda", None, (open_bracket, close + 1))
        if close < 0 or mask[close] != ")":
            return None
        open_paren = match_back(mask, close, "(", ")")
        if open_paren is None:
            return None
        before = skip_space_back(mask, open_paren) - 1
        # `operator[](...)` ends in `]` too, but it is a function's name, not a lambda's capture.
        subscript = before >= 0 and mask[before] == "]" and re.search(
            r"\boperator\s*\[\s*\]$", mask[:before + 1]) is not None
        if before >= 0 and mask[before] == "]" and not subscript:
            open_bracket = match_back(mask, before, "[", "]")
            if open_bracket is None:
                return None
            # A lambda written inside device code is device code already: nvcc infers its
            # execution space and rejects an extended (annotated) lambda inside another.
            device = device and not nested_in_device_lambda(mask, open_bracket)
            self.edit(clause_start, m.end(), "", "restrict",
                      "%s on a lambda -> %s before its parameter list" %
                      (squash(m.group(0)), RESTRICT_MACRO if device else "(none)"))
            if device:
                self.edit(before + 1, open_paren, " %s " % RESTRICT_MACRO, "restrict", None)
            return ("lambda", None, (open_bracket, before + 1))
        name_end = open_paren
        if mask[skip_space_back(mask, open_paren) - 1] == ">" and not re.search(
                r"\boperator\s*(?:->|>>=|>=|>>|>)\s*$", mask[:open_paren]):
            # An explicit specialization names its arguments: `cast<double, int>(...)`.
            less = match_angle_back(mask, skip_space_back(mask, open_paren) - 1)
            if less is not None:
                name_end = less
        name_match = re.search(r"(operator\s*\(\s*\)|operator\s*[^\s\w]+|~?[A-Za-z_]\w*)\s*$",
                               mask[:name_end])
        if not name_match:
            return None
        name = re.sub(r"\s+", "", name_match.group(1))
        start = self.declaration_start(name_match.start())
        if self.src.in_directive(name_match.start()):
            # Never before the name and parameters of the #define holding it.
            group = self.src.directive_group[self.src.line_of(name_match.start())]
            first = self.src.line_starts[group]
            define = re.match(r"[ \t]*#[ \t]*define[ \t]+\w+(?:\([^()]*\))?[ \t]*", mask[first:])
            if define and start < first + define.end():
                start = first + define.end()
        self.edit(clause_start, m.end(), "", "restrict",
                  "%s on function %s -> %s before its declaration" %
                  (squash(m.group(0)), name, RESTRICT_MACRO if device else "(none)"))
        if device:
            self.edit(start, start, RESTRICT_MACRO + " ", "restrict", None)
        self.last_params = (open_paren, close)
        self.last_decl_start = start
        return ("function", name, None)

    def port_local_types(self, kernels):
        """A class defined inside a function that launches kernels moves to namespace scope,
        just before the function: nvcc rejects a type local to a function in the type of a
        variable an extended lambda captures (`array<Foo, 1>` of a local Foo, a local struct
        wrapping views). Only classes whose body names nothing local to the function move,
        in functions that are not templates, and only under a name not used outside the
        function; a definition that also declares a variable leaves the variable in place."""
        mask = self.src.mask
        if not kernels:
            return
        decl = re.compile(r"\b(class|struct)\s+([A-Za-z_]\w*)\s*(?::[^{;()]*)?\{")
        for m in decl.finditer(mask):
            if self.src.in_directive(m.start()):
                continue
            braces = list(enclosing_braces(mask, m.start()))
            if not braces:
                continue
            heads = [statement_prefix(mask, 0, j) for j in braces]
            # The innermost function body around the class; every block between is a plain
            # or control block (not a class, a lambda or a namespace).
            fn = next((k for k, h in enumerate(heads) if is_function_head(h)), None)
            if fn is None or "]" in heads[fn].split("(")[0] or \
                    any(re.search(r"\b(?:class|struct|union|namespace)\b|\]", h) for h in heads[:fn]):
                continue
            body_open = braces[fn]
            body_close = match_forward(mask, body_open)
            if body_close is None or inside_template(mask, body_open + 1) or \
                    any(j < body_open for j in braces[fn + 1:] if statement_prefix(mask, 0, j).strip()
                        and not re.search(r"\bnamespace\b|\bextern\b", statement_prefix(mask, 0, j))):
                continue  # a member function, or inside something else than namespaces
            if not any(body_open < k[0] < body_close for k in kernels):
                continue
            name = m.group(2)
            open_brace = m.end() - 1
            close_brace = match_forward(mask, open_brace)
            if close_brace is None:
                continue
            outside = mask[:body_open] + mask[body_close:]
            if re.search(r"(?<![\w:])%s\b" % re.escape(name), outside):
                continue
            # Names the class uses that the function declares before it (parameters, locals).
            fn_head = heads[fn]
            declared = declared_names(fn_head[fn_head.find("("):] + " " + mask[body_open:m.start()])
            used = set(re.findall(r"(?<![\w.:>])(?<!->)([A-Za-z_]\w*)", mask[open_brace:close_brace]))
            # The class's own members and its functions' parameters hide the function's names.
            own = declared_names(mask[open_brace + 1:close_brace])
            if (declared - {name}) & (used - own):
                continue
            after = re.match(r"\s*;", mask[close_brace + 1:])
            start = m.start()
            if after:
                in_place, hi = "", close_brace + 1 + after.end()
                line_start = self.src.line_starts[self.src.line_of(start)]
                if not mask[line_start:start].strip() and mask[hi:hi + 1] == "\n":
                    start, hi = line_start, hi + 1  # the whole lines go
            else:
                in_place, hi = name, close_brace + 1
            at = self.src.line_starts[self.src.line_of(max(mask.rfind(c, 0, body_open) for c in ";{}") + 1
                                                       + len(fn_head) - len(fn_head.lstrip()))]
            self.hoists.append((start, hi, at, in_place, "{stripped}%s\n\n" % (";" if not after else "")))
            self.edit(at, at, "", "capture",
                      "local %s %s -> namespace scope before its function (nvcc rejects a type "
                      "local to a function in what an extended lambda captures)" % (m.group(1), name))

    def port_overloaded_kernel_templates(self, kernels):
        """nvcc's generated stub names the function template around an extended lambda by
        address with its template arguments spelled out (&f<int, 1, int*>); where another
        template of the same name accepts those explicit arguments too, g++ finds the address
        ambiguous and the unit does not compile (the suite's constructor.h: test_feature_itr
        (extent, It, It) beside (extent, BeginIt, accl)). A trailing template parameter
        defaulted to void, which no call names, makes the stub's argument list fit that template
        alone (the other's next parameter becomes void); calls deduce and order as before."""
        mask = self.src.mask
        done = set()
        for start, _ in kernels:
            for brace, head in enclosing_blocks(mask, start):
                if not is_function_head(head) or "]" in head.split("(")[0]:
                    continue
                if brace in done:
                    break
                done.add(brace)
                t = re.match(r"\s*template\s*<", head)
                if not t or "hipamp_overload_tag" in head:
                    break
                head_start = brace - len(head)
                close = match_template_head(mask, head_start + t.end() - 1)
                if close is None or not mask[head_start + t.end():close].strip():
                    break  # an explicit specialization (template <>)
                name = re.search(r"(~?[A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)[^()]*$", head)
                if not name:
                    break
                declared = r"template\s*<[^;{}]*?>\s*(?:(?:inline|static|constexpr)\s+)*[\w:<>,\s*&]+?\b%s\s*\(" \
                    % re.escape(name.group(1))
                mine = len(split_top_level(mask[head_start + t.end():close], ","))
                longer = 0  # other templates of the name with more template parameters
                for m in [mask] + self.header_masks():
                    for c in re.finditer(declared, m):
                        h = re.match(r"template\s*<", m[c.start():])
                        end = match_template_head(m, c.start() + h.end() - 1)
                        if end is not None and len(split_top_level(m[c.start() + h.end():end], ",")) > mine:
                            longer += 1
                if not longer:
                    break  # no other template whose parameters this one's arguments could begin
                params = squash(head[name.end(1):])
                if sum(squash(m[c.end() - 1:]).startswith(params[:params.find(")") + 1])
                       for m in [mask] + self.header_masks()
                       for c in re.finditer(declared, m)) > 1:
                    break  # declared ahead as well: both would have to change
                self.edit(close, close, ", typename hipamp_overload_tag = void", "capture",
                          "function template %s, overloaded, holding a kernel: trailing template "
                          "parameter hipamp_overload_tag = void (nvcc's stub names it by address "
                          "with explicit arguments that fit another overload too)" % name.group(1))
                break

    def hoist_macro_argument(self, where):
        """A restrict(amp) lambda written as an argument of a function-like macro (an ALL-CAPS
        name) moves into a local just before the statement, and the macro gets the local's
        name. Harness macros paste such an argument inside their own kernel lambda (the suite's
        INVOKE_TEST_FUNC_ON_CPU_AND_GPU(av, [] restrict(cpu,amp) { ... })), where nvcc rejects
        an extended lambda defined inside another; the local is captured instead. Creating a
        lambda has no side effects, so the move changes nothing else (only the macro's
        #argument text)."""
        mask = self.src.mask
        lo = where[0]
        if self.src.in_directive(lo):
            return
        name = callee_of_argument(mask, lo)
        if not name or not re.fullmatch(r"[A-Z_][A-Z0-9_]+", name.group(1)) or \
                not re.search(r"[A-Z]", name.group(1)):
            return
        # The whole argument must be the lambda: [captures] ... { body } then , or ).
        body = self.lambda_body(where[1])
        if body is None:
            return
        hi = body[1]  # one past the closing brace
        after = mask[hi:].lstrip()
        before = mask[:lo].rstrip()
        if not after[:1] in (",", ")") or not before[-1:] in (",", "("):
            return
        # The statement holding the call.
        head = statement_prefix(mask, 0, name.start(1))
        if head.count("(") > head.count(")"):
            return  # inside another call's arguments or a condition
        at = name.start(1) - len(head)
        if at == 0 or next(enclosing_braces(mask, name.start(1)), None) is None:
            return
        while at < len(mask) and mask[at].isspace():
            at += 1
        if re.match(r"(?:else|case|default|public|private|protected)\b|\w+\s*:(?!:)", mask[at:]):
            self.warn(lo, "macro", "restrict(amp) lambda argument of %s left in place (the "
                      "statement starts with a label or else); if the macro pastes it inside a "
                      "kernel, nvcc rejects it: move it into a local by hand" % name.group(1))
            return
        local = "hipamp_lambda_%d" % (self.src.line_of(lo) + 1)
        if any(h[3] == local for h in self.hoists):
            local += "_%d" % len(self.hoists)
        self.hoists.append((lo, hi, at, local, "auto %s = {moved};\n{indent}" % local))
        self.edit(at, at, "", "macro", "restrict(amp) lambda argument of %s -> local %s declared "
                  "before the statement (a macro pasting it inside its kernel would define an "
                  "extended lambda inside another, which nvcc rejects)" % (name.group(1), local))

    def port_restriction_overloads(self, name, amp_decls, cpu_decls):
        """C++ AMP overloads on restriction: `f() restrict(cpu)` beside `f() restrict(amp)`.
        After the port both have one signature, a redefinition. Where the parameter lists match,
        each overload is kept for the pass that can call it: the restrict(amp) one in a GPU
        device pass (#if HIPAMP_DEVICE_COMPILE), the restrict(cpu) one in host passes, which
        also compile kernels for the CPU device (there they call the restrict(cpu) one: the
        two bodies should agree, and a warning says so). Overloads with different parameters
        stay overloads; ones the rewrite cannot bracket by whole lines are warned about."""
        mask = self.src.mask
        cpu_params = {params for _, params, _, _ in cpu_decls}
        amp_params = {params for _, params, _, _ in amp_decls}
        for decls, guard, other in ((amp_decls, "HIPAMP_DEVICE_COMPILE", cpu_params),
                                    (cpu_decls, "!HIPAMP_DEVICE_COMPILE", amp_params)):
            for offset, params, start, clause_end in decls:
                if params not in other:
                    continue
                if not self.bracket_lines(
                        start, clause_end, "#if %s  // C++ AMP overloads %s on restriction" %
                        (guard, name), "%s(%s): the restrict(%s) overload only %s" % (
                            name, params, "amp" if guard[0] != "!" else "cpu",
                            "in GPU device passes" if guard[0] != "!" else
                            "in host passes (kernels on the CPU device call it too)")):
                    self.warn(offset, "restrict", "%s is overloaded on restriction with one "
                              "signature; could not bracket this overload by whole lines: keep "
                              "one, or choose with #if HIPAMP_DEVICE_COMPILE" % name)
                    continue
                if guard[0] != "!":
                    self.warn(offset, "restrict", "%s is overloaded on restriction: on the CPU "
                              "device kernels call its restrict(cpu) overload" % name)

    def unrestricted_namesakes(self, name, params_set):
        """Namespace-scope definitions of the function `name` with no restrict clause
        (restrict(cpu) by default) whose parameter list is one of params_set, as port_restrict
        records declarations: (offset, params, declaration start, end of the parameter list).
        Only definitions: beside a restrict(amp) one they were a redefinition; a declaration
        may stand in another #if branch than the restrict(amp) definition it names."""
        mask = self.src.mask
        found = []
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return found
        for m in re.finditer(r"(?<![\w:.>~])(?<!->)%s\s*\(" % re.escape(name), mask):
            if self.src.in_directive(m.start()) or list(enclosing_braces(mask, m.start())):
                continue
            close = match_forward(mask, m.end() - 1)
            if close is None or not re.match(r"\s*(?:(?:const|noexcept)\b\s*)*\{", mask[close + 1:]):
                continue
            head = statement_prefix(mask, 0, m.start())
            if not head.strip() or re.search(r"[=(]", head):
                continue  # no return type, or a call in an initializer
            params = re.sub(r"\s+", " ", mask[m.end():close]).strip()
            if params in params_set:
                found.append((m.start(), params, self.declaration_start(m.start()), close + 1))
        return found

    def port_out_of_line_cpu_definition(self, name, decl):
        """`void C::f() restrict(cpu) { ... }` in a .cpp, where C's header may overload f on
        restriction (the header's restrict(amp) f then lives in GPU device passes only, see
        port_restriction_overloads). This file cannot see the header; but a function written
        restrict(cpu) is never device code, so its out-of-line body is left out of GPU device
        passes, where it would redefine the header's restrict(amp) body. The class still
        declares it there, so host code compiled in that pass still names it."""
        offset, params, start, clause_end = decl
        if self.src.mask[clause_end:].lstrip(" \t\r\n")[:1] != "{":
            return  # a declaration, not a definition: harmless in every pass
        if not self.bracket_lines(
                start, clause_end, "#if !HIPAMP_DEVICE_COMPILE  // restrict(cpu): host passes only",
                "%s(%s) defined restrict(cpu) outside its class: only in host passes (a "
                "restrict(amp) overload may be the GPU's)" % (name, params)):
            self.warn(offset, "restrict", "%s is defined restrict(cpu) outside its class; could "
                      "not bracket it by whole lines: if its class overloads it on restriction, "
                      "put it in #if !HIPAMP_DEVICE_COMPILE" % name)

    def bracket_lines(self, start, clause_end, opening, message):
        """Puts the declaration's whole lines between `opening` (an #if line) and #endif; False
        when they are not whole lines. The #if goes first among edits at its offset, so it
        stands before an inserted HIPAMP_RESTRICT (result() sorts stably)."""
        span = self.declaration_lines(start, clause_end)
        if span is None:
            return False
        first, last = span
        self.edits.insert(0, (first, first, opening + "\n", "restrict", message))
        self.edit(last, last, "\n#endif", "restrict", None)
        return True

    def declaration_lines(self, start, clause_end):
        """The whole lines holding a function declaration or definition that starts at start
        and whose restrict clause ends at clause_end: (first line's start, last line's end), or
        None where code shares those lines or it lies in a preprocessor directive."""
        mask = self.src.mask
        first = mask.rfind("\n", 0, start) + 1
        if mask[first:start].strip() or self.src.in_directive(start):
            return None
        # A function template's head on lines of its own (`template<class T, typename... A>`
        # above `T& f(...) restrict(amp)`) belongs to the declaration: an #if between the two
        # would leave the head without its declaration.
        while first > 0:
            above = mask.rfind("\n", 0, first - 1) + 1
            if not re.fullmatch(r"[ \t]*template\s*<[^;{}]*>[ \t\r]*", mask[above:first - 1]) \
                    or self.src.in_directive(above):
                break
            first = above
        m = re.compile(r"[^;{}]*").match(mask, clause_end)
        end = m.end()
        if end >= len(mask):
            return None
        if mask[end] == "{":
            close = match_forward(mask, end)
            if close is None:
                return None
            end = close + 1
        elif mask[end] == ";":
            end += 1
        else:
            return None
        while end < len(mask) and mask[end] == ";":
            end += 1
        line_end = mask.find("\n", end)
        line_end = len(mask) if line_end < 0 else line_end
        if mask[end:line_end].strip():
            return None
        return first, line_end

    def port_array_parameters(self, open_paren, close, host_too=False):
        """A kernel-only function takes `array<T, N>&`; kernels now hold the array's handle
        (hipamp::kernel_handle), so the parameter takes the handle, by value. A restrict(cpu,
        amp) function too: left as `array<T, N>&`, a kernel's call converted the handle to the
        array on the host (a host address, on a GPU: its writes were lost). Host callers pass
        arrays, which convert to the handle, except where the parameter's element type or rank
        is deduced (deduction sees no conversions): such a function is left with a warning."""
        mask = self.src.mask
        decl = re.compile(r"(?<![\w:])(const\s+)?((?:%s\s*::\s*)?" % self.amp_namespaces() +
                          r"array\s*<([^;{}()]*?)>)(\s+const)?\s*&(?!&)")
        head_from = max(mask.rfind(c, 0, open_paren) for c in ";{}") + 1
        template_params = set(re.findall(r"(?:typename|class|int|unsigned|size_t)\s+(\w+)", " ".join(
            re.findall(r"\btemplate\s*<([^{};]*?)>\s*(?=[\w:])", mask[head_from:open_paren]))))
        for m in decl.finditer(mask, open_paren, close):
            if re.search(r"std\s*::\s*$", mask[:m.start(2)]):
                continue
            args = m.group(3).rsplit(",", 1)
            element = args[0].strip()
            rank = args[1].strip() if len(args) == 2 else "1"
            # A const array parameter takes a read-only handle, array_ref<const T, N>: callers
            # pass writable or read-only handles (kernel_handle of a const array), and the
            # writable one converts. Where T is the function's template parameter that would
            # stop deduction from a writable handle, so it stays const array_ref<T, N>: T then
            # deduces from either handle (as const U from a read-only one).
            const = m.group(1) or m.group(4)
            if host_too and ({element, rank} & template_params) and \
                    not self.called_with_explicit_arguments(open_paren):
                self.warn(m.start(), "capture", "restrict(cpu, amp) function takes %s with a "
                          "deduced element type or rank: kept, so host calls still deduce; a kernel "
                          "calling it on a GPU cannot reach the array through it (take "
                          "hipamp::array_ref<...> and call it with hipamp::kernel_handle(a) from "
                          "the host)" % squash(m.group(0)))
                continue
            if const and element not in template_params:
                new = "hipamp::array_ref<const %s, %s>" % (element, rank)
            else:
                new = "%shipamp::array_ref<%s, %s>" % ("const " if const else "", element, rank)
            if not mask[m.end():m.end() + 1].isspace():
                new += " "
            self.edit(m.start(), m.end(), new, "capture",
                      "kernel function parameter %s -> %s (kernels hold arrays through "
                      "hipamp::kernel_handle)" % (squash(m.group(0)), new.strip()))

    def called_with_explicit_arguments(self, open_paren):
        """Whether every call of the function whose parameter list opens at open_paren, in this
        file and the local headers it includes, names its template arguments (`f<T, N>(...)`):
        then nothing is deduced, and a parameter may change type (the suite's constructor.h
        calls kernel_userdefined<_type, _rank>(idx, a1) for the tests to define)."""
        around = function_around(self.src.mask, open_paren + 1)
        if not around or around[0] == "<lambda>":
            return False
        name = around[0]
        explicit = bare = 0
        for mask in [self.src.mask] + self.header_masks():
            for c in re.finditer(r"(?<![\w:.>])%s\s*(<[^;{}()]*>)?\s*\(" % re.escape(name), mask):
                heads = list(enclosing_block_heads(mask, c.start()))
                if not heads or not any(is_function_head(h) for h in heads):
                    continue  # a declaration, not a call
                if c.group(1):
                    explicit += 1
                else:
                    bare += 1
        return explicit > 0 and bare == 0

    def declaration_start(self, offset):
        """Where the declaration holding `offset` starts, after any template<...> heads."""
        mask = self.src.mask
        i = offset
        depth = 0
        while i > 0:
            c = mask[i - 1]
            if c in ")]":
                depth += 1
            elif c in "([":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and c in ";{}":
                break
            elif depth == 0 and c == ":" and re.search(r"\b(public|private|protected)\s*$", mask[:i - 1]):
                break
            elif depth == 0 and c == "\n" and i >= 2 and \
                    self.src.line_of(i - 2) in self.src.directive_lines:
                break  # the line before is a preprocessor directive
            i -= 1
        # Skip blank space and template heads.
        while True:
            while i < offset and mask[i].isspace():
                i += 1
            t = re.match(r"template\s*<", mask[i:offset])
            if not t:
                break
            close = match_template_head(mask, i + t.end() - 1)
            if close is None:
                break
            i = close + 1
        return i

    # ---- index ------------------------------------------------------------------------
    def port_index(self):
        mask = self.src.mask
        # Qualified everywhere, also in helper headers that lean on their includer's
        # using-directive: POSIX ::index clashes with any unqualified index<...>.
        directive = re.search(r"\busing\s+namespace\s+(?:::\s*)?(concurrency|Concurrency)\s*;", mask)
        spelling = directive.group(1) if directive else "concurrency"
        qualifier = spelling + "::"
        # A program that declares a function of its own named index (ampblas's
        # `template <order S> concurrency::index<2> index(unsigned i, unsigned j)`, its
        # specializations `index<order::row_major>(...)` and calls `index<S>(i, j)` in other
        # headers): a bare index<...>( may be that function, so only type uses (not followed
        # by `(`) are qualified.
        own_function = "index" in self.own_function_names()
        for m in re.finditer(r"(?<![\w:.])(?<!->)index(\s*<\s*[\w\s:+\-*]*>)", mask):
            if self.src.in_directive(m.start()):
                continue
            if own_function and mask[m.end():m.end() + 20].lstrip().startswith("("):
                continue
            if self.names_a_non_integral_constant(m.group(1), m.start()):
                continue
            self.edit(m.start(), m.start(), qualifier, "index",
                      "index%s -> %sindex%s (POSIX ::index makes the bare name ambiguous under "
                      "`using namespace %s;`)" % (squash(m.group(1)), qualifier,
                                                   squash(m.group(1)), spelling))
        for m in re.finditer(r"\busing\s+(?:::\s*)?(?:concurrency|Concurrency)\s*::\s*index\s*;", mask):
            self.warn(m.start(), "index", "a using-declaration of index at namespace scope "
                      "conflicts with POSIX ::index; qualify the uses instead")

    # ---- norm: CUDA declares a function ::norm ---------------------------------------------
    def norm_type_uses(self, text):
        """Offsets in text (code, comments and literals blanked) of the bare name norm used as
        concurrency::graphics::norm, in a file with `using namespace concurrency::graphics;`:
        nvcc's host headers declare ::norm(int, const double*), which makes the bare name
        ambiguous there. None in a file that declares something named norm itself."""
        mask = self.src.mask
        directive = re.search(r"\busing\s+namespace\s+(?:::\s*)?(?:concurrency|Concurrency)\s*::\s*"
                              r"graphics\s*;", mask)
        if not directive:
            return []
        for d in re.finditer(r"(\w+|[>*&])\s*[*&]?\s*(?<![\w:.])norm\s*[=;,\[{(]", mask):
            if d.group(1) not in ("return", "else", "case", "throw", "new", "delete", "sizeof",
                                  "typename", "const", "volatile", "static", "inline"):
                return []  # a variable, function or member of its own called norm
        complex_numbers = re.search(r"\bcomplex\b", mask)
        out = []
        for m in re.finditer(r"(?<![\w:.#])(?<!->)norm\b", text):
            after = text[m.end():]
            if re.match(r"\s*(?:[A-Za-z_]\w*|[&*>,)]|::|\{)", after):
                out.append(m.start())
            elif re.match(r"\s*\(", after) and not complex_numbers:
                close = match_forward(text, m.end() + after.index("("))
                args = text[m.end() + after.index("(") + 1:close] if close else ""
                if args.strip() and len(split_top_level(args, ",")) == 1:
                    out.append(m.start())  # a functional cast: norm(0.5f)
        return out

    def port_norm_type(self):
        mask = self.src.mask
        for at in self.norm_type_uses(mask):
            if self.src.in_directive(at) or any(e[0] <= at < e[1] for e in self.edits):
                continue
            self.edit(at, at, "concurrency::graphics::", "qualify",
                      "norm -> concurrency::graphics::norm (CUDA's math headers declare a "
                      "function ::norm: nvcc finds the bare name ambiguous under `using "
                      "namespace concurrency::graphics;`)")

    # ---- textures ---------------------------------------------------------------------------
    def port_texture_names(self):
        """texture, texture_view and writeonly_texture_view live in concurrency::graphics (hipamp:
        hipamp::graphics). Programs name them bare, often under `using namespace concurrency;`
        alone, which MSVC's late lookup let pass; qualified, they resolve wherever they are."""
        mask = self.src.mask
        declared = set(re.findall(r"\b(?:class|struct|using|typedef)\s+(?:[\w:<>, ]+\s+)?(\w+)", mask))
        for m in re.finditer(r"(?<![\w:.])(?<!->)(texture|texture_view|writeonly_texture_view)\s*<", mask):
            name = m.group(1)
            if name in declared or self.src.in_directive(m.start()):
                continue
            self.edit(m.start(), m.start(), "concurrency::graphics::", "qualify",
                      "%s -> concurrency::graphics::%s (C++ AMP's textures live in "
                      "concurrency::graphics)" % (name, name))

    # ---- C++ AMP names in a file without a using-directive --------------------------------
    def port_unqualified_names(self):
        """A helper header used before its includer's `using namespace concurrency;` names
        C++ AMP types bare; MSVC looked them up late, g++ at the template's definition."""
        mask = self.src.mask
        for m in self.unqualified_amp_names(mask):
            name = m.group(1)
            if self.src.in_directive(m.start()):
                continue
            if any(e[0] <= m.start() < e[1] or e[0] == m.start() for e in self.edits):
                continue
            self.edit(m.start(), m.start(), "concurrency::", "qualify",
                      "%s -> concurrency::%s (no `using namespace concurrency;` in this file: "
                      "g++ looks names up where a template is defined)" % (name, name))

    def unqualified_amp_names(self, text):
        """The bare C++ AMP type names in text (code with comments and literals blanked) that
        port_unqualified_names qualifies: none where the file has `using namespace
        concurrency;`."""
        mask = self.src.mask
        if re.search(r"\busing\s+namespace\s+(?:::\s*)?(?:concurrency|Concurrency)\b", mask):
            return []
        names = ["accelerator_view", "accelerator", "array_view", "tiled_index", "tiled_extent",
                 "tile_barrier", "completion_future"]  # parallel_for_each: found by ADL
        if not re.search(r"\busing\s+namespace\s+std\b", mask):
            names += ["array", "extent"]
        declared = set(re.findall(r"\b(?:class|struct|using|typedef)\s+(?:[\w:<>, ]+\s+)?(\w+)", mask))
        # Function templates of the file's own with one of these names (ampblas's
        # `template <order S> concurrency::extent<2> extent(unsigned i, unsigned j)`): a bare
        # name<...>( may be that function, so only the type's uses are qualified.
        own_functions = self.own_function_names()
        out = []
        for m in re.finditer(r"(?<![\w:.#])(?<!->)(%s)\b" % "|".join(names), text):
            name = m.group(1)
            if name in declared:
                continue
            if name in own_functions:
                close = match_template_head(text, m.end() + text[m.end():].index("<")) \
                    if re.match(r"\s*<", text[m.end():]) else None
                if close is None or text[close + 1:close + 20].lstrip().startswith("("):
                    continue
            if text is mask and name in ("index", "extent") and \
                    self.names_a_non_integral_constant(text[m.end():m.end() + 80], m.start()):
                continue
            # The type is followed by its template arguments; a variable of that name may be
            # followed by `<<` or `<=` (`log << extent << std::endl`).
            if name in ("array", "extent") and not re.match(r"\s*<(?![<=])", text[m.end():]):
                continue
            if name == "accelerator" and re.search(r"\b(?:std|hipamp)\s*::\s*$", text[:m.start()]):
                continue
            out.append(m)
        return out

    # ---- properties -------------------------------------------------------------------
    def port_properties(self):
        mask = self.src.mask
        names = "|".join(PROPERTIES)
        for m in re.finditer(r"(\.|->)\s*(%s)\b(?!\s*\()" % names, mask):
            if self.src.in_directive(m.start()):
                continue
            after = mask[m.end():m.end() + 3]
            if re.match(r"\s*=(?!=)", after) or re.match(r"\s*[+\-*/|&^]=", after):
                self.warn(m.start(), "property", "assignment to the C++ AMP property %s: call "
                          "set_%s(value)" % (m.group(2), m.group(2)))
                continue
            self.edit(m.start(2), m.end(), "get_%s()" % m.group(2), "property",
                      "property %s -> get_%s()" % (m.group(2), m.group(2)))
        if re.search(r"\b(?:float|double|int|uint|norm|unorm)_[234]\b", mask):
            for m in re.finditer(r"\.\s*([xyzw]{2,4}|[rgba]{2,4})\b(?!\s*\()", mask):
                if len(set(m.group(1))) == len(m.group(1)):
                    self.warn(m.start(), "swizzle", "short-vector property .%s: read with "
                              ".get_%s() (or .%s()), write with .set_%s(v)" %
                              ((m.group(1),) * 4))

    # ---- Windows headers and the program's own includes --------------------------------
    def port_windows_includes(self):
        text, mask = self.src.text, self.src.mask
        include = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
        have = set()
        first_include = None
        for m in include.finditer(text):
            if mask[m.start() + m.group(0).index("#")] != "#":
                continue
            if first_include is None:
                first_include = m.start()
            name = m.group(2).strip()
            low = name.lower().replace("\\", "/")
            span = (m.start(1), m.end(0))
            if low in COMPAT_HEADERS:
                new = "<%s>" % COMPAT_HEADERS[low]
                have.add(COMPAT_HEADERS[low])
                if COMPAT_HEADERS[low] in COMPAT_HEADERS_WITH_WINDOWS:
                    have.add("hipamp/compat/windows.h")
                self.edit(span[0], span[1], new, "windows",
                          "#include %s%s -> #include %s (hipamp's compatibility header)" %
                          (m.group(1), name, new))
            elif low in DROPPED_HEADERS:
                self.edit(m.start(), m.end(), "// amp2hipamp: #include <%s> (%s) dropped" %
                          (name, DROPPED_HEADERS[low]), "windows",
                          "#include <%s> dropped: %s" % (name, DROPPED_HEADERS[low]))
            elif low in MSVC_STD_HEADERS and m.group(1) == "<":
                new = "<%s>" % MSVC_STD_HEADERS[low]
                self.edit(span[0], span[1], new, "windows",
                          "#include <%s> (MSVC's internal header) -> #include %s" % (name, new))
            elif low.startswith("hipamp/compat/"):
                have.add(low)
                if low in COMPAT_HEADERS_WITH_WINDOWS:
                    have.add("hipamp/compat/windows.h")
            elif m.group(1) == '"':
                found = self.resolve_include(name)
                if found and found != name:
                    self.edit(span[0], span[1], '"%s"' % found, "include",
                              '#include "%s" -> "%s" (the file\'s name on disk; Linux file '
                              'names are case-sensitive, and / separates directories)' %
                              (name, found))
        # <amp.h> brings <windows.h> on MSVC: files use its timers and types without including it.
        if first_include is None:
            first_include = self.top_insertion_point()
        if "hipamp/compat/windows.h" not in have and re.search(
                r"\b(?:LARGE_INTEGER|QueryPerformanceCounter|QueryPerformanceFrequency|"
                r"GetTickCount(?:64)?|DWORD|Sleep|BOOL|UINT)\b", mask):
            self.edit(first_include, first_include,
                      "#include <hipamp/compat/windows.h>  // amp2hipamp: <amp.h> brings "
                      "<windows.h> on MSVC\n", "windows",
                      "uses the Windows API without #include <windows.h> (<amp.h> brought it on "
                      "MSVC): added #include <hipamp/compat/windows.h>")
        # MSVC's C++ headers (<string>, <vector>, <iostream>, ...) bring its C runtime's
        # <string.h>, secure functions included: files call memcpy or strcpy_s with none of
        # <cstring>, <string.h> or <windows.h> (aes128bcppamp's key setup). The secure ones get
        # the compat <windows.h>, which declares them (and includes <cstring>); the rest <cstring>.
        if "hipamp/compat/windows.h" not in have and not self.added_compat_windows():
            secure = re.search(r"(?<![\w:.>])(?:strcpy_s|strcat_s|sprintf_s|swprintf_s|"
                               r"vsprintf_s|vswprintf_s|printf_s|wprintf_s|fopen_s|_stricmp)\s*\(",
                               mask)
            if secure and not self.src.in_directive(secure.start()):
                self.edit(first_include, first_include,
                          "#include <hipamp/compat/windows.h>  // amp2hipamp: MSVC's headers "
                          "declare %s\n" % secure.group(0).rstrip("( \t"), "windows",
                          "calls %s (MSVC's secure C runtime, which its C++ headers bring) "
                          "without #include <windows.h>: added #include "
                          "<hipamp/compat/windows.h>" % secure.group(0).rstrip("( \t"))
            elif not re.search(r'^[ \t]*#[ \t]*include[ \t]*<(?:cstring|string\.h)>', text, re.M):
                plain = re.search(r"(?<![\w.>])(?:std\s*::\s*)?(memcpy|memset|memmove|memcmp|"
                                  r"strlen|strcmp|strncmp|strcpy|strncpy|strcat)\s*\(", mask)
                if plain and not self.src.in_directive(plain.start()):
                    self.edit(first_include, first_include,
                              "#include <cstring>  // amp2hipamp: MSVC's headers declare %s\n"
                              % plain.group(1), "windows",
                              "calls %s without #include <cstring> (MSVC's C++ headers bring "
                              "<string.h>): added #include <cstring>" % plain.group(1))
        # <amp.h> brings <ppltasks.h> and so <ppl.h> on MSVC: files call concurrency::parallel_for
        # without including it (ampblas's runtime test).
        if "hipamp/compat/ppl.h" not in have and (re.search(
                r"\b(?:concurrency|Concurrency)\s*::\s*(?:parallel_for|parallel_invoke|"
                r"critical_section|task_group|combinable)\b", mask) or (re.search(
                    r"\busing\s+namespace\s+(?:::\s*)?(?:concurrency|Concurrency)\s*;", mask) and
                re.search(r"(?<![\w:.])(?:parallel_for|parallel_invoke)\s*\(", mask))):
            self.edit(first_include, first_include,
                      "#include <hipamp/compat/ppl.h>  // amp2hipamp: <amp.h> brings <ppl.h> on "
                      "MSVC\n", "windows",
                      "uses PPL (concurrency::parallel_for, ...) without #include <ppl.h> (<amp.h> "
                      "brought it on MSVC): added #include <hipamp/compat/ppl.h>")
        # MSVC's <iterator> (so nearly every standard header) declares stdext's checked and
        # unchecked array iterators: a file naming them gets hipamp's.
        if CHECKED_ITERATOR_HEADER not in have and re.search(
                r"\bstdext\s*::\s*(?:make_)?(?:un)?checked_array_iterator\b", mask):
            self.edit(first_include, first_include,
                      "#include <%s>  // amp2hipamp: MSVC's <iterator> declares "
                      "stdext::checked_array_iterator\n" % CHECKED_ITERATOR_HEADER, "windows",
                      "uses stdext::checked_array_iterator (MSVC's extension, declared by its "
                      "<iterator>): added #include <%s>" % CHECKED_ITERATOR_HEADER)

    def added_compat_windows(self):
        """Whether an edit so far adds #include <hipamp/compat/windows.h>."""
        return any(e[2] and "<hipamp/compat/windows.h>" in e[2] for e in self.edits)

    def top_insertion_point(self):
        """Where a file without #include lines can take one: after `#pragma once` or an include
        guard, else before its first line of code."""
        mask = self.src.mask
        m = re.search(r"^[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n", mask, re.M)
        if m:
            return m.end()
        m = re.match(r"\s*#[ \t]*ifndef[ \t]+(\w+)[^\n]*\n[ \t]*#[ \t]*define[ \t]+\1\b[^\n]*\n", mask)
        if m:
            return m.end()
        m = re.search(r"\S", mask)
        return self.src.line_starts[self.src.line_of(m.start())] if m else len(mask)

    def resolve_include(self, name):
        """The on-disk spelling of a quoted include, or None when it cannot be found."""
        base = os.path.dirname(os.path.abspath(self.path)) if self.path not in ("-", "") else None
        parts = [p for p in name.replace("\\", "/").split("/") if p]
        if base is None or not os.path.isdir(base):
            return "/".join(parts) if "\\" in name else None
        here, out = base, []
        for part in parts:
            if part in (".", ".."):
                here = os.path.normpath(os.path.join(here, part))
                out.append(part)
                continue
            try:
                entries = os.listdir(here)
            except OSError:
                return "/".join(parts) if "\\" in name else None
            if part in entries:
                match = part
            else:
                matches = [e for e in entries if e.lower() == part.lower()]
                if len(matches) != 1:
                    return "/".join(parts) if "\\" in name else None
                match = matches[0]
            out.append(match)
            here = os.path.join(here, match)
        return "/".join(out)

    # ---- main ---------------------------------------------------------------------------
    def port_main(self):
        mask = self.src.mask
        for m in re.finditer(r"(?<![\w:])void(\s+)main\s*\(", mask):
            self.edit(m.start(), m.start() + 4, "int", "main",
                      "void main -> int main (standard C++; it returns 0 at its end)")
        for m in re.finditer(r"(?<![\w:])_tmain\s*\(", mask):
            self.edit(m.start(), m.start() + 6, "main", "main", "_tmain -> main")
        for m in re.finditer(r"(?<![\w:])_TCHAR\b", mask):
            self.edit(m.start(), m.end(), "char", "main",
                      "_TCHAR -> char (the multi-byte build of <tchar.h>)")

    # ---- a non-void function that can run off its end -------------------------------------
    def port_missing_return(self):
        """Running off the end of a function that returns a value is undefined behaviour. MSVC
        gives the caller whatever the return register holds (warning C4715); g++ and clang at
        -O2 take that path as unreachable and run on into the next function (TimmyLiu's
        init_random_matrix_rowMajor crashed so). A namespace-scope function returning an
        arithmetic type whose last statement can complete, and that returns on some path (one
        with no return at all is MSVC's error C4716), gets `return {};` before its closing
        brace: a value, as on MSVC, and defined. main is left alone (it returns 0)."""
        mask = blank_directives(self.src.mask)
        text = self.src.text
        for e in scan_namespace_scope(mask)["entities"]:
            if e["kind"] != "function" or e["body"] is None or e["name"] == "main":
                continue
            head = mask[e["start"]:e["params"][0]]
            if e["template"]:
                head = head[match_template_head(head, head.index("<")) + 1:]
            ret = re.sub(r"\b(?:static|inline|extern|constexpr|__forceinline|HIPAMP_RESTRICT)\b|"
                         r"__declspec\s*\([^()]*\)", " ", head[:head.rfind(e["name"])])
            if not re.fullmatch(r"\s*(?:const\s+)?(?:%s|bool|float|double|long\s+double|"
                                r"(?:std::)?u?int(?:8|16|32|64)_t)\s*" % INTEGRAL, ret):
                continue
            lo, hi = e["body"][0] + 1, e["body"][1] - 1
            try:
                body = parse_statements(mask, lo, hi)
            except TilePhaseReject:
                continue
            if body and not can_complete(mask, body[-1]):
                continue
            # A body with no `return` at all is MSVC's error C4716 ("must return a value"), so
            # no program that builds there has one (a declaration-like stub `{}` in a header
            # that is never called, for instance): only C4715's case, some paths returning, is
            # MSVC-accepted code that needs the value.
            if not re.search(r"\breturn\b", mask[lo:hi + 1]):
                continue
            line = text.rfind("\n", 0, hi) + 1
            if text[line:hi].strip():
                at, insert = hi, " return {}; "
            else:
                indent = re.match(r"[ \t]*", text[line:hi]).group(0)
                at, insert = line, "%s    return {};  // amp2hipamp: as MSVC, a value at the end\n" % indent
            self.edit(at, at, insert, "missing-return",
                      "%s can run off its end (undefined; MSVC returns an unspecified value, "
                      "g++/clang -O2 run into the next function): return {} added" % e["name"])

    # ---- the REF-device check ------------------------------------------------------------
    def port_ref_checks(self):
        """`acc == accelerator(accelerator::direct3d_ref)` constructs the reference device to
        compare with it. Comparing device paths asks the same question without constructing
        anything, so it is right whether or not the library provides that device."""
        mask = self.src.mask
        ns = r"(?:(?:::\s*)?(?:concurrency|Concurrency)\s*::\s*)?"
        ref = r"%saccelerator\s*\(\s*%saccelerator\s*::\s*direct3d_ref\s*\)" % (ns, ns)
        operand = r"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*(?:\s*\(\s*\))?|\s*\[[^\[\]\n]*\])*"
        self.ref_spans = []
        for m in re.finditer(r"(%s)\s*(==|!=)\s*(%s)|(%s)\s*(==|!=)\s*(%s)" %
                             (operand, ref, ref, operand), mask):
            if m.group(1):
                acc, op = m.group(1), m.group(2)
            else:
                acc, op = m.group(6), m.group(5)
            ns_used = re.match(r"(?:::\s*)?((?:concurrency|Concurrency)\s*::\s*)?", m.group(3) or m.group(4))
            prefix = squash(ns_used.group(1) or "").replace(" ", "") if ns_used else ""
            if not prefix and not re.search(
                    r"\busing\s+namespace\s+(?:::\s*)?(?:concurrency|Concurrency)\b", mask):
                prefix = "concurrency::"  # as the qualify rule would write it
            new = "(%s.get_device_path() %s %saccelerator::direct3d_ref)" % (squash(acc), op, prefix)
            self.edit(m.start(), m.end(), new, "direct3d_ref",
                      "%s -> %s (asks the same without constructing the reference device)" %
                      (squash(m.group(0)), new))
            self.ref_spans.append((m.start(), m.end()))

    # ---- calls to rewrite: assert(c, "msg"), <windows.h> min/max, HLSL intrinsics -----------
    def port_calls(self):
        mask, text = self.src.mask, self.src.text
        own = set(re.findall(r"#\s*define\s+(min|max|__min|__max)\b", mask))
        own |= set(m.group(1) for m in re.finditer(
            r"(?:\b(?:int|float|double|auto|T|inline|static|unsigned|long|_type|bool)\s*[&*]?\s+|>\s*)"
            r"(min|max)\s*\(", mask))
        own |= set(re.findall(r"\busing\s+std\s*::\s*(min|max)\b", mask))
        done_to = 0
        for m in CALL_PATTERN.finditer(mask):
            if m.start() < done_to or self.src.in_directive(m.start()):
                continue
            name = m.group(1) or m.group(2)
            if name in own:
                continue
            new, end = expand_call(text, mask, m, own)
            if new is None:
                continue
            self.edit(m.start(), end, new, "call", "%s(...) -> %s" % (
                squash(text[m.start():m.end() - 1]), CALL_RULES[name][1]))
            done_to = end

    # ---- std::exception("message"): a constructor only MSVC's std::exception has ----------
    def port_dll_linkage(self):
        """`#define AMPBLAS_DLL __declspec(dllimport)`: a Windows DLL's linkage, which g++ and
        nvcc take for a declaration of a function named __declspec. A program built against
        hipamp links the library's sources into it: the specifier is dropped."""
        for m in re.finditer(r"\b__declspec\s*\(\s*(dllimport|dllexport)\s*\)", self.src.mask):
            self.edit(m.start(), m.end(), "", "msvc",
                      "__declspec(%s) dropped (a Windows DLL's linkage; the port links the "
                      "library's sources into the program)" % m.group(1))

    # ---- a class named like a glibc function ----------------------------------------------
    def port_posix_class_names(self):
        """A class of the program's own at global scope named like a function that glibc's C
        headers declare there and MSVC's do not (symbolic-amp's `class random`, a wrapper of
        std::mt19937, beside glibc's `long random(void)` from <stdlib.h>): in g++ the function
        hides the class, so `make_unique<random>()` and `random* rnd` fail to compile. An
        elaborated type specifier finds the class all the same: those uses become `class
        random`. Uses inside the class's own body (its injected name) and before `::` are
        left alone; `new random(...)` takes it too; an expression naming the class
        (`random()`, a temporary) cannot be written that way and is reported."""
        mask = self.src.mask
        scans = [scan_namespace_scope(mask, self.src)]
        if self.path not in ("-", ""):
            scans += [scan_file(p) for p in sorted(self.transitive_includes())]
            scans += [scan_file(p) for p in self.sibling_headers()]
        keywords = {}
        for s in scans:
            for e in (s["entities"] if s else []):
                if e["kind"] == "class" and not e["path"] and not e["template"] and \
                        e["name"] in POSIX_FUNCTION_NAMES:
                    keywords.setdefault(e["name"], e["keyword"])
        if not keywords:
            return
        own_bodies = [e["body"] for e in scans[0]["entities"]
                      if e["kind"] == "class" and e["name"] in keywords and e["body"]]
        for m in re.finditer(r"(?<![\w:.~])(?<!->)\b(%s)\b" % "|".join(sorted(keywords)), mask):
            if self.src.in_directive(m.start()) or \
                    any(lo < m.start() < hi for lo, hi in own_bodies):
                continue
            if re.search(r"\b(?:class|struct|union|enum|operator)\s*$", mask[:m.start()]):
                continue  # already elaborated, or the class's own declaration
            after = mask[m.end():m.end() + 40].lstrip()
            name = m.group(1)
            if after.startswith("::") or after.startswith("{"):
                continue
            if after.startswith("(") and not re.search(r"\bnew\s*$", mask[:m.start()]):
                self.warn(m.start(), "posix", "%s(...) constructs the program's %s %s, which "
                          "glibc's function ::%s hides: g++ calls the function; name the class "
                          "through a typedef (`typedef %s %s %s_type;`) or rename it" % (
                              name, keywords[name], name, name, keywords[name], name, name))
                continue
            if not re.match(r"(?:[*&>(]|const\b|volatile\b|[A-Za-z_])", after):
                continue
            self.edit(m.start(), m.start(), keywords[name] + " ", "posix",
                      "%s -> %s %s (glibc's C headers declare a function ::%s, which hides "
                      "the program's own %s in g++; MSVC's declare none)" % (
                          name, keywords[name], name, name, keywords[name]))

    def port_exception_message(self):
        mask = self.src.mask
        include_needed = not re.search(r'#\s*include\s*[<"](?:amp\.h|hipamp/amp\.h|stdexcept)[>"]',
                                       self.src.text)
        for m in re.finditer(r"(?<![\w:])(?:::\s*)?std\s*::\s*(exception)\s*\(", mask):
            if self.src.in_directive(m.start()):
                continue
            close = match_forward(mask, m.end() - 1)
            if close is None or not mask[m.end():close].strip() or \
                    len(split_top_level(mask[m.end():close], ",")) != 1:
                continue  # the default constructor, or MSVC's (message, int) one: left alone
            head = mask[max(mask.rfind(";", 0, m.start()), mask.rfind("{", 0, m.start()),
                            mask.rfind("}", 0, m.start())) + 1:m.start()]
            if re.search(r"\)\s*(?:throw\s*\([^()]*\)\s*|noexcept\s*(?:\([^()]*\)\s*)?)?"
                         r":(?!:)[^:]*(?:::[^:]*)*$", head) and \
                    re.search(r"(?<!:)[:,]\s*$", head):
                continue  # a base initializer (`: std::exception(other), ...`): the base is exception
            self.edit(m.start(1), m.end(1), "runtime_error", "msvc",
                      "std::exception(message) -> std::runtime_error(message) (the message "
                      "constructor is MSVC's; runtime_error derives from std::exception and "
                      "what() returns the message)")
            if include_needed:
                at = self.top_insertion_point()
                self.edit(at, at, "#include <stdexcept>  // amp2hipamp: std::runtime_error\n",
                          "msvc", None)
                include_needed = False

    # ---- const locals written through a cast ----------------------------------------------
    def port_const_written_through_cast(self):
        """`const Constants tables = {...};` then `((int*)tables.Key)[i] = x;` (aes128bcppamp
        fills a const table's key this way, then captures the table in a kernel). Writing to a
        const object is undefined behaviour; MSVC's code generation reads the object back and
        the program works, while g++, clang and nvcc may read the initializer instead, as a
        constant (the kernel saw an all-zero key). A local declared const and written through a
        cast later in its block (a C-style cast to a pointer or a const_cast, on the left of an
        assignment or an increment) is declared without const: the same program, now defined."""
        mask = self.src.mask
        decl = re.compile(r"(?:^|(?<=[;{}]))(\s*)(?:static\s+)?(const)\s+(?!volatile\b)"
                          r"(?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*(?:\s*<[^;{}()]*>)?\s+"
                          r"([A-Za-z_]\w*)\s*(?=[=\[{])")
        for m in decl.finditer(mask):
            if self.src.in_directive(m.start(2)):
                continue
            braces = list(enclosing_braces(mask, m.start(2)))
            if not braces:
                continue  # namespace scope: not a local
            close = match_forward(mask, braces[0])
            if close is None:
                continue
            name = re.escape(m.group(3))
            scope = mask[m.end():close]
            target = r"\(?\s*&?\s*%s\b(?:\s*(?:\.|->)\s*\w+|\s*\[[^\];]*\])*\s*\)?" % name
            casts = re.compile(
                r"\(\s*(?!const\b)(?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*"
                r"\s*\*+\s*\)\s*" + target +
                r"|\bconst_cast\s*<[^<>;]*[&*]\s*>\s*\(\s*&?\s*%s\b" % name)
            # Written: the cast expression (its parentheses, subscripts and members) is followed
            # by an assignment or an increment, or preceded by an increment.
            store = re.compile(r"\s*(?:\)\s*)*(?:(?:\[[^\];]*\]|(?:\.|->)\s*\w+)\s*(?:\)\s*)*)*"
                               r"(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)")
            written = None
            for c in casts.finditer(scope):
                if store.match(scope, c.end()) or \
                        re.search(r"(?:\+\+|--)[\s(*]*$", scope[max(0, c.start() - 8):c.start()]):
                    written = m.end() + c.start()
                    break
            if written is None:
                continue
            self.edit(m.start(2), m.end(2) + len(re.match(r"\s*", mask[m.end(2):]).group(0)), "",
                      "msvc", "`const ... %s` is written through a cast at line %d (undefined "
                      "behaviour that MSVC's code tolerates; g++, clang and nvcc may read its "
                      "initializer as a constant instead): declared without const"
                      % (m.group(3), self.src.line_of(written) + 1))

    # ---- constants narrowed in braced initializers ------------------------------------------
    def port_narrowing_constants(self):
        """`return ProcessingUnitSettings{ -1 };` whose first member is an unsigned int
        (aes128bcppamp's settings): a constant that does not fit its target's type narrows in a
        braced initializer. MSVC warned (C4838) and stored the value converted modulo 2^N; g++
        accepts it under -Wno-narrowing; nvcc's front end rejects it, an error no diag_suppress
        turns off. Where the rule knows the target's type -- a member of a struct or class that
        brace initialization fills member by member (braced_aggregates), defined in this file
        or a local header it includes, or a variable declared with an integral type (`unsigned
        x{-1}`, `unsigned char t[] = {...}`) -- an element that is an integer constant written
        with literals alone (integer_constant) and does not fit that type is cast to it:
        static_cast<unsigned int>(-1), the value MSVC stored. Anything it cannot map for sure
        (brace elision, a member of a type it does not know, designators) ends its walk of that
        initializer; values that fit, casts and names are left alone."""
        mask = self.src.mask
        aggregates = braced_aggregates([mask] + self.included_masks())
        done = set()
        keywords = {"final", "override", "const", "volatile", "operator", "return", "new",
                    "unsigned", "signed", "short", "long", "int", "char", "double", "float", "bool"}

        def declaration_prefix(at):
            # The statement's text before a declaration: specifiers only.
            cut = max(mask.rfind(c, 0, at) for c in ";{}(,:")
            return re.fullmatch(r"\s*(?:(?:static|const|constexpr|volatile|extern|thread_local|"
                                r"inline|register|struct|class)\s+)*", mask[cut + 1:at]) is not None

        def walk(open_at, typ, what):
            if open_at in done:
                return
            done.add(open_at)
            close = match_forward(mask, open_at)
            if close is None:
                return
            parts = split_with_offsets(mask[open_at + 1:close], ",", base=open_at + 1)
            if len(parts) > 1 and not mask[parts[-1][0]:parts[-1][1]].strip():
                parts.pop()  # a trailing comma
            if typ[0] == "struct":
                targets = [(what + "'s member " + n, t) for n, t in aggregates[typ[1]]]
            elif typ[0] == "array":
                targets = [(what + "'s element", typ[1])] * len(parts)
            else:
                targets = [(what, typ)]
            for k, (a, b) in enumerate(parts):
                piece = mask[a:b]
                if not piece.strip() or k >= len(targets) or re.match(r"\s*[.\[]", piece):
                    return  # empty braces, too many elements, designators
                name, t = targets[k]
                s, e = a + len(piece) - len(piece.lstrip()), b - (len(piece) - len(piece.rstrip()))
                braced = mask[s] == "{" and match_forward(mask, s) == e - 1
                if t is None:
                    return
                if t[0] == "scalar":
                    continue
                if t[0] in ("struct", "array") and (t[0] == "array" or t[1] in aggregates):
                    if not braced:
                        return  # brace elision, or an expression of the member's type
                    walk(s, t, name)
                    continue
                if t[0] == "struct":  # a class the rule does not know
                    if braced:
                        continue
                    return
                if braced:
                    walk(s, t, name)
                    continue
                value = integer_constant(piece)
                if value is None:
                    continue
                bits, signed = t[2], t[3]
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
                if lo <= value <= hi:
                    continue
                stored = value % (1 << bits)
                if signed and stored > hi:
                    stored -= 1 << bits
                original = self.src.text[s:e]
                if re.search(r"\blong\b", t[1]) and not re.search(r"\blong\s+long\b", t[1]):
                    stored = "%d here, %d with MSVC's 32-bit long" % (stored, value % (1 << 32) - (
                        (1 << 32) if signed and value % (1 << 32) >= 1 << 31 else 0))
                self.edit(s, e, "static_cast<%s>(%s)" % (t[1], original), "msvc",
                          "%s -> static_cast<%s>(%s) in a braced initializer (%s): a constant "
                          "that does not fit %s narrows, which MSVC accepted (C4838) and "
                          "converted modulo 2^N, as the cast does (%s); nvcc rejects it"
                          % (squash(original), t[1], squash(original), name, t[1], stored))

        names = "|".join(map(re.escape, sorted(aggregates)))
        if names:
            use = re.compile(r"(?<![\w.~])(?<!->)(%s)\s*(?:([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)"
                             r"(=\s*)?)?\{" % names)
            for m in use.finditer(mask):
                if self.src.in_directive(m.start()):
                    continue
                before = mask[max(mask.rfind(";", 0, m.start()), mask.rfind("{", 0, m.start()),
                                  mask.rfind("}", 0, m.start())) + 1:m.start()]
                if re.search(r"\b(?:struct|class|union|enum|namespace)\s*(?:[A-Za-z_]\w*\s*::\s*)*$",
                             before) and not m.group(2):
                    continue  # the definition `struct S {`, `struct Outer::S {`
                if re.search(r"\b(?:struct|class|union)\b[^()]*:", before):
                    continue  # a base clause `struct D : S {`
                typ = ("struct", m.group(1))
                if m.group(2):
                    if m.group(2) in keywords or not declaration_prefix(m.start()):
                        continue
                    for _ in re.findall(r"\[", m.group(3) or ""):
                        typ = ("array", typ)
                what = m.group(2) or m.group(1)
                walk(m.end() - 1, typ, what if m.group(2) else what + "{...}")
        var = re.compile(r"(?<![\w:.>])(?<!->)(%s)\s*(?:\b(?:const|volatile)\b\s*)*([A-Za-z_]\w*)\s*"
                         r"((?:\[[^\]]*\]\s*)*)(=\s*)?\{" % INTEGRAL_TYPE.pattern)
        for m in var.finditer(mask):
            if self.src.in_directive(m.start()) or m.group(2) in keywords or \
                    not declaration_prefix(m.start()):
                continue
            spelling = squash(m.group(1)).strip()
            bits = integral_type(spelling)
            if not bits:
                continue
            typ = ("int", spelling, bits[0], bits[1])
            for _ in re.findall(r"\[", m.group(3) or ""):
                typ = ("array", typ)
            walk(m.end() - 1, typ, m.group(2))

    # ---- bool operator==(T& other): MSVC binds temporaries to non-const references ---------
    def port_comparison_references(self):
        """`bool operator==(Settings& other) { return a == other.a; }` compared with a temporary
        (`s == Settings::Invalid()`, aes128bcppamp): MSVC binds an rvalue to a non-const lvalue
        reference (its extension, warning C4239 at /W4); g++ and clang reject the call. A
        comparison operator defined in its class, whose one parameter is such a reference and
        whose body only reads that parameter's data members, takes it by const reference: the
        same function for every call that compiled, and calls with temporaries now compile."""
        mask = self.src.mask
        head = re.compile(r"\boperator\s*(==|!=|<=|>=|<|>)\s*\(\s*(?!const\b|volatile\b)"
                          r"((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*)\s*&\s*([A-Za-z_]\w*)\s*\)"
                          r"\s*(?:const\s*)?\{")
        for m in head.finditer(mask):
            if self.src.in_directive(m.start()):
                continue
            close = match_forward(mask, m.end() - 1)
            if close is None:
                continue
            body, name = mask[m.end():close], m.group(3)
            uses = list(re.finditer(r"\b%s\b" % re.escape(name), body))
            reads = [u for u in uses if re.match(
                r"\s*\.\s*[A-Za-z_]\w*\b(?!\s*(?:\(|\[|=(?!=)|\+\+|--|(?:[-+*/%&|^]|<<|>>)=))",
                body[u.end():]) and not re.search(r"(?:\+\+|--|&)\s*$", body[:u.start()])]
            if not uses or len(reads) != len(uses):
                continue  # it passes the parameter on, calls or writes through it: left alone
            self.edit(m.start(2), m.start(2), "const ", "msvc",
                      "operator%s(%s& %s) -> operator%s(const %s& %s): it only reads %s, and "
                      "MSVC let a temporary bind to the non-const reference (C4239); g++ does "
                      "not" % (m.group(1), m.group(2), name, m.group(1), m.group(2), name, name))

    # ---- std::max(0U, s.length()): size_t was unsigned int on 32-bit Windows ----------------
    def port_mixed_min_max(self):
        mask, text = self.src.mask, self.src.text
        for m in re.finditer(r"(?<![\w:])std\s*::\s*(min|max)\s*\(", mask):
            close = match_forward(mask, m.end() - 1)
            if close is None or self.src.in_directive(m.start()):
                continue
            args, depth, cut = [], 0, m.end()
            for i in range(m.end(), close):
                depth += mask[i] in "([{"
                depth -= mask[i] in ")]}"
                if mask[i] == "," and depth == 0:
                    args.append((cut, i))
                    cut = i + 1
            args.append((cut, close))
            if len(args) != 2:
                continue
            a, b = (text[x:y].strip() for x, y in args)
            literal = r"\d+[uU][lL]{0,2}"
            if bool(re.fullmatch(literal, a)) == bool(re.fullmatch(literal, b)):
                continue
            other = b if re.fullmatch(literal, a) else a
            if re.fullmatch(r"[\d.]+\w*", other):
                continue
            new = "<decltype((%s) + (%s))>" % (a, b)
            self.edit(m.end() - 1, m.end() - 1, new, "msvc",
                      "std::%s(%s, %s) -> std::%s%s(...) (an unsigned literal beside a size_t: "
                      "one type on 32-bit Windows, two on LP64)" % (m.group(1), a, b, m.group(1), new))

    # ---- integral template arguments of another signedness ------------------------------------
    def port_unsigned_rank_parameters(self):
        """`template <typename T, unsigned int Rank> T Read(const array_view<const T, Rank>&)`:
        the rank is deduced from an int, which g++ refuses for an unsigned parameter."""
        mask = self.src.mask
        for e in scan_namespace_scope(mask)["entities"]:
            if not e.get("tparams") or not e.get("params"):
                continue
            for a, b, name in unsigned_rank_parameters(mask[e["start"]:e["params"][1] + 1]):
                self.edit(e["start"] + a, e["start"] + b, "int", "msvc",
                          "template parameter %s %s -> int %s: %s deduces it from a C++ AMP "
                          "rank (an int), which g++ does not convert (MSVC did)" % (
                              squash(mask[e["start"] + a:e["start"] + b]), name, name, e["name"]))

    def port_template_argument_signedness(self):
        """`template <unsigned M> ... IsBitSet<N, M>` where IsBitSet takes `int Bit`: a narrowing
        template argument, which MSVC converts and g++ rejects when the value does not fit."""
        mask = self.src.mask
        scan = scan_namespace_scope(mask)
        targets = {}
        for e in scan["entities"]:
            # Definitions only: the forward declarations this tool writes must not change the
            # outcome of a second run.
            if e.get("tparams") and not e.get("specialization") and e.get("body"):
                targets.setdefault(e["name"], template_param_types(e["tparams"]))
        if not targets:
            return
        heads = [e for e in scan["entities"] if e.get("tparams") and e.get("body")]
        for e in heads:
            own = dict((n, t) for t, n in template_param_types(e["tparams"]) if n)
            lo, hi = e["head_end"], e["body"][1]
            for m in re.finditer(r"(?<![\w:.])(%s)\s*<" % "|".join(map(re.escape, targets)), mask[:hi]):
                if m.start() < lo:
                    continue
                close = match_template_head(mask, m.end() - 1)
                if close is None or close > hi:
                    continue
                params = targets[m.group(1)]
                pos, depth, cut = 0, 0, m.end()
                pieces = []
                for i in range(m.end(), close + 1):
                    c = mask[i]
                    depth += c in "(<[{"
                    depth -= c in ")>]}" and i != close
                    if (c == "," and depth == 0) or i == close:
                        pieces.append((cut, i))
                        cut = i + 1
                for k, (x, y) in enumerate(pieces):
                    arg = mask[x:y].strip()
                    if k >= len(params) or arg not in own or not params[k][0]:
                        continue
                    want, have = params[k][0], own[arg]
                    if not have or is_unsigned(want) == is_unsigned(have):
                        continue
                    at = x + len(mask[x:y]) - len(mask[x:y].lstrip())
                    self.edit(at, at + len(arg), "%s(%s)" % (want, arg), "msvc",
                              "template argument %s (%s) -> %s(%s): %s<...> takes %s there; "
                              "MSVC converted, g++ rejects a value that does not fit" % (
                                  arg, have, want, arg, m.group(1), want))

    # ---- the template keyword before a dependent member template ---------------------------
    def port_template_keyword(self):
        for m in re.finditer(r"(?:\.|->)\s*(tile|reinterpret_as|view_as)\s*<", self.src.mask):
            self.edit(m.start(1), m.start(1), "template ", "template",
                      ".%s<...>() -> .template %s<...>() (needed when the object's type "
                      "depends on a template parameter; MSVC did not ask for it)" % (
                          m.group(1), m.group(1)))

        # `typedef InIt::value_type T;` in a template: MSVC did not ask for `typename` before a
        # name that depends on a template parameter; g++ and nvcc do.
        heads = [(h.end(), set(re.findall(r"(?:typename|class)\s+(\w+)", h.group(1))))
                 for h in re.finditer(r"\btemplate\s*<([^{};]*?)>", self.src.mask)]
        starts = [h[0] for h in heads]
        for m in re.finditer(r"\btypedef\s+(\w+)\s*::\s*\w+", self.src.mask):
            k = bisect.bisect_right(starts, m.start()) - 1
            if k < 0 or m.group(1) not in heads[k][1]:
                continue
            self.edit(m.start(1), m.start(1), "typename ", "template",
                      "typedef %s::... -> typedef typename %s::... (a name depending on a "
                      "template parameter; MSVC did not ask for typename)" % (m.group(1), m.group(1)))
        # `typedef std::iterator_traits<It>::value_type T;`: the same through a template-id
        # whose arguments name a template parameter.
        for m in re.finditer(r"\btypedef\s+((?:::\s*)?(?:\w+\s*::\s*)*\w+\s*<)", self.src.mask):
            close = match_template_head(self.src.mask, m.end(1) - 1)
            k = bisect.bisect_right(starts, m.start()) - 1
            if close is None or k < 0 or \
                    not re.match(r"\s*::\s*\w+", self.src.mask[close + 1:close + 80]):
                continue
            args = set(re.findall(r"\w+", self.src.mask[m.end(1):close]))
            if not args & heads[k][1]:
                continue
            name = squash(self.src.mask[m.start(1):close + 1])
            self.edit(m.start(1), m.start(1), "typename ", "template",
                      "typedef %s::... -> typedef typename %s::... (a name depending on a "
                      "template parameter; MSVC did not ask for typename)" % (name, name))
        self.port_msvc_template_names(heads, starts)

        # `std::ostream_iterator<V, Traits::char_type>`: the same, outside a typedef; a member
        # named like a type (value_type, char_type, iterator, pointer, reference) is taken for
        # one where no typename precedes it (not before `(`: a call or a constructor).
        # The standard's own member type names are types before `(` too: `T::value_type(10)`
        # is a functional cast.
        for m in re.finditer(r"(?<![\w:])(\w+)\s*::\s*(?:(\w*(?:type|iterator|pointer|reference))\b"
                             r"(?!\s*[(:])|(value_type|size_type|difference_type)\b(?=\s*\())",
                             self.src.mask):
            k = bisect.bisect_right(starts, m.start()) - 1
            if k < 0 or m.group(1) not in heads[k][1] or self.src.in_directive(m.start()):
                continue
            if re.search(r"\b(?:typename|typedef)\s+$|(?<!:):\s*$|"
                         r"\b(?:public|private|protected|virtual)\s+$", self.src.mask[:m.start()][-40:]):
                continue
            self.edit(m.start(1), m.start(1), "typename ", "template",
                      "%s::%s -> typename %s::%s (a type depending on a template parameter; "
                      "MSVC did not ask for typename)" % ((m.group(1), m.group(2) or m.group(3)) * 2))

    def port_msvc_template_names(self, heads, starts):
        """Three more names MSVC's template parsing let through and g++ and nvcc refuse.
        `std::iterator<tag, typename T, int>`: typename before a bare template parameter in a
        template argument list is dropped. A member template (a friend `template <typename T>
        friend ... begin(...)` in `template <typename T> class C`) whose parameter repeats the
        class's: its own parameter is renamed within its declaration (MSVC let the inner one
        shadow the outer; g++ refuses). A class template derived from `std::iterator<...>` of
        its parameters that uses the base's member types (`reference`, `difference_type`, ...)
        unqualified: MSVC found them in the dependent base, g++ does not look there, so the
        class declares them from its base, publicly, as the base does."""
        mask = self.src.mask

        def last_head_params(at):
            k = bisect.bisect_right(starts, at) - 1
            return heads[k][1] if k >= 0 else set()

        # typename before a bare template parameter in a template argument list.
        for m in re.finditer(r"\btypename\s+([A-Za-z_]\w*)\s*(?=[,>])", mask):
            angle = parens = 0
            opened = None
            for i in range(m.start() - 1, -1, -1):
                c = mask[i]
                if c == ">":
                    angle += 1
                elif c == "<":
                    if angle == 0:
                        opened = i
                        break
                    angle -= 1
                elif c == ")":
                    parens += 1
                elif c == "(":
                    if parens == 0:
                        break
                    parens -= 1
                elif c in ";{}":
                    break
            if opened is None or re.search(r"\btemplate\s*$", mask[:opened]):
                continue  # a template parameter list: `template <typename T, ...>`
            name = m.group(1)
            if name not in last_head_params(m.start()) and \
                    name not in template_parameter_names(mask, m.start()):
                continue
            self.edit(m.start(), m.start(1), "", "template",
                      "typename %s -> %s in a template argument list (%s is a template "
                      "parameter, not a qualified name; MSVC let typename stand)" % (name, name, name))

        # A member template's parameter that repeats an enclosing template's.
        for h in re.finditer(r"\btemplate\s*<", mask):
            close = match_template_head(mask, h.end() - 1)
            if close is None or self.src.in_directive(h.start()):
                continue
            inner = re.findall(r"(?:typename|class)\s*(?:\.\.\.)?\s*([A-Za-z_]\w*)\s*(?=[,=>])",
                               mask[h.end():close + 1])
            shadowed = [n for n in inner if n in template_parameter_names(mask, h.start())]
            if not shadowed:
                continue
            end, parens = None, 0
            for i in range(close + 1, len(mask)):
                c = mask[i]
                if c in "([":
                    parens += 1
                elif c in ")]":
                    parens -= 1
                elif parens == 0 and c == ";":
                    end = i
                    break
                elif parens == 0 and c == "{":
                    end = match_forward(mask, i)
                    break
            if end is None:
                continue
            for name in shadowed:
                new = name + "_"
                while re.search(r"\b%s\b" % re.escape(new), mask):
                    new += "_"
                for u in re.finditer(r"(?<![\w.:>])\b%s\b" % re.escape(name), mask[h.start():end]):
                    at = h.start() + u.start()
                    if mask[max(0, at - 2):at] in ("->", "::"):
                        continue
                    self.edit(at, at + len(name), new, "template", None)
                self.edit(h.start(), h.start(), "", "template",
                          "member template parameter %s -> %s (it repeats the enclosing "
                          "template's %s: MSVC let it shadow that one, g++ refuses)" % (name, new, name))

        # `static_assert(false, "must be specialized")` in a template nobody instantiates:
        # MSVC checked it only on instantiation; g++ (before C++23) checks it where it stands.
        for m in re.finditer(r"\bstatic_assert\s*\(\s*(false)\s*,", mask):
            cond = None
            for head in enclosing_block_heads(mask, m.start()):
                t = re.search(r"\btemplate\s*<([^{};]*)>", head)
                if not t:
                    continue
                p = re.search(r"(typename|class|int|unsigned|size_t|bool)\s+([A-Za-z_]\w*)",
                              t.group(1))
                if p:
                    cond = ("!sizeof(%s*)" if p.group(1) in ("typename", "class") else
                            "(%s) != (%s)") % ((p.group(2),) * (1 if p.group(1) in (
                                "typename", "class") else 2))
                break
            if cond is None:
                continue
            self.edit(m.start(1), m.end(1), cond, "template",
                      "static_assert(false, ...) -> static_assert(%s, ...) in a template (false "
                      "fails where the template stands in g++; MSVC checked it only when the "
                      "template was instantiated)" % cond)

        # Member types of a dependent std::iterator base, used unqualified.
        for m in re.finditer(r"\b(class|struct)\s+([A-Za-z_]\w*)\s*:([^{};]*)\{", mask):
            t = re.search(r"\btemplate\s*<([^{};]*)>\s*$", mask[:m.start()])
            b = re.search(r"\bstd\s*::\s*iterator\s*<", m.group(3))
            if not t or not b:
                continue
            params = set(re.findall(r"(?:typename|class)\s*([A-Za-z_]\w*)", t.group(1)))
            open_at = m.start(3) + b.end() - 1
            close = match_template_head(mask, open_at)
            body_open = m.end() - 1
            body_close = match_forward(mask, body_open)
            if close is None or body_close is None:
                continue
            args = self.src.text[open_at + 1:close]
            args = re.sub(r"\btypename\s+(?=[A-Za-z_]\w*\s*(?:,|$))", "", args.strip())
            if not set(re.findall(r"\w+", args)) & params:
                continue  # not a dependent base: g++ finds its members
            body = mask[body_open + 1:body_close]
            used = []
            for name in ("iterator_category", "value_type", "difference_type", "pointer",
                         "reference"):
                if name in params or re.search(r"\b(?:typedef\b[^;]*\b%s\s*;|using\s+%s\b)" % (
                        name, name), body):
                    continue
                if re.search(r"(?<![\w.:>])%s\b" % name, body):
                    used.append(name)
            if not used:
                continue
            base = "std::iterator<%s>" % squash(args)
            decls = " ".join("typedef typename %s::%s %s;" % (base, n, n) for n in used)
            if m.group(1) == "class":
                decls = "public: " + decls + " private:"
            self.edit(body_open + 1, body_open + 1, "  // amp2hipamp: the dependent base's "
                      "member types (MSVC found them there)\n    " + decls, "template",
                      "%s uses %s of its dependent base %s unqualified: declared from the base "
                      "(MSVC looked them up there; g++ does not)" % (
                          m.group(2), ", ".join(used), base))

    # ---- std::wcout beside narrow output ----------------------------------------------------
    def port_wide_output(self):
        mask = self.src.mask
        # What makes a bare `wcout` std::wcout (`using namespace std;`, `using std::wcout;`)
        # may sit in a local header the file includes (a stdafx.h); so may narrow output.
        context = "\n".join([mask] + self.included_masks())
        names = r"(?<![\w:])std\s*::\s*wcout\b"
        std_ns = re.search(r"\busing\s+namespace\s+std\s*;", context)
        if std_ns or re.search(r"\busing\s+std\s*::\s*wcout\s*;", context):
            names += r"|(?<![\w:.])wcout\b"
        # `using std::wcout;` declares the name; it stays (the uses no longer name it).
        uses = [m for m in re.finditer(names, mask)
                if not re.search(r"\busing\s+$", mask[max(0, m.start() - 40):m.start()])]
        if not uses:
            return
        narrow = (r"(?<![\w:])std\s*::\s*cout\b|(?<![\w:.])(?:printf|puts|putchar)\s*\(|"
                  r"\busing\s+std\s*::\s*cout\s*;")
        if std_ns:
            narrow += r"|(?<![\w:.])cout\b"
        if not re.search(narrow, context):
            return  # wide output alone keeps stdout wide throughout: nothing is lost
        for m in uses:
            self.edit(m.start(), m.end(), WIDE_OUT_NAME, "wcout", None)
        self.warn(uses[0].start(), "wcout", "std::wcout beside cout/printf loses the narrow "
                  "output on glibc (stdout turns wide-oriented); rewrote %d use(s) to %s, which "
                  "narrows wide text and writes through std::cout" % (len(uses), WIDE_OUT_NAME))
        if "#define " + WIDE_OUT_GUARD in self.src.text:
            return
        # Before the first #include (one inside an #ifdef further down may not be compiled);
        # the helper includes what it needs.
        at = None
        for m in re.finditer(r"^[ \t]*#[ \t]*include[^\n]*\n", self.src.text, re.M):
            if mask[m.start() + m.group(0).index("#")] == "#":
                at = m.start()
                break
        if at is None:
            at = self.top_insertion_point()
        self.edit(at, at, WIDE_OUT_HELPER, "wcout", None)
        for m in re.finditer(r"(?<![\w:])(?:std\s*::\s*)?(wprintf|wcerr|wclog)\b", mask):
            self.warn(m.start(), "wcout", "%s beside narrow output: on glibc one stream "
                      "orientation wins; route it through narrow output" % m.group(1))

    # ---- warnings ---------------------------------------------------------------------
    # ---- kernels capturing by reference ------------------------------------------------------
    def port_captures(self, kernels):
        """A kernel lambda that captures by reference (C++ AMP's way to reach an `array`) becomes
        a by-value capture, inside a block that shadows each captured array with a
        hipamp::kernel_handle of the same name: nvcc rejects by-reference captures and
        init-captures in extended __host__ __device__ lambdas."""
        mask, text = self.src.mask, self.src.text
        seen, done_to = set(), -1
        for start, end in sorted(kernels):
            if start in seen:
                continue
            seen.add(start)
            capture = mask[start + 1:end - 1]
            items = [c.strip() for c in capture.split(",") if c.strip()]
            if "this" in items or "*this" in items:
                self.warn(start, "capture", "kernel lambda %s captures this: on a GPU the object "
                          "lives in host memory; copy the members the kernel needs into locals" %
                          squash(mask[start:end]))
            checks = self.capture_rule_checks(start, end, items)
            if "&" not in capture and not checks:
                continue
            body = self.lambda_body(end)
            if body is None:
                self.warn(start, "capture", "kernel lambda %s captures by reference and its body "
                          "was not found: rewrite the capture by hand" % squash(mask[start:end]))
                continue
            if re.search(r"(?<![\w.])this\s*->", mask[body[0]:body[1]]):
                self.warn(start, "capture", "kernel lambda uses this->: on a GPU the object lives "
                          "in host memory")
            call = self.enclosing_launch(start)
            if "&" not in capture:
                if call is not None and call[0] >= done_to:
                    self.edit(call[0], call[0], "{ " + checks, "capture", None)
                    self.edit(call[1], call[1], " }", "capture", None)
                    done_to = call[1]
                continue
            callee = callee_of_argument(mask, start)
            arrays_used = set(self.array_names(start)[0]) & set(
                re.findall(r"(?<![\w.:>])(?<!->)([A-Za-z_]\w*)", mask[body[0]:body[1]]))
            if call is None and items == ["&"] and not amp_restricted_at(mask, start) and \
                    not arrays_used and not (callee and callee.group(1) == "parallel_for_each"):
                # A restrict(amp) lambda that is not a kernel but is handed to one (the suite's
                # EVALUATE_TEST_ON_CPU_AND_GPU passes `[&] restrict(cpu,amp) { return e; }` to a
                # function that calls it on the host and inside its kernel): nvcc rejects a
                # by-reference capture in any __host__ __device__ lambda written in host code,
                # and a GPU could not reach host variables through one anyway. By value: reads
                # see the values at the lambda's creation, and a write to a captured variable
                # stops compiling (the lambda is not mutable) rather than being lost. Lambdas
                # nested in device code are left alone: nvcc accepts `[&]` there.
                self.edit(start, end, "[=]", "capture",
                          "restrict(amp) lambda capture [&] -> [=] (not a kernel: nvcc rejects "
                          "by-reference captures in __host__ __device__ lambdas; a write to a "
                          "captured variable now fails to compile)")
                continue
            if call is None or call[0] < done_to:
                self.warn(start, "capture", "kernel lambda %s captures by reference outside a "
                          "parallel_for_each(...); statement: nvcc rejects it; capture by value "
                          "and reach arrays through hipamp::kernel_handle(arr)" %
                          squash(mask[start:end]))
                continue
            arrays, unresolved = self.array_names(call[0])
            used = set(re.findall(r"(?<![\w.:>])(?<!->)([A-Za-z_]\w*)", mask[body[0]:body[1]]))
            by_ref = [i[1:].strip() for i in items if i.startswith("&") and i != "&"]
            default_ref = "&" in items
            names = set(by_ref) | (used if default_ref else set())
            # A name captured explicitly by reference (`&x`) whose type the script cannot see
            # (auto, decltype) gets the handle too: in a C++ AMP kernel only an array or a
            # texture may be captured by reference, and kernel_handle gives back a copy of
            # anything else. Names a default `[&]` captures stay reported: the script cannot
            # tell such a name's variable from a function or type of the same name.
            handles = sorted(n for n in names
                             if n in arrays or (n in by_ref and n in unresolved))
            unknown = sorted(n for n in names if n in unresolved and n not in handles)
            if unknown:
                self.warn(start, "capture", "could not tell whether %s %s C++ AMP array(s) "
                          "(declared with auto or a dependent type): captured by value; if it "
                          "is an array, wrap it in hipamp::kernel_handle by hand" %
                          (", ".join(unknown), "is a" if len(unknown) == 1 else "are"))
            new_items = []
            by_value_default = "=" in items or default_ref
            for i in items:
                if i == "&":
                    i = "="
                elif i.startswith("&"):
                    if by_value_default:
                        continue  # the default by-value capture takes it
                    i = i[1:].strip()
                elif i != "=" and by_value_default and re.fullmatch(r"[A-Za-z_]\w*", i):
                    # [&, x] became [=, ...]: an explicit copy capture beside a `=` default
                    # is ill-formed, and the default copies x anyway.
                    continue
                if i not in new_items:
                    new_items.append(i)
            self.edit(start, end, "[%s]" % ", ".join(new_items), "capture",
                      "kernel capture %s -> [%s]%s" % (
                          squash(capture and text[start:end]), ", ".join(new_items),
                          (", arrays %s through hipamp::kernel_handle" % ", ".join(handles))
                          if handles else ""))
            head = "".join("auto& hipamp_ref_%s = %s; auto %s = hipamp::kernel_handle(hipamp_ref_%s); "
                           % (n, n, n, n) for n in handles)
            self.edit(call[0], call[0], "{ " + checks + head, "capture", None)
            self.edit(call[1], call[1], " }", "capture", None)
            done_to = call[1]

    def capture_rule_checks(self, start, end, items):
        """C++ AMP's capture rules for the kernel whose capture list is mask[start:end], as code
        for the block around its launch (include/hipamp/kernel_capture.hpp): a pointer or a
        non-const scalar local captured by reference, or implicitly by value a pointer, an array
        or a texture, is shadowed by a forbidden_capture (an error only if the kernel really
        captures it); a name the list copies explicitly gets a static_assert on its type. Only
        locals whose one declaration in scope the script reads for certain are shadowed."""
        mask = self.src.mask
        call = self.enclosing_launch(start)
        body = self.lambda_body(end)
        if call is None or body is None:
            return ""
        by_ref = {i[1:].strip() for i in items if i.startswith("&") and i != "&"}
        default_ref, default_value = "&" in items, "=" in items
        copies = [i for i in items if re.fullmatch(r"[A-Za-z_]\w*", i) and i != "this"]
        if re.search(r"hipamp_ref_|hipamp::detail::", mask[mask.rfind("{", 0, call[0]):call[0]]):
            return ""  # a launch this script has ported already
        out = ['static_assert(hipamp::detail::by_value_capture<decltype(%s)>::ok, '
               '"C++ AMP capture rules"); ' % n for n in copies]
        narrow = NARROW_TYPE.search(evaluated(mask[body[0]:body[1]]))
        if narrow and not inside_template(mask, call[0]):
            # A kernel in a template is checked only where it is instantiated (as MSVC did):
            # left alone, as the script cannot tell whether it ever is.
            out.append('static_assert(hipamp::detail::amp_code_rule_broken<hipamp::detail::'
                       'amp_code_rule::narrow_type>::ok, "C++ AMP rules"); ')
            self.warn(body[0] + narrow.start(), "restrict", "kernel uses %s: C++ AMP code supports "
                      "only int, unsigned int, long, unsigned long, bool, float and double (MSVC "
                      "C3581); the port fails to compile" % squash(narrow.group(0)))
        used = kernel_uses(mask, body)
        outside = set(re.findall(r"[A-Za-z_]\w*", mask[call[0]:start] + mask[body[1]:call[1]]))
        arrays = self.array_names(call[0])[0]
        segments = None
        poisons = []
        for n in sorted((used | by_ref) - outside - set(copies)):
            implicit = n not in by_ref
            if implicit and local_kind([mask[body[0]:body[1]]], n) is not None:
                continue  # the body may declare its own n
            if implicit and not (default_ref or default_value) or n not in used and implicit:
                continue
            if segments is None:
                segments = scope_segments(blank_directives(mask), call[0])
                if segments is None:
                    return "".join(out)
            kind = local_kind(segments, n)
            if not implicit or default_ref:
                rule = "by_reference" if kind in ("scalar", "pointer") and n not in arrays else None
            else:
                rule = {"pointer": "pointer", "array": "array_by_value"}.get(kind)
            if rule:
                poisons.append((n, rule))
        for n, rule in poisons:
            out.append("auto& hipamp_ref_%s = %s; auto %s = hipamp::detail::forbid_capture<"
                       "hipamp::detail::capture_rule::%s>(hipamp_ref_%s); " % (n, n, n, rule, n))
            self.warn(start, "capture", {
                "by_reference": "kernel captures %s by reference: C++ AMP allows only an array or "
                                "a texture there (MSVC C3590); the port fails to compile",
                "pointer": "kernel captures the pointer %s: C++ AMP forbids it (MSVC C3596); the "
                           "port fails to compile",
                "array_by_value": "kernel captures the array %s by value: C++ AMP forbids it "
                                  "(MSVC C3597); the port fails to compile"}[rule] % n)
        return "".join(out)

    def check_views_without_source(self):
        """`array_view<T, N> v(16, 16)` in amp-restricted code: C++ AMP makes an array_view
        without a data source only on the CPU (its constructors are restrict(cpu); MSVC C3930).
        Only the form the script reads for certain counts, N integer literals; a static_assert
        naming the rule follows the declaration. Code inside templates is left alone."""
        mask = self.src.mask
        decl = re.compile(r"(?<![\w:])(?:%s\s*::\s*)?array_view\s*<" % self.amp_namespaces() +
                          r"[^;{}()<>]*?,\s*(\d)\s*>\s*[A-Za-z_]\w*\s*\(\s*(\d+\s*(?:,\s*\d+\s*)*)\)\s*;")
        for m in decl.finditer(mask):
            if len(m.group(2).split(",")) != int(m.group(1)) or self.src.in_directive(m.start()):
                continue
            if not amp_restricted_at(mask, m.start()) or inside_template(mask, m.start()):
                continue
            if mask.startswith(" static_assert(hipamp::detail::amp_code_rule_broken", m.end()):
                continue
            self.edit(m.end(), m.end(), ' static_assert(hipamp::detail::amp_code_rule_broken<'
                      'hipamp::detail::amp_code_rule::view_without_data_source>::ok, '
                      '"C++ AMP rules");', "restrict", None)
            self.warn(m.start(), "restrict", "an array_view without a data source made in "
                      "amp-restricted code: C++ AMP makes those only on the CPU (MSVC C3930); the "
                      "port fails to compile")

    def port_kernel_member_access(self, kernels):
        """nvcc rejects an extended lambda (every kernel, after the port) whose enclosing function
        is a private or protected member of its class. Such a member function is made public:
        `public:` before it and its old access label after it, so the rest of the class keeps
        its access. Access decides no overload, so the program means what it meant."""
        mask = self.src.mask
        done = set()
        for start, _ in kernels:
            blocks = list(enclosing_blocks(mask, start))
            for k, (brace, head) in enumerate(blocks):
                if is_function_head(head):
                    break
            else:
                continue
            if brace in done or k + 1 >= len(blocks) or re.search(r"\]\s*(?:\([^()]*\))?[^()\]]*$", head[:head.rfind("(")] if "(" in head else head):
                continue  # a lambda's body: nvcc's parent function is further out; left alone
            class_brace, class_head = blocks[k + 1]
            kind = re.search(r"(?<!enum)\s\b(class|struct)\s+[A-Za-z_]\w*[^;{}()]*$", " " + class_head)
            if not kind:
                continue
            done.add(brace)
            head_start = brace - len(head)
            access = "private" if kind.group(1) == "class" else "public"
            labels = re.compile(r"\b(public|private|protected)\s*:(?!:)")
            for label in labels.finditer(mask, class_brace + 1, head_start + len(head)):
                between = mask[class_brace + 1:label.start()]
                if between.count("{") == between.count("}"):
                    access = label.group(1)
            if access == "public":
                continue
            labels_in_head = list(re.finditer(r"\b(?:public|private|protected)\s*:(?!:)", head))
            first = head_start + (labels_in_head[-1].end() if labels_in_head else 0)
            first += len(mask[first:brace]) - len(mask[first:brace].lstrip())
            close = match_forward(mask, brace)
            if close is None:
                continue
            after = close + 1
            while mask[after:after + 1] == ";":
                after += 1  # `void f() { ... };`
            self.make_member_public(first, after, access,
                                    "%s member function holding a kernel made public (nvcc "
                                    "rejects an extended lambda in a %s member)" % (access, access))

    def make_member_public(self, first, after, access, why):
        """`public:` before the member starting at first (on a line of its own where the member
        starts one) and its old access label `access:` at after, so the rest of the class keeps
        its access: nvcc launches kernels only from public member functions."""
        mask = self.src.mask
        line_start = mask.rfind("\n", 0, first) + 1
        insert_at, text = (line_start, "") if not mask[line_start:first].strip() else (first, "\n")
        self.edit(insert_at, insert_at, text + "public:  // amp2hipamp: nvcc launches kernels only "
                  "from public member functions\n", "capture", why)
        self.edit(after, after, "\n%s:" % access, "capture", None)

    def port_out_of_line_kernel_members(self):
        """port_kernel_member_access for a member function defined outside its class
        (aes128bcppamp's AES128AMP.h declares `void AMPEncrypt(unsigned int puIndex);` under
        private:, and AES128AMP.cpp's `void AES128AMP::AMPEncrypt(...)` launches the kernel):
        nvcc rejects the kernel, and the cure is in the header, which the tool ports on its
        own. A class that declares a private or protected member function which the file itself
        or, for a header, a source beside it that includes it defines with a kernel
        (kernel_member_definitions, out_of_line_kernel_members) gets `public:` before that
        declaration and the old access label after it."""
        mask = self.src.mask
        classes = list(re.finditer(r"(?<![\w:])(?:class|struct)\s+([A-Za-z_]\w*)[^;{}()]*\{", mask))
        if not classes:
            return
        wanted = None
        for c in classes:
            if self.src.in_directive(c.start()):
                continue
            class_brace = c.end() - 1
            close = match_forward(mask, class_brace)
            if close is None:
                continue
            access = "private" if re.match(r"(?:class)\b", mask[c.start():]) else "public"
            depth, seg = 0, class_brace + 1
            for i in range(class_brace + 1, close):
                ch = mask[i]
                if ch in "({[":
                    depth += 1
                elif ch in ")}]":
                    depth -= 1
                    if depth == 0 and ch == "}":
                        seg = i + 1
                    continue
                if depth:
                    continue
                label = re.match(r"\b(public|private|protected)\s*:(?!:)", mask[i:i + 24])
                if label and not is_ident_char(mask, i - 1):
                    access, seg = label.group(1), i + label.end()
                    continue
                if ch != ";":
                    continue
                decl, start, seg = mask[seg:i], seg, i + 1
                if access == "public":
                    continue
                d = re.match(r"\s*(?:(?:virtual|static|inline)\s+)*[^;=]*?(?<![\w:~])([A-Za-z_]\w*)\s*\(",
                             decl)
                if not d or d.group(1) in ("operator", c.group(1)) or "::" in decl[:d.end()]:
                    continue
                if wanted is None:
                    # The file's own definitions, and a header's in the sources that include it.
                    wanted = kernel_member_definitions(mask)
                    if self.path not in ("-", "") and \
                            os.path.splitext(self.path)[1].lower() in HEADER_EXT:
                        wanted |= out_of_line_kernel_members(self.path)
                if (c.group(1), d.group(1)) not in wanted:
                    continue
                self.make_member_public(
                    start + len(decl) - len(decl.lstrip()), i + 1, access,
                    "%s member function %s::%s, whose definition out of its class holds a kernel, "
                    "made public (nvcc rejects an extended lambda in a %s member)"
                    % (access, c.group(1), d.group(1), access))

    def check_divergent_barriers(self):
        """`if (t.local[0] % 2 == 0) { ... t.barrier.wait(); }`: a tile barrier under control
        flow that depends on the work-item, which C++ AMP rejects (MSVC C3561: the work-items of
        a tile must all reach the same barriers; on a GPU the rest hang or run on). The script
        reads the conditions of the control statements around each `X.barrier.wait*()` in its
        function: one that names X.local or X.global (or a tiled_index parameter's), or a local
        computed from them (by assignment, to a fixed point), is divergent; idx.tile and
        everything else count as uniform, so a program MSVC accepted is never flagged. A
        static_assert naming the rule opens the function's body; in a template it depends on
        the template's parameters, so only an instantiation fails (as with MSVC). The CPU
        device still catches at run time what this reading cannot see."""
        mask = self.src.mask
        flagged = set()
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\.\s*barrier\s*\.\s*wait\w*\s*\(", mask):
            if self.src.in_directive(m.start()) or not amp_restricted_at(mask, m.start()):
                continue
            body, head, controls = None, "", []
            for brace, block_head in enclosing_blocks(mask, m.start()):
                if is_function_head(block_head):
                    body, head = brace, block_head
                    break
                controls.append((brace, block_head))
            if body is None or body in flagged:
                continue
            close = match_forward(mask, body)
            if close is None:
                continue
            conditions = [c for brace, h in controls for c in self.control_conditions(brace, h, close)]
            conditions += self.control_conditions(m.start(), statement_prefix(mask, body, m.start()), close)
            sources = {m.group(1)} | set(re.findall(r"tiled_index\s*<[^<>]*>\s*(?:const\s*)?&?\s*(\w+)", head))
            tainted = tainted_locals(mask[body:close], sources)
            divergent = [c for c in conditions if names_work_item(c, sources, tainted)]
            if not divergent:
                continue
            flagged.add(body)
            if "amp_code_rule::divergent_barrier" in mask[body:close]:
                continue  # ported before
            params = template_parameter_names(mask, body + 1)
            self.edit(body + 1, body + 1, " static_assert(hipamp::detail::amp_code_rule_broken<"
                      "hipamp::detail::amp_code_rule::divergent_barrier%s>::ok, \"C++ AMP rules\");" %
                      "".join(", " + p for p in params), "restrict", None)
            self.warn(m.start(), "restrict", "%s.barrier.wait() under `%s`, which depends on the "
                      "work-item: C++ AMP requires every work-item of a tile to reach the same "
                      "barriers (MSVC C3561); the port fails to compile" %
                      (m.group(1), squash(divergent[0])[:80]))

    def control_conditions(self, at, head, limit):
        """The conditions that decide whether code at `at` runs, read from the text `head`
        just before it (a block's head or a statement's prefix): `if (c)`, `while (c)`,
        `for (a; c; b)`, `switch (c)`, the `if` an `else` belongs to, a `do`'s `while (c)`."""
        mask = self.src.mask
        out = []
        for kw in re.finditer(r"\b(if|while|for|switch)\s*\(", head):
            close = match_forward(head, kw.end() - 1)
            if close is None:
                continue
            condition = head[kw.end():close]
            if kw.group(1) == "for":
                # Every work-item runs the init and the increment; the condition decides.
                parts = split_top_level(condition, ";")
                condition = parts[1] if len(parts) == 3 else ""
            out.append(condition)
        if re.search(r"\belse\s*$", head):
            # The if's block closes just before the else.
            start = at - len(head)
            prev = mask.rfind("}", 0, start + head.rfind("else"))
            if prev >= 0:
                opening = match_back(mask, prev, "{", "}")
                if opening is not None:
                    if_head = statement_prefix(mask, 0, opening)
                    out += [c for c in self.control_conditions(opening, if_head, limit)]
        if re.search(r"\bdo\s*$", head) and mask[at] == "{":
            close = match_forward(mask, at)
            tail = re.match(r"\s*while\s*\(", mask[close + 1:]) if close is not None else None
            if tail:
                end = match_forward(mask, close + tail.end())
                if end is not None:
                    out.append(mask[close + 1 + tail.end():end])
        return out

    def lambda_body(self, capture_end):
        """(start, end) of the braces of the lambda whose capture ends at capture_end."""
        mask = self.src.mask
        i = capture_end
        while i < len(mask) and mask[i] != "{":
            if mask[i] == "(":
                close = match_forward(mask, i)
                if close is None:
                    return None
                i = close
            elif mask[i] in ";)}":
                return None
            i += 1
        close = match_forward(mask, i) if i < len(mask) else None
        return None if close is None else (i, close + 1)

    def amp_namespaces(self):
        """Regex alternation of the names that qualify C++ AMP's namespace here: concurrency,
        Concurrency, hipamp and each alias declared for them in this file or the local headers
        it includes (`namespace amp = Concurrency;` then `amp::parallel_for_each`, `amp::array`).
        Without the aliases, a launch qualified by one was split after the alias (`amp::{
        parallel_for_each(...); }`) and arrays declared through one were not seen as arrays."""
        if not hasattr(self, "_amp_namespaces"):
            names = ["concurrency", "Concurrency", "hipamp"]
            for t in [self.src.mask] + self.included_masks():
                for m in re.finditer(r"\bnamespace\s+([A-Za-z_]\w*)\s*=\s*(?:::\s*)?"
                                     r"(?:concurrency|Concurrency|hipamp)\s*;", t):
                    if m.group(1) not in names:
                        names.append(m.group(1))
            self._amp_namespaces = "(?:%s)" % "|".join(names)
        return self._amp_namespaces

    def enclosing_launch(self, offset):
        """(start, end) of the `parallel_for_each(...);` statement holding offset, where end is
        just past the semicolon; None when the lambda is not an argument of one."""
        mask = self.src.mask
        for m in reversed(list(re.finditer(
                r"(?:(?:::\s*)?%s\s*::\s*)?parallel_for_each\s*\(" % self.amp_namespaces(),
                mask[:offset]))):
            close = match_forward(mask, m.end() - 1)
            if close is None or close < offset:
                continue
            semi = re.match(r"\s*;", mask[close + 1:])
            if not semi:
                return None
            # Any other qualifier (an alias from a header the script cannot read, a namespace
            # of its own) belongs to the statement too: a block opened after it would split
            # the qualified name.
            start = m.start()
            while True:
                q = re.search(r"(?:::\s*)?[A-Za-z_]\w*\s*::\s*$", mask[:start])
                if not q:
                    break
                start = q.start()
            before = mask[:start].rstrip()
            if before and before[-1] not in ";{}):" and not before.endswith("else"):
                return None  # part of a larger expression
            return (start, close + 1 + semi.end())
        return None

    def array_names(self, offset):
        """Names declared as C++ AMP arrays before offset in its function (parameters, locals)
        or at file scope, in this file and the local headers it includes; and the names
        declared with auto/decltype there, which the script cannot resolve."""
        texts = [self.src.mask[:offset]] + self.header_masks()
        arrays, unresolved = set(), set()
        # A texture is captured by reference like an array (C++ AMP forbids copying either).
        decl = re.compile(r"(?<![\w:])(?<!std::)(?:%s\s*::\s*)?" % self.amp_namespaces() +
                          r"(?:graphics\s*::\s*)?(?:array|texture)\s*<[^;{}()]*?>\s*(?:const\s*)?&{0,2}\s*"
                          r"([A-Za-z_]\w*)\s*(?=[;,)({=\[])")
        for t in texts:
            for m in decl.finditer(t):
                arrays.add(m.group(1))
                arrays |= more_declarators(t, m.end())
            unresolved |= set(re.findall(r"\b(?:auto|decltype\s*\([^()]*\))\s*&{0,2}\s*"
                                         r"([A-Za-z_]\w*)\s*[=;(]", t))
        return arrays, unresolved

    def included_masks(self):
        """Masks of the local headers this file includes, directly or not."""
        if not hasattr(self, "_included_masks"):
            self._included_masks = [] if self.path in ("-", "") else masks_of(
                sorted(self.transitive_includes()))
        return self._included_masks

    def header_masks(self):
        """Masks of the local headers this file includes directly (a quoted #include)."""
        if not hasattr(self, "_header_masks"):
            base = os.path.dirname(os.path.abspath(self.path))
            self._header_masks = masks_of(
                os.path.join(base, self.resolve_include(m.group(1)) or m.group(1))
                for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', self.src.text,
                                     re.M))
        return self._header_masks


    # ---- MSVC's permissive parsing: rvalues to non-const references ------------------------
    def port_view_references(self):
        """`void f(array_view<T, 1>& v)` called as `f(array_view<T, 1>(a))`: MSVC binds a
        temporary to a non-const lvalue reference, g++ and nvcc do not. An array_view is a
        handle whose accessors and discard_data/synchronize are const, so the parameter becomes
        `const array_view<T, 1>&`; where the function assigns or swaps the parameter itself, it
        takes the view by value (the caller's view then keeps its identity: warned)."""
        mask = self.src.mask
        lists = {}
        for m in view_ref_matches(mask, 0, len(mask)):
            if self.src.in_directive(m.start()):
                continue
            f = function_around(mask, m.start())
            if f is not None:
                lists.setdefault(f[1], f)
        # One decision per function, so that its declarations and its definition agree.
        modified = {name for name, params, body, _ in lists.values()
                    if view_params_modified(mask, params, body)}
        passed_on = {name for name, params, body, _ in lists.values()
                     if view_params_passed_on(mask, params, body)}
        # A constructor binding the parameter to a reference member (`array_view<int>& c_;`
        # initialised `c_(c)`, HCC's Design/pass_by_ref) needs the non-const reference: a
        # const one does not bind to the member, a copy would leave it dangling. Its callers
        # pass named views, which MSVC's rule never concerned.
        bound = {name for name, params, body, _ in lists.values()
                 if view_params_bound_to_reference_members(mask, params, body)}
        for name, params, body, _ in lists.values():
            if name in bound:
                continue
            by_value = name in modified or name in passed_on
            for start, end, new in rewrite_view_params(mask, params[0], params[1], by_value):
                self.edit(start, end, new, "msvc", "parameter %s -> %s in %s (MSVC binds "
                          "temporaries to non-const references; g++ and nvcc do not)" % (
                              squash(self.src.text[start:end]), squash(new), name))
            if name in modified and body is not None:
                self.warn(params[0], "msvc", "%s assigns or swaps an array_view parameter it "
                          "took by non-const reference: it now takes the view by value, so a "
                          "caller passing a named view no longer sees the view replaced" % name)

    # ---- MSVC's late parsing of templates: names used before their declaration ------------
    def port_declaration_order(self):
        """MSVC parsed a template's body only when it was instantiated, so headers call
        `details::f<...>(...)` before `namespace details` declares f, and use names that a
        header included later declares. g++ and nvcc look up non-dependent names where the
        template is defined. Functions and class templates used before their declaration get
        a forward declaration just before the declaration that first uses them; an enumeration
        (whose enumerators cannot be declared ahead) moves there; names declared only in a
        sibling header the file does not include are declared ahead the same way, or, for an
        enumeration, the file includes that header."""
        mask, text = self.src.mask, self.src.text
        scan = scan_namespace_scope(mask, self.src)
        own = scan["entities"]
        included = self.transitive_includes()
        declared_elsewhere = set()
        for path in included:
            s = scan_file(path)
            if s:
                declared_elsewhere |= {(e["path"], e["name"]) for e in s["entities"]}
        siblings = {}
        for path in self.sibling_headers():
            if path in included:
                continue
            s = scan_file(path)
            if s:
                siblings[path] = s
        names = {e["name"] for e in own}
        for s in siblings.values():
            names |= {e["name"] for e in s["entities"]}
        if not names:
            return
        needs = {}      # (path, name, file) -> first use offset  (file None: this file)
        pattern = re.compile(r"(?<![\w.])(?<!->)((?:[A-Za-z_]\w*\s*::\s*)*)\b(%s)\b" %
                             "|".join(sorted(map(re.escape, names), key=len, reverse=True)))
        for m in pattern.finditer(mask):
            u = m.start(2)
            if self.src.in_directive(u) or mask[:m.start()].rstrip().endswith("::"):
                continue
            name = m.group(2)
            quals = [q.strip() for q in m.group(1).split("::") if q.strip()]
            after = mask[m.end():m.end() + 40].lstrip()
            scope = scope_at(scan, u)
            if any(e["name"] == name and e["start"] <= u < e["head_end"] for e in own):
                continue  # its own declaration
            def visible(e):
                p = e["path"]
                if quals:
                    if tuple(p[len(p) - len(quals):]) != tuple(quals) or len(quals) > len(p):
                        return False
                    p = p[:len(p) - len(quals)]
                return tuple(scope[:len(p)]) == tuple(p)
            def fits(e):
                if e["kind"] == "function":
                    return after[:1] in ("(", "<")
                if e["kind"] == "class":
                    return after[:1] in ("<", ":") or not e["template"]
                return not after.startswith("(")
            mine = [e for e in own if e["name"] == name and visible(e) and fits(e)]
            if mine:
                if any(e["start"] < u for e in mine):
                    continue  # declared before this use
                for e in mine:
                    needs.setdefault((e["path"], name, None), u)
                continue
            if any((tuple(scope[:k]) + tuple(quals), name) in declared_elsewhere
                   for k in range(len(scope) + 1)):
                continue
            found = [(f, e) for f, s in siblings.items() for e in s["entities"]
                     if e["name"] == name and visible(e) and fits(e)]
            files = sorted({f for f, _ in found})
            if len(files) == 1:
                for f, e in found:
                    needs.setdefault((e["path"], name, f), u)
        if not needs:
            return
        # Enumerations from a sibling: include that header (when it does not include this one).
        include_files = set()
        for (path, name, f), u in needs.items():
            if f is not None and any(e["kind"] in ("enum", "enumerator") for e in
                                     siblings[f]["entities"] if e["name"] == name):
                include_files.add(f)
        here = os.path.dirname(os.path.abspath(self.path))
        for f in sorted(include_files):
            if os.path.abspath(self.path) in transitive_includes_of(f):
                self.warn(0, "msvc", "uses an enumeration of %s, which includes this file: "
                          "move the enumeration to a header both include" % os.path.basename(f))
                continue
            at = self.after_last_include()
            rel = os.path.relpath(f, here).replace(os.sep, "/")
            self.edit(at, at, '#include "%s"  // amp2hipamp: declares names this file uses '
                      '(MSVC looked them up late)\n' % rel, "msvc",
                      'added #include "%s": it declares %s, which this file uses before any '
                      'header it includes declares it' % (rel, ", ".join(sorted(
                          n for (_, n, g) in needs if g == f))))
        # Forward declarations and moved enumerations, grouped by where they go.
        groups = {}
        done = set()
        declared_classes = set()  # (path, name, file): a class template is declared once
        written = set()  # (where, declaration)
        work = sorted(needs.items(), key=lambda kv: kv[1], reverse=True)
        while work:
            (path, name, f), u = work.pop()
            if f in include_files:
                continue
            entities = own if f is None else siblings[f]["entities"]
            src_text = text if f is None else siblings[f]["text"]
            src_mask = mask if f is None else siblings[f]["mask"]
            for e in entities:
                if e["name"] != name or e["path"] != path:
                    continue
                if e["kind"] == "enumerator":
                    e = e["enum"]
                if id(e) in done or e.get("specialization"):
                    continue
                if f is None and e["start"] < u:
                    continue
                if e["kind"] == "class" and (path, name, f) in declared_classes:
                    continue
                done.add(id(e))
                at, scope = insertion_point(scan, u, e["path"])
                if at is None:
                    self.warn(u, "msvc", "%s is used before its declaration; could not find "
                              "where to declare it ahead: declare it by hand" % name)
                    continue
                if e["kind"] == "enum":
                    if f is not None:
                        continue
                    why = enum_not_movable(e, src_mask)
                    if why or any(e["start"] <= x[0] < e["end"] or e["start"] < x[1] <= e["end"]
                                  for x in self.edits):
                        self.warn(u, "msvc", "%s is used before its enumeration %s is "
                                  "defined, which cannot be moved (%s): move it by hand" % (
                                      name, e["name"], why or "other rewrites inside"))
                        continue
                    decl = src_text[e["start"]:e["end"]]
                    first = mask.rfind("\n", 0, e["start"]) + 1
                    last = mask.find("\n", e["end"])
                    last = len(mask) if last < 0 else last + 1
                    if mask[first:e["start"]].strip() or mask[e["end"]:last].strip():
                        first, last = e["start"], e["end"]
                    self.edit(first, last, "", "msvc", None)
                    note = "enumeration %s moved before its first use (its enumerators cannot " \
                           "be declared ahead)" % e["name"]
                else:
                    decl = forward_declaration(e, src_text, src_mask)
                    if decl is None:
                        self.warn(u, "msvc", "%s is used before its declaration; could not "
                                  "declare it ahead (default arguments or literals in its head): "
                                  "declare it by hand" % name)
                        continue
                    decl = self.finish_declaration(decl)
                    note = "declared %s ahead of its first use%s" % (
                        "::".join(e["path"] + (e["name"],)),
                        "" if f is None else " (from %s)" % os.path.basename(f))
                    if e["kind"] == "class":
                        declared_classes.add((path, name, f))
                    else:
                        # The declaration itself may name a class template defined later
                        # (a function returning an iterator class declared after it): that
                        # class is declared ahead at the same place, before the function.
                        for c in entities:
                            if c["kind"] == "class" and c["template"] and \
                                    re.search(r"(?<![\w:])%s\s*<" % re.escape(c["name"]), decl) and \
                                    tuple(e["path"][:len(c["path"])]) == c["path"] and \
                                    (c["path"], c["name"], f) not in declared_classes and \
                                    (f is not None or c["start"] >= at):
                                work.append(((c["path"], c["name"], f), at))
                if (at, decl) in written:
                    continue  # a sibling declares it twice (ahead, and where it is defined)
                written.add((at, decl))
                groups.setdefault(at, []).append((e["kind"] != "enum", e["kind"] != "class",
                                                  scope, e["path"], decl, note))
        for at, items in sorted(groups.items()):
            # Enumerations first, then class templates: a function's signature may name them.
            items = [i[2:] for i in sorted(items, key=lambda i: i[:2])]
            line = mask.rfind("\n", 0, at) + 1
            indent = text[line:at] if not mask[line:at].strip() else ""
            out = []
            for scope, path, decl, note in items:
                inner = path[len(scope):]
                out.append("".join("namespace %s { " % n for n in inner) + decl +
                           " }" * len(inner))
                self.edit(at, at, "", "msvc", note)
            self.edit(at, at, ("\n" + indent).join(out) + "  // amp2hipamp: declared ahead "
                      "(MSVC parsed templates late)\n" + indent, "msvc", None)

    def finish_declaration(self, decl):
        """What the other rules would do to the declaration's text, so that a second run
        leaves it alone."""
        directive = re.search(r"\busing\s+namespace\s+(?:::\s*)?(concurrency|Concurrency)\s*;",
                              self.src.mask)
        qualifier = (directive.group(1) if directive else "concurrency") + "::"
        decl = re.sub(r"(?<![\w:.])(?<!->)index(?=\s*<)", qualifier + "index", decl)
        # The qualify rule's C++ AMP names (a file without `using namespace concurrency;`):
        # the declaration is copied from the definition's original text.
        for m in reversed(self.unqualified_amp_names(decl)):
            decl = decl[:m.start()] + "concurrency::" + decl[m.start():]
        for a, b, _ in reversed(unsigned_rank_parameters(decl)):
            decl = decl[:a] + "int" + decl[b:]
        for at in reversed(self.norm_type_uses(decl)):
            decl = decl[:at] + "concurrency::graphics::" + decl[at:]
        return decl

    def after_last_include(self):
        """The start of the line after the last #include before the first line of code."""
        mask = self.src.mask
        at = None
        for m in re.finditer(r"^[ \t]*#[ \t]*include[^\n]*\n", mask, re.M):
            code = re.search(r"^[ \t]*[^\s#]", mask[:m.start()], re.M)
            if code and not self.src.in_directive(code.start() + len(code.group(0)) - 1):
                break
            at = m.end()
        return at if at is not None else self.top_insertion_point()

    def names_a_non_integral_constant(self, args, at):
        """Whether `<args>` (the text after index or extent) is one name declared before `at`
        with a type that is not an integer (ampblas's `const enum class order S =
        order::col_major;` before `index<S>(0, m1)`): C++ AMP's rank is an int, so that
        index<S> is the program's own function, not concurrency::index."""
        m = re.match(r"\s*<\s*([A-Za-z_]\w*)\s*>", args)
        if not m:
            return False
        decl = None
        for decl in re.finditer(r"\b([A-Za-z_]\w*)\s+(?:const\s+)?%s\s*[=;,>)]" % re.escape(m.group(1)),
                                self.src.mask[:at]):
            pass
        if decl is None:
            return False
        word = decl.group(1)
        if word in ("int", "unsigned", "signed", "long", "short", "char", "bool", "size_t",
                    "ptrdiff_t", "intptr_t", "uintptr_t", "size_type", "auto", "const",
                    "constexpr", "static", "typename", "class", "return", "case", "using",
                    "typedef", "else", "define", "uint", "UINT", "INT", "DWORD", "ULONG", "LONG",
                    "SIZE_T") or re.fullmatch(r"u?int(?:8|16|32|64)_t|U?INT(?:8|16|32|64)", word):
            return False
        # a name this file defines as an integer type (`typedef unsigned int rank_t;`)
        return not re.search(r"\btypedef\s+(?:(?:const|unsigned|signed|long|short|int|char|"
                             r"std\s*::\s*)\s*)*\w*\s+%s\s*;|\busing\s+%s\s*=\s*(?:(?:unsigned|"
                             r"signed|long|short|std\s*::\s*)\s*)*(?:int|char|size_t|u?int\d+_t)\b" % (
                                 re.escape(word), re.escape(word)), self.src.mask)

    def own_function_names(self):
        """Names of the namespace-scope functions this file, the headers it includes and the
        headers beside them declare."""
        if getattr(self, "_own_function_names", None) is None:
            scans = [scan_namespace_scope(self.src.mask, self.src)]
            if self.path not in ("-", ""):
                scans += [scan_file(p) for p in sorted(self.transitive_includes())]
                scans += [scan_file(p) for p in self.sibling_headers()]
            self._own_function_names = {e["name"] for s in scans if s for e in s["entities"]
                                        if e["kind"] == "function"}
        return self._own_function_names

    def transitive_includes(self):
        return transitive_includes_of(os.path.abspath(self.path)) - {os.path.abspath(self.path)}

    def sibling_headers(self):
        """Headers beside this file and beside the local headers it includes."""
        if self.path in ("-", ""):
            return []
        dirs = {os.path.dirname(os.path.abspath(self.path))}
        dirs |= {os.path.dirname(p) for p in self.transitive_includes()}
        out = []
        for d in sorted(dirs):
            try:
                names = sorted(os.listdir(d))
            except OSError:
                continue
            out += [os.path.join(d, n) for n in names if n.lower().endswith(HEADER_EXT)
                    and os.path.join(d, n) != os.path.abspath(self.path)]
        return out

    def check_unsupported(self):
        for pattern, rule, message in UNSUPPORTED:
            # Header names in <...> survive the mask; in "..." they are blanked, so look at the
            # text there (and make sure the # is code, not comment).
            haystack = self.src.text if pattern.startswith("#") else self.src.mask
            for m in re.finditer(pattern, haystack):
                if self.src.mask[m.start()] != haystack[m.start()]:
                    continue
                if any(e[0] <= m.start() < e[1] for e in self.edits):
                    continue  # rewritten (a REF-device check, an HLSL intrinsic)
                if rule == "direct3d_ref" and re.search(r"(?:==|!=)\s*(?:[\w:\s]*::)?\s*$", self.src.mask[:m.start()]):
                    continue  # compares device paths: fine as it is
                line = self.src.line_of(m.start())
                if any(w[1] == rule and self.src.line_of(w[0]) == line for w in self.warnings):
                    continue  # one warning per rule and line: the most specific comes first
                self.warn(m.start(), rule, message)


# ---- MSVC's permissive parsing: helpers ---------------------------------------------------
HEADER_EXT = (".h", ".hpp", ".hxx", ".inl")
VIEW_REF = re.compile(r"(?<![\w:])((?:(?:concurrency|Concurrency|hipamp)\s*::\s*)?"
                      r"array_view\s*<[^;{}()<>]*>)(\s*)&(?!&)")
NOT_FUNCTIONS = {"if", "while", "for", "switch", "return", "sizeof", "decltype", "alignof",
                 "alignas", "restrict", "__declspec", "__attribute__", "static_assert", "catch",
                 "operator", "new", "delete", "throw", "noexcept", "defined"}


def view_ref_matches(mask, lo, hi):
    """The `array_view<...>&` parameters (non-const) in mask[lo:hi]."""
    out = []
    for m in VIEW_REF.finditer(mask, lo, hi):
        if re.search(r"\bconst\s*$", mask[:m.start()]) or re.match(r"\s*const\b", mask[m.end(1):]):
            continue
        if re.match(r"\s*(?:[A-Za-z_]\w*\s*\(|operator\b)", mask[m.end():]):
            continue  # a function returning a reference
        out.append(m)
    return out


def view_ref_param_names(mask, params):
    """The names of the non-const `array_view<...>&` parameters in the list params (the
    offsets of its parentheses), in order."""
    names = []
    for m in view_ref_matches(mask, params[0], params[1]):
        name = re.match(r"\s*([A-Za-z_]\w*)", mask[m.end():])
        if name:
            names.append(name.group(1))
    return names


def view_params_passed_on(mask, params, body):
    """Whether the body passes one of the array_view& parameters, whole, as an argument of a
    call. A const& parameter could not go on to a function that takes the view (or, through a
    template, any container) by non-const reference, as the conformance suite's CopyTestFlow.h
    does (`ModifyOnCpu(av)` with `template <template <typename, int> class C, ...>
    void ModifyOnCpu(C<T, N>&)`): such a function takes the view by value instead, a copy of
    the handle, which its callees may bind to a non-const reference."""
    if body is None:
        return False
    inner = mask[body[0]:body[1]]
    for name in view_ref_param_names(mask, params):
        if re.search(r"\w\s*(?:<[^;{}()]*>)?\s*\((?:[^;()]*,)?\s*%s\s*[,)]" % re.escape(name),
                     inner):
            return True
    return False


def view_params_bound_to_reference_members(mask, params, body):
    """Whether a constructor's member initializer list (between its parameter list and its
    body) binds one of the array_view& parameters to a member its class declares as a
    reference to an array_view (`array_view<int, 2>& c_;`)."""
    if body is None:
        return False
    inits = mask[params[1] + 1:body[0]]
    if not re.match(r"\s*:", inits):
        return False
    names = set(view_ref_param_names(mask, params))
    # The members of the class around the constructor; the whole file for one defined
    # outside its class.
    braces = list(enclosing_braces(mask, params[0]))
    close = match_forward(mask, braces[0]) if braces else None
    members = mask[braces[0]:close] if close is not None else mask
    for member, arg in re.findall(r"([A-Za-z_]\w*)\s*[({]\s*([A-Za-z_]\w*)\s*[)}]", inits):
        if arg in names and re.search(r"\barray_view\s*<[^;{}()]*>\s*&\s*%s\s*[;,=]" % re.escape(member),
                                      members):
            return True
    return False


def view_params_modified(mask, params, body):
    """Whether the body assigns, swaps or increments one of the array_view& parameters."""
    if body is None:
        return False
    inner = mask[body[0]:body[1]]
    for name in view_ref_param_names(mask, params):
        p = re.escape(name)
        if re.search(r"\bswap\s*\([^;]*\b%s\b" % p, inner) or \
                re.search(r"(?<![\w.>])%s\s*(?:=(?!=)|\+\+|--)" % p, inner):
            return True
    return False


def function_around(mask, offset):
    """For an offset in a parameter list: (name, (open, close) of the list, body span or None,
    name start); None when the parentheses are not a function's or lambda's parameter list."""
    depth, i = 0, offset
    while i > 0:
        i -= 1
        c = mask[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            if depth == 0:
                break
            depth -= 1
        elif c in ";{}" and depth == 0:
            return None
    if mask[i] != "(":
        return None
    open_ = i
    close = match_forward(mask, open_)
    if close is None:
        return None
    j = skip_space_back(mask, open_) - 1
    name = None
    if j >= 0 and mask[j] == ">":
        less = match_angle_back(mask, j)
        if less is None:
            return None
        j = skip_space_back(mask, less) - 1
    if j >= 0 and mask[j] == "]":
        name = "<lambda>"
        name_start = j
    else:
        m = re.search(r"([A-Za-z_]\w*)\s*$", mask[:j + 1])
        if not m or m.group(1) in NOT_FUNCTIONS:
            return None
        name, name_start = m.group(1), m.start(1)
    k = close + 1
    tail = re.compile(r"\s*(?:const\b|mutable\b|noexcept\b|restrict\s*\([^()]*\)|%s\b|__GPU(?:_ONLY)?\b|"
                      r"__CPU_ONLY\b|->[^{;]*?(?=\{|;))" % RESTRICT_MACRO)
    while True:
        t = tail.match(mask, k)
        if not t or t.end() == k:
            break
        k = t.end()
    rest = re.match(r"\s*([{;:=])", mask[k:])
    if not rest:
        return None
    body = None
    if rest.group(1) == "{":
        b = k + rest.start(1)
        e = match_forward(mask, b)
        body = None if e is None else (b, e + 1)
    elif rest.group(1) == ":":  # constructor initialisers
        b = mask.find("{", k)
        e = match_forward(mask, b) if b >= 0 else None
        body = None if e is None else (b, e + 1)
    return name, (open_, close), body, name_start


def rewrite_view_params(mask, lo, hi, by_value):
    """[(start, end, replacement)] for the non-const array_view& parameters in mask[lo:hi]."""
    out = []
    for m in view_ref_matches(mask, lo, hi):
        if by_value:
            new = m.group(1) + (" " if not mask[m.end():m.end() + 1].isspace() else "")
        else:
            new = "const " + m.group(1) + m.group(2) + "&"
        out.append((m.start(), m.end(), new))
    return out


def blank_directives(mask):
    lines, out, continued = mask.split("\n"), [], False
    for line in lines:
        if continued or line.lstrip().startswith("#"):
            continued = line.rstrip().endswith("\\")
            out.append(" " * len(line))
        else:
            continued = False
            out.append(line)
    return "\n".join(out)


def scan_namespace_scope(mask, src=None):
    """The declarations at namespace scope: functions, classes, enumerations and their
    enumerators, each with its namespace path; the namespace blocks; and every statement at
    namespace scope (path, start, end)."""
    m = blank_directives(mask)
    result = {"entities": [], "blocks": [], "statements": []}

    def walk(i, end, path):
        while i < end:
            while i < end and m[i].isspace():
                i += 1
            if i >= end:
                return
            start, j, depth = i, i, 0
            while j < end:
                c = m[j]
                if c in "([":
                    depth += 1
                elif c in ")]":
                    depth -= 1
                elif depth == 0 and c in ";{}":
                    break
                j += 1
            if j >= end or m[j] == "}":
                return
            head = m[start:j]
            if m[j] == ";":
                classify(head, start, j, None, j + 1, path)
                result["statements"].append((path, start, j + 1))
                i = j + 1
                continue
            close = match_forward(m, j)
            if close is None or close >= end:
                return
            ns = re.fullmatch(r"\s*(?:inline\s+)?namespace(?:\s+(\w+))?\s*|\s*extern\s*", head)
            if ns:
                inner = path + ((ns.group(1),) if ns.group(1) else ())
                result["blocks"].append((inner, j, close))
                walk(j + 1, close, inner)
                result["statements"].append((path, start, close + 1))
                i = close + 1
                continue
            stop = close + 1
            # `};` or `} name;` (a class or enumeration with its variables).
            after = re.match(r"\s*(?:[*&]*\s*[A-Za-z_]\w*\s*(?:,\s*[*&]*\s*[A-Za-z_]\w*\s*)*)?;",
                             m[stop:end])
            if after:
                stop += after.end()
            classify(head, start, j, (j, close + 1), stop, path)
            result["statements"].append((path, start, stop))
            i = stop

    def classify(head, start, head_end, body, end, path):
        rest, tparams, offset = head, None, 0
        t = re.match(r"\s*template\s*<", head)
        if t:
            close = match_template_head(head, t.end() - 1)
            if close is None:
                return
            tparams = head[t.end():close]
            rest, offset = head[close + 1:], close + 1
        entity = {"path": path, "start": start, "head_end": head_end, "end": end, "body": body,
                  "template": tparams is not None,
                  "specialization": tparams is not None and not tparams.strip()}
        if re.match(r"\s*(?:typedef|using|friend)\b", rest):
            return
        e = re.fullmatch(r"\s*enum\b(\s+(?:class|struct)\b)?\s*([A-Za-z_]\w*)?\s*(?::[^{;]*)?", rest)
        if e:
            if body is None or not e.group(2) and False:
                return
            entity.update(kind="enum", name=e.group(2) or "")
            if e.group(2):
                result["entities"].append(entity)
            if body is not None:
                inner_path = path + ((e.group(2),) if e.group(1) else ())
                for item in m[body[0] + 1:body[1] - 1].split(","):
                    n = re.match(r"\s*([A-Za-z_]\w*)", item)
                    if n:
                        result["entities"].append({"kind": "enumerator", "name": n.group(1),
                                                   "path": inner_path, "start": start,
                                                   "head_end": head_end, "end": end,
                                                   "enum": entity, "template": False})
            return
        c = re.match(r"\s*(struct|class|union)\s+([A-Za-z_]\w*)\s*(<)?", rest)
        if c:
            if "(" in rest[:c.end()]:
                return
            entity.update(kind="class", name=c.group(2), keyword=c.group(1),
                          tparams=tparams)
            if c.group(3):
                entity["specialization"] = True
            result["entities"].append(entity)
            return
        # A function: the first ( outside template arguments, after a name.
        angle = 0
        for k, ch in enumerate(rest):
            if ch == "<":
                angle += 1
            elif ch == ">" and angle:
                angle -= 1
            elif ch == "(" and angle == 0:
                break
            elif ch == "=" and angle == 0:
                return  # a variable
        else:
            return
        j = k - 1
        while j >= 0 and rest[j].isspace():
            j -= 1
        if j >= 0 and rest[j] == ">":
            less = match_angle_back(rest, j)
            if less is None:
                return
            entity["specialization"] = True
            j = less - 1
            while j >= 0 and rest[j].isspace():
                j -= 1
        n = re.search(r"([A-Za-z_]\w*)$", rest[:j + 1])
        if not n or n.group(1) in NOT_FUNCTIONS or re.search(r"(?:::|~)\s*$", rest[:n.start()]) \
                or not rest[:n.start()].strip():
            return
        open_ = start + offset + k
        close = match_forward(m, open_)
        if close is None:
            return
        entity.update(kind="function", name=n.group(1), params=(open_, close), tparams=tparams)
        result["entities"].append(entity)

    walk(0, len(m), ())
    return result


INTEGRAL = r"(?:(?:unsigned|signed)\s+)?(?:int|long\s+long|long|short|char)|unsigned|signed|size_t|std::size_t"


def template_param_types(tparams):
    """[(integral type or None, name)] for each parameter of a template head."""
    out, depth, cut = [], 0, 0
    pieces = []
    for i, c in enumerate(tparams + ","):
        depth += c in "(<[{"
        depth -= c in ")>]}"
        if c == "," and depth == 0:
            pieces.append(tparams[cut:i])
            cut = i + 1
    for p in pieces:
        m = re.fullmatch(r"\s*(%s)\s+([A-Za-z_]\w*)\s*(?:=.*)?" % INTEGRAL, p, re.S)
        if m:
            out.append((squash(m.group(1)), m.group(2)))
        else:
            n = re.search(r"([A-Za-z_]\w*)\s*(?:=.*)?$", p.strip(), re.S)
            out.append((None, n.group(1) if n else None))
    return out


def is_unsigned(t):
    return t.startswith("unsigned") or t.endswith("size_t")


# ---- constants narrowed in braced initializers ---------------------------------------------
# The integral types whose range the narrowing rule knows, as g++ and nvcc give them on Linux
# (LP64; char is signed there as with MSVC): (bits, signed).
INTEGRAL_TYPES = {"char": (8, True), "signed char": (8, True), "unsigned char": (8, False),
                  "short": (16, True), "unsigned short": (16, False),
                  "int": (32, True), "unsigned int": (32, False),
                  "long": (64, True), "unsigned long": (64, False),
                  "long long": (64, True), "unsigned long long": (64, False),
                  "size_t": (64, False), "int8_t": (8, True), "uint8_t": (8, False),
                  "int16_t": (16, True), "uint16_t": (16, False), "int32_t": (32, True),
                  "uint32_t": (32, False), "int64_t": (64, True), "uint64_t": (64, False)}
# Types a braced element initializes without brace elision and whose narrowing the rule does
# not judge: the element is skipped and the next one goes to the next member.
OTHER_SCALARS = {"bool", "float", "double", "long double", "wchar_t", "char16_t", "char32_t"}
INTEGRAL_TYPE_WORDS = r"(?:(?:unsigned|signed|short|long|int|char)\b\s*)+"
INTEGRAL_TYPE = re.compile(r"(?:std\s*::\s*)?(?:u?int(?:8|16|32|64)_t|size_t)\b|" + INTEGRAL_TYPE_WORDS)


def integral_type(spelling):
    """(bits, signed) of an integral type's spelling (`unsigned`, `long unsigned int`,
    `std::uint8_t`; cv-qualifiers ignored), or None."""
    words = [w for w in re.findall(r"\w+", spelling) if w not in ("const", "volatile", "std")]
    if len(words) == 1 and words[0] in INTEGRAL_TYPES and words[0] not in ("short", "long"):
        return INTEGRAL_TYPES[words[0]]
    if not words or any(w not in ("unsigned", "signed", "short", "long", "int", "char") for w in words):
        return None
    sign = "unsigned " if "unsigned" in words else ""
    if words.count("signed") + words.count("unsigned") > 1 or words.count("int") > 1:
        return None
    rest = [w for w in words if w not in ("unsigned", "signed")]
    if rest == ["char"]:
        return INTEGRAL_TYPES["unsigned char" if sign else "signed char" if "signed" in words else "char"]
    rest = [w for w in rest if w != "int"] or ["int"]
    base = " ".join(rest)
    return INTEGRAL_TYPES.get(sign + base) if base in ("short", "int", "long", "long long") else None


def integer_constant(text):
    """The value of an integer constant expression of type int written with literals alone
    (`-1`, `~0`, `-(1 << 4)`, `0x7f`), or None: names, casts, suffixed or wider literals, and
    anything that leaves int's range on the way, are not judged."""
    tokens, i = [], 0
    token = re.compile(r"\s*(?:(0[xX][0-9a-fA-F']+|0[bB][01']+|\d[\d']*)([uUlL]*)(?![\w.])|"
                       r"(<<|>>|[-+~*/%&|^()]))")
    text = text.rstrip()
    while i < len(text):
        m = token.match(text, i)
        if not m:
            return None
        if m.group(1):
            if m.group(2):
                return None  # 1u, 1L: another type
            digits = m.group(1).replace("'", "")
            base = 16 if digits[1:2] in "xX" and len(digits) > 1 else 2 if digits[1:2] in "bB" \
                and len(digits) > 1 else 8 if len(digits) > 1 and digits[0] == "0" else 10
            try:
                tokens.append(int(digits[2:] if base in (16, 2) else digits, base))
            except ValueError:
                return None
        else:
            tokens.append(m.group(3))
        i = m.end()
    lo, hi = -2 ** 31, 2 ** 31 - 1
    pos = [0]

    def peek():
        return tokens[pos[0]] if pos[0] < len(tokens) else None

    def take():
        pos[0] += 1
        return tokens[pos[0] - 1]

    def checked(v):
        if v is None or not lo <= v <= hi:
            raise ValueError
        return v

    def unary():
        t = peek()
        if t in ("-", "+", "~"):
            take()
            v = unary()
            return checked(-v if t == "-" else v if t == "+" else ~v)
        if t == "(":
            take()
            v = binary(0)
            if take() != ")":
                raise ValueError
            return v
        if isinstance(t, int):
            return checked(take())
        raise ValueError

    levels = [("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%")]

    def binary(level):
        if level == len(levels):
            return unary()
        v = binary(level + 1)
        while peek() in levels[level]:
            op, w = take(), binary(level + 1)
            if op in ("/", "%"):
                if w == 0:
                    raise ValueError
                q = abs(v) // abs(w) * (1 if (v < 0) == (w < 0) else -1)  # C truncates
                v = q if op == "/" else v - q * w
            elif op in ("<<", ">>"):
                if v < 0 or not 0 <= w < 32:
                    raise ValueError
                v = v << w if op == "<<" else v >> w
            else:
                v = {"|": v | w, "^": v ^ w, "&": v & w, "+": v + w, "-": v - w, "*": v * w}[op]
            v = checked(v)
        return v

    try:
        v = binary(0)
    except (ValueError, IndexError, TypeError):
        return None
    return v if pos[0] == len(tokens) and tokens else None


def braced_aggregates(masks):
    """{name: [(member, type), ...]} of the structs and classes the masks define that brace
    initialization fills member by member (aggregates: no base, no constructor, no virtual
    function, every non-static data member public, not templates, not unions). A type is
    ("int", spelling, bits, signed), ("struct", name), ("array", type), ("scalar",) (an element
    taken whole, not judged) or None (unknown: the rule stops there). A name defined twice
    differently is left out."""
    found = {}
    for mask in masks:
        mask = blank_directives(mask)
        for m in re.finditer(r"(?<![\w:])(struct|class)\s+([A-Za-z_]\w*)\s*(?:final\s*)?\{", mask):
            head = mask[max(mask.rfind(";", 0, m.start()), mask.rfind("}", 0, m.start()),
                            mask.rfind("{", 0, m.start())) + 1:m.start()]
            if re.search(r"\b(?:template|typedef|friend)\b", head):
                continue
            close = match_forward(mask, m.end() - 1)
            if close is None:
                continue
            members = aggregate_members(mask[m.end():close], m.group(2), m.group(1) == "class")
            name = m.group(2)
            if name in found and found[name] != members:
                found[name] = None
            else:
                found[name] = members
    return {k: v for k, v in found.items() if v is not None}


def member_type(spelling, declarator):
    """The rule's type (braced_aggregates) of a member declared `spelling declarator`."""
    t = squash(re.sub(r"\b(?:const|volatile|mutable)\b", " ", spelling)).strip()
    if re.search(r"[*&]", declarator):
        return ("scalar",)
    dims = re.findall(r"\[[^\]]*\]", declarator)
    bits = integral_type(t) if re.fullmatch(r"(?:std\s*::\s*)?[\w ]+", t) else None
    if bits:
        inner = ("int", t, bits[0], bits[1])
    elif t in OTHER_SCALARS:
        inner = ("scalar",)
    elif re.fullmatch(r"[A-Za-z_]\w*", t):
        inner = ("struct", t)
    else:
        inner = None
    for _ in dims:
        inner = ("array", inner)
    return inner


def aggregate_members(body, name, private):
    """[(member, type)] of a class body (braced_aggregates), or None where brace
    initialization does not fill it member by member, or the body is not understood."""
    members, i, seg = [], 0, 0
    access = [private]
    nested = re.compile(r"\s*(?:struct|class|union|enum)\b")

    def declaration(text):
        # The text without its leading access labels, which set the access of what follows.
        while True:
            a = re.match(r"\s*(public|private|protected)\s*:(?!:)", text)
            if not a:
                return text
            access[0] = a.group(1) != "public"
            text = text[a.end():]

    def is_function(decl):
        # A `(` before any initializer, outside template arguments: a member function.
        if re.search(r"\boperator\b", decl):
            return True
        flat = decl
        for _ in range(8):
            flat = re.sub(r"\([^()]*\)|<[^<>]*>", lambda x: x.group(0)[0] + x.group(0)[-1], flat)
        return "(" in re.split(r"=|\{", flat)[0]

    while i <= len(body):
        c = body[i] if i < len(body) else ";"
        if c in "([":
            close = match_forward(body, i)
            if close is None:
                return None
            i = close + 1
            continue
        if c == "{":
            close = match_forward(body, i)
            if close is None:
                return None
            head = declaration(body[seg:i])
            if nested.match(head):
                # A nested type: a member only when declarators follow its `}` (then the rule
                # does not know the member's type).
                after = re.match(r"\s*;", body[close + 1:])
                if not after:
                    return None
                i = seg = close + 1 + after.end()
                continue
            if is_function(head):
                if not member_function_ok(head, name):
                    return None
                i = seg = close + 1
                continue
            i = close + 1  # a default member initializer `T x{...}`, `F f = [] {...}`
            continue
        if c == ";":
            decl = declaration(body[seg:i])
            seg = i = i + 1
            if not decl.strip() or re.match(r"\s*(?:static|typedef|using|friend|template|static_assert|"
                                            r"constexpr|inline|enum|struct|class|union)\b", decl):
                continue
            if is_function(decl):
                if re.search(r"\(\s*[*&]", decl):
                    return None  # a pointer to function: a member of a type it does not know
                if not member_function_ok(decl, name):
                    return None
                continue
            if access[0] or re.search(r"\bvirtual\b", decl):
                return None
            first = None
            for a, b in split_with_offsets(decl, ",", angles=True):
                d = decl[a:b]
                d = d[:split_with_offsets(d, "=")[0][1]]  # a default member initializer
                brace = d.find("{")
                d = d if brace < 0 else d[:brace]
                if re.search(r"(?<!:):(?!:)", d):
                    return None  # a bit-field
                n = re.search(r"([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)$", d)
                if not n:
                    return None
                if first is None:
                    spelling = d[:n.start()]
                    star = re.search(r"[*&]+\s*$", spelling)
                    lead = star.group(0) if star else ""
                    first = spelling[:len(spelling) - len(lead)]
                    if not first.strip():
                        return None
                    members.append((n.group(1), member_type(first, lead + n.group(2))))
                else:
                    members.append((n.group(1), member_type(first, d[:n.start()] + n.group(2))))
            continue
        i += 1
    return members


def member_function_ok(decl, name):
    """Whether a member function's declaration keeps its class an aggregate: no constructor
    (the class's own name before `(`) and nothing virtual."""
    if re.search(r"\bvirtual\b", decl):
        return False
    return not re.search(r"(?<![~\w])%s\s*\(" % re.escape(name),
                         re.sub(r"^(?:\s*(?:public|private|protected)\s*:)+", "", decl))


# A kernel lambda in a source, as C++ AMP wrote it or as the tool ported it: its `]`.
KERNEL_LAMBDA = re.compile(r"(\])\s*(?:mutable\s+)?%s\b|(\])\s*\((?:[^()]|\([^()]*\))*\)\s*"
                           r"(?:mutable\s+)?(?:restrict\s*\([^()]*\bamp\b[^()]*\)|__GPU_ONLY\b|__GPU\b)"
                           % RESTRICT_MACRO)
SOURCE_EXT = (".cpp", ".cxx", ".cc", ".cu")


def kernel_member_definitions(mask):
    """{(class, member function)} of the out-of-line member function definitions in mask that
    hold a kernel (`void C::f(...) { ... parallel_for_each(..., [=](...) restrict(amp) {...});
    }`), as C++ AMP wrote it or as the tool ported it."""
    found = set()
    for m in KERNEL_LAMBDA.finditer(mask):
        at = m.start(1) if m.group(1) else m.start(2)
        for brace, head in enclosing_blocks(mask, at):
            if is_function_head(head):
                break
        else:
            continue
        if LAMBDA_HEAD.search(head) or MACRO_LAMBDA_HEAD.search(head):
            continue  # nested in a lambda: a kernel's own body, another lambda's
        close = head.rfind(")")
        open_ = match_back(head, close, "(", ")") if close >= 0 else None
        f = re.search(r"(?<![\w:])(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)\s*::\s*([A-Za-z_]\w*)\s*$",
                      head[:open_]) if open_ is not None else None
        if f:
            found.add((f.group(1), f.group(2)))
    return found


def out_of_line_kernel_members(path):
    """kernel_member_definitions of the sources beside the header at path that include it:
    nvcc rejects such a kernel (an extended lambda) where its member function is private or
    protected, which the header decides."""
    here = os.path.dirname(os.path.abspath(path))
    try:
        names = sorted(os.listdir(here))
    except OSError:
        return set()
    found = set()
    for name in names:
        if not name.lower().endswith(SOURCE_EXT):
            continue
        s = scan_file(os.path.join(here, name))
        if s is None:
            continue
        text, mask = s["text"], s["mask"]
        includes = [m.group(1) for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', text, re.M)
                    if mask[m.start() + m.group(0).index("#")] == "#"]
        if any(resolve_local(here, i) == os.path.abspath(path) for i in includes):
            found |= kernel_member_definitions(mask)
    return found

# A template parameter named as the rank of a C++ AMP type (whose rank parameter is an int).
RANK_ARGUMENT = r"(?<!std::)(?<!std ::)\b(?:array_view|array|array_ref|texture)\s*<[^<>;]*,\s*%s\s*>|\b(?:index|extent)\s*<\s*%s\s*>"


def unsigned_rank_parameters(head):
    """(start, end, name) in head (a function template's head through its parameter list,
    comments blanked) of the unsigned types of the template parameters its parameters use as a C++ AMP rank:
    `template <typename T, unsigned int Rank> T f(const array_view<T, Rank>&)`. C++ AMP's rank
    is an int; deducing a parameter of another type from it fails ([temp.deduct.type]), which
    MSVC let pass."""
    t = re.match(r"\s*template\s*<", head)
    close = match_template_head(head, t.end() - 1) if t else None
    if close is None:
        return []
    tparams, rest = head[t.end():close], head[close + 1:]
    out = []
    for typ, name in template_param_types(tparams):
        if not typ or not name or not is_unsigned(typ) or \
                not re.search(RANK_ARGUMENT % ((re.escape(name),) * 2), rest):
            continue
        m = re.search(r"(?<![\w:])(%s)\s+%s\b" % (INTEGRAL, re.escape(name)), tparams)
        if m:
            out.append((t.end() + m.start(1), t.end() + m.end(1), name))
    return out


def scope_at(scan, offset):
    best = ()
    for path, a, b in scan["blocks"]:
        if a < offset < b and len(path) >= len(best):
            best = path
    return best


def insertion_point(scan, u, path):
    """Where to declare an entity of namespace `path` ahead of a use at u: the start of the
    statement holding u in the deepest enclosing namespace whose path starts `path`."""
    blocks = [(p, a, b) for p, a, b in scan["blocks"] if a < u < b and tuple(path[:len(p)]) == p]
    scope = max((p for p, _, _ in blocks), key=len, default=())
    for p, a, b in scan["statements"]:
        if p == scope and a <= u < b:
            return a, scope
    return None, scope


def enum_not_movable(e, mask):
    if e["body"] is None:
        return "no body"
    inner = mask[e["body"][0] + 1:e["body"][1] - 1]
    names = set(re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)", inner))
    used = set(re.findall(r"[A-Za-z_]\w*", inner)) - names - {"sizeof", "true", "false"}
    used = {u for u in used if not re.fullmatch(r"[0-9].*|[xX][0-9a-fA-F]*", u)}
    return ("its enumerators use %s" % ", ".join(sorted(used))) if used else None


def forward_declaration(e, text, mask):
    """`template <...> void f(...);` for a function or class entity, as the port writes its
    definition; None where it cannot be written (default arguments, literals)."""
    head = mask[e["start"]:e["head_end"]]
    if '"' in head or "'" in head:
        return None
    if e["kind"] == "class":
        if e["template"] and "=" in (e.get("tparams") or ""):
            return None
        t = "template <%s> " % squash(e["tparams"]) if e["template"] else ""
        return "%s%s %s;" % (t, e["keyword"], e["name"])
    lo, hi = e["params"]
    params = mask[lo + 1:hi]
    depth = 0
    for ch in params:
        depth += ch in "([{<"
        depth -= ch in ")]}>"
        if ch == "=" and depth == 0:
            return None
    if e["template"] and "=" in e["tparams"]:
        return None
    device = False
    for r in re.finditer(r"\brestrict\s*\(([^()]*)\)|(?<![\w#])(__GPU_ONLY|__GPU|__CPU_ONLY)\b|\b%s\b" %
                         RESTRICT_MACRO, head):
        if r.group(1) is not None:
            specs = [s.strip() for s in r.group(1).split(",")]
        elif r.group(2):
            specs = AMP_RESTRICT_MACROS[r.group(2)]
        else:
            specs = ["amp"]
        device = device or any(s != "cpu" for s in specs)
        if r.group(0).startswith("restrict") and "cpu" not in specs and \
                re.search(r"\barray\s*<", params):
            return None  # its array& parameters become array_ref (capture rule)
    edits = rewrite_view_params(mask, lo, hi, view_params_modified(mask, e["params"], e["body"]))
    for a, b, new in reversed(edits):
        head = head[:a - e["start"]] + new + head[b - e["start"]:]
    head = re.sub(r"\s*\brestrict\s*\([^()]*\)|(?<![\w#])(?:__GPU_ONLY|__GPU|__CPU_ONLY)\b|\b%s\b\s*" %
                  RESTRICT_MACRO, "", head)
    head = squash(head)
    if device:
        t = re.match(r"template\s*<", head)
        at = match_template_head(head, t.end() - 1) + 1 if t else 0
        head = head[:at] + (" " if at else "") + RESTRICT_MACRO + " " + head[at:].lstrip()
    return head + ";"


_SCANS = {}


def scan_file(path):
    if path not in _SCANS:
        try:
            with open(path, "rb") as f:
                text = decode(f.read())[0]
        except OSError:
            _SCANS[path] = None
            return None
        mask = blank_comments_and_literals(text)
        s = scan_namespace_scope(mask)
        s.update(text=text, mask=mask)
        _SCANS[path] = s
    return _SCANS[path]


def resolve_local(base, name):
    here = base
    for part in [p for p in name.replace("\\", "/").split("/") if p]:
        if part in (".", ".."):
            here = os.path.normpath(os.path.join(here, part))
            continue
        try:
            entries = os.listdir(here)
        except OSError:
            return None
        if part not in entries:
            matches = [e for e in entries if e.lower() == part.lower()]
            if len(matches) != 1:
                return None
            part = matches[0]
        here = os.path.join(here, part)
    return os.path.abspath(here) if os.path.isfile(here) else None


def masks_of(paths):
    """The masks (blank_comments_and_literals) of the files at paths that can be read, in order."""
    masks = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                masks.append(blank_comments_and_literals(decode(f.read())[0]))
        except OSError:
            pass
    return masks


def transitive_includes_of(path, seen=None):
    """This file and the local headers it includes, directly or not."""
    seen = set() if seen is None else seen
    path = os.path.abspath(path)
    if path in seen:
        return seen
    seen.add(path)
    try:
        with open(path, "rb") as f:
            text = decode(f.read())[0]
    except OSError:
        return seen
    mask = blank_comments_and_literals(text)
    for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', text, re.M):
        if mask[m.start() + m.group(0).index("#")] != "#":
            continue
        found = resolve_local(os.path.dirname(path), m.group(1))
        if found:
            transitive_includes_of(found, seen)
    return seen


# ---- locals in scope at a launch (the capture rules) ------------------------------------------
BLOCK_HEADS = {"if", "for", "while", "switch", "catch"}
SCALAR_WORDS = {"int", "unsigned", "signed", "long", "short", "char", "float", "double", "bool",
                "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
                "uint16_t", "uint32_t", "uint64_t", "volatile"}
# Words after which a name is an operand, not a declarator.
NOT_DECLARATORS = {"return", "delete", "throw", "case", "goto", "else", "do", "new", "co_return",
                   "co_yield", "co_await", "sizeof", "alignof", "typeid", "and", "or", "not"}
FUNCTION_TAIL = re.compile(r"(?:\b(?:const|noexcept|override|final|mutable|__GPU_ONLY|__GPU|"
                           r"__CPU_ONLY|%s)|restrict\s*\([^()]*\))\s*$" % RESTRICT_MACRO)


# Fundamental types C++ AMP code does not support (it has int, unsigned int, long, unsigned
# long, bool, float, double): what a kernel may not name (MSVC C3581).
NARROW_TYPE = re.compile(r"\b(?:(?:(?:un)?signed\s+)?(?:char|short)|wchar_t|char16_t|char32_t|"
                         r"long\s+long|__int8|__int16|__int64)\b")


def evaluated(text):
    """text with its unevaluated operands (sizeof, decltype, alignof, noexcept, typeid) blanked."""
    for m in re.finditer(r"\b(?:sizeof|decltype|alignof|noexcept|typeid)\s*\(", text):
        close = match_forward(text, m.end() - 1)
        if close is not None:
            text = text[:m.start()] + " " * (close + 1 - m.start()) + text[close + 1:]
    return text


def kernel_uses(mask, body):
    """Names a kernel body uses outside unevaluated operands (sizeof, decltype, ...), not as
    members (`.x`, `->x`, `::x`)."""
    return set(re.findall(r"(?<![\w.:>])(?<!->)([A-Za-z_]\w*)", evaluated(mask[body[0]:body[1]])))


def enclosing_brace(mask, limit):
    """The position of the `{` of the innermost braced block open at limit, or -1."""
    depth, j = 0, limit - 1
    while j >= 0:
        if mask[j] == "}":
            depth += 1
        elif mask[j] == "{":
            if depth == 0:
                return j
            depth -= 1
        j -= 1
    return -1


def enclosing_braces(mask, offset):
    """The positions of the `{`s of the braced blocks around offset, innermost first."""
    j = enclosing_brace(mask, offset)
    while j >= 0:
        yield j
        j = enclosing_brace(mask, j)


def enclosing_block_heads(mask, offset):
    """The heads of the braced blocks around offset, innermost first: for each `{` that encloses
    it, the text between the previous `;`, `{` or `}` and that brace (a function's signature, a
    control statement, `template <...> class X`, ...)."""
    for j in enclosing_braces(mask, offset):
        yield mask[max(mask.rfind(";", 0, j), mask.rfind("}", 0, j), mask.rfind("{", 0, j)) + 1:j]


def enclosing_blocks(mask, offset):
    """(position of the `{`, its head) for each braced block around offset, innermost first;
    a head is the statement's text before the brace (statement_prefix)."""
    for j in enclosing_braces(mask, offset):
        yield j, statement_prefix(mask, 0, j)  # a for's head keeps its `;`s


def split_top_level(text, sep):
    """text split at sep outside parentheses, brackets and braces."""
    return [text[a:b] for a, b in split_with_offsets(text, sep)]


# A block's head that ends a parameter list: its `)`, then only specifiers or a trailing
# return type. FUNCTION_HEAD takes every specifier a function or lambda may carry here;
# PLAIN_FUNCTION_HEAD not override, final, __GPU, __GPU_ONLY nor HIPAMP_RESTRICT.
FUNCTION_HEAD_TAIL = r"\)\s*(?:const\b|mutable\b|noexcept\b|%srestrict\s*\([^()]*\)|%s->[^{;]*|\s)*$"
FUNCTION_HEAD = re.compile(FUNCTION_HEAD_TAIL % (r"override\b|final\b|",
                                                 r"__GPU_ONLY\b|__GPU\b|%s\b|" % RESTRICT_MACRO))
PLAIN_FUNCTION_HEAD = re.compile(FUNCTION_HEAD_TAIL % ("", ""))
CONTROL_HEAD = re.compile(r"\b(?:if|for|while|switch|catch)\s*\(")


def is_function_head(head, plain=False):
    """Whether a block's head (statement_prefix) opens a function's or a lambda's body; plain:
    one whose parameter list is followed by no more than const, mutable, noexcept,
    restrict(...) and a trailing return type (PLAIN_FUNCTION_HEAD)."""
    return bool((PLAIN_FUNCTION_HEAD if plain else FUNCTION_HEAD).search(head)) and \
        not CONTROL_HEAD.search(head)


def statement_prefix(mask, lo, offset):
    """The text from the start of the statement holding offset (after the last `;`, `{` or `}`
    outside parentheses, not before lo) to offset: `if (c) ` or `for (a; b; c) ` for an
    unbraced body."""
    depth, j = 0, offset - 1
    while j >= lo:
        c = mask[j]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
        elif c in ";{}" and depth <= 0:
            break
        j -= 1
    return mask[j + 1:offset]


def tainted_locals(body, sources):
    """Names whose value depends on the work-item: every plain assignment or initialisation of
    the name in body is computed from a source's local or global index (or from such names), to
    a fixed point. Names are not told apart by scope or by the order of assignments, so a name
    assigned once from the work-item and once from anything else counts as uniform: the reading
    may miss a divergent barrier (the CPU device's run-time check remains), never invents one.
    A compound assignment (`+=`) decides only where its right side depends on the work-item."""
    assignment = re.compile(r"(?<![\w.>:])([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*((?:[-+*/%&|^]|<<|>>)?)="
                            r"(?!=)([^;{}]*)|(\w+\s*>?|>)\s+([A-Za-z_]\w*)\s*[({]([^;{}()]*(?:\([^;{}()]*\))?"
                            r"[^;{}()]*)[)}]\s*[;,]")
    # The second form is a declaration `T name(value);` (a type, then the name); not a call
    # statement `f(x);` or `return f(x);`.
    found = [(a.group(1), a.group(2), a.group(3)) if a.group(1) else (a.group(5), "", a.group(6))
             for a in assignment.finditer(body)
             if a.group(1) or a.group(4).strip(" >") not in NOT_DECLARATORS]
    tainted = set()
    while True:
        plain, compound = {}, {}
        for name, op, value in found:
            if name in sources:
                continue
            hit = names_work_item(value, sources, tainted)
            (compound if op else plain).setdefault(name, []).append(hit)
        now = {n for n in set(plain) | set(compound)
               if (all(plain[n]) if n in plain else any(compound[n]))}
        if now == tainted:
            return tainted
        tainted = now


def names_work_item(text, sources, tainted):
    """Whether text names a source's .local or .global, or a tainted local."""
    return bool(re.search(r"\b(?:%s)\s*\.\s*(?:local|global)\b" % "|".join(map(re.escape, sources)),
                          text) or (tainted and re.search(r"(?<![\w.>:])(?:%s)\b" % "|".join(
                              map(re.escape, sorted(tainted))), text)))


def template_parameter_names(mask, offset):
    """The parameter names of every template around offset (their `template <...>` heads)."""
    names = []
    for head in enclosing_block_heads(mask, offset):
        for t in re.finditer(r"\btemplate\s*<", head):
            depth, close = 0, None
            for k in range(t.end() - 1, len(head)):
                depth += {"<": 1, ">": -1}.get(head[k], 0)
                if depth == 0:
                    close = k
                    break
            params = head[t.end():close] if close is not None else ""
            names += re.findall(r"(?:typename|class|int|unsigned|size_t|bool)\s*(?:\.\.\.)?\s*([A-Za-z_]\w*)\s*(?:=[^,]*)?(?:,|$)",
                                params)
    return names


def own_head(head):
    """A block's head without what lies before it on earlier directive lines: a head runs back
    to the last ; { or }, past a macro definition before it, whose restrict(...) is not this
    block's; nor are a #define's own name and parameters."""
    directives = list(re.finditer(r"(?m)^[ \t]*#[ \t]*\w+", head))
    if directives:
        head = re.sub(r"^[ \t]*#[ \t]*define[ \t]+\w+(?:\([^()]*\))?", "",
                      head[directives[-1].start():])
    return head


def amp_restricted_at(mask, offset):
    """Whether offset lies in the body of an amp-restricted function or lambda (the innermost
    enclosing function-like body: its head says restrict(...amp...), __GPU or HIPAMP_RESTRICT).
    Heads are whole statements, so a for loop's `;`s do not cut its head short."""
    for _, head in enclosing_blocks(mask, offset):
        head = own_head(head)
        if re.search(r"\brestrict\s*\([^()]*\bamp\b|\b__GPU(?:_ONLY)?\b|\b%s\b" % RESTRICT_MACRO,
                     head):
            return True
        if is_function_head(head, plain=True):
            return False  # the innermost function is not amp-restricted
    return False


LAMBDA_HEAD = re.compile(r"\]\s*(?:%s\s*)?(?:\((?:[^()]|\([^()]*\))*\))?\s*(?:mutable\b|"
                         r"restrict\s*\([^()]*\)|__GPU(?:_ONLY)?\b|%s\b|->[^{;]*|\s)*$"
                         % (RESTRICT_MACRO, RESTRICT_MACRO))


# A lambda without a parameter list whose restriction is a macro: `[=] __GPU_ONLY {` (no `)` for
# FUNCTION_HEAD to find; `[=] restrict(amp)` has restrict's own).
MACRO_LAMBDA_HEAD = re.compile(r"\]\s*(?:mutable\s+)?(?:__GPU(?:_ONLY)?|%s)\s*(?:->[^{;]*)?$" % RESTRICT_MACRO)


def declared_names(text):
    """The names text declares, roughly (a type or declarator-ish token, then the name, then
    = ; , ( [ { or )): parameters, locals, members."""
    return set(re.findall(r"[\w>&*\]]\s+&?\*?([A-Za-z_]\w*)\s*(?=[=;,()\[{])", text))


def callee_of_argument(mask, offset):
    """The match of the name called with the innermost unclosed ( before offset, when offset
    lies in a call's arguments (within the statement), else None."""
    depth, i = 0, offset - 1
    while i >= 0:
        c = mask[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                break
            depth -= 1
        elif c == ";" and depth == 0:
            return None
        i -= 1
    if i < 0 or mask[i] != "(":
        return None
    return re.search(r"\b(\w+)\s*(?:<[^;{}()]*>\s*)?$", mask[:i])


def nested_in_device_lambda(mask, offset):
    """Whether offset lies in the body of a lambda that is itself amp-restricted (a kernel or a
    restrict(amp) lambda): a lambda written there is device code already, and nvcc rejects an
    extended (annotated) lambda defined inside another. Inside a named restrict(amp) function
    nvcc accepts the annotation, and C++ AMP's own rules for such lambdas stay checkable.
    The innermost function or lambda decides, whichever way its restriction is spelled:
    restrict(...) or the __GPU / __GPU_ONLY macros (is_function_head, not plain: a plain head
    skips `[=](int i) __GPU_ONLY`, so the named function around it decided), a lambda without a
    parameter list (`[=] __GPU_ONLY`) too; `operator[](...)` is a named function, not a lambda."""
    if not amp_restricted_at(mask, offset):
        return False
    callee = callee_of_argument(mask, offset)
    if callee and callee.group(1) == "parallel_for_each":
        return False  # a kernel (a brace in an #ifdef can make it look nested)
    for _, head in enclosing_blocks(mask, offset):
        head = own_head(head)
        if is_function_head(head) or MACRO_LAMBDA_HEAD.search(head):
            lambda_head = LAMBDA_HEAD.search(head)
            return bool(lambda_head) and not re.search(r"\boperator\s*\[\s*$", head[:lambda_head.start()])
    return False


def inside_template(mask, offset):
    """Whether offset lies in a template's definition (a function or class template, or a member
    of one): some enclosing block's head says `template <`."""
    return any(re.search(r"\btemplate\s*<", head) for head in enclosing_block_heads(mask, offset))


def statement_segments(mask, lo, hi):
    """The statements of mask[lo:hi] at its own block level: nested braced blocks left out
    (their declarations are out of scope after them), split at `;`."""
    segs, cur, i, depth = [], [], lo, 0
    while i < hi:
        c = mask[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == "{" and depth == 0:
            close = match_forward(mask, i)
            segs.append("".join(cur))
            cur = []
            if close is None or close >= hi:
                return segs
            i = close + 1
            continue
        if c == ";" and depth == 0:
            segs.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    segs.append("".join(cur))
    return segs


def scope_segments(mask, offset):
    """The statements whose declarations are in scope at offset inside a function body: those
    before it in each enclosing block, the heads of enclosing for/if/while/switch/catch, and the
    parameters of the innermost enclosing function or lambda; None when that function is not
    found (offset not in a function, or a brace the script cannot classify)."""
    segs, limit = [], offset
    while True:
        j = enclosing_brace(mask, limit)
        if j < 0:
            return None
        segs += statement_segments(mask, j + 1, limit)
        k = skip_space_back(mask, j)
        while True:
            t = FUNCTION_TAIL.search(mask, 0, k)
            if not t or t.start() == k:
                break
            k = skip_space_back(mask, t.start())
        if k > 0 and mask[k - 1] == ")":
            open_ = match_back(mask, k - 1, "(", ")")
            if open_ is None:
                return None
            w = re.search(r"([A-Za-z_]\w*)\s*$", mask[:open_])
            inside = mask[open_ + 1:k - 1]
            if w and w.group(1) in BLOCK_HEADS:
                segs += inside.split(";")
                limit = w.start(1)
                continue
            depth, cur = 0, []
            for c in inside:  # the parameters, one a segment
                depth += c in "(<[{"
                depth -= c in ")>]}"
                if c == "," and depth == 0:
                    segs.append("".join(cur))
                    cur = []
                else:
                    cur.append(c)
            segs.append("".join(cur))
            return segs
        prev = re.search(r"(\w+|\S)\s*$", mask[:k])
        if prev is None or prev.group(1) not in (";", "{", "}", ":", "else", "do", "try"):
            return None  # a class, a namespace, an initializer...
        limit = j


def local_kind(segments, name):
    """What the one declaration of name among segments declares: "scalar" (a non-const
    arithmetic local), "pointer" (a non-const pointer), "array" (a C++ AMP array or texture, not
    a reference), or "other"; None where nothing there declares it. Anything that could be a
    second declaration of it (a name after a type-like token) makes it "other"."""
    found = []
    for seg in segments:
        for m in re.finditer(r"(?<![\w.:>])(?<!->)%s\b" % re.escape(name), seg):
            before = seg[:m.start()].rstrip()
            after = seg[m.end():].lstrip()
            typed = before.rstrip("*& \t\n")  # `T x`, `T* x`, `T<U> &x`; not `= *x`, `a[i] * x`
            word = re.search(r"[A-Za-z_]\w*$", typed)
            if typed and (typed[-1] == ">" or word and word.group(0) not in NOT_DECLARATORS) \
                    and (not after or after[0] in "=;,([{)"):
                found.append(before)
    if not found:
        return None
    if len(found) > 1:
        return "other"
    head = found[0].strip()
    if re.search(r"[=(){}\[\];?!|^%+/-]|<<|>>", head):
        return "other"
    words = re.findall(r"[A-Za-z_]\w*", head)
    if not words or set(words) & {"static", "constexpr", "extern", "thread_local", "return",
                                  "delete", "throw", "goto", "case", "else", "do", "new",
                                  "using", "typedef", "auto", "decltype", "operator", "friend",
                                  "template", "typename", "struct", "class", "union", "enum"}:
        return "other"
    if head.count("<") != head.count(">") or "&" in head:
        return "other"
    if head.endswith("*"):
        return "pointer"
    if "const" in words:
        return "other"
    plain = re.sub(r"\bstd\s*::\s*", "", head)
    if set(re.findall(r"[A-Za-z_]\w*|\S", plain)) <= SCALAR_WORDS:
        return "scalar"
    if re.fullmatch(r"(?:(?:concurrency|Concurrency|hipamp)\s*::\s*)?(?:graphics\s*::\s*)?"
                    r"(?:array|texture)\s*<.*>", head, re.S):
        return "array"
    return "other"


# ---- small scanners over the mask -----------------------------------------------------------
def is_ident_char(s, i):
    return 0 <= i < len(s) and (s[i].isalnum() or s[i] == "_")


def skip_space_back(s, i):
    """Back over white space, and over the line continuations of a macro."""
    while i > 0 and (s[i - 1].isspace() or (s[i - 1] == "\\" and i < len(s) and s[i] == "\n")):
        i -= 1
    return i


def match_angle_back(s, close):
    """The `<` that opens the template argument list closing at s[close] == '>', or None where
    the text between holds what no template argument list does (`;`, `{`, `}`, `>>` shifts are
    counted as two closers)."""
    depth = 0
    for i in range(close, -1, -1):
        c = s[i]
        if c == ">":
            depth += 1
        elif c == "<":
            depth -= 1
            if depth == 0:
                return i
        elif c in ";{}":
            return None
    return None


def match_back(s, close, open_char, close_char):
    depth = 0
    for i in range(close, -1, -1):
        if s[i] == close_char:
            depth += 1
        elif s[i] == open_char:
            depth -= 1
            if depth == 0:
                return i
    return None


def match_template_head(s, open_at):
    """The > closing the < at open_at; angle brackets inside parentheses are expressions."""
    angle = parens = 0
    for i in range(open_at, len(s)):
        if s[i] in "([":
            parens += 1
        elif s[i] in ")]":
            parens -= 1
        elif parens == 0 and s[i] == "<":
            angle += 1
        elif parens == 0 and s[i] == ">":
            angle -= 1
            if angle == 0:
                return i
    return None


def squash(s):
    return re.sub(r"\s+", " ", s.strip())


# ---- tile phases: tiled kernels with barriers as loops on the CPU device ----------------------

TILE_PHASE_NAME = "amp2hipamp_tile"
TILE_PHASE_RETURNED = "amp2hipamp_returned"
TILED_PARAM = re.compile(r"^\s*(?:const\s+)?((?:(?:::\s*)?[A-Za-z_]\w*\s*::\s*)*tiled_index\s*<(.*)>)"
                         r"\s*(?:const\s*)?(&?)\s*([A-Za-z_]\w*)\s*$", re.S)
CXX_KEYWORDS = {"return", "delete", "throw", "goto", "break", "continue", "case", "else", "new",
                "sizeof", "typedef", "using", "if", "for", "while", "do", "switch", "default"}
# Calls an initializer may make and still be recomputed in every phase: pure functions of
# their arguments.
PURE_CALLS = r"(?:(?:std\s*::\s*|hipamp\s*::\s*|concurrency\s*::\s*|fast_math\s*::\s*|precise_math\s*::\s*)?" \
             r"(?:min|max|abs|imin|imax|umin|umax)|static_cast\s*<[^<>;]*>)"


class TilePhaseReject(Exception):
    pass


class Stmt:
    """One statement of a kernel body: kind is 'simple' (up to its `;`), 'block', 'for',
    'while', 'do', 'if', 'switch' or 'empty'; [start, end) its text; head its control
    parentheses (open, close); body/orelse its sub-statements."""

    def __init__(self, kind, start, end, head=None, body=None, orelse=None):
        self.kind, self.start, self.end = kind, start, end
        self.head, self.body, self.orelse = head, body, orelse


def can_complete(mask, st):
    """Whether control can reach the end of statement `st` (conservative: only a return,
    throw, a call that never returns, an if whose branches both end so, or an endless loop
    cannot; a switch is taken as ending)."""
    if st.kind == "simple":
        return not re.match(r"(?:return|throw|co_return|goto)\b|(?:std\s*::\s*)?(?:exit|abort|_Exit|"
                            r"quick_exit|terminate)\s*\(", mask[st.start:st.end])
    if st.kind == "block":
        return not st.body or can_complete(mask, st.body[-1])
    if st.kind == "if":
        return not st.orelse or any(can_complete(mask, b) for b in st.body + st.orelse)
    if st.kind in ("for", "while"):
        cond = squash(mask[st.head[0] + 1:st.head[1]])
        endless = cond in ("true", "1") or re.fullmatch(r"[^;]*;\s*;[^;]*", cond) is not None
        return not endless or "break" in mask[st.start:st.end]
    return st.kind != "switch"


def parse_statements(mask, lo, hi):
    out, i = [], lo
    while True:
        while i < hi and mask[i].isspace():
            i += 1
        if i >= hi:
            return out
        st = parse_statement(mask, i, hi)
        out.append(st)
        i = st.end


def parse_statement(mask, i, hi):
    if mask[i] == "{":
        close = match_forward(mask, i)
        if close is None or close >= hi:
            raise TilePhaseReject("unbalanced braces")
        return Stmt("block", i, close + 1, body=parse_statements(mask, i + 1, close))
    if mask[i] == ";":
        return Stmt("empty", i, i + 1)
    kw = re.match(r"(for|while|switch|if(?:\s+constexpr)?|do)\b\s*", mask[i:hi])
    if kw:
        word = kw.group(1).split()[0]
        j = i + kw.end()
        if word == "do":
            body = parse_statement(mask, j, hi)
            tail = re.match(r"\s*while\s*\(", mask[body.end:hi])
            if not tail:
                raise TilePhaseReject("do without while")
            close = match_forward(mask, body.end + tail.end() - 1)
            semi = re.match(r"\s*;", mask[close + 1:hi]) if close is not None else None
            if not semi:
                raise TilePhaseReject("do-while")
            return Stmt("do", i, close + 1 + semi.end(), body=[body])
        if j >= hi or mask[j] != "(":
            raise TilePhaseReject("`%s` without parentheses" % word)
        close = match_forward(mask, j)
        if close is None or close >= hi:
            raise TilePhaseReject("unbalanced parentheses")
        k = close + 1
        while k < hi and mask[k].isspace():
            k += 1
        body = parse_statement(mask, k, hi)
        if word == "if":
            e = re.match(r"\s*else\b\s*", mask[body.end:hi])
            if e:
                orelse = parse_statement(mask, body.end + e.end(), hi)
                return Stmt("if", i, orelse.end, (j, close), [body], [orelse])
            return Stmt("if", i, body.end, (j, close), [body])
        return Stmt(word, i, body.end, (j, close), [body])
    depth, j = 0, i
    while j < hi:
        c = mask[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                raise TilePhaseReject("unbalanced statement")
        elif c == ";" and depth == 0:
            return Stmt("simple", i, j + 1)
        j += 1
    raise TilePhaseReject("a statement without its `;`")


def split_with_offsets(text, sep, base=0, angles=False):
    """(start, end) of each part of text split at sep outside brackets (offsets + base); with
    angles, outside <...> too (a parameter list's template arguments)."""
    parts, depth, angle, start = [], 0, 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif angles and c == "<" and depth == 0:
            angle += 1
        elif angles and c == ">" and depth == 0 and angle > 0:
            angle -= 1
        elif c == sep and depth == 0 and angle == 0:
            parts.append((base + start, base + i))
            start = i + 1
    return parts + [(base + start, base + len(text))]


def enclosing_paren(s, i):
    """The position of the `(` whose parentheses hold offset i, or None."""
    depth = 0
    for j in range(i - 1, -1, -1):
        if s[j] in ")]}":
            depth += 1
        elif s[j] in "([{":
            if depth == 0:
                return j if s[j] == "(" else None
            depth -= 1
    return None


def blank_lambda_bodies(text):
    """text with the bodies of lambdas inside it blanked (their returns are their own)."""
    for m in re.finditer(r"\]\s*(?:\([^()]*\)\s*)?(?:mutable\s*)?(?:->[^{;]*)?\{", text):
        close = match_forward(text, m.end() - 1)
        if close is not None:
            text = text[:m.end()] + re.sub(r"[^\n]", " ", text[m.end():close]) + text[close:]
    return text


def ident_uses(name, text):
    """Offsets of name used as a variable in text (not a member or qualified name)."""
    return [m.start() for m in re.finditer(r"(?<![\w.])(?<!->)(?<!::)\b%s\b(?!\s*::)" % re.escape(name), text)]


class TilePhases:
    """The `tile` rule: a tiled parallel_for_each whose kernel waits at tile barriers becomes a
    tile kernel of phases (hipamp::parallel_for_each_tile, tile_context::for_each_item): the
    statements between two barriers run as one phase for every work-item of the tile, and the
    barrier is the phase's end. On the CPU device a phase is a loop over the tile's work-items
    (a SIMD loop), where each barrier otherwise costs a fiber switch per work-item; on a GPU
    each work-item runs every phase for itself with a block barrier after each, the kernel it
    had. A loop holding barriers (its control is the same for the whole tile, as C++ AMP
    requires) stays a loop around its phases. A local set before a barrier and read after it is
    recomputed in each phase when it is a constant function of the work-item's index and
    captured values, and is otherwise kept per work-item in a hipamp::tile_private. A `return`
    before the last phase marks the work-item done for the phases after it.
    Kernels outside what this reading can prove (a barrier under `if`, in a called function,
    `goto`, `break` out of a barrier loop, a carried local of type `auto` or a reference, ...)
    keep their barriers and run as before, on fibers on the CPU device; the report says why."""

    def __init__(self, path, text):
        self.path = path
        self.src = Source(text)
        self.edits = []
        self.lines = []

    def run(self):
        mask = self.src.mask
        for m in re.finditer(r"\bparallel_for_each\s*\(", mask):
            if self.src.in_directive(m.start()):
                continue
            try:
                self.port_launch(m)
            except TilePhaseReject as why:
                self.lines.append("%s:%d: [tile] kept the barriers of this tiled kernel (fibers on "
                                  "the CPU device): %s" % (self.path, self.src.line_of(m.start()) + 1, why))
        return self

    def result(self):
        text = self.src.text
        for start, end, replacement in sorted(self.edits, reverse=True):
            text = text[:start] + replacement + text[end:]
        return text

    def port_launch(self, m):
        mask = self.src.mask
        open_ = m.end() - 1
        close = match_forward(mask, open_)
        if close is None:
            return
        args = split_with_offsets(mask[open_ + 1:close], ",", open_ + 1)
        a0, a1 = args[-1]
        lam = re.match(r"\s*\[([^\[\]]*)\]\s*(?:%s\s*)?\(" % RESTRICT_MACRO, mask[a0:a1])
        if not lam:
            return  # a functor object: its operator() is not read here
        popen = a0 + lam.end() - 1
        pclose = match_forward(mask, popen)
        param = TILED_PARAM.match(mask[popen + 1:pclose])
        if not param:
            return  # not a tiled launch
        name = param.group(4)
        after = re.match(r"\s*(?:(?:%s|const|noexcept|restrict\s*\([^()]*\))\s*)*(mutable\b)?[^{;]*\{" %
                         RESTRICT_MACRO, mask[pclose + 1:a1])
        if not after:
            return
        body_open = pclose + after.end()
        body_close = match_forward(mask, body_open)
        if body_close is None or body_close >= a1:
            return
        body = mask[body_open:body_close]
        barrier = re.compile(r"\b%s\s*\.\s*barrier\s*\.\s*wait\w*\s*\(" % re.escape(name))
        if not barrier.search(body):
            self.port_calling_launch(m, popen, pclose, body_open, body_close, param)
            return  # no barrier of its own: the tiled executor runs it as loops already
        if after.group(1):
            raise TilePhaseReject("a mutable kernel")
        new_body = self.phase_body(param, body_open, body_close)
        self.edits.append((body_open, body_close + 1, new_body))
        self.retarget_launch(m, popen, pclose, param)
        self.lines.append("%s:%d: [tile] tiled kernel with barriers -> parallel_for_each_tile with %d "
                          "phase(s): loops over the tile on the CPU device, the same kernel on a GPU" %
                          (self.path, self.src.line_of(m.start()) + 1, self.phase_count))

    def retarget_launch(self, m, popen, pclose, param):
        """The launch becomes parallel_for_each_tile and its lambda takes the tile_context."""
        self.edits.append((popen + 1, pclose, "const hipamp::tile_context<%s>& %s" %
                           (param.group(2).strip(), TILE_PHASE_NAME)))
        self.edits.append((m.start(), m.end() - 1, "parallel_for_each_tile"))

    def tile_functions(self):
        """{name: (param match, param open, param close, body open, body close)} for the
        functions of this file that take a tiled_index and wait at its barrier (the samples'
        `void stage_kernel(tiled_index<T, T> tidx, ...) restrict(amp) { ... }`)."""
        if hasattr(self, "_tile_functions"):
            return self._tile_functions
        mask = self.src.mask
        found = {}
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", mask):
            if m.group(1) in CXX_KEYWORDS or self.src.in_directive(m.start()):
                continue
            pclose = match_forward(mask, m.end() - 1)
            if pclose is None or "tiled_index" not in mask[m.end():pclose]:
                continue
            after = re.match(r"\s*(?:(?:%s|const|noexcept|restrict\s*\([^()]*\))\s*)*\{" % RESTRICT_MACRO,
                             mask[pclose + 1:])
            if not after:
                continue
            params = split_with_offsets(mask[m.end():pclose], ",", m.end(), angles=True)
            tiled = [(i, TILED_PARAM.match(mask[a:b]), a) for i, (a, b) in enumerate(params)
                     if TILED_PARAM.match(mask[a:b])]
            body_open = pclose + after.end()
            body_close = match_forward(mask, body_open)
            if len(tiled) != 1 or body_close is None:
                continue
            i, param, a = tiled[0]
            if not re.search(r"\b%s\s*\.\s*barrier\s*\.\s*wait" % re.escape(param.group(4)),
                             mask[body_open:body_close]):
                continue
            found[m.group(1)] = (i, param, a, params[i][1], body_open, body_close, m.start())
        self._tile_functions = found
        return found

    def port_calling_launch(self, m, popen, pclose, body_open, body_close, param):
        """A kernel lambda whose whole body is a call `f(..., t, ...)` to a function of this
        file that waits at t's barrier: the function takes the tile_context and runs phases;
        the lambda hands its tile_context on. Every call of f must be such a launch."""
        mask = self.src.mask
        name = param.group(4)
        call = re.match(r"\s*([A-Za-z_]\w*)\s*\(", mask[body_open + 1:body_close])
        if not call or call.group(1) not in self.tile_functions():
            return
        fname = call.group(1)
        copen = body_open + 1 + call.end() - 1
        cclose = match_forward(mask, copen)
        if cclose is None or not re.match(r"\s*;\s*$", mask[cclose + 1:body_close]):
            raise TilePhaseReject("the kernel does more than call %s" % fname)
        i, fparam, fa, fb, fopen, fclose, fstart = self.tile_functions()[fname]
        args = split_with_offsets(mask[copen + 1:cclose], ",", copen + 1)
        if len(args) <= i or mask[args[i][0]:args[i][1]].strip() != name:
            raise TilePhaseReject("%s is not handed to %s as its tiled_index" % (name, fname))
        if re.search(r"\b%s\b" % re.escape(name), mask[copen + 1:cclose].replace(mask[args[i][0]:args[i][1]], "", 1)):
            raise TilePhaseReject("%s is used beside the call of %s" % (name, fname))
        if not hasattr(self, "_ported_functions"):
            self._ported_functions = {}
        if fname not in self._ported_functions:
            calls = [c for c in re.finditer(r"\b%s\s*\(" % re.escape(fname), mask) if c.start() != fstart
                     and not self.src.in_directive(c.start())]
            launches = [c for c in re.finditer(r"\bparallel_for_each\s*\(", mask)]
            for c in calls:
                inside = [l for l in launches if l.start() < c.start() < (match_forward(mask, l.end() - 1) or 0)]
                if not inside:
                    raise TilePhaseReject("%s is also called outside a tiled launch" % fname)
            try:
                new_body = self.phase_body(fparam, fopen, fclose)
            except TilePhaseReject as why:
                self._ported_functions[fname] = str(why)
                raise
            self._ported_functions[fname] = None
            self.edits.append((fopen, fclose + 1, new_body))
            self.edits.append((fa + (len(mask[fa:fb]) - len(mask[fa:fb].lstrip())), fb,
                               "const hipamp::tile_context<%s>& %s" % (self.targs, TILE_PHASE_NAME)))
            self.lines.append("%s:%d: [tile] %s, a tiled kernel function with barriers -> a tile "
                              "function of %d phase(s) taking the tile_context" %
                              (self.path, self.src.line_of(fstart) + 1, fname, self.phase_count))
        elif self._ported_functions[fname]:
            raise TilePhaseReject(self._ported_functions[fname])
        self.edits.append((args[i][0] + (len(mask[args[i][0]:args[i][1]]) - len(mask[args[i][0]:args[i][1]].lstrip())),
                           args[i][1], TILE_PHASE_NAME))
        self.retarget_launch(m, popen, pclose, param)
        self.lines.append("%s:%d: [tile] tiled kernel calling %s -> parallel_for_each_tile" %
                          (self.path, self.src.line_of(m.start()) + 1, fname))

    def phase_body(self, param, body_open, body_close):
        """The text of a kernel body (braces included) split at its barriers into phases."""
        mask, text = self.src.mask, self.src.text
        name = param.group(4)
        body = mask[body_open:body_close]
        if re.search(r"^[ \t]*#", body, re.M):
            raise TilePhaseReject("preprocessor lines in the kernel")
        if re.search(r"\bgoto\b", body):
            raise TilePhaseReject("goto")
        for use in re.finditer(r"\b%s\b" % re.escape(name), body):
            rest = body[use.end():]
            if re.match(r"\s*\.\s*barrier\s*\.\s*wait\w*\s*\(\s*\)\s*;", rest):
                continue
            if re.match(r"\s*\.\s*barrier\b", rest):
                before = body[:use.start()]
                if re.search(r"\b\w*memory_fence\s*\(\s*$", before):
                    continue
                raise TilePhaseReject("%s.barrier is used other than by a wait statement" % name)
            if re.match(r"\s*\.", rest) or re.match(r"\s*\]", rest) and re.search(r"\[\s*$", body[:use.start()]):
                continue
            raise TilePhaseReject("%s is passed on whole (a called function may wait at its barrier)" % name)
        self.name = name
        self.ptype = re.sub(r"\s+", " ", param.group(1)).strip()
        self.targs = param.group(2).strip()
        self.lo, self.hi = body_open + 1, body_close
        stmts = parse_statements(mask, self.lo, self.hi)
        nodes = self.segment(stmts, top=True)
        self.subst = []   # (start, end, replacement) inside the body
        hoisted, private = self.variables(nodes)
        prologue = self.prologue(nodes)
        returns = self.returns(nodes)
        return self.render(nodes, hoisted, private, returns, text, body_open, prologue)

    # ---- structure ---------------------------------------------------------------------------
    def is_barrier(self, st):
        return st.kind == "simple" and re.match(r"\s*%s\s*\.\s*barrier\s*\.\s*wait\w*\s*\(\s*\)\s*;\s*$" %
                                                re.escape(self.name), self.src.mask[st.start:st.end])

    def has_barrier(self, st):
        return re.search(r"\b%s\s*\.\s*barrier\s*\.\s*wait" % re.escape(self.name),
                         self.src.mask[st.start:st.end])

    def segment(self, stmts, top):
        """[('phase', [stmts]) | ('loop', stmt, nodes)] for a statement list."""
        nodes, cur = [], []
        for st in stmts:
            if self.is_barrier(st):
                nodes.append(("phase", cur))
                cur = []
            elif self.has_barrier(st):
                if st.kind == "if" and st.body[0].kind == "block" and \
                        (not st.orelse or st.orelse[0].kind == "block"):
                    # Under C++ AMP's rules the condition is the same for the whole tile (the
                    # `restrict` rule rejects one that depends on the work-item): it runs once
                    # per tile, around its branches' phases.
                    nodes.append(("phase", cur))
                    cur = []
                    orelse = self.segment(st.orelse[0].body, top) if st.orelse else []
                    nodes.append(("if", st, self.segment(st.body[0].body, top), orelse))
                    continue
                if st.kind not in ("for", "while") or st.body[0].kind != "block":
                    raise TilePhaseReject("a barrier under `%s`" % (st.kind if st.kind != "simple" else "an expression"))
                nodes.append(("phase", cur))
                cur = []
                nodes.append(("loop", st, self.segment(st.body[0].body, top=False)))
            else:
                if not top:
                    self.check_no_jump_out(st)
                cur.append(st)
        nodes.append(("phase", cur))
        return [n for n in nodes if n[0] == "loop" or n[1]]

    def check_no_jump_out(self, st):
        """break/continue of a loop that holds barriers would leave the phase, not the loop."""
        mask = self.src.mask
        if st.kind in ("for", "while", "do", "switch"):
            return
        if st.kind == "simple":
            if re.search(r"\b(break|continue)\b", blank_lambda_bodies(mask[st.start:st.end])):
                raise TilePhaseReject("break/continue in a loop that holds barriers")
            return
        for sub in (st.body or []) + (st.orelse or []):
            self.check_no_jump_out(sub)

    def phases(self, nodes, scope=()):
        """(phase stmts, the loop nodes around it) in text order."""
        for node in nodes:
            if node[0] == "phase":
                yield node[1], scope
            elif node[0] == "loop":
                yield from self.phases(node[2], scope + (node,))
            else:
                yield from self.phases(node[2], scope + (node,))
                yield from self.phases(node[3], scope + (node,))

    # ---- variables -----------------------------------------------------------------------------
    def declaration(self, st):
        """(type, [(name, name_start, array_suffix, init_kind, init_start, init_end, dstart, dend)], const)
        for a declaration statement, or None."""
        mask = self.src.mask
        t = mask[st.start:st.end - 1]
        m = re.match(r"\s*((?:(?:const|volatile|constexpr|register)\s+)*)((?:(?:unsigned|signed|long|short)\s+)*"
                     r"(?:::\s*)?[A-Za-z_][\w]*\b(?:\s*::\s*[A-Za-z_]\w*\b)*(?:\s*<[^;{}()]*?>)?"
                     r"(?:\s+(?:int|long|char|short|double)\b)*)(\s*(?:const\s*)?[*&]*\s*)"
                     r"([A-Za-z_]\w*)\s*(?=[=;,\[({]|$)", t)
        if not m or m.group(2).split()[0] in CXX_KEYWORDS or (not m.group(3).strip() and not m.group(3)):
            return None
        type_ = re.sub(r"\s+", " ", m.group(2)).strip()
        if type_ in CXX_KEYWORDS:
            return None
        decls = []
        first = st.start + m.start(3)
        for ds, de in split_with_offsets(mask[first:st.end - 1], ",", first):
            d = re.match(r"\s*((?:const\s*)?[*&]*)\s*([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)(.*)$", mask[ds:de], re.S)
            if not d:
                raise TilePhaseReject("a declaration this reading does not follow")
            init = d.group(4).strip()
            kind = "" if not init else init[0]
            if kind not in ("", "=", "(", "{"):
                raise TilePhaseReject("a declaration this reading does not follow")
            istart = ds + d.start(4) + (len(d.group(4)) - len(d.group(4).lstrip()))
            decls.append(dict(name=d.group(2), at=ds + d.start(2), ptr=d.group(1), array=d.group(3).strip(),
                              kind=kind, init=(istart, de), span=(ds, de)))
        return type_, decls, "const" in m.group(1) or "constexpr" in m.group(1)

    def variables(self, nodes):
        mask = self.src.mask
        hoisted = []      # statements moved to the tile kernel's top (tile_static, typedefs)
        private = []      # tile_private declarations
        phase_list = list(self.phases(nodes))
        self.phase_count = len(phase_list)
        loop_heads = []
        def collect_heads(ns):
            for n in ns:
                if n[0] != "phase":
                    loop_heads.append(n[1].head)
                    collect_heads(n[2])
                if n[0] == "if":
                    collect_heads(n[3])
        collect_heads(nodes)
        body = mask[self.lo:self.hi]
        decl_of = {}
        static_names = set()
        for idx, (stmts, scope) in enumerate(phase_list):
            for st in stmts:
                t = mask[st.start:st.end]
                if st.kind != "simple":
                    continue
                if re.match(r"\s*(?:tile_static|HIPAMP_TILE_STATIC)\b", t) or re.match(r"\s*(?:typedef|using)\b", t):
                    # One tile_static per tile whichever block declares it: it moves to the
                    # tile kernel's top, which is sound while its name is declared once.
                    for n in re.findall(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?=[,;])", t):
                        if n in static_names:
                            raise TilePhaseReject("tile_static `%s` declared twice" % n)
                        static_names.add(n)
                    hoisted.append(st)
                    self.subst.append((st.start, st.end, ""))
                    continue
                if re.match(r"\s*static\b", t):
                    raise TilePhaseReject("a static local")
                d = self.declaration(st)
                if d:
                    for v in d[1]:
                        decl_of.setdefault(v["name"], []).append((idx, st, d, v))
        for h in loop_heads:
            if re.search(r"\b%s\b(?!\s*\.\s*(?:tile|tile_origin|tile_dim[012]|tile_extent)\b)" % re.escape(self.name),
                         mask[h[0]:h[1]]):
                raise TilePhaseReject("the control of a loop or if that holds barriers reads the work-item's index")
        for name, places in decl_of.items():
            if len(places) > 1:
                # The same name declared twice: this reading does not tell scopes apart.
                if any(self.used_outside(name, p[0], phase_list, loop_heads) for p in places):
                    raise TilePhaseReject("`%s` is declared twice and crosses a barrier" % name)
                continue
            for h in loop_heads:
                if ident_uses(name, mask[h[0]:h[1]]):
                    raise TilePhaseReject("the control of a loop that holds barriers reads `%s`, "
                                          "a local of the work-item" % name)
        # A name declared again in a nested block (or a for's init) would be rewritten there
        # too: leave such kernels alone.
        redecl = r"(?<![\w.])(?!(?:return|else|case|delete|throw|new)\b)[A-Za-z_][\w:]*(?:\s*<[^;{}()]*?>)?[\s*&]+%s\s*(?=[=;,(\[{)])"
        for name, places in decl_of.items():
            if len(places) == 1 and self.used_outside(name, places[0][0], phase_list, loop_heads):
                own_at = places[0][3]["at"]
                for r in re.finditer(redecl % re.escape(name), body):
                    if not self.lo + r.start() <= own_at < self.lo + r.end():
                        raise TilePhaseReject("`%s` crosses a barrier and is declared again in a nested block" % name)
        # Recomputable locals, to a fixed point (one may read another); the phases that read
        # one declare it again, with the ones it reads.
        remat = {}
        changed = True
        while changed:
            changed = False
            for name, places in decl_of.items():
                if len(places) == 1 and name not in remat and \
                        self.recomputable(name, places[0][2], places[0][3], decl_of, remat):
                    remat[name] = places[0]
                    changed = True
        # Of those, the ones the same for the whole tile (no local or global index in them).
        uniform = set()
        changed = True
        while changed:
            changed = False
            for name, (idx, st, d, v) in remat.items():
                init = mask[v["init"][0]:v["init"][1]]
                if name in uniform or re.search(r"\b%s\s*\.\s*(?:local|global)\b" % re.escape(self.name), init):
                    continue
                if all(w not in decl_of or w in uniform for w in re.findall(r"(?<![\w.])(?<!->)([A-Za-z_]\w*)", init)):
                    uniform.add(name)
                    changed = True
        self.uniform = uniform
        self.declared = set(decl_of)
        carried = {}
        for name, places in decl_of.items():
            if len(places) != 1 or name in remat:
                continue
            idx, st, d, v = places[0]
            if not self.used_outside(name, idx, phase_list, loop_heads):
                continue
            type_ = d[0]
            if re.search(r"\b(?:auto|decltype)\b", type_) or "&" in v["ptr"]:
                raise TilePhaseReject("`%s` crosses a barrier and its type (%s) cannot be spelled "
                                      "for per-work-item storage" % (name, type_ + v["ptr"]))
            if v["array"] and v["kind"]:
                raise TilePhaseReject("the array `%s` crosses a barrier and has an initializer" % name)
            full = type_ + v["ptr"].replace("const", "").strip() + v["array"]
            carried[name] = (idx, st, d, v, full)
            private.append("HIPAMP_TILE_PRIVATE hipamp::tile_private<%s, %s> %s;" % (full, self.targs, name))
        self.remat, self.carried = remat, carried
        carried_stmts = {id(c[1]) for c in carried.values()}
        for name, r in remat.items():
            if id(r[1]) in carried_stmts:
                raise TilePhaseReject("`%s` is declared beside a local kept per work-item" % name)
        # Rewrites: uses of carried names index the per-work-item storage; their declarations
        # become assignments.
        for name, (idx, st, d, v, full) in carried.items():
            for off in ident_uses(name, body):
                a = self.lo + off
                if a == v["at"]:
                    continue
                self.subst.append((a, a + len(name), "%s[%s]" % (name, self.name)))
        rewritten = set()
        for name, (idx, st, d, v, full) in carried.items():
            if id(st) in rewritten:
                continue
            rewritten.add(id(st))
            self.rewrite_declaration(st, d)
        return hoisted, private

    def rewrite_declaration(self, st, d):
        """A declaration with carried names, split into one statement per declarator."""
        text = self.src.text
        type_, decls, const = d
        pieces = []
        for v in decls:
            init = self.render_range(v["init"][0], v["init"][1]) if v["kind"] else ""
            if v["name"] in self.carried:
                full = self.carried[v["name"]][4]
                target = "%s[%s]" % (v["name"], self.name)
                if v["kind"] == "=":
                    pieces.append("%s %s;" % (target, init))
                elif v["kind"] in ("(", "{"):
                    pieces.append("%s = %s%s;" % (target, full, init))
                elif not v["array"]:
                    pieces.append("%s = %s();" % (target, full))
            else:
                pieces.append("%s%s %s%s%s%s;" % ("const " if const else "", type_, v["ptr"], v["name"],
                                                   v["array"], (" " + init if v["kind"] == "=" else init)))
        # The inner substitutions of this statement are in `pieces` now.
        self.subst = [s for s in self.subst if not (st.start <= s[0] < st.end)]
        self.subst.append((st.start, st.end, " ".join(pieces)))

    def used_outside(self, name, idx, phase_list, loop_heads):
        mask = self.src.mask
        for j, (stmts, _) in enumerate(phase_list):
            if j == idx:
                continue
            for st in stmts:
                if ident_uses(name, mask[st.start:st.end]):
                    return True
        return any(ident_uses(name, mask[h[0]:h[1]]) for h in loop_heads)

    def recomputable(self, name, d, v, decl_of, remat):
        """Whether a local can be declared again in each phase that reads it: a constant
        function of the work-item's index, captured scalars and other such locals."""
        mask = self.src.mask
        if v["kind"] not in ("=", "(") or v["array"] or v["ptr"]:
            return False
        body = mask[self.lo:self.hi]
        mods = re.compile(r"(?<![\w.])(?<!->)\b%s\b\s*(?:\[[^\]]*\]\s*|\.\s*\w+\s*)*"
                          r"(?:(?:[-+*/%%&|^]|<<|>>)?=(?!=)|\+\+|--)|"
                          r"(?:\+\+|--)\s*%s\b|(?<![&\w)\]])&\s*%s\b|"
                          r"(?<![\w.])(?<!->)\b%s\s*\.\s*\w+\s*\(" % ((re.escape(name),) * 4))
        rest = body[:v["at"] - self.lo] + " " * (v["init"][1] - v["at"]) + body[v["init"][1] - self.lo:]
        if mods.search(rest):
            return False
        if not d[2]:
            # A non-const local handed bare to a function may be bound to a reference and changed
            # there (the book's SwitchIndeces(inIdx, outIdx)); only the pure calls are known.
            for arg in re.finditer(r"[(,]\s*%s\s*(?=[,)])" % re.escape(name), rest):
                open_at = arg.start() if rest[arg.start()] == "(" else enclosing_paren(rest, arg.start())
                callee = re.search(r"(%s)\s*$" % PURE_CALLS, rest[:open_at]) if open_at is not None else None
                if callee is None and open_at is not None and re.search(r"[\w>]\s*$", rest[:open_at]):
                    return False
        init = mask[v["init"][0]:v["init"][1]]
        if v["kind"] == "=":
            init = init[1:]
        init = re.sub(r"\b%s\s*\.\s*(?:local|global|tile|tile_origin)\s*(?:\[\s*\d+\s*\])?" % re.escape(self.name),
                      " 0 ", init)
        init = re.sub(r"\b%s\s*\.\s*(?:tile_extent|tile_dim\d)\b" % re.escape(self.name), " 0 ", init)
        init = re.sub(PURE_CALLS + r"\s*\(", " (", init)
        for ident in re.finditer(r"(?<![\w.])(?<!->)([A-Za-z_]\w*)\b", init):
            word = ident.group(1)
            if word in ("true", "false", "sizeof"):
                continue
            rest = init[ident.end():]
            if word in remat and re.match(r"\s*(?:\[|\.)", rest):
                continue  # an element or member of a recomputed local: a value, not memory
            if re.match(r"\s*(?:\(|\[|\.|->|::)", rest):
                return False  # a call, a subscript (a view's read), a member: not recomputed
            if word in decl_of and word not in remat:
                return False
            if word == self.name:
                return False
        return True

    def uniform_expr(self, text):
        """Whether an expression is the same for every work-item of the tile and can be
        computed once per tile: the tile's index and origin, captured values, uniform locals."""
        if re.search(r"\b%s\s*\.\s*(?:local|global)\b" % re.escape(self.name), text):
            return False
        text = re.sub(r"\b%s\s*\.\s*(?:tile|tile_origin)\s*(?:\[\s*\d+\s*\])?" % re.escape(self.name), " 0 ", text)
        text = re.sub(PURE_CALLS + r"\s*\(", " (", text)
        for ident in re.finditer(r"(?<![\w.])(?<!->)([A-Za-z_]\w*)\b", text):
            word = ident.group(1)
            if word in ("true", "false"):
                continue
            if re.match(r"\s*(?:\(|\[|\.|->|::)", text[ident.end():]) or word == self.name:
                return False
            if word in self.declared and word not in self.uniform:
                return False
        return True

    def prologue(self, nodes):
        """The leading statements of the kernel that are the same for the whole tile: uniform
        constants and `if (uniform) return;` (a tile that leaves at once, as the Floyd-Warshall
        samples' tiles do). They run once per tile, before the first phase, with the tile's
        index taken from the tile_context; the phases no longer test a returned flag for them."""
        mask = self.src.mask
        if not nodes or nodes[0][0] != "phase":
            return []
        stmts, out = nodes[0][1], []
        while stmts:
            st = stmts[0]
            t = mask[st.start:st.end]
            if st.kind == "simple":
                d = self.declaration(st)
                if not d or not all(v["name"] in self.uniform and v["name"] in self.remat for v in d[1]):
                    break
                for v in d[1]:
                    del self.remat[v["name"]]
            elif st.kind == "if" and not st.orelse and st.body[0].kind == "simple" and \
                    re.match(r"\s*return\s*;\s*$", mask[st.body[0].start:st.body[0].end]):
                if not self.uniform_expr(mask[st.head[0] + 1:st.head[1]]):
                    break
            else:
                break
            out.append(st)
            stmts.pop(0)
        return out

    def returns(self, nodes):
        """Offsets of `return` statements in phases before the last one."""
        mask = self.src.mask
        phase_list = list(self.phases(nodes))
        found = []
        for j, (stmts, scope) in enumerate(phase_list):
            last = j == len(phase_list) - 1 and not scope
            for st in stmts:
                t = blank_lambda_bodies(mask[st.start:st.end])
                for r in re.finditer(r"\breturn\b", t):
                    if not re.match(r"return\s*;", t[r.start():]):
                        raise TilePhaseReject("a kernel returning a value")
                    if not last:
                        found.append(st.start + r.start())
        return found

    # ---- output --------------------------------------------------------------------------------
    def render_range(self, a, b, drop_returns=()):
        text = self.src.text
        edits = sorted([s for s in self.subst if a <= s[0] and s[1] <= b])
        out, pos = [], a
        for s, e, r in edits:
            if s < pos:
                continue
            out.append(text[pos:s])
            out.append(r)
            pos = e
        out.append(text[pos:b])
        return "".join(out)

    def render(self, nodes, hoisted, private, returns, text, body_open, prologue=()):
        line = self.src.line_starts[self.src.line_of(body_open)]
        base = re.match(r"[ \t]*", text[line:]).group(0)
        ind = base + "  "
        for r in returns:
            end = self.src.mask.index(";", r) + 1
            self.subst.append((r, end, "{ %s[%s] = true; return; }" % (TILE_PHASE_RETURNED, self.name)))
        param = "%s %s" % (self.param_type(), self.name)
        out = ["{\n"]
        for st in hoisted:
            out.append(ind + self.tile_level(text[st.start:st.end].strip()) + "\n")
        for p in private:
            out.append(ind + p + "\n")
        for st in prologue:
            out.append(ind + self.tile_level(self.render_range(st.start, st.end).strip()) + "\n")
        if returns:
            out.append(ind + "HIPAMP_TILE_PRIVATE hipamp::tile_private<bool, %s> %s;\n" % (self.targs, TILE_PHASE_RETURNED))
        state = {"first": True}
        hoisted_ids = {id(s) for s in hoisted}

        def phase(stmts, indent):
            stmts = [s for s in stmts if id(s) not in hoisted_ids]
            if not stmts and not (returns and state["first"]):
                return
            used = set()
            for st in stmts:
                for name in self.remat:
                    if ident_uses(name, self.src.mask[st.start:st.end]):
                        used.add(name)
            # Recomputed locals this phase needs, with the ones they read, in declaration order.
            changed = True
            while changed:
                changed = False
                for name in list(used):
                    st = self.remat[name][1]
                    for other in self.remat:
                        if other not in used and ident_uses(other, self.src.mask[st.start:st.end]):
                            used.add(other)
                            changed = True
            own = {id(st) for st in stmts}
            below = self.bounded_phase(stmts) if not returns else None
            if below:
                stmts = below[1]
            call = "for_each_item_below(%s, " % below[0] if below else "for_each_item("
            lines = [indent + "%s.%s[&](%s) {\n" % (TILE_PHASE_NAME, call, param)]
            if returns:
                if state["first"]:
                    lines.append(indent + "  %s[%s] = false;\n" % (TILE_PHASE_RETURNED, self.name))
                else:
                    lines.append(indent + "  if (%s[%s]) return;\n" % (TILE_PHASE_RETURNED, self.name))
            state["first"] = False
            seen = set()
            for name in sorted(used, key=lambda n: self.remat[n][1].start):
                st = self.remat[name][1]
                if id(st) in own or id(st) in seen:
                    continue
                seen.add(id(st))
                lines.append(indent + "  " + self.render_range(st.start, st.end).strip() + "\n")
            if below:
                lines.append(indent + "  " + self.render_range(stmts[0].start, stmts[-1].end).strip() + "\n")
            elif stmts:
                chunk = self.render_range(stmts[0].start, stmts[-1].end)
                first_line = self.src.line_starts[self.src.line_of(stmts[0].start)]
                lead = text[first_line:stmts[0].start]
                chunk = (lead if not lead.strip() else "") + chunk
                for l in chunk.split("\n"):
                    lines.append(("  " + l if l.strip() else "") + "\n")
            lines.append(indent + "});\n")
            out.extend(lines)

        def walk(ns, indent):
            for n in ns:
                if n[0] == "phase":
                    phase(n[1], indent)
                else:
                    st = n[1]
                    head = self.tile_level(text[st.start:st.head[1] + 1].strip())
                    out.append(indent + head + " {\n")
                    walk(n[2], indent + "  ")
                    if n[0] == "if" and n[3]:
                        out.append(indent + "} else {\n")
                        walk(n[3], indent + "  ")
                    out.append(indent + "}\n")

        if returns and nodes and nodes[0][0] != "phase":
            phase([], ind)
        walk(nodes, ind)
        out.append(base + "}")
        return "".join(out)

    def tile_level(self, code):
        """Code that runs once per tile: the tiled_index's tile and origin read from the
        tile_context (loop and if heads may use them; the rest of the index is refused)."""
        code = re.sub(r"\b%s\s*\.\s*tile_origin\b" % re.escape(self.name), TILE_PHASE_NAME + ".tile_origin()", code)
        code = re.sub(r"\b%s\s*\.\s*(tile_dim[012]|tile_extent)\b" % re.escape(self.name),
                      lambda m: "%s::%s" % (self.ptype, m.group(1)), code)
        return re.sub(r"\b%s\s*\.\s*tile\b" % re.escape(self.name), TILE_PHASE_NAME + ".tile()", code)

    def bounded_phase(self, stmts):
        """(bound, [statement]) for a phase that is one `if (l < bound) statement` of a rank-1
        tile, where l is the work-item's local index and bound is the same for the whole tile
        (a tree reduction's step): the phase then runs for the first `bound` work-items only."""
        mask = self.src.mask
        if len(stmts) != 1 or stmts[0].kind != "if" or stmts[0].orelse or "," in self.targs:
            return None
        st = stmts[0]
        cond = mask[st.head[0] + 1:st.head[1]]
        m = re.match(r"\s*([A-Za-z_]\w*(?:\s*\.\s*local\s*\[\s*0\s*\])?)\s*<\s*([^<>=?:,&|]+?)\s*$", cond)
        if not m:
            return None
        lhs = re.sub(r"\s+", "", m.group(1))
        if lhs != self.name + ".local[0]":
            r = self.remat.get(lhs)
            if not r or re.sub(r"\s+", "", mask[r[3]["init"][0]:r[3]["init"][1]]).lstrip("=") != self.name + ".local[0]":
                return None
        bound = m.group(2)
        for w in re.findall(r"(?<![\w.])(?<!->)([A-Za-z_]\w*)", bound):
            if w in self.declared or w == self.name:
                return None
            if re.search(r"\b%s\s*(?:\(|\[|\.|->)" % w, bound):
                return None
        return (self.src.text[st.head[0] + 1 + m.start(2):st.head[0] + 1 + m.end(2)].strip(), st.body)

    def param_type(self):
        return self.ptype


def port_text(path, text, only_amp=True, robust_access=True, tile_phases=True):
    """Returns (ported text, report lines). only_amp=False ports even text without a sign of
    C++ AMP (a snippet); robust_access=False leaves out the robust rule's definition;
    tile_phases=False keeps every tiled kernel's barriers (the `tile` rule, TilePhases)."""
    port = Port(path, text, only_amp, robust_access).run()
    ported, report = port.result(), port.report()
    if tile_phases and ported != text or tile_phases and (not only_amp or port.looks_like_amp()):
        before = ported
        ported, more = tile_phases_text(path, ported)
        if more and before != text:
            more = [report_line_in(text, before, line) for line in more]
        report = report + more
    return ported, report


def report_line_in(original, ported, line):
    """A report line of a rule that read the ported text, renumbered to the original's line."""
    import difflib
    m = re.match(r"(.*?):(\d+):(.*)$", line, re.S)
    if not m:
        return line
    n = int(m.group(2)) - 1
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
            a=original.splitlines(), b=ported.splitlines(), autojunk=False).get_opcodes():
        if j1 <= n < j2:
            n = i1 + (n - j1 if tag == "equal" else 0)
            break
    return "%s:%d:%s" % (m.group(1), n + 1, m.group(3))


def tile_phases_text(path, text):
    """The `tile` rule alone, on a ported (or hipamp) source: (text, report lines)."""
    phases = TilePhases(path, text).run()
    return phases.result(), phases.lines


def main(argv=None):
    parser = argparse.ArgumentParser(description="Port C++ AMP sources to hipamp.")
    parser.add_argument("sources", nargs="+")
    parser.add_argument("-o", "--output", help="write the port of the one SOURCE here")
    parser.add_argument("-i", "--in-place", action="store_true", help="rewrite the files")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a file would change")
    parser.add_argument("-q", "--quiet", action="store_true", help="print warnings only")
    parser.add_argument("--no-tile-phases", action="store_true",
                        help="keep the barriers of every tiled kernel (the `tile` rule off): "
                             "they run on fibers on the CPU device, one switch per work-item "
                             "per barrier")
    parser.add_argument("--tile-phases-only", action="store_true",
                        help="apply only the `tile` rule, to a source already written for "
                             "hipamp (its tiled kernels with barriers become tile kernels)")
    parser.add_argument("--no-robust-access", action="store_true",
                        help="do not define HIPAMP_ROBUST_ACCESS (Direct3D's out-of-range rules) "
                             "in the ported files: kernels keep unchecked accesses")
    args = parser.parse_args(argv)
    if args.output and len(args.sources) != 1:
        parser.error("-o takes exactly one SOURCE")
    if sum(bool(x) for x in (args.output, args.in_place, args.check)) > 1:
        parser.error("-o, -i and --check exclude each other")
    if not (args.output or args.in_place or args.check) and len(args.sources) != 1:
        parser.error("several SOURCEs need -i or --check")
    to_stdout = not (args.output or args.in_place or args.check)
    log = sys.stderr if to_stdout else sys.stdout

    would_change = False
    for path in args.sources:
        with open(path, "rb") as f:
            text, encoding = decode(f.read())
        if args.tile_phases_only:
            ported, report = tile_phases_text(path, text)
        else:
            ported, report = port_text(path, text, robust_access=not args.no_robust_access,
                                       tile_phases=not args.no_tile_phases)
        changed_lines = count_changed_lines(text, ported)
        warnings = sum(1 for line in report if ": warning [" in line)
        for line in report:
            if not args.quiet or ": warning [" in line:
                print(line, file=log)
        print("%s: %d line(s) changed, %d warning(s)" % (path, changed_lines, warnings), file=log)
        would_change = would_change or ported != text
        if args.check:
            continue
        if to_stdout:
            sys.stdout.write(ported)
        else:
            target = args.output or path
            if os.path.dirname(target):
                os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(ported.encode(encoding))
    return 1 if args.check and would_change else 0


def decode(data):
    """(text, encoding to write it back with). Windows sources are often cp1252 (the (c) of
    Microsoft's headers) or UTF-16 with a byte-order mark; the port keeps each file's encoding."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "utf-16"
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"  # every byte decodes; bytes survive unchanged


def count_changed_lines(before, after):
    """Lines of `before` that a line diff marks as removed or changed."""
    import difflib
    a, b = before.splitlines(), after.splitlines()
    changed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            changed += max(i2 - i1, j2 - j1)
    return changed


if __name__ == "__main__":
    sys.exit(main())
