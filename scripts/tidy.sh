#!/usr/bin/env bash
# Runs clang-tidy with the repo's .clang-tidy over the host-compiled sources (library, CPU
# device, examples, tests) from a CPU build's compile commands, and prints each finding once.
# The CUDA/HIP translation units need a GPU compiler's front end and are not covered.
#   scripts/tidy.sh [file ...]      default: every host source; exit 1 if anything is found
set -uo pipefail
cd "$(dirname "$0")/.."
build=build/cpu-release
[ -f "$build/compile_commands.json" ] || cmake --preset cpu-release >/dev/null
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(git ls-files 'lib/*.cpp' 'fallback/src/*.cpp' 'examples/*.cpp' \
    'tests/*.cpp' 'tests/kernel_emulator/*.cpp' | grep -v -e 'lib/gpu_runtime.cpp' -e 'lib/gemm_gpu_')
fi
# CMake leaves -std out where GCC's default is already C++17; clang's default is not.
findings=$(printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet --extra-arg=-std=c++17 2>/dev/null |
  grep -E '(warning|error): ' | sort -u)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "clang-tidy: $(echo "$findings" | wc -l) finding(s)"
  exit 1
fi
echo "clang-tidy: no findings in ${#files[@]} files"
