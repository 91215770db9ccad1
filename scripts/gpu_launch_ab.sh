#!/usr/bin/env bash
# Issue 19's launch goal on the GPU machine, in one device call that must stay inside a budget:
# the launch cases of bench_gpu_runtime from a base tree and this tree (scripts/bench_ab.sh,
# alternated, ROUNDS pairs), and this tree's whole test suite, plain and on the emulated
# discrete device. The builds run side by side, then the benchmarks, then the tests; every step
# is cut off at DEADLINE seconds after the start, so the call ends in time and still returns
# what it has.
#
#   git archive <base> | tar -x -C build-s19-base; git archive HEAD | tar -x -C build-s19-src
#   run (carry both): BASE_SRC=build-s19-base bash build-s19-src/scripts/gpu_launch_ab.sh
#
# Results in $OUT: ab_summary.md and ab_runs.tar.gz (bench_ab.sh's), tests.log,
# tests_emulated.log, the build logs.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$PWD/gpu_launch_ab_out}"
BUILD_ROOT="${BUILD_ROOT:-/tmp/hipamp-launch-ab}"
DEADLINE="${DEADLINE:-440}"
ROUNDS="${ROUNDS:-5}"
TESTS="${TESTS:-1}"  # 0: the benchmarks only
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT" "$BUILD_ROOT"
start=$SECONDS
# Seconds left before DEADLINE, at least 1 (timeout 0 would mean no limit at all).
left() {
  local l=$((DEADLINE - (SECONDS - start)))
  echo $((l > 0 ? l : 1))
}

# Both trees built side by side before anything is timed (a build beside the benchmarks would
# load the host whose launch cost they measure): the base tree's benchmark as bench_ab.sh
# configures it, this tree's benchmark and suite in one build directory.
configure() {  # configure DIR SOURCE TESTS
  [ -f "$1/build.ninja" ] || cmake -S "$2" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS="$3" \
    -DHIPAMP_BUILD_EXAMPLES=OFF
}
BASE_SRC="$(cd "${BASE_SRC:?BASE_SRC names the base tree}" && pwd)"
(configure "$BUILD_ROOT/base" "$BASE_SRC" OFF &&
  timeout "$(left)" cmake --build "$BUILD_ROOT/base" -j "$(nproc)" --target bench_gpu_runtime) \
  >"$OUT/build_base.log" 2>&1 &
base_pid=$!
new="$BUILD_ROOT/new"
# The benchmark first, on its own: a test unit that fails to compile must not cost the A/B.
(configure "$new" "$SRC" ON &&
  timeout "$(left)" cmake --build "$new" -j "$(nproc)" --target bench_gpu_runtime &&
  if [ "$TESTS" != 0 ]; then
    timeout "$(left)" cmake --build "$new" -j "$(nproc)" --target hipamp_tests -- -k 0
  fi) \
  >"$OUT/build_new.log" 2>&1
echo "== new tree built, rc=$? at $((SECONDS - start)) s"
wait $base_pid
echo "== base tree built, rc=$? at $((SECONDS - start)) s"
tail -n 2 "$OUT/build_base.log" "$OUT/build_new.log"
BASE_SRC="$BASE_SRC" BENCHES="bench_gpu_runtime:launch" BUILD_ROOT="$BUILD_ROOT" OUT="$OUT" \
  ROUNDS="$ROUNDS" BENCH_ARGS="--benchmark_repetitions=1" RUN_LIMIT=60 \
  timeout "$(left)" bash "$SRC/scripts/bench_ab.sh" run
echo "== benchmarks done at $((SECONDS - start)) s"
tests="$new/tests/hipamp_tests"
if [ "$TESTS" != 0 ] && [ -x "$tests" ]; then
  timeout "$(left)" "$tests" >"$OUT/tests.log" 2>&1
  echo "== tests rc=$? at $((SECONDS - start)) s"
  tail -4 "$OUT/tests.log"
  HIPAMP_EMULATE_DISCRETE_DEVICE=1 HIPAMP_DEFAULT_ACCELERATOR=emulated \
    timeout "$(left)" "$tests" >"$OUT/tests_emulated.log" 2>&1
  echo "== tests (emulated device) rc=$? at $((SECONDS - start)) s"
  tail -4 "$OUT/tests_emulated.log"
fi
