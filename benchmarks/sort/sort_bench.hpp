// What bench_sort's translation units share: timing helpers, the CPU device's view, and (in
// CUDA builds) the GPU cases' device buffers, CUB peers and comparators. The GPU benchmarks
// are split over several units by the sort kernels they instantiate (as the sort tests are),
// so that no unit takes nvcc much longer than the others (issue 17's 90 s limit per unit).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include <hipamp/hipamp.hpp>

#include "common/gpu_timing.hpp"
#include "common/host.hpp"
#if HIPAMP_BENCH_CUDA  // the GPU peers are CUB's
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#endif

namespace bench_sort {

using namespace bench;

template <class F>
double host_ms(F&& f) {
  return seconds_of(f) * 1e3;
}

inline std::vector<std::uint32_t> random_keys(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = g();
  return v;
}

inline void report(benchmark::State& state, double hipamp, double peer) {
  state.counters["hipamp_ms"] = hipamp;
  state.counters["peer_ms"] = peer;
  state.counters["speedup"] = peer / hipamp;
}

// The sizes of the GPU comparisons: powers of two 2^16..2^26 and three that are not.
inline void gpu_sizes(benchmark::internal::Benchmark* b) {
  for (int p = 16; p <= 26; ++p) b->Arg(std::int64_t(1) << p);
  b->Arg(1000000)->Arg(10000000)->Arg((std::int64_t(1) << 24) - 1);
  b->Iterations(1)->Unit(benchmark::kMillisecond);
}

}  // namespace bench_sort

#if HIPAMP_BENCH_CUDA
// A named namespace: nvcc's extended lambdas (restore()) and kernel template arguments
// are kept out of the unnamed one.
namespace bench_sort_gpu {

using namespace bench_sort;

struct paper_type {
  float x;
  unsigned y;
  int z;
};
struct less_u32 {
  HIPAMP_HOST_DEVICE bool operator()(const std::uint32_t& a, const std::uint32_t& b) const {
    return a < b;
  }
};
struct by_y {
  HIPAMP_HOST_DEVICE bool operator()(const paper_type& a, const paper_type& b) const {
    return a.y < b.y;
  }
};
struct less_int {
  HIPAMP_HOST_DEVICE bool operator()(const int& a, const int& b) const { return a < b; }
};

inline bool find_gpu(hipamp::accelerator_view& out) {
  const std::optional<hipamp::accelerator> gpu = first_gpu();
  if (gpu) out = gpu->get_default_view();
  return gpu.has_value();
}

// Device-event time of `f` on `stream`, after `prepare` (untimed).
template <class Prepare, class F>
double event_ms(vendor::stream_t stream, Prepare&& prepare, F&& f) {
  event_timer timer(stream);
  prepare();
  return timer.seconds_per_call(1, f) * 1e3;
}
// After a warm-up call (allocations, module loading), the median of 7.
template <class Prepare, class F>
double gpu_median_ms(vendor::stream_t stream, Prepare&& prepare, F&& f) {
  event_ms(stream, prepare, f);
  return median_of(7, [&] { return event_ms(stream, prepare, f); });
}

inline std::vector<paper_type> paper_input(std::size_t n) {
  std::mt19937 g(3);
  std::vector<paper_type> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = {static_cast<float>(g() % 1000), static_cast<unsigned>(g()), static_cast<int>(i)};
  return v;
}

// A sort's data on the device: a hipamp array, a pristine copy, and a raw buffer for peers.
template <class T>
struct device_case {
  hipamp::accelerator_view av;
  std::size_t n;
  hipamp::array<T, 1> data;
  hipamp::array<T, 1> pristine;
  device_buffer raw_buffer, raw_in_buffer;
  T* raw;
  T* raw_in;
  vendor::stream_t stream;
  device_case(const hipamp::accelerator_view& view, const std::vector<T>& input)
      : av(view),
        n(input.size()),
        data(static_cast<int>(input.size()), view),
        pristine(static_cast<int>(input.size()), input.begin(), input.end(), view),
        raw_buffer(n * sizeof(T)),
        raw_in_buffer(n * sizeof(T)),
        raw(raw_buffer.as<T>()),
        raw_in(raw_in_buffer.as<T>()),
        stream(static_cast<vendor::stream_t>(view.native_handle())) {
    BENCH_GPU_CHECK(vendor::copy(raw_in, input.data(), n * sizeof(T), vendor::host_to_device));
  }
  void restore() {
    const hipamp::array_view<const T, 1> from(pristine);
    const hipamp::array_view<T, 1> to(data);
    to.discard_data();
    hipamp::parallel_for_each(av, to.extent,
                              [=] HIPAMP_RESTRICT(hipamp::index<1> i) { to[i] = from[i]; });
  }
  void restore_raw() {
    BENCH_GPU_CHECK(
        vendor::copy_async(raw, raw_in, n * sizeof(T), vendor::device_to_device, stream));
  }
  template <class Less>
  bool sorted(Less less) {
    const std::vector<T> out = data;
    return std::is_sorted(out.begin(), out.end(), less);
  }
};

// A reusable temporary-storage buffer for CUB peers (allocated outside the timing).
struct cub_temp {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  std::unique_ptr<device_buffer> buffer;
  void reserve(std::size_t b) {
    if (b <= bytes) return;
    buffer.reset();
    buffer = std::make_unique<device_buffer>(b);
    ptr = buffer->get();
    bytes = b;
  }
};

// cub::DeviceMergeSort of a u32 case's raw buffer, restored from raw_in before each timed
// call: the peer of the bitonic figures.
class cub_merge_sort_u32 {
 public:
  cub_merge_sort_u32(device_case<std::uint32_t>& c, cub_temp& temp) : c_(c), temp_(temp) {
    BENCH_GPU_CHECK(cub::DeviceMergeSort::SortKeys(
        nullptr, bytes_, c_.raw, static_cast<std::int64_t>(c_.n), less_u32{}, c_.stream));
    temp_.reserve(bytes_);
  }
  double median_ms() {
    return gpu_median_ms(
        c_.stream, [&] { c_.restore_raw(); },
        [&] {
          std::size_t bytes = bytes_;
          BENCH_GPU_CHECK(cub::DeviceMergeSort::SortKeys(
              temp_.ptr, bytes, c_.raw, static_cast<std::int64_t>(c_.n), less_u32{}, c_.stream));
        });
  }

 private:
  device_case<std::uint32_t>& c_;
  cub_temp& temp_;
  std::size_t bytes_ = 0;
};

// cub::DeviceRadixSort of a u32 case's keys, raw_in to raw (the input is never overwritten, so
// nothing is restored between calls): the peer of hipamp::sort's dispatch and the radix_ms
// counter beside the bitonic figures.
class cub_radix_sort_u32 {
 public:
  cub_radix_sort_u32(device_case<std::uint32_t>& c, cub_temp& temp) : c_(c), temp_(temp) {
    BENCH_GPU_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes_, c_.raw_in, c_.raw,
                                                   static_cast<int>(c_.n), 0, 32, c_.stream));
    temp_.reserve(bytes_);
  }
  double median_ms() {
    return gpu_median_ms(
        c_.stream, [] {},
        [&] {
          std::size_t bytes = bytes_;
          BENCH_GPU_CHECK(cub::DeviceRadixSort::SortKeys(temp_.ptr, bytes, c_.raw_in, c_.raw,
                                                         static_cast<int>(c_.n), 0, 32, c_.stream));
        });
  }

 private:
  device_case<std::uint32_t>& c_;
  cub_temp& temp_;
  std::size_t bytes_ = 0;
};

// The bitonic network under one tile shape (2^K elements per thread, tiles of 2^Log2Tile)
// on a raw device buffer, beside CUB's merge sort: the sweep behind the default shapes.
// Run with --benchmark_filter=gpu_bitonic_shape.
template <int K, int Log2Tile, int MinBlocks = 0>
void gpu_bitonic_shape(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  device_case<std::uint32_t> c(av, random_keys(n, 7));
  namespace gk = hipamp::detail::gpu::sort_kernels;
  namespace bn = hipamp::detail::bitonic;
  const bn::layout lay = bn::make_layout(static_cast<unsigned>(n), 1, n);
  cub_temp temp;
  cub_merge_sort_u32 merge_sort(c, temp);
  double shaped = 0, merge = 0;
  for (auto _ : state) {
    shaped = gpu_median_ms(
        c.stream, [&] { c.restore_raw(); },
        [&] {
          gk::run_network<std::uint32_t, gk::fixed_tile_shape<K, Log2Tile, MinBlocks>>(
              bn::array_memory<std::uint32_t>{c.raw, lay}, lay, less_u32{}, c.stream);
        });
    merge = merge_sort.median_ms();
  }
  std::vector<std::uint32_t> out(n);
  c.restore_raw();
  gk::run_network<std::uint32_t, gk::fixed_tile_shape<K, Log2Tile, MinBlocks>>(
      bn::array_memory<std::uint32_t>{c.raw, lay}, lay, less_u32{}, c.stream);
  BENCH_GPU_CHECK(vendor::stream_synchronize(c.stream));
  BENCH_GPU_CHECK(
      vendor::copy(out.data(), c.raw, n * sizeof(std::uint32_t), vendor::device_to_host));
  if (!std::is_sorted(out.begin(), out.end())) state.SkipWithError("shaped bitonic unsorted");
  report(state, shaped, merge);
}
inline void shape_sizes(benchmark::internal::Benchmark* b) {
  b->Arg(1 << 16)->Arg(1 << 20)->Arg(1 << 24)->Iterations(1)->Unit(benchmark::kMillisecond);
}
// The sizes around 2^20 at which the network's shape is chosen by size
// (small_network_tile_shape, tuning_sort.hpp): where <4, 13> and <5, 13> cross, between
// 2^20 + 1 and 2^20 + 2^18.
inline void shape_sizes_near_2p20(benchmark::internal::Benchmark* b) {
  b->Arg(1 << 18)
      ->Arg(1 << 19)
      ->Arg((1 << 20) + 1)
      ->Arg(1000000)
      ->Arg((1 << 20) + (1 << 14))
      ->Arg((1 << 20) + (1 << 15))
      ->Arg((1 << 20) + (1 << 16))
      ->Arg((1 << 20) + (1 << 18))
      ->Arg((1 << 21) - (1 << 18))
      ->Arg(1 << 21)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
