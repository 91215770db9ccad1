// bench_sort, GPU: the tile-shape sweep, second half (see bench_sort_shapes_a.cpp).
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 14)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 4, 13)->Apply(shape_sizes);
// With the passes chained, <4, 13> led at 2^20 (H100, 515606b: 0.0878 ms against 0.0947 for
// <5, 13>, 1.45 / 1.94 ms at 2^24): the sizes around it, for a size-dependent network shape.
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 4, 13)->Apply(shape_sizes_near_2p20);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 3, 12)->Apply(shape_sizes);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
