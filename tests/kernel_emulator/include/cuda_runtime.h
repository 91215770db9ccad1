// A CPU emulation of the slice of the CUDA kernel language and runtime that hipamp's library
// kernels use: blocks run as 256 fibers on one OS thread (so `static thread_local`
// is per-block shared memory), several blocks run concurrently on worker threads.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

// NOLINTBEGIN(bugprone-reserved-identifier): emulates the CUDA spelling
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static thread_local
#define __align__(n) alignas(n)
// NOLINTEND(bugprone-reserved-identifier)

struct uint4 {
  unsigned x, y, z, w;
};
struct uint2 {
  unsigned x, y;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3() = default;
  dim3(unsigned a) : x(a) {}  // NOLINT(google-explicit-constructor): implicit as in CUDA
};
struct emu_stream;
using cudaStream_t = emu_stream*;
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorUnknown = 1,
  // Named by the vendor file (backend/gpu/vendor/cuda.hpp) for libhipamp's runtime, which the
  // emulator replaces: declared so the vendor file compiles, never returned here.
  cudaErrorNotReady,
  cudaErrorMemoryAllocation,
  cudaErrorPeerAccessAlreadyEnabled,
  cudaErrorIllegalAddress,
  cudaErrorLaunchFailure,
  cudaErrorAssert,
  cudaErrorContextIsDestroyed,
  cudaErrorNoDevice,
  cudaErrorInsufficientDriver,
  cudaErrorLaunchTimeout,
  cudaErrorECCUncorrectable,
  cudaErrorHardwareStackError,
  cudaErrorIllegalInstruction,
  cudaErrorMisalignedAddress,
  cudaErrorInvalidAddressSpace,
  cudaErrorInvalidPc,
  cudaErrorDevicesUnavailable,
};
enum cudaDeviceAttr {
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
enum cudaMemcpyKind {
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
// Shared memory is static thread_local per block here (run.sh gives dynamic shared arrays a
// fixed size), so raising the dynamic limit has nothing to do.
template <class K>
cudaError_t cudaFuncSetAttribute(K, cudaFuncAttribute, int) {
  return cudaSuccess;
}
inline const char* cudaGetErrorString(cudaError_t) { return "emulated CUDA error"; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }

// libhipamp's runtime calls, as the vendor file names them. The emulator runs its own device
// (emulated_device.cpp), so these are declared for the vendor file to compile and never called.
struct emu_event;
using cudaEvent_t = emu_event*;
struct cudaDeviceProp {
  int major = 0;
  int minor = 0;
};
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes = 0;
};
inline constexpr unsigned cudaHostAllocPortable = 1;
inline constexpr unsigned cudaHostRegisterPortable = 1;
inline constexpr unsigned cudaStreamNonBlocking = 1;
inline constexpr unsigned cudaEventDisableTiming = 2;
const char* cudaGetErrorName(cudaError_t);
cudaError_t cudaPeekAtLastError();
cudaError_t cudaGetDeviceCount(int*);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp*, int);
cudaError_t cudaDeviceCanAccessPeer(int*, int, int);
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned);
cudaError_t cudaMemGetInfo(std::size_t*, std::size_t*);
cudaError_t cudaMalloc(void**, std::size_t);
cudaError_t cudaFree(void*);
cudaError_t cudaMemcpyAsync(void*, const void*, std::size_t, cudaMemcpyKind, cudaStream_t);
cudaError_t cudaHostAlloc(void**, std::size_t, unsigned);
cudaError_t cudaFreeHost(void*);
cudaError_t cudaHostRegister(void*, std::size_t, unsigned);
cudaError_t cudaHostUnregister(void*);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes*, const void*);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t*, unsigned);
cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t*, unsigned);
cudaError_t cudaEventDestroy(cudaEvent_t);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t);
cudaError_t cudaEventQuery(cudaEvent_t);
cudaError_t cudaEventSynchronize(cudaEvent_t);
// The simple and tiled launches (the only users) are the emulator's own launch.hpp.
cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, std::size_t, cudaStream_t);

namespace emu {
extern int multiprocessors;
extern int blocks_per_multiprocessor;
extern int workers;
struct fiber_state {
  dim3 thread_idx, block_idx, block_dim, grid_dim;
};
fiber_state& self();
void run_grid(unsigned grid, unsigned block, const std::function<void()>& body);
template <class Kernel, class... A>
void launch(dim3 grid, dim3 block, std::size_t, cudaStream_t, Kernel kernel, A&&... args) {
  std::function<void()> body = [&]() { kernel(args...); };
  run_grid(grid.x, block.x, body);
}
}  // namespace emu

// Chained launches (vendor::launch_chained, programmatic dependent launch) run as plain ones:
// the emulator runs a grid to its end before the call returns.
enum cudaLaunchAttributeID { cudaLaunchAttributeProgrammaticStreamSerialization = 5 };
union cudaLaunchAttributeValue {
  int programmaticStreamSerializationAllowed;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {
  dim3 gridDim, blockDim;
  std::size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned numAttrs;
};
template <class... P, class... A>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(P...),
                               A&&... args) {
  emu::launch(config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, kernel,
              std::forward<A>(args)...);
  return cudaSuccess;
}

// A block's opt-in shared memory is the emulator's dynamic shared array (run.sh: 256 KiB), so
// that the sort's large tiles run here too; every other attribute reads as the multiprocessors.
inline cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr attribute, int) {
  *v = attribute == cudaDevAttrMaxSharedMemoryPerBlockOptin ? 1 << 18 : emu::multiprocessors;
  return cudaSuccess;
}
template <class K>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* b, K, int, std::size_t) {
  *b = emu::blocks_per_multiprocessor;
  return cudaSuccess;
}

#define threadIdx (::emu::self().thread_idx)
#define blockIdx (::emu::self().block_idx)
#define blockDim (::emu::self().block_dim)
#define gridDim (::emu::self().grid_dim)

// NOLINTBEGIN(bugprone-reserved-identifier): emulates the CUDA spelling
void __syncthreads();
int __syncthreads_count(int predicate);
void __syncwarp(unsigned mask = 0xffffffffu);
int __shfl_down_sync(unsigned mask, int value, unsigned delta, int width = 32);
int __shfl_up_sync(unsigned mask, int value, unsigned delta, int width = 32);
int __shfl_sync(unsigned mask, int value, int lane, int width = 32);
unsigned __ballot_sync(unsigned mask, int predicate);
// CUDA's math API declares fma for float and double in the global namespace.
using std::fma;
inline int __ffs(int x) { return __builtin_ffs(x); }
inline unsigned atomicAdd(unsigned* p, unsigned v) {
  return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// NOLINTEND(bugprone-reserved-identifier)
