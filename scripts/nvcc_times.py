#!/usr/bin/env python3
"""Per-translation-unit nvcc times of a configured CUDA build, as a Markdown table.

Compiles each unit of <build-dir>/compile_commands.json again, one at a time (or -j N), nvcc
units with `nvcc --time`, into a scratch object, and prints one row per unit: its CPU time
(the compiler and all its phases: what a busy or shared machine changes least), its wall time,
and the nvcc phases that dominate (cicc: front end and device optimiser; ptxas: device
assembly; the host compiler's passes).

  scripts/nvcc_times.py build/cuda-release                 # every unit
  scripts/nvcc_times.py build/cuda-release 'test_sort_'    # units whose path matches a regex
  scripts/nvcc_times.py -j 16 build/cuda-release tests/    # 16 at a time (a big machine)
  scripts/nvcc_times.py -j 8 --longest-first benchmarks/results/h100_69f7710_nvcc_times_sort_2026-11-26.md \
      build/cuda-release 'test_sort_'   # start the units an earlier table found longest first

Times measured in parallel include the machine's contention; say how they were taken.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time


def time_unit(entry, scratch):
    args = shlex.split(entry["command"])
    out = os.path.join(scratch, os.path.basename(entry["file"]) + ".o")
    if "-o" in args:
        args[args.index("-o") + 1] = out
    is_nvcc = os.path.basename(args[0]) == "nvcc"
    timing = os.path.join(scratch, os.path.basename(entry["file"]) + ".csv")
    if is_nvcc:
        args += ["--time", timing]
    start = time.monotonic()
    with tempfile.TemporaryFile(mode="w+") as log:
        proc = subprocess.Popen(args, cwd=entry["directory"], stdout=log, stderr=log, text=True)
        # wait4: the CPU time of the compiler and every phase it ran (cicc, ptxas, gcc), which a
        # machine shared with other work changes far less than the wall time.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        cpu = usage.ru_utime + usage.ru_stime
        if proc.returncode != 0:
            log.seek(0)
            return entry["file"], is_nvcc, wall, cpu, None, log.read()[-2000:]
    phases = {}
    if is_nvcc:
        with open(timing, newline="") as f:
            rows = list(csv.reader(f))
        for row in rows[1:]:
            if len(row) < 8:
                continue
            name = re.sub(r"\s*\(.*\)", "", row[1].strip())  # gcc (compiling) -> gcc
            ms = float(row[6])
            phases[name] = phases.get(name, 0.0) + ms / 1000.0
    return entry["file"], is_nvcc, wall, cpu, phases, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("pattern", nargs="?", default="")
    parser.add_argument("-j", type=int, default=1, help="units compiled at once (default 1)")
    parser.add_argument("--longest-first", metavar="TABLE",
                        help="an earlier table of this script: start its longest units first "
                        "(units it lacks before them), so that -j N ends on short ones")
    opts = parser.parse_args()
    with open(os.path.join(opts.build_dir, "compile_commands.json")) as f:
        entries = [e for e in json.load(f) if re.search(opts.pattern, e["file"])]
    if opts.longest_first:
        earlier = {}
        with open(opts.longest_first) as f:
            for line in f:
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if len(cells) >= 3 and re.fullmatch(r"[0-9.]+", cells[2]):
                    earlier[cells[0]] = float(cells[2])

        def expected(entry):
            times = [t for unit, t in earlier.items() if entry["file"].endswith("/" + unit)]
            return max(times) if times else float("inf")

        entries.sort(key=lambda e: -expected(e))
    if not entries:
        sys.exit(f"nvcc_times: no unit in {opts.build_dir} matches '{opts.pattern}'")
    failed = False
    rows = []
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(max_workers=opts.j) as pool:
        for file, is_nvcc, wall, cpu, phases, error in pool.map(lambda e: time_unit(e, scratch),
                                                           entries):
            if error is not None:
                print(f"nvcc_times: {file} failed:\n{error}", file=sys.stderr)
                failed = True
                continue
            rows.append((file, is_nvcc, wall, cpu, phases))
            print(f"  {os.path.relpath(file)}: {cpu:.1f} s CPU, {wall:.1f} s wall", file=sys.stderr,
                  flush=True)
    rows.sort(key=lambda r: -r[3])
    print("| unit | compiler | CPU s | wall s | cicc s | ptxas s | host compiler s | cudafe++ s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for file, is_nvcc, wall, cpu, phases in rows:
        unit = os.path.relpath(file)
        if is_nvcc:
            print(f"| {unit} | nvcc | {cpu:.1f} | {wall:.1f} | {phases.get('cicc', 0):.1f} | "
                  f"{phases.get('ptxas', 0):.1f} | {phases.get('gcc', 0):.1f} | "
                  f"{phases.get('cudafe++', 0):.1f} |")
        else:
            print(f"| {unit} | host | {cpu:.1f} | {wall:.1f} | | | {wall:.1f} | |")
    print(f"\nsum over {len(rows)} units: {sum(r[3] for r in rows):.0f} s CPU, "
          f"{sum(r[2] for r in rows):.0f} s wall (phase columns are nvcc --time's wall times)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
