// The GPU GEMM's tuning (backend/gpu/gemm_kernels.hpp, lib/gemm_gpu_*.cpp): which tile
// configurations libhipamp compiles, in the order the picker prefers them. Kept apart from
// the kernels so a sweep or a new GPU changes this file only (CUB's tuning_*.cuh).
#pragma once

#include <hipamp/backend/gpu/gemm_kernels.hpp>

namespace hipamp::detail::gpu::gemm {

template <class... Configs>
struct config_list {};

// The configurations libhipamp compiles, in the order the picker prefers them for problems
// that fill the device (largest tiles first; the last one serves small problems):
// <T, BM, BN, BK, WARP_ROWS, RM, RN, MIN_BLOCKS>. float threads hold 8x8 or 8x16
// accumulators (warp tiles 32x64 or 32x128); a 16-byte vector holds 2 doubles, so double
// threads hold 4x8, 4x4 or 2x8. With nvcc 13 for sm_90 none of them spills (MIN_BLOCKS 2
// caps registers at 128; 1 leaves the compiler free).
// Largest tiles first, as the picker expects: on an H200 at 4096^3 the 128x256x8 tile reached
// 0.87x cuBLAS and 128x128x8 0.80x (benchmarks/results/).
using float_configs = config_list<
    tile_config<float, 128, 256, 8, 4, 2, 4, 1>, tile_config<float, 128, 128, 8, 4, 2, 2, 2>,
    tile_config<float, 128, 128, 16, 4, 2, 2, 1>, tile_config<float, 64, 64, 16, 4, 1, 2, 4>>;
using double_configs = config_list<tile_config<double, 64, 128, 8, 4, 2, 4, 1>,
                                   tile_config<double, 64, 64, 8, 4, 2, 2, 2>,
                                   tile_config<double, 32, 64, 8, 4, 1, 4, 4>>;

}  // namespace hipamp::detail::gpu::gemm
