// The GPU runtime against hand-written CUDA/HIP, measured side by side in one run:
//   launch:      an empty parallel_for_each vs a raw <<< >>> launch, and a launch whose kernel
//                writes 1 or 4 captured views vs the raw launch of the same kernel on raw
//                pointers (host time per launch; goal ratio <= 1.2)
//   copy_in:     1 GiB of pageable memory into a device through array_view vs cudaMemcpy from
//                pinned memory (goal >= 0.85 of its bandwidth); the driver's own pageable
//                cudaMemcpy is reported beside them
//   copy_out:    the same, device to pageable host memory (a host read of a view a kernel wrote)
//   exp_add:     c = exp(a) + b through array_views vs a hand-written kernel on raw pointers
//                (goal >= 0.95 of its speed)
// Each benchmark interleaves the two sides and reports medians; the ratio is a counter.
// In builds without a GPU backend, or without a GPU, every case is skipped.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
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
  // For reading the profile: hipamp's own kernel template and arguments, launched raw (what
  // the launch costs without the runtime around it).
  const auto empty_body = [] HIPAMP_RESTRICT(hx::index<1>) {};
  const auto box = hx::detail::gpu::make_launch_box(hx::index<1>(0), domain);
  auto same_kernel_batch = [&] {
    const auto start = clock_type::now();
    for (int k = 0; k < batch; ++k) {
      hx::detail::gpu::simple_kernel<1, decltype(empty_body)>
          <<<1, hx::detail::gpu::simple_block_threads, 0, stream>>>(empty_body, box);
    }
    const double s = seconds_since(start);
    vendor::check(vendor::stream_synchronize(stream), "sync");
    return s / batch;
  };
  for (int w = 0; w < 5; ++w) {
    pfe_batch();
    raw_batch();
    same_kernel_batch();
  }
  std::vector<double> pfe, raw, same;
  for (auto _ : state) {
    for (int r = 0; r < rounds; ++r) {
      pfe.push_back(pfe_batch());
      raw.push_back(raw_batch());
      same.push_back(same_kernel_batch());
    }
    state.SetIterationTime(median(pfe));
  }
  const double p = median(pfe), q = median(raw);
  state.counters["pfe_us"] = p * 1e6;
  state.counters["raw_us"] = q * 1e6;
  state.counters["raw_same_kernel_us"] = median(same) * 1e6;
  state.counters["ratio"] = p / q;  // goal <= 1.2
  state.SetLabel(narrow(gpu->get_description()));
}

// The hand-written peer of a launch whose kernel writes `views` arrays: one pointer each.
__global__ void write_kernel(float* a, float* b, float* c, float* d, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  a[i] = 1.0f;
  if (b != nullptr) b[i] = 2.0f;
  if (c != nullptr) c[i] = 3.0f;
  if (d != nullptr) d[i] = 4.0f;
}

// A kernel parameter of `Bytes` bytes: the raw launch of a kernel with as many parameter bytes
// as a parallel_for_each kernel that captures views (for reading the profile).
template <std::size_t Bytes>
struct parameter_block {
  unsigned char bytes[Bytes];
};
template <std::size_t Bytes>
__global__ void parameter_kernel(const parameter_block<Bytes> block, float* out) {
  if (threadIdx.x == 0 && block.bytes[0] == 255) *out = 1.0f;
}

// A launch whose kernel captures and writes 1 or 4 device-resident views (state.range(0))
// against the raw launch of the same kernel on raw pointers (goal ratio <= 1.2). The raw side
// is also timed with an ordering event recorded after each launch (raw_event_us): what a
// runtime that tracks each launch's completion would pay, for reading the profile.
void BM_launch_with_views(benchmark::State& state) {
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  const int views = static_cast<int>(state.range(0));
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<vendor::stream_t>(av.native_handle());
  constexpr int n = 256;
  hx::array<float, 1> a(n, av), b(n, av), c(n, av), d(n, av);
  hx::array_view<float, 1> va(a), vb(b), vc(c), vd(d);
  device_buffer raw_a(n * sizeof(float)), raw_b(n * sizeof(float)), raw_c(n * sizeof(float)),
      raw_d(n * sizeof(float));
  float* pa = raw_a.as<float>();
  float* pb = views == 4 ? raw_b.as<float>() : nullptr;
  float* pc = views == 4 ? raw_c.as<float>() : nullptr;
  float* pd = views == 4 ? raw_d.as<float>() : nullptr;
  vendor::event_t ordering{};
  vendor::check(vendor::event_create_ordering(&ordering), "event");
  constexpr int batch = 200;  // few enough that the launch queue never fills
  constexpr int rounds = 40;
  auto pfe_batch = [&] {
    const auto start = clock_type::now();
    if (views == 1) {
      for (int k = 0; k < batch; ++k) {
        hx::parallel_for_each(av, va.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { va[i] = 1.0f; });
      }
    } else {
      for (int k = 0; k < batch; ++k) {
        hx::parallel_for_each(av, va.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
          va[i] = 1.0f;
          vb[i] = 2.0f;
          vc[i] = 3.0f;
          vd[i] = 4.0f;
        });
      }
    }
    const double s = seconds_since(start);
    av.wait();
    return s / batch;
  };
  auto raw_batch = [&](bool record) {
    const auto start = clock_type::now();
    for (int k = 0; k < batch; ++k) {
      write_kernel<<<1, 256, 0, stream>>>(pa, pb, pc, pd, n);
      if (record) vendor::check(vendor::event_record(ordering, stream), "record");
    }
    const double s = seconds_since(start);
    vendor::check(vendor::stream_synchronize(stream), "sync");
    return s / batch;
  };
  // As many parameter bytes as the parallel_for_each kernel's (its views and launch box).
  constexpr std::size_t view_bytes = sizeof(hx::array_view<float, 1>);
  constexpr std::size_t box_bytes = sizeof(hx::detail::gpu::launch_box<1>);
  const parameter_block<view_bytes + box_bytes> block1{};
  const parameter_block<4 * view_bytes + box_bytes> block4{};
  auto same_parameters_batch = [&] {
    const auto start = clock_type::now();
    for (int k = 0; k < batch; ++k) {
      if (views == 1) {
        parameter_kernel<<<1, 256, 0, stream>>>(block1, pa);
      } else {
        parameter_kernel<<<1, 256, 0, stream>>>(block4, pa);
      }
    }
    const double s = seconds_since(start);
    vendor::check(vendor::stream_synchronize(stream), "sync");
    return s / batch;
  };
  // For reading the profile: hipamp's kernel template with a kernel object of the same
  // captures, bound once (its views point at device memory) and launched raw by address, as
  // the runtime launches: the floor a launch would reach if the runtime did nothing per launch
  // (no call-site copies, no binding, no notes).
  auto bound_batch_of = [&](const auto& kernel) {
    using kernel_type = std::decay_t<decltype(kernel)>;
    auto bound = std::make_shared<std::optional<kernel_type>>();
    {
      hx::detail::launch_scope scope(av.queue());
      bound->emplace(kernel);
      scope.close();
      scope.complete(nullptr);
    }
    const auto box = hx::detail::gpu::make_launch_box(hx::index<1>(0), va.extent);
    return [=] {
      const auto start = clock_type::now();
      for (int k = 0; k < batch; ++k) {
        (void)hx::detail::gpu::launch_by_address(&hx::detail::gpu::simple_kernel<1, kernel_type>, 1,
                                                 hx::detail::gpu::simple_block_threads, 0, stream,
                                                 **bound, box);
      }
      const double s = seconds_since(start);
      vendor::check(vendor::stream_synchronize(stream), "sync");
      return s / batch;
    };
  };
  // Also for reading the profile: parallel_for_each of a kernel object built once, before the
  // loop, so a launch pays the runtime's work but not the call site's (nvcc's extended-lambda
  // wrapper copies every captured view several times where the lambda is written, each copy
  // owning a reference: the difference to pfe_us).
  std::function<double()> bound_batch;
  std::function<double()> reused_batch;
  auto reused_batch_of = [&](const auto& kernel) {
    return [&av, &va, kernel] {
      const auto start = clock_type::now();
      for (int k = 0; k < batch; ++k) hx::parallel_for_each(av, va.extent, kernel);
      const double s = seconds_since(start);
      av.wait();
      return s / batch;
    };
  };
  if (views == 1) {
    const auto kernel = [=] HIPAMP_RESTRICT(hx::index<1> i) { va[i] = 1.0f; };
    bound_batch = bound_batch_of(kernel);
    reused_batch = reused_batch_of(kernel);
  } else {
    const auto kernel = [=] HIPAMP_RESTRICT(hx::index<1> i) {
      va[i] = 1.0f;
      vb[i] = 2.0f;
      vc[i] = 3.0f;
      vd[i] = 4.0f;
    };
    bound_batch = bound_batch_of(kernel);
    reused_batch = reused_batch_of(kernel);
  }
  for (int w = 0; w < 5; ++w) {
    pfe_batch();
    raw_batch(false);
    raw_batch(true);
    same_parameters_batch();
    bound_batch();
    reused_batch();
  }
  std::vector<double> pfe, raw, raw_event, same_parameters, bound_kernel, reused_kernel;
  for (auto _ : state) {
    for (int r = 0; r < rounds; ++r) {
      pfe.push_back(pfe_batch());
      raw.push_back(raw_batch(false));
      raw_event.push_back(raw_batch(true));
      same_parameters.push_back(same_parameters_batch());
      bound_kernel.push_back(bound_batch());
      reused_kernel.push_back(reused_batch());
    }
    state.SetIterationTime(median(pfe));
  }
  state.counters["raw_bound_kernel_us"] = median(bound_kernel) * 1e6;
  state.counters["pfe_reused_kernel_us"] = median(reused_kernel) * 1e6;
  state.counters["raw_same_parameter_bytes_us"] = median(same_parameters) * 1e6;
  state.counters["parameter_bytes"] = static_cast<double>(views * view_bytes + box_bytes);
  (void)vendor::event_destroy(ordering);
  state.counters["pfe_us"] = median(pfe) * 1e6;
  state.counters["raw_us"] = median(raw) * 1e6;
  state.counters["raw_event_us"] = median(raw_event) * 1e6;
  state.counters["ratio"] = median(pfe) / median(raw);  // goal <= 1.2
  state.SetLabel(narrow(gpu->get_description()));
}

// Host time of one cudaMemcpyAsync on `stream`, waited for: the copy benchmarks' peers.
double timed_copy(void* dst, const void* src, std::size_t bytes, vendor::memcpy_kind kind,
                  vendor::stream_t stream, const char* what) {
  const auto start = clock_type::now();
  vendor::check(vendor::copy_async(dst, src, bytes, kind, stream), what);
  vendor::check(vendor::stream_synchronize(stream), "sync");
  return seconds_since(start);
}

// The copy benchmarks' counters: bandwidths, the ratio to the pinned peer, and the first
// three array_view copies apart (two staged, then the one that pins the memory).
void report_copy(benchmark::State& state, std::size_t bytes, const std::vector<double>& ours,
                 const std::vector<double>& pinned, const std::vector<double>& pageable,
                 double first, double second) {
  const double gb = static_cast<double>(bytes) / 1e9;
  state.counters["array_view_GBps"] = gb / median(ours);
  state.counters["pinned_memcpy_GBps"] = gb / median(pinned);
  state.counters["pageable_memcpy_GBps"] = gb / median(pageable);
  state.counters["ratio"] = median(pinned) / median(ours);  // goal >= 0.85
  state.counters["first_ms"] = first * 1e3;
  state.counters["second_ms"] = second * 1e3;
  state.counters["third_ms"] = ours.front() * 1e3;  // pins the memory, then copies
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
  // The driver's own pageable copy reads memory of its own: the view's is pinned by then.
  const std::vector<float> driver_pageable(pageable);
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
    return timed_copy(device.get(), pinned.get(), bytes, vendor::host_to_device, stream,
                      "memcpy pinned");
  };
  auto pageable_copy = [&] {
    return timed_copy(device.get(), driver_pageable.data(), bytes, vendor::host_to_device, stream,
                      "memcpy pageable");
  };
  // The first copies, reported apart: the first two are staged, and the third pins the
  // memory (data_source::pin_min_bytes) before copying; later ones copy pinned memory.
  const double first = ours();
  const double second = ours();
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
  report_copy(state, bytes, t_ours, t_pinned, t_pageable, first, second);
  state.SetLabel(narrow(gpu->get_description()));
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) *
                          static_cast<std::int64_t>(t_ours.size()));
}

// 1 GiB from a device into pageable memory through array_view (a kernel wrote the view, the
// host reads it) vs cudaMemcpy into pinned memory (goal >= 0.85 of its bandwidth). The kernel
// that makes the device copy the newest runs before the clock starts.
void BM_copy_out_1GiB(benchmark::State& state) {
  const auto gpu = first_gpu();
  if (!gpu) {
    state.SkipWithError("no GPU");
    return;
  }
  hx::accelerator_view av = gpu->get_default_view();
  auto stream = static_cast<vendor::stream_t>(av.native_handle());
  const std::size_t bytes = std::size_t{1} << 30;
  const std::size_t n = bytes / sizeof(float);
  std::vector<float> pageable(n, 0.0f);
  // The driver's own pageable copy gets memory of its own: the view's may be pinned by then.
  std::vector<float> driver_pageable(n, 0.0f);
  pinned_buffer pinned(bytes);
  device_buffer device(bytes);
  vendor::check(vendor::copy(device.get(), pageable.data(), bytes, vendor::host_to_device), "fill");
  hx::array_view<float, 1> view(static_cast<int>(n), pageable);
  float round_value = 0.0f;
  auto ours = [&] {
    round_value += 1.0f;
    const float v = round_value;
    view.discard_data();  // the kernel writes every element: nothing to copy in
    hx::parallel_for_each(av, view.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
      view[i] = v + static_cast<float>(i[0] & 1023);
    });
    av.wait();
    const auto start = clock_type::now();
    view.synchronize();
    return seconds_since(start);
  };
  auto pinned_copy = [&] {
    return timed_copy(pinned.get(), device.get(), bytes, vendor::device_to_host, stream,
                      "memcpy pinned");
  };
  auto pageable_copy = [&] {
    return timed_copy(driver_pageable.data(), device.get(), bytes, vendor::device_to_host, stream,
                      "memcpy pageable");
  };
  const double first = ours();   // staged
  const double second = ours();  // staged; the third pins the memory, then copies
  pinned_copy();
  std::vector<double> t_ours, t_pinned, t_pageable;
  bool correct = true;
  for (auto _ : state) {
    for (int r = 0; r < 7; ++r) {
      t_ours.push_back(ours());
      // The bytes that came back are the kernel's (spot checks across the whole range).
      for (std::size_t i = 0; i < n; i += 1000003) {
        correct &= pageable[i] == round_value + static_cast<float>(i & 1023);
      }
      t_pinned.push_back(pinned_copy());
    }
    state.SetIterationTime(median(t_ours));
  }
  // The driver's own pageable copy, into memory of its own (the view's is pinned by now).
  for (int r = 0; r < 3; ++r) t_pageable.push_back(pageable_copy());
  if (!correct) state.SkipWithError("the copied-out data is not the kernel's");
  report_copy(state, bytes, t_ours, t_pinned, t_pageable, first, second);
  state.SetLabel(narrow(gpu->get_description()));
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
BENCHMARK(BM_launch_with_views)
    ->Arg(1)
    ->Arg(4)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_copy_in_1GiB)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_copy_out_1GiB)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
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
