#!/usr/bin/env bash
# The GPU backends' compile check for machines without a GPU (CI): for each backend named
# (cuda, hip), build libhipamp with the GPU compiler, the vendor-primitives link check, the
# ported C++ AMP programs and a test unit that exercises every kernel path the library
# launches (parallel_for_each, arrays, sort, reduce, scan: tests/test_multi_device.cpp), then
# run the installed-package consumer check (tests/consumer through hipamp_as_kernel_sources).
# The GPU-less machine runs what it built on the CPU device.
#
# Not the two-unit program (tests/two_units): its GPU unit alone takes nvcc about 3 minutes
# here, it covers no kernel path test_multi_device.cpp does not, and the GPU machine builds and
# runs it (scripts/gpu_verify.sh release-build-test); CI's CPU build runs it as two host units.
# Not the whole suite: compiling every test unit with nvcc takes about 40 minutes on 2 cores,
# and the GPU machine builds and runs all of it for every change to GPU code (see
# benchmarks/results/ for those runs).
#
#   scripts/check-gpu-build.sh cuda hip      # both (the default: those whose compiler exists)
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$SRC"
export PATH="$PATH:/usr/local/cuda/bin"
backends=("$@")
if ((${#backends[@]} == 0)); then
  command -v nvcc >/dev/null && backends+=(cuda)
  [[ -x /usr/bin/hipcc || -x /opt/rocm/bin/hipcc ]] && backends+=(hip)
fi
jobs="$(nproc)"
for backend in "${backends[@]}"; do
  start=$SECONDS
  preset="$backend-release"
  build="build/$preset"  # the preset's folder
  echo "== check-gpu-build: $backend"
  # HIP: one architecture (HIPAMP_CHECK_HIP_ARCHITECTURES, default gfx90a) rather than the
  # preset's gfx90a;gfx940. Each architecture is a full device compile of every unit, and the
  # second of the same family (wave64 CDNA, no architecture-specific source in hipamp) found
  # nothing the first did not, at about a third of the check's CPU time on CI's 2 cores.
  arch=()
  [[ $backend == hip ]] && arch=(-DCMAKE_HIP_ARCHITECTURES="${HIPAMP_CHECK_HIP_ARCHITECTURES:-gfx90a}")
  cmake --preset "$preset" -G Ninja -DHIPAMP_BUILD_BENCHMARKS=OFF -DHIPAMP_BUILD_EXAMPLES=OFF \
    "${arch[@]}" >/dev/null
  targets=(hipamp hipamp_vendor_primitives_check
           tests/CMakeFiles/hipamp_tests.dir/test_multi_device.cpp.o)
  # HIP: the unit built as hipcc builds a port, clang's HIP wrapper first (config.hpp must still
  # bring HIP's kernel language: blockIdx, __syncthreads, atomics).
  [[ $backend == hip ]] && targets+=(tests/CMakeFiles/hipamp_tests.dir/test_hip_runtime_header.cpp.o)
  # The ported programs (tools/tests/inputs), compiled as kernel sources like a user's.
  mapfile -t ported < <(sed -n 's/^hipamp_port_test(\([a-z_]*\).*/ported_\1/p' tools/CMakeLists.txt)
  cmake --build "$build" -j "$jobs" --target "${targets[@]}" "${ported[@]}"
  ctest --test-dir "$build" -R "^(hipamp_package_consumer|hipamp_vendor_primitives_check|ported_.*)$" \
    --output-on-failure -j "$jobs"
  echo "== check-gpu-build: $backend took $((SECONDS - start)) s"
done
