// bench_sort, GPU: the tile-shape sweep, second half (see bench_sort_shapes_a.cpp).
#include "sort_bench.hpp"

#if HIPAMP_BENCH_CUDA
namespace bench_sort_gpu {

BENCHMARK_TEMPLATE(gpu_bitonic_shape, 5, 14)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 4, 13)->Apply(shape_sizes);
BENCHMARK_TEMPLATE(gpu_bitonic_shape, 3, 12)->Apply(shape_sizes);

}  // namespace bench_sort_gpu
#endif  // HIPAMP_BENCH_CUDA
