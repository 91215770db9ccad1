// parallel_for_each: runs a kernel once per point of a compute domain (C++ AMP 1.2, ch. 3).
// The launch is asynchronous on a GPU and looks synchronous: host access to any data the
// kernel wrote waits for it.
#pragma once

#include <type_traits>

#include <hipamp/accelerator.hpp>
#include <hipamp/detail/launch.hpp>
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

// C++ AMP gives every work-item its own copy of the kernel object, so a `mutable` kernel
// lambda may change what it captured by value. hipamp's executors share one const kernel (one
// copy per thread on the CPU device, one per launch on a GPU), so a kernel callable only as
// non-const runs through this wrapper: each work-item starts from a fresh copy of the
// captures, as on a C++ AMP accelerator. Const kernels never pay for it.
template <class Kernel>
struct per_work_item_copy {
  Kernel kernel;
  template <class Index>
  HIPAMP_HOST_DEVICE void operator()(const Index& idx) const {
    Kernel own = kernel;
    own(idx);
  }
};

// True for a kernel that only a mutable call operator makes callable with `Index`.
template <class Kernel, class Index>
constexpr bool needs_own_copy =
    !std::is_invocable<const Kernel&, Index>::value && std::is_invocable<Kernel&, Index>::value;

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace detail

inline namespace HIPAMP_ALGORITHMS_ABI {

template <int N, class Kernel>
void parallel_for_each(const accelerator_view& av, const extent<N>& domain, const Kernel& kernel) {
  if constexpr (detail::needs_own_copy<Kernel, index<N>>) {
    parallel_for_each(av, domain, detail::per_work_item_copy<Kernel>{kernel});
  } else {
    static_assert(
        std::is_invocable<const Kernel&, index<N>>::value,
        "hipamp: the kernel must be callable with hipamp::index<N> for an extent<N> domain");
    detail::check_compute_domain(domain);
    detail::launch_kernel(
        av, "parallel_for_each",
        [&](const auto& on, const Kernel& bound) { return launch_simple(on, domain, bound); },
        kernel);
  }
}

template <int N, class Kernel>
void parallel_for_each(const extent<N>& domain, const Kernel& kernel) {
  parallel_for_each(detail::auto_selection_view(), domain, kernel);
}

}  // namespace HIPAMP_ALGORITHMS_ABI
}  // namespace hipamp
