#!/usr/bin/env bash
# Builds and checks hipamp's CUDA backend on a machine with an NVIDIA GPU, in one go:
# configure (sm_90 unless CUDA_ARCH says otherwise), build the tests and benchmarks on all
# cores, run the test suite (plain and with the emulated discrete device), run
# compute-sanitizer memcheck and racecheck on the GPU-heavy tests, run the GPU runtime
# benchmarks, and print a short table last. Logs and JSON go to $OUT (or ./gpu_check_out).
#
#   bash scripts/gpu_check.sh            # from the repository root
#   SKIP_SANITIZERS=1 bash scripts/gpu_check.sh
set -uo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$SRC/gpu_check_out}"
BUILD="${BUILD:-/tmp/hipamp-gpu-check}"
CUDA_ARCH="${CUDA_ARCH:-90}"
JOBS="$(nproc)"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"

declare -a SUMMARY=()
DEADLINE=$((SECONDS + ${TIME_LIMIT:-520}))  # the whole script stays inside one device call
# budget WANT: WANT seconds, or what is left before the deadline if that is less (at least 10).
budget() {
  local left=$((DEADLINE - SECONDS))
  local want="$1"
  [ "$left" -lt "$want" ] && want="$left"
  [ "$want" -lt 10 ] && want=10
  echo "$want"
}
note() { SUMMARY+=("$1"); echo "== $1"; }
# step NAME LIMIT_SECONDS LOGFILE COMMAND...: runs with a time limit, logs, records the result.
step() {
  local name="$1" limit="$2" log="$3"
  shift 3
  local start=$SECONDS
  echo "### $name" >>"$log"
  timeout --kill-after=10 "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  local took=$((SECONDS - start))
  if [ $rc -eq 0 ]; then note "$name: ok (${took}s)"; else note "$name: FAILED rc=$rc (${took}s), see $(basename "$log")"; fi
  return $rc
}

echo "== machine"
nvidia-smi -L 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.current,pcie.link.width.current \
  --format=csv 2>&1
nvcc --version | tail -1
cmake --version | head -1
(cd "$SRC" && git rev-parse --short HEAD 2>/dev/null) || true

step "configure" 120 "$OUT/build.log" \
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPAMP_BACKEND=cuda \
  -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH" -DHIPAMP_BUILD_TESTS=ON -DHIPAMP_BUILD_BENCHMARKS=ON \
  || { tail -40 "$OUT/build.log"; exit 1; }
grep -E "^-- (hipamp|Catch2|benchmark)" "$OUT/build.log" | tail -8

step "build" 300 "$OUT/build.log" cmake --build "$BUILD" -j "$JOBS" \
  || { grep -E "error|Error" "$OUT/build.log" | head -40; tail -20 "$OUT/build.log"; exit 1; }

# Which FOR_EACH_ACCELERATOR survives nvcc + Catch2 v3 (see scripts/probes/).
for variant in 1 2; do
  if timeout 120 python3 "$SRC/scripts/probes/compile_probe.py" "$BUILD" \
      "$SRC/scripts/probes/for_each_accelerator_probe.cpp" "/tmp/probe$variant.o" \
      "-DPROBE_VARIANT=$variant" >"/tmp/probe$variant.log" 2>&1; then
    note "probe FOR_EACH_ACCELERATOR variant $variant: compiles"
  else
    note "probe FOR_EACH_ACCELERATOR variant $variant: FAILS: $(grep -m1 -o 'internal error.*' "/tmp/probe$variant.log" || tail -1 "/tmp/probe$variant.log")"
  fi
  cat "/tmp/probe$variant.log" >>"$OUT/probes.log"
done

TESTS="$BUILD/tests/hipamp_tests"
step "tests" 240 "$OUT/tests.log" "$TESTS"
tail -4 "$OUT/tests.log"
step "tests (emulated discrete device too)" 240 "$OUT/tests_emulated.log" env HIPAMP_EMULATE_DISCRETE_DEVICE=1 "$TESTS"
tail -4 "$OUT/tests_emulated.log"

# The staging path with other ring settings and streaming stores must be just as correct.
step "tests [coherence] (staging: 8 MiB x 3, streaming stores)" 120 "$OUT/tests.log" \
  env HIPAMP_STAGING_MIB=8 HIPAMP_STAGING_BUFFERS=3 HIPAMP_STAGING_STREAMING=1 "$TESTS" "[coherence]"
tail -2 "$OUT/tests.log"
if [ -x "$BUILD/tests/hipamp_vendor_primitives_check" ]; then
  step "vendor primitives (CUB scan on array_view memory)" 60 "$OUT/tests.log" \
    "$BUILD/tests/hipamp_vendor_primitives_check"
  tail -1 "$OUT/tests.log"
fi

for bench in "$BUILD"/benchmarks/bench_gpu_runtime; do
  [ -x "$bench" ] || continue
  name="$(basename "$bench")"
  step "benchmark $name" "$(budget 180)" "/tmp/$name.log" "$bench" --benchmark_format=json \
    --benchmark_out="$OUT/$name.json" --benchmark_out_format=json
done


# The 1 GiB copy-in under other staging settings (same code path as the default, tuned by
# the environment), to choose the defaults.
if [ -x "$BUILD/benchmarks/bench_gpu_runtime" ]; then
  for cfg in "16 4 2048 0" "32 4 1024 0" "16 4 2048 1" "8 8 512 0" "8 6 2048 0"; do
    set -- $cfg
    HIPAMP_STAGING_MIB=$1 HIPAMP_STAGING_BUFFERS=$2 HIPAMP_STAGING_THREAD_KIB=$3 HIPAMP_STAGING_STREAMING=$4 \
      timeout "$(budget 40)" "$BUILD/benchmarks/bench_gpu_runtime" --benchmark_filter=copy_in \
      --benchmark_format=json --benchmark_out=/tmp/sweep.json --benchmark_out_format=json >/dev/null 2>&1
    python3 - "$cfg" /tmp/sweep.json <<'EOF' | tee -a "$OUT/staging_sweep.txt"
import json, sys
try:
    b = json.load(open(sys.argv[2]))['benchmarks'][0]
    mib, bufs, kib, nt = sys.argv[1].split()
    print(f"staging {mib:>3} MiB x {bufs}, {kib:>4} KiB/thread, streaming={nt}: "
          f"array_view {b['array_view_GBps']:.1f} GB/s, pinned {b['pinned_memcpy_GBps']:.1f} GB/s, ratio {b['ratio']:.3f}")
except Exception as e:
    print(f"staging {sys.argv[1]}: no result ({e})")
EOF
    rm -f /tmp/sweep.json
  done
fi

if [ -z "${SKIP_SANITIZERS:-}" ] && command -v compute-sanitizer >/dev/null; then
  # The [error] tests fail allocations and plant an illegal address on purpose, and the
  # [concurrency] test needs kernels to overlap, which the sanitizer may prevent: not here.
  step "memcheck [coherence],[gpu]" "$(budget 200)" "$OUT/sanitizers.log" \
    compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 \
    "$TESTS" "[coherence],[gpu]~[error]~[concurrency]"
  tail -6 "$OUT/sanitizers.log"
  step "racecheck [tiled]" "$(budget 90)" "$OUT/sanitizers.log" \
    compute-sanitizer --tool racecheck --error-exitcode 99 --print-limit 20 "$TESTS" "[tiled]"
  tail -6 "$OUT/sanitizers.log"
fi

echo
echo "================ failures ================"
grep -h -B4 -A10 "FAILED" "$OUT/tests.log" "$OUT/tests_emulated.log" 2>/dev/null | head -120
echo "================ summary ================"
grep -hE "^(All tests passed|test cases:)" "$OUT/tests.log" "$OUT/tests_emulated.log" 2>/dev/null \
  | sed 's/^/tests: /'
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizers.log" 2>/dev/null
cat "$OUT/staging_sweep.txt" 2>/dev/null
python3 - "$OUT" <<'EOF'
import json, os, sys
out = sys.argv[1]
for f in sorted(os.listdir(out)):
    if not f.endswith('.json'):
        continue
    data = json.load(open(os.path.join(out, f)))
    print(f"{f}  ({data['context'].get('host_name', '')})")
    for b in data.get('benchmarks', []):
        if b.get('error_occurred'):
            print(f"  {b['name']:<48} ERROR {b.get('error_message', '')}")
            continue
        keys = [k for k in b if k.endswith(('_us', '_GBps')) or k == 'ratio']
        fields = '  '.join(f"{k}={b[k]:.3f}" for k in keys)
        print(f"  {b['name'].split('/')[0]:<24} {fields}")
        if b.get('label'):
            print(f"  {'':<24} {b['label']}")
EOF
printf '%s\n' "${SUMMARY[@]}"
