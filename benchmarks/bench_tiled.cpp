// The tiled model on the CPU device, each figure beside its peer in the same run:
//  - BM_barrier: cost of one tile_barrier::wait per work-item (counter ns_per_item_barrier);
//  - the seed's 16x16 matrix multiply through the C++ AMP tiled API, the simple model, the
//    hierarchical API (with array_view accessors, and with raw pointers), and two hand-written
//    OpenMP peers (the plain loop nest for the simple model, the same 16x16 blocking for the
//    hierarchical API). Counter GFLOPS.
// Goals (issue 3): tiled <= 10x the simple model's time; hierarchical within 1.2x of the
// hand-written blocked OpenMP SIMD loop.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include <hipamp/hipamp.hpp>

#include "common/host.hpp"

namespace hx = hipamp;

namespace {

using bench::cpu_view;

std::vector<float> random_floats(std::size_t n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// ---- barrier cost ----------------------------------------------------------------------

template <int TileSize>
void BM_barrier(benchmark::State& state) {
  const int barriers = 100;
  const int tiles = 64;
  const int n = TileSize * tiles;
  std::vector<int> out(std::size_t(n), 0);
  hx::array_view<int, 1> o(n, out);
  for (auto _ : state) {
    hx::parallel_for_each(cpu_view(), o.extent.tile<TileSize>(), [=](hx::tiled_index<TileSize> t) {
      int x = t.local[0];
      for (int b = 0; b < barriers; ++b) {
        t.barrier.wait();
        x += b;
      }
      o[t.global] = x;
    });
  }
  o.synchronize();
  benchmark::DoNotOptimize(out.data());
  state.counters["ns_per_item_barrier"] =
      benchmark::Counter(double(n) * barriers * double(state.iterations()) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(BM_barrier, 64)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_barrier, 256)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_barrier, 1024)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same launch with no barrier: what the fiber machinery costs on a barrier-free kernel.
template <int TileSize>
void BM_no_barrier_tiled_vs_simple(benchmark::State& state) {
  const bool tiled = state.range(0) != 0;
  const int n = 1 << 22;
  std::vector<float> in = random_floats(std::size_t(n)), out(std::size_t(n), 0.0f);
  hx::array_view<const float, 1> i(n, in);
  hx::array_view<float, 1> o(n, out);
  for (auto _ : state) {
    if (tiled) {
      hx::parallel_for_each(
          cpu_view(), o.extent.tile<TileSize>(),
          [=](hx::tiled_index<TileSize> t) { o[t.global] = 2.0f * i[t.global] + 1.0f; });
    } else {
      hx::parallel_for_each(cpu_view(), o.extent,
                            [=](hx::index<1> idx) { o[idx] = 2.0f * i[idx] + 1.0f; });
    }
  }
  o.synchronize();
  state.SetLabel(tiled ? "tiled, no barrier" : "simple");
  state.SetBytesProcessed(int64_t(state.iterations()) * n * 8);
}
BENCHMARK_TEMPLATE(BM_no_barrier_tiled_vs_simple, 256)
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---- matrix multiply -------------------------------------------------------------------

constexpr int tile = 16;

struct matmul_data {
  int n;
  std::vector<float> a, b, c;
  explicit matmul_data(int size)
      : n(size),
        a(random_floats(std::size_t(size) * size)),
        b(random_floats(std::size_t(size) * size)),
        c(std::size_t(size) * size, 0.0f) {}
};

void set_flops(benchmark::State& state, int n) {
  state.counters["GFLOPS"] = benchmark::Counter(
      2.0 * n * n * double(n) * double(state.iterations()) * 1e-9, benchmark::Counter::kIsRate);
}

void BM_matmul_tiled_amp(benchmark::State& state) {
  matmul_data d(int(state.range(0)));
  hx::array_view<const float, 2> a(d.n, d.n, d.a), b(d.n, d.n, d.b);
  hx::array_view<float, 2> c(d.n, d.n, d.c);
  const int inner = d.n;
  for (auto _ : state) {
    hx::parallel_for_each(cpu_view(), c.extent.tile<tile, tile>(),
                          [=](hx::tiled_index<tile, tile> t) {
                            const int row = t.local[0];
                            const int col = t.local[1];
                            float sum = 0.0f;
                            for (int i = 0; i < inner; i += tile) {
                              HIPAMP_TILE_STATIC float block_a[tile][tile];
                              HIPAMP_TILE_STATIC float block_b[tile][tile];
                              block_a[row][col] = a(t.global[0], col + i);
                              block_b[row][col] = b(row + i, t.global[1]);
                              t.barrier.wait();
                              for (int k = 0; k < tile; ++k)
                                sum += block_a[row][k] * block_b[k][col];
                              t.barrier.wait();
                            }
                            c[t.global] = sum;
                          });
  }
  c.synchronize();
  set_flops(state, d.n);
}

void BM_matmul_simple(benchmark::State& state) {
  matmul_data d(int(state.range(0)));
  hx::array_view<const float, 2> a(d.n, d.n, d.a), b(d.n, d.n, d.b);
  hx::array_view<float, 2> c(d.n, d.n, d.c);
  const int inner = d.n;
  for (auto _ : state) {
    hx::parallel_for_each(cpu_view(), c.extent, [=](hx::index<2> idx) {
      float sum = 0.0f;
      for (int k = 0; k < inner; ++k) sum += a(idx[0], k) * b(k, idx[1]);
      c[idx] = sum;
    });
  }
  c.synchronize();
  set_flops(state, d.n);
}

void BM_matmul_hierarchical(benchmark::State& state) {
  matmul_data d(int(state.range(0)));
  hx::array_view<const float, 2> a(d.n, d.n, d.a), b(d.n, d.n, d.b);
  hx::array_view<float, 2> c(d.n, d.n, d.c);
  const int inner = d.n;
  for (auto _ : state) {
    hx::parallel_for_each_tile(
        cpu_view(), c.extent.tile<tile, tile>(), [=](const hx::tile_context<tile, tile>& t) {
          HIPAMP_TILE_STATIC float block_a[tile][tile];
          HIPAMP_TILE_STATIC float block_b[tile][tile];
          HIPAMP_TILE_STATIC float sum[tile][tile];
          t.for_each_item(
              [&](const hx::tile_item<2>& it) { sum[it.local[0]][it.local[1]] = 0.0f; });
          for (int i = 0; i < inner; i += tile) {
            t.for_each_item([&](const hx::tile_item<2>& it) {
              block_a[it.local[0]][it.local[1]] = a(it.global[0], it.local[1] + i);
              block_b[it.local[0]][it.local[1]] = b(it.local[0] + i, it.global[1]);
            });
            t.for_each_item([&](const hx::tile_item<2>& it) {
              float s = sum[it.local[0]][it.local[1]];
              for (int k = 0; k < tile; ++k) s += block_a[it.local[0]][k] * block_b[k][it.local[1]];
              sum[it.local[0]][it.local[1]] = s;
            });
          }
          t.for_each_item(
              [&](const hx::tile_item<2>& it) { c[it.global] = sum[it.local[0]][it.local[1]]; });
        });
  }
  c.synchronize();
  set_flops(state, d.n);
}

// The same, reading A and B through the views' raw pointers (unchecked_data() of a captured
// view is the target's memory inside a kernel, on every device). Shows what array_view's
// per-access host-coherence check costs in a loop the compiler would otherwise vectorize.
void BM_matmul_hierarchical_raw(benchmark::State& state) {
  matmul_data d(int(state.range(0)));
  hx::array_view<const float, 2> a(d.n, d.n, d.a), b(d.n, d.n, d.b);
  hx::array_view<float, 2> c(d.n, d.n, d.c);
  const int inner = d.n;
  for (auto _ : state) {
    hx::parallel_for_each_tile(
        cpu_view(), c.extent.tile<tile, tile>(), [=](const hx::tile_context<tile, tile>& t) {
          HIPAMP_TILE_STATIC float block_a[tile][tile];
          HIPAMP_TILE_STATIC float block_b[tile][tile];
          HIPAMP_TILE_STATIC float sum[tile][tile];
          const float* pa = a.unchecked_data();
          const float* pb = b.unchecked_data();
          const std::ptrdiff_t sa = a.stride(0), sb = b.stride(0);
          t.for_each_item(
              [&](const hx::tile_item<2>& it) { sum[it.local[0]][it.local[1]] = 0.0f; });
          for (int i = 0; i < inner; i += tile) {
            t.for_each_item([&](const hx::tile_item<2>& it) {
              block_a[it.local[0]][it.local[1]] = pa[it.global[0] * sa + it.local[1] + i];
              block_b[it.local[0]][it.local[1]] = pb[(it.local[0] + i) * sb + it.global[1]];
            });
            t.for_each_item([&](const hx::tile_item<2>& it) {
              float s = sum[it.local[0]][it.local[1]];
              for (int k = 0; k < tile; ++k) s += block_a[it.local[0]][k] * block_b[k][it.local[1]];
              sum[it.local[0]][it.local[1]] = s;
            });
          }
          t.for_each_item(
              [&](const hx::tile_item<2>& it) { c[it.global] = sum[it.local[0]][it.local[1]]; });
        });
  }
  c.synchronize();
  set_flops(state, d.n);
}

// The simple model's peer: the plain loop nest, rows over threads, columns as SIMD lanes.
void BM_matmul_omp_simple(benchmark::State& state) {
  matmul_data d(int(state.range(0)));
  const int n = d.n;
  const float* a = d.a.data();
  const float* b = d.b.data();
  float* c = d.c.data();
  for (auto _ : state) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i) {
#pragma omp simd
      for (int j = 0; j < n; ++j) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
        c[i * n + j] = sum;
      }
    }
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}

// The hierarchical API's peer: the same 16x16 blocking, written by hand.
void BM_matmul_omp_blocked(benchmark::State& state) {
  matmul_data d(int(state.range(0)));
  const int n = d.n;
  const float* a = d.a.data();
  const float* b = d.b.data();
  float* c = d.c.data();
  const int tiles = (n / tile) * (n / tile);
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (int t = 0; t < tiles; ++t) {
      const int r0 = (t / (n / tile)) * tile, c0 = (t % (n / tile)) * tile;
      float block_a[tile][tile], block_b[tile][tile], sum[tile][tile] = {};
      for (int i = 0; i < n; i += tile) {
        for (int r = 0; r < tile; ++r) {
#pragma omp simd
          for (int q = 0; q < tile; ++q) {
            block_a[r][q] = a[(r0 + r) * n + i + q];
            block_b[r][q] = b[(i + r) * n + c0 + q];
          }
        }
        for (int r = 0; r < tile; ++r) {
#pragma omp simd
          for (int q = 0; q < tile; ++q) {
            float s = sum[r][q];
            for (int k = 0; k < tile; ++k) s += block_a[r][k] * block_b[k][q];
            sum[r][q] = s;
          }
        }
      }
      for (int r = 0; r < tile; ++r) {
#pragma omp simd
        for (int q = 0; q < tile; ++q) c[(r0 + r) * n + c0 + q] = sum[r][q];
      }
    }
    benchmark::ClobberMemory();
  }
  set_flops(state, n);
}

BENCHMARK(BM_matmul_tiled_amp)->Arg(512)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_matmul_simple)->Arg(512)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_matmul_omp_simple)->Arg(512)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_matmul_hierarchical)->Arg(512)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_matmul_hierarchical_raw)->Arg(512)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_matmul_omp_blocked)->Arg(512)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
