#!/usr/bin/env bash
# Issue 19: a runtime switch measured on and off in the same binaries, alternated, on the GPU
# machine in one device call. AB_VAR names the switch (default HIPAMP_BIASED_REFS, session 19's
# biased reference count; HIPAMP_CAPTURE_IMAGE, the capture image of nvcc lambdas), set to 1
# ("on") and 0 ("off") by turns:
#   - bench_gpu_runtime's launch cases (CUDA build), ROUNDS pairs;
#   - unless CPU_BENCH=0, bench_simple_model's saxpy 2^16 / 2^18 and stencil 512^2 (CPU build),
#     16 threads and 1;
#   - unless TESTS=0, the CUDA build's whole suite plain and on the emulated discrete device, and
#     OFF_TESTS (a Catch filter) with the switch off.
# The builds run side by side first; every step is cut off at DEADLINE seconds after the start.
#   run: AB_VAR=... bash scripts/env_ab.sh      Results in $OUT: runs.tar.gz, summary.md, logs.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$PWD/env_ab_out}"
AB_VAR="${AB_VAR:-HIPAMP_BIASED_REFS}"
CPU_BENCH="${CPU_BENCH:-1}"
OFF_TESTS="${OFF_TESTS:-[biased_refs],[coherence],[launch_scope]}"
ROOT="${BUILD_ROOT:-/tmp/hipamp-biased-ab}"
DEADLINE="${DEADLINE:-560}"
ROUNDS="${ROUNDS:-6}"
TESTS="${TESTS:-1}"
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT/runs" "$ROOT"
start=$SECONDS
left() {
  local l=$((DEADLINE - (SECONDS - start)))
  echo $((l > 0 ? l : 1))
}
cpu="$ROOT/cpu"
gpu="$ROOT/cuda"
[ "$CPU_BENCH" != 0 ] && ([ -f "$cpu/build.ninja" ] || cmake -S "$SRC" -B "$cpu" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPAMP_BACKEND=cpu -DHIPAMP_BUILD_TESTS=OFF -DHIPAMP_BUILD_EXAMPLES=OFF) >"$OUT/build_cpu.log" 2>&1 &&
  timeout "$(left)" cmake --build "$cpu" -j 4 --target bench_simple_model >>"$OUT/build_cpu.log" 2>&1 &
cpu_pid=$!
([ -f "$gpu/build.ninja" ] || cmake -S "$SRC" -B "$gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS="$([ "$TESTS" != 0 ] && echo ON || echo OFF)" \
  -DHIPAMP_BUILD_EXAMPLES=OFF &&
  timeout "$(left)" cmake --build "$gpu" -j "$(nproc)" --target bench_gpu_runtime &&
  if [ "$TESTS" != 0 ]; then
    timeout "$(left)" cmake --build "$gpu" -j "$(nproc)" --target hipamp_tests -- -k 0
  fi) >"$OUT/build_cuda.log" 2>&1
echo "== cuda built rc=$? at $((SECONDS - start)) s"
wait $cpu_pid
echo "== cpu built rc=$? at $((SECONDS - start)) s"
tail -n 2 "$OUT/build_cpu.log" "$OUT/build_cuda.log"
for r in $(seq 1 "$ROUNDS"); do
  for mode in on off; do
    flag=$([ $mode = on ] && echo 1 || echo 0)
    env "$AB_VAR=$flag" timeout "$(left)" "$gpu/benchmarks/bench_gpu_runtime" \
      --benchmark_filter='launch' --benchmark_format=json \
      --benchmark_out="$OUT/runs/bench_gpu_runtime_${mode}_$r.json" >/dev/null 2>&1
    [ "$CPU_BENCH" != 0 ] && for t in 16 1; do
      env "$AB_VAR=$flag" OMP_NUM_THREADS=$t timeout "$(left)" \
        "$cpu/benchmarks/bench_simple_model" \
        --benchmark_filter='BM_(saxpy|prebuilt_saxpy)/(65536|262144)/|BM_stencil/512/' \
        --benchmark_min_time=0.3s --benchmark_format=json \
        --benchmark_out="$OUT/runs/bench_simple_model_${mode}_t${t}_$r.json" >/dev/null 2>&1
    done
  done
done
echo "== benchmarks done at $((SECONDS - start)) s"
python3 "$SRC/scripts/launch_ratio_table.py" "$OUT/runs" >"$OUT/summary.md" 2>&1
python3 "$SRC/scripts/simple_model_ratio_table.py" "$OUT/runs" count >>"$OUT/summary.md" 2>&1
cat "$OUT/summary.md"
tests="$gpu/tests/hipamp_tests"
if [ "$TESTS" != 0 ] && [ -x "$tests" ]; then
  timeout "$(left)" "$tests" >"$OUT/tests.log" 2>&1
  echo "== tests rc=$? at $((SECONDS - start)) s"; tail -3 "$OUT/tests.log"
  HIPAMP_EMULATE_DISCRETE_DEVICE=1 HIPAMP_DEFAULT_ACCELERATOR=emulated \
    timeout "$(left)" "$tests" >"$OUT/tests_emulated.log" 2>&1
  echo "== tests (emulated device) rc=$? at $((SECONDS - start)) s"; tail -3 "$OUT/tests_emulated.log"
  env "$AB_VAR=0" timeout "$(left)" "$tests" "$OFF_TESTS" \
    >"$OUT/tests_switch_off.log" 2>&1
  echo "== tests ($AB_VAR=0) rc=$? at $((SECONDS - start)) s"; tail -3 "$OUT/tests_switch_off.log"
fi
tar -czf "$OUT/runs.tar.gz" -C "$OUT" runs && rm -rf "$OUT/runs"
echo "== done at $((SECONDS - start)) s"
