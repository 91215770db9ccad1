// Seed program: the .NET performance chapter's n-body simulation on every accelerator, with the
// simple and (with the tiled API) the tiled kernel. Each run is first checked against a serial
// double-precision simulation, then timed; prints steps per second.
//   nbody [bodies] [steps]     defaults: 4096 bodies on the CPU device, 16384 on a GPU; 10 steps
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "workloads/nbody.hpp"

int main(int argc, char* argv[]) try {
  const int bodies = argc > 1 ? std::atoi(argv[1]) : 0;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (argc > 1 && bodies <= 0) {
    std::fprintf(stderr, "nbody: the number of bodies must be positive, not '%s'\n", argv[1]);
    return 2;
  }
  if (steps <= 0) {
    std::fprintf(stderr, "nbody: the number of steps must be positive, not '%s'\n", argv[2]);
    return 2;
  }
  std::printf(
      "check: %d bodies, %d steps, positions within %.0e of a serial double-precision run\n",
      demo::nbody::check_bodies, demo::nbody::check_steps, demo::nbody::tolerance);
  bool all_ok = true;
  for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
    for (demo::nbody::kernel k : {demo::nbody::kernel::simple, demo::nbody::kernel::tiled}) {
      if (!demo::nbody::has_kernel(k)) continue;
      const demo::result r = demo::run_nbody(acc.get_default_view(), k, bodies, steps);
      std::printf("%-40s %-16s %s: %8.3f ms, %s (%s)\n",
                  demo::narrow(acc.get_description()).c_str(), r.workload.c_str(), r.size.c_str(),
                  r.seconds * 1e3, r.ok ? "OK" : "WRONG", r.note.c_str());
      all_ok = all_ok && r.ok;
    }
  }
  return all_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
