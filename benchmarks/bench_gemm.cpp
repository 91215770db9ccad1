// Matrix multiply (issue 5). Every figure is a ratio to its peer measured in the same run:
//   cpu_gemm/<n>        hipamp::matmul on the CPU device vs Eigen's product (Eigen::Map over
//                       the same buffers, built for this CPU, OpenMP threads); n^3, float and
//                       double.
//   cpu_gemm_kernels    each CPU micro-kernel (portable / AVX2 / AVX-512) at 2048^3 float.
//   gpu_sgemm/<n>       (CUDA builds) hipamp::gemm through the public API and each compiled
//                       tile configuration vs cublasSgemm, default and pedantic math (neither
//                       uses TF32), on the same device memory and stream, 1024..8192.
//   gpu_seed_tiled/<n>  (CUDA builds with the tiled model) the seed's 16x16 tile_static kernel
//                       through parallel_for_each vs the identical kernel written in CUDA.
// CPU times are wall-clock medians; GPU times are device-event medians over batches, after a
// warm-up. Ratios are peer time / hipamp time (above 1: hipamp is faster).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <hipamp/fallback/gemm.hpp>
#include <hipamp/hipamp.hpp>

#if __has_include(<hipamp/tiled_parallel_for_each.hpp>)
#include <hipamp/tiled_parallel_for_each.hpp>
#define HIPAMP_BENCH_HAS_TILED 1
#else
#define HIPAMP_BENCH_HAS_TILED 0
#endif

#if defined(HIPAMP_BENCH_HAVE_EIGEN) && HIPAMP_BENCH_HAVE_EIGEN
#include "gemm_eigen_peer.hpp"
#define HIPAMP_BENCH_EIGEN 1
#else
#define HIPAMP_BENCH_EIGEN 0
#endif

#include "common/gpu_timing.hpp"
#include "common/host.hpp"
#if HIPAMP_BENCH_CUDA
#include <cublas_v2.h>

#include <hipamp/backend/gpu/gemm.hpp>
#endif

namespace hx = hipamp;

namespace {

using namespace bench;

template <class T>
std::vector<T> random_matrix(std::size_t elements, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<T> dist(T(-1), T(1));
  std::vector<T> v(elements);
  for (T& x : v) x = dist(rng);
  return v;
}

// ---- CPU -------------------------------------------------------------------------------

template <class T>
void cpu_gemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::size_t elements = static_cast<std::size_t>(n) * n;
  const std::vector<T> a = random_matrix<T>(elements, 1);
  const std::vector<T> b = random_matrix<T>(elements, 2);
  std::vector<T> c(elements);
  const hx::accelerator_view cpu =
      hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  const hx::array_view<const T, 2> av_a(n, n, a);
  const hx::array_view<const T, 2> av_b(n, n, b);
  const hx::array_view<T, 2> av_c(n, n, c);
  const auto run_hipamp = [&] {
    hx::matmul(cpu, av_a, av_b, av_c);
    av_c.synchronize();
  };
#if HIPAMP_BENCH_EIGEN
  std::vector<T> c_eigen(elements);
  const auto run_eigen = [&] {
    gemm_peer::eigen_gemm(a.data(), b.data(), c_eigen.data(), n, n, n);
  };
  run_eigen();
#endif
  run_hipamp();  // warm-up: packing buffers, thread pool

  std::vector<double> hipamp_times;
  std::vector<double> eigen_times;
  for (auto _ : state) {
    const double t = seconds_of(run_hipamp);
    hipamp_times.push_back(t);
    state.SetIterationTime(t);
#if HIPAMP_BENCH_EIGEN
    eigen_times.push_back(seconds_of(run_eigen));
#endif
  }
  const double flops = 2.0 * n * double(n) * n;
  const double hipamp_s = median(hipamp_times);
  state.counters["hipamp_GFLOPS"] = flops / hipamp_s * 1e-9;
  state.counters["threads"] = hx::fallback::thread_count();
#if HIPAMP_BENCH_EIGEN
  const double eigen_s = median(eigen_times);
  state.counters["eigen_GFLOPS"] = flops / eigen_s * 1e-9;
  state.counters["ratio_vs_eigen"] = eigen_s / hipamp_s;
  state.counters["eigen_threads"] = gemm_peer::eigen_threads();
  double worst = 0;
  for (std::size_t i = 0; i < elements; ++i) {
    worst = std::max(worst, static_cast<double>(std::abs(c[i] - c_eigen[i])));
  }
  state.counters["max_abs_diff_vs_eigen"] = worst;
  state.SetLabel(std::string("hipamp ") + hx::fallback::to_string(hx::fallback::gemm_best_isa()) +
                 ", Eigen " + gemm_peer::eigen_simd());
#else
  state.SetLabel(std::string("hipamp ") + hx::fallback::to_string(hx::fallback::gemm_best_isa()) +
                 " (no Eigen peer in this build)");
#endif
}
BENCHMARK_TEMPLATE(cpu_gemm, float)
    ->Arg(1024)
    ->Arg(2048)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(cpu_gemm, double)->Arg(2048)->UseManualTime()->Unit(benchmark::kMillisecond);

// Each compiled CPU micro-kernel this machine runs, on the same 2048^3 float problem; the
// counters name them, the ratio is to the one the library picks.
void cpu_gemm_kernels(benchmark::State& state) {
  using hx::fallback::gemm_isa;
  const int n = 2048;
  const std::size_t elements = static_cast<std::size_t>(n) * n;
  const std::vector<float> a = random_matrix<float>(elements, 3);
  const std::vector<float> b = random_matrix<float>(elements, 4);
  std::vector<float> c(elements);
  hx::detail::gemm_problem<float> p;
  p.m = p.n = p.k = n;
  p.a = a.data();
  p.b = b.data();
  p.c = c.data();
  p.lda = p.ldb = p.ldc = n;
  std::vector<gemm_isa> isas;
  for (gemm_isa isa : {gemm_isa::portable, gemm_isa::avx2, gemm_isa::avx512}) {
    if (hx::fallback::gemm_isa_available(isa)) isas.push_back(isa);
  }
  std::vector<std::vector<double>> times(isas.size());
  for (gemm_isa isa : isas) hx::fallback::gemm_cpu(p, isa);
  for (auto _ : state) {
    double best_isa_time = 0;
    for (std::size_t i = 0; i < isas.size(); ++i) {
      const double t = seconds_of([&] { hx::fallback::gemm_cpu(p, isas[i]); });
      times[i].push_back(t);
      if (isas[i] == hx::fallback::gemm_best_isa()) best_isa_time = t;
    }
    state.SetIterationTime(best_isa_time);
  }
  const double flops = 2.0 * n * double(n) * n;
  for (std::size_t i = 0; i < isas.size(); ++i) {
    state.counters[std::string(hx::fallback::to_string(isas[i])) + "_GFLOPS"] =
        flops / median(times[i]) * 1e-9;
  }
  state.SetLabel(std::string("library picks ") +
                 hx::fallback::to_string(hx::fallback::gemm_best_isa()));
}
BENCHMARK(cpu_gemm_kernels)->UseManualTime()->Unit(benchmark::kMillisecond);

// ---- GPU (CUDA builds) ----------------------------------------------------------------------
#if HIPAMP_BENCH_CUDA

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
  }
}

// A batch of calls long enough (about 20 ms of device time) for event resolution to vanish.
int batch_for(double flops, double expected_flops_per_s = 40e12) {
  const double seconds_per_call = flops / expected_flops_per_s;
  return std::max(1, static_cast<int>(0.02 / seconds_per_call));
}

void gpu_sgemm(benchmark::State& state) {
  const std::optional<hx::accelerator> found = first_gpu();
  if (!found) {
    state.SkipWithError("no GPU accelerator");
    return;
  }
  const hx::accelerator& gpu = *found;
  const int n = static_cast<int>(state.range(0));
  const std::size_t elements = static_cast<std::size_t>(n) * n;
  const hx::accelerator_view av = gpu.get_default_view();
  const auto stream = static_cast<vendor::stream_t>(av.native_handle());
  const int device = gpu.device().properties().ordinal;
  const std::vector<float> host_a = random_matrix<float>(elements, 5);
  const std::vector<float> host_b = random_matrix<float>(elements, 6);
  hx::array<float, 2> a(hx::extent<2>(n, n), host_a.begin(), host_a.end(), av);
  hx::array<float, 2> b(hx::extent<2>(n, n), host_b.begin(), host_b.end(), av);
  hx::array<float, 2> c(n, n, av);
  hx::array<float, 2> c_peer(n, n, av);
  const hx::array_view<const float, 2> view_a(a);
  const hx::array_view<const float, 2> view_b(b);
  const hx::array_view<float, 2> view_c(c);

  // Device pointers for the peers and the per-configuration runs, the way library code gets
  // them: a launch scope binds copies of the views to the GPU's memory.
  hx::detail::launch_scope scope(av.queue());
  const hx::array_view<const float, 2> bound_a = view_a;
  const hx::array_view<const float, 2> bound_b = view_b;
  const hx::array_view<float, 2> bound_c = view_c;
  const hx::array_view<float, 2> bound_peer = hx::array_view<float, 2>(c_peer);
  scope.close();
  // Complete the scope at once: the peers' raw-pointer work is not tracked by hipamp, and a
  // scope left open would keep hipamp's own calls below waiting on it.
  scope.complete(av.queue().record());
  const float* d_a = bound_a.unchecked_data();
  const float* d_b = bound_b.unchecked_data();
  float* d_c = bound_c.unchecked_data();
  float* d_peer = bound_peer.unchecked_data();

  cublasHandle_t handle = nullptr;
  check_cublas(cublasCreate(&handle), "cublasCreate");
  check_cublas(cublasSetStream(handle, stream), "cublasSetStream");
  const float one = 1.0f;
  const float zero = 0.0f;
  // Sets the math mode, then returns the call. Row-major C = A * B is column-major
  // C^T = B^T * A^T.
  const auto run_cublas = [&](cublasMath_t mode) {
    check_cublas(cublasSetMathMode(handle, mode), "cublasSetMathMode");
    return [&] {
      check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, d_b, n, d_a, n,
                               &zero, d_peer, n),
                   "cublasSgemm");
    };
  };
  const auto run_hipamp = [&] {
    hx::gemm(av, hx::matrix_op::none, hx::matrix_op::none, 1.0f, view_a, view_b, 0.0f, view_c);
  };
  hx::detail::gemm_problem<float> problem;
  problem.m = problem.n = problem.k = n;
  problem.a = d_a;
  problem.b = d_b;
  problem.c = d_c;
  problem.lda = problem.ldb = problem.ldc = n;
  const auto& configs = hx::detail::gpu::gemm_configs_float();

  const double flops = 2.0 * n * double(n) * n;
  const int batch = batch_for(flops);
  event_timer timer(stream);
  // Warm-up: every variant once.
  run_hipamp();
  run_cublas(CUBLAS_DEFAULT_MATH)();
  run_cublas(CUBLAS_PEDANTIC_MATH)();
  for (std::size_t i = 0; i < configs.size(); ++i) {
    hx::detail::gpu::gemm_launch(problem, stream, device, static_cast<int>(i));
  }
  vendor::check(vendor::stream_synchronize(stream), "warm-up");

  std::vector<double> t_hipamp, t_default, t_pedantic;
  std::vector<std::vector<double>> t_config(configs.size());
  for (auto _ : state) {
    const double t = timer.seconds_per_call(batch, run_hipamp);
    t_hipamp.push_back(t);
    state.SetIterationTime(t);
    t_default.push_back(timer.seconds_per_call(batch, run_cublas(CUBLAS_DEFAULT_MATH)));
    t_pedantic.push_back(timer.seconds_per_call(batch, run_cublas(CUBLAS_PEDANTIC_MATH)));
    for (std::size_t i = 0; i < configs.size(); ++i) {
      t_config[i].push_back(timer.seconds_per_call(batch, [&] {
        hx::detail::gpu::gemm_launch(problem, stream, device, static_cast<int>(i));
      }));
    }
  }
  // Same answer as cuBLAS (default math) within the FP32 bound for sums of n terms in [-1, 1].
  run_hipamp();
  run_cublas(CUBLAS_DEFAULT_MATH)();
  vendor::check(vendor::stream_synchronize(stream), "verification");
  std::vector<float> got(elements), want(elements);
  hx::copy(c, got.begin());
  hx::copy(c_peer, want.begin());
  double worst = 0;
  for (std::size_t i = 0; i < elements; ++i) {
    worst = std::max(worst, static_cast<double>(std::abs(got[i] - want[i])));
  }
  cublasDestroy(handle);
  const double bound = 2.0 * (n + 4) * 1.1920929e-7 * n;  // |sum| <= n, both within n eps
  if (!(worst <= bound)) {
    state.SkipWithError(
        ("hipamp and cuBLAS disagree: max |diff| " + std::to_string(worst)).c_str());
    return;
  }

  const double hipamp_s = median(t_hipamp);
  const double default_s = median(t_default);
  const double pedantic_s = median(t_pedantic);
  state.counters["hipamp_TFLOPS"] = flops / hipamp_s * 1e-12;
  state.counters["cublas_TFLOPS"] = flops / default_s * 1e-12;
  state.counters["cublas_pedantic_TFLOPS"] = flops / pedantic_s * 1e-12;
  state.counters["ratio_vs_cublas"] = default_s / hipamp_s;
  state.counters["ratio_vs_cublas_pedantic"] = pedantic_s / hipamp_s;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    state.counters["cfg_" + configs[i].name + "_vs_cublas"] = default_s / median(t_config[i]);
  }
  state.counters["max_abs_diff_vs_cublas"] = worst;
  state.SetLabel("picked " + configs[hx::detail::gpu::gemm_pick_config(problem, device)].name);
}
// A fixed number of iterations: each one times every variant over a batch of calls and reports
// the per-call time, so letting Google Benchmark aim for a minimum time would run for minutes.
BENCHMARK(gpu_sgemm)
    ->Arg(1024)
    ->Arg(2048)
    ->Arg(4096)
    ->Arg(8192)
    ->Iterations(7)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

#if HIPAMP_BENCH_HAS_TILED
constexpr int seed_tile = 16;

// The seed's tiled multiply as a CUDA programmer writes it: one thread per element of C,
// dimension 0 (rows) on y and dimension 1 (columns) on x, as hipamp maps tiled_index<16, 16>.
__global__ void seed_tiled_cuda(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float sa[seed_tile][seed_tile];
  __shared__ float sb[seed_tile][seed_tile];
  const int row = threadIdx.y;
  const int col = threadIdx.x;
  const int global_row = blockIdx.y * seed_tile + row;
  const int global_col = blockIdx.x * seed_tile + col;
  float sum = 0;
  for (int i = 0; i < k; i += seed_tile) {
    sa[row][col] = a[global_row * k + col + i];
    sb[row][col] = b[(row + i) * n + global_col];
    __syncthreads();
    for (int j = 0; j < seed_tile; ++j) sum += sa[row][j] * sb[j][col];
    __syncthreads();
  }
  c[global_row * n + global_col] = sum;
}

// The same kernel through hipamp's public API, as in examples/matrix_multiply.cpp.
void seed_tiled_hipamp(const hx::accelerator_view& av, const hx::array_view<const float, 2>& a,
                       const hx::array_view<const float, 2>& b, const hx::array_view<float, 2>& c) {
  hx::parallel_for_each(av, c.extent.tile<seed_tile, seed_tile>(),
                        [=] HIPAMP_RESTRICT(hx::tiled_index<seed_tile, seed_tile> t) {
                          const int row = t.local[0];
                          const int col = t.local[1];
                          float sum = 0;
                          for (int i = 0; i < a.extent[1]; i += seed_tile) {
                            HIPAMP_TILE_STATIC float sa[seed_tile][seed_tile];
                            HIPAMP_TILE_STATIC float sb[seed_tile][seed_tile];
                            sa[row][col] = a(t.global[0], col + i);
                            sb[row][col] = b(row + i, t.global[1]);
                            t.barrier.wait();
                            for (int j = 0; j < seed_tile; ++j) sum += sa[row][j] * sb[j][col];
                            t.barrier.wait();
                          }
                          c[t.global] = sum;
                        });
}

void gpu_seed_tiled(benchmark::State& state) {
  const std::optional<hx::accelerator> found = first_gpu();
  if (!found) {
    state.SkipWithError("no GPU accelerator");
    return;
  }
  const hx::accelerator& gpu = *found;
  const int n = static_cast<int>(state.range(0));
  const std::size_t elements = static_cast<std::size_t>(n) * n;
  const hx::accelerator_view av = gpu.get_default_view();
  const auto stream = static_cast<vendor::stream_t>(av.native_handle());
  const std::vector<float> host_a = random_matrix<float>(elements, 7);
  const std::vector<float> host_b = random_matrix<float>(elements, 8);
  hx::array<float, 2> a(hx::extent<2>(n, n), host_a.begin(), host_a.end(), av);
  hx::array<float, 2> b(hx::extent<2>(n, n), host_b.begin(), host_b.end(), av);
  hx::array<float, 2> c(n, n, av);
  hx::array<float, 2> c_cuda(n, n, av);
  const hx::array_view<const float, 2> view_a(a);
  const hx::array_view<const float, 2> view_b(b);
  const hx::array_view<float, 2> view_c(c);

  hx::detail::launch_scope scope(av.queue());
  const hx::array_view<const float, 2> bound_a = view_a;
  const hx::array_view<const float, 2> bound_b = view_b;
  const hx::array_view<float, 2> bound_cuda = hx::array_view<float, 2>(c_cuda);
  scope.close();
  const dim3 grid(n / seed_tile, n / seed_tile);
  const dim3 block(seed_tile, seed_tile);
  const auto run_cuda = [&] {
    seed_tiled_cuda<<<grid, block, 0, stream>>>(bound_a.unchecked_data(), bound_b.unchecked_data(),
                                                bound_cuda.unchecked_data(), n, n, n);
  };
  const auto run_hipamp = [&] { seed_tiled_hipamp(av, view_a, view_b, view_c); };

  const double flops = 2.0 * n * double(n) * n;
  const int batch = batch_for(flops, 5e12);
  event_timer timer(stream);
  run_hipamp();
  run_cuda();
  vendor::check(vendor::stream_synchronize(stream), "warm-up");
  std::vector<double> t_hipamp, t_cuda;
  for (auto _ : state) {
    const double t = timer.seconds_per_call(batch, run_hipamp);
    t_hipamp.push_back(t);
    state.SetIterationTime(t);
    t_cuda.push_back(timer.seconds_per_call(batch, run_cuda));
  }
  vendor::check(vendor::stream_synchronize(stream), "timing");
  scope.complete(av.queue().record());
  std::vector<float> got(elements), want(elements);
  hx::copy(c, got.begin());
  hx::copy(c_cuda, want.begin());
  // Identical arithmetic in identical order: the results must be bit-identical.
  std::size_t differing = 0;
  for (std::size_t i = 0; i < elements; ++i) differing += got[i] != want[i];
  state.counters["elements_differing"] = static_cast<double>(differing);
  state.counters["hipamp_TFLOPS"] = flops / median(t_hipamp) * 1e-12;
  state.counters["cuda_TFLOPS"] = flops / median(t_cuda) * 1e-12;
  state.counters["ratio_vs_cuda"] = median(t_cuda) / median(t_hipamp);
}
BENCHMARK(gpu_seed_tiled)->Arg(1024)->Arg(4096)->UseManualTime()->Unit(benchmark::kMillisecond);
#endif  // HIPAMP_BENCH_HAS_TILED
#endif  // HIPAMP_BENCH_CUDA

}  // namespace

BENCHMARK_MAIN();
