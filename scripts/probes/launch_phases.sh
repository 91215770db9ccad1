#!/usr/bin/env bash
# Issue 19 (session 22): scripts/probes/launch_phases.cpp on the GPU machine's 16-core host.
# For each source tree in TREES (default: this repository; directories such as build-ab-base
# carried to the machine), builds libhipamp (CPU backend, Release) and the probe against it,
# then runs RUNS rounds, each tree in turn, for each thread count in THREADS (default 16), saxpy
# size in ELEMENTS (default 65536) and heap mode in HEAPS (plain; aligned: every heap block on
# cache lines of its own, scripts/probes/aligned_malloc.c preloaded).
#   STAMPS=1: trees and probe built with -DHIPAMP_PROBE_STAMPS (trees of branch probe-stamps-s22)
#   run: bash scripts/probes/launch_phases.sh     (OUT gets launch_phases.txt and build logs;
#        python3 scripts/probes/launch_phases_summary.py OUT/launch_phases.txt tabulates it)
set -uo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$PWD/launch_phases_out}"
mkdir -p "$OUT"
flags=()
[ "${STAMPS:-0}" = 1 ] && flags=(-DHIPAMP_PROBE_STAMPS)
trees=(${TREES:-$SRC})
build() {  # build INDEX TREE
  local dir="/tmp/hipamp-phases-$1"
  cmake -S "$2" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPAMP_BACKEND=cpu \
    -DHIPAMP_BUILD_TESTS=OFF -DHIPAMP_BUILD_EXAMPLES=OFF -DHIPAMP_BUILD_BENCHMARKS=OFF \
    -DCMAKE_CXX_FLAGS="${flags[*]}" >"$OUT/configure_$1.log" 2>&1 &&
    cmake --build "$dir" -j 8 --target hipamp >"$OUT/build_$1.log" 2>&1 &&
    # The benchmarks' flags (benchmarks/CMakeLists.txt): without -falign-loops=64 the numbers move.
    g++ -std=c++17 -O3 -DNDEBUG "${flags[@]}" -falign-loops=64 -fopenmp -I"$2/include" \
      -I"$2/fallback/include" -I"$dir/generated/include" "$SRC/scripts/probes/launch_phases.cpp" \
      "$dir/libhipamp.a" -ldl -o "$dir/launch_phases" >>"$OUT/build_$1.log" 2>&1
}
for i in "${!trees[@]}"; do build "$i" "${trees[$i]}" & done
wait
for i in "${!trees[@]}"; do
  [ -x "/tmp/hipamp-phases-$i/launch_phases" ] || { tail -20 "$OUT/build_$i.log"; exit 1; }
done
if [[ " ${HEAPS:-plain} " == *" aligned "* ]]; then
  gcc -O2 -fno-builtin -shared -fPIC "$SRC/scripts/probes/aligned_malloc.c" \
    -o /tmp/aligned_malloc.so || exit 1
fi
for r in $(seq 1 "${RUNS:-3}"); do
  for i in "${!trees[@]}"; do
    for heap in ${HEAPS:-plain}; do
      preload=""
      [ "$heap" = aligned ] && preload=/tmp/aligned_malloc.so
      for t in ${THREADS:-16}; do
        for e in ${ELEMENTS:-65536}; do
          echo "== $(basename "${trees[$i]}") $heap, round $r"
          LD_PRELOAD="$preload" OMP_NUM_THREADS="$t" "/tmp/hipamp-phases-$i/launch_phases" \
            "${LAUNCHES:-10000}" "$e"
        done
      done
    done
  done
done 2>&1 | tee "$OUT/launch_phases.txt"
