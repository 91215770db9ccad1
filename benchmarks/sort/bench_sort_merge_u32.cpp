// bench_sort, GPU: hipamp::sort on u32 keys with a comparator (tiles, then merge passes) and
// hipamp::bitonic_sort (the network at every size) against CUB's merge sort, and the cost of
// one key past a power of two for both.
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

void gpu_sort_vs_cub_merge_sort_u32(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  device_case<std::uint32_t> c(av, random_keys(n, 7));
  cub_temp temp;
  cub_merge_sort_u32 merge_sort(c, temp);
  cub_radix_sort_u32 radix_sort(c, temp);
  double bitonic = 0, merge = 0, radix = 0;
  for (auto _ : state) {
    const hipamp::array_view<std::uint32_t, 1> view(c.data);
    bitonic = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::sort(av, view, less_u32{}); });
    merge = merge_sort.median_ms();
    radix = radix_sort.median_ms();
  }
  if (!c.sorted(std::less<std::uint32_t>())) state.SkipWithError("sort result unsorted");
  report(state, bitonic, merge);
  state.counters["radix_ms"] = radix;
}

void gpu_bitonic_sort_vs_cub_merge_sort_u32(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  device_case<std::uint32_t> c(av, random_keys(n, 7));
  cub_temp temp;
  cub_merge_sort_u32 merge_sort(c, temp);
  double network = 0, merge = 0;
  for (auto _ : state) {
    const hipamp::array_view<std::uint32_t, 1> view(c.data);
    network = gpu_median_ms(
        c.stream, [&] { c.restore(); }, [&] { hipamp::bitonic_sort(av, view, less_u32{}); });
    merge = merge_sort.median_ms();
  }
  if (!c.sorted(std::less<std::uint32_t>())) state.SkipWithError("bitonic_sort result unsorted");
  report(state, network, merge);
}

// hipamp::bitonic_sort's network (the same kernels: u32 by less_u32 through copy_memory) on the
// raw buffer with its passes launched chained (network_chained_launches) and plainly, in one
// process, alternating (plain, chained, plain, chained: each a median of 7): hipamp_ms chained,
// peer_ms plain (each the mean of its two medians; speedup = plain / chained), CUB's merge sort
// beside.
void gpu_bitonic_chained_vs_plain(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  device_case<std::uint32_t> c(av, random_keys(n, 7));
  namespace gk = hipamp::detail::gpu::sort_kernels;
  namespace bn = hipamp::detail::bitonic;
  const bn::layout lay = bn::make_layout(static_cast<unsigned>(n), 1, n);
  const bn::copy_memory<std::uint32_t> mem{c.raw, c.raw, lay};
  using shape = gk::default_tile_shape<std::uint32_t>;
  cub_temp temp;
  cub_merge_sort_u32 merge_sort(c, temp);
  double chained[2] = {}, plain[2] = {}, merge = 0;
  for (auto _ : state) {
    for (int round = 0; round < 2; ++round) {
      plain[round] = gpu_median_ms(
          c.stream, [&] { c.restore_raw(); },
          [&] { gk::run_network<std::uint32_t, shape, false>(mem, lay, less_u32{}, c.stream); });
      chained[round] = gpu_median_ms(
          c.stream, [&] { c.restore_raw(); },
          [&] { gk::run_network<std::uint32_t, shape, true>(mem, lay, less_u32{}, c.stream); });
    }
    merge = merge_sort.median_ms();
  }
  for (const bool chained_run : {false, true}) {
    c.restore_raw();
    if (chained_run) {
      gk::run_network<std::uint32_t, shape, true>(mem, lay, less_u32{}, c.stream);
    } else {
      gk::run_network<std::uint32_t, shape, false>(mem, lay, less_u32{}, c.stream);
    }
    std::vector<std::uint32_t> out(n);
    BENCH_GPU_CHECK(vendor::stream_synchronize(c.stream));
    BENCH_GPU_CHECK(
        vendor::copy(out.data(), c.raw, n * sizeof(std::uint32_t), vendor::device_to_host));
    if (!std::is_sorted(out.begin(), out.end())) {
      return state.SkipWithError(chained_run ? "chained network unsorted"
                                             : "plain network unsorted");
    }
  }
  const double chained_ms = (chained[0] + chained[1]) / 2, plain_ms = (plain[0] + plain[1]) / 2;
  report(state, chained_ms, plain_ms);
  state.counters["chained_ms_1"] = chained[0];
  state.counters["chained_ms_2"] = chained[1];
  state.counters["plain_ms_1"] = plain[0];
  state.counters["plain_ms_2"] = plain[1];
  state.counters["cub_merge_ms"] = merge;
  state.counters["chained_vs_cub"] = merge / chained_ms;
}

// hipamp::sort's merge sort of u32 by less_u32 (the same kernels, called as the library calls
// them, with samples) with its bitonic tile pass launched chained (network_chained_launches) and
// plainly, alternating as gpu_bitonic_chained_vs_plain does: hipamp_ms chained, peer_ms plain.
void gpu_sort_tiles_chained_vs_plain_u32(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  namespace gk = hipamp::detail::gpu::sort_kernels;
  using gk::block_sort;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const unsigned un = static_cast<unsigned>(n);
  device_case<std::uint32_t> c(av, random_keys(n, 7));
  const unsigned tile = gk::merge_sort_tile<std::uint32_t, false>();
  device_buffer scratch(n * sizeof(std::uint32_t));
  device_buffer splits(std::size_t(gk::merge_split_count<std::uint32_t>(un, tile)) *
                       sizeof(unsigned));
  device_buffer samples(2 * std::size_t(gk::merge_sample_count<std::uint32_t>(un, tile, false)) *
                        sizeof(std::uint32_t));
  const auto run = [&](auto chained) {
    gk::merge_sort<std::uint32_t, false, block_sort::bitonic, decltype(chained)::value>(
        c.raw, scratch.as<std::uint32_t>(), splits.as<unsigned>(), un, less_u32{}, c.stream,
        gk::merge_partition_min_blocks, 0, samples.as<std::uint32_t>());
  };
  double chained[2] = {}, plain[2] = {};
  for (auto _ : state) {
    for (int round = 0; round < 2; ++round) {
      plain[round] = gpu_median_ms(
          c.stream, [&] { c.restore_raw(); }, [&] { run(std::false_type{}); });
      chained[round] = gpu_median_ms(
          c.stream, [&] { c.restore_raw(); }, [&] { run(std::true_type{}); });
    }
  }
  std::vector<std::uint32_t> out(n);
  BENCH_GPU_CHECK(vendor::stream_synchronize(c.stream));
  BENCH_GPU_CHECK(
      vendor::copy(out.data(), c.raw, n * sizeof(std::uint32_t), vendor::device_to_host));
  if (!std::is_sorted(out.begin(), out.end())) return state.SkipWithError("result unsorted");
  report(state, (chained[0] + chained[1]) / 2, (plain[0] + plain[1]) / 2);
  state.counters["chained_ms_1"] = chained[0];
  state.counters["chained_ms_2"] = chained[1];
  state.counters["plain_ms_1"] = plain[0];
  state.counters["plain_ms_2"] = plain[1];
}

void gpu_non_power_of_two_cost(benchmark::State& state) {
  hipamp::accelerator_view av = cpu_view();
  if (!find_gpu(av)) return state.SkipWithError("no GPU accelerator");
  const std::size_t n = std::size_t(1) << 20;
  device_case<std::uint32_t> exact(av, random_keys(n, 11));
  device_case<std::uint32_t> one_more(av, random_keys(n + 1, 12));
  double t_exact = 0, t_more = 0, b_exact = 0, b_more = 0;
  for (auto _ : state) {
    const hipamp::array_view<std::uint32_t, 1> a(exact.data), b(one_more.data);
    t_exact = gpu_median_ms(
        exact.stream, [&] { exact.restore(); }, [&] { hipamp::sort(av, a, less_u32{}); });
    t_more = gpu_median_ms(
        one_more.stream, [&] { one_more.restore(); }, [&] { hipamp::sort(av, b, less_u32{}); });
    b_exact = gpu_median_ms(
        exact.stream, [&] { exact.restore(); }, [&] { hipamp::bitonic_sort(av, a, less_u32{}); });
    b_more = gpu_median_ms(
        one_more.stream, [&] { one_more.restore(); },
        [&] { hipamp::bitonic_sort(av, b, less_u32{}); });
  }
  state.counters["ms_2^20"] = t_exact;
  state.counters["ms_2^20+1"] = t_more;
  state.counters["cost_ratio"] = t_more / t_exact;  // sort (merge passes)
  state.counters["bitonic_ms_2^20"] = b_exact;
  state.counters["bitonic_ms_2^20+1"] = b_more;
  state.counters["bitonic_cost_ratio"] = b_more / b_exact;  // issue 18's goal: <= 1.25
}

BENCHMARK(gpu_sort_vs_cub_merge_sort_u32)->Apply(gpu_sizes);
BENCHMARK(gpu_bitonic_sort_vs_cub_merge_sort_u32)
    ->Arg(1 << 16)
    ->Arg(1 << 18)
    ->Arg(1 << 20)
    ->Arg((1 << 20) + 1)
    // A partial last tile of 576 (10^6), 1025, 2049, 4097 and 8191 elements (2^13 tiles);
    // 65, 129 and 257: small fills, which take the steps (below partial_tile_step_reach).
    ->Arg((1 << 20) - 8192 + 65)
    ->Arg((1 << 20) - 8192 + 129)
    ->Arg((1 << 20) - 8192 + 257)
    ->Arg(1000000)
    ->Arg((1 << 20) - 8192 + 1025)
    ->Arg((1 << 20) - 8192 + 2049)
    ->Arg((1 << 20) - 8192 + 4097)
    ->Arg((1 << 20) - 1)
    // Either side of network_small_row_min and _max (tuning_sort.hpp), where the network's
    // shape changes.
    ->Arg(1 << 19)
    ->Arg((1 << 19) + 1)
    ->Arg((1 << 20) + (1 << 15))
    ->Arg((1 << 20) + (1 << 15) + 1)
    ->Arg(1 << 21)
    ->Arg((1 << 21) - 1)  // the default shape's nearly full last tile
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gpu_bitonic_chained_vs_plain)
    ->Arg(1 << 16)
    ->Arg(1 << 18)
    ->Arg(1 << 20)
    ->Arg((1 << 20) + 1)
    ->Arg(1000000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gpu_sort_tiles_chained_vs_plain_u32)
    ->Arg(1 << 16)
    ->Arg(1 << 17)
    ->Arg(1 << 18)
    ->Arg(1 << 20)
    ->Arg(1000000)
    ->Arg(1 << 21)
    ->Arg(1 << 22)
    ->Arg((1 << 24) - 1)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(gpu_non_power_of_two_cost)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
