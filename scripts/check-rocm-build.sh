#!/usr/bin/env bash
# The ROCm compile check (no AMD GPU needed): installs Debian 12's ROCm 5.2 packages, builds
# hipamp's HIP backend for gfx90a and gfx940 — the library, the tests, the examples and a
# rocPRIM-using translation unit — runs the test suite on the CPU device of that build, and
# builds the find_package consumer (its kernel file as HIP) against an install of it.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(hipcc libamdhip64-dev librocprim-dev rocm-device-libs rocm-cmake ninja-build)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
cmake --preset hip-release -G Ninja -DHIPAMP_BUILD_BENCHMARKS=OFF
cmake --build --preset hip-release -j"$(nproc)"
test -x build/hip-release/tests/hipamp_vendor_primitives_check  # the rocPRIM TU linked
build/hip-release/tests/hipamp_tests
# A project outside the tree compiles its kernel file as HIP through the installed package's
# hipamp_as_kernel_sources, and runs (on the CPU device: no AMD GPU here).
ctest --test-dir build/hip-release -R hipamp_package_consumer --output-on-failure
