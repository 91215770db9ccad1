#!/usr/bin/env python3
"""Checks that each *.cpp here fails to compile against hipamp, with a diagnostic matching the
regular expression on its first line (`// expect: REGEX`): the C++ AMP rules the library
enforces at compile time (element types, index/extent operators, rank-1 view_as, read-only
properties), which a Catch2 test cannot observe because a static_assert is a hard error.

  tests/compile_fail/check.py -I <prefix>/include [-I ...] [--cxx clang++]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-I", dest="includes", action="append", default=[], help="include directory")
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    args = ap.parse_args()
    if not args.includes:
        sys.exit("name hipamp's include directories with -I")
    failures = 0
    for path in sorted(glob.glob(os.path.join(HERE, "*.cpp"))):
        first = open(path).readline()
        m = re.match(r"//\s*expect:\s*(.*)", first)
        if not m:
            print("FAIL %s: no '// expect:' line" % os.path.basename(path))
            failures += 1
            continue
        cmd = [args.cxx, "-std=c++17", "-fsyntax-only"] + ["-I" + i for i in args.includes] + [path]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode == 0:
            print("FAIL %s: compiled" % os.path.basename(path))
            failures += 1
        elif not re.search(m.group(1).strip(), p.stdout):
            print("FAIL %s: no diagnostic matching %r:\n%s" % (os.path.basename(path), m.group(1).strip(),
                                                               p.stdout[:1500]))
            failures += 1
        else:
            print("ok   %s" % os.path.basename(path))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
