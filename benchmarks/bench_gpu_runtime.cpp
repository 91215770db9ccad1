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
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <hipamp/hipamp.hpp>

#include "common/gpu_timing.hpp"
#include "common/host.hpp"

namespace hx = hipamp;

#if HIPAMP_GPU_TRANSLATION_UNIT

namespace {

using namespace bench;

__global__ void empty_kernel(unsigned n) {
  if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;
}

__global__ void exp_add_kernel(const float* a, const float* b, float* c, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) c[i] = std::exp(a[i]) + b[i];
}

void BM_launch_empty(benchmark::State& state) {
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<vendor::stream_t>(av.native_handle());
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
    vendor::check(vendor::stream_synchronize(stream), "sync");
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
  state.SetLabel(narrow(gpu->get_description()));
}

void BM_launch_with_view(benchmark::State& state) {
  // For reference: a launch that captures a device-resident view also records an event.
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<vendor::stream_t>(av.native_handle());
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
    vendor::check(vendor::stream_synchronize(stream), "sync");
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
  auto stream = static_cast<vendor::stream_t>(av.native_handle());
  const std::size_t bytes = std::size_t{1} << 30;
  const std::size_t n = bytes / sizeof(float);
  std::vector<float> pageable(n);
  for (std::size_t i = 0; i < n; ++i) pageable[i] = static_cast<float>(i % 9973) * 0.25f + 1.0f;
  pinned_buffer pinned(bytes);
  std::memcpy(pinned.get(), pageable.data(), bytes);
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
    vendor::check(
        vendor::copy_async(device.get(), pinned.get(), bytes, vendor::host_to_device, stream),
        "memcpy pinned");
    vendor::check(vendor::stream_synchronize(stream), "sync");
    return seconds_since(start);
  };
  auto pageable_copy = [&] {
    const auto start = clock_type::now();
    vendor::check(
        vendor::copy_async(device.get(), pageable.data(), bytes, vendor::host_to_device, stream),
        "memcpy pageable");
    vendor::check(vendor::stream_synchronize(stream), "sync");
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
  state.SetLabel(narrow(gpu->get_description()));
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
  auto stream = static_cast<vendor::stream_t>(av.native_handle());
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
  vendor::check(vendor::copy(da.get(), a.data(), bytes, vendor::host_to_device), "copy a");
  vendor::check(vendor::copy(db.get(), b.data(), bytes, vendor::host_to_device), "copy b");
  const auto* pa = da.as<const float>();
  const auto* pb = db.as<const float>();
  auto* pc = dc.as<float>();
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
    vendor::check(vendor::stream_synchronize(stream), "sync");
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
  vendor::check(vendor::copy(hand_c.data(), pc, bytes, vendor::device_to_host), "copy c");
  std::size_t differ = 0;
  for (int i = 0; i < n; ++i) differ += c[i] != hand_c[i];
  if (differ != 0) state.SkipWithError("hipamp and hand-written results differ");
  const double moved = 3.0 * static_cast<double>(bytes);
  state.counters["ours_GBps"] = moved / median(t_ours) / 1e9;
  state.counters["hand_GBps"] = moved / median(t_hand) / 1e9;
  state.counters["ratio"] = median(t_hand) / median(t_ours);  // goal >= 0.95
  state.SetLabel(narrow(gpu->get_description()));
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
