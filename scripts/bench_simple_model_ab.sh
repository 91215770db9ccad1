#!/usr/bin/env bash
# Issue 19's simple-model goal as an A/B on one machine: scripts/bench_simple_model.sh run
# alternately on a base tree and on this tree, ROUNDS times each (default 2), so that both
# see the same machine state. On the GPU machine, with the base tree carried:
#
#   git archive <base> | tar -x -C build-base-src
#   run (carry build-base-src): BASE_SRC=build-base-src bash scripts/bench_simple_model_ab.sh
#
# FILTER / FILTER_1T / REPS / MIN_TIME are passed on (default FILTER: saxpy and the stencil).
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
      bash "$SRC/scripts/bench_simple_model.sh" >/dev/null
  done
done
python3 - "$OUT" <<'PY'
import glob, os, re, sys
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
PY
