// Emulation: the simple and tiled models on the emulated GPU run on the host (its memory is
// host memory), through the CPU device's executors.
#pragma once
#include <hipamp/accelerator.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/fallback/simple_executor.hpp>
#include <hipamp/fallback/tiled_executor.hpp>
#include <hipamp/tiled_extent.hpp>
namespace hipamp::detail::gpu {
template <int N, class Kernel>
event_ptr launch_simple(const device_target&, const extent<N>& domain, const Kernel& kernel) {
  fallback::run_simple(domain, kernel);
  return ready_event();
}
template <int D0, int D1, int D2, class Kernel>
event_ptr launch_tiled(const device_target&, const tiled_extent<D0, D1, D2>& domain,
                       const Kernel& kernel) {
  fallback::detail::run_tiled(domain, kernel);
  return ready_event();
}
}  // namespace hipamp::detail::gpu
