#!/usr/bin/env bash
# Issue 19's CPU goal, A/B of two trees on the GPU machine's 16-core host in one device call:
# builds bench_simple_model (CPU backend, Release) from a base tree and from this tree side by
# side, then runs them alternately base, new, base, new ... ROUNDS times, on 16 threads and on 1
# (THREADS), and prints the OpenMP/hipamp ratio of every round and its median per tree
# (scripts/simple_model_ratio_table.py). Every step is cut off at DEADLINE seconds after start.
#   git archive <base> | tar -x -C build-ab-base      # on the development machine
#   run (carry build-ab-base): BASE_SRC=build-ab-base bash scripts/cpu_tree_ab.sh
# FILTER: the benchmark filter (default: the three cases the goal misses on 16 threads and their
# decomposition). Results in $OUT: summary.md, runs.tar.gz, build logs.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASE_SRC="$(cd "${BASE_SRC:?BASE_SRC names the base tree}" && pwd)"
OUT="${OUT:-$PWD/cpu_tree_ab_out}"
ROOT="${BUILD_ROOT:-/tmp/hipamp-cpu-ab}"
DEADLINE="${DEADLINE:-400}"
ROUNDS="${ROUNDS:-5}"
THREADS="${THREADS:-16 1}"
FILTER="${FILTER:-BM_(saxpy|prebuilt_saxpy|raw_saxpy|chunks_saxpy)/(65536|262144)/|BM_stencil/512/|BM_empty/65536/}"
mkdir -p "$OUT/runs" "$ROOT"
start=$SECONDS
left() {
  local l=$((DEADLINE - (SECONDS - start)))
  echo $((l > 0 ? l : 1))
}
jobs_each=$(($(nproc) / 2 > 0 ? $(nproc) / 2 : 1))
build() {  # build NAME SOURCE
  ([ -f "$ROOT/$1/build.ninja" ] || cmake -S "$2" -B "$ROOT/$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DHIPAMP_BACKEND=cpu -DHIPAMP_BUILD_TESTS=OFF -DHIPAMP_BUILD_EXAMPLES=OFF) >"$OUT/build_$1.log" 2>&1 &&
    timeout "$(left)" cmake --build "$ROOT/$1" -j "$jobs_each" --target bench_simple_model \
      >>"$OUT/build_$1.log" 2>&1
}
build base "$BASE_SRC" & base_pid=$!
build new "$SRC" & new_pid=$!
wait $base_pid; base_rc=$?
wait $new_pid; new_rc=$?
echo "== built: base rc=$base_rc, new rc=$new_rc at $((SECONDS - start)) s"
[ $base_rc -eq 0 ] && [ $new_rc -eq 0 ] || { tail -n 20 "$OUT"/build_*.log; exit 1; }
lscpu | grep -m1 "Model name" >"$OUT/runs/device.txt"
for r in $(seq 1 "$ROUNDS"); do
  for tree in base new; do
    for t in $THREADS; do
      OMP_NUM_THREADS=$t timeout "$(left)" "$ROOT/$tree/benchmarks/bench_simple_model" \
        --benchmark_filter="$FILTER" --benchmark_min_time=0.2s --benchmark_format=json \
        --benchmark_out="$OUT/runs/bench_simple_model_${tree}_t${t}_$r.json" >/dev/null 2>&1
    done
  done
  echo "== round $r done at $((SECONDS - start)) s"
done
python3 "$SRC/scripts/simple_model_ratio_table.py" "$OUT/runs" tree | tee "$OUT/summary.md"
tar -czf "$OUT/runs.tar.gz" -C "$OUT" runs && rm -rf "$OUT/runs"
echo "== done at $((SECONDS - start)) s"
