// The one place in benchmarks/ that spells the vendor runtime (cuda* or hip* names). Benchmarks
// need the runtime itself because their peers work on raw device memory (hand-written kernels,
// raw copies, CUB, cuBLAS); they reach it through bench::vendor below, so one benchmark source
// serves CUDA and HIP.
// In every unit it defines HIPAMP_BENCH_CUDA: 1 where nvcc compiles the unit, so the CUDA
// libraries that are peers (CUB, cuBLAS) exist; bench::vendor exists only in GPU units
// (HIPAMP_GPU_TRANSLATION_UNIT).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <hipamp/config.hpp>

#if !HIPAMP_GPU_TRANSLATION_UNIT
#define HIPAMP_BENCH_CUDA 0
#else

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define HIPAMP_BENCH_CUDA 0
#else
#include <cuda_runtime.h>
#define HIPAMP_BENCH_CUDA 1
#endif

namespace bench::vendor {

#if defined(__HIPCC__)
using stream_t = hipStream_t;
using event_t = hipEvent_t;
using error_t = hipError_t;
using memcpy_kind = hipMemcpyKind;
inline constexpr error_t success = hipSuccess;
inline constexpr memcpy_kind host_to_device = hipMemcpyHostToDevice;
inline constexpr memcpy_kind device_to_host = hipMemcpyDeviceToHost;
inline constexpr memcpy_kind device_to_device = hipMemcpyDeviceToDevice;
inline const char* error_string(error_t e) { return hipGetErrorString(e); }
inline error_t allocate(void** p, std::size_t bytes) { return hipMalloc(p, bytes); }
inline error_t deallocate(void* p) { return hipFree(p); }
inline error_t allocate_pinned(void** p, std::size_t bytes) {
  return hipHostMalloc(p, bytes, hipHostMallocDefault);
}
inline error_t deallocate_pinned(void* p) { return hipHostFree(p); }
inline error_t copy(void* d, const void* s, std::size_t bytes, memcpy_kind k) {
  return hipMemcpy(d, s, bytes, k);
}
inline error_t copy_async(void* d, const void* s, std::size_t bytes, memcpy_kind k,
                          stream_t stream) {
  return hipMemcpyAsync(d, s, bytes, k, stream);
}
inline error_t stream_synchronize(stream_t s) { return hipStreamSynchronize(s); }
inline error_t event_create(event_t* e) { return hipEventCreate(e); }
// An event that only orders work (no timestamp): what a runtime records after each launch.
inline error_t event_create_ordering(event_t* e) {
  return hipEventCreateWithFlags(e, hipEventDisableTiming);
}
inline error_t event_destroy(event_t e) { return hipEventDestroy(e); }
inline error_t event_record(event_t e, stream_t s) { return hipEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return hipEventSynchronize(e); }
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return hipEventElapsedTime(ms, start, stop);
}
#else
using stream_t = cudaStream_t;
using event_t = cudaEvent_t;
using error_t = cudaError_t;
using memcpy_kind = cudaMemcpyKind;
inline constexpr error_t success = cudaSuccess;
inline constexpr memcpy_kind host_to_device = cudaMemcpyHostToDevice;
inline constexpr memcpy_kind device_to_host = cudaMemcpyDeviceToHost;
inline constexpr memcpy_kind device_to_device = cudaMemcpyDeviceToDevice;
inline const char* error_string(error_t e) { return cudaGetErrorString(e); }
inline error_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline error_t deallocate(void* p) { return cudaFree(p); }
inline error_t allocate_pinned(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
inline error_t deallocate_pinned(void* p) { return cudaFreeHost(p); }
inline error_t copy(void* d, const void* s, std::size_t bytes, memcpy_kind k) {
  return cudaMemcpy(d, s, bytes, k);
}
inline error_t copy_async(void* d, const void* s, std::size_t bytes, memcpy_kind k,
                          stream_t stream) {
  return cudaMemcpyAsync(d, s, bytes, k, stream);
}
inline error_t stream_synchronize(stream_t s) { return cudaStreamSynchronize(s); }
inline error_t event_create(event_t* e) { return cudaEventCreate(e); }
// An event that only orders work (no timestamp): what a runtime records after each launch.
inline error_t event_create_ordering(event_t* e) {
  return cudaEventCreateWithFlags(e, cudaEventDisableTiming);
}
inline error_t event_destroy(event_t e) { return cudaEventDestroy(e); }
inline error_t event_record(event_t e, stream_t s) { return cudaEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return cudaEventSynchronize(e); }
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return cudaEventElapsedTime(ms, start, stop);
}
#endif

// A failed runtime call ends the benchmark program with the call and the runtime's message:
// figures measured after one would mean nothing.
inline void check(error_t e, const char* what) {
  if (e != success) throw std::runtime_error(std::string(what) + ": " + error_string(e));
}

}  // namespace bench::vendor

// BENCH_GPU_CHECK(bench::vendor::copy(...)): check() naming the call's text.
#define BENCH_GPU_CHECK(call) ::bench::vendor::check((call), #call)

#endif  // HIPAMP_GPU_TRANSLATION_UNIT
