#!/usr/bin/env bash
# EXPERIMENT (issue 19, session 19): bench_gpu_runtime's 4-view launch in processes alternating
# with and without scripts/probes/aligned_malloc.c preloaded (every heap block on lines of its
# own). Prints pfe - raw per process.   run: bash scripts/probes/aligned_malloc_ab.sh
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$PWD/aligned_out}"
ROOT="${BUILD_ROOT:-/tmp/hipamp-biased-ab}"
gpu="$ROOT/cuda"
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT/runs"
[ -f "$gpu/build.ninja" ] || cmake -S "$SRC" -B "$gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPAMP_BUILD_TESTS=OFF \
  -DHIPAMP_BUILD_EXAMPLES=OFF >"$OUT/config.log" 2>&1
timeout 300 cmake --build "$gpu" -j "$(nproc)" --target bench_gpu_runtime >"$OUT/build.log" 2>&1 ||
  { tail -5 "$OUT/build.log"; exit 1; }
gcc -O2 -fno-builtin -shared -fPIC "$SRC/scripts/probes/aligned_malloc.c" -o /tmp/aligned_malloc.so || exit 1
for r in $(seq 1 "${ROUNDS:-10}"); do
  for mode in plain aligned; do
    pre=()
    [ $mode = aligned ] && pre=(env LD_PRELOAD=/tmp/aligned_malloc.so)
    "${pre[@]}" "$gpu/benchmarks/bench_gpu_runtime" --benchmark_filter='launch' \
      --benchmark_format=json --benchmark_out="$OUT/runs/bench_gpu_runtime_${mode}_$r.json" >/dev/null 2>&1
  done
done
python3 - "$OUT/runs" <<'PY'
import glob, json, os, statistics, sys
rows = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    mode = os.path.basename(path).split("_")[3]
    for b in json.load(open(path))["benchmarks"]:
        if "ratio" in b:
            rows.setdefault((b["name"].split("/iter")[0].split("/manual")[0], mode), []).append(
                (b["pfe_us"] - b["raw_us"], b["ratio"]))
for (case, mode), v in sorted(rows.items()):
    print("%-28s %-8s pfe-raw %s | median ratio %.3f" % (case, mode, " ".join("%.2f" % x[0] for x in v),
          statistics.median(x[1] for x in v)))
PY
tar -czf "$OUT/aligned_runs.tar.gz" -C "$OUT" runs && rm -rf "$OUT/runs"
