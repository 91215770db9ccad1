#!/usr/bin/env bash
# Developer tool for the GPU machine: builds bench_sort (and, with TESTS=1, the test suite and
# runs its [sort] cases), then runs the sort benchmarks named by FILTER.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT="${OUT:-$(pwd)/dev_out}"
B="${BUILD:-/tmp/hipamp-gpu-verify}"
mkdir -p "$OUT"
[ -f "$B/build.ninja" ] || cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPAMP_BACKEND=cuda \
  -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/cfg.log" 2>&1
targets=(--target bench_sort)
[ "${TESTS:-0}" = 1 ] && targets+=(--target hipamp_tests)
cmake --build "$B" -j "$(nproc)" "${targets[@]}" >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -20; exit 1; }
if [ "${TESTS:-0}" = 1 ]; then
  "$B/tests/hipamp_tests" "[sort]" >"$OUT/tests_sort.log" 2>&1; tail -3 "$OUT/tests_sort.log"
fi
"$B/benchmarks/bench_sort" --benchmark_filter="${FILTER:-gpu_bitonic_vs_cub_merge_sort|gpu_non_power}" \
  ${BENCH_ARGS:-} --benchmark_out="$OUT/bench.json" --benchmark_out_format=json 2>&1 |
  grep -E "^gpu" | sed -E 's/ +[0-9.]+ ms +[0-9.]+ ms +1 / /; s/iterations:1 //' | cut -c1-200
if [ "${FULL_TESTS:-0}" = 1 ]; then
  timeout 170 "$B/tests/hipamp_tests" >"$OUT/tests_all.log" 2>&1; echo "full suite rc=$?"; tail -3 "$OUT/tests_all.log"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
