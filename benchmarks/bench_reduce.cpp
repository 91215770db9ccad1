// Reductions and scans against their peers, measured alternately in the same benchmark:
// - CPU device: hipamp::reduce vs an OpenMP `parallel for simd reduction(+)` loop (int32,
//   float); hipamp::inclusive_scan vs std::inclusive_scan (one thread, for scale).
// - GPU (when one is present and this file is compiled as CUDA): hipamp::reduce_into and
//   hipamp::inclusive_scan vs cub::DeviceReduce::Sum / cub::DeviceScan::InclusiveSum, int32
//   and float, 2^16 .. 2^28 elements, timed with device events after a warm-up.
// Counters: each side's median time, and `vs_<peer>` = peer time / hipamp time (above 1:
// hipamp is faster). GPU figures come twice: `pipelined` (16 calls back to back between two
// events, host overhead hidden behind the GPU as in a real pipeline; the headline ratio) and
// `single` (one call between events on an idle GPU: launch latency included).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <hipamp/hipamp.hpp>

#include "common/gpu_timing.hpp"
#include "common/host.hpp"
#if HIPAMP_BENCH_CUDA  // the GPU peers are CUB's
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#endif

namespace {

namespace hx = hipamp;
using namespace bench;

template <class T>
std::vector<T> random_data(std::size_t n) {
  std::mt19937 rng(12345);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point<T>::value) {
    std::uniform_real_distribution<T> dist(-1, 1);
    for (T& x : v) x = dist(rng);
  } else {
    std::uniform_int_distribution<T> dist(-1000, 1000);
    for (T& x : v) x = dist(rng);
  }
  return v;
}

double seconds(clock_type::duration d) { return std::chrono::duration<double>(d).count(); }

template <class T>
bool same_result(T a, T b, std::size_t n) {
  if constexpr (std::is_floating_point<T>::value) {
    // Both are within O(log n) eps of the exact sum of n values of magnitude <= 1.
    return std::fabs(static_cast<double>(a) - static_cast<double>(b)) <=
           1e-5 * static_cast<double>(n);
  } else {
    return a == b;
  }
}

// ---- CPU ------------------------------------------------------------------------------------

template <class T>
T openmp_sum(const T* data, std::size_t n) {
  T sum = 0;
#pragma omp parallel for simd reduction(+ : sum)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) sum += data[i];
  return sum;
}

template <class T>
void cpu_reduce_sum(benchmark::State& state) {
#ifndef _OPENMP
  state.SkipWithError("the OpenMP peer needs this file compiled with OpenMP");
  return;
#endif
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::vector<T> data = random_data<T>(n);
  const hx::accelerator_view cpu =
      hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  const hx::array_view<const T, 1> view(static_cast<int>(n), data.data());
  T ours = hx::reduce(cpu, view, T(0));
  T peer = openmp_sum(data.data(), n);
  if (!same_result(ours, peer, n)) {
    state.SkipWithError("hipamp and the OpenMP loop disagree");
    return;
  }
  std::vector<double> ours_s, peer_s;
  for (auto _ : state) {
    const auto t0 = clock_type::now();
    ours = hx::reduce(cpu, view, T(0));
    const auto t1 = clock_type::now();
    peer = openmp_sum(data.data(), n);
    const auto t2 = clock_type::now();
    benchmark::DoNotOptimize(ours);
    benchmark::DoNotOptimize(peer);
    ours_s.push_back(seconds(t1 - t0));
    peer_s.push_back(seconds(t2 - t1));
    state.SetIterationTime(seconds(t1 - t0));
  }
  const double h = median(ours_s), p = median(peer_s);
  state.counters["hipamp_us"] = h * 1e6;
  state.counters["openmp_us"] = p * 1e6;
  state.counters["vs_openmp"] = p / h;
  state.counters["hipamp_GBps"] = static_cast<double>(n * sizeof(T)) / h * 1e-9;
  state.counters["threads"] = hx::fallback::thread_count();
}

template <class T>
void cpu_inclusive_scan(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::vector<T> data = random_data<T>(n);
  std::vector<T> out(n), peer_out(n);
  const hx::accelerator_view cpu =
      hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  const hx::array_view<const T, 1> in_view(static_cast<int>(n), data.data());
  const hx::array_view<T, 1> out_view(static_cast<int>(n), out.data());
  std::vector<double> ours_s, peer_s;
  for (auto _ : state) {
    const auto t0 = clock_type::now();
    hx::inclusive_scan(cpu, in_view, out_view);
    const auto t1 = clock_type::now();
    std::inclusive_scan(data.begin(), data.end(), peer_out.begin());
    const auto t2 = clock_type::now();
    benchmark::ClobberMemory();
    ours_s.push_back(seconds(t1 - t0));
    peer_s.push_back(seconds(t2 - t1));
    state.SetIterationTime(seconds(t1 - t0));
  }
  out_view.synchronize();
  if (!std::is_floating_point<T>::value && out != peer_out) {
    state.SkipWithError("hipamp and std::inclusive_scan disagree");
    return;
  }
  const double h = median(ours_s), p = median(peer_s);
  state.counters["hipamp_us"] = h * 1e6;
  state.counters["std_serial_us"] = p * 1e6;
  state.counters["vs_std_serial"] = p / h;
  state.counters["hipamp_GBps"] = static_cast<double>(2 * n * sizeof(T)) / h * 1e-9;
}

// ---- GPU ------------------------------------------------------------------------------------

#if HIPAMP_BENCH_CUDA

// A failed runtime call skips the benchmark, naming the call (the others still run).
#define BENCH_GPU_CHECK_OR_SKIP(call)                                                           \
  do {                                                                                          \
    const vendor::error_t status_ = (call);                                                     \
    if (status_ != vendor::success) {                                                           \
      state.SkipWithError((std::string(#call) + ": " + vendor::error_string(status_)).c_str()); \
      return;                                                                                   \
    }                                                                                           \
  } while (0)

constexpr int pipelined_calls = 16;

// Times `ours` and `peer` alternately on `stream`: a pipelined batch and a single call each.
template <class Ours, class Peer>
void time_alternately(benchmark::State& state, vendor::stream_t stream, std::size_t bytes_moved,
                      const char* peer_name, Ours ours, Peer peer) {
  for (int w = 0; w < 3; ++w) {  // warm-up: scratch allocation, clocks, caches
    ours();
    peer();
  }
  (void)vendor::stream_synchronize(stream);
  event_timer e_ours(stream), e_peer(stream);
  std::vector<double> ours_batch, peer_batch, ours_single, peer_single;
  for (auto _ : state) {
    const double ours_t = e_ours.seconds_per_call(pipelined_calls, ours);
    const double peer_t = e_peer.seconds_per_call(pipelined_calls, peer);
    ours_single.push_back(e_ours.seconds_per_call(1, ours));
    peer_single.push_back(e_peer.seconds_per_call(1, peer));
    ours_batch.push_back(ours_t);
    peer_batch.push_back(peer_t);
    state.SetIterationTime(ours_t);
  }
  const double h = median(ours_batch), p = median(peer_batch);
  const double hs = median(ours_single), ps = median(peer_single);
  const std::string peer_label(peer_name);
  state.counters["hipamp_us"] = h * 1e6;
  state.counters[peer_label + "_us"] = p * 1e6;
  state.counters["vs_" + peer_label] = p / h;
  state.counters["hipamp_GBps"] = static_cast<double>(bytes_moved) / h * 1e-9;
  state.counters["single_hipamp_us"] = hs * 1e6;
  state.counters["single_" + peer_label + "_us"] = ps * 1e6;
  state.counters["single_vs_" + peer_label] = ps / hs;
}

template <class T>
void gpu_reduce_sum(benchmark::State& state, const hx::accelerator& gpu) {
  const std::size_t n = std::size_t{1} << state.range(0);
  const std::vector<T> data = random_data<T>(n);
  const hx::accelerator_view av = gpu.get_default_view();
  const auto stream = static_cast<vendor::stream_t>(av.native_handle());

  const hx::array<T, 1> input(hx::extent<1>(static_cast<int>(n)), data.begin(), data.end(), av);
  hx::array<T, 1> result(1, av);
  const hx::array_view<const T, 1> in_view(input);
  const hx::array_view<T, 1> result_view(result);

  device_buffer cub_in(n * sizeof(T)), cub_out(sizeof(T));
  BENCH_GPU_CHECK_OR_SKIP(
      vendor::copy(cub_in.as<T>(), data.data(), n * sizeof(T), vendor::host_to_device));
  std::size_t temp_bytes = 0;
  BENCH_GPU_CHECK_OR_SKIP(cub::DeviceReduce::Sum(nullptr, temp_bytes, cub_in.as<const T>(),
                                                 cub_out.as<T>(), static_cast<int>(n), stream));
  device_buffer temp(temp_bytes);

  const T ours_value = hx::reduce(av, in_view, T(0));
  BENCH_GPU_CHECK_OR_SKIP(cub::DeviceReduce::Sum(temp.as<void>(), temp_bytes, cub_in.as<const T>(),
                                                 cub_out.as<T>(), static_cast<int>(n), stream));
  T cub_value{};
  // CUB ran on the accelerator_view's stream, which does not synchronise with the legacy
  // default stream that cudaMemcpy uses: wait for it first.
  BENCH_GPU_CHECK_OR_SKIP(vendor::stream_synchronize(stream));
  BENCH_GPU_CHECK_OR_SKIP(
      vendor::copy(&cub_value, cub_out.as<T>(), sizeof(T), vendor::device_to_host));
  if (!same_result(ours_value, cub_value, n)) {
    state.SkipWithError("hipamp and CUB disagree");
    return;
  }
  time_alternately(
      state, stream, n * sizeof(T), "cub", [&] { hx::reduce_into(av, in_view, result_view, T(0)); },
      [&] {
        (void)cub::DeviceReduce::Sum(temp.as<void>(), temp_bytes, cub_in.as<const T>(),
                                     cub_out.as<T>(), static_cast<int>(n), stream);
      });
}

template <class T>
void gpu_inclusive_scan(benchmark::State& state, const hx::accelerator& gpu) {
  const std::size_t n = std::size_t{1} << state.range(0);
  const std::vector<T> data = random_data<T>(n);
  const hx::accelerator_view av = gpu.get_default_view();
  const auto stream = static_cast<vendor::stream_t>(av.native_handle());

  const hx::array<T, 1> input(hx::extent<1>(static_cast<int>(n)), data.begin(), data.end(), av);
  hx::array<T, 1> output(hx::extent<1>(static_cast<int>(n)), av);
  const hx::array_view<const T, 1> in_view(input);
  const hx::array_view<T, 1> out_view(output);

  device_buffer cub_in(n * sizeof(T)), cub_out(n * sizeof(T));
  BENCH_GPU_CHECK_OR_SKIP(
      vendor::copy(cub_in.as<T>(), data.data(), n * sizeof(T), vendor::host_to_device));
  std::size_t temp_bytes = 0;
  BENCH_GPU_CHECK_OR_SKIP(cub::DeviceScan::InclusiveSum(
      nullptr, temp_bytes, cub_in.as<const T>(), cub_out.as<T>(), static_cast<int>(n), stream));
  device_buffer temp(temp_bytes);

  hx::inclusive_scan(av, in_view, out_view);
  BENCH_GPU_CHECK_OR_SKIP(cub::DeviceScan::InclusiveSum(temp.as<void>(), temp_bytes,
                                                        cub_in.as<const T>(), cub_out.as<T>(),
                                                        static_cast<int>(n), stream));
  std::vector<T> ours(n), theirs(n);
  hx::copy(output, ours.begin());
  BENCH_GPU_CHECK_OR_SKIP(vendor::stream_synchronize(stream));  // CUB's stream is non-blocking
  BENCH_GPU_CHECK_OR_SKIP(
      vendor::copy(theirs.data(), cub_out.as<T>(), n * sizeof(T), vendor::device_to_host));
  for (std::size_t i = 0; i < n; i += 1 + n / 4099) {
    if (!same_result(ours[i], theirs[i], i + 1)) {
      state.SkipWithError(("hipamp and CUB disagree at " + std::to_string(i)).c_str());
      return;
    }
  }
  time_alternately(
      state, stream, 2 * n * sizeof(T), "cub", [&] { hx::inclusive_scan(av, in_view, out_view); },
      [&] {
        (void)cub::DeviceScan::InclusiveSum(temp.as<void>(), temp_bytes, cub_in.as<const T>(),
                                            cub_out.as<T>(), static_cast<int>(n), stream);
      });
}

// The scan kernel under one tuning (scan_policy), on plain device buffers, vs CUB: the
// sweep behind default_scan_policy. Run with --benchmark_filter=gpu/scan_policy.
template <class Policy>
void gpu_scan_policy(benchmark::State& state, const hx::accelerator& gpu) {
  using T = std::int32_t;
  const std::size_t n = std::size_t{1} << state.range(0);
  const std::vector<T> data = random_data<T>(n);
  const hx::accelerator_view av = gpu.get_default_view();
  const auto stream = static_cast<vendor::stream_t>(av.native_handle());
  device_buffer in(n * sizeof(T)), ours_out(n * sizeof(T)), cub_out(n * sizeof(T));
  BENCH_GPU_CHECK_OR_SKIP(
      vendor::copy(in.as<T>(), data.data(), n * sizeof(T), vendor::host_to_device));
  std::size_t temp_bytes = 0;
  BENCH_GPU_CHECK_OR_SKIP(cub::DeviceScan::InclusiveSum(
      nullptr, temp_bytes, in.as<const T>(), cub_out.as<T>(), static_cast<int>(n), stream));
  device_buffer temp(temp_bytes);
  const auto ours = [&] {
    hx::detail::gpu::scan_detail::launch<Policy, false>(av, in.as<const T>(), ours_out.as<T>(), n,
                                                        T{}, hx::plus<T>{});
  };
  const auto cub = [&] {
    (void)cub::DeviceScan::InclusiveSum(temp.as<void>(), temp_bytes, in.as<const T>(),
                                        cub_out.as<T>(), static_cast<int>(n), stream);
  };
  ours();
  cub();
  BENCH_GPU_CHECK_OR_SKIP(vendor::stream_synchronize(stream));
  std::vector<T> got(n), want(n);
  BENCH_GPU_CHECK_OR_SKIP(
      vendor::copy(got.data(), ours_out.as<T>(), n * sizeof(T), vendor::device_to_host));
  BENCH_GPU_CHECK_OR_SKIP(
      vendor::copy(want.data(), cub_out.as<T>(), n * sizeof(T), vendor::device_to_host));
  if (got != want) {
    state.SkipWithError("this scan policy and CUB disagree");
    return;
  }
  time_alternately(state, stream, 2 * n * sizeof(T), "cub", ours, cub);
}

template <class Policy>
benchmark::internal::Benchmark* policy_benchmark(const char* name, const hx::accelerator& gpu) {
  return benchmark::RegisterBenchmark(("gpu/scan_policy/" + std::string(name)).c_str(),
                                      gpu_scan_policy<Policy>, gpu);
}

#endif  // HIPAMP_BENCH_CUDA

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);

  for (auto* b :
       {benchmark::RegisterBenchmark("cpu/reduce_sum/int32", cpu_reduce_sum<std::int32_t>),
        benchmark::RegisterBenchmark("cpu/reduce_sum/float", cpu_reduce_sum<float>),
        benchmark::RegisterBenchmark("cpu/inclusive_scan/int32", cpu_inclusive_scan<std::int32_t>),
        benchmark::RegisterBenchmark("cpu/inclusive_scan/float", cpu_inclusive_scan<float>)}) {
    b->RangeMultiplier(16)
        ->Range(1 << 16, 1 << 24)
        ->Arg(1 << 26)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }

#if HIPAMP_BENCH_CUDA
  for (const hx::accelerator& acc : gpu_accelerators()) {
    for (auto* b :
         {benchmark::RegisterBenchmark("gpu/reduce_sum/int32", gpu_reduce_sum<std::int32_t>, acc),
          benchmark::RegisterBenchmark("gpu/reduce_sum/float", gpu_reduce_sum<float>, acc),
          benchmark::RegisterBenchmark("gpu/inclusive_scan/int32", gpu_inclusive_scan<std::int32_t>,
                                       acc),
          benchmark::RegisterBenchmark("gpu/inclusive_scan/float", gpu_inclusive_scan<float>,
                                       acc)}) {
      b->DenseRange(16, 28, 2)->ArgName("log2n")->UseManualTime()->Unit(benchmark::kMicrosecond);
    }
    {
      using hx::detail::gpu::scan_policy;
      using hx::detail::gpu::tile_order;
      constexpr tile_order ticket = tile_order::ticket;
      constexpr tile_order speculative = tile_order::speculative_ticket;
      // Measured on an H200 at 2^28 (ratio to CUB): ticket 0.71, speculative 0.74, 512
      // threads 0.74, busy polling 0.73 (benchmarks/results/h200_sweeps_2026-11-21.txt). CUB's
      // sm_90 tuning for 4-byte sums is 128x24 with 8 blocks per SM, sleeping 1245 ns after
      // publishing and 648 ns between polls. On an H100, 256x32 with those delays (the
      // default) measured 0.98; the whole sweep is in h100_sweeps_2026-11-21.txt.
      constexpr int cub_wait = 1245;
      constexpr int cub_poll = 648;
      for (auto* b : {
               policy_benchmark<scan_policy<256, 16, 4, ticket, 0, 32>>("256x16/ticket", acc),
               policy_benchmark<scan_policy<256, 16, 4, speculative, 0, 32>>("256x16/spec", acc),
               policy_benchmark<scan_policy<256, 16, 4, speculative, cub_wait, cub_poll>>(
                   "256x16/spec/cub_delays", acc),
               policy_benchmark<scan_policy<128, 24, 8, speculative, cub_wait, cub_poll>>(
                   "128x24x8/spec/cub_delays", acc),
               policy_benchmark<scan_policy<256, 32, 4, speculative, cub_wait, cub_poll>>(
                   "256x32x4/spec/cub_delays", acc),
               policy_benchmark<scan_policy<256, 32, 4, speculative, 600, cub_poll>>(
                   "256x32x4/spec/wait600", acc),
               policy_benchmark<scan_policy<256, 32, 4, speculative, cub_wait, 200>>(
                   "256x32x4/spec/poll200", acc),
               policy_benchmark<scan_policy<256, 40, 4, speculative, cub_wait, cub_poll>>(
                   "256x40x4/spec/cub_delays", acc),
               policy_benchmark<scan_policy<192, 32, 5, speculative, cub_wait, cub_poll>>(
                   "192x32x5/spec/cub_delays", acc),
           }) {
        b->Arg(22)->Arg(24)->Arg(28)->ArgName("log2n")->UseManualTime()->Unit(
            benchmark::kMicrosecond);
      }
    }
    break;  // the first (best) GPU
  }
#endif

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
