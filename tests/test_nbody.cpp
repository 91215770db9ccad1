// The n-body example (examples/workloads/nbody.hpp): both kernels on every accelerator match a
// serial double-precision simulation after N steps within the tolerance the demo states, and
// the bodies really moved (a kernel that did nothing would be far outside it).
#include <cmath>

#include "../examples/workloads/nbody.hpp"
#include "support.hpp"

namespace nb = demo::nbody;

TEST_CASE("n-body matches a serial double-precision simulation", "[nbody]") {
  const unsigned seed = std::uniform_int_distribution<unsigned>(1, 1u << 30)(hipamp_test::rng());
  for (nb::kernel k : {nb::kernel::simple, nb::kernel::tiled}) {
    if (!nb::has_kernel(k)) continue;
    FOR_EACH_ACCELERATOR(acc) {
      // 300 bodies: one full and one partial tile of 256 in the tiled kernel.
      for (int steps : {1, 7}) {
        const double error = nb::max_position_error(acc.get_default_view(), 300, steps, k, seed);
        INFO(nb::name(k) << " kernel, " << steps << " steps, seed " << seed << ": error " << error);
        CHECK(error <= nb::tolerance);
      }
    }
  }
}

TEST_CASE("n-body bodies move far beyond the tolerance", "[nbody]") {
  nb::bodies b = nb::random_bodies(300, 99);
  const std::vector<nb::float_4> start = b.pos;
  nb::simulate(hipamp::accelerator().get_default_view(), b, 7, nb::kernel::simple);
  double moved = 0;
  for (std::size_t i = 0; i < start.size(); ++i) {
    moved = std::max(moved, static_cast<double>(std::abs(b.pos[i].x - start[i].x)));
    CHECK(b.pos[i].w == start[i].w);  // masses are carried over
  }
  CHECK(moved > 50 * nb::tolerance);
}

TEST_CASE("n-body tiled and simple kernels agree", "[nbody]") {
  if (!nb::has_kernel(nb::kernel::tiled)) return;
  FOR_EACH_ACCELERATOR(acc) {
    nb::bodies simple = nb::random_bodies(513, 7), tiled = simple;
    nb::simulate(acc.get_default_view(), simple, 3, nb::kernel::simple);
    nb::simulate(acc.get_default_view(), tiled, 3, nb::kernel::tiled);
    double worst = 0;
    for (std::size_t i = 0; i < simple.pos.size(); ++i) {
      worst = std::max(worst, static_cast<double>(std::abs(simple.pos[i].y - tiled.pos[i].y)));
    }
    CHECK(worst <= nb::tolerance);
  }
}
