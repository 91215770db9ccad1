#!/usr/bin/env bash
# Issue 18's GPU check of the merge sort, in one device call on a snapshot of the tree:
#   bash scripts/sort_merge_check.sh run     # configure, build hipamp_tests + bench_sort, the
#                                            # [sort] tests, the sort benchmarks against CUB
#   bash scripts/sort_merge_check.sh times   # next call, same warm machine: nvcc time of every
#                                            # sort unit (scripts/nvcc_times.py)
#   BIN=dir bash scripts/sort_merge_check.sh carried  # one call without the build: hipamp_tests
#                                            # and bench_sort built elsewhere (same nvcc, sm_90)
#                                            # and carried in dir with the shared libraries they
#                                            # lack there; [sort] plain and emulated, bench_sort,
#                                            # then the nvcc time of every sort unit (-j JOBS, 8)
# BENCH_FILTER overrides the benchmarks run; TESTS_ONLY=<regex> builds hipamp_tests of the
# matching test files alone (tests/CMakeLists.txt, HIPAMP_TESTS_ONLY), say
# TESTS_ONLY='test_sort_(merge|api|batched)', when the whole suite's build would not fit the
# call. Results and logs land in $OUT.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$SRC/sort_check_out}"
BUILD="${BUILD:-/tmp/hipamp-sort-merge}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
phase="${1:-run}"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
  cat "$SRC/COMMIT" 2>/dev/null
  date -u
} | tee "$OUT/machine.txt"
[ -f "$BUILD/build.ninja" ] || cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_TESTS_ONLY="${TESTS_ONLY:-}" \
  >"$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
if [ "$phase" = "run" ]; then
  start=$SECONDS
  timeout 330 cmake --build "$BUILD" -j "$(nproc)" --target hipamp_tests bench_sort -- -k 0 \
    >"$OUT/build.log" 2>&1
  rc=$?
  echo "build rc=$rc ($((SECONDS - start)) s)"
  [ $rc -eq 0 ] || { grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1; }
  start=$SECONDS
  timeout 200 "$BUILD/tests/hipamp_tests" "[sort]" --durations yes >"$OUT/tests_sort.log" 2>&1
  echo "tests [sort] rc=$? ($((SECONDS - start)) s): $(grep -E '^(All tests passed|test cases:)' "$OUT/tests_sort.log" | tail -1)"
  grep -B5 -A15 "FAILED:" "$OUT/tests_sort.log" | head -60
  sort -rn "$OUT/tests_sort.log" | grep -E "^[0-9.]+ s:" | head -5
  start=$SECONDS
  timeout 240 "$BUILD/benchmarks/bench_sort" \
    --benchmark_filter="${BENCH_FILTER:-gpu_(sort_vs|stable_sort|bitonic_sort_vs|non_power|merge_sort_tiles)}" \
    --benchmark_out="$OUT/bench_sort.json" --benchmark_out_format=json >"$OUT/bench_sort.log" 2>&1
  echo "bench_sort rc=$? ($((SECONDS - start)) s)"
  grep -E "^gpu" "$OUT/bench_sort.log" | sed -E 's/ +/ /g' | cut -c1-200
  if [ -n "${PROFILE:-}" ]; then  # per-kernel durations of one sort per filter, by Nsight Compute
    for f in $PROFILE; do
      ncu --kernel-name 'regex:tile_kernel|merge_kernel|block_merge_sort_kernel|global_round_kernel' --launch-count ${COUNT:-40} \
        --metrics gpu__time_duration.sum --csv "$BUILD/benchmarks/bench_sort" \
        --benchmark_filter="$f" >"$OUT/ncu_$(echo "$f" | tr -c 'A-Za-z0-9_\n' '_').csv" 2>&1
      python3 - "$OUT"/ncu_"$(echo "$f" | tr -c 'A-Za-z0-9_\n' '_')".csv <<'PY'
import csv, io, re, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
out = []
for r in csv.DictReader(io.StringIO(''.join(rows))):
    if r['Metric Name'] != 'gpu__time_duration.sum': continue
    name = re.sub(r'[<(].*', '', r['Kernel Name']).split('::')[-1].split()[-1]
    v = float(r['Metric Value'].replace(',', ''))
    v /= 1000.0 if r['Metric Unit'] in ('nsecond', 'ns') else 1.0
    out.append(f"{name[:5]}:{v:.1f}")
print(sys.argv[1].split('/')[-1], ' '.join(out[:24]))
PY
    done
  fi
  if [ -n "${DETAIL:-}" ]; then  # one merge pass and one tile pass in detail, in $DETAIL
    ncu --kernel-name 'regex:merge_kernel|tile_kernel|block_merge_sort_kernel' --launch-skip 8 \
      --launch-count 4 --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section WarpStateStats --section MemoryWorkloadAnalysis "$BUILD/benchmarks/bench_sort" \
      --benchmark_filter="$DETAIL" >"$OUT/ncu_detail.txt" 2>&1
    grep -E "^  [a-z_]+.*\(|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Static Shared" \
      "$OUT/ncu_detail.txt" | head -80
  fi
elif [ "$phase" = "carried" ]; then
  export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  ldd "$BIN/hipamp_tests" "$BIN/bench_sort" | grep "not found" && exit 1
  T="$BIN/hipamp_tests"
  for run in plain emulated; do
    env=()
    [ $run = emulated ] && env=(HIPAMP_EMULATE_DISCRETE_DEVICE=1 HIPAMP_DEFAULT_ACCELERATOR=emulated)
    start=$SECONDS
    timeout 150 env "${env[@]}" "$T" "[sort]" --durations yes >"$OUT/tests_sort_$run.log" 2>&1
    echo "tests [sort] $run rc=$? ($((SECONDS - start)) s): $(grep -E '^(All tests passed|test cases:)' "$OUT/tests_sort_$run.log" | tail -1)"
    grep -B5 -A15 "FAILED:" "$OUT/tests_sort_$run.log" | head -40
  done
  start=$SECONDS
  timeout 240 "$BIN/bench_sort" --benchmark_filter="${BENCH_FILTER:-^gpu_}" \
    --benchmark_out="$OUT/bench_sort.json" --benchmark_out_format=json >"$OUT/bench_sort.log" 2>&1
  echo "bench_sort rc=$? ($((SECONDS - start)) s)"
  grep -E "^gpu_(bitonic|non_power)" "$OUT/bench_sort.log" | sed -E 's/ +/ /g' | cut -c1-220
  # Every sort unit of this tree (the ported bitonic sample in tools/ is generated at build
  # time and is no sort of the library's), started longest first by an earlier table.
  start=$SECONDS
  timeout 300 python3 "$SRC/scripts/nvcc_times.py" -j "${JOBS:-8}" --longest-first \
    "$SRC/benchmarks/results/h100_69f7710_nvcc_times_sort_2026-11-26.md" "$BUILD" \
    '(tests/test_sort_|benchmarks/sort/|benchmarks/bench_sort\.cpp|examples/bitonic_sort|fallback/src/sort|include_order/)' \
    >"$OUT/nvcc_times.md" 2>"$OUT/nvcc_times.err"
  echo "nvcc_times rc=$? ($((SECONDS - start)) s)"
  head -12 "$OUT/nvcc_times.md"
elif [ "$phase" = "times" ]; then
  python3 "$SRC/scripts/nvcc_times.py" -j "$(nproc)" "$BUILD" 'sort' | tee "$OUT/nvcc_times.md"
fi
