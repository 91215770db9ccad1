// The host-compiled unit of the two-unit program (two_units.hpp): always built by the C++
// compiler, also in GPU builds.
#include "run_checks.hpp"

namespace {
struct host_unit {};
}  // namespace

two_units::unit_report two_units::run_host_unit() {
  return checks<host_unit>("host_unit.cpp").run();
}
