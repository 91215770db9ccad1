// The .NET performance seed's vector add with exp: c[i] = a[i] + exp(b[i]). The inputs are
// const views (copied to a GPU once, never back), the output discards its old contents (never
// copied in) and is synchronised once at the end.
#pragma once

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "workload.hpp"

namespace demo {

inline result run_vector_add(const hipamp::accelerator_view& av, int n = 1 << 24) {
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  std::vector<float> a(n), b(n), c(n, std::nanf(""));
  for (int i = 0; i < n; ++i) {
    a[i] = dist(gen);
    b[i] = dist(gen);
  }
  auto work = [&] {
    hipamp::array_view<const float, 1> av_a(n, a), av_b(n, b);
    hipamp::array_view<float, 1> av_c(n, c);
    av_c.discard_data();
    hipamp::parallel_for_each(av, av_c.extent, [=] HIPAMP_RESTRICT(hipamp::index<1> i) {
      av_c[i] = av_a[i] + expf(av_b[i]);
    });
    av_c.synchronize();
  };
  result r;
  r.workload = "vector add with exp";
  r.size = std::to_string(n) + " floats";
  r.seconds = median_seconds(5, work);
  // Serial reference in double precision; float exp is within a few ulp of it.
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const double ref = static_cast<double>(a[i]) + std::exp(static_cast<double>(b[i]));
    worst = std::max(worst, std::abs(c[i] - ref) / std::max(1.0, std::abs(ref)));
  }
  r.ok = worst < 1e-5;
  char note[64];
  std::snprintf(note, sizeof note, "max rel err %.1e", worst);
  r.note = note;
  return r;
}

}  // namespace demo
