#!/usr/bin/env bash
# Runs the reduce/scan tests with the library's GPU kernels executed by the kernel emulator, a
# CPU emulation of the CUDA kernel language (see README.md). Usage:
#   tests/kernel_emulator/run.sh ['<catch test spec>' ...]   default: [reduce],[scan] without [.large]
#   tests/kernel_emulator/run.sh sort                         the bitonic sort's kernels instead
# KERNEL_EMULATOR_BUILD_DIR picks the scratch directory (default: a fresh mktemp -d).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${KERNEL_EMULATOR_BUILD_DIR:-$(mktemp -d)}"
mkdir -p "$build/obj" "$build/generated/hipamp"
cxx="${CXX:-g++}"

# The CPU build's generated header, and a copy of include/ whose <<< >>> launches become
# calls into the emulator (the only source change a host compiler needs).
cat > "$build/generated/hipamp/backend_config.hpp.new" <<'CFG'
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
# (replaced only when it changed: the library objects a reused build directory keeps depend on it)
cmp -s "$build/generated/hipamp/backend_config.hpp.new" "$build/generated/hipamp/backend_config.hpp" ||
  mv "$build/generated/hipamp/backend_config.hpp.new" "$build/generated/hipamp/backend_config.hpp"
rm -f "$build/generated/hipamp/backend_config.hpp.new"
rm -rf "$build/include" && cp -r "$repo/include" "$build/include"
python3 - "$build/include" <<'PY'
import os, re, sys
launch = re.compile(r'([\w:]+(?:<[^;{}()]*?>)?)\s*<<<(.*?)>>>\((.*?)\);', re.S)
# Dynamic shared arrays get a fixed size (256 KiB, above any GPU's opt-in limit: the stable
# sort's 2^14 tiles of (key, position) pairs take 136 KiB): shared memory is per-block static
# storage here.
# (an alignment macro goes first: attributes may not follow `static thread_local`).
dynamic_shared = re.compile(r'extern __shared__ (\w+_ALIGN )?(.*?)\[\];')
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        path = os.path.join(root, name)
        text = open(path).read()
        # The kernel goes in as a generic lambda: a function template's arguments are then
        # deduced at the call, as a real launch does.
        new = launch.sub(lambda m: '::emu::launch(%s, [&](auto&&... emu_args) { %s(emu_args...); }, %s);'
                         % (m.group(2), m.group(1), m.group(3)), text)
        new = dynamic_shared.sub(lambda m: '%s__shared__ %s[1 << 18];' % (m.group(1) or '', m.group(2)), new)
        if new != text:
            open(path, 'w').write(new)
PY

# -g1 (line tables: a failure's backtrace names the lines) rather than -g: full debug info was
# a third of each check's compile time (test_reduce.cpp: 31 -> 20.5 CPU s with g++ 12).
common=(-std=c++17 -O2 -g1 -fopenmp -I"$repo/fallback/include" -I"$build/generated")
library=(-I"$repo/include" -I"$repo/lib")
emulated=(-D__CUDACC__ -include "$here/include/cuda_runtime.h" -I"$here/include" -I"$build/include"
          -I"$repo/lib" -I"$repo/tests")
pids=()
# A build directory used again (KERNEL_EMULATOR_BUILD_DIR; CI runs the reduce/scan checks, then
# the sort's, in one) keeps the library's objects whose sources and headers have not changed
# since, by the compiler's own dependency lists: the library is compiled once, not per check.
# A different compiler, or a change to this script (the flags), compiles everything again.
stamp="$build/obj/compiler"
if [[ ! -f $stamp || "$(cat "$stamp")" != "$cxx" || "$here/run.sh" -nt "$stamp" ]]; then
  rm -f "$build"/obj/*.o "$build"/obj/*.d
  printf '%s' "$cxx" > "$stamp"
fi
up_to_date() {  # up_to_date <object>: it exists and nothing its .d names is newer
  local obj=$1 dep="${1%.o}.d" f
  [[ -f $obj && -f $dep ]] || return 1
  for f in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$dep"); do
    [[ -e $f && ! $f -nt $obj ]] || return 1
  done
}
# The library's host sources, with the instruction-set flags of cmake/HipampGemmKernels.cmake.
for src in "$repo"/lib/bounds_check.cpp "$repo"/lib/data_source.cpp "$repo"/lib/host_memory.cpp "$repo"/lib/interval_set.cpp \
           "$repo"/lib/launch_scope.cpp "$repo"/lib/runtime.cpp "$repo"/lib/gemm.cpp \
           "$repo"/fallback/src/*.cpp; do
  isa=()
  case "$(basename "$src")" in
    gemm_cpu_avx2.cpp) isa=(-mavx2 -mfma -ffp-contract=fast) ;;
    gemm_cpu_avx512.cpp) isa=(-mavx512f -mfma -ffp-contract=fast) ;;
    gemm_cpu_portable.cpp) isa=(-ffp-contract=fast) ;;
  esac
  obj="$build/obj/lib_$(basename "$src" .cpp).o"
  up_to_date "$obj" && continue
  # -O1, no debug info: the library's host code is not what the emulator checks (its kernels
  # are), and these units (SIMD sort and GEMM kernels among them) are most of its compile time.
  "$cxx" "${common[@]}" -O1 -g0 "${library[@]}" "${isa[@]}" -DHIPAMP_GEMM_HAVE_AVX2=1 -DHIPAMP_GEMM_HAVE_AVX512=1 \
    -MMD -c "$src" -o "$obj" & pids+=($!)
done
if [ "${1:-}" = sort ]; then
  checks=("$here/sort_kernels_check.cpp")
else
  checks=("$repo/tests/main.cpp" "$repo/tests/test_reduce.cpp" "$repo/tests/test_scan.cpp")
fi
for src in "$here/emulator.cpp" "$here/emulated_gpu_device.cpp" "${checks[@]}"; do
  unoptimised=()  # Catch2's runner, as tests/CMakeLists.txt compiles it (it says why)
  [[ $src == "$repo/tests/main.cpp" ]] && unoptimised=(-O0)
  "$cxx" "${common[@]}" "${unoptimised[@]}" "${emulated[@]}" -c "$src" -o "$build/obj/$(basename "$src" .cpp).o" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
objects=("$build"/obj/lib_*.o "$build/obj/emulator.o" "$build/obj/emulated_gpu_device.o")
for src in "${checks[@]}"; do objects+=("$build/obj/$(basename "$src" .cpp).o"); done
"$cxx" -fopenmp "${objects[@]}" -o "$build/kernel_emulator_checks" -lpthread
if [ "${1:-}" = sort ]; then exec "$build/kernel_emulator_checks"; fi
if [ $# -eq 0 ]; then set -- '[reduce]~[.large],[scan]~[.large]'; fi
exec "$build/kernel_emulator_checks" "$@"
