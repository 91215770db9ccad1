// Emulation: the simple and tiled models on the emulated GPU run on the host (its memory is
// host memory), through the CPU device's executors.
#pragma once
#include <hipamp/accelerator.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/fallback/simple_executor.hpp>
#include <hipamp/tiled_extent.hpp>
namespace hipamp::fallback::detail {
template <int D0, int D1, int D2, class Kernel>
void run_tiled(const tiled_extent<D0, D1, D2>& domain, const Kernel& kernel);
}  // namespace hipamp::fallback::detail
namespace hipamp::detail::gpu {
template <int N, class Kernel>
event_ptr launch_simple(const accelerator_view&, const extent<N>& domain, const Kernel& kernel) {
  fallback::run_simple(domain, kernel);
  return ready_event();
}
template <int D0, int D1, int D2, class Kernel>
event_ptr launch_tiled(const accelerator_view&, const tiled_extent<D0, D1, D2>& domain,
                       const Kernel& kernel) {
  fallback::detail::run_tiled(domain, kernel);
  return ready_event();
}
}  // namespace hipamp::detail::gpu
