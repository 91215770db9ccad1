# Finding ROCm's HIP for CMake's HIP language, shared by hipamp's own build
# (HipampBackend.cmake) and the installed package (hipamp_as_kernel_sources), so a consumer's
# HIP kernels are compiled exactly as hipamp's were.
include_guard(GLOBAL)

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

# Before enable_language(HIP): the ROCm root, ROCm's clang and, for Debian's layout, the flags
# that tell clang where the ROCm pieces are. A macro: the cache and normal variables it sets
# must reach the caller's scope.
macro(_hipamp_prepare_hip_language)
  _hipamp_find_rocm(_hipamp_rocm_root _hipamp_rocm_flags _hipamp_rocm_found)
  if(NOT _hipamp_rocm_found)
    message(FATAL_ERROR "hipamp: the HIP backend needs ROCm's HIP runtime package (hip-lang) in "
                        "/opt/rocm, $ROCM_PATH or /usr/lib/<triplet>/cmake; install hipcc and "
                        "libamdhip64-dev or set CMAKE_HIP_COMPILER_ROCM_ROOT")
  endif()
  set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_hipamp_rocm_root}" CACHE PATH "ROCm root for CMake's HIP language")
  _hipamp_find_hip_clang("${_hipamp_rocm_root}" _hipamp_hip_clang)
  if(NOT _hipamp_hip_clang)
    message(FATAL_ERROR "hipamp: the HIP backend needs ROCm's clang++; set CMAKE_HIP_COMPILER")
  endif()
  set(CMAKE_HIP_COMPILER "${_hipamp_hip_clang}" CACHE FILEPATH "HIP compiler (ROCm clang++)")
  if(_hipamp_rocm_flags AND NOT CMAKE_HIP_FLAGS MATCHES "--rocm-path")
    set(CMAKE_HIP_FLAGS "${_hipamp_rocm_flags} ${CMAKE_HIP_FLAGS}" CACHE STRING "HIP compiler flags" FORCE)
  endif()
  # Debian's hip-lang config finds amd_comgr in the multiarch cmake folder; CMake's own
  # compiler checks run in scratch projects that must see it too.
  if(NOT amd_comgr_DIR)
    foreach(_hipamp_dir "${_hipamp_rocm_root}/lib/cmake/amd_comgr"
                        "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/amd_comgr"
                        "/usr/lib/x86_64-linux-gnu/cmake/amd_comgr")
      if(EXISTS "${_hipamp_dir}")
        set(amd_comgr_DIR "${_hipamp_dir}" CACHE PATH "amd_comgr package")
        break()
      endif()
    endforeach()
  endif()
  list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES amd_comgr_DIR CMAKE_HIP_COMPILER_ROCM_ROOT)
endmacro()
