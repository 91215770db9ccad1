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
//   gpu_bitonic_shape<K, Log2Tile>  the tile-shape sweep behind the default shapes
//
// The GPU benchmarks live in benchmarks/sort/, one unit per group of sort kernels (nvcc
// compiles each instantiation once per unit); this unit holds the CPU ones, the dispatch
// comparison (the same u32 sort) and main().
#include "sort/sort_bench.hpp"

#if HIPAMP_HAS_OPENMP
#include <omp.h>
#if defined(__GLIBCXX__) && __has_include(<parallel/algorithm>)
#include <parallel/algorithm>
#define HIPAMP_BENCH_GNU_PARALLEL 1
#endif
#endif

namespace {

using namespace bench_sort;

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
    hipamp_time = median_of(5, run_hipamp);
    peer_time = median_of(5, run_peer);
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

}  // namespace

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

// Here rather than in sort/: the CPU cases above already instantiate hipamp::sort of u32 keys
// in the default order, GPU paths included (nvcc compiles them for every sort call).
void gpu_dispatch_vs_radix(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  device_case<std::uint32_t> c(av, random_keys(n, 9));
  cub_temp temp;
  cub_radix_sort_u32 radix_sort(c, temp);
  double dispatch = 0, radix = 0;
  for (auto _ : state) {
    const hipamp::array_view<std::uint32_t, 1> view(c.data);
    dispatch = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::sort(av, view); });
    radix = radix_sort.median_ms();
  }
  if (!c.sorted(std::less<std::uint32_t>())) state.SkipWithError("dispatch result unsorted");
  report(state, dispatch, radix);
}

BENCHMARK(gpu_dispatch_vs_radix)->Apply(gpu_sizes);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA

BENCHMARK_MAIN();
