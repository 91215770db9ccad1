// The one place that names the vendor runtime for code compiled as CUDA or HIP. Every GPU
// source in hipamp is written in the HIP kernel language (== the CUDA kernel language) and
// reaches runtime calls only through the names below, so one source serves both toolchains.
// Include only from GPU translation units (HIPAMP_GPU_TRANSLATION_UNIT).
#pragma once

#include <string>

#include <hipamp/config.hpp>
#include <hipamp/detail/backend.hpp>
#include <hipamp/exceptions.hpp>

#if !HIPAMP_GPU_TRANSLATION_UNIT
#error "hipamp/backend/gpu/kernel_language.hpp needs a CUDA or HIP compiler"
#endif

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define HIPAMP_GPU_API_PREFIX "hip"
#else
#include <cuda_runtime.h>
#define HIPAMP_GPU_API_PREFIX "cuda"
#endif

namespace hipamp::detail::gpu {

#if defined(__HIPCC__)
using stream_t = hipStream_t;
using error_t = hipError_t;
inline constexpr error_t success = hipSuccess;
inline const char* error_string(error_t e) noexcept { return hipGetErrorString(e); }
inline error_t last_error() noexcept { return hipGetLastError(); }
inline error_t gpu_get_device(int* device) noexcept { return hipGetDevice(device); }
// Lets `kernel` launch with up to `bytes` of dynamic shared memory (above the default 48 KiB).
template <class Kernel>
error_t gpu_allow_dynamic_shared(Kernel* kernel, int bytes) noexcept {
  return hipFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                             hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
inline constexpr int warp_size_max = 64;  // wavefronts are 32 or 64 wide on AMD
#else
using stream_t = cudaStream_t;
using error_t = cudaError_t;
inline constexpr error_t success = cudaSuccess;
inline const char* error_string(error_t e) noexcept { return cudaGetErrorString(e); }
inline error_t last_error() noexcept { return cudaGetLastError(); }
inline error_t gpu_get_device(int* device) noexcept { return cudaGetDevice(device); }
// Lets `kernel` launch with up to `bytes` of dynamic shared memory (above the default 48 KiB).
template <class Kernel>
error_t gpu_allow_dynamic_shared(Kernel* kernel, int bytes) noexcept {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
inline constexpr int warp_size_max = 32;
#endif

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

// HIPAMP_GPU_CHECK(cudaMemcpyAsync(...)) — throws runtime_exception / out_of_memory /
// accelerator_view_removed with the backend's message and the call's text.
#define HIPAMP_GPU_CHECK(call) ::hipamp::detail::gpu::check((call), #call)
// After a <<< >>> launch: reports a launch failure (bad configuration, too many threads).
#define HIPAMP_GPU_CHECK_LAUNCH(what) \
  ::hipamp::detail::gpu::check(::hipamp::detail::gpu::last_error(), what)
