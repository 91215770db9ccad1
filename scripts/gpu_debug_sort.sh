#!/usr/bin/env bash
# One-off GPU triage (kept for reuse): build hipamp_tests only, then run every sort test unit on
# its own (Catch's per-file tags), and the first failing case under gdb for a backtrace.
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
B=/tmp/hipamp-gpu-verify
export PATH="/usr/local/cuda/bin:$PATH"
[ -f "$B/build.ninja" ] || cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPAMP_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
start=$SECONDS
cmake --build "$B" -j "$(nproc)" --target hipamp_tests 2>&1 | grep -E "error|FAILED" | head -20
echo "build: $((SECONDS - start)) s"
T="$B/tests/hipamp_tests"
for f in "$SRC"/tests/test_sort*.cpp; do
  tag="#$(basename "$f" .cpp)"
  r=$(timeout 120 "$T" "[$tag]" 2>&1 | grep -E "^(All tests passed|test cases:)|SIGSEGV|^[^ ].*FAILED" | tr '\n' ' ')
  echo "$tag: $r"
done
for spec in ${DEBUG_SPECS:-"parallel_sort: primitive arrays, ascending and reversed (float)"}; do :; done
command -v gdb >/dev/null && timeout 120 gdb -q -batch -ex run -ex bt -ex "info threads" --args "$T" \
  "${DEBUG_SPEC:-parallel_sort: primitive arrays, ascending and reversed (float)}" 2>&1 | tail -40
