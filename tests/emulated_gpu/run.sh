#!/usr/bin/env bash
# Runs the reduce/scan tests with the library's GPU kernels executed by a CPU emulation of
# the CUDA kernel language (see README.md). Usage:
#   tests/emulated_gpu/run.sh ['<catch test spec>' ...]     default: [reduce],[scan] without [.large]
# EMULATED_GPU_BUILD_DIR picks the scratch directory (default: a fresh mktemp -d).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${EMULATED_GPU_BUILD_DIR:-$(mktemp -d)}"
mkdir -p "$build/obj" "$build/generated/hipamp"
cxx="${CXX:-g++}"

# The CPU build's generated header, and a copy of include/ whose <<< >>> launches become
# calls into the emulator (the only source change a host compiler needs).
cat > "$build/generated/hipamp/backend_config.hpp" <<'CFG'
#pragma once
#define HIPAMP_VERSION_MAJOR 0
#define HIPAMP_VERSION_MINOR 1
#define HIPAMP_VERSION_PATCH 0
#define HIPAMP_BACKEND_CPU 1
#define HIPAMP_BACKEND_CUDA 0
#define HIPAMP_BACKEND_HIP 0
#define HIPAMP_BACKEND_NAME "cuda (emulated)"
#define HIPAMP_HAS_OPENMP 1
CFG
rm -rf "$build/include" && cp -r "$repo/include" "$build/include"
python3 - "$build/include" <<'PY'
import os, re, sys
launch = re.compile(r'([\w:]+(?:<[^;{}()]*?>)?)\s*<<<(.*?)>>>\((.*?)\);', re.S)
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        path = os.path.join(root, name)
        text = open(path).read()
        new = launch.sub(lambda m: '::emu::launch(%s, %s, %s);' % (m.group(2), m.group(1), m.group(3)), text)
        if new != text:
            open(path, 'w').write(new)
PY

common=(-std=c++17 -O2 -g -fopenmp -I"$repo/fallback/include" -I"$build/generated")
library=(-I"$repo/include" -I"$repo/lib")
emulated=(-D__CUDACC__ -include "$here/include/cuda_runtime.h" -I"$here/include" -I"$build/include"
          -I"$repo/lib" -I"$repo/tests")
pids=()
for src in "$repo"/lib/data_source.cpp "$repo"/lib/host_memory.cpp "$repo"/lib/interval_set.cpp \
           "$repo"/lib/launch_scope.cpp "$repo"/lib/runtime.cpp "$repo"/fallback/src/*.cpp; do
  "$cxx" "${common[@]}" "${library[@]}" -c "$src" -o "$build/obj/lib_$(basename "$src" .cpp).o" & pids+=($!)
done
for src in "$here/emulator.cpp" "$here/emulated_device.cpp" "$repo/tests/main.cpp" \
           "$repo/tests/test_reduce.cpp" "$repo/tests/test_scan.cpp"; do
  "$cxx" "${common[@]}" "${emulated[@]}" -c "$src" -o "$build/obj/$(basename "$src" .cpp).o" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
"$cxx" -fopenmp "$build"/obj/*.o -o "$build/emulated_gpu_tests" -lpthread
if [ $# -eq 0 ]; then set -- '[reduce]~[.large],[scan]~[.large]'; fi
exec "$build/emulated_gpu_tests" "$@"
