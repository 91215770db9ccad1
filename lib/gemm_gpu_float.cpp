// The single-precision GPU GEMM (CUDA or HIP builds): FP32 FMA only, no TF32 or tensor cores.
#include "gemm_gpu_launch.hpp"

namespace hipamp::detail::gpu {
namespace {

const std::vector<gemm::config_entry<float>>& table() {
  static const std::vector<gemm::config_entry<float>> configs =
      gemm::make_table(gemm::float_configs{});
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
