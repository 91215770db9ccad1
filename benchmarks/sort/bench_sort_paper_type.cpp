// bench_sort, GPU: the paper's user type sorted by one member, against CUB's merge sort and
// a radix sort of (key, element) pairs.
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

void gpu_sort_vs_cub_merge_sort_paper_type(benchmark::State& state) {
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
  BENCH_GPU_CHECK(cub::DeviceMergeSort::SortKeys(nullptr, merge_bytes, c.raw,
                                                 static_cast<std::int64_t>(n), by_y{}, c.stream));
  BENCH_GPU_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, radix_bytes, keys.raw_in, keys.raw,
                                                  c.raw_in, c.raw, static_cast<int>(n), 0, 32,
                                                  c.stream));
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
          BENCH_GPU_CHECK(cub::DeviceMergeSort::SortKeys(
              temp.ptr, bytes, c.raw, static_cast<std::int64_t>(n), by_y{}, c.stream));
        });
    radix = gpu_median_ms(
        c.stream, [] {},
        [&] {
          std::size_t bytes = radix_bytes;
          BENCH_GPU_CHECK(cub::DeviceRadixSort::SortPairs(temp.ptr, bytes, keys.raw_in, keys.raw,
                                                          c.raw_in, c.raw, static_cast<int>(n), 0,
                                                          32, c.stream));
        });
  }
  if (!c.sorted(by_y{})) state.SkipWithError("sort result unsorted");
  report(state, bitonic, merge);
  state.counters["radix_ms"] = radix;
}

BENCHMARK(gpu_sort_vs_cub_merge_sort_paper_type)->Apply(gpu_sizes);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
