#!/usr/bin/env bash
# Issue 19's simple-model goal as an A/B on one machine: each tree's own
# scripts/bench_simple_model.sh, run alternately on a base tree and on this tree, ROUNDS times each (default 2), so that both
# see the same machine state. On the GPU machine, with the base tree carried:
#
#   git archive <base> | tar -x -C build-base-src
#   run (carry build-base-src): BASE_SRC=build-base-src bash scripts/bench_simple_model_ab.sh
#
# FILTER / FILTER_1T / REPS / MIN_TIME are passed on (default FILTER: saxpy and the stencil).
# TILED=1 then also builds bench_tiled_samples_phased (the sample-style tiled kernels after the
# porting tool's tile rule: issue 19's tiled goal) in both build directories and runs each once
# on all cores, base first; their vs_omp / vs_serial counters are printed side by side.
# Writes $OUT/{base,new}_r<N>/ (each bench_simple_model.sh's output) and prints, per case,
# the median ratio of every run: base runs first, then this tree's.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASE_SRC="$(cd "${BASE_SRC:?set BASE_SRC to the base tree}" && pwd)"
OUT="$(mkdir -p "${OUT:-./out}" && cd "${OUT:-./out}" && pwd)"
export FILTER="${FILTER:-BM_(saxpy|stencil)/}" REPS="${REPS:-3}"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for side in base new; do
    tree="$SRC"; [ "$side" = base ] && tree="$BASE_SRC"
    OUT="$OUT/${side}_r$round" BUILD="/tmp/bench-simple-ab-$side" \
      bash "$tree/scripts/bench_simple_model.sh" >/dev/null
  done
done
if [ "${TILED:-0}" = 1 ]; then
  for side in base new; do
    cmake --build "/tmp/bench-simple-ab-$side" -j "$(nproc)" --target bench_tiled_samples_phased \
      >"$OUT/build_tiled_$side.log" 2>&1 || { tail -20 "$OUT/build_tiled_$side.log"; exit 1; }
  done
  for side in base new; do
    "/tmp/bench-simple-ab-$side/benchmarks/bench_tiled_samples_phased" --benchmark_min_time=0.2 \
      --benchmark_out="$OUT/tiled_phased_$side.json" --benchmark_out_format=json \
      >"$OUT/tiled_phased_$side.txt" 2>&1 || tail -5 "$OUT/tiled_phased_$side.txt"
  done
fi
python3 - "$OUT" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
cols, rows = [], {}
for side in ("base", "new"):
    for d in sorted(glob.glob(f"{out}/{side}_r*")):
        cols.append(os.path.basename(d))
        for line in open(f"{d}/ratios.md"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 6 or not re.match(r"^\d", cells[1]):
                continue
            rows.setdefault((cells[0], cells[1], cells[2]), {})[cols[-1]] = cells[5]
print("| workload | size | threads | " + " | ".join(cols) + " |")
print("|---" * (3 + len(cols)) + "|")
for (work, size, threads), r in rows.items():
    print(f"| {work} | {size} | {threads} | " + " | ".join(r.get(c, "") for c in cols) + " |")
sides = [s for s in ("base", "new") if os.path.exists(f"{out}/tiled_phased_{s}.json")]
if sides:
    runs = {s: [b for b in json.load(open(f"{out}/tiled_phased_{s}.json"))["benchmarks"]
                if b.get("run_type") == "iteration"] for s in sides}
    print()
    print("| tiled (tile rule), all cores | " + " | ".join(f"{s} vs_omp | {s} vs_serial" for s in sides) + " |")
    print("|---" * (1 + 2 * len(sides)) + "|")
    for i, b in enumerate(runs[sides[0]]):
        cells = []
        for s in sides:
            r = runs[s][i] if i < len(runs[s]) else {}
            cells += [f"{r.get('vs_omp', float('nan')):.3f}", f"{r.get('vs_serial', float('nan')):.2f}"]
        print(f"| {b['name']} | " + " | ".join(cells) + " |")
PY
