// The EPGPU summation seed for the demo: 10^7 floats around 1000 summed by the recursive tree
// of kernel launches and by hipamp::reduce, each checked against the exact (long double) sum.
// A serial float loop is off by about 10^-4 relative here; both tree sums must stay within
// 10^-6.
#pragma once

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "workload.hpp"

namespace demo {

inline std::vector<result> run_reduction(const hipamp::accelerator_view& av, int n = 10000000) {
  std::vector<float> data(static_cast<std::size_t>(n));
  std::mt19937 rng(2011);
  std::uniform_real_distribution<float> dist(500.0f, 1500.0f);
  for (float& x : data) x = dist(rng);
  long double exact = 0;
  for (float x : data) exact += x;
  auto row = [&](const char* name, double seconds, float sum) {
    result r;
    r.workload = name;
    r.size = std::to_string(n) + " floats";
    r.seconds = seconds;
    const double rel = static_cast<double>(std::fabs((sum - exact) / exact));
    r.ok = rel < 1e-6;
    char note[64];
    std::snprintf(note, sizeof note, "rel err %.1e", rel);
    r.note = note;
    return r;
  };
  std::vector<result> rows;
  float tree = 0;
  const double tree_seconds = median_seconds(3, [&] {
    std::vector<float> scratch = data;
    const hipamp::array_view<float, 1> a(n, scratch.data());
    for (int length = n; length > 1;) {
      const int kept = (length + 1) / 2;
      hipamp::parallel_for_each(av, hipamp::extent<1>(length - kept),
                                [=] HIPAMP_RESTRICT(hipamp::index<1> i) { a[i] += a[i + kept]; });
      length = kept;
    }
    tree = a[0];
  });
  rows.push_back(row("sum: tree of launches", tree_seconds, tree));
  float total = 0;
  const hipamp::array_view<const float, 1> view(n, data.data());
  const double reduce_seconds = median_seconds(5, [&] { total = hipamp::reduce(av, view, 0.0f); });
  rows.push_back(row("sum: hipamp::reduce", reduce_seconds, total));
  return rows;
}

}  // namespace demo
