// Sort benchmarks (issue 6). Every figure is reported beside its peer, measured in the same
// run on the same machine, as counters: hipamp_ms, peer_ms and speedup = peer / hipamp
// (> 1 means hipamp is faster). Times are medians over repetitions after a warm-up; GPU
// times come from device events on the sorting stream.
//
// CPU device, 2^24 uint32 (random):
//   cpu_sort_vs_std_sort            hipamp::sort on 1 thread vs std::sort
//   cpu_sort_vs_gnu_parallel        hipamp::sort on all threads vs __gnu_parallel::sort
// GPU (CUDA builds with a GPU present), uint32 and the paper's user type sorted by y:
//   gpu_bitonic_vs_cub_merge_sort   the bitonic path (a comparator) vs cub::DeviceMergeSort
//                                   with the same comparator; radix_ms: cub::DeviceRadixSort
//   gpu_dispatch_vs_radix           hipamp::sort (default order: dispatches) vs
//                                   cub::DeviceRadixSort (goal >= 0.9)
//   gpu_non_power_of_two_cost       time(2^20 + 1) / time(2^20) of the bitonic path
//   gpu_seed_8388608_ints           the seed's benchmark (0.187 s on a GTX 470)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include <hipamp/hipamp.hpp>

#if HIPAMP_HAS_OPENMP
#include <omp.h>
#if defined(__GLIBCXX__) && __has_include(<parallel/algorithm>)
#include <parallel/algorithm>
#define HIPAMP_BENCH_GNU_PARALLEL 1
#endif
#endif

#if HIPAMP_GPU_TRANSLATION_UNIT && !defined(__HIPCC__)
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#define HIPAMP_BENCH_CUB 1
#endif

namespace {

template <class F>
double median_ms(int reps, F&& once) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) t.push_back(once());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class F>
double host_ms(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::vector<std::uint32_t> random_keys(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = g();
  return v;
}

void report(benchmark::State& state, double hipamp, double peer) {
  state.counters["hipamp_ms"] = hipamp;
  state.counters["peer_ms"] = peer;
  state.counters["speedup"] = peer / hipamp;
}

// ---- CPU device ---------------------------------------------------------------------------------

const hipamp::accelerator_view& cpu_view() {
  static const hipamp::accelerator_view av =
      hipamp::accelerator(hipamp::accelerator::cpu_accelerator).get_default_view();
  return av;
}

// hipamp::sort on the CPU device vs a host peer, both on `threads` OpenMP threads.
template <class Peer>
void cpu_vs(benchmark::State& state, int threads, Peer peer) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
#if HIPAMP_HAS_OPENMP
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
  const std::vector<std::uint32_t> input = random_keys(n, 1);
  std::vector<std::uint32_t> data;
  double hipamp_time = 0;
  double peer_time = 0;
  for (auto _ : state) {
    const auto run_hipamp = [&] {
      data = input;
      return host_ms([&] { hipamp::sort(cpu_view(), data.data(), data.data() + n); });
    };
    const auto run_peer = [&] {
      data = input;
      return host_ms([&] { peer(data); });
    };
    run_hipamp();  // warm-up
    run_peer();
    hipamp_time = median_ms(5, run_hipamp);
    peer_time = median_ms(5, run_peer);
  }
  if (!std::is_sorted(data.begin(), data.end())) state.SkipWithError("peer left data unsorted");
#if HIPAMP_HAS_OPENMP
  omp_set_num_threads(saved);
#endif
  state.counters["threads"] = threads;
  report(state, hipamp_time, peer_time);
}

void cpu_sort_vs_std_sort(benchmark::State& state) {
  cpu_vs(state, 1, [](std::vector<std::uint32_t>& v) { std::sort(v.begin(), v.end()); });
}
BENCHMARK(cpu_sort_vs_std_sort)->Arg(1 << 24)->Iterations(1)->Unit(benchmark::kMillisecond);

#if HIPAMP_BENCH_GNU_PARALLEL
void cpu_sort_vs_gnu_parallel(benchmark::State& state) {
  cpu_vs(state, hipamp::fallback::thread_count(),
         [](std::vector<std::uint32_t>& v) { __gnu_parallel::sort(v.begin(), v.end()); });
}
BENCHMARK(cpu_sort_vs_gnu_parallel)->Arg(1 << 24)->Iterations(1)->Unit(benchmark::kMillisecond);
#endif

// ---- GPU ----------------------------------------------------------------------------------------

}  // namespace

#if HIPAMP_BENCH_CUB
// A named namespace: nvcc's extended lambdas (restore()) and kernel template arguments
// are kept out of the unnamed one.
namespace bench_sort_gpu {

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

#define BENCH_CUDA(call)                                              \
  do {                                                                \
    const cudaError_t e = (call);                                     \
    if (e != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e)); \
      std::abort();                                                   \
    }                                                                 \
  } while (0)

bool find_gpu(hipamp::accelerator_view& out) {
  for (const hipamp::accelerator& acc : hipamp::accelerator::get_all()) {
    if (!acc.is_cpu()) {
      out = acc.get_default_view();
      return true;
    }
  }
  return false;
}

// Device-event time of `f` on `stream`, after `prepare` (untimed).
template <class Prepare, class F>
double event_ms(cudaStream_t stream, Prepare&& prepare, F&& f) {
  cudaEvent_t start, stop;
  BENCH_CUDA(cudaEventCreate(&start));
  BENCH_CUDA(cudaEventCreate(&stop));
  prepare();
  BENCH_CUDA(cudaEventRecord(start, stream));
  f();
  BENCH_CUDA(cudaEventRecord(stop, stream));
  BENCH_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  BENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
  BENCH_CUDA(cudaEventDestroy(start));
  BENCH_CUDA(cudaEventDestroy(stop));
  return ms;
}
template <class Prepare, class F>
double gpu_median_ms(cudaStream_t stream, Prepare&& prepare, F&& f) {
  event_ms(stream, prepare, f);  // warm-up (allocations, module loading)
  return median_ms(7, [&] { return event_ms(stream, prepare, f); });
}

std::vector<paper_type> paper_input(std::size_t n) {
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
  T* raw = nullptr;
  T* raw_in = nullptr;
  cudaStream_t stream;
  device_case(const hipamp::accelerator_view& view, const std::vector<T>& input)
      : av(view),
        n(input.size()),
        data(static_cast<int>(input.size()), view),
        pristine(static_cast<int>(input.size()), input.begin(), input.end(), view),
        stream(static_cast<cudaStream_t>(view.native_handle())) {
    BENCH_CUDA(cudaMalloc(&raw, n * sizeof(T)));
    BENCH_CUDA(cudaMalloc(&raw_in, n * sizeof(T)));
    BENCH_CUDA(cudaMemcpy(raw_in, input.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~device_case() {
    cudaFree(raw);
    cudaFree(raw_in);
  }
  void restore() {
    const hipamp::array_view<const T, 1> from(pristine);
    const hipamp::array_view<T, 1> to(data);
    to.discard_data();
    hipamp::parallel_for_each(av, to.extent,
                              [=] HIPAMP_RESTRICT(hipamp::index<1> i) { to[i] = from[i]; });
  }
  void restore_raw() {
    BENCH_CUDA(cudaMemcpyAsync(raw, raw_in, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
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
  void reserve(std::size_t b) {
    if (b <= bytes) return;
    cudaFree(ptr);
    BENCH_CUDA(cudaMalloc(&ptr, b));
    bytes = b;
  }
  ~cub_temp() { cudaFree(ptr); }
};

// cub::DeviceMergeSort of a u32 case's raw buffer, restored from raw_in before each timed
// call: the peer of the bitonic figures.
class cub_merge_sort_u32 {
 public:
  cub_merge_sort_u32(device_case<std::uint32_t>& c, cub_temp& temp) : c_(c), temp_(temp) {
    BENCH_CUDA(cub::DeviceMergeSort::SortKeys(
        nullptr, bytes_, c_.raw, static_cast<std::int64_t>(c_.n), less_u32{}, c_.stream));
    temp_.reserve(bytes_);
  }
  double median_ms() {
    return gpu_median_ms(
        c_.stream, [&] { c_.restore_raw(); },
        [&] {
          std::size_t bytes = bytes_;
          BENCH_CUDA(cub::DeviceMergeSort::SortKeys(
              temp_.ptr, bytes, c_.raw, static_cast<std::int64_t>(c_.n), less_u32{}, c_.stream));
        });
  }

 private:
  device_case<std::uint32_t>& c_;
  cub_temp& temp_;
  std::size_t bytes_ = 0;
};

void gpu_bitonic_vs_cub_merge_sort_u32(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  device_case<std::uint32_t> c(av, random_keys(n, 7));
  cub_temp temp;
  cub_merge_sort_u32 merge_sort(c, temp);
  std::size_t radix_bytes = 0;
  BENCH_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, radix_bytes, c.raw_in, c.raw,
                                            static_cast<int>(n), 0, 32, c.stream));
  temp.reserve(radix_bytes);
  double bitonic = 0, merge = 0, radix = 0;
  for (auto _ : state) {
    const hipamp::array_view<std::uint32_t, 1> view(c.data);
    bitonic = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::sort(av, view, less_u32{}); });
    merge = merge_sort.median_ms();
    radix = gpu_median_ms(
        c.stream, [] {},
        [&] {
          std::size_t bytes = radix_bytes;
          BENCH_CUDA(cub::DeviceRadixSort::SortKeys(temp.ptr, bytes, c.raw_in, c.raw,
                                                    static_cast<int>(n), 0, 32, c.stream));
        });
  }
  if (!c.sorted(std::less<std::uint32_t>())) state.SkipWithError("bitonic result unsorted");
  report(state, bitonic, merge);
  state.counters["radix_ms"] = radix;
}

void gpu_bitonic_vs_cub_merge_sort_paper_type(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::vector<paper_type> input = paper_input(n);
  device_case<paper_type> c(av, input);
  std::vector<unsigned> ys(n);
  for (std::size_t i = 0; i < n; ++i) ys[i] = input[i].y;
  device_case<unsigned> keys(av, ys);  // the radix peer sorts (y, element) pairs
  cub_temp temp;
  std::size_t merge_bytes = 0, radix_bytes = 0;
  BENCH_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, merge_bytes, c.raw,
                                            static_cast<std::int64_t>(n), by_y{}, c.stream));
  BENCH_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, radix_bytes, keys.raw_in, keys.raw, c.raw_in,
                                             c.raw, static_cast<int>(n), 0, 32, c.stream));
  temp.reserve(std::max(merge_bytes, radix_bytes));
  double bitonic = 0, merge = 0, radix = 0;
  for (auto _ : state) {
    const hipamp::array_view<paper_type, 1> view(c.data);
    bitonic = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::sort(av, view, by_y{}); });
    merge = gpu_median_ms(
        c.stream, [&] { c.restore_raw(); },
        [&] {
          std::size_t bytes = merge_bytes;
          BENCH_CUDA(cub::DeviceMergeSort::SortKeys(
              temp.ptr, bytes, c.raw, static_cast<std::int64_t>(n), by_y{}, c.stream));
        });
    radix = gpu_median_ms(
        c.stream, [] {},
        [&] {
          std::size_t bytes = radix_bytes;
          BENCH_CUDA(cub::DeviceRadixSort::SortPairs(temp.ptr, bytes, keys.raw_in, keys.raw,
                                                     c.raw_in, c.raw, static_cast<int>(n), 0, 32,
                                                     c.stream));
        });
  }
  if (!c.sorted(by_y{})) state.SkipWithError("bitonic result unsorted");
  report(state, bitonic, merge);
  state.counters["radix_ms"] = radix;
}

void gpu_dispatch_vs_radix(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  device_case<std::uint32_t> c(av, random_keys(n, 9));
  cub_temp temp;
  std::size_t radix_bytes = 0;
  BENCH_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, radix_bytes, c.raw_in, c.raw,
                                            static_cast<int>(n), 0, 32, c.stream));
  temp.reserve(radix_bytes);
  double dispatch = 0, radix = 0;
  for (auto _ : state) {
    const hipamp::array_view<std::uint32_t, 1> view(c.data);
    dispatch = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::sort(av, view); });
    radix = gpu_median_ms(
        c.stream, [] {},
        [&] {
          std::size_t bytes = radix_bytes;
          BENCH_CUDA(cub::DeviceRadixSort::SortKeys(temp.ptr, bytes, c.raw_in, c.raw,
                                                    static_cast<int>(n), 0, 32, c.stream));
        });
  }
  if (!c.sorted(std::less<std::uint32_t>())) state.SkipWithError("dispatch result unsorted");
  report(state, dispatch, radix);
}

void gpu_non_power_of_two_cost(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = std::size_t(1) << 20;
  device_case<std::uint32_t> exact(av, random_keys(n, 11));
  device_case<std::uint32_t> one_more(av, random_keys(n + 1, 12));
  double t_exact = 0, t_more = 0;
  for (auto _ : state) {
    const hipamp::array_view<std::uint32_t, 1> a(exact.data), b(one_more.data);
    t_exact = gpu_median_ms(
        exact.stream, [&] { exact.restore(); }, [&] { hipamp::sort(av, a, less_u32{}); });
    t_more = gpu_median_ms(
        one_more.stream, [&] { one_more.restore(); }, [&] { hipamp::sort(av, b, less_u32{}); });
  }
  state.counters["ms_2^20"] = t_exact;
  state.counters["ms_2^20+1"] = t_more;
  state.counters["cost_ratio"] = t_more / t_exact;  // goal <= 1.25
}

void gpu_seed_8388608_ints(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = 8388608;
  std::vector<int> input(n);
  std::mt19937 g(13);
  for (auto& x : input) x = static_cast<int>(g());
  device_case<int> c(av, input);
  double bitonic = 0, dispatch = 0;
  for (auto _ : state) {
    const hipamp::array_view<int, 1> view(c.data);
    bitonic = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::sort(av, view, less_int{}); });
    dispatch = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::sort(av, view); });
  }
  state.counters["bitonic_ms"] = bitonic;
  state.counters["dispatch_ms"] = dispatch;
  state.counters["seed_gtx470_ms"] = 187.0;
}

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
  BENCH_CUDA(cudaStreamSynchronize(c.stream));
  BENCH_CUDA(cudaMemcpy(out.data(), c.raw, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  if (!std::is_sorted(out.begin(), out.end())) state.SkipWithError("shaped bitonic unsorted");
  report(state, shaped, merge);
}
void shape_sizes(benchmark::internal::Benchmark* b) {
  b->Arg(1 << 16)->Arg(1 << 20)->Arg(1 << 24)->Iterations(1)->Unit(benchmark::kMillisecond);
}
// On an H200 with the register-round tile kernel, at 2^16 / 2^20 / 2^24 (ms): <5,13> (the
// default for 4-byte keys) 0.057 / 0.116 / 1.68; <5,14> 0.073 / 0.134 / 1.77; <4,13>
// 0.059 / 0.125 / 2.42; <3,12> 0.052 / 0.149 / 2.52. Before it, 2^K = 64 (<6,14>, <6,15>)
// was slower than 32 at every size. On an H100 (benchmarks/results/h100_sweeps_2026-11-21.txt):
// <5,13,3> (3 blocks, 80 registers) 1.90 vs 1.92 ms at 2^24 and slower below; <4,12,4> 0.048
// vs 0.058 ms at 2^16, equal at 2^20, 2.10 ms at 2^24.
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 13)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 13, 3)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 4, 12, 4)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 14)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 4, 13)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 3, 12)->Apply(shape_sizes);

void gpu_sizes(benchmark::internal::Benchmark* b) {
  for (int p = 16; p <= 26; ++p) b->Arg(std::int64_t(1) << p);
  b->Arg(1000000)->Arg(10000000)->Arg((std::int64_t(1) << 24) - 1);
  b->Iterations(1)->Unit(benchmark::kMillisecond);
}
BENCHMARK(gpu_bitonic_vs_cub_merge_sort_u32)->Apply(gpu_sizes);
BENCHMARK(gpu_bitonic_vs_cub_merge_sort_paper_type)->Apply(gpu_sizes);
BENCHMARK(gpu_dispatch_vs_radix)->Apply(gpu_sizes);
BENCHMARK(gpu_non_power_of_two_cost)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(gpu_seed_8388608_ints)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUB

BENCHMARK_MAIN();
