#!/usr/bin/env bash
# Issue 19, first acceptance bullet: the simple-model parallel_for_each on the CPU device
# against `omp parallel for simd` (saxpy 2^16..2^24, 5-point stencil 512^2..4096^2), on all
# cores and on one core. Run from the repository root on a machine with cmake, ninja, Google
# Benchmark and OpenMP:
#
#   bash scripts/bench_simple_model.sh            # OUT=./out by default
#
# Configures a CPU-only Release build in $BUILD (default /tmp/hipamp-bench-simple), builds
# bench_simple_model, runs it with every core (OMP_NUM_THREADS unset, or $THREADS) and with
# OMP_NUM_THREADS=1 pinned to one core, and writes to $OUT:
#   bench_simple_model_<N>t.json   Google Benchmark JSON, one file per thread count
#   ratios.md                      per workload and size: medians of hipamp and OpenMP time and
#                                  ratio = OpenMP time / hipamp time (goal >= 0.95), with the
#                                  smallest and largest ratio over the repetitions
#   build.log, configure.log
# Each benchmark interleaves hipamp and OpenMP in the same iterations on the same arrays (see
# benchmarks/bench_simple_model.cpp); REPS repetitions (default 5) of MIN_TIME seconds of
# hipamp time each (default 0.1). About a minute of running on 16 cores, plus the build.
# FILTER (a Google Benchmark filter, default every case) picks the cases on all cores,
# FILTER_1T (default FILTER) on one core: issue 19's decomposition cases (saxpy/n's parts) can
# be left out of either run.
# WITH_TILED=1 also builds and runs bench_tiled's barrier-free tiled-vs-simple pair.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${OUT:-./out}" && cd "${OUT:-./out}" && pwd)"
BUILD="${BUILD:-/tmp/hipamp-bench-simple}"
REPS="${REPS:-5}"
MIN_TIME="${MIN_TIME:-0.1}"
JOBS="${JOBS:-$(nproc)}"

cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPAMP_BACKEND=cpu \
  -DHIPAMP_BUILD_TESTS=OFF -DHIPAMP_BUILD_EXAMPLES=OFF -DHIPAMP_BUILD_BENCHMARKS=ON \
  >"$OUT/configure.log" 2>&1 || { tail -n 20 "$OUT/configure.log"; exit 1; }
targets=(--target bench_simple_model)
[ "${WITH_TILED:-0}" = 1 ] && targets+=(--target bench_tiled)
cmake --build "$BUILD" -j "$JOBS" "${targets[@]}" >"$OUT/build.log" 2>&1 ||
  { tail -n 30 "$OUT/build.log"; exit 1; }

{
  echo "commit: $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$SRC" diff --quiet 2>/dev/null || echo ' (modified)')"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores"
  echo "compiler: $(c++ --version 2>/dev/null | head -n 1)"
} >"$OUT/machine.txt"

run() {  # run THREADS CPULIST FILTER
  local threads="$1" cpus="$2" filter="$3"
  local pin=()
  [ -n "$cpus" ] && command -v taskset >/dev/null && pin=(taskset -c "$cpus")
  OMP_NUM_THREADS="$threads" ${pin[@]+"${pin[@]}"} "$BUILD/benchmarks/bench_simple_model" \
    --benchmark_filter="$filter" \
    --benchmark_min_time="$MIN_TIME" --benchmark_repetitions="$REPS" \
    --benchmark_out="$OUT/bench_simple_model_${threads}t.json" --benchmark_out_format=json \
    >"$OUT/bench_simple_model_${threads}t.txt" 2>&1
}

all="${THREADS:-$(nproc)}"
run "$all" "" "${FILTER:-.}"
run 1 0 "${FILTER_1T:-${FILTER:-.}}"
if [ "${WITH_TILED:-0}" = 1 ]; then
  "$BUILD/benchmarks/bench_tiled" --benchmark_filter=no_barrier --benchmark_repetitions="$REPS" \
    --benchmark_out="$OUT/bench_tiled_no_barrier.json" --benchmark_out_format=json \
    >"$OUT/bench_tiled_no_barrier.txt" 2>&1
fi

python3 - "$OUT" "$all" >"$OUT/ratios.md" <<'EOF'
import json, statistics, sys
out, all_threads = sys.argv[1], sys.argv[2]
print(open(f"{out}/machine.txt").read().strip().replace("\n", "  \n"))
print()
print("| workload | size | threads | hipamp us | omp us | ratio (median) | min | max | >= 0.95 |")
print("|---|---|---|---|---|---|---|---|---|")
for threads in (all_threads, "1"):
    doc = json.load(open(f"{out}/bench_simple_model_{threads}t.json"))
    runs = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "iteration" or "ratio" not in b:
            continue
        runs.setdefault(b["run_name"], []).append(b)
    for name, reps in runs.items():
        work, size = name.split("/")[0][3:], name.split("/")[1]
        ratios = [r["ratio"] for r in reps]
        med = statistics.median(ratios)
        h = statistics.median(r["hipamp_us"] for r in reps)
        o = statistics.median(r["omp_us"] for r in reps)
        # The goal is saxpy's and the stencil's; the rest are their parts (the header of
        # benchmarks/bench_simple_model.cpp).
        goal = ("yes" if med >= 0.95 else "**no**") if work in ("saxpy", "stencil") else ""
        print(f"| {work} | {size} | {reps[0].get('label', threads)} | {h:.4g} | {o:.4g} | "
              f"{med:.3f} | {min(ratios):.3f} | {max(ratios):.3f} | {goal} |")
EOF
cat "$OUT/ratios.md"
