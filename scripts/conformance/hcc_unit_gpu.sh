#!/usr/bin/env bash
# HCC's C++ AMP unit tests (ROCm/hcc tests/Unit) on an NVIDIA GPU, in one command, within about
# 9 minutes: configures, builds and installs the CUDA package of this tree (Release, sm_90 or
# $CUDA_ARCH, tests off: run_conformance.py's ensure_package), ports and builds every test with
# nvcc (-j 16), runs each on the GPU (HIPAMP_DEFAULT_ACCELERATOR=gpu) and prints the summary
# table last. With $OUT set, $OUT/hcc-unit-cuda.tar.gz holds summary.md, results.json and the logs.
#
#   scripts/conformance/hcc_unit_gpu.sh [UNIT_DIR [run_hcc_unit.py options...]]
#
# UNIT_DIR: a copy of ROCm/hcc's tests/Unit (default build-hcc-src/Unit, which git ignores), made
# where the corpus is with
#   scripts/conformance/run_hcc_unit.py --stage build-hcc-src
# and carried to the GPU machine (run's carry: ["build-hcc-src"]).
# Budget: JOBS (16), TEST_TIMEOUT per program run (60 s), BUILD_TIMEOUT per compile (180 s),
# DEADLINE (360 s after the library is built: tests not begun by then are `skipped`). The
# runner's own output is $WORK/run.out (also copied to $OUT).
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
SRC=${1:-build-hcc-src/Unit}
shift || true
WORK=${WORK:-$REPO/build-hcc-unit-cuda}
if [ ! -d "$SRC" ]; then
  echo "no $SRC: carry a copy of HCC's tests/Unit (run_hcc_unit.py --stage build-hcc-src)" >&2
  exit 2
fi
nvidia-smi -L 2>&1 | head -4
nvcc --version 2>&1 | tail -1
start=$(date +%s)
mkdir -p "$WORK"
python3 scripts/conformance/run_hcc_unit.py --backend cuda --src "$SRC" --work "$WORK" \
  -j "${JOBS:-16}" --timeout "${TEST_TIMEOUT:-60}" --build-timeout "${BUILD_TIMEOUT:-180}" \
  --deadline "${DEADLINE:-360}" "$@" > "$WORK/run.out" 2>&1
rc=$?
[ -n "${OUT:-}" ] && cp "$WORK/run.out" "$OUT/hcc-unit-cuda-run.out"
grep -E '^(library:|wrote|\.\.\. )' "$WORK/run.out" || true
if [ -f "$WORK/summary.md" ]; then
  echo
  sed -n '/^## Failures/,/^## Negative/p' "$WORK/summary.md" | grep -v '^## Negative'
  sed -n '1,/^## Failures/p' "$WORK/summary.md" | grep -v '^## Failures'
else
  echo "no summary (exit $rc): see $WORK/run.out and $WORK/library.log" >&2
  [ -f "$WORK/library.log" ] && tail -n 30 "$WORK/library.log" >&2
  [ -n "${OUT:-}" ] && [ -f "$WORK/library.log" ] && cp "$WORK/library.log" "$OUT/hcc-unit-cuda-library.log"
fi
echo "total $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
