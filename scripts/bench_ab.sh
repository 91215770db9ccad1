#!/usr/bin/env bash
# A/B benchmark summary for changes that must not move performance (issue 16's restructure):
# builds the same benchmark targets from a base tree and from this tree with one CUDA Release
# configuration, then runs each benchmark alternately base, new, base, new on the same machine
# and writes a table of new/base time ratios per case, with the base-vs-base spread of the same
# run beside it (that spread is the noise).
#
#   git archive <base-commit> | tar -x -C build-ab-base     # on the development machine
#   run (carry build-ab-base):
#     BASE_SRC=build-ab-base bash scripts/bench_ab.sh build   # configure + build both trees
#     BASE_SRC=build-ab-base bash scripts/bench_ab.sh run     # next call, same warm machine
#     BASE_SRC=build-ab-base bash scripts/bench_ab.sh build-run   # both in one call
#
# BENCHES: "target:filter ..." (default below); BENCH_ARGS: extra Google Benchmark flags;
# ROUNDS: base/new pairs per benchmark (default 2; the base-vs-base noise column needs 2);
# RUN_LIMIT: seconds one benchmark run may take. The whole default set takes far longer than
# one 10-minute device call (bench_reduce alone runs over two minutes): name a subset.
# Results land in $OUT: ab_summary.md, and one tarball of every JSON and log.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$SRC/bench_ab_out}"
BASE_SRC="$(cd "${BASE_SRC:?BASE_SRC names the base tree}" && pwd)"
NEW_SRC="$(cd "${NEW_SRC:-$SRC}" && pwd)"  # another snapshot, to keep benchmark code equal
BUILD_ROOT="${BUILD_ROOT:-/tmp/hipamp-ab}"
BACKEND="${BACKEND:-cuda}"
mkdir -p "$OUT" "$BUILD_ROOT"
export PATH="/usr/local/cuda/bin:$PATH"
BENCHES="${BENCHES:-bench_gpu_runtime: bench_reduce:gpu/ bench_sort:gpu_(dispatch_vs_radix|non_power_of_two_cost|sort_vs_cub_merge_sort/u32) bench_gemm:gpu_sgemm bench_simple_model: bench_tiled:}"
BENCH_ARGS="${BENCH_ARGS:---benchmark_min_time=0.05s}"
phase="${1:-build}"
ROUNDS="${ROUNDS:-2}"
RUN_LIMIT="${RUN_LIMIT:-240}"

build_tree() {  # build_tree NAME SOURCE
  local name="$1" source="$2" dir="$BUILD_ROOT/$1"
  local targets=()
  for entry in $BENCHES; do targets+=(--target "${entry%%:*}"); done
  [ -f "$dir/build.ninja" ] || cmake -S "$source" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DHIPAMP_BACKEND="$BACKEND" -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS=OFF \
    -DHIPAMP_BUILD_EXAMPLES=OFF >"$OUT/configure_$name.log" 2>&1 || return 1
  cmake --build "$dir" -j "$(nproc)" "${targets[@]}" >"$OUT/build_$name.log" 2>&1
}

if [ "$phase" = "build" ] || [ "$phase" = "build-run" ]; then
  start=$SECONDS
  build_tree base "$BASE_SRC" & base_pid=$!
  build_tree new "$NEW_SRC" & new_pid=$!
  wait $base_pid; base_rc=$?
  wait $new_pid; new_rc=$?
  echo "== build: base rc=$base_rc, new rc=$new_rc ($((SECONDS - start)) s)"
  tail -n 3 "$OUT/build_base.log" "$OUT/build_new.log"
  [ $base_rc -eq 0 ] && [ $new_rc -eq 0 ] || exit 1
  [ "$phase" = "build" ] && exit 0
fi

if [ "$phase" = "run" ] || [ "$phase" = "build-run" ]; then
  RUNS="$OUT/runs"
  mkdir -p "$RUNS"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$RUNS/device.txt" 2>&1
  lscpu | grep -m1 "Model name" >>"$RUNS/device.txt"
  for entry in $BENCHES; do
    target="${entry%%:*}"
    filter="${entry#*:}"
    for round in $(seq 1 "$ROUNDS"); do
      for tree in base new; do
        exe="$BUILD_ROOT/$tree/benchmarks/$target"
        [ -x "$exe" ] || { echo "missing $exe"; continue; }
        # shellcheck disable=SC2086
        t=$SECONDS
        timeout "$RUN_LIMIT" "$exe" ${filter:+--benchmark_filter="$filter"} $BENCH_ARGS \
          --benchmark_out="$RUNS/${target}_${tree}_${round}.json" --benchmark_out_format=json \
          >"$RUNS/${target}_${tree}_${round}.log" 2>&1 || echo "== $target $tree round $round rc=$?"
        echo "== $target $tree round $round: $((SECONDS - t)) s"
      done
    done
  done
  python3 "$SRC/scripts/bench_ab_summary.py" "$RUNS" | tee "$OUT/ab_summary.md"
  tar -C "$RUNS" -czf "$OUT/ab_runs.tar.gz" .
  exit 0
fi
echo "usage: BASE_SRC=<tree> $0 build|run|build-run" >&2
exit 2
