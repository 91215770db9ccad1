#!/usr/bin/env python3
"""Runs the public C++ AMP conformance suite (Microsoft's, as HCC kept it) against hipamp, ported
by tools/amp2hipamp.py alone, with the same verdicts as the suite's own test_one.pl:

  - a test whose source says `//#Expects: error ...` (or warning) must fail to compile;
  - a test whose test.conf says compile_only must compile;
  - any other test must compile, link and exit 0 (exit 2 is "skipped", anything else fails);
  - a test.conf's 'definitions' list makes one build per set of -D macros; the test passes
    when every set passes, is skipped when one skips and none fails.

Only the library-level chapters are run by default (3 devices, 4 index/extent, 5 containers,
7 parallel_for_each, 8 synchronization: 781 tests); chapter 2 tests the restrict(amp) language
extension, which a library cannot enforce. Nothing of the suite is committed here: it is read
from --src, a folder holding `amp-conformance/` from a copy of ROCm/hcc before fe2ef95a (2018),
for example
  git -C <ROCm/hcc mirror> archive fe2ef95a~1 amp-conformance | tar -x -C /work/conformance

  scripts/conformance/run_conformance.py --prefix /tmp/hipamp-cpu -j 2
  scripts/conformance/run_conformance.py --only 5_Data_Cont/5_2_a_v --keep-going
  scripts/conformance/run_conformance.py --compare build-conformance-cpu/results.json  (after a change)
  scripts/conformance/run_conformance.py --backend cuda -j 16   (the GPU machine: nvcc, the GPU as
                                                                 the default accelerator)

Writes summary.md (counts per chapter, every failure with its first error line or exit),
results.json and logs/<test>.log into the work directory (default build-conformance-<backend>/).
With --baseline results.json, lists the tests that passed there and fail now.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "scripts", "corpus"))
from run_corpus import sh  # noqa: E402  (one way to run a step and log it, shared with the corpus)

CHAPTERS = ("3_device_Modeling", "4_Basic_Data_Elmnts", "5_Data_Cont", "7_para_for_each",
            "8_Corr_Sync_Cxx_AMP_Prog")
SOURCE_EXT = (".cpp", ".h", ".hpp", ".inl")
# The suite's own rule (test_one.pl): a negative test announces the diagnostic it expects.
EXPECTS = re.compile(r"//#\s*Expects\s*(\d*)\s*:\s*(warning|error)", re.I)
MAIN = re.compile(r" main *\(")


def parse_conf(path):
    """test.conf is a Perl hash; the suite uses two keys: compile_only and definitions."""
    text = open(path, encoding="utf-8", errors="replace").read()
    conf = {"compile_only": bool(re.search(r"'compile_only'\s*=>\s*1", text))}
    m = re.search(r"'definitions'\s*=>\s*\[(.*)\]", text, re.S)
    if m:
        conf["definitions"] = [dict(re.findall(r"'(\w+)'\s*=>\s*'([^']*)'", body))
                               for body in re.findall(r"\{([^}]*)\}", m.group(1))]
    return conf


def find_conf(test_dir, root):
    """The nearest *.conf from the test's folder up to the suite's root (test_one.pl's rule)."""
    d = test_dir
    while d.startswith(root):
        confs = [f for f in os.listdir(d) if f.endswith(".conf")]
        if confs:
            return os.path.join(d, confs[0])
        d = os.path.dirname(d)
    return None


def first_error(out, root):
    for line in out.splitlines():
        if "error" in line:
            return line.replace(root + "/", "")[:200]
    return (out.strip().splitlines() or ["?"])[-1][:200]


def ensure_package(prefix, work, cuda, jobs):
    """The installed hipamp package to build against: prefix if given, else one built and
    installed from this tree under work/ (shared with scripts/conformance/run_hcc_unit.py)."""
    if prefix:
        return os.path.abspath(prefix)
    prefix = os.path.join(work, "hipamp-install")
    build = os.path.join(work, "hipamp-build")
    log = os.path.join(work, "library.log")
    backend = ["-DHIPAMP_BACKEND=cuda", "-DCMAKE_CUDA_ARCHITECTURES=" + os.environ.get("CUDA_ARCH", "90")] \
        if cuda else ["-DHIPAMP_BACKEND=cpu"]
    for cmd in (["cmake", "-S", REPO, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DHIPAMP_BUILD_TESTS=OFF",
                 "-DHIPAMP_BUILD_BENCHMARKS=OFF", "-DHIPAMP_BUILD_EXAMPLES=OFF"] + backend,
                ["cmake", "--build", build, "--target", "hipamp", "-j%d" % jobs],
                ["cmake", "--install", build, "--prefix", prefix]):
        if sh(cmd, log)[0] != 0:
            sys.exit("building the library failed: see %s" % log)
    return prefix


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default="/work/conformance", help="folder that holds amp-conformance/")
    ap.add_argument("--backend", choices=("cpu", "cuda"), default="cpu",
                    help="cpu: --cxx against a CPU package; cuda: nvcc against a CUDA package")
    ap.add_argument("--prefix", help="an installed hipamp package of that backend (default: build one)")
    ap.add_argument("--work", help="work directory (default: <repo>/build-conformance-<backend>)")
    ap.add_argument("--tool", default=os.path.join(REPO, "tools", "amp2hipamp.py"))
    ap.add_argument("--only", nargs="*", help="path prefixes under Tests/ to run")
    ap.add_argument("--chapters", nargs="*", default=list(CHAPTERS))
    ap.add_argument("--baseline", help="an earlier results.json: list what passed there and fails now")
    ap.add_argument("--reuse-port", action="store_true", help="keep the ported tree of the last run")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per test run")
    # The suite's harness (amptest/platform.h) knows one compiler besides MSVC: clang, which HCC
    # was. Its tests are plain C++ once ported, so g++ would do, but the harness stops on it.
    ap.add_argument("--cxx", default=os.environ.get("CONFORMANCE_CXX", "clang++"))
    args = ap.parse_args()
    cuda = args.backend == "cuda"

    suite = os.path.join(os.path.abspath(args.src), "amp-conformance")
    if not os.path.isdir(os.path.join(suite, "Tests")):
        sys.exit("no amp-conformance/Tests under %s (see --help for how to get it)" % args.src)
    work = os.path.abspath(args.work or os.path.join(REPO, "build-conformance-" + args.backend))
    os.makedirs(os.path.join(work, "logs"), exist_ok=True)
    ported = os.path.join(work, "suite")

    prefix = ensure_package(args.prefix, work, cuda, args.jobs)

    # 1. Port the suite (its test library, its helpers and its tests) with the tool alone.
    if not (args.reuse_port and os.path.isdir(ported)):
        shutil.rmtree(ported, ignore_errors=True)
        shutil.copytree(suite, ported, ignore=shutil.ignore_patterns("docs", "*.pl*"))
        files = [os.path.relpath(os.path.join(d, f), ported) for d, _, fs in os.walk(ported)
                 for f in fs if f.lower().endswith(SOURCE_EXT)]
        rc, out = sh([sys.executable, args.tool, "-i", "-q"] + sorted(files),
                     os.path.join(work, "port.log"), cwd=ported)
        if rc != 0:
            sys.exit("the tool failed on the suite: see %s" % os.path.join(work, "port.log"))
    inc = os.path.join(ported, "amp_test_lib", "inc")
    # The harness's amptest/platform.h knows MSVC and clang and stops (#error) on any other
    # compiler. For g++ and nvcc (whose host compiler is g++) a folder searched first supplies
    # the two macros it defines for clang; the suite's tests never see the difference. The
    # harness's logging.cpp also calls va_start without <cstdarg>, which clang's headers bring.
    shim = os.path.join(work, "platform-shim")
    os.makedirs(os.path.join(shim, "amptest"), exist_ok=True)
    with open(os.path.join(shim, "amptest", "platform.h"), "w") as f:
        f.write("#pragma once\n#include <cstdarg>\n#define AMP_TEST_API\n#define AMP_NOEXCEPT noexcept\n")
    includes = ["-I", os.path.join(prefix, "include")] \
        + ([] if "clang" in os.path.basename(args.cxx) and not cuda else ["-I", shim]) + ["-I", inc]
    lib = os.path.join(prefix, "lib")
    if cuda:
        # As a port is built for CUDA (scripts/corpus/run_corpus.py): nvcc compiles every unit
        # as CUDA, lambdas may be __host__ __device__, and OpenMP serves the host side.
        nvcc = os.environ.get("NVCC", shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
        args.cxx = nvcc
        flags = ["-x", "cu", "-std=c++17", "--extended-lambda", "--expt-relaxed-constexpr",
                 "-arch=sm_" + os.environ.get("CUDA_ARCH", "90"), "-O1", "-w",
                 "-Xcompiler", "-fopenmp"] + includes
        libs = ["-L", lib, "-Xlinker", "-rpath," + lib, "-lhipamp", "-lcudart", "-lpthread",
                "-Xcompiler", "-fopenmp"]
    else:
        flags = ["-std=c++17", "-O1", "-fopenmp", "-w"] + includes
        libs = ["-L", lib, "-Wl,-rpath," + lib, "-lhipamp", "-pthread"]

    # 2. The suite's test library, once, and a precompiled header of what every test includes
    # (hipamp and amptest.h: most of each test's compile time otherwise).
    amptest = os.path.join(work, "libamptest.a")
    pch_dir = os.path.join(work, "pch")
    log = os.path.join(work, "amptest.log")
    open(log, "w").close()
    objs = []
    for src in sorted(os.listdir(os.path.join(ported, "amp_test_lib", "src"))):
        obj = os.path.join(work, "amptest_" + src + ".o")
        if sh([args.cxx] + flags + ["-c", os.path.join(ported, "amp_test_lib", "src", src), "-o", obj],
              log)[0] != 0:
            sys.exit("the suite's test library did not build: see %s" % log)
        objs.append(obj)
    if os.path.exists(amptest):
        os.remove(amptest)
    sh(["ar", "rcs", amptest] + objs, log)
    os.makedirs(pch_dir, exist_ok=True)
    with open(os.path.join(pch_dir, "conformance_pch.h"), "w") as f:
        f.write("#include <amptest.h>\n")
    # nvcc has no precompiled headers: its units include the header itself.
    if not cuda and sh([args.cxx] + flags + ["-x", "c++-header", os.path.join(pch_dir, "conformance_pch.h"),
                                             "-o", os.path.join(pch_dir, "conformance_pch.h.gch")], log)[0] != 0:
        sys.exit("the precompiled header did not build: see %s" % log)

    # 3. Every test: build (per definition set), run, judge.
    tests_root = os.path.join(ported, "Tests")
    tests = sorted(os.path.relpath(os.path.join(d, "test.cpp"), tests_root)
                   for ch in args.chapters for d, _, fs in os.walk(os.path.join(tests_root, ch))
                   if "test.cpp" in fs)
    if args.only:
        tests = [t for t in tests if any(t.startswith(o) for o in args.only)]
    test_main = os.path.join(ported, "test_main.h")

    def run_one(rel):
        path = os.path.join(tests_root, rel)
        tdir = os.path.dirname(path)
        conf_path = find_conf(tdir, tests_root)
        conf = parse_conf(conf_path) if conf_path else {"compile_only": False}
        text = open(path, encoding="utf-8", errors="replace").read()
        negative = bool(EXPECTS.search(text))
        safe = rel[:-len("/test.cpp")].replace("/", "__")
        log = os.path.join(work, "logs", safe + ".log")
        open(log, "w").close()
        exe = os.path.join(work, "bin", safe)
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        extra = ["-include", test_main] if MAIN.search(text) else []
        verdicts, why = [], ""
        for defs in conf.get("definitions") or [{}]:
            dflags = ["-D%s=%s" % kv for kv in sorted(defs.items())]
            base = [args.cxx] + flags + ["-I", os.path.join(pch_dir), "-include", "conformance_pch.h"] \
                + extra + dflags
            if conf["compile_only"] or negative:
                # nvcc has no -fsyntax-only: it compiles the unit, host and device, and drops it.
                check = ["-c", path, "-o", exe + ".o"] if cuda else ["-fsyntax-only", path]
                rc, out = sh(base + check, log, cwd=tdir)
                if os.path.exists(exe + ".o"):
                    os.remove(exe + ".o")
                ok = (rc != 0) if negative else (rc == 0)
                if not ok:
                    why = ("compiled, but C++ AMP rejects it (%s)" % EXPECTS.search(text).group(0)
                           if negative else "build: " + first_error(out, tests_root))
                verdicts.append("pass" if ok else "fail")
                continue
            rc, out = sh(base + [path, "-L", work, "-lamptest"] + libs + ["-o", exe], log, cwd=tdir)
            if rc != 0:
                verdicts.append("fail")
                why = "build: " + first_error(out, tests_root)
                continue
            rc, out = sh([exe], log, cwd=tdir, timeout=args.timeout)
            if rc == 0:
                verdicts.append("pass")
            elif rc == 2:
                verdicts.append("skip")
                why = why or "skipped: " + (out.strip().splitlines() or [""])[-1][:160]
            else:
                verdicts.append("fail")
                why = "run: exit %s; %s" % (rc, (out.strip().splitlines() or [""])[-1][:160])
        verdict = "fail" if "fail" in verdicts else "skip" if "skip" in verdicts else "pass"
        return {"test": rel[:-len("/test.cpp")], "verdict": verdict, "negative": negative,
                "compile_only": conf["compile_only"], "builds": len(verdicts),
                "why": why if verdict != "pass" else ""}

    start = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for i, r in enumerate(pool.map(run_one, tests), 1):
            results.append(r)
            if r["verdict"] != "pass":
                print("%-5s %s: %s" % (r["verdict"], r["test"], r["why"]), flush=True)
            if i % 100 == 0:
                print("... %d/%d in %.0f s" % (i, len(tests), time.time() - start), flush=True)

    # 4. Report.
    lines = ["# C++ AMP conformance suite on hipamp, %s backend" % args.backend, "",
             "| chapter | tests | passed | failed | skipped | pass rate of the applicable |",
             "|---|---:|---:|---:|---:|---:|"]
    def row(name, rs):
        p = sum(r["verdict"] == "pass" for r in rs)
        f = sum(r["verdict"] == "fail" for r in rs)
        s = sum(r["verdict"] == "skip" for r in rs)
        rate = 100.0 * p / (p + f) if p + f else 0.0
        lines.append("| %s | %d | %d | %d | %d | %.1f%% |" % (name, len(rs), p, f, s, rate))
    for ch in args.chapters:
        rs = [r for r in results if r["test"].startswith(ch)]
        if rs:
            row(ch, rs)
    row("**all**", results)
    lines += ["", "%d tests in %.0f s (%d jobs)." % (len(results), time.time() - start, args.jobs), "",
              "## Not passed", ""]
    lines += ["- %s **%s**: %s" % (r["test"], r["verdict"], r["why"].replace("|", "\\|"))
              for r in results if r["verdict"] != "pass"]
    if args.baseline:
        before = {r["test"]: r["verdict"] for r in json.load(open(args.baseline))}
        worse = [r["test"] for r in results if before.get(r["test"]) == "pass" and r["verdict"] != "pass"]
        lines += ["", "## Passed in %s, not now (%d)" % (args.baseline, len(worse)), ""] + \
                 ["- " + t for t in worse]
    summary = "\n".join(lines) + "\n"
    with open(os.path.join(work, "summary.md"), "w") as f:
        f.write(summary)
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print("\n".join(lines[:4 + len(args.chapters) + 3]))
    print("summary:", os.path.join(work, "summary.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
