// The GPU-compiled unit of the two-unit program (README in two_units.hpp): compiled by nvcc or
// hipcc in GPU builds (hipamp_as_kernel_sources), by the C++ compiler in CPU-only builds.
#include "run_checks.hpp"

namespace {
struct gpu_unit {};
}  // namespace

two_units::unit_report two_units::run_gpu_unit() { return checks<gpu_unit>("gpu_unit.cpp").run(); }
