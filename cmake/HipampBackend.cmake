# Resolves HIPAMP_BACKEND (auto, cpu, cuda, hip) to the backend this build uses and sets:
#   HIPAMP_BACKEND_RESOLVED            cpu | cuda | hip
#   HIPAMP_BACKEND_SOURCES             the runtime wrapper's sources for libhipamp
#   HIPAMP_BACKEND_LINK_LIBRARIES      what libhipamp links publicly
#   HIPAMP_BACKEND_INTERFACE_OPTIONS   compile options consumers' kernels need
#   HIPAMP_BACKEND_IS_{CPU,CUDA,HIP}   0/1 for the generated header
# A build has at most one GPU backend; the CPU device is always present.
#
# The GPU backends compile one source tree in the HIP kernel language: as CUDA by nvcc, or as
# HIP by clang for ROCm. lib/gpu_runtime.cpp is the single runtime wrapper for both.

include(CheckLanguage)

set(_asked "${HIPAMP_BACKEND}")
if(NOT _asked MATCHES "^(auto|cpu|cuda|hip)$")
  message(FATAL_ERROR "hipamp: HIPAMP_BACKEND='${_asked}' is not one of auto, cpu, cuda, hip")
endif()

include(hipampRocm)          # finding ROCm; shared with the installed package
include(hipampKernelSources) # hipamp_as_kernel_sources, also installed with the package

# ---- which backend --------------------------------------------------------------------
set(HIPAMP_BACKEND_RESOLVED cpu)
if(_asked STREQUAL "auto")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(HIPAMP_BACKEND_RESOLVED cuda)
  else()
    _hipamp_find_rocm(_rocm_root _rocm_flags _rocm_found)
    if(_rocm_found)
      set(HIPAMP_BACKEND_RESOLVED hip)
    endif()
  endif()
  message(STATUS "hipamp: HIPAMP_BACKEND=auto chose '${HIPAMP_BACKEND_RESOLVED}'")
else()
  set(HIPAMP_BACKEND_RESOLVED "${_asked}")
endif()

set(HIPAMP_BACKEND_SOURCES lib/gpu_runtime_none.cpp)
set(HIPAMP_BACKEND_LINK_LIBRARIES "")
set(HIPAMP_BACKEND_INTERFACE_OPTIONS "")

if(HIPAMP_BACKEND_RESOLVED STREQUAL "cuda")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures hipamp kernels are built for")
  endif()
  # One CUDA runtime per process: libhipamp's streams and the user's kernels must meet in the
  # same instance, so everything links the shared cudart (also what consumers get).
  if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  if(CUDAToolkit_VERSION VERSION_LESS 11.0)
    message(FATAL_ERROR "hipamp: the CUDA backend needs CUDA 11 or newer (found ${CUDAToolkit_VERSION})")
  endif()
  set(HIPAMP_BACKEND_SOURCES lib/gpu_runtime.cpp)
  set_source_files_properties(lib/gpu_runtime.cpp PROPERTIES LANGUAGE CUDA)
  set(HIPAMP_BACKEND_LINK_LIBRARIES CUDA::cudart)
  # Kernels are __host__ __device__ lambdas; constexpr library code runs in kernels.
  set(HIPAMP_BACKEND_INTERFACE_OPTIONS
      "$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda;--expt-relaxed-constexpr>")
  message(STATUS "hipamp: CUDA ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
elseif(HIPAMP_BACKEND_RESOLVED STREQUAL "hip")
  _hipamp_find_rocm(_rocm_root _rocm_flags _rocm_found)
  if(NOT _rocm_found)
    message(FATAL_ERROR "hipamp: HIPAMP_BACKEND=hip but no ROCm HIP runtime package (hip-lang) was "
                        "found in /opt/rocm, $ROCM_PATH or /usr/lib/<triplet>/cmake; install hipcc "
                        "and libamdhip64-dev or set CMAKE_HIP_COMPILER_ROCM_ROOT")
  endif()
  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
    set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx940" CACHE STRING "AMD GPU architectures hipamp kernels are built for")
  endif()
  _hipamp_prepare_hip_language()
  enable_language(HIP)
  find_package(hip CONFIG REQUIRED)
  set(HIPAMP_BACKEND_SOURCES lib/gpu_runtime.cpp)
  set_source_files_properties(lib/gpu_runtime.cpp PROPERTIES LANGUAGE HIP)
  set(HIPAMP_BACKEND_LINK_LIBRARIES hip::host)
  message(STATUS "hipamp: HIP ${hip_VERSION} (ROCm root ${CMAKE_HIP_COMPILER_ROCM_ROOT}), architectures ${CMAKE_HIP_ARCHITECTURES}")
elseif(NOT HIPAMP_BACKEND_RESOLVED STREQUAL "cpu")
  message(FATAL_ERROR "hipamp: unknown backend '${HIPAMP_BACKEND_RESOLVED}'")
endif()

foreach(_b CPU CUDA HIP)
  string(TOLOWER ${_b} _lower)
  if(HIPAMP_BACKEND_RESOLVED STREQUAL _lower)
    set(HIPAMP_BACKEND_IS_${_b} 1)
  else()
    set(HIPAMP_BACKEND_IS_${_b} 0)
  endif()
endforeach()
