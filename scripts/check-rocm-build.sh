#!/usr/bin/env bash
# The ROCm compile check (no AMD GPU needed): installs Debian 12's ROCm 5.2 packages, then
# builds hipamp's HIP backend for gfx90a (HIPAMP_CHECK_HIP_ARCHITECTURES) — the library, a rocPRIM-using translation
# unit, the ported programs and a test unit of every kernel path — runs what it built on the
# CPU device, and builds the find_package consumer (its kernel file as HIP) against an install.
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
# The HIP backend's compile check, the same as CUDA's (see check-gpu-build.sh for what it builds).
exec scripts/check-gpu-build.sh hip
