// The single-precision GPU GEMM (CUDA or HIP builds): FP32 FMA only, no TF32 or tensor cores.
#include "gemm_gpu_launch.hpp"

namespace hipamp::detail::gpu {
namespace {

using namespace gemm;  // NOLINT: the kernel's own namespace

// <T, BM, BN, BK, WARP_ROWS, RM, RN, MIN_BLOCKS>. Threads hold 8x8 (RM = RN = 2 vectors of 4)
// or 8x16 accumulators; warps 32x64 or 32x128 tiles of C.
using f32_128x128x8 = tile_config<float, 128, 128, 8, 4, 2, 2, 2>;
using f32_128x256x8 = tile_config<float, 128, 256, 8, 4, 2, 4, 1>;
using f32_128x128x16 = tile_config<float, 128, 128, 16, 4, 2, 2, 1>;
using f32_64x64x16 = tile_config<float, 64, 64, 16, 4, 1, 2, 4>;

const std::vector<config_entry<float>>& table() {
  static const std::vector<config_entry<float>> configs = {
      entry<f32_128x128x8>(), entry<f32_128x256x8>(), entry<f32_128x128x16>(),
      entry<f32_64x64x16>()};
  return configs;
}

}  // namespace

const std::vector<gemm_config_info>& gemm_configs_float() {
  static const std::vector<gemm_config_info> configs = gemm::infos(table());
  return configs;
}

int gemm_pick_config(const gemm_problem<float>& problem, int device) {
  return gemm::pick(problem, device, table());
}

void gemm_launch(const gemm_problem<float>& problem, void* stream, int device, int config) {
  gemm::run(problem, stream, device, config, table());
}

}  // namespace hipamp::detail::gpu
