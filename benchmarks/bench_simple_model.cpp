// The simple-model parallel_for_each on the CPU device against the loop a user would write
// by hand: `#pragma omp parallel for simd`. Each pair runs on the same data in one process;
// the ratio (hand-written time / hipamp time, higher is better) is printed by
// scripts/ratios.py from the JSON output.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include <hipamp/hipamp.hpp>

namespace hx = hipamp;

namespace {

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

const hx::accelerator_view& cpu_view() {
  static const hx::accelerator_view view =
      hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  return view;
}

void saxpy_hipamp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  const float a = 1.5f;
  hx::array_view<const float, 1> xv(n, x);
  hx::array_view<float, 1> yv(n, y);
  for (auto _ : state) {
    hx::parallel_for_each(cpu_view(), yv.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { yv[i] = a * xv[i] + yv[i]; });
    benchmark::DoNotOptimize(y.data());
  }
  state.SetBytesProcessed(state.iterations() * int64_t(n) * 12);
}

void saxpy_omp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  const float a = 1.5f;
  float* __restrict yp = y.data();
  const float* __restrict xp = x.data();
  for (auto _ : state) {
#pragma omp parallel for simd
    for (int i = 0; i < n; ++i) yp[i] = a * xp[i] + yp[i];
    benchmark::DoNotOptimize(y.data());
  }
  state.SetBytesProcessed(state.iterations() * int64_t(n) * 12);
}

// 5-point Jacobi step on the interior of an n x n grid.
void stencil_hipamp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<float> in = random_floats(std::size_t(n) * n, 3), out(std::size_t(n) * n, 0.f);
  hx::array_view<const float, 2> iv(n, n, in);
  hx::array_view<float, 2> ov(n, n, out);
  hx::array_view<float, 2> interior = ov.section(hx::index<2>(1, 1), hx::extent<2>(n - 2, n - 2));
  for (auto _ : state) {
    hx::parallel_for_each(cpu_view(), interior.extent, [=] HIPAMP_RESTRICT(hx::index<2> i) {
      const int r = i[0] + 1, c = i[1] + 1;
      interior[i] = 0.2f * (iv(r, c) + iv(r - 1, c) + iv(r + 1, c) + iv(r, c - 1) + iv(r, c + 1));
    });
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * int64_t(n - 2) * (n - 2) * 8);
}

void stencil_omp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<float> in = random_floats(std::size_t(n) * n, 3), out(std::size_t(n) * n, 0.f);
  const float* __restrict ip = in.data();
  float* __restrict op = out.data();
  for (auto _ : state) {
#pragma omp parallel for
    for (int r = 1; r < n - 1; ++r) {
#pragma omp simd
      for (int c = 1; c < n - 1; ++c) {
        op[r * n + c] = 0.2f * (ip[r * n + c] + ip[(r - 1) * n + c] + ip[(r + 1) * n + c] +
                                ip[r * n + c - 1] + ip[r * n + c + 1]);
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * int64_t(n - 2) * (n - 2) * 8);
}

}  // namespace

BENCHMARK(saxpy_omp)->RangeMultiplier(16)->Range(1 << 16, 1 << 24)->UseRealTime();
BENCHMARK(saxpy_hipamp)->RangeMultiplier(16)->Range(1 << 16, 1 << 24)->UseRealTime();
BENCHMARK(stencil_omp)->Arg(512)->Arg(2048)->Arg(4096)->UseRealTime();
BENCHMARK(stencil_hipamp)->Arg(512)->Arg(2048)->Arg(4096)->UseRealTime();

BENCHMARK_MAIN();
