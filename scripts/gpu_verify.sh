#!/usr/bin/env bash
# The GPU machine's verification of hipamp, in two device calls that share one build:
#   bash scripts/gpu_verify.sh build-and-test   # configure, build everything, run the whole
#                                               # suite (plain, emulated device, [.large]),
#                                               # compute-sanitizer, the demo
#   bash scripts/gpu_verify.sh bench            # every benchmark, JSON + ratio tables
#   bash scripts/gpu_verify.sh tests-then-bench # build, the two test runs, then the benchmarks
#                                               # named in BENCHES (BENCH_FILTER, one repetition)
#   bash scripts/gpu_verify.sh sweep            # build only the benchmarks named in BENCHES and
#                                               # run them (tuning sweeps); TEST_SPEC='[sort]'
#                                               # also builds the suite and runs those cases first
#   bash scripts/gpu_verify.sh build            # configure and build TARGETS (default: all), for
#                                               # tools that run on the build (profile_sort.sh)
#   bash scripts/gpu_verify.sh suite            # build the suite (and TARGETS), run it plain and
#                                               # on the emulated discrete device
#   bash scripts/gpu_verify.sh release-build-test       # the full build timed (issue 17), per-unit
#                                               # times, the suite plain and emulated, ctest
#   bash scripts/gpu_verify.sh multi-gpu        # on a machine of several GPUs (issue 20): build the
#                                               # suite and bench_multi_gpu, run [multi-device]
#                                               # with peer copies on and off and beside emulated
#                                               # devices, the benchmarks (BENCHES adds others)
#   bash scripts/gpu_verify.sh multi-gpu-suites # next call, same warm machine: the whole suite with
#                                               # HIPAMP_DEFAULT_ACCELERATOR set to each GPU in turn
#   bash scripts/gpu_verify.sh release-consumer-corpus  # next call, same warm machine: the README's
#                                               # consumer project on the GPU, the public C++ AMP
#                                               # corpus (carry build-corpus-src), bench_gpu_runtime
# Everything lands in $OUT (one tarball plus a summary), and a short table is printed last.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$SRC/gpu_verify_out}"
BUILD="${BUILD:-/tmp/hipamp-gpu-verify}"
LOGS="/tmp/hipamp-gpu-logs"
mkdir -p "$OUT" "$LOGS"
export PATH="/usr/local/cuda/bin:$PATH"
phase="${1:-build-and-test}"
declare -a SUMMARY=()
note() { SUMMARY+=("$1"); echo "== $1"; }
step() {  # step NAME LIMIT LOG CMD...
  local name="$1" limit="$2" log="$3"; shift 3
  local start=$SECONDS
  echo "### $name" >>"$log"
  timeout --kill-after=10 "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ]; then note "$name: ok ($((SECONDS - start))s)"; else note "$name: FAILED rc=$rc ($((SECONDS - start))s)"; fi
  return $rc
}
finish() {
  tar -C "$LOGS" -czf "$OUT/$phase-logs.tar.gz" . 2>/dev/null
  echo
  echo "================ summary ($phase) ================"
  printf '%s\n' "${SUMMARY[@]}"
}
trap finish EXIT

# The one Release CUDA configuration every phase builds in.
configure() {
  [ -f "$BUILD/build.ninja" ] || step configure 120 "$LOGS/build.log" cmake -S "$SRC" -B "$BUILD" \
    -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90
}

# The built suite run plain and with the emulated discrete device as default, each cut off at
# LIMIT seconds; prints both verdicts and the first FAILED_LINES lines of any failure.
suite_twice() {  # suite_twice LIMIT FAILED_LINES
  local T="$BUILD/tests/hipamp_tests"
  step "tests" "$1" "$LOGS/tests.log" "$T"
  step "tests, emulated discrete device default" "$1" "$LOGS/tests_emulated.log" \
    env HIPAMP_EMULATE_DISCRETE_DEVICE=1 HIPAMP_DEFAULT_ACCELERATOR=emulated "$T"
  for f in tests tests_emulated; do
    echo "$f: $(grep -hE '^(All tests passed|test cases:)' "$LOGS/$f.log" | tail -1)"
  done
  grep -h -B3 -A12 "FAILED:" "$LOGS"/tests*.log | head -"$2"
}

if [ "$phase" = "build" ]; then
  configure || exit 1
  targets=()
  for t in ${TARGETS:-}; do targets+=(--target "$t"); done
  step build 590 "$LOGS/build.log" cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" -- -k 0 ||
    { grep -E "error|FAILED" "$LOGS/build.log" | head -30; exit 1; }
elif [ "$phase" = "build-and-test" ]; then
  {
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvcc --version | tail -1
    lscpu | grep -E "Model name|^CPU\(s\)"
    date -u
  } | tee "$LOGS/machine.txt"
  configure || { tail -30 "$LOGS/build.log"; exit 1; }
  step build 330 "$LOGS/build.log" cmake --build "$BUILD" -j "$(nproc)" -- -k 0 \
    || grep -E "error|FAILED" "$LOGS/build.log" | head -30
  T="$BUILD/tests/hipamp_tests"
  step "tests" 150 "$LOGS/tests.log" "$T"
  step "tests, emulated discrete device default" 150 "$LOGS/tests_emulated.log" \
    env HIPAMP_EMULATE_DISCRETE_DEVICE=1 HIPAMP_DEFAULT_ACCELERATOR=emulated "$T"
  step "tests [.large]" 120 "$LOGS/tests_large.log" "$T" "[.large]"
  (cd "$BUILD" && step "ctest (other tests)" 120 "$LOGS/ctest.log" ctest -E "hipamp_tests" --output-on-failure)
  step "demo" 120 "$LOGS/demo.log" "$BUILD/examples/hipamp_demo"
  step "memcheck [coherence],[gpu]" 150 "$LOGS/sanitizers.log" compute-sanitizer --tool memcheck \
    --error-exitcode 99 --print-limit 20 "$T" "[coherence],[gpu]~[error]~[concurrency]"
  step "racecheck [tiled]" 90 "$LOGS/sanitizers.log" compute-sanitizer --tool racecheck \
    --error-exitcode 99 --print-limit 20 "$T" "[tiled]"
  echo; echo "---- test summaries"
  for f in tests tests_emulated tests_large; do
    echo "$f: $(grep -hE '^(All tests passed|test cases:)' "$LOGS/$f.log" | tail -1)"
  done
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$LOGS/sanitizers.log"
  grep -h -B3 -A12 "FAILED:" "$LOGS"/tests*.log | head -60
  echo "---- demo"; sed -n '1,40p' "$LOGS/demo.log"
elif [ "$phase" = "suite" ]; then
  # The shortest check of a tree on the GPU: the suite and the targets in TARGETS built, the
  # suite run plain and with the emulated discrete device default. A later
  # release-consumer-corpus call on the warm machine installs this build.
  git -C "$SRC" rev-parse HEAD 2>/dev/null | tee "$LOGS/machine.txt"
  nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$LOGS/machine.txt"
  configure || { tail -30 "$LOGS/build.log"; exit 1; }
  targets=(--target hipamp_tests)
  for t in ${TARGETS:-}; do targets+=(--target "$t"); done
  step build "${BUILD_LIMIT:-400}" "$LOGS/build.log" cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" -- -k 0 ||
    { grep -E "error|FAILED" "$LOGS/build.log" | head -30; exit 1; }
  suite_twice 100 60
elif [ "$phase" = "release-build-test" ]; then
  # One call: the full Release CUDA build timed (issue 17's goal: <= 4 min on 16 cores), the
  # per-unit wall times from ninja's log, the suite plain and with the emulated discrete device
  # default, and the other CTest tests (package consumer with a GPU check, ported programs).
  {
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvcc --version | tail -1
    lscpu | grep -E "Model name|^CPU\(s\)"
    date -u
    git -C "$SRC" rev-parse HEAD 2>/dev/null || true
  } | tee "$LOGS/machine.txt"
  configure || { tail -30 "$LOGS/build.log"; exit 1; }
  build_start=$SECONDS
  step "full build" "${BUILD_LIMIT:-330}" "$LOGS/build.log" cmake --build "$BUILD" -j "$(nproc)" -- -k 0 \
    || grep -E "error|FAILED" "$LOGS/build.log" | head -30
  note "full build wall time: $((SECONDS - build_start)) s on $(nproc) cores"
  python3 - "$BUILD/.ninja_log" >"$LOGS/unit_times.txt" <<'PY'
import sys
rows = []
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    start, end, _, target, _ = line.rstrip("\n").split("\t")
    if target.endswith(".o"):
        rows.append(((int(end) - int(start)) / 1000.0, target))
rows.sort(reverse=True)
print("wall seconds per object (16 jobs side by side), largest first; %d objects" % len(rows))
for s, t in rows[:40]:
    print("%7.1f  %s" % (s, t))
PY
  head -15 "$LOGS/unit_times.txt"
  suite_twice 120 60
  (cd "$BUILD" && step "ctest (other tests)" 100 "$LOGS/ctest.log" \
    env HIPAMP_CONSUMER_EXPECT_GPU=1 ctest -E "^hipamp_tests" --output-on-failure -j 4)
  grep -hE "tests passed|Failed|\*\*\*" "$LOGS/ctest.log" | head -20
elif [ "$phase" = "multi-gpu" ]; then
  {
    nvidia-smi --query-gpu=index,name,driver_version,memory.total,pci.bus_id --format=csv,noheader
    nvidia-smi topo -m
    nvcc --version | tail -1
    lscpu | grep -E "Model name|^CPU\(s\)"
    date -u
  } 2>&1 | tee "$LOGS/machine.txt"
  configure || { tail -30 "$LOGS/build.log"; exit 1; }
  targets=(--target hipamp_tests --target bench_multi_gpu)
  for entry in ${BENCHES:-}; do targets+=(--target "${entry%%:*}"); done
  step build "${BUILD_LIMIT:-330}" "$LOGS/build.log" cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" -- -k 0 ||
    { grep -E "error|FAILED" "$LOGS/build.log" | head -30; exit 1; }
  T="$BUILD/tests/hipamp_tests"
  gpus=$(nvidia-smi -L | grep -c "^GPU")
  export HIPAMP_TEST_EXPECT_GPUS=$gpus
  step "[multi-device], $gpus GPUs, peer copies" 120 "$LOGS/multi.log" "$T" "[multi-device],[coherence]"
  step "[multi-device], peer copies off" 120 "$LOGS/multi_no_peer.log" env HIPAMP_PEER_COPIES=0 \
    "$T" "[multi-device],[coherence]"
  step "[multi-device], GPUs and 2 emulated devices" 150 "$LOGS/multi_emulated.log" \
    env HIPAMP_EMULATE_DISCRETE_DEVICE=2 "$T" "[multi-device],[coherence]"
  for f in multi multi_no_peer multi_emulated; do
    echo "$f: $(grep -hE '^(All tests passed|test cases:)' "$LOGS/$f.log" | tail -1)"
  done
  grep -hE "route .*(peer copy|through the host)" "$LOGS"/multi*.log | sort | uniq -c | head -20
  grep -h -B3 -A12 "FAILED:" "$LOGS"/multi*.log | head -60
  step "bench_multi_gpu" 150 "$LOGS/bench_multi_gpu.log" "$BUILD/benchmarks/bench_multi_gpu" \
    --benchmark_out="$LOGS/bench_multi_gpu.json" --benchmark_out_format=json
  grep -E "^BM_" "$LOGS/bench_multi_gpu.log" | cut -c1-240
  for entry in ${BENCHES:-}; do
    IFS=: read -r b filter limit <<<"$entry"
    step "$b" "${limit:-120}" "$LOGS/$b.log" "$BUILD/benchmarks/$b" --benchmark_filter="${filter:-.}" \
      --benchmark_out="$LOGS/$b.json" --benchmark_out_format=json
    grep -E "^gpu" "$LOGS/$b.log" | cut -c1-240
  done
  cp "$LOGS"/*.json "$LOGS/machine.txt" "$OUT/" 2>/dev/null
elif [ "$phase" = "multi-gpu-suites" ]; then
  T="$BUILD/tests/hipamp_tests"
  gpus=$(nvidia-smi -L | grep -c "^GPU")
  export HIPAMP_TEST_EXPECT_GPUS=$gpus
  for ((g = 0; g < gpus; ++g)); do
    step "suite, HIPAMP_DEFAULT_ACCELERATOR=$g" "${SUITE_LIMIT:-200}" "$LOGS/suite_$g.log" \
      env HIPAMP_DEFAULT_ACCELERATOR=$g "$T"
    echo "suite_$g: $(grep -hE '^(All tests passed|test cases:)' "$LOGS/suite_$g.log" | tail -1)"
  done
  grep -h -B3 -A12 "FAILED:" "$LOGS"/suite_*.log | head -60
elif [ "$phase" = "release-consumer-corpus" ]; then
  # The next call on the same warm machine: the README's consumer project on the GPU, the
  # public C++ AMP corpus ported by the tool alone and built with nvcc against the installed
  # package, and the GPU runtime benchmarks (launch overhead; the launch path moved namespace).
  step "consumer project (README lines), GPU expected" 200 "$LOGS/consumer.log" \
    env EXPECT_GPU=1 WORK=/tmp/hipamp-consumer scripts/check-consumer.sh cuda
  tail -5 "$LOGS/consumer.log"
  step "install" 60 "$LOGS/install.log" cmake --install "$BUILD" --prefix /tmp/hipamp-cuda
  step "corpus (CUDA, tool alone)" "${CORPUS_LIMIT:-250}" "$LOGS/corpus.log" env OUT="$LOGS" \
    python3 "$SRC/scripts/corpus/run_corpus.py" --backend cuda --prefix /tmp/hipamp-cuda -j 8 \
    --src "$SRC/build-corpus-src" --work /tmp/hipamp-corpus
  tail -25 "$LOGS/corpus.log"
  cp /tmp/hipamp-corpus/summary.md "$OUT/corpus_summary.md" 2>/dev/null
  for b in ${BENCHES:-bench_gpu_runtime}; do
    step "$b" 90 "$LOGS/$b.log" "$BUILD/benchmarks/$b" --benchmark_repetitions=3 \
      --benchmark_report_aggregates_only=true --benchmark_out="$LOGS/$b.json" --benchmark_out_format=json
    cp "$LOGS/$b.json" "$OUT/" 2>/dev/null
  done
  python3 "$SRC/scripts/ratios.py" "$LOGS"/bench_*.json 2>/dev/null | tee "$LOGS/ratios.md" | head -40
elif [ "$phase" = "tests-then-bench" ] || [ "$phase" = "sweep" ]; then
  configure
  if [ "$phase" = "sweep" ]; then
    targets=()
    for entry in ${BENCHES:-bench_reduce}; do targets+=(--target "${entry%%:*}"); done
    [ -n "${TEST_SPEC:-}" ] && targets+=(--target hipamp_tests)
    step build "${BUILD_LIMIT:-300}" "$LOGS/build.log" cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" -- -k 0
    if [ -n "${TEST_SPEC:-}" ]; then
      step "tests $TEST_SPEC" 150 "$LOGS/tests.log" "$BUILD/tests/hipamp_tests" "$TEST_SPEC"
      echo "tests $TEST_SPEC: $(grep -hE '^(All tests passed|test cases:)' "$LOGS/tests.log" | tail -1)"
    fi
  else
    step build 300 "$LOGS/build.log" cmake --build "$BUILD" -j "$(nproc)" -- -k 0
    suite_twice 150 40
  fi
  # BENCHES: entries name[:filter[:limit_seconds]]
  for entry in ${BENCHES:-bench_gemm:gpu bench_reduce:gpu}; do
    IFS=: read -r b filter limit <<<"$entry"
    step "$b" "${limit:-200}" "$LOGS/$b.log" "$BUILD/benchmarks/$b" --benchmark_filter="${filter:-.}" \
      ${BENCH_ARGS:-} --benchmark_out="$LOGS/$b.json" --benchmark_out_format=json
    grep -E "^(gpu|saxpy|stencil)" "$LOGS/$b.log" | cut -c1-260
  done
  cp "$LOGS"/*.json "$OUT/" 2>/dev/null
else
  cmake --build "$BUILD" -j "$(nproc)" >/dev/null 2>&1 || note "rebuild failed"
  for b in bench_gpu_runtime bench_gemm bench_reduce bench_sort bench_simple_model bench_tiled; do
    exe="$BUILD/benchmarks/$b"
    [ -x "$exe" ] || { note "$b: not built"; continue; }
    step "$b" "${BENCH_LIMIT:-150}" "$LOGS/$b.log" "$exe" --benchmark_repetitions=3 \
      --benchmark_report_aggregates_only=true --benchmark_out="$LOGS/$b.json" --benchmark_out_format=json
  done
  cp "$LOGS"/*.json "$OUT/" 2>/dev/null
  python3 "$SRC/scripts/ratios.py" "$LOGS"/*.json | tee "$LOGS/ratios.md"
fi
