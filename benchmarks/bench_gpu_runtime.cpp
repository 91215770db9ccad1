// The GPU runtime against hand-written CUDA/HIP, measured side by side in one run:
//   launch:      an empty parallel_for_each vs a raw <<< >>> launch (host time per launch;
//                goal ratio <= 1.2)
//   copy_in:     1 GiB of pageable memory into a device through array_view vs cudaMemcpy from
//                pinned memory (goal >= 0.85 of its bandwidth); the driver's own pageable
//                cudaMemcpy is reported beside them
//   exp_add:     c = exp(a) + b through array_views vs a hand-written kernel on raw pointers
//                (goal >= 0.95 of its speed)
// Each benchmark interleaves the two sides and reports medians; the ratio is a counter.
// In builds without a GPU backend, or without a GPU, every case is skipped.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <hipamp/hipamp.hpp>

namespace hx = hipamp;

#if HIPAMP_GPU_TRANSLATION_UNIT

#if defined(__HIPCC__)
#define BENCH_GPU(name) hip##name
#else
#define BENCH_GPU(name) cuda##name
#endif

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::optional<hx::accelerator> first_gpu() {
  for (const hx::accelerator& acc : hx::accelerator::get_all()) {
    if (!acc.is_cpu()) return acc;
  }
  return std::nullopt;
}

std::string label(const hx::accelerator& acc) {
  std::string s;
  for (wchar_t c : acc.get_description()) s += static_cast<char>(c);
  return s;
}

void check(BENCH_GPU(Error_t) e, const char* what) {
  if (e != BENCH_GPU(Success)) {
    throw std::runtime_error(std::string(what) + ": " + BENCH_GPU(GetErrorString)(e));
  }
}

__global__ void empty_kernel(unsigned n) {
  if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;
}

__global__ void exp_add_kernel(const float* a, const float* b, float* c, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) c[i] = std::exp(a[i]) + b[i];
}

struct device_buffer {
  void* ptr = nullptr;
  explicit device_buffer(std::size_t bytes) { check(BENCH_GPU(Malloc)(&ptr, bytes), "malloc"); }
  ~device_buffer() { (void)BENCH_GPU(Free)(ptr); }
};

struct pinned_buffer {
  void* ptr = nullptr;
  explicit pinned_buffer(std::size_t bytes) {
#if defined(__HIPCC__)
    check(hipHostMalloc(&ptr, bytes, hipHostMallocDefault), "hipHostMalloc");
#else
    check(cudaMallocHost(&ptr, bytes), "cudaMallocHost");
#endif
  }
  ~pinned_buffer() {
#if defined(__HIPCC__)
    (void)hipHostFree(ptr);
#else
    (void)cudaFreeHost(ptr);
#endif
  }
};

void BM_launch_empty(benchmark::State& state) {
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<BENCH_GPU(Stream_t)>(av.native_handle());
  constexpr int batch = 200;  // few enough that the launch queue never fills
  constexpr int rounds = 60;
  const hx::extent<1> domain(256);
  auto pfe_batch = [&] {
    const auto start = clock_type::now();
    for (int k = 0; k < batch; ++k) {
      hx::parallel_for_each(av, domain, [=] HIPAMP_RESTRICT(hx::index<1>) {});
    }
    const double s = seconds_since(start);
    av.wait();
    return s / batch;
  };
  auto raw_batch = [&] {
    const auto start = clock_type::now();
    for (int k = 0; k < batch; ++k) empty_kernel<<<1, 256, 0, stream>>>(256u);
    const double s = seconds_since(start);
    check(BENCH_GPU(StreamSynchronize)(stream), "sync");
    return s / batch;
  };
  for (int w = 0; w < 5; ++w) {
    pfe_batch();
    raw_batch();
  }
  std::vector<double> pfe, raw;
  for (auto _ : state) {
    for (int r = 0; r < rounds; ++r) {
      pfe.push_back(pfe_batch());
      raw.push_back(raw_batch());
    }
    state.SetIterationTime(median(pfe));
  }
  const double p = median(pfe), q = median(raw);
  state.counters["pfe_us"] = p * 1e6;
  state.counters["raw_us"] = q * 1e6;
  state.counters["ratio"] = p / q;  // goal <= 1.2
  state.SetLabel(label(*gpu));
}

void BM_launch_with_view(benchmark::State& state) {
  // For reference: a launch that captures a device-resident view also records an event.
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<BENCH_GPU(Stream_t)>(av.native_handle());
  hx::array<float, 1> data(256, av);
  hx::array_view<float, 1> view(data);
  constexpr int batch = 200;
  constexpr int rounds = 40;
  auto pfe_batch = [&] {
    const auto start = clock_type::now();
    for (int k = 0; k < batch; ++k) {
      hx::parallel_for_each(av, view.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { view[i] = 1.0f; });
    }
    const double s = seconds_since(start);
    av.wait();
    return s / batch;
  };
  auto raw_batch = [&] {
    const auto start = clock_type::now();
    for (int k = 0; k < batch; ++k) empty_kernel<<<1, 256, 0, stream>>>(256u);
    const double s = seconds_since(start);
    check(BENCH_GPU(StreamSynchronize)(stream), "sync");
    return s / batch;
  };
  for (int w = 0; w < 5; ++w) {
    pfe_batch();
    raw_batch();
  }
  std::vector<double> pfe, raw;
  for (auto _ : state) {
    for (int r = 0; r < rounds; ++r) {
      pfe.push_back(pfe_batch());
      raw.push_back(raw_batch());
    }
    state.SetIterationTime(median(pfe));
  }
  state.counters["pfe_us"] = median(pfe) * 1e6;
  state.counters["raw_us"] = median(raw) * 1e6;
  state.counters["ratio"] = median(pfe) / median(raw);
}

void BM_copy_in_1GiB(benchmark::State& state) {
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<BENCH_GPU(Stream_t)>(av.native_handle());
  const std::size_t bytes = std::size_t{1} << 30;
  const std::size_t n = bytes / sizeof(float);
  std::vector<float> pageable(n);
  for (std::size_t i = 0; i < n; ++i) pageable[i] = static_cast<float>(i % 9973) * 0.25f + 1.0f;
  pinned_buffer pinned(bytes);
  std::memcpy(pinned.ptr, pageable.data(), bytes);
  device_buffer device(bytes);
  hx::array_view<const float, 1> view(static_cast<int>(n), pageable);
  auto ours = [&] {
    view.refresh();  // the host data "changed": the next use copies all of it in again
    const auto start = clock_type::now();
    view.synchronize_to(av);
    return seconds_since(start);
  };
  auto pinned_copy = [&] {
    const auto start = clock_type::now();
    check(BENCH_GPU(MemcpyAsync)(device.ptr, pinned.ptr, bytes, BENCH_GPU(MemcpyHostToDevice),
                                 stream),
          "memcpy pinned");
    check(BENCH_GPU(StreamSynchronize)(stream), "sync");
    return seconds_since(start);
  };
  auto pageable_copy = [&] {
    const auto start = clock_type::now();
    check(BENCH_GPU(MemcpyAsync)(device.ptr, pageable.data(), bytes, BENCH_GPU(MemcpyHostToDevice),
                                 stream),
          "memcpy pageable");
    check(BENCH_GPU(StreamSynchronize)(stream), "sync");
    return seconds_since(start);
  };
  ours();
  pinned_copy();
  pageable_copy();
  std::vector<double> t_ours, t_pinned, t_pageable;
  for (auto _ : state) {
    for (int r = 0; r < 7; ++r) {
      t_ours.push_back(ours());
      t_pinned.push_back(pinned_copy());
      t_pageable.push_back(pageable_copy());
    }
    state.SetIterationTime(median(t_ours));
  }
  const double gb = static_cast<double>(bytes) / 1e9;
  state.counters["array_view_GBps"] = gb / median(t_ours);
  state.counters["pinned_memcpy_GBps"] = gb / median(t_pinned);
  state.counters["pageable_memcpy_GBps"] = gb / median(t_pageable);
  state.counters["ratio"] = median(t_pinned) / median(t_ours);  // goal >= 0.85
  state.SetLabel(label(*gpu));
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) *
                          static_cast<std::int64_t>(t_ours.size()));
}

void BM_exp_add(benchmark::State& state) {
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<BENCH_GPU(Stream_t)>(av.native_handle());
  const int n = 1 << 26;  // 256 MiB per vector: far past the L2
  const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(n);
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>((std::int64_t{i} * 7919) % 1000) * 0.004f - 2.0f;
    b[i] = static_cast<float>((std::int64_t{i} * 104729) % 1000) * 0.1f - 50.0f;
  }
  hx::array_view<const float, 1> va(n, a), vb(n, b);
  hx::array_view<float, 1> vc(n, c);
  vc.discard_data();
  device_buffer da(bytes), db(bytes), dc(bytes);
  check(BENCH_GPU(Memcpy)(da.ptr, a.data(), bytes, BENCH_GPU(MemcpyHostToDevice)), "copy a");
  check(BENCH_GPU(Memcpy)(db.ptr, b.data(), bytes, BENCH_GPU(MemcpyHostToDevice)), "copy b");
  const auto* pa = static_cast<const float*>(da.ptr);
  const auto* pb = static_cast<const float*>(db.ptr);
  auto* pc = static_cast<float*>(dc.ptr);
  constexpr int launches = 20;
  auto ours = [&] {
    const auto start = clock_type::now();
    for (int k = 0; k < launches; ++k) {
      hx::parallel_for_each(
          av, vc.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { vc[i] = std::exp(va[i]) + vb[i]; });
    }
    av.wait();
    return seconds_since(start) / launches;
  };
  auto hand = [&] {
    const unsigned blocks = (static_cast<unsigned>(n) + 255) / 256;
    const auto start = clock_type::now();
    for (int k = 0; k < launches; ++k) exp_add_kernel<<<blocks, 256, 0, stream>>>(pa, pb, pc, n);
    check(BENCH_GPU(StreamSynchronize)(stream), "sync");
    return seconds_since(start) / launches;
  };
  ours();  // copies the inputs in once
  hand();
  std::vector<double> t_ours, t_hand;
  for (auto _ : state) {
    for (int r = 0; r < 15; ++r) {
      t_ours.push_back(ours());
      t_hand.push_back(hand());
    }
    state.SetIterationTime(median(t_ours));
  }
  // Both results must agree before the times mean anything.
  vc.synchronize();
  std::vector<float> hand_c(n);
  check(BENCH_GPU(Memcpy)(hand_c.data(), pc, bytes, BENCH_GPU(MemcpyDeviceToHost)), "copy c");
  std::size_t differ = 0;
  for (int i = 0; i < n; ++i) differ += c[i] != hand_c[i];
  if (differ != 0) state.SkipWithError("hipamp and hand-written results differ");
  const double moved = 3.0 * static_cast<double>(bytes);
  state.counters["ours_GBps"] = moved / median(t_ours) / 1e9;
  state.counters["hand_GBps"] = moved / median(t_hand) / 1e9;
  state.counters["ratio"] = median(t_hand) / median(t_ours);  // goal >= 0.95
  state.SetLabel(label(*gpu));
}

}  // namespace

BENCHMARK(BM_launch_empty)->Iterations(1)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_launch_with_view)->Iterations(1)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_copy_in_1GiB)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_exp_add)->Iterations(1)->UseManualTime()->Unit(benchmark::kMicrosecond);

#else  // a build without a GPU backend: nothing to compare

namespace {
void BM_gpu_runtime(benchmark::State& state) {
  for (auto _ : state) {
  }
  state.SkipWithError("hipamp built without a GPU backend (" HIPAMP_BACKEND_NAME ")");
}
}  // namespace
BENCHMARK(BM_gpu_runtime);

#endif

BENCHMARK_MAIN();
