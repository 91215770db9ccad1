// One workload split across every GPU of the machine against the same workload on one GPU,
// measured side by side in one run (issue 20). The peer of the split run is the one-GPU run:
//   scaling = time on one GPU / time split across all GPUs   (goal >= 1.8 on two GPUs)
//
//   vector_add_resident:  c = a + b, 2^28 floats (1 GiB per operand), the data already on the
//                         devices (each GPU holds its share); memory-bound
//   polynomial_resident:  512 dependent FMAs per element of 2^26 floats; compute-bound
//   vector_add_from_host: c = a + b over array_views of host memory, 2^26 floats, each round
//                         moving its operands in and the result out (PCIe and the host's
//                         memory are shared by the GPUs, so this one is not expected to scale
//                         like the others; reported for what it is)
//
// Each case interleaves one-GPU and split rounds and reports medians. With fewer than two
// GPUs every case is skipped, saying so.
#include <algorithm>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <hipamp/hipamp.hpp>

#include "common/host.hpp"

namespace hx = hipamp;

namespace {

using namespace bench;

// The share of n that part p of `parts` gets: equal shares, the remainder to the last.
struct share {
  int begin;
  int length;
};
share share_of(int n, int parts, int p) {
  const int each = n / parts;
  return {p * each, p + 1 == parts ? n - p * each : each};
}

// Device-resident operands of one part: three arrays on one GPU.
struct resident_part {
  hx::accelerator_view view;
  hx::array<float, 1> a, b, c;
  resident_part(const hx::accelerator& acc, int length)
      : view(acc.get_default_view()), a(length, view), b(length, view), c(length, view) {}
};

// Fills the operands on their GPU (an extended lambda cannot live in a constructor).
void fill(resident_part& p) {
  hx::array_view<float, 1> av(p.a), bv(p.b);
  hx::parallel_for_each(p.view, av.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
    av[i] = 0.5f + 1e-7f * static_cast<float>(i[0] % 1000);
    bv[i] = 0.25f;
  });
  p.view.wait();
}

void launch_vector_add(resident_part& p) {
  hx::array_view<const float, 1> a(p.a), b(p.b);
  hx::array_view<float, 1> c(p.c);
  hx::parallel_for_each(p.view, c.extent,
                        [=] HIPAMP_RESTRICT(hx::index<1> i) { c[i] = a[i] + b[i]; });
}

void launch_polynomial(resident_part& p) {
  hx::array_view<const float, 1> a(p.a), b(p.b);
  hx::array_view<float, 1> c(p.c);
  hx::parallel_for_each(p.view, c.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
    float x = a[i];
    const float k = b[i];
    for (int step = 0; step < 512; ++step) x = x * k + 0.5f;  // dependent FMAs
    c[i] = x;
  });
}

// Runs `launch` on every part at once and waits for all of them; returns seconds.
template <class Launch>
double timed_round(std::vector<resident_part>& parts, Launch launch) {
  const auto start = clock_type::now();
  for (resident_part& p : parts) launch(p);  // asynchronous: all GPUs work together
  for (resident_part& p : parts) p.view.wait();
  return seconds_since(start);
}

template <class Launch>
void resident_case(benchmark::State& state, int n, Launch launch) {
  const std::vector<hx::accelerator> all = gpu_accelerators();
  if (all.size() < 2) {
    state.SkipWithError("needs two or more GPUs");
    return;
  }
  const int count = static_cast<int>(all.size());
  std::vector<resident_part> one;
  one.emplace_back(all[0], n);
  std::vector<resident_part> split;
  for (int p = 0; p < count; ++p) split.emplace_back(all[p], share_of(n, count, p).length);
  fill(one.front());
  for (resident_part& p : split) fill(p);
  for (int w = 0; w < 3; ++w) {
    timed_round(one, launch);
    timed_round(split, launch);
  }
  std::vector<double> t_one, t_split;
  for (auto _ : state) {
    for (int r = 0; r < 15; ++r) {
      t_one.push_back(timed_round(one, launch));
      t_split.push_back(timed_round(split, launch));
    }
    state.SetIterationTime(median(t_split));
  }
  state.counters["gpus"] = count;
  state.counters["one_gpu_ms"] = median(t_one) * 1e3;
  state.counters["split_ms"] = median(t_split) * 1e3;
  state.counters["scaling"] = median(t_one) / median(t_split);
  state.SetLabel(narrow(all[0].get_description()));
}

void BM_vector_add_resident(benchmark::State& state) {
  resident_case(state, 1 << 28, launch_vector_add);
}

void BM_polynomial_resident(benchmark::State& state) {
  resident_case(state, 1 << 26, launch_polynomial);
}

// c = a + b over host memory; the views are made anew each round, so the operands move in
// and the result moves out every time.
double from_host_round(const std::vector<hx::accelerator>& devices, const std::vector<float>& a,
                       const std::vector<float>& b, std::vector<float>& c) {
  const int n = static_cast<int>(a.size());
  const int parts = static_cast<int>(devices.size());
  const auto start = clock_type::now();
  hx::array_view<const float, 1> av(n, a), bv(n, b);
  hx::array_view<float, 1> cv(n, c);
  cv.discard_data();
  for (int p = 0; p < parts; ++p) {
    const share s = share_of(n, parts, p);
    hx::array_view<const float, 1> as = av.section(s.begin, s.length);
    hx::array_view<const float, 1> bs = bv.section(s.begin, s.length);
    hx::array_view<float, 1> cs = cv.section(s.begin, s.length);
    hx::parallel_for_each(devices[p].get_default_view(), cs.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { cs[i] = as[i] + bs[i]; });
  }
  cv.synchronize();
  return seconds_since(start);
}

void BM_vector_add_from_host(benchmark::State& state) {
  const std::vector<hx::accelerator> all = gpu_accelerators();
  if (all.size() < 2) {
    state.SkipWithError("needs two or more GPUs");
    return;
  }
  const int n = 1 << 26;
  const std::vector<float> a(n, 0.5f), b(n, 0.25f);
  std::vector<float> c(n, 0.0f);
  const std::vector<hx::accelerator> one(all.begin(), all.begin() + 1);
  for (int w = 0; w < 2; ++w) {
    from_host_round(one, a, b, c);
    from_host_round(all, a, b, c);
  }
  std::vector<double> t_one, t_split;
  for (auto _ : state) {
    for (int r = 0; r < 7; ++r) {
      t_one.push_back(from_host_round(one, a, b, c));
      t_split.push_back(from_host_round(all, a, b, c));
    }
    state.SetIterationTime(median(t_split));
  }
  if (std::count(c.begin(), c.end(), 0.75f) != n) state.SkipWithError("wrong result");
  state.counters["gpus"] = static_cast<double>(all.size());
  state.counters["one_gpu_ms"] = median(t_one) * 1e3;
  state.counters["split_ms"] = median(t_split) * 1e3;
  state.counters["scaling"] = median(t_one) / median(t_split);
}

}  // namespace

BENCHMARK(BM_vector_add_resident)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_polynomial_resident)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_vector_add_from_host)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
