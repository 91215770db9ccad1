// bench_sort, GPU: the tile-shape sweep, first half (each shape is its own set of network
// kernels, so the six shapes are split over two units).
// On an H200 with the register-round tile kernel, at 2^16 / 2^20 / 2^24 (ms): <5,13> (the
// default for 4-byte keys) 0.057 / 0.116 / 1.68; <5,14> 0.073 / 0.134 / 1.77; <4,13>
// 0.059 / 0.125 / 2.42; <3,12> 0.052 / 0.149 / 2.52. Before it, 2^K = 64 (<6,14>, <6,15>)
// was slower than 32 at every size. On an H100 (benchmarks/results/h100_sweeps_2026-11-21.txt):
// <5,13,3> (3 blocks, 80 registers) 1.90 vs 1.92 ms at 2^24 and slower below; <4,12,4> 0.048
// vs 0.058 ms at 2^16, equal at 2^20, 2.10 ms at 2^24.
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 13)->Apply(shape_sizes);
// The default shape at the sizes <4, 13> is run at in bench_sort_shapes_b.cpp.
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 13)->Apply(shape_sizes_near_2p20);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 13, 3)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 4, 12, 4)->Apply(shape_sizes);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
