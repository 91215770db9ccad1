// Seed program 1: vector add with exp on every accelerator, checked against a serial loop.
#include <cstdio>
#include <exception>

#include "workloads/vector_add.hpp"

int main() try {
  for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
    const demo::result r = demo::run_vector_add(acc.get_default_view());
    std::printf("%-40s %s: %.3f ms, %s (%s)\n", demo::narrow(acc.get_description()).c_str(),
                r.size.c_str(), r.seconds * 1e3, r.ok ? "OK" : "WRONG", r.note.c_str());
    if (!r.ok) return 1;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
