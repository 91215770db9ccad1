#!/usr/bin/env bash
# bench_gpu_runtime on the GPU machine (issue 19's runtime goals), in one device call:
# configure a CUDA Release build (or reuse it while the machine is warm), build only the
# library and bench_gpu_runtime, run it with JSON output, then run the copy benchmarks with
# staged copies only (HIPAMP_PIN_TRANSFERS=0) for three staging rings (HIPAMP_STAGING_*). Results: $OUT/gpu_runtime.tar.gz
# (JSON, logs) and a summary on stdout.
#   SWEEP=0 skips the sweep; SRC=<tree> measures another tree (bench_ab.sh-style snapshots).
set -uo pipefail
SRC="${SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
OUT="${OUT:-$PWD/gpu_runtime_out}"
BUILD="${BUILD:-/tmp/hipamp-gpu-runtime-$(basename "$SRC")}"
RES="/tmp/gpu-runtime-results"
mkdir -p "$OUT" "$RES"
export PATH="/usr/local/cuda/bin:$PATH"
t=$SECONDS
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPAMP_BACKEND=cuda \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS=OFF -DHIPAMP_BUILD_EXAMPLES=OFF \
    >"$RES/configure.log" 2>&1 || { tail -30 "$RES/configure.log"; exit 1; }
fi
cmake --build "$BUILD" -j"$(nproc)" --target bench_gpu_runtime >"$RES/build.log" 2>&1 ||
  { tail -40 "$RES/build.log"; exit 1; }
echo "== build took $((SECONDS - t)) s"
bench="$BUILD/benchmarks/bench_gpu_runtime"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current \
  --format=csv,noheader | tee "$RES/gpu.txt"
"$bench" --benchmark_out="$RES/bench_gpu_runtime.json" --benchmark_out_format=json \
  --benchmark_repetitions=1 2>&1 | tee "$RES/bench_gpu_runtime.txt"
if [ "${SWEEP:-1}" != 0 ]; then
  # Staged copies only (no pinning), with the default ring and two others.
  for cfg in "16 4 2048" "8 4 1024" "32 4 2048"; do
    set -- $cfg
    echo "== staged only: ${1} MiB x ${2}, ${3} KiB per thread" | tee -a "$RES/sweep.txt"
    HIPAMP_PIN_TRANSFERS=0 HIPAMP_STAGING_MIB=$1 HIPAMP_STAGING_BUFFERS=$2 \
      HIPAMP_STAGING_THREAD_KIB=$3 "$bench" --benchmark_filter='copy_' 2>&1 |
      grep -E 'copy_' | tee -a "$RES/sweep.txt"
  done
fi
tar -C "$RES" -czf "$OUT/gpu_runtime.tar.gz" .
echo "== total $((SECONDS - t)) s"
