#!/usr/bin/env bash
# Installs what building hipamp needs on Debian 12 / Ubuntu 22.04+: a C++17 compiler, CMake,
# OpenMP, Catch2 (v2 or v3), Google Benchmark and Eigen (a benchmark peer). Skips packages
# that are already installed; uses sudo when not root. Arguments name more packages to install
# in the same apt transaction (CI adds debootstrap).
set -euo pipefail
packages=(g++ cmake make ninja-build libomp-dev catch2 libbenchmark-dev libeigen3-dev python3 "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "hipamp: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
