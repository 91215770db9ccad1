// parallel_for_each: runs a kernel once per point of a compute domain (C++ AMP 1.2, ch. 3).
// The launch is asynchronous on a GPU and looks synchronous: host access to any data the
// kernel wrote waits for it.
#pragma once

#include <string>
#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/detail/launch_scope.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/fallback/simple_executor.hpp>
#include <hipamp/index.hpp>

#if HIPAMP_GPU_TRANSLATION_UNIT
#include <hipamp/backend/gpu/launch.hpp>
#endif

// NOLINTNEXTLINE(modernize-concat-nested-namespaces): C++17 cannot concatenate an inline one
namespace hipamp {
namespace detail {
inline namespace HIPAMP_ALGORITHMS_ABI {

template <int N>
void check_compute_domain(const extent<N>& domain) {
  for (int d = 0; d < N; ++d) {
    if (domain[d] <= 0) {
      throw invalid_compute_domain("hipamp: parallel_for_each over extent " + to_string(domain) +
                                   ": dimension " + std::to_string(d) + " is " +
                                   std::to_string(domain[d]) +
                                   ", every dimension must be positive");
    }
  }
}

// C++ AMP's auto-selection (parallel_for_each without an accelerator_view) picks the default
// accelerator. A translation unit compiled by a host compiler can run kernels only on the CPU
// device, so there auto-selection picks the CPU device rather than fail on the GPU.
inline accelerator_view auto_selection_view() {
#if HIPAMP_GPU_TRANSLATION_UNIT || HIPAMP_BACKEND_CPU
  return accelerator::get_auto_selection_view();
#else
  accelerator_view preferred = accelerator::get_auto_selection_view();
  if (preferred.runs_on_cpu()) return preferred;
  return accelerator(accelerator::cpu_accelerator).get_default_view();
#endif
}

// A host-compiled unit cannot launch on a GPU. Checked before the launch scope opens, so the
// refusal moves no data and leaves every view's copies as they were.
inline void check_launchable_here(const accelerator_view& av) {
#if !HIPAMP_GPU_TRANSLATION_UNIT
  if (!av.runs_on_cpu()) {
    throw unsupported_feature(
        "hipamp: this translation unit was compiled by a host compiler, so it cannot launch on "
        "the GPU accelerator; " HIPAMP_HOST_UNIT_FIX);
  }
#else
  (void)av;
#endif
}

template <int N, class Kernel>
event_ptr launch_simple(const accelerator_view& av, const extent<N>& domain, const Kernel& kernel) {
  if (av.runs_on_cpu()) {
    fallback::run_simple(domain, kernel, fallback::cpu_options_of(av.queue()));
    return ready_event();
  }
#if HIPAMP_GPU_TRANSLATION_UNIT
  return gpu::launch_simple(av, domain, kernel);
#else
  throw unsupported_feature(
      "hipamp: this translation unit was compiled by a host compiler, so it cannot launch on the "
      "GPU accelerator; " HIPAMP_HOST_UNIT_FIX);
#endif
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail

inline namespace HIPAMP_ALGORITHMS_ABI {

template <int N, class Kernel>
void parallel_for_each(const accelerator_view& av, const extent<N>& domain, const Kernel& kernel) {
  static_assert(
      std::is_invocable<const Kernel&, index<N>>::value,
      "hipamp: the kernel must be callable with hipamp::index<N> for an extent<N> domain");
  detail::check_compute_domain(domain);
  detail::check_launchable_here(av);
  detail::launch_scope scope(av.queue());
  // The copy is the point: every captured array_view binds itself to av here.
  // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
  const Kernel bound = kernel;
  scope.close();
  scope.complete(detail::launch_simple(av, domain, bound));
}

template <int N, class Kernel>
void parallel_for_each(const extent<N>& domain, const Kernel& kernel) {
  parallel_for_each(detail::auto_selection_view(), domain, kernel);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
