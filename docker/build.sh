#!/usr/bin/env bash
# The build recipe every hipamp image runs (Dockerfile.cpu, .cuda, .rocm), and the one
# scripts/check-docker-cpu.sh proves without a Docker engine: install the dependencies, build,
# run the tests that can run here, install into a prefix, and build (and, where tests run, run)
# a downstream project that knows hipamp only through find_package.
#
#   docker/build.sh <cpu|cuda|hip> [extra CMake arguments...]
#
# Environment (all optional):
#   HIPAMP_BUILD_DIR   build tree (default /tmp/hipamp-build, removed at the end)
#   HIPAMP_PREFIX      install prefix (default /usr/local, which find_package searches by default)
#   HIPAMP_BUILD_TESTS 1 (default) builds the test suite; 0 builds the library and examples only
#                      (CI proves Dockerfile.cpu so: it runs the suite itself, see .ci/run)
#   HIPAMP_BUILD_EXAMPLES 1 (default) builds the examples (a check that they compile here: the
#                      build tree, examples included, is removed at the end); 0 skips them (CI,
#                      whose first stage builds them with the same compiler)
#   HIPAMP_RUN_TESTS   1 (default) runs CTest (when the suite is built) and the installed
#                      consumer; 0 builds only
#   HIPAMP_TEST_ENV    variables for the test run, e.g. HIPAMP_DEFAULT_ACCELERATOR=cpu
#   HIPAMP_KEEP_BUILD  1 keeps the build tree
set -euo pipefail
backend="${1:?usage: docker/build.sh <cpu|cuda|hip> [cmake arguments...]}"
shift
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${HIPAMP_BUILD_DIR:-/tmp/hipamp-build}"
prefix="${HIPAMP_PREFIX:-/usr/local}"
jobs="$(nproc)"
phase_start=$SECONDS
phase() {
  echo "== hipamp image: $* (after $((SECONDS - phase_start)) s)"
}

phase "dependencies"
"$src/scripts/install-deps.sh"

build_tests="${HIPAMP_BUILD_TESTS:-1}"
tests_option=()
[[ "$build_tests" == 1 ]] || tests_option=(-DHIPAMP_BUILD_TESTS=OFF)
[[ "${HIPAMP_BUILD_EXAMPLES:-1}" == 1 ]] || tests_option+=(-DHIPAMP_BUILD_EXAMPLES=OFF)

phase "configure (backend $backend)"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHIPAMP_BACKEND="$backend" \
  -DHIPAMP_BUILD_BENCHMARKS=OFF "${tests_option[@]}" "$@"

phase "build"
cmake --build "$build" -j"$jobs"

if [[ "${HIPAMP_RUN_TESTS:-1}" == 1 && "$build_tests" == 1 ]]; then
  phase "tests"
  # shellcheck disable=SC2086 # HIPAMP_TEST_ENV is a list of VAR=value words
  (cd "$build" && env ${HIPAMP_TEST_ENV:-} ctest --output-on-failure -j"$jobs")
fi

phase "install into $prefix"
cmake --install "$build" --prefix "$prefix"

phase "downstream find_package(hipamp) check"
consumer="$build/installed-consumer"
hint=()  # /usr/local needs no hint: find_package searches it by default
[[ "$prefix" != /usr/local ]] && hint=(-DCMAKE_PREFIX_PATH="$prefix")
cmake -S "$src/tests/consumer" -B "$consumer" -DCMAKE_BUILD_TYPE=Release "${hint[@]}"
cmake --build "$consumer" -j"$jobs"
if [[ "${HIPAMP_RUN_TESTS:-1}" == 1 ]]; then
  # shellcheck disable=SC2086
  env ${HIPAMP_TEST_ENV:-} "$consumer/consumer"
fi

if [[ "${HIPAMP_KEEP_BUILD:-0}" != 1 ]]; then
  rm -rf "$build"
fi
phase "done"
