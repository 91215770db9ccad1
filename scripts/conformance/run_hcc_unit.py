#!/usr/bin/env python3
"""Runs HCC's C++ AMP unit tests (ROCm/hcc's tests/Unit, AMD's compiler for C++ AMP) against
hipamp as a second conformance suite, each test ported by tools/amp2hipamp.py alone.

Each test is one program driven by lit `// RUN:` lines (`%cxxamp %s -o %t.out && %t.out`: its
exit status is the verdict). Only files that use `restrict(amp` or include a C++ AMP header are
C++ AMP tests; each gets one class:

  pass          every RUN line succeeded (the build, then the program exits 0)
  run           it built, the program failed (non-zero exit, crash or --timeout)
  build         the ported program did not compile or link
  port          tools/amp2hipamp.py failed on it
  neg-ok        a negative test (`%not`, or a FileCheck of the compiler's `error:`) failed to
                build, as it must
  neg-accepted  a negative test built: hipamp did not reject what C++ AMP rejects
  xfail         HCC marked it `XFAIL: *` and it fails here too (HCC's XFAILs mix real
  xfail-passes  negatives with HCC's own bugs, so neither is counted as a failure)
  oos-hcc       out of scope: uses HCC extensions (hc::, <hc.hpp>, [[hc]], __attribute__((amp)),
                Kalmar, HSA, restrict(auto), HCC's internal __cxxamp_* names, its serialize
                annotations, __HCC_ACCELERATOR__)
  oos-ir        out of scope: checks the compiler's IR or output (%amp_device, -emit-llvm,
                FileCheck of anything but an error)

Nothing of HCC is committed here: --src is a folder holding ROCm/hcc's tests/Unit, for example
  git -C /work/.mirror/ROCm+hcc/repo archive aaac0a59 tests/Unit | tar -x -C /work/hcc

  scripts/conformance/run_hcc_unit.py --src /work/hcc/tests/Unit --prefix /tmp/hipamp-cpu -j 2
  scripts/conformance/run_hcc_unit.py --only AmpMath Atomic/atomic_add_local.cpp
  scripts/conformance/run_hcc_unit.py --baseline build-hcc-unit-cpu/results.json  (after a change)

Writes summary.md (counts per directory and class, every failure with its first error line),
results.json and logs/<test>.log into the work directory (default build-hcc-unit-<backend>/);
with $OUT set, also $OUT/hcc-unit-<backend>.tar.gz of the summary, results and logs.

--backend cuda (the GPU machine): nvcc against an installed CUDA package (configured, built and
installed from this tree when --prefix is not given), with the corpus runner's nvcc flags
(scripts/corpus/run_corpus.py: cuda_flags, PORT_FLAGS, CUDA_LIBS) and the programs run with
HIPAMP_DEFAULT_ACCELERATOR=gpu (no GPU is a run failure, never a silent CPU run). --no-run
builds only (class `built`). scripts/conformance/hcc_unit_gpu.sh does it all in one command.

  scripts/conformance/run_hcc_unit.py --stage build-hcc-src    copy --src to build-hcc-src/Unit
  scripts/conformance/run_hcc_unit.py --backend cuda --src build-hcc-src/Unit -j 16
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import stat
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_conformance import REPO, ensure_package, first_error, sh  # noqa: E402
from run_corpus import (CUDA_LIBS, PORT_FLAGS, check_package, cuda_flags, nvcc_path,  # noqa: E402
                        write_results)

CLASSES = ("pass", "run", "build", "port", "neg-ok", "neg-accepted", "xfail", "xfail-passes",
           "oos-hcc", "oos-ir")
FAILURES = ("run", "build", "port", "neg-accepted")
# A C++ AMP test: restrict(amp) code, or a C++ AMP header (the short-vector and math APIs have
# host-only tests).
AMP = re.compile(r"restrict\s*\(\s*(cpu\s*,\s*)?amp|#\s*include\s*<amp(_math|_short_vectors|_graphics)?\.h>")
HCC_EXT = re.compile(r"\bhc::|<hc[_a-z]*\.hpp>|\[\[\s*hc\b|__attribute__\s*\(\(\s*(hc|amp|cpu)\b|\bKalmar\b|"
                     r"__cxxamp|\bhsa_|<hsa[_a-z]*\.h>|%hsa_|\bHSA_|restri?ct\s*\([^)]*\bauto\b|-fauto-auto|"
                     r"\b__AUTO\b|__HCC_ACCELERATOR__|annotate\(\"\w*serialize")
IR = re.compile(r"%amp_device|-emit-llvm|%cppfilt|%llvm|%opt\b|%clang_cc1|-verify\b")
RUN = re.compile(r"^\s*//.*?\bRUN:(.*)$", re.M)
XFAIL = re.compile(r"XFAIL\s*:\s*\*")
CHECK = re.compile(r"CHECK[-A-Z]*:(.*)")
# A negative test of HCC's diagnostics: its FileCheck looks for the compiler's or linker's error.
CHECK_ERROR = re.compile(r"error:|undefined reference")


def run_lines(text):
    """The RUN lines of a lit test, with `\\` continuations joined."""
    lines, cur = [], ""
    for m in RUN.finditer(text):
        part = m.group(1).strip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append(cur + part)
        cur = ""
    return lines


def classify_source(text):
    """(kind, why): kind is 'oos-hcc', 'oos-ir', 'negative', 'xfail' or 'positive'."""
    runs = run_lines(text)
    if HCC_EXT.search(text) or any(HCC_EXT.search(r) for r in runs):
        return "oos-hcc", "HCC extension: " + HCC_EXT.search(text + "\n".join(runs)).group(0)
    checks = CHECK.findall(text)
    negative = any(r.startswith(("%not", "not ")) for r in runs) \
        or any("FileCheck" in r for r in runs) and any(CHECK_ERROR.search(c) for c in checks)
    if not negative and any(IR.search(r) for r in runs):
        return "oos-ir", "checks the compiler's IR: " + next(r for r in runs if IR.search(r))[:120]
    if any("FileCheck" in r for r in runs) and not negative:
        return "oos-ir", "checks the compiler's output with FileCheck"
    if negative:
        return "negative", ""
    if XFAIL.search(text):
        return "xfail", ""
    return "positive", ""


def segments(run, src, tmp, tools):
    """A RUN line as a list of (is_build, argv): `a && b` split, lit's substitutions made, a
    FileCheck or grep pipe dropped (only negative tests have them; their verdict is the build's
    exit status)."""
    run = re.sub(r"^(%not|not)\s+", "", run.strip())
    run = run.split("|")[0] if "|" in run else run
    run = run.replace("2>&1", "")
    out = []
    for seg in run.split("&&"):
        seg = seg.replace("%s", src).replace("%T", os.path.dirname(tmp)).replace("%t", tmp)
        argv = shlex.split(seg)
        if not argv:
            continue
        tool = argv[0]
        if tool in ("%cxxamp", "%hc", "%gtest_amp", "%amp_device"):
            # %amp_device is HCC's kernel-only compile; only negative tests get here with it
            # (their verdict: the code must not compile), so the host compile stands in.
            out.append((True, [tools.get(tool, tools["%cxxamp"])] + argv[1:]))
        else:
            out.append((False, argv))
    return out


def write_tools(work, cxx, flags, libs, pch_dir, cuda=False):
    """Wrapper scripts for lit's %cxxamp, %hc and %gtest_amp: the compiler with hipamp's flags
    first and its libraries last (the package's libhipamp.a must follow the objects). For nvcc
    (cuda) there is no precompiled header; `-x cu` is given only when a source is compiled (a
    link of objects alone must not read them as CUDA), and -Werror is dropped (nvcc has no
    plain -Werror; with -w, as for clang++, it would change nothing)."""
    tools = {}
    pch = [] if cuda else ["-I", pch_dir, "-include", "hcc_unit_pch.h"]
    for name, extra in (("cxxamp", []), ("hc", []), ("gtest_amp", ["-lgtest", "-lgtest_main"])):
        path = os.path.join(work, "tools", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n# lit's %%%s for hipamp (scripts/conformance/run_hcc_unit.py)\n" % name)
            if cuda:
                f.write('xcu=""\nfor a in "$@"; do shift; case "$a" in -Werror) ;; '
                        '*.cpp|*.cc|*.cxx) xcu="-x cu"; set -- "$@" "$a" ;; *) set -- "$@" "$a" ;; esac; done\n')
                cxx_xcu = "%s $xcu" % shlex.quote(cxx)
            else:
                cxx_xcu = shlex.quote(cxx)
            f.write("case \" $* \" in *\" -c \"*) exec %s %s \"$@\" ;; esac\n"
                    % (cxx_xcu, " ".join(map(shlex.quote, flags + pch))))
            f.write("exec %s %s \"$@\" %s\n" % (cxx_xcu, " ".join(map(shlex.quote, flags + pch)),
                                                " ".join(map(shlex.quote, extra + libs))))
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        tools["%" + name] = path
    return tools


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default="/work/corpus/src/hcc/tests/Unit", help="ROCm/hcc's tests/Unit")
    ap.add_argument("--backend", choices=("cpu", "cuda"), default="cpu",
                    help="cpu: --cxx against a CPU package; cuda: nvcc against a CUDA package, "
                         "programs run on the GPU")
    ap.add_argument("--prefix", help="an installed hipamp package of that backend (default: build one)")
    ap.add_argument("--work", help="work directory (default: <repo>/build-hcc-unit-<backend>)")
    ap.add_argument("--tool", default=os.path.join(REPO, "tools", "amp2hipamp.py"))
    ap.add_argument("--only", nargs="*", help="path prefixes under --src to run (AmpMath, Atomic/x.cpp)")
    ap.add_argument("--baseline", help="an earlier results.json: list what changed class since")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=60, help="seconds per program run")
    ap.add_argument("--build-timeout", type=int, default=600, help="seconds per compile or link")
    ap.add_argument("--no-run", action="store_true", help="build only (class `built`)")
    ap.add_argument("--deadline", type=int, help="seconds after the start: tests not begun by then "
                    "are not run (class `skipped`), so that a time budget still ends in a summary")
    ap.add_argument("--stage", metavar="DIR",
                    help="only copy --src to DIR/Unit (e.g. build-hcc-src, git-ignored) to carry "
                         "it to a machine without the corpus; there pass --src DIR/Unit")
    ap.add_argument("--cxx", default=os.environ.get("CONFORMANCE_CXX", "clang++"))
    args = ap.parse_args()

    src_root = os.path.abspath(args.src)
    if not os.path.isdir(src_root):
        sys.exit("no %s (see --help for how to get HCC's tests/Unit)" % src_root)
    if args.stage:
        dest = os.path.join(os.path.abspath(args.stage), "Unit")
        shutil.copytree(src_root, dest, dirs_exist_ok=True)
        print("staged %s as %s" % (src_root, dest))
        return 0
    cuda = args.backend == "cuda"
    work = os.path.abspath(args.work or os.path.join(REPO, "build-hcc-unit-%s" % args.backend))
    for d in ("logs", "ported", "out"):
        shutil.rmtree(os.path.join(work, d), ignore_errors=True)
        os.makedirs(os.path.join(work, d))
    if cuda and args.prefix:
        check_package("cuda", os.path.abspath(args.prefix))
    library_start = time.time()
    prefix = ensure_package(args.prefix, work, cuda, args.jobs)
    library_seconds = time.time() - library_start
    lib = os.path.join(prefix, "lib")
    run_env = None
    if cuda:
        # As a port is built for CUDA (run_corpus.py's compile_command; hipamp_cxxamp_port): no
        # FMA contraction in kernels or on the host, Direct3D's out-of-range rules. -O1 as the
        # CPU mode. `-x cu` is the wrapper's, only when a source is compiled.
        args.cxx = nvcc_path()
        assert cuda_flags()[:2] == ["-x", "cu"]
        flags = cuda_flags()[2:] + ["-O1", "-w", "-DHIPAMP_ROBUST_ACCESS=1", "-Xcompiler", "-fopenmp"] \
            + PORT_FLAGS["cuda"] \
            + ["-I", os.path.join(prefix, "include")]
        libs = ["-L", lib, "-Xlinker", "-rpath," + lib, "-lhipamp"] + CUDA_LIBS
        # The GPU, never a silent fallback to the CPU device (lib/runtime.cpp throws when
        # HIPAMP_DEFAULT_ACCELERATOR=gpu finds none).
        run_env = dict(os.environ, HIPAMP_DEFAULT_ACCELERATOR="gpu")
    else:
        flags = ["-std=c++17", "-O1", "-fopenmp", "-w", "-DHIPAMP_ROBUST_ACCESS=1", "-I", os.path.join(prefix, "include")]
        libs = ["-L", lib, "-Wl,-rpath," + lib, "-lhipamp", "-pthread"]

    # What every ported test includes, once (most of a test's compile time otherwise). The
    # tool's ported files define HIPAMP_ROBUST_ACCESS before <hipamp/amp.h>; the flags above do
    # the same for the header.
    pch_dir = os.path.join(work, "pch")
    os.makedirs(pch_dir, exist_ok=True)
    with open(os.path.join(pch_dir, "hcc_unit_pch.h"), "w") as f:
        f.write("#include <hipamp/amp.h>\n")
    log = os.path.join(work, "pch.log")
    open(log, "w").close()
    if not cuda and sh([args.cxx] + flags + ["-x", "c++-header", os.path.join(pch_dir, "hcc_unit_pch.h"), "-o",
                                os.path.join(pch_dir, "hcc_unit_pch.h.gch")], log)[0] != 0:
        sys.exit("the precompiled header did not build: see %s" % log)
    tools = write_tools(work, args.cxx, flags, libs, pch_dir, cuda)

    tests = []
    for d, _, fs in os.walk(src_root):
        for f in fs:
            rel = os.path.relpath(os.path.join(d, f), src_root)
            if f.endswith(".cpp") and (not args.only or any(rel.startswith(o) for o in args.only)):
                text = open(os.path.join(d, f), encoding="utf-8", errors="replace").read()
                if AMP.search(text) and run_lines(text):
                    tests.append(rel)
    tests.sort()

    port_lock = threading.Lock()
    deadline = time.time() + args.deadline if args.deadline else None

    def run_one(rel):
        text = open(os.path.join(src_root, rel), encoding="utf-8", errors="replace").read()
        kind, why = classify_source(text)
        result = {"test": rel, "dir": rel.split("/")[0], "class": kind, "why": why}
        if kind.startswith("oos"):
            return result
        if deadline and time.time() > deadline:
            result.update({"class": "skipped", "why": "not begun before --deadline %d s" % args.deadline})
            return result
        safe = rel[:-len(".cpp")].replace("/", "__")
        log = os.path.join(work, "logs", safe + ".log")
        open(log, "w").close()
        # The port: the test's folder (its local headers) copied, the test ported alone.
        pdir = os.path.join(work, "ported", os.path.dirname(rel))
        os.makedirs(pdir, exist_ok=True)
        ported = os.path.join(work, "ported", rel)
        local = []
        for h in os.listdir(os.path.join(src_root, os.path.dirname(rel))):
            if h.endswith((".h", ".hpp", ".inl")):
                local.append(os.path.join(pdir, h))
        shutil.copy(os.path.join(src_root, rel), ported)
        with port_lock:  # a folder's headers are ported once, by the first of its tests
            fresh = [h for h in local if not os.path.exists(h)]
            for h in fresh:
                shutil.copy(os.path.join(src_root, os.path.dirname(rel), os.path.basename(h)), h)
            if fresh:
                rc, out = sh([sys.executable, args.tool, "-i", "-q", ported] + fresh, log)
        if not fresh:
            rc, out = sh([sys.executable, args.tool, "-i", "-q", ported], log)
        if rc != 0:
            result.update({"class": "port", "why": "port: " + first_error(out, work)})
            return result
        tdir = os.path.join(work, "out", safe)
        os.makedirs(tdir, exist_ok=True)
        failed_build = failed_run = None
        for run in run_lines(text):
            for is_build, argv in segments(run, ported, os.path.join(tdir, "t"), tools):
                if not is_build and args.no_run:
                    break
                rc, out = sh(argv, log, cwd=tdir, timeout=args.build_timeout if is_build else args.timeout,
                             env=None if is_build else run_env)
                if rc != 0:
                    if is_build:
                        failed_build = "build: " + first_error(out, work + "/ported")
                    else:
                        failed_run = "run: exit %s; %s" % (rc, (out.strip().splitlines() or [""])[-1][:160])
                    break
            if failed_build or failed_run:
                break
        if kind == "negative":
            result["class"] = "neg-ok" if failed_build else "neg-accepted"
            # A rejection's first error is kept: it should be the one the test is about.
            result["why"] = failed_build or "built, though C++ AMP rejects it" + (
                " (%s)" % failed_run if failed_run else "")
        elif kind == "xfail":
            result["class"] = "xfail" if failed_build or failed_run else \
                "built" if args.no_run else "xfail-passes"
            result["why"] = failed_build or failed_run or ""
        else:
            result["class"] = "build" if failed_build else "run" if failed_run else \
                "built" if args.no_run else "pass"
            result["why"] = failed_build or failed_run or ""
        return result

    start = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for i, r in enumerate(pool.map(run_one, tests), 1):
            results.append(r)
            if r["class"] in FAILURES:
                print("%-12s %s: %s" % (r["class"], r["test"], r["why"]), flush=True)
            if i % 50 == 0:
                print("... %d/%d in %.0f s" % (i, len(tests), time.time() - start), flush=True)

    by_dir = collections.OrderedDict()
    for r in results:
        by_dir.setdefault(r["dir"], []).append(r)
    classes = CLASSES + (("built",) if args.no_run else ()) \
        + (("skipped",) if any(r["class"] == "skipped" for r in results) else ())
    lines = ["# HCC's C++ AMP unit tests (tests/Unit) on hipamp, %s backend%s"
             % ("CPU" if not cuda else "CUDA", " (built only: --no-run)" if args.no_run else ""), "",
             "| directory | tests | " + " | ".join(classes) + " |",
             "|---|---:|" + "---:|" * len(classes)]

    def row(name, rs):
        counts = collections.Counter(r["class"] for r in rs)
        lines.append("| %s | %d | %s |" % (name, len(rs), " | ".join(str(counts[c] or "") for c in classes)))
    for d, rs in by_dir.items():
        row(d, rs)
    row("**all**", results)
    counts = collections.Counter(r["class"] for r in results)
    applicable = sum(counts[c] for c in ("pass", "run", "build", "port", "neg-ok", "neg-accepted", "skipped"))
    if args.no_run:  # every test but the out-of-scope ones; passing means building
        applicable = len(results) - counts["oos-hcc"] - counts["oos-ir"]
    good = counts["pass"] + counts["neg-ok"] + counts["built"]
    lines += ["", "%d C++ AMP tests in %.0f s (%d jobs); of the %d applicable (not out of scope%s), %d "
              "%s (%.1f%%)." % (len(results), time.time() - start, args.jobs, applicable,
                                "" if args.no_run else ", not XFAIL", good,
                                "build as they must (--no-run)" if args.no_run else "pass",
                                             100.0 * good / applicable if applicable else 0.0),
              "", "## Failures", ""]
    lines += ["- %s **%s**: %s" % (r["test"], r["class"], r["why"].replace("|", "\\|"))
              for r in results if r["class"] in FAILURES + ("skipped",)]
    lines += ["", "## Negative tests rejected (the first error should be what the test is about)", ""]
    lines += ["- %s: %s" % (r["test"], r["why"].replace("|", "\\|")) for r in results if r["class"] == "neg-ok"]
    lines += ["", "## XFAIL in HCC", ""]
    lines += ["- %s **%s** %s" % (r["test"], r["class"], r["why"].replace("|", "\\|"))
              for r in results if r["class"].startswith("xfail")]
    if args.baseline:
        before = {r["test"]: r["class"] for r in json.load(open(args.baseline))}
        changed = [(r["test"], before[r["test"]], r["class"]) for r in results
                   if r["test"] in before and before[r["test"]] != r["class"]]
        lines += ["", "## Changed since %s (%d)" % (args.baseline, len(changed)), ""] + \
                 ["- %s: %s -> %s" % c for c in changed]
    summary = "\n".join(lines) + "\n"
    write_results(work, summary, results, "hcc-unit-%s" % args.backend,
                  ["library.log", "pch.log", "logs"])
    if library_seconds > 1:
        print("library: %.0f s" % library_seconds)
    print("\n".join(lines[:len(by_dir) + 7]))
    print("summary:", os.path.join(work, "summary.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
