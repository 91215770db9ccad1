#!/usr/bin/env bash
# Issue 19 (session 19): the host time a parallel_for_each adds to a raw launch falls into two
# groups per process (about 0.5 and 1.1 us, 4 views). This runs bench_gpu_runtime's launch cases
# in many short processes, each pinned to one core (taskset) or left free, and prints per
# process the core, pfe - raw and the ratio, to see whether placement decides the group.
#   run: bash scripts/probes/launch_placement.sh     (CUDA build in $ROOT; OUT gets the runs)
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$PWD/placement_out}"
ROOT="${BUILD_ROOT:-/tmp/hipamp-biased-ab}"
gpu="$ROOT/cuda"
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT/runs"
[ -f "$gpu/build.ninja" ] || cmake -S "$SRC" -B "$gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS=OFF \
  -DHIPAMP_BUILD_EXAMPLES=OFF >"$OUT/config.log" 2>&1
timeout 300 cmake --build "$gpu" -j "$(nproc)" --target bench_gpu_runtime >"$OUT/build.log" 2>&1 ||
  { tail -5 "$OUT/build.log"; exit 1; }
lscpu >"$OUT/lscpu.txt" 2>&1
nvidia-smi topo -m >"$OUT/topo.txt" 2>&1
cores=$(nproc)
for round in 1 2; do
  for c in $(seq 0 $((cores - 1))) free free free free; do
    pin=()
    [ "$c" != free ] && pin=(taskset -c "$c")
    "${pin[@]}" "$gpu/benchmarks/bench_gpu_runtime" --benchmark_filter='with_views/4' \
      --benchmark_format=json --benchmark_out="$OUT/runs/r${round}_c${c}_$RANDOM.json" >/dev/null 2>&1
  done
done
python3 - "$OUT/runs" <<'PY'
import glob, json, os, sys
rows = []
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    core = os.path.basename(path).split("_")[1][1:]
    for b in json.load(open(path))["benchmarks"]:
        if "ratio" in b:
            rows.append((core, b["pfe_us"] - b["raw_us"], b["raw_us"], b["ratio"]))
rows.sort(key=lambda r: (r[0] == "free", int(r[0]) if r[0] != "free" else 0))
print("core  pfe-raw_us  raw_us  ratio")
for core, d, raw, ratio in rows:
    print("%-5s %9.3f %7.3f %6.3f" % (core, d, raw, ratio))
PY
