// bench_sort, GPU: the merge sort's tile stage compared on raw device buffers (the sweep behind
// default_block_sort in tuning_sort.hpp): bitonic tiles (2^13 for 4-byte keys, 2^11 for the
// paper's 12-byte type; one merge pass fewer) against the block merge sort's tiles (one merge
// block: 4096 / 2048), both followed by the same merge passes, beside CUB's merge sort.
// The u32 case also runs without merge_partition_kernel (tuning_sort.hpp's
// merge_partition_min_blocks). Run with --benchmark_filter=gpu_merge_sort_tiles.
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

template <class T, class Less, hipamp::detail::gpu::sort_kernels::block_sort Tiles,
          bool Partition = true>
void merge_sort_tiles(benchmark::State& state, const std::vector<T>& input, Less less) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  namespace gk = hipamp::detail::gpu::sort_kernels;
  const std::size_t n = input.size();
  device_case<T> c(av, input);
  device_buffer scratch(n * sizeof(T));
  device_buffer splits(std::size_t(gk::merge_split_count<T>(
                           static_cast<unsigned>(n), gk::merge_sort_tile<T, false, Tiles>())) *
                       sizeof(unsigned));
  cub_temp temp;
  std::size_t bytes = 0;
  BENCH_GPU_CHECK(cub::DeviceMergeSort::SortKeys(nullptr, bytes, c.raw,
                                                 static_cast<std::int64_t>(n), less, c.stream));
  temp.reserve(bytes);
  const auto run = [&] {
    gk::merge_sort<T, false, Tiles>(c.raw, scratch.as<T>(), splits.as<unsigned>(),
                                    static_cast<unsigned>(n), less, c.stream,
                                    Partition ? gk::merge_partition_min_blocks : ~0u);
  };
  double ours = 0, cub_ms = 0;
  for (auto _ : state) {
    ours = gpu_median_ms(
        c.stream, [&] { c.restore_raw(); }, run);
    cub_ms = gpu_median_ms(
        c.stream, [&] { c.restore_raw(); },
        [&] {
          std::size_t b = bytes;
          BENCH_GPU_CHECK(cub::DeviceMergeSort::SortKeys(
              temp.ptr, b, c.raw, static_cast<std::int64_t>(n), less, c.stream));
        });
  }
  c.restore_raw();
  run();
  BENCH_GPU_CHECK(vendor::stream_synchronize(c.stream));
  std::vector<T> out(n);
  BENCH_GPU_CHECK(vendor::copy(out.data(), c.raw, n * sizeof(T), vendor::device_to_host));
  if (!std::is_sorted(out.begin(), out.end(), less)) state.SkipWithError("result unsorted");
  report(state, ours, cub_ms);
}

template <hipamp::detail::gpu::sort_kernels::block_sort Tiles, bool Partition = true>
void gpu_merge_sort_tiles_u32(benchmark::State& state) {
  merge_sort_tiles<std::uint32_t, less_u32, Tiles, Partition>(
      state, random_keys(static_cast<std::size_t>(state.range(0)), 7), less_u32{});
}
template <hipamp::detail::gpu::sort_kernels::block_sort Tiles>
void gpu_merge_sort_tiles_paper_type(benchmark::State& state) {
  merge_sort_tiles<paper_type, by_y, Tiles>(
      state, paper_input(static_cast<std::size_t>(state.range(0))), by_y{});
}
inline void tile_sizes(benchmark::internal::Benchmark* b) {
  b->Arg(1 << 16)->Arg(1 << 20)->Arg(1 << 24)->Arg(1 << 26)->Iterations(1)->Unit(
      benchmark::kMillisecond);
}

using hipamp::detail::gpu::sort_kernels::block_sort;
BENCHMARK_TEMPLATE(gpu_merge_sort_tiles_u32, block_sort::bitonic)->Apply(tile_sizes);
BENCHMARK_TEMPLATE(gpu_merge_sort_tiles_u32, block_sort::merge)->Apply(tile_sizes);
// Every pass searching its splits in its blocks (no merge_partition_kernel).
BENCHMARK_TEMPLATE(gpu_merge_sort_tiles_u32, block_sort::bitonic, false)->Apply(tile_sizes);
BENCHMARK_TEMPLATE(gpu_merge_sort_tiles_paper_type, block_sort::bitonic)->Apply(tile_sizes);
BENCHMARK_TEMPLATE(gpu_merge_sort_tiles_paper_type, block_sort::merge)->Apply(tile_sizes);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
