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

# ---- HIP on ROCm: where the HIP runtime's CMake package lives ----------------------------
# CMake (3.21-3.27) wants <rocm-root>/lib/cmake/hip-lang/hip-lang-config.cmake. AMD's own
# packages install into /opt/rocm with exactly that layout; Debian's ROCm packages use the
# multiarch layout (/usr/lib/<triplet>/cmake/hip-lang) and put the device libraries in
# /usr/lib/<triplet>/amdgcn/bitcode. For the latter we give CMake a small root in the build
# tree whose lib/cmake/hip-lang links to the real package (its config resolves real paths,
# so the imported targets point at /usr), and tell clang where the ROCm pieces are.
function(_hipamp_find_rocm out_root out_hip_flags out_found)
  set(${out_found} FALSE PARENT_SCOPE)
  if(CMAKE_HIP_COMPILER_ROCM_ROOT AND EXISTS "${CMAKE_HIP_COMPILER_ROCM_ROOT}/lib/cmake/hip-lang/hip-lang-config.cmake")
    set(${out_root} "${CMAKE_HIP_COMPILER_ROCM_ROOT}" PARENT_SCOPE)
    set(${out_hip_flags} "" PARENT_SCOPE)
    set(${out_found} TRUE PARENT_SCOPE)
    return()
  endif()
  foreach(_candidate "$ENV{ROCM_PATH}" /opt/rocm)
    if(_candidate AND EXISTS "${_candidate}/lib/cmake/hip-lang/hip-lang-config.cmake")
      set(${out_root} "${_candidate}" PARENT_SCOPE)
      set(${out_hip_flags} "" PARENT_SCOPE)
      set(${out_found} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
  if(CMAKE_LIBRARY_ARCHITECTURE)
    set(_multiarch "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
  else()
    set(_multiarch "/usr/lib/x86_64-linux-gnu")
  endif()
  if(EXISTS "${_multiarch}/cmake/hip-lang/hip-lang-config.cmake")
    set(_root "${CMAKE_BINARY_DIR}/hipamp-rocm-root")
    file(MAKE_DIRECTORY "${_root}/lib/cmake")
    if(NOT EXISTS "${_root}/lib/cmake/hip-lang")
      file(CREATE_LINK "${_multiarch}/cmake/hip-lang" "${_root}/lib/cmake/hip-lang" SYMBOLIC)
    endif()
    set(_flags "--rocm-path=/usr")
    if(EXISTS "${_multiarch}/amdgcn/bitcode")
      string(APPEND _flags " --rocm-device-lib-path=${_multiarch}/amdgcn/bitcode")
    endif()
    set(${out_root} "${_root}" PARENT_SCOPE)
    set(${out_hip_flags} "${_flags}" PARENT_SCOPE)
    set(${out_found} TRUE PARENT_SCOPE)
  endif()
endfunction()

# Debian's ROCm 5.2 is built with LLVM 15; its plain clang++ may be an older LLVM.
function(_hipamp_find_hip_clang rocm_root out_compiler)
  if(CMAKE_HIP_COMPILER)
    set(${out_compiler} "${CMAKE_HIP_COMPILER}" PARENT_SCOPE)
    return()
  endif()
  find_program(_hipamp_hip_clang NAMES clang++
               PATHS "${rocm_root}/llvm/bin" NO_DEFAULT_PATH NO_CACHE)
  if(NOT _hipamp_hip_clang)
    find_program(_hipamp_hip_clang NAMES clang++-15 clang++-16 clang++-17 clang++ NO_CACHE)
  endif()
  set(${out_compiler} "${_hipamp_hip_clang}" PARENT_SCOPE)
endfunction()

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
  set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_rocm_root}" CACHE PATH "ROCm root for CMake's HIP language")
  _hipamp_find_hip_clang("${_rocm_root}" _hip_clang)
  if(NOT _hip_clang)
    message(FATAL_ERROR "hipamp: HIPAMP_BACKEND=hip needs ROCm's clang++; set CMAKE_HIP_COMPILER")
  endif()
  set(CMAKE_HIP_COMPILER "${_hip_clang}" CACHE FILEPATH "HIP compiler (ROCm clang++)")
  if(_rocm_flags AND NOT CMAKE_HIP_FLAGS MATCHES "--rocm-path")
    set(CMAKE_HIP_FLAGS "${_rocm_flags} ${CMAKE_HIP_FLAGS}" CACHE STRING "HIP compiler flags" FORCE)
  endif()
  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
    set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx940" CACHE STRING "AMD GPU architectures hipamp kernels are built for")
  endif()
  # Debian's hip-lang config finds amd_comgr in the multiarch cmake folder; CMake's own
  # compiler checks run in scratch projects that must see it too.
  if(NOT amd_comgr_DIR)
    foreach(_dir "${_rocm_root}/lib/cmake/amd_comgr" "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/amd_comgr"
                 "/usr/lib/x86_64-linux-gnu/cmake/amd_comgr")
      if(EXISTS "${_dir}")
        set(amd_comgr_DIR "${_dir}" CACHE PATH "amd_comgr package")
        break()
      endif()
    endforeach()
  endif()
  list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES amd_comgr_DIR CMAKE_HIP_COMPILER_ROCM_ROOT)
  enable_language(HIP)
  find_package(hip CONFIG REQUIRED)
  set(HIPAMP_BACKEND_SOURCES lib/gpu_runtime.cpp)
  set_source_files_properties(lib/gpu_runtime.cpp PROPERTIES LANGUAGE HIP)
  set(HIPAMP_BACKEND_LINK_LIBRARIES hip::host)
  message(STATUS "hipamp: HIP ${hip_VERSION} (ROCm root ${_rocm_root}), architectures ${CMAKE_HIP_ARCHITECTURES}")
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

# Marks a target's sources as kernel sources: compiled by the GPU compiler in GPU builds
# (so their parallel_for_each calls can launch on the GPU), by the C++ compiler otherwise.
function(hipamp_as_kernel_sources target)
  if(HIPAMP_BACKEND_RESOLVED STREQUAL "cuda")
    get_target_property(_srcs ${target} SOURCES)
    set_source_files_properties(${_srcs} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CUDA)
  elseif(HIPAMP_BACKEND_RESOLVED STREQUAL "hip")
    get_target_property(_srcs ${target} SOURCES)
    set_source_files_properties(${_srcs} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE HIP)
  endif()
endfunction()
