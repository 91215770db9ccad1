#!/usr/bin/env bash
# Instructions a native CPU kernel executes, base tree vs this tree, one kernel kind at a time
# (benchmarks/native_cost/kernels.cpp): the "native code pays nothing" check of issue 14's
# robust access. Instruction counts under valgrind are exact and do not depend on the load of a
# shared machine, where timings of a few percent are noise.
#
#   scripts/native_access_cost.sh BASE_SRC BASE_LIB NEW_SRC NEW_LIB [REPS] [EXTRA_CXXFLAGS]
#
# *_SRC: source trees (their include/, fallback/include/); *_LIB: CMake build directories of
# those trees with libhipamp.a built (and generated/include). Each kind runs once to warm up and
# then REPS (default 10) more launches; the figure is Ir(1 + REPS launches) - Ir(1 launch), so
# set-up, the first launch's lazy initialisation and exit cancel out. One OpenMP thread, so the
# count is the work of one core. Prints a Markdown table.
set -euo pipefail
if [[ $# -lt 4 ]]; then
  sed -n '2,13p' "$0"
  exit 2
fi
base_src=$1 base_lib=$2 new_src=$3 new_lib=$4 reps=${5:-10} extra=${6:-}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/native_access_cost.XXXXXX)
trap 'rm -rf "$work"' EXIT

build() {  # tree build out
  # shellcheck disable=SC2086
  ${CXX:-g++} -std=c++17 -O3 -DNDEBUG $extra -I"$1/include" -I"$1/fallback/include" \
    -I"$2/generated/include" "$here/benchmarks/native_cost/kernels.cpp" -o "$3" \
    "$2/libhipamp.a" -fopenmp -lpthread
}
build "$base_src" "$base_lib" "$work/base" &
build "$new_src" "$new_lib" "$work/new"
wait

instructions() {  # binary kind reps
  OMP_NUM_THREADS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$1" "$2" "$3" 2>&1 >/dev/null | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
launches() {  # binary kind
  echo $(($(instructions "$1" "$2" "$reps") - $(instructions "$1" "$2" 0)))
}

echo "| kernel kind | base instructions / launch | new instructions / launch | new / base |"
echo "|---|---|---|---|"
for kind in $("$work/new" list); do
  b=$(launches "$work/base" "$kind")
  n=$(launches "$work/new" "$kind")
  awk -v k="$kind" -v b="$b" -v n="$n" -v r="$reps" \
    'BEGIN { printf "| %s | %.0f | %.0f | %.4f |\n", k, b / r, n / r, n / b }'
done
