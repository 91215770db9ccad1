// The GPU GEMM compiled into libhipamp in CUDA and HIP builds (lib/gemm_gpu_*.cpp), callable
// from any translation unit: hipamp::gemm reaches it through detail::run_gemm; benchmarks
// call gemm_launch with an explicit configuration to compare the tile shapes.
#pragma once

#include <string>
#include <vector>

#include <hipamp/algorithm/gemm/problem.hpp>
#include <hipamp/config.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/accelerator.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#endif

namespace hipamp::detail::gpu {

struct gemm_config_info {
  std::string name;  // "128x128x8": block tile M x N x K
  int block_m = 0;
  int block_n = 0;
  int block_k = 0;
  int threads = 0;
};

// The tile configurations compiled in, in the order the picker prefers them when the
// problem is large enough to fill the device with them.
const std::vector<gemm_config_info>& gemm_configs_float();
const std::vector<gemm_config_info>& gemm_configs_double();

// The configuration the picker chooses for this problem on GPU `device`.
int gemm_pick_config(const gemm_problem<float>& problem, int device);
int gemm_pick_config(const gemm_problem<double>& problem, int device);

// Enqueues C = alpha * op(A) * op(B) + beta * C on `stream` (a cudaStream_t / hipStream_t) of
// GPU `device`; the pointers are device memory. config < 0: the picker chooses.
void gemm_launch(const gemm_problem<float>& problem, void* stream, int device, int config = -1);
void gemm_launch(const gemm_problem<double>& problem, void* stream, int device, int config = -1);

#if HIPAMP_GPU_TRANSLATION_UNIT
// A GPU's side of the gemm dispatch (lib/gemm.cpp, compiled as CUDA or HIP): queued on the
// view's stream.
template <class T>
event_ptr gemm_on(const device_target& on, const gemm_problem<T>& problem) {
  queue_impl& queue = on.view.queue();
  gemm_launch(problem, queue.native_handle(), queue.device().properties().ordinal);
  return queue.record();
}
#endif

}  // namespace hipamp::detail::gpu
