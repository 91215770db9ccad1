#!/usr/bin/env python3
"""Ports the public C++ AMP programs of manifest.json with tools/amp2hipamp.py alone, builds them
against hipamp, runs them and judges each by its own verdict. Prints a table; writes
summary.md, results.json and one log per program into the work directory.

  scripts/corpus/run_corpus.py                        CPU device, library built here (build-cpu)
  scripts/corpus/run_corpus.py --prefix /tmp/hipamp   against an installed package
  scripts/corpus/run_corpus.py --backend cuda         nvcc + the CUDA backend (the GPU machine):
                                                      configures, builds and installs the
                                                      library itself; with $OUT set, everything
                                                      ends in $OUT/corpus-cuda.tar.gz
  scripts/corpus/run_corpus.py --backend hip          ROCm's hipcc + the HIP backend (gfx90a,
                                                      as scripts/check-rocm-build.sh): builds
                                                      the library itself like cuda; runs the
                                                      programs on this machine's device (the
                                                      CPU device where no AMD GPU is)
  --stage DIR         copy just the programs' folders from the mirror into DIR (e.g.
                      build-corpus-src, git-ignored) to carry them to the GPU machine
  --tool OTHER.py     port with another version of the tool (a baseline)
  --only NAME...      a subset; --no-run builds only; -j N builds N programs at once

A manifest entry's "also" lists folders the program includes from (copied beside it, ported
with it); "include_dirs" the folders its project file adds to the include path.

No program is edited by hand and nothing under --src is written: the ported copy lives in the
work directory (default: build-corpus-<backend>/ in the repository, which git ignores).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCE_EXT = (".cpp", ".cxx", ".cc", ".h", ".hpp", ".hxx", ".inl")


def sh(cmd, log, cwd=None, timeout=None, env=None):
    """Runs cmd, appends its output to log; returns (exit status or 'timeout', output)."""
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ %s\n" % " ".join(cmd))
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, env=env)
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode("utf-8", "replace"), "timeout"
    with open(log, "a", encoding="utf-8") as f:
        f.write(out + "\n[exit %s]\n" % rc)
    return rc, out


# The HIP backend is configured as CI's ROCm compile check does (scripts/check-gpu-build.sh):
# one offload architecture, gfx90a, unless HIP_ARCH names others (";"-separated).
HIP_ARCH_DEFAULT = "gfx90a"


def build_library(backend, build_dir, prefix, log):
    args = ["-DHIPAMP_BACKEND=%s" % backend, "-DCMAKE_BUILD_TYPE=Release"]
    if backend == "hip":
        args.append("-DCMAKE_HIP_ARCHITECTURES=%s" % os.environ.get("HIP_ARCH", HIP_ARCH_DEFAULT))
    for cmd in (["cmake", "-S", REPO, "-B", build_dir] + args,
                ["cmake", "--build", build_dir, "--target", "hipamp", "-j%d" % min(os.cpu_count() or 2, 16)],
                ["cmake", "--install", build_dir, "--prefix", prefix]):
        rc, out = sh(cmd, log)
        if rc != 0:
            sys.exit("building the library failed (%s): see %s" % (" ".join(cmd), log))


# How a port is built (docs/porting.md, "Build"; the package's hipamp_cxxamp_port does the same
# for a CMake project): floating point as MSVC's default /fp:precise compiled C++ AMP, with no
# multiply-add contraction in kernels or on the host. (HIPAMP_ROBUST_ACCESS, the other half of
# hipamp_cxxamp_port, comes from the tool's rewrite of each file, which is what is measured.)
# And narrowing in braces (`T expected = {15*i, 39*i};` for a struct of floats) as MSVC 2012
# accepted it and g++ only warns: clang (hipcc) makes it an error unless told otherwise.
PORT_FLAGS = {"cuda": ["--fmad=false", "-Xcompiler", "-ffp-contract=off"],
              "hip": ["-ffp-contract=off", "-Wno-narrowing"],
              "cpu": ["-ffp-contract=off", "-Wno-narrowing"]}


def package_setting(prefix, name):
    """A set(<name> "<value>") of the installed package's hipampConfig.cmake, or None."""
    for lib in ("lib", "lib64"):
        cfg = os.path.join(prefix, lib, "cmake", "hipamp", "hipampConfig.cmake")
        if os.path.exists(cfg):
            m = re.search(r'^\s*set\(%s "?([^")]*)"?\)' % re.escape(name), open(cfg).read(), re.M)
            return m.group(1) if m else None
    return None


def check_package(backend, prefix):
    """Stops with a clear message when --prefix is not a hipamp package of this backend."""
    built = package_setting(prefix, "hipamp_BACKEND")
    if built is None:
        sys.exit("%s is not an installed hipamp package (no lib/cmake/hipamp/hipampConfig.cmake)"
                 % prefix)
    if built != backend:
        sys.exit("the hipamp package at %s was built for the %s backend, not %s"
                 % (prefix, built, backend))


def hipcc_path():
    return os.environ.get("HIPCC") or shutil.which("hipcc") or "/opt/rocm/bin/hipcc"


def nvcc_path():
    return os.environ.get("NVCC", shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")


def cuda_flags():
    """nvcc's flags for a port (before -O, includes and sources): every unit compiled as CUDA,
    lambdas may be __host__ __device__, one architecture ($CUDA_ARCH, default sm_90). Shared
    with scripts/conformance/run_hcc_unit.py --backend cuda."""
    return ["-x", "cu", "-std=c++17", "--extended-lambda", "--expt-relaxed-constexpr",
            "-arch=sm_%s" % os.environ.get("CUDA_ARCH", "90")]


# What a CUDA port links after libhipamp: OpenMP for the host side, the CUDA runtime.
CUDA_LIBS = ["-Xcompiler", "-fopenmp", "-lcudart", "-lpthread"]


def compile_command(backend, prefix, sources, exe, include_dirs=()):
    inc, lib = os.path.join(prefix, "include"), os.path.join(prefix, "lib")
    extra = [a for d in include_dirs for a in ("-I", d)]
    if backend == "cuda":
        return ([nvcc_path()] + cuda_flags() + ["-O2", "-w", "-I", inc] + extra
                + PORT_FLAGS["cuda"] + sources + ["-o", exe, "-L", lib, "-lhipamp"] + CUDA_LIBS)
    if backend == "hip":
        # ROCm's hipcc (clang) for the architectures the package was built for, each source as
        # HIP. libhipamp's CPU device was compiled by g++ with OpenMP: its GOMP_* calls need
        # GNU's runtime (clang's -fopenmp would link LLVM's libomp instead).
        archs = os.environ.get("HIP_ARCH") or package_setting(prefix, "hipamp_HIP_ARCHITECTURES") \
            or HIP_ARCH_DEFAULT
        gomp = ["-lgomp"] if package_setting(prefix, "hipamp_HAS_OPENMP") == "1" else []
        return ([hipcc_path(), "-x", "hip", "-std=c++17", "-O2", "-w", "-I", inc] + extra
                + ["--offload-arch=%s" % a for a in archs.split(";") if a]
                + PORT_FLAGS["hip"] + sources
                + ["-o", exe, "-L", lib, "-lhipamp", "-lamdhip64"] + gomp + ["-pthread"])
    return ([os.environ.get("CXX", "g++"), "-std=c++17", "-O2", "-fopenmp", "-w", "-I", inc] + extra
            + PORT_FLAGS["cpu"] + sources + ["-o", exe, "-L", lib, "-lhipamp", "-pthread"])


def judge(rule, rc, out):
    if rc == "timeout":
        return False, "timed out"
    if rc != 0:
        return False, "exit %s" % rc
    for p in rule.get("pass", []):
        if not re.search(p, out, re.M):
            return False, "no %r in its output" % p
    for p in rule.get("fail", []):
        m = re.search(p, out, re.M)
        if m:
            return False, "its output says %r" % m.group(0)
    return True, "its own check passed"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    ap.add_argument("--src", default="/work/corpus/src", help="the local mirror of the sources")
    ap.add_argument("--backend", choices=("cpu", "cuda", "hip"), default="cpu")
    ap.add_argument("--prefix", help="an installed hipamp package (default: build and install one)")
    ap.add_argument("--work", help="work directory (default: <repo>/build-corpus-<backend>)")
    ap.add_argument("--tool", default=os.path.join(REPO, "tools", "amp2hipamp.py"))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--no-run", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="programs ported and built at once (the GPU machine: 8)")
    ap.add_argument("--timeout", type=int, default=300, help="per program, unless the manifest says")
    ap.add_argument("--label", default="", help="a name for this run in summary.md")
    ap.add_argument("--stage", metavar="DIR",
                    help="only copy the manifest's program folders from --src into DIR (for a "
                         "machine without the mirror: carry DIR, then pass --src DIR there)")
    args = ap.parse_args()

    manifest = json.load(open(args.manifest, encoding="utf-8"))
    unknown = sorted(set(args.only or []) - {p["name"] for p in manifest["programs"]})
    if unknown:
        sys.exit("--only: not in %s: %s" % (args.manifest, ", ".join(unknown)))
    if args.stage:
        for prog in manifest["programs"]:
            src = os.path.join(args.src, prog["dir"])
            for d in [prog["dir"]] + prog.get("also", []):
                if os.path.isdir(os.path.join(args.src, d)):
                    shutil.copytree(os.path.join(args.src, d), os.path.join(args.stage, d),
                                    dirs_exist_ok=True)
        print("staged the sources under", args.stage)
        return 0
    if args.backend == "hip" and not os.access(hipcc_path(), os.X_OK):
        sys.exit("--backend hip needs ROCm's hipcc (not found as $HIPCC, on PATH or in "
                 "/opt/rocm/bin): apt-get install hipcc libamdhip64-dev librocprim-dev "
                 "rocm-device-libs rocm-cmake (scripts/check-rocm-build.sh)")
    work = os.path.abspath(args.work or os.path.join(REPO, "build-corpus-%s" % args.backend))
    os.makedirs(work, exist_ok=True)
    library_seconds = None
    if args.prefix:
        prefix = os.path.abspath(args.prefix)
        check_package(args.backend, prefix)
    else:
        prefix = os.path.join(work, "hipamp-install")
        if not os.path.exists(os.path.join(prefix, "lib")):
            start = time.time()
            build_library(args.backend, os.path.join(work, "hipamp-build"), prefix,
                          os.path.join(work, "library.log"))
            library_seconds = round(time.time() - start)

    def port_and_build(prog):
        """Ports and builds one program; returns its row and what running it needs."""
        name = prog["name"]
        safe = name.replace("/", "_")
        pdir = os.path.join(work, safe)
        shutil.rmtree(pdir, ignore_errors=True)
        src_in = os.path.join(args.src, prog["dir"])
        src_out = os.path.join(pdir, "src")
        # An "also" folder that would land on the program's own copy (ampblas's test/ beside
        # ../src/): the copy takes the program folder's own name instead, which no folder
        # beside it can have.
        if any(os.path.normpath(os.path.join(src_out, os.path.relpath(e, prog["dir"]))) == src_out
               for e in prog.get("also", [])):
            src_out = os.path.join(pdir, os.path.basename(os.path.normpath(prog["dir"])))
        log = os.path.join(work, safe + ".log")
        open(log, "w").close()
        row = {"name": name, "ported": False, "warnings": None, "idempotent": None,
               "built": False, "ran": False, "why": ""}
        run = (log, src_out, os.path.join(pdir, "program"))
        if not os.path.isdir(src_in):
            row["why"] = "sources missing under %s" % args.src
            return row, run
        shutil.copytree(src_in, src_out)
        # "also": folders the program includes from (ScanPerf's ..\Scan\ScanSimple.h), copied
        # to the same place relative to the program's folder and ported with it.
        trees = [src_out]
        for extra in prog.get("also", []):
            dest = os.path.normpath(os.path.join(src_out, os.path.relpath(extra, prog["dir"])))
            if not dest.startswith(pdir + os.sep) or not os.path.isdir(os.path.join(args.src, extra)):
                row["why"] = "folder %s missing under %s" % (extra, args.src)
                return row, run
            shutil.copytree(os.path.join(args.src, extra), dest)
            trees.append(dest)
        files = sorted(os.path.relpath(os.path.join(d, f), src_out)
                       for tree in trees for d, _, fs in os.walk(tree) for f in fs
                       if f.lower().endswith(SOURCE_EXT))
        rc, out = sh([sys.executable, args.tool, "-i"] + files, log, cwd=src_out)
        row["warnings"] = sum(1 for l in out.splitlines() if ": warning [" in l)
        if rc != 0:
            row["why"] = "the tool failed: " + (out.strip().splitlines() or ["?"])[-1][:120]
            return row, run
        row["ported"] = True
        # Porting the port again must change nothing.
        rc, _ = sh([sys.executable, args.tool, "--check", "-q"] + files, log, cwd=src_out)
        row["idempotent"] = rc == 0
        sources = [os.path.normpath(os.path.join(src_out, s)) for s in prog["sources"]]
        # "include_dirs": the project file's extra include folders (relative to the program's
        # folder, like its AdditionalIncludeDirectories), for #include <Header.h> of a sibling.
        incs = [os.path.normpath(os.path.join(src_out, d)) for d in prog.get("include_dirs", [])]
        rc, out = sh(compile_command(args.backend, prefix, sources, run[2], incs), log, cwd=src_out)
        if rc != 0:
            errors = [l for l in out.splitlines() if "error" in l]
            row["why"] = "build: %d error line(s); first: %s" % (
                len(errors), (errors or ["?"])[0].replace(src_out + "/", "")[:160])
            return row, run
        row["built"] = True
        return row, run

    # Builds in parallel (nvcc takes a minute a program); runs one at a time, so that timings
    # and the device are the program's own.
    chosen = [p for p in manifest["programs"] if not args.only or p["name"] in args.only]
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        built = list(pool.map(port_and_build, chosen))
    build_seconds = round(time.time() - start)
    results = []
    for prog, (row, (log, src_out, exe)) in zip(chosen, built):
        results.append(row)
        if not row["built"] or args.no_run:
            continue
        start = time.time()
        rc, out = sh([exe] + prog.get("args", []), log, cwd=src_out,
                     timeout=prog.get("timeout", args.timeout))
        row["seconds"] = round(time.time() - start, 1)
        row["ran"], row["why"] = judge(prog["verdict"], rc, out)

    lines = ["# C++ AMP corpus, %s backend %s" % (args.backend, args.label), "",
             "| program | ported | tool warnings | port idempotent | built | ran correctly | seconds | why |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], "yes" if r["ported"] else "no", r["warnings"],
            {True: "yes", False: "NO", None: ""}[r["idempotent"]], "yes" if r["built"] else "no",
            "yes" if r["ran"] else "no", r.get("seconds", ""), r["why"].replace("|", "\\|")))
    lines += ["", "built %d/%d, ran correctly %d/%d" % (
        sum(r["built"] for r in results), len(results), sum(r["ran"] for r in results), len(results)),
        "", "wall time: %sports and builds %d s (-j %d)" % (
            "" if library_seconds is None else "library %d s, " % library_seconds,
            build_seconds, args.jobs)]
    summary = "\n".join(lines) + "\n"
    print(summary)
    write_results(work, summary, results, "corpus-%s" % args.backend,
                  ["library.log"] + [r["name"].replace("/", "_") + ".log" for r in results])
    return 0


def write_results(work, summary, results, name, logs):
    """Writes summary.md and results.json into work; with $OUT set (the GPU machine), also
    $OUT/<name>.tar.gz holding them and those of `logs` (files or folders of work) that exist,
    under <name>/."""
    with open(os.path.join(work, "summary.md"), "w") as f:
        f.write(summary)
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    out_dir = os.environ.get("OUT")
    if not out_dir:
        return
    tar = os.path.join(out_dir, name + ".tar.gz")
    with tarfile.open(tar, "w:gz") as t:
        for f in ["summary.md", "results.json"] + list(logs):
            if os.path.exists(os.path.join(work, f)):
                t.add(os.path.join(work, f), arcname=os.path.join(name, f))
    print("wrote", tar)


if __name__ == "__main__":
    sys.exit(main())
