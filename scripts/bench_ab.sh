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
#
# BENCHES: "target:filter ..." (default below); BENCH_ARGS: extra Google Benchmark flags.
# Results land in $OUT: one JSON per run, ab_summary.md, and the logs.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$SRC/bench_ab_out}"
BASE_SRC="$(cd "${BASE_SRC:?BASE_SRC names the base tree}" && pwd)"
BUILD_ROOT="${BUILD_ROOT:-/tmp/hipamp-ab}"
BACKEND="${BACKEND:-cuda}"
mkdir -p "$OUT" "$BUILD_ROOT"
export PATH="/usr/local/cuda/bin:$PATH"
BENCHES="${BENCHES:-bench_gpu_runtime: bench_reduce:gpu/ bench_sort:gpu_(dispatch_vs_radix|non_power_of_two_cost|bitonic_vs_cub_merge_sort/u32) bench_gemm:gpu_sgemm bench_simple_model: bench_tiled:}"
BENCH_ARGS="${BENCH_ARGS:---benchmark_min_time=0.05s}"
phase="${1:-build}"

build_tree() {  # build_tree NAME SOURCE
  local name="$1" source="$2" dir="$BUILD_ROOT/$1"
  local targets=()
  for entry in $BENCHES; do targets+=(--target "${entry%%:*}"); done
  [ -f "$dir/build.ninja" ] || cmake -S "$source" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DHIPAMP_BACKEND="$BACKEND" -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS=OFF \
    -DHIPAMP_BUILD_EXAMPLES=OFF >"$OUT/configure_$name.log" 2>&1 || return 1
  cmake --build "$dir" -j "$(nproc)" "${targets[@]}" >"$OUT/build_$name.log" 2>&1
}

if [ "$phase" = "build" ]; then
  start=$SECONDS
  build_tree base "$BASE_SRC" & base_pid=$!
  build_tree new "$SRC" & new_pid=$!
  wait $base_pid; base_rc=$?
  wait $new_pid; new_rc=$?
  echo "== build: base rc=$base_rc, new rc=$new_rc ($((SECONDS - start)) s)"
  tail -3 "$OUT/build_base.log" "$OUT/build_new.log"
  [ $base_rc -eq 0 ] && [ $new_rc -eq 0 ]
  exit $?
fi

if [ "$phase" = "run" ]; then
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt" 2>&1
  lscpu | grep -m1 "Model name" >>"$OUT/device.txt"
  for entry in $BENCHES; do
    target="${entry%%:*}"
    filter="${entry#*:}"
    for round in 1 2; do
      for tree in base new; do
        exe="$BUILD_ROOT/$tree/benchmarks/$target"
        [ -x "$exe" ] || { echo "missing $exe"; continue; }
        # shellcheck disable=SC2086
        timeout 240 "$exe" ${filter:+--benchmark_filter="$filter"} $BENCH_ARGS \
          --benchmark_out="$OUT/${target}_${tree}_${round}.json" --benchmark_out_format=json \
          >"$OUT/${target}_${tree}_${round}.log" 2>&1 || echo "== $target $tree round $round rc=$?"
      done
    done
    echo "== $target done"
  done
  python3 "$SRC/scripts/bench_ab_summary.py" "$OUT" | tee "$OUT/ab_summary.md"
  exit 0
fi
echo "usage: BASE_SRC=<tree> $0 build|run" >&2
exit 2
