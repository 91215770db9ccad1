// The AMD vendor file: every HIP runtime call and device intrinsic hipamp uses, under the names
// of the GPU room (namespace gpu::vendor). Its twin is cuda.hpp, name for name. Included
// through backend/gpu/vendor.hpp in translation units compiled by hipcc / ROCm's clang only.
#pragma once

#include <cstddef>
#include <string>

#include <hip/hip_runtime.h>

// Prefix of the runtime's call names in error messages ("cudaMemcpyAsync failed with ...").
#define HIPAMP_GPU_API_PREFIX "hip"
// Alignment of a __shared__ array.
#define HIPAMP_GPU_SHARED_ALIGN(bytes) __attribute__((aligned(bytes)))

namespace hipamp::detail::gpu::vendor {

using stream_t = hipStream_t;
using error_t = hipError_t;
using event_t = hipEvent_t;
using device_prop_t = hipDeviceProp_t;

inline constexpr error_t success = hipSuccess;
inline constexpr error_t not_ready = hipErrorNotReady;
inline constexpr error_t allocation_failed = hipErrorOutOfMemory;
inline constexpr error_t peer_access_already_enabled = hipErrorPeerAccessAlreadyEnabled;

// ---- errors ---------------------------------------------------------------------------------

inline const char* error_string(error_t e) noexcept { return hipGetErrorString(e); }
inline const char* error_name(error_t e) noexcept { return hipGetErrorName(e); }
inline error_t last_error() noexcept { return hipGetLastError(); }
inline error_t peek_last_error() noexcept { return hipPeekAtLastError(); }

// True for errors after which the device's context cannot run anything in this process:
// kernel faults (illegal address or instruction, device-side assert, launch failure), lost or
// unavailable devices, uncorrectable memory errors.
inline bool is_sticky(error_t e) noexcept {
  switch (e) {
    case hipErrorIllegalAddress:
    case hipErrorLaunchFailure:
    case hipErrorAssert:
    case hipErrorContextIsDestroyed:
    case hipErrorNoDevice:
    case hipErrorInsufficientDriver:
    case hipErrorLaunchTimeOut:
    case hipErrorECCNotCorrectable:
    case hipErrorDeinitialized:
      return true;
    default:
      return false;
  }
}

// ---- devices --------------------------------------------------------------------------------

inline error_t device_count(int* n) noexcept { return hipGetDeviceCount(n); }
inline error_t set_device(int ordinal) noexcept { return hipSetDevice(ordinal); }
inline error_t get_device(int* ordinal) noexcept { return hipGetDevice(ordinal); }
inline error_t device_properties(device_prop_t* p, int ordinal) noexcept {
  return hipGetDeviceProperties(p, ordinal);
}
inline error_t multiprocessor_count(int* n, int ordinal) noexcept {
  return hipDeviceGetAttribute(n, hipDeviceAttributeMultiprocessorCount, ordinal);
}
// Shared memory one block may use once its kernel opts in (allow_dynamic_shared).
inline error_t max_shared_per_block(int* bytes, int ordinal) noexcept {
  return hipDeviceGetAttribute(bytes, hipDeviceAttributeSharedMemPerBlockOptin, ordinal);
}
inline error_t clock_khz(int* n, int ordinal) noexcept {
  return hipDeviceGetAttribute(n, hipDeviceAttributeClockRate, ordinal);
}
inline error_t has_kernel_timeout(int* n, int ordinal) noexcept {
  return hipDeviceGetAttribute(n, hipDeviceAttributeKernelExecTimeout, ordinal);
}
// "gfx90a:sramecc+:xnack-".
inline std::string architecture(const device_prop_t& p) { return p.gcnArchName; }
// Whether `ordinal`'s kernels and copy engines can reach `peer`'s memory directly.
inline error_t can_access_peer(int* can, int ordinal, int peer) noexcept {
  return hipDeviceCanAccessPeer(can, ordinal, peer);
}
// Lets the current device reach `peer`'s memory (one direction).
inline error_t enable_peer_access(int peer) noexcept { return hipDeviceEnablePeerAccess(peer, 0); }
inline error_t memory_info(std::size_t* free_bytes, std::size_t* total_bytes) noexcept {
  return hipMemGetInfo(free_bytes, total_bytes);
}

// ---- kernels --------------------------------------------------------------------------------

// Blocks of `kernel` with `threads` threads and no dynamic shared memory that one
// multiprocessor holds at once.
template <class Kernel>
error_t resident_blocks(int* blocks, Kernel* kernel, int threads) noexcept {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(kernel),
                                                      threads, 0);
}
// Lets `kernel` launch with up to `bytes` of dynamic shared memory (above the default 48 KiB).
template <class Kernel>
error_t allow_dynamic_shared(Kernel* kernel, int bytes) noexcept {
  return hipFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                             hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

// ---- memory ---------------------------------------------------------------------------------

inline error_t malloc_device(void** p, std::size_t bytes) noexcept { return hipMalloc(p, bytes); }
inline error_t free_device(void* p) noexcept { return hipFree(p); }
// Portable: pinned for every device, so any GPU's DMA engines can read it.
inline error_t malloc_pinned(void** p, std::size_t bytes) noexcept {
  return hipHostMalloc(p, bytes, hipHostMallocPortable);
}
inline error_t free_pinned(void* p) noexcept { return hipHostFree(p); }
// Page-locks memory the program allocated (for every device), so DMA reads and writes it.
// The static shared memory of a kernel (its __shared__ / tile_static variables), in bytes.
inline error_t kernel_static_shared_bytes(const void* kernel, std::size_t* bytes) noexcept {
  hipFuncAttributes attributes{};
  const error_t e = hipFuncGetAttributes(&attributes, kernel);
  *bytes = e == success ? attributes.sharedSizeBytes : 0;
  return e;
}
inline error_t register_host(void* p, std::size_t bytes) noexcept {
  return hipHostRegister(p, bytes, hipHostRegisterPortable);
}
inline error_t unregister_host(void* p) noexcept { return hipHostUnregister(p); }

// ---- streams and events ---------------------------------------------------------------------

inline error_t stream_create(stream_t* s) noexcept {
  return hipStreamCreateWithFlags(s, hipStreamNonBlocking);
}
inline error_t stream_destroy(stream_t s) noexcept { return hipStreamDestroy(s); }
inline error_t stream_synchronize(stream_t s) noexcept { return hipStreamSynchronize(s); }
inline error_t stream_wait_event(stream_t s, event_t e) noexcept {
  return hipStreamWaitEvent(s, e, 0);
}
// Events only order work; timing them would cost on every record.
inline error_t event_create(event_t* e) noexcept {
  return hipEventCreateWithFlags(e, hipEventDisableTiming);
}
inline error_t event_destroy(event_t e) noexcept { return hipEventDestroy(e); }
inline error_t event_record(event_t e, stream_t s) noexcept { return hipEventRecord(e, s); }
inline error_t event_query(event_t e) noexcept { return hipEventQuery(e); }
inline error_t event_synchronize(event_t e) noexcept { return hipEventSynchronize(e); }

// ---- launches -------------------------------------------------------------------------------

// What `entry<<<blocks, threads, shared_bytes, s>>>(...)` compiles to, with the kernel's
// parameters given by address (backend/gpu/launch.hpp: launch_by_address says why).
inline error_t launch_kernel(const void* entry, unsigned blocks, unsigned threads, void** params,
                             std::size_t shared_bytes, stream_t s) noexcept {
  return hipLaunchKernel(entry, dim3(blocks), dim3(threads), params, shared_bytes, s);
}

// A launch chained to the kernel ahead of it (cuda.hpp): HIP has no programmatic dependent
// launch, so a plain one, which the chain's waits and releases (no-ops here) allow.
template <class... Params, class... Args>
error_t launch_chained_shared(void (*kernel)(Params...), unsigned blocks, unsigned threads,
                              std::size_t shared_bytes, stream_t s, const Args&... args) noexcept {
  kernel<<<blocks, threads, shared_bytes, s>>>(args...);
  return hipPeekAtLastError();
}
template <class... Params, class... Args>
error_t launch_chained(void (*kernel)(Params...), unsigned blocks, unsigned threads, stream_t s,
                       const Args&... args) noexcept {
  return launch_chained_shared(kernel, blocks, threads, 0, s, args...);
}

// ---- copies ---------------------------------------------------------------------------------

inline error_t copy_to_device_async(void* dst, const void* src, std::size_t bytes,
                                    stream_t s) noexcept {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyHostToDevice, s);
}
inline error_t copy_to_host_async(void* dst, const void* src, std::size_t bytes,
                                  stream_t s) noexcept {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToHost, s);
}
// Unified addressing finds both devices, so this also copies between GPUs (peer copies) and
// within one GPU.
inline error_t copy_between_devices_async(void* dst, const void* src, std::size_t bytes,
                                          stream_t s) noexcept {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, s);
}

// ---- device intrinsics ----------------------------------------------------------------------

// Lanes per warp as device code sees it: 64 (CDNA) or 32 (RDNA), known only in the device
// pass; host code sizes shared memory with warp_size_max.
#if defined(__AMDGCN_WAVEFRONT_SIZE)
inline constexpr int warp_size = __AMDGCN_WAVEFRONT_SIZE;
#else
inline constexpr int warp_size = 64;
#endif
inline constexpr int warp_size_max = 64;
using lane_mask_t = unsigned long long;

// The shuffles move 32-bit words across the full wavefront.
__device__ __forceinline__ int shfl_down_word(int word, unsigned delta) {
  return __shfl_down(word, delta);
}
__device__ __forceinline__ int shfl_up_word(int word, unsigned delta) {
  return __shfl_up(word, delta);
}
__device__ __forceinline__ int shfl_word(int word, int lane) { return __shfl(word, lane); }
// Bit l set when lane l's predicate holds.
__device__ __forceinline__ lane_mask_t ballot(bool predicate) { return __ballot(predicate); }
// Index of the lowest set bit; mask must not be 0.
__device__ __forceinline__ int lowest_lane(lane_mask_t mask) {
  return __ffsll(static_cast<unsigned long long>(mask)) - 1;
}
// A wavefront runs in lock step; the compiler must still not move shared accesses across.
// launch_chained's device side (cuda.hpp): nothing to wait for or release on HIP.
__device__ __forceinline__ void wait_for_prior_grid() {}
__device__ __forceinline__ void release_next_grid() {}
__device__ __forceinline__ void sync_warp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
// A pause of about Ns nanoseconds inside a spin loop (s_sleep counts 64 clocks, about 32 ns,
// per unit).
template <int Ns>
__device__ __forceinline__ void pause_ns() {
  __builtin_amdgcn_s_sleep((Ns + 31) / 32 < 127 ? (Ns + 31) / 32 : 127);
}
// A relaxed access at device scope to a word that blocks publish to each other.
__device__ __forceinline__ unsigned long long load_relaxed_device(const unsigned long long* p) {
  return *reinterpret_cast<const volatile unsigned long long*>(p);
}
__device__ __forceinline__ void store_relaxed_device(unsigned long long* p, unsigned long long v) {
  *reinterpret_cast<volatile unsigned long long*>(p) = v;
}

}  // namespace hipamp::detail::gpu::vendor
