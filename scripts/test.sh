#!/usr/bin/env bash
# Builds hipamp and runs the whole test suite (CTest: the Catch2 suite on every accelerator,
# again with the emulated discrete device, and the find_package consumer check).
#   scripts/test.sh [preset]     preset: default (best backend), cpu-release, cpu-debug-asan, ...
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
scripts/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j"$(nproc)"
ctest --preset "$preset" -j"$(nproc)"
