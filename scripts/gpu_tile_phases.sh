#!/usr/bin/env bash
# Issue 19's tile rule on the GPU machine, in two calls on one warm machine:
#   bash scripts/gpu_tile_phases.sh verify   # CUDA build of the suite and of the ported tiled
#                                            # programs (tools/tests/inputs, ported with the rule
#                                            # at build time); the suite plain and on the emulated
#                                            # discrete device; then a CPU-backend build of
#                                            # bench_tiled_samples and bench_tiled_samples_phased,
#                                            # run on the host's 16 cores and on 1
#   bash scripts/gpu_tile_phases.sh corpus   # install, then the public corpus ported by the tool
#                                            # alone, built with nvcc and run on the GPU (carry
#                                            # build-corpus-src: run_corpus.py --stage)
#   EXTRA_TARGETS=bench_sort SKIP_CPU_BENCH=1 bash scripts/gpu_tile_phases.sh verify
#   BENCH_SORT=1 bash scripts/gpu_tile_phases.sh corpus   # a merged tree: also bench_sort's
#                                            # gpu_ cases after the corpus
# Everything lands in $OUT.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$SRC/gpu_tile_phases_out}"
BUILD="${BUILD:-/tmp/tile-phases-cuda}"
CPU_BUILD="${CPU_BUILD:-/tmp/tile-phases-cpu}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
phase="${1:-verify}"
t0=$SECONDS
say() { echo "== [$((SECONDS - t0))s] $*"; }

if [ "$phase" = "verify" ]; then
  { nvidia-smi --query-gpu=name --format=csv,noheader; lscpu | grep -E "Model name|^CPU\(s\)"; date -u; } | tee "$OUT/machine.txt"
  [ -f "$BUILD/build.ninja" ] || cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/configure.log" 2>&1
  say "build (CUDA)"
  cmake --build "$BUILD" -j 16 --target hipamp_tests ported_reduction_tiled ported_matrix_multiply_tiled \
    ported_exact_product ${EXTRA_TARGETS:-} \
    >"$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
  say "suite, plain"
  timeout 200 "$BUILD/tests/hipamp_tests" >"$OUT/tests.log" 2>&1; echo "rc=$?"; tail -3 "$OUT/tests.log"
  say "suite, emulated discrete device"
  HIPAMP_EMULATE_DISCRETE_DEVICE=1 HIPAMP_DEFAULT_ACCELERATOR=emulated timeout 200 \
    "$BUILD/tests/hipamp_tests" >"$OUT/tests_emulated.log" 2>&1; echo "rc=$?"; tail -3 "$OUT/tests_emulated.log"
  grep -h -B3 -A12 "FAILED:" "$OUT"/tests*.log | head -40
  for p in ported_reduction_tiled ported_matrix_multiply_tiled ported_exact_product; do
    say "$p"; grep -c "parallel_for_each_tile" "$BUILD/tools/ported/${p#ported_}.cpp"
    timeout 60 "$BUILD/tools/$p" 2>&1 | tail -3; echo "rc=$?"
  done
  [ -n "${SKIP_CPU_BENCH:-}" ] && { say "done"; exit 0; }
  say "CPU build of the tiled samples"
  [ -f "$CPU_BUILD/build.ninja" ] || cmake -S "$SRC" -B "$CPU_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DHIPAMP_BACKEND=cpu >"$OUT/configure_cpu.log" 2>&1
  cmake --build "$CPU_BUILD" -j 16 --target bench_tiled_samples bench_tiled_samples_phased \
    >"$OUT/build_cpu.log" 2>&1 || { tail -20 "$OUT/build_cpu.log"; exit 1; }
  for n in 16 1; do
    for b in bench_tiled_samples_phased bench_tiled_samples; do
      say "$b, $n thread(s)"
      OMP_NUM_THREADS=$n timeout "${BENCH_LIMIT:-100}" "$CPU_BUILD/benchmarks/$b" --benchmark_min_time=0.2 \
        --benchmark_out="$OUT/${b}_${n}t.json" --benchmark_out_format=json 2>&1 | grep -E "^BM_|error"
    done
  done
elif [ "$phase" = "corpus" ]; then
  say "install"
  cmake --install "$BUILD" --prefix /tmp/tile-phases-prefix >"$OUT/install.log" 2>&1 || exit 1
  say "corpus (CUDA, tool alone)"
  timeout "${CORPUS_LIMIT:-400}" python3 "$SRC/scripts/corpus/run_corpus.py" --backend cuda \
    --prefix /tmp/tile-phases-prefix -j 8 --src "$SRC/build-corpus-src" --work /tmp/tile-phases-corpus \
    >"$OUT/corpus.log" 2>&1
  tail -25 "$OUT/corpus.log"
  cp /tmp/tile-phases-corpus/summary.md "$OUT/corpus_summary.md" 2>/dev/null
  if [ -n "${BENCH_SORT:-}" ]; then
    say "bench_sort, gpu_ cases"
    timeout "${BENCH_LIMIT:-240}" "$BUILD/benchmarks/bench_sort" --benchmark_filter='^gpu_' \
      --benchmark_out="$OUT/bench_sort.json" --benchmark_out_format=json >"$OUT/bench_sort.log" 2>&1
    echo "rc=$?"; python3 "$SRC/scripts/ratios.py" "$OUT/bench_sort.json" 2>/dev/null | head -60
  fi
fi
say "done"
