#!/usr/bin/env bash
# Issue 19 (session 21): per process, the host time a 4-view parallel_for_each adds to a raw
# launch falls into a fast group (about 0.5 us) or a slow one (about 1.1 us); neither the core
# a process runs on nor heap false sharing decides which (launch_placement.sh,
# aligned_malloc_ab.sh). What else a process fixes at its start is its address layout (ASLR:
# stack, heap, libraries, TLS). This runs bench_gpu_runtime's 4-view case in processes
# alternating with ASLR on and off (setarch -R: every process the same layout) and prints per
# process pfe - raw: if the layout decides the group, the ASLR-off processes all fall into one.
#   run: bash scripts/probes/launch_aslr.sh     (CUDA build in $ROOT; OUT gets the runs)
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$PWD/aslr_out}"
ROOT="${BUILD_ROOT:-/tmp/hipamp-aslr}"
gpu="$ROOT/cuda"
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT/runs"
setarch "$(uname -m)" -R true || { echo "setarch -R is not allowed here"; exit 1; }
[ -f "$gpu/build.ninja" ] || cmake -S "$SRC" -B "$gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS=OFF \
  -DHIPAMP_BUILD_EXAMPLES=OFF >"$OUT/config.log" 2>&1
timeout 300 cmake --build "$gpu" -j "$(nproc)" --target bench_gpu_runtime >"$OUT/build.log" 2>&1 ||
  { tail -5 "$OUT/build.log"; exit 1; }
for round in $(seq 1 "${ROUNDS:-12}"); do
  for mode in on off; do
    run=()
    [ "$mode" = off ] && run=(setarch "$(uname -m)" -R)
    "${run[@]}" "$gpu/benchmarks/bench_gpu_runtime" --benchmark_filter='with_views/4' \
      --benchmark_format=json --benchmark_out="$OUT/runs/${mode}_r${round}.json" >/dev/null 2>&1
  done
done
python3 - "$OUT/runs" <<'PY'
import glob, json, os, statistics, sys
by_mode = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    mode = os.path.basename(path).split("_")[0]
    for b in json.load(open(path))["benchmarks"]:
        if "ratio" in b:
            by_mode.setdefault(mode, []).append((b["pfe_us"] - b["raw_us"], b["raw_us"], b["ratio"]))
for mode in ("on", "off"):
    rows = by_mode.get(mode, [])
    print("ASLR %s: pfe-raw us per process: %s" % (mode, " ".join("%.2f" % r[0] for r in rows)))
    print("         ratio per process:      %s" % " ".join("%.3f" % r[2] for r in rows))
    if rows:
        print("         median pfe-raw %.3f us, median ratio %.3f" % (
            statistics.median(r[0] for r in rows), statistics.median(r[2] for r in rows)))
PY
