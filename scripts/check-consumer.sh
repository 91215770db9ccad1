#!/usr/bin/env bash
# The README's "Kernels on the GPU from your project", checked as a new user meets it: for each
# backend, build and install hipamp (the library alone), write a project outside the tree from
# README.md itself (its CMakeLists block and its short example, verbatim), build it against
# the install with nothing but CMAKE_PREFIX_PATH, and run it. The project gets a second
# target, probe, made with the same documented lines: it checks the answer and, where a GPU
# is the default accelerator, that the data went to the GPU and back (the transfer counters),
# i.e. that the kernel ran there.
#
#   scripts/check-consumer.sh                 # cpu, plus cuda where nvcc is found and hip
#                                             # where ROCm's hip-lang package is found
#   scripts/check-consumer.sh cuda            # only these backends
#   EXPECT_GPU=1 scripts/check-consumer.sh cuda   # on the GPU machine: the GPU must run it
#
# Environment: WORK (scratch folder, default /tmp/hipamp-check-consumer), JOBS (default: nproc),
# HIPAMP_CMAKE_ARGS (extra arguments for hipamp's configure, e.g. -DCMAKE_CUDA_ARCHITECTURES=80).
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${WORK:-/tmp/hipamp-check-consumer}"
JOBS="${JOBS:-$(nproc)}"
export PATH="$PATH:/usr/local/cuda/bin"

backends=("$@")
if ((${#backends[@]} == 0)); then
  backends=(cpu)
  command -v nvcc >/dev/null && backends+=(cuda)
  if [[ -e /opt/rocm/lib/cmake/hip-lang || -e /usr/lib/x86_64-linux-gnu/cmake/hip-lang ]]; then
    backends+=(hip)
  fi
fi

# The fenced block of kind $2 that follows the heading line $1 in README.md.
readme_block() {
  awk -v heading="$1" -v kind="$2" '
    $0 == heading { found = 1; next }
    found && !inside && $0 == "```" kind { inside = 1; next }
    inside && $0 == "```" { exit }
    inside { print }' "$SRC/README.md"
}

write_project() {
  local app="$1"
  mkdir -p "$app"
  readme_block "### Kernels on the GPU from your project" cmake >"$app/CMakeLists.txt"
  readme_block "## A short example" cpp >"$app/main.cpp"
  if ! grep -q hipamp_as_kernel_sources "$app/CMakeLists.txt" || ! grep -q parallel_for_each "$app/main.cpp"; then
    echo "check-consumer: README.md's CMakeLists or example block was not found" >&2
    exit 1
  fi
  cat >>"$app/CMakeLists.txt" <<'EOF'

# Added by scripts/check-consumer.sh, with the same documented lines: the probe.
add_executable(probe probe.cpp)
target_link_libraries(probe PRIVATE hipamp::hipamp)
hipamp_as_kernel_sources(probe)
EOF
  cat >"$app/probe.cpp" <<'EOF'
// The README example's kernel, checked: the answer against the host's, and where a GPU is the
// default accelerator, the bytes the GPU's transfer counters saw. EXPECT_GPU=1: a GPU must be.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <hipamp/hipamp.hpp>

int main() {
  const int n = 1 << 20;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.25f;
    b[i] = static_cast<float>(i % 7) * 0.5f - 1.0f;
  }
  const hipamp::accelerator def;
  const bool gpu = !def.is_cpu();
  const hipamp::transfer_statistics before = hipamp::get_transfer_statistics(def);
  {
    hipamp::array_view<const float, 1> av(n, a), bv(n, b);
    hipamp::array_view<float, 1> cv(n, c);
    cv.discard_data();
    hipamp::parallel_for_each(cv.extent, [=] HIPAMP_RESTRICT(hipamp::index<1> i) {
      cv[i] = av[i] + expf(bv[i]);
    });
    cv.synchronize();
  }
  const hipamp::transfer_statistics after = hipamp::get_transfer_statistics(def);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const double want = static_cast<double>(a[i]) + std::exp(static_cast<double>(b[i]));
    if (!(std::fabs(c[i] - want) <= 1e-5 * std::fabs(want) + 1e-6)) ++bad;
  }
  const unsigned long long in = after.host_to_device_bytes - before.host_to_device_bytes;
  const unsigned long long out = after.device_to_host_bytes - before.device_to_host_bytes;
  std::printf("probe: %s package, default accelerator %ls, %d wrong elements, "
              "%llu bytes to it, %llu bytes back\n",
              HIPAMP_BACKEND_NAME, def.get_description().c_str(), bad, in, out);
  const char* expect = std::getenv("EXPECT_GPU");
  if (expect != nullptr && std::string(expect) == "1" && !gpu) {
    std::printf("probe: FAILED: EXPECT_GPU=1 but the default accelerator is not a GPU\n");
    return 1;
  }
  const unsigned long long bytes = sizeof(float) * static_cast<unsigned long long>(n);
  if (gpu && (in < 2 * bytes || out < bytes)) {
    std::printf("probe: FAILED: the GPU did not receive the inputs and return the result\n");
    return 1;
  }
  return bad == 0 ? 0 : 1;
}
EOF
}

for backend in "${backends[@]}"; do
  echo "== $backend: build and install hipamp (library only)"
  dir="$WORK/$backend"
  rm -rf "$dir"
  mkdir -p "$dir"
  # shellcheck disable=SC2086  # HIPAMP_CMAKE_ARGS is a list of arguments
  cmake -S "$SRC" -B "$dir/hipamp-build" -DHIPAMP_BACKEND="$backend" -DCMAKE_BUILD_TYPE=Release \
    -DHIPAMP_BUILD_TESTS=OFF -DHIPAMP_BUILD_BENCHMARKS=OFF -DHIPAMP_BUILD_EXAMPLES=OFF \
    ${HIPAMP_CMAKE_ARGS:-} >"$dir/hipamp-configure.log" 2>&1 ||
    { tail -30 "$dir/hipamp-configure.log"; exit 1; }
  cmake --build "$dir/hipamp-build" -j"$JOBS" >"$dir/hipamp-build.log" 2>&1 ||
    { tail -30 "$dir/hipamp-build.log"; exit 1; }
  cmake --install "$dir/hipamp-build" --prefix "$dir/prefix" >/dev/null

  echo "== $backend: the README's project, outside the tree"
  write_project "$dir/app"
  cmake -S "$dir/app" -B "$dir/app-build" -DCMAKE_PREFIX_PATH="$dir/prefix" \
    -DCMAKE_BUILD_TYPE=Release >"$dir/app-configure.log" 2>&1 ||
    { tail -30 "$dir/app-configure.log"; exit 1; }
  cmake --build "$dir/app-build" -j"$JOBS" -v >"$dir/app-build.log" 2>&1 ||
    { tail -30 "$dir/app-build.log"; exit 1; }
  case "$backend" in
    cuda) compiler=nvcc ;;
    hip) compiler="clang.*-x hip" ;;
    *) compiler="" ;;
  esac
  if [[ -n "$compiler" ]] && ! grep -Eq "$compiler.*main\.cpp" "$dir/app-build.log"; then
    echo "check-consumer: $backend: main.cpp was not compiled by the GPU compiler" >&2
    exit 1
  fi
  "$dir/app-build/my_app"
  "$dir/app-build/probe"
  echo "== $backend: ok"
done
echo "check-consumer: ${backends[*]}: ok"
