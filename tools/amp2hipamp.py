#!/usr/bin/env python3
"""amp2hipamp: ports C++ AMP sources to hipamp.

Usage:
  amp2hipamp.py SOURCE [-o OUTPUT]     write the port to OUTPUT (default: stdout)
  amp2hipamp.py -i SOURCE...           port the files in place
  amp2hipamp.py --check SOURCE...      exit 1 if any file would change (nothing is written)

What it rewrites (each change is reported as FILE:LINE: [rule] ...):
  include    #include <amp.h>, <amp_math.h>, <amp_graphics.h>, <amp_short_vectors.h>
             -> one #include <hipamp/amp.h> (which provides namespace concurrency/Concurrency,
             fast_math, precise_math, graphics and the tile_static keyword)
  restrict   restrict(amp), restrict(cpu, amp), restrict(amp, cpu), restrict(direct3d),
             restrict(auto) -> HIPAMP_RESTRICT where nvcc wants it: before a lambda's parameter
             list, before a function's declaration; restrict(cpu) alone is dropped
  index      bare index<N> -> concurrency::index<N> where a `using namespace concurrency;`
             is present (POSIX declares a function ::index, so the bare name is ambiguous)
  property   C++ AMP properties of accelerator, accelerator_view and array
             (acc.description, av.accelerator, ...) -> their getters (acc.get_description())

Files that show no sign of C++ AMP (no AMP header, no concurrency:: name or using-directive, no
restrict(...)) are left alone.

What it reports but leaves alone (FILE:LINE: warning [rule] ...): restrict inside macros,
functions overloaded on restriction, kernels capturing by reference (arrays must be reached
through an array_view on a GPU), writes to properties, property-style swizzles, DirectX interop,
the reference rasteriser, textures, PPL interop.

The rewrite is idempotent: porting a ported file changes nothing. `concurrency::` names and
`tile_static` stay as they are: <hipamp/amp.h> defines them, which keeps the diff small.
"""
import argparse
import bisect
import os
import re
import sys

AMP_HEADERS = ("amp.h", "amp_math.h", "amp_graphics.h", "amp_short_vectors.h")
HIPAMP_INCLUDE = "#include <hipamp/amp.h>"
RESTRICT_MACRO = "HIPAMP_RESTRICT"

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
    (r"#\s*include\s*[<\"](?:d3d11\.h|amp_.*d3d.*|dxgi\.h)[>\"]", "direct3d",
     "DirectX headers: there is no DirectX interop"),
    (r"\bdirect3d_ref\b", "direct3d_ref",
     "hipamp has no reference rasteriser: accelerator(direct3d_ref) throws; use "
     "accelerator::cpu_accelerator or direct3d_warp (the CPU device)"),
    (r"\b(?:texture|writeonly_texture_view|texture_view|sampler)\s*<", "texture",
     "textures and samplers are not provided; use array / array_view"),
    (r"\bto_task\s*\(", "ppl", "completion_future::to_task (PPL) is not provided; use "
     "then() or get()"),
)


class Source:
    """The text, a mask with comments and literals blanked (offsets preserved), and where the
    preprocessor lines are."""

    def __init__(self, text):
        self.text = text
        self.mask = blank_comments_and_literals(text)
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.directive_lines = set()
        continued = False
        for number, line in enumerate(self.mask.split("\n")):
            if continued or line.lstrip().startswith("#"):
                self.directive_lines.add(number)
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
    def __init__(self, path, text, only_amp=True):
        self.path = path
        self.only_amp = only_amp
        self.src = Source(text)
        self.edits = []     # (start, end, replacement, rule, message)
        self.warnings = []  # (offset, rule, message)

    # ---- bookkeeping -------------------------------------------------------------------
    def edit(self, start, end, replacement, rule, message):
        self.edits.append((start, end, replacement, rule, message))

    def warn(self, offset, rule, message):
        self.warnings.append((offset, rule, message))

    def result(self):
        text = self.src.text
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

    def looks_like_amp(self):
        """Only C++ AMP sources are touched: the property rule would misfire elsewhere."""
        include = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"](?:%s|hipamp/amp\.h)[>"]' %
                             "|".join(re.escape(h) for h in AMP_HEADERS), re.M)
        for m in include.finditer(self.src.text):
            if self.src.mask[m.start() + m.group(0).index("#")] == "#":
                return True
        return re.search(r"\b(?:concurrency|Concurrency)\s*::|\brestrict\s*\(|"
                         r"\busing\s+namespace\s+(?:::\s*)?(?:concurrency|Concurrency)\b",
                         self.src.mask) is not None

    def run(self):
        if self.only_amp and not self.looks_like_amp():
            return self
        self.port_includes()
        kernels = self.port_restrict()
        self.port_index()
        self.port_properties()
        self.check_kernel_captures(kernels)
        self.check_unsupported()
        return self

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
        amp_only, cpu_only = {}, {}
        for m in re.finditer(r"\brestrict\s*\(([^()]*)\)", mask):
            specifiers = [s.strip() for s in m.group(1).split(",") if s.strip()]
            unknown = [s for s in specifiers if s not in ("cpu", "amp", "direct3d", "auto")]
            if unknown or not specifiers:
                self.warn(m.start(), "restrict", "unknown restriction %r left as is" % m.group(0))
                continue
            if self.src.in_directive(m.start()):
                self.warn(m.start(), "restrict",
                          "%s inside a macro: move HIPAMP_RESTRICT by hand (before a lambda's "
                          "parameter list, before a function's declaration)" % squash(m.group(0)))
                continue
            device = any(s != "cpu" for s in specifiers)
            placed = self.place_restrict(m, device)
            if placed is None:
                self.warn(m.start(), "restrict", "could not tell the lambda or function that %s "
                          "belongs to; left as is" % squash(m.group(0)))
                continue
            kind, name, where = placed
            if kind == "lambda" and device:
                kernels.append(where)
            if kind == "function" and name:
                if specifiers == ["cpu"]:
                    cpu_only.setdefault(name, []).append(m.start())
                elif "cpu" not in specifiers and "auto" not in specifiers:
                    amp_only.setdefault(name, []).append(m.start())
        for name in sorted(set(amp_only) & set(cpu_only)):
            for offset in amp_only[name] + cpu_only[name]:
                self.warn(offset, "restrict", "%s is overloaded on restriction: after the port "
                          "both overloads have one signature; merge them into one HIPAMP_RESTRICT "
                          "function and choose with #if HIPAMP_DEVICE_COMPILE" % name)
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
        clause_start = skip_space_back(mask, m.start())  # also remove the space before it
        if close >= 0 and mask[close] == "]":
            # A lambda without a parameter list: [=] restrict(amp) { ... }
            open_bracket = match_back(mask, close, "[", "]")
            if open_bracket is None:
                return None
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
        if before >= 0 and mask[before] == "]":
            open_bracket = match_back(mask, before, "[", "]")
            if open_bracket is None:
                return None
            self.edit(clause_start, m.end(), "", "restrict",
                      "%s on a lambda -> %s before its parameter list" %
                      (squash(m.group(0)), RESTRICT_MACRO if device else "(none)"))
            if device:
                self.edit(before + 1, open_paren, " %s " % RESTRICT_MACRO, "restrict", None)
            return ("lambda", None, (open_bracket, before + 1))
        name_match = re.search(r"(operator\s*\(\s*\)|operator\s*[^\s\w]+|~?[A-Za-z_]\w*)\s*$",
                               mask[:open_paren])
        if not name_match:
            return None
        name = re.sub(r"\s+", "", name_match.group(1))
        start = self.declaration_start(name_match.start())
        self.edit(clause_start, m.end(), "", "restrict",
                  "%s on function %s -> %s before its declaration" %
                  (squash(m.group(0)), name, RESTRICT_MACRO if device else "(none)"))
        if device:
            self.edit(start, start, RESTRICT_MACRO + " ", "restrict", None)
        return ("function", name, None)

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
        directive = re.search(r"\busing\s+namespace\s+(?:::\s*)?(concurrency|Concurrency)\s*;", mask)
        if not directive:
            return
        qualifier = directive.group(1) + "::"
        for m in re.finditer(r"(?<![\w:.])(?<!->)index(\s*<\s*[\w\s:+\-*]*>)", mask):
            self.edit(m.start(), m.start(), qualifier, "index",
                      "index%s -> %sindex%s (POSIX ::index makes the bare name ambiguous under "
                      "`using namespace %s;`)" % (squash(m.group(1)), qualifier,
                                                   squash(m.group(1)), directive.group(1)))
        for m in re.finditer(r"\busing\s+(?:::\s*)?(?:concurrency|Concurrency)\s*::\s*index\s*;", mask):
            self.warn(m.start(), "index", "a using-declaration of index at namespace scope "
                      "conflicts with POSIX ::index; qualify the uses instead")

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

    # ---- warnings ---------------------------------------------------------------------
    def check_kernel_captures(self, kernels):
        mask = self.src.mask
        seen = set()
        for start, end in kernels:
            if start in seen:
                continue
            seen.add(start)
            capture = mask[start:end]
            if "&" in capture:
                self.warn(start, "capture", "kernel lambda %s captures by reference: works on "
                          "hipamp's CPU device, but on a GPU an array must be reached through an "
                          "array_view (array_view<T, N> v(arr); capture v by value)" %
                          squash(capture))

    def check_unsupported(self):
        for pattern, rule, message in UNSUPPORTED:
            # Header names in <...> survive the mask; in "..." they are blanked, so look at the
            # text there (and make sure the # is code, not comment).
            haystack = self.src.text if pattern.startswith("#") else self.src.mask
            for m in re.finditer(pattern, haystack):
                if self.src.mask[m.start()] != haystack[m.start()]:
                    continue
                line = self.src.line_of(m.start())
                if any(w[1] == rule and self.src.line_of(w[0]) == line for w in self.warnings):
                    continue  # one warning per rule and line: the most specific comes first
                self.warn(m.start(), rule, message)


# ---- small scanners over the mask -----------------------------------------------------------
def is_ident_char(s, i):
    return 0 <= i < len(s) and (s[i].isalnum() or s[i] == "_")


def skip_space_back(s, i):
    while i > 0 and s[i - 1].isspace():
        i -= 1
    return i


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


def port_text(path, text, only_amp=True):
    """Returns (ported text, report lines). only_amp=False ports even text without a sign of
    C++ AMP (a snippet)."""
    port = Port(path, text, only_amp).run()
    return port.result(), port.report()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Port C++ AMP sources to hipamp.")
    parser.add_argument("sources", nargs="+")
    parser.add_argument("-o", "--output", help="write the port of the one SOURCE here")
    parser.add_argument("-i", "--in-place", action="store_true", help="rewrite the files")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a file would change")
    parser.add_argument("-q", "--quiet", action="store_true", help="print warnings only")
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
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        ported, report = port_text(path, text)
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
            with open(target, "w", encoding="utf-8", newline="") as f:
                f.write(ported)
    return 1 if args.check and would_change else 0


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
