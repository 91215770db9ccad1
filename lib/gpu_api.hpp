// Internal: the runtime calls libhipamp's GPU wrapper makes, under one set of names for CUDA
// and HIP (alpaka's "uniform CUDA/HIP" idea). Most calls differ only in their prefix; the few
// that differ more (pinned allocation, attribute names, architecture names) are spelled out.
// Compiled only as CUDA or HIP (lib/gpu_runtime.cpp).
#pragma once

#include <cstddef>
#include <string>

#include <hipamp/backend/gpu/kernel_language.hpp>

#if defined(__HIPCC__)
#define HIPAMP_GPU_NAME(name) hip##name
#else
#define HIPAMP_GPU_NAME(name) cuda##name
#endif

namespace hipamp::detail::gpu::api {

using event_t = HIPAMP_GPU_NAME(Event_t);
#if defined(__HIPCC__)
using device_prop_t = hipDeviceProp_t;
#else
using device_prop_t = cudaDeviceProp;
#endif

inline constexpr error_t not_ready = HIPAMP_GPU_NAME(ErrorNotReady);
#if defined(__HIPCC__)
inline constexpr error_t allocation_failed = hipErrorOutOfMemory;
inline constexpr error_t peer_access_already_enabled = hipErrorPeerAccessAlreadyEnabled;
#else
inline constexpr error_t allocation_failed = cudaErrorMemoryAllocation;
inline constexpr error_t peer_access_already_enabled = cudaErrorPeerAccessAlreadyEnabled;
#endif
inline error_t peek_last_error() noexcept { return HIPAMP_GPU_NAME(PeekAtLastError)(); }

inline const char* error_name(error_t e) noexcept { return HIPAMP_GPU_NAME(GetErrorName)(e); }

// True for errors after which the device's context cannot run anything in this process:
// kernel faults (illegal address or instruction, device-side assert, launch failure), lost or
// unavailable devices, uncorrectable memory errors.
inline bool is_sticky(error_t e) noexcept {
  switch (e) {
    case HIPAMP_GPU_NAME(ErrorIllegalAddress):
    case HIPAMP_GPU_NAME(ErrorLaunchFailure):
    case HIPAMP_GPU_NAME(ErrorAssert):
    case HIPAMP_GPU_NAME(ErrorContextIsDestroyed):
    case HIPAMP_GPU_NAME(ErrorNoDevice):
    case HIPAMP_GPU_NAME(ErrorInsufficientDriver):
#if defined(__HIPCC__)
    case hipErrorLaunchTimeOut:
    case hipErrorECCNotCorrectable:
    case hipErrorDeinitialized:
#else
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorDevicesUnavailable:
#endif
      return true;
    default:
      return false;
  }
}

inline error_t device_count(int* n) noexcept { return HIPAMP_GPU_NAME(GetDeviceCount)(n); }
inline error_t set_device(int ordinal) noexcept { return HIPAMP_GPU_NAME(SetDevice)(ordinal); }
inline error_t get_device(int* ordinal) noexcept { return HIPAMP_GPU_NAME(GetDevice)(ordinal); }
inline error_t device_properties(device_prop_t* p, int ordinal) noexcept {
  return HIPAMP_GPU_NAME(GetDeviceProperties)(p, ordinal);
}
inline error_t multiprocessor_count(int* n, int ordinal) noexcept {
#if defined(__HIPCC__)
  return hipDeviceGetAttribute(n, hipDeviceAttributeMultiprocessorCount, ordinal);
#else
  return cudaDeviceGetAttribute(n, cudaDevAttrMultiProcessorCount, ordinal);
#endif
}
inline error_t clock_khz(int* n, int ordinal) noexcept {
#if defined(__HIPCC__)
  return hipDeviceGetAttribute(n, hipDeviceAttributeClockRate, ordinal);
#else
  return cudaDeviceGetAttribute(n, cudaDevAttrClockRate, ordinal);
#endif
}
inline error_t has_kernel_timeout(int* n, int ordinal) noexcept {
#if defined(__HIPCC__)
  return hipDeviceGetAttribute(n, hipDeviceAttributeKernelExecTimeout, ordinal);
#else
  return cudaDeviceGetAttribute(n, cudaDevAttrKernelExecTimeout, ordinal);
#endif
}
// Whether `ordinal`'s kernels and copy engines can reach `peer`'s memory directly.
inline error_t can_access_peer(int* can, int ordinal, int peer) noexcept {
  return HIPAMP_GPU_NAME(DeviceCanAccessPeer)(can, ordinal, peer);
}
// Lets the current device reach `peer`'s memory (one direction).
inline error_t enable_peer_access(int peer) noexcept {
  return HIPAMP_GPU_NAME(DeviceEnablePeerAccess)(peer, 0);
}
inline error_t memory_info(std::size_t* free_bytes, std::size_t* total_bytes) noexcept {
  return HIPAMP_GPU_NAME(MemGetInfo)(free_bytes, total_bytes);
}
// "sm_90" on NVIDIA, "gfx90a:sramecc+:xnack-" on AMD.
inline std::string architecture(const device_prop_t& p) {
#if defined(__HIPCC__)
  return p.gcnArchName;
#else
  return "sm_" + std::to_string(p.major) + std::to_string(p.minor);
#endif
}

inline error_t malloc_device(void** p, std::size_t bytes) noexcept {
  return HIPAMP_GPU_NAME(Malloc)(p, bytes);
}
inline error_t free_device(void* p) noexcept { return HIPAMP_GPU_NAME(Free)(p); }
// Portable: pinned for every device, so any GPU's DMA engines can read it.
inline error_t malloc_pinned(void** p, std::size_t bytes) noexcept {
#if defined(__HIPCC__)
  return hipHostMalloc(p, bytes, hipHostMallocPortable);
#else
  return cudaHostAlloc(p, bytes, cudaHostAllocPortable);
#endif
}
inline error_t free_pinned(void* p) noexcept {
#if defined(__HIPCC__)
  return hipHostFree(p);
#else
  return cudaFreeHost(p);
#endif
}

inline error_t stream_create(stream_t* s) noexcept {
  return HIPAMP_GPU_NAME(StreamCreateWithFlags)(s, HIPAMP_GPU_NAME(StreamNonBlocking));
}
inline error_t stream_destroy(stream_t s) noexcept { return HIPAMP_GPU_NAME(StreamDestroy)(s); }
inline error_t stream_synchronize(stream_t s) noexcept {
  return HIPAMP_GPU_NAME(StreamSynchronize)(s);
}
inline error_t stream_wait_event(stream_t s, event_t e) noexcept {
  return HIPAMP_GPU_NAME(StreamWaitEvent)(s, e, 0);
}

// Events only order work; timing them would cost on every record.
inline error_t event_create(event_t* e) noexcept {
  return HIPAMP_GPU_NAME(EventCreateWithFlags)(e, HIPAMP_GPU_NAME(EventDisableTiming));
}
inline error_t event_destroy(event_t e) noexcept { return HIPAMP_GPU_NAME(EventDestroy)(e); }
inline error_t event_record(event_t e, stream_t s) noexcept {
  return HIPAMP_GPU_NAME(EventRecord)(e, s);
}
inline error_t event_query(event_t e) noexcept { return HIPAMP_GPU_NAME(EventQuery)(e); }
inline error_t event_synchronize(event_t e) noexcept {
  return HIPAMP_GPU_NAME(EventSynchronize)(e);
}

inline error_t copy_to_device_async(void* dst, const void* src, std::size_t bytes,
                                    stream_t s) noexcept {
  return HIPAMP_GPU_NAME(MemcpyAsync)(dst, src, bytes, HIPAMP_GPU_NAME(MemcpyHostToDevice), s);
}
inline error_t copy_to_host_async(void* dst, const void* src, std::size_t bytes,
                                  stream_t s) noexcept {
  return HIPAMP_GPU_NAME(MemcpyAsync)(dst, src, bytes, HIPAMP_GPU_NAME(MemcpyDeviceToHost), s);
}
// Unified addressing finds both devices, so this also copies between GPUs (peer copies).
inline error_t copy_between_devices_async(void* dst, const void* src, std::size_t bytes,
                                          stream_t s) noexcept {
  return HIPAMP_GPU_NAME(MemcpyAsync)(dst, src, bytes, HIPAMP_GPU_NAME(MemcpyDefault), s);
}

}  // namespace hipamp::detail::gpu::api
