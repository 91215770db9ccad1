// The double-precision GPU GEMM (CUDA or HIP builds): FP64 FMA, no tensor cores.
#include "gemm_gpu_launch.hpp"

namespace hipamp::detail::gpu {
namespace {

using namespace gemm;  // NOLINT: the kernel's own namespace

// <T, BM, BN, BK, WARP_ROWS, RM, RN, MIN_BLOCKS>: 16-byte vectors hold 2 doubles, so threads
// hold 4x8 (RM = 2, RN = 4), 4x4 or 2x8 accumulators (64, 32 or 32 registers' worth).
using f64_64x128x8 = tile_config<double, 64, 128, 8, 4, 2, 4, 1>;
using f64_64x64x8 = tile_config<double, 64, 64, 8, 4, 2, 2, 2>;
using f64_32x64x8 = tile_config<double, 32, 64, 8, 4, 1, 4, 4>;

const std::vector<config_entry<double>>& table() {
  static const std::vector<config_entry<double>> configs = {
      entry<f64_64x128x8>(), entry<f64_64x64x8>(), entry<f64_32x64x8>()};
  return configs;
}

}  // namespace

const std::vector<gemm_config_info>& gemm_configs_double() {
  static const std::vector<gemm_config_info> configs = gemm::infos(table());
  return configs;
}

int gemm_pick_config(const gemm_problem<double>& problem, int device) {
  return gemm::pick(problem, device, table());
}

void gemm_launch(const gemm_problem<double>& problem, void* stream, int device, int config) {
  gemm::run(problem, stream, device, config, table());
}

}  // namespace hipamp::detail::gpu
