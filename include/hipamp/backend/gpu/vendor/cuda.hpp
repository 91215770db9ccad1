// The NVIDIA vendor file: every CUDA runtime call and device intrinsic hipamp uses, under the
// names of the GPU room (namespace gpu::vendor). Its twin is hip.hpp, name for name; besides
// them only cub.hpp / rocprim.hpp (the vendors' primitives libraries) spell a cuda* or hip*
// name (alpaka's one-file-per-vendor-API layout). Included through backend/gpu/vendor.hpp in
// translation units compiled by nvcc only.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime.h>

// Prefix of the runtime's call names in error messages ("cudaMemcpyAsync failed with ...").
#define HIPAMP_GPU_API_PREFIX "cuda"
// Alignment of a __shared__ array.
#define HIPAMP_GPU_SHARED_ALIGN(bytes) __align__(bytes)

namespace hipamp::detail::gpu::vendor {

using stream_t = cudaStream_t;
using error_t = cudaError_t;
using event_t = cudaEvent_t;
using device_prop_t = cudaDeviceProp;

inline constexpr error_t success = cudaSuccess;
inline constexpr error_t not_ready = cudaErrorNotReady;
inline constexpr error_t allocation_failed = cudaErrorMemoryAllocation;
inline constexpr error_t peer_access_already_enabled = cudaErrorPeerAccessAlreadyEnabled;

// ---- errors ---------------------------------------------------------------------------------

inline const char* error_string(error_t e) noexcept { return cudaGetErrorString(e); }
inline const char* error_name(error_t e) noexcept { return cudaGetErrorName(e); }
inline error_t last_error() noexcept { return cudaGetLastError(); }
inline error_t peek_last_error() noexcept { return cudaPeekAtLastError(); }

// True for errors after which the device's context cannot run anything in this process:
// kernel faults (illegal address or instruction, device-side assert, launch failure), lost or
// unavailable devices, uncorrectable memory errors.
inline bool is_sticky(error_t e) noexcept {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorAssert:
    case cudaErrorContextIsDestroyed:
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorDevicesUnavailable:
      return true;
    default:
      return false;
  }
}

// ---- devices --------------------------------------------------------------------------------

inline error_t device_count(int* n) noexcept { return cudaGetDeviceCount(n); }
inline error_t set_device(int ordinal) noexcept { return cudaSetDevice(ordinal); }
inline error_t get_device(int* ordinal) noexcept { return cudaGetDevice(ordinal); }
inline error_t device_properties(device_prop_t* p, int ordinal) noexcept {
  return cudaGetDeviceProperties(p, ordinal);
}
inline error_t multiprocessor_count(int* n, int ordinal) noexcept {
  return cudaDeviceGetAttribute(n, cudaDevAttrMultiProcessorCount, ordinal);
}
// Shared memory one block may use once its kernel opts in (allow_dynamic_shared).
inline error_t max_shared_per_block(int* bytes, int ordinal) noexcept {
  return cudaDeviceGetAttribute(bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal);
}
inline error_t clock_khz(int* n, int ordinal) noexcept {
  return cudaDeviceGetAttribute(n, cudaDevAttrClockRate, ordinal);
}
inline error_t has_kernel_timeout(int* n, int ordinal) noexcept {
  return cudaDeviceGetAttribute(n, cudaDevAttrKernelExecTimeout, ordinal);
}
// "sm_90".
inline std::string architecture(const device_prop_t& p) {
  return "sm_" + std::to_string(p.major) + std::to_string(p.minor);
}
// Whether `ordinal`'s kernels and copy engines can reach `peer`'s memory directly.
inline error_t can_access_peer(int* can, int ordinal, int peer) noexcept {
  return cudaDeviceCanAccessPeer(can, ordinal, peer);
}
// Lets the current device reach `peer`'s memory (one direction).
inline error_t enable_peer_access(int peer) noexcept { return cudaDeviceEnablePeerAccess(peer, 0); }
inline error_t memory_info(std::size_t* free_bytes, std::size_t* total_bytes) noexcept {
  return cudaMemGetInfo(free_bytes, total_bytes);
}

// ---- kernels --------------------------------------------------------------------------------

// Blocks of `kernel` with `threads` threads and no dynamic shared memory that one
// multiprocessor holds at once.
template <class Kernel>
error_t resident_blocks(int* blocks, Kernel* kernel, int threads) noexcept {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, threads, 0);
}
// Lets `kernel` launch with up to `bytes` of dynamic shared memory (above the default 48 KiB).
template <class Kernel>
error_t allow_dynamic_shared(Kernel* kernel, int bytes) noexcept {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

// ---- memory ---------------------------------------------------------------------------------

inline error_t malloc_device(void** p, std::size_t bytes) noexcept { return cudaMalloc(p, bytes); }
inline error_t free_device(void* p) noexcept { return cudaFree(p); }
// Portable: pinned for every device, so any GPU's DMA engines can read it.
inline error_t malloc_pinned(void** p, std::size_t bytes) noexcept {
  return cudaHostAlloc(p, bytes, cudaHostAllocPortable);
}
inline error_t free_pinned(void* p) noexcept { return cudaFreeHost(p); }
// Page-locks memory the program allocated (for every device), so DMA reads and writes it.
// The static shared memory of a kernel (its __shared__ / tile_static variables), in bytes.
inline error_t kernel_static_shared_bytes(const void* kernel, std::size_t* bytes) noexcept {
  cudaFuncAttributes attributes{};
  const error_t e = cudaFuncGetAttributes(&attributes, kernel);
  *bytes = e == success ? attributes.sharedSizeBytes : 0;
  return e;
}
inline error_t register_host(void* p, std::size_t bytes) noexcept {
  return cudaHostRegister(p, bytes, cudaHostRegisterPortable);
}
inline error_t unregister_host(void* p) noexcept { return cudaHostUnregister(p); }

// ---- streams and events ---------------------------------------------------------------------

inline error_t stream_create(stream_t* s) noexcept {
  return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
}
inline error_t stream_destroy(stream_t s) noexcept { return cudaStreamDestroy(s); }
inline error_t stream_synchronize(stream_t s) noexcept { return cudaStreamSynchronize(s); }
inline error_t stream_wait_event(stream_t s, event_t e) noexcept {
  return cudaStreamWaitEvent(s, e, 0);
}
// Events only order work; timing them would cost on every record.
inline error_t event_create(event_t* e) noexcept {
  return cudaEventCreateWithFlags(e, cudaEventDisableTiming);
}
inline error_t event_destroy(event_t e) noexcept { return cudaEventDestroy(e); }
inline error_t event_record(event_t e, stream_t s) noexcept { return cudaEventRecord(e, s); }
inline error_t event_query(event_t e) noexcept { return cudaEventQuery(e); }
inline error_t event_synchronize(event_t e) noexcept { return cudaEventSynchronize(e); }

// ---- launches -------------------------------------------------------------------------------

// What `entry<<<blocks, threads, shared_bytes, s>>>(...)` compiles to, with the kernel's
// parameters given by address (backend/gpu/launch.hpp: launch_by_address says why).
inline error_t launch_kernel(const void* entry, unsigned blocks, unsigned threads, void** params,
                             std::size_t shared_bytes, stream_t s) noexcept {
  return cudaLaunchKernel(entry, dim3(blocks), dim3(threads), params, shared_bytes, s);
}

// A launch chained to the kernel ahead of it in the stream (programmatic dependent launch,
// sm_90 on): its blocks may be placed once every block ahead has called release_next_grid() or
// ended, while the last of them still run, instead of after that kernel's end and memory flush.
// The kernel must call wait_for_prior_grid() before touching memory that earlier work writes or
// reads, and so must every kernel it is chained to in turn (a kernel that waits ends after the
// one it waited for, which is what makes the chain ordered). Older devices launch it plainly.
// launch_chained_shared: the same with `shared_bytes` of dynamic shared memory.
template <class... Params, class... Args>
error_t launch_chained_shared(void (*kernel)(Params...), unsigned blocks, unsigned threads,
                              std::size_t shared_bytes, stream_t s, const Args&... args) noexcept {
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  // Grid, block, dynamic shared bytes, stream, attributes (by position: the kernel emulator
  // spells gridDim and blockDim as macros).
  const cudaLaunchConfig_t config{dim3(blocks), dim3(threads), shared_bytes, s, attribute, 1};
  return cudaLaunchKernelEx(&config, kernel, args...);
}
template <class... Params, class... Args>
error_t launch_chained(void (*kernel)(Params...), unsigned blocks, unsigned threads, stream_t s,
                       const Args&... args) noexcept {
  return launch_chained_shared(kernel, blocks, threads, 0, s, args...);
}

// ---- copies ---------------------------------------------------------------------------------

inline error_t copy_to_device_async(void* dst, const void* src, std::size_t bytes,
                                    stream_t s) noexcept {
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s);
}
inline error_t copy_to_host_async(void* dst, const void* src, std::size_t bytes,
                                  stream_t s) noexcept {
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s);
}
// Unified addressing finds both devices, so this also copies between GPUs (peer copies) and
// within one GPU.
inline error_t copy_between_devices_async(void* dst, const void* src, std::size_t bytes,
                                          stream_t s) noexcept {
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
}

// ---- device intrinsics ----------------------------------------------------------------------

// Lanes per warp as device code sees it, and the widest warp any device of this vendor has
// (host code sizes shared memory with it).
inline constexpr int warp_size = 32;
inline constexpr int warp_size_max = 32;
using lane_mask_t = unsigned;

// The shuffles move 32-bit words across the full warp.
__device__ __forceinline__ int shfl_down_word(int word, unsigned delta) {
  return __shfl_down_sync(0xffffffffu, word, delta);
}
__device__ __forceinline__ int shfl_up_word(int word, unsigned delta) {
  return __shfl_up_sync(0xffffffffu, word, delta);
}
__device__ __forceinline__ int shfl_word(int word, int lane) {
  return __shfl_sync(0xffffffffu, word, lane);
}
// Bit l set when lane l's predicate holds.
__device__ __forceinline__ lane_mask_t ballot(bool predicate) {
  return __ballot_sync(0xffffffffu, predicate);
}
// Index of the lowest set bit; mask must not be 0.
__device__ __forceinline__ int lowest_lane(lane_mask_t mask) {
  return __ffs(static_cast<int>(mask)) - 1;
}
__device__ __forceinline__ void sync_warp() { __syncwarp(); }
// The device side of launch_chained: waits until the kernel this one is chained to has ended
// and its writes are visible (no-op for a plain launch or before sm_90) ...
__device__ __forceinline__ void wait_for_prior_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
// ... and lets the kernel chained after this one place its blocks once every block of this one
// has called it (or ended); they then wait in wait_for_prior_grid() for this kernel's end.
__device__ __forceinline__ void release_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}
// A pause of about Ns nanoseconds inside a spin loop (sm_70 and later; none before).
template <int Ns>
__device__ __forceinline__ void pause_ns() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(Ns);
#endif
}
// A relaxed access at device scope to a word that blocks publish to each other. On sm_70+ a
// volatile access is a relaxed access at system scope; the narrower scope measured no faster
// on an H200, but it says what the protocol relies on.
__device__ __forceinline__ unsigned long long load_relaxed_device(const unsigned long long* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
#else
  return *reinterpret_cast<const volatile unsigned long long*>(p);
#endif
}
__device__ __forceinline__ void store_relaxed_device(unsigned long long* p, unsigned long long v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  *reinterpret_cast<volatile unsigned long long*>(p) = v;
#endif
}

}  // namespace hipamp::detail::gpu::vendor
