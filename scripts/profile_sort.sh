#!/usr/bin/env bash
# Developer tool for the GPU machine: builds bench_sort and profiles the bitonic sort's kernels
# with Nsight Compute. Per-kernel durations of one whole sort (2^20 and 2^24 u32 keys), then the
# detailed sections of the first tile pass, a later tile pass and a global round at 2^24.
#   bash scripts/profile_sort.sh          # writes $OUT/ncu_*.txt, prints a short digest
#   SIZES="1000000 16777215"              # other u32 sizes of gpu_sort_vs_cub_merge_sort_u32
#   FILTERS="gpu_non_power_of_two_cost"   # or whole benchmark filters instead of sizes
#   DETAIL=0                              # only the per-kernel durations
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$SRC/profile_out}"
export BUILD="${BUILD:-/tmp/hipamp-gpu-verify}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
OUT="$OUT" TARGETS=bench_sort bash "$SRC/scripts/gpu_verify.sh" build >/dev/null || exit 1
B="$BUILD/benchmarks/bench_sort"
KERNELS='regex:tile_kernel|global_round_kernel'
filters="${FILTERS:-}"
for n in ${SIZES:-1048576 16777216}; do
  [ -n "${FILTERS:-}" ] || filters+=" gpu_sort_vs_cub_merge_sort_u32/$n/"
done
for filter in $filters; do
  name="$(echo "$filter" | tr -c 'A-Za-z0-9_\n' '_')"
  ncu --kernel-name "$KERNELS" --launch-count "${COUNT:-60}" --metrics gpu__time_duration.sum --csv \
    "$B" --benchmark_filter="$filter" >"$OUT/ncu_times_$name.csv" 2>&1
  python3 - "$OUT/ncu_times_$name.csv" <<'PY'
import csv, io, re, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
order = []
for r in csv.DictReader(io.StringIO(''.join(rows))):
    if r['Metric Name'] != 'gpu__time_duration.sum': continue
    i = int(r['ID'])
    name = re.sub(r'[<(].*', '', r['Kernel Name']).split('::')[-1].split()[-1]
    v = float(r['Metric Value'].replace(',', ''))  # ncu groups thousands with commas
    v /= 1000.0 if r['Metric Unit'] in ('nsecond', 'ns') else 1.0
    order.append((i, name, v))
print(sys.argv[1], len(order), 'launches profiled')
print(' '.join(f"{n[:4]}:{v:.1f}" for _, n, v in order))
PY
done
[ "${DETAIL:-1}" = 0 ] && exit 0
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section InstructionStats"
ncu --kernel-name "$KERNELS" --launch-count "${DETAIL_COUNT:-4}" $SECTIONS \
  "$B" --benchmark_filter='gpu_sort_vs_cub_merge_sort_u32/16777216/' >"$OUT/ncu_detail_2p24.txt" 2>&1
grep -E "^  [a-z_]+.*\(|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Executed Ipc A|Warp Cycles Per Issued|Shared Memory Config|Dynamic Shared|L1/TEX Hit|Bank" "$OUT/ncu_detail_2p24.txt" | head -120
