// What every GPU source of hipamp builds on: the vendor's names (vendor.hpp picks
// vendor/cuda.hpp or vendor/hip.hpp), error checks, and what a launch asks the runtime. GPU
// sources are written in the HIP kernel language (== the CUDA kernel language) and reach the
// runtime only through gpu::vendor and the names below, so one source serves both toolchains.
// Include only from GPU translation units (HIPAMP_GPU_TRANSLATION_UNIT).
#pragma once

#include <string>

#include <hipamp/config.hpp>
#include <hipamp/detail/backend.hpp>
#include <hipamp/exceptions.hpp>

#if !HIPAMP_GPU_TRANSLATION_UNIT
#error "hipamp/backend/gpu/kernel_language.hpp needs a CUDA or HIP compiler"
#endif

#include <hipamp/backend/gpu/vendor.hpp>

namespace hipamp {
class accelerator_view;
}

namespace hipamp::detail::gpu {

// A GPU as the launch protocol (detail/launch.hpp) hands it to an entry point's body. Every
// GPU function an entry point calls takes it first — launch_simple(on, ...), sort_rows(on, ...),
// reduce(on, ...) — so argument-dependent lookup finds this room's implementation.
struct device_target {
  const accelerator_view& view;
};

using vendor::error_t;
using vendor::stream_t;
using vendor::success;
using vendor::warp_size_max;
inline const char* error_string(error_t e) noexcept { return vendor::error_string(e); }
inline error_t last_error() noexcept { return vendor::last_error(); }
inline error_t gpu_get_device(int* device) noexcept { return vendor::get_device(device); }
// Chained launches (vendor::launch_chained) and their kernels' side of the chain.
using vendor::release_next_grid;
using vendor::wait_for_prior_grid;
// Lets `kernel` launch with up to `bytes` of dynamic shared memory (above the default 48 KiB).
template <class Kernel>
error_t gpu_allow_dynamic_shared(Kernel* kernel, int bytes) noexcept {
  return vendor::allow_dynamic_shared(kernel, bytes);
}

// Throws the hipamp exception that matches a failed runtime call, naming the call:
// out_of_memory for allocations, accelerator_view_removed once the device's context is lost
// (a kernel fault, a lost device), runtime_exception otherwise. Defined in lib/gpu_runtime.cpp.
[[noreturn]] void throw_error(error_t error, const char* what);

inline void check(error_t error, const char* what) {
  if (error != success) throw_error(error, what);
}

// What a kernel launch on a queue needs, read once per launch from the runtime (cached there).
struct launch_target {
  stream_t stream{};
  int max_threads_per_tile = 0;  // the device's maxThreadsPerBlock
};
// Makes the queue's device current (on multi-GPU machines) and returns its stream and limits.
// `queue` must belong to a GPU accelerator.
launch_target prepare_launch(queue_impl& queue);
// Throws for a failed launch, naming its shape (a bad configuration, too many resources).
[[noreturn]] void throw_launch_error(error_t error, const char* model, unsigned long long blocks,
                                     unsigned threads_per_block);

}  // namespace hipamp::detail::gpu

// HIPAMP_GPU_CHECK(vendor::copy_to_device_async(...)) — throws runtime_exception / out_of_memory /
// accelerator_view_removed with the backend's message and the call's text.
#define HIPAMP_GPU_CHECK(call) ::hipamp::detail::gpu::check((call), #call)
// After a <<< >>> launch: reports a launch failure (bad configuration, too many threads).
#define HIPAMP_GPU_CHECK_LAUNCH(what) \
  ::hipamp::detail::gpu::check(::hipamp::detail::gpu::last_error(), what)
