// The double-precision GPU GEMM (CUDA or HIP builds): FP64 FMA, no tensor cores.
#include "gemm_gpu_launch.hpp"

namespace hipamp::detail::gpu {
namespace {

const std::vector<gemm::config_entry<double>>& table() {
  static const std::vector<gemm::config_entry<double>> configs =
      gemm::make_table(gemm::double_configs{});
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
