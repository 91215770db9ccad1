// bench_sort, GPU: stable_sort with a comparator (the stable merge sort: block merge sort
// tiles, stable merges) against CUB's stable merge sort with the same comparator, on
// u32 keys and on the paper's user type sorted by y.
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

template <class T, class Less>
void stable_vs_cub(benchmark::State& state, const std::vector<T>& input, Less less) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = input.size();
  device_case<T> c(av, input);
  cub_temp temp;
  std::size_t bytes = 0;
  BENCH_GPU_CHECK(cub::DeviceMergeSort::StableSortKeys(
      nullptr, bytes, c.raw, static_cast<std::int64_t>(n), less, c.stream));
  temp.reserve(bytes);
  double hipamp_ms = 0, cub_ms = 0;
  for (auto _ : state) {
    const hipamp::array_view<T, 1> view(c.data);
    hipamp_ms = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::stable_sort(av, view, less); });
    cub_ms = gpu_median_ms(
        c.stream, [&] { c.restore_raw(); },
        [&] {
          std::size_t b = bytes;
          BENCH_GPU_CHECK(cub::DeviceMergeSort::StableSortKeys(
              temp.ptr, b, c.raw, static_cast<std::int64_t>(n), less, c.stream));
        });
  }
  // Stability checked against std::stable_sort of the same input.
  std::vector<T> expected = input;
  std::stable_sort(expected.begin(), expected.end(), less);
  const std::vector<T> out = c.data;
  if (std::memcmp(out.data(), expected.data(), n * sizeof(T)) != 0)
    state.SkipWithError("stable_sort result differs from std::stable_sort");
  report(state, hipamp_ms, cub_ms);
}

// Keys with few distinct values in the high bits so ties are common and stability matters.
struct by_high_u32 {
  HIPAMP_HOST_DEVICE bool operator()(const std::uint32_t& a, const std::uint32_t& b) const {
    return (a >> 8) < (b >> 8);
  }
};

void gpu_stable_sort_vs_cub_u32(benchmark::State& state) {
  stable_vs_cub(state, random_keys(static_cast<std::size_t>(state.range(0)), 7), by_high_u32{});
}
void gpu_stable_sort_vs_cub_paper_type(benchmark::State& state) {
  stable_vs_cub(state, paper_input(static_cast<std::size_t>(state.range(0))), by_y{});
}

BENCHMARK(gpu_stable_sort_vs_cub_u32)->Apply(gpu_sizes);
BENCHMARK(gpu_stable_sort_vs_cub_paper_type)->Apply(gpu_sizes);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
