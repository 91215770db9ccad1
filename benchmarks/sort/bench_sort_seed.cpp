// bench_sort, GPU: the seed's benchmark, 2^23 ints sorted by the bitonic path (a comparator)
// and by hipamp::sort's default dispatch (two int sort instantiations of their own).
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

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

BENCHMARK(gpu_seed_8388608_ints)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
