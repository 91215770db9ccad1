#!/usr/bin/env bash
# Builds hipamp with the best backend this machine has and runs the demo: every seed workload
# on the best accelerator and on the CPU device, checked against serial references and timed.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
scripts/install-deps.sh
cmake --preset "$preset" -DHIPAMP_BUILD_TESTS=OFF -DHIPAMP_BUILD_BENCHMARKS=OFF
cmake --build --preset "$preset" --target hipamp_demo -j"$(nproc)"
"build/$preset/examples/hipamp_demo"
