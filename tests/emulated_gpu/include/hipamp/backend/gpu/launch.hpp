// Emulation: the simple model on the emulated GPU runs on the host (its memory is host memory).
#pragma once
#include <hipamp/accelerator.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/fallback/simple_executor.hpp>
namespace hipamp::detail::gpu {
template <int N, class Kernel>
event_ptr launch_simple(const accelerator_view&, const extent<N>& domain, const Kernel& kernel) {
  fallback::run_simple(domain, kernel);
  return ready_event();
}
}  // namespace hipamp::detail::gpu
