# hipamp_as_kernel_sources(<target> [<source>...]): compile a target's kernel sources with the
# GPU compiler of the backend hipamp was built with, so their parallel_for_each calls can run
# on the GPU. Used inside hipamp's own tree and installed with the package, so one
# CMakeLists works for every backend:
#
#   find_package(hipamp CONFIG REQUIRED)
#   add_executable(app main.cpp)
#   target_link_libraries(app PRIVATE hipamp::hipamp)
#   hipamp_as_kernel_sources(app)          # or: hipamp_as_kernel_sources(app kernels.cpp)
#
# For a CUDA package it enables the CUDA language (nvcc as hipamp was built with, unless
# CMAKE_CUDA_COMPILER / CUDACXX name another), marks the sources LANGUAGE CUDA and gives the
# target the package's CUDA architectures unless the project chose its own
# (CMAKE_CUDA_ARCHITECTURES, CUDAARCHS or the target's CUDA_ARCHITECTURES). For a HIP package
# the same with HIP (ROCm's clang, the package's HIP architectures). For a CPU package it does
# nothing: the sources stay C++ and their kernels run on the CPU device.
#
# Without arguments after the target, every source the target has when it is called is marked;
# sources added later are not. A source compiled by the host compiler still builds and runs, on
# the CPU device only (see README, "Kernels on the GPU from your project").
#
# It is a macro because enable_language() must run in the caller's directory scope: the
# variables it defines (compile rules, flags) would vanish at the end of a function.

include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/hipampRocm.cmake")

macro(hipamp_as_kernel_sources _hipamp_target)
  if(DEFINED hipamp_BACKEND)
    set(_hipamp_kernel_backend "${hipamp_BACKEND}")  # from the installed package
  else()
    set(_hipamp_kernel_backend "${HIPAMP_BACKEND_RESOLVED}")  # inside hipamp's tree
  endif()
  if(NOT TARGET ${_hipamp_target})
    message(FATAL_ERROR "hipamp_as_kernel_sources: '${_hipamp_target}' is not a target; call it "
                        "after add_executable/add_library")
  endif()
  if(_hipamp_kernel_backend STREQUAL "cuda" OR _hipamp_kernel_backend STREQUAL "hip")
    string(TOUPPER "${_hipamp_kernel_backend}" _hipamp_kernel_lang)
    get_property(_hipamp_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT _hipamp_kernel_lang IN_LIST _hipamp_languages)
      _hipamp_prepare_language(${_hipamp_kernel_lang})
      enable_language(${_hipamp_kernel_lang})
    endif()
    _hipamp_mark_kernel_sources(${_hipamp_kernel_lang} ${_hipamp_target} ${ARGN})
  elseif(NOT _hipamp_kernel_backend STREQUAL "cpu")
    message(FATAL_ERROR "hipamp_as_kernel_sources: no hipamp backend known (hipamp_BACKEND is "
                        "'${_hipamp_kernel_backend}'); call find_package(hipamp) first")
  endif()
endmacro()

# Before enable_language: the compiler and architectures the package was built with, where the
# project has not chosen. A macro, so the non-cache variables reach the caller's scope.
macro(_hipamp_prepare_language _hipamp_lang)
  if("${_hipamp_lang}" STREQUAL "CUDA")
    if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND hipamp_CUDA_COMPILER
       AND EXISTS "${hipamp_CUDA_COMPILER}")
      set(CMAKE_CUDA_COMPILER "${hipamp_CUDA_COMPILER}" CACHE FILEPATH "CUDA compiler (from hipamp)")
    endif()
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS}
       AND hipamp_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "${hipamp_CUDA_ARCHITECTURES}" CACHE STRING
          "CUDA architectures (hipamp's by default)")
    endif()
    # libhipamp uses the shared CUDA runtime; kernels must register with that same instance.
    if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
      set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
    endif()
  else()
    if(NOT DEFINED CMAKE_HIP_ARCHITECTURES AND hipamp_HIP_ARCHITECTURES)
      set(CMAKE_HIP_ARCHITECTURES "${hipamp_HIP_ARCHITECTURES}" CACHE STRING
          "AMD GPU architectures (hipamp's by default)")
    endif()
    if(NOT CMAKE_HIP_COMPILER AND hipamp_HIP_COMPILER AND EXISTS "${hipamp_HIP_COMPILER}")
      set(CMAKE_HIP_COMPILER "${hipamp_HIP_COMPILER}" CACHE FILEPATH "HIP compiler (from hipamp)")
    endif()
    _hipamp_prepare_hip_language()
  endif()
endmacro()

function(_hipamp_mark_kernel_sources lang target)
  set(sources ${ARGN})
  if(NOT sources)
    get_target_property(sources ${target} SOURCES)
  endif()
  set_source_files_properties(${sources} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE ${lang})
  # A target made before the language was enabled has no architectures of its own.
  get_target_property(arch ${target} ${lang}_ARCHITECTURES)
  if((arch STREQUAL "arch-NOTFOUND" OR arch STREQUAL "") AND CMAKE_${lang}_ARCHITECTURES)
    set_target_properties(${target} PROPERTIES ${lang}_ARCHITECTURES "${CMAKE_${lang}_ARCHITECTURES}")
  endif()
endfunction()

# hipamp_cxxamp_port(<target>): build a target ported from C++ AMP (tools/amp2hipamp.py) with the
# semantics its code was tested under, which native hipamp code does not pay for:
#  - floating point as MSVC's default /fp:precise compiled it: no contraction of a * b + c into
#    one fused multiply-add, in kernels (nvcc --fmad=false, ROCm clang -ffp-contract=off) and on
#    the host (-ffp-contract=off: g++ contracts under -std=gnu++17 on an FMA-capable -march, and
#    a port's CPU reference must round as its kernels do). Programs compare kernel results with
#    a serial CPU loop using ==; an FMA rounds once where the CPU rounds twice;
#  - HIPAMP_ROBUST_ACCESS=1 (config.hpp): Direct3D's out-of-range rules in kernels, for sources
#    not run through the tool (which defines it in each file it ports);
#  - narrowing in braces (`T expected = {15*i, 39*i};` for a struct of floats, ampblas's tests)
#    as MSVC 2012 accepted it and g++ only warns: clang makes it an error (-Wno-narrowing).
# Call it after hipamp_as_kernel_sources. docs/porting.md, "Build" and "Floating point".
function(hipamp_cxxamp_port target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "hipamp_cxxamp_port: '${target}' is not a target")
  endif()
  target_compile_definitions(${target} PRIVATE HIPAMP_ROBUST_ACCESS=1)
  set(gnu_like "$<OR:$<CXX_COMPILER_ID:GNU>,$<CXX_COMPILER_ID:Clang>,$<CXX_COMPILER_ID:AppleClang>>")
  target_compile_options(${target} PRIVATE
    "$<$<AND:$<COMPILE_LANGUAGE:CXX>,${gnu_like}>:-ffp-contract=off;-Wno-narrowing>"
    "$<$<COMPILE_LANGUAGE:CUDA>:--fmad=false;-Xcompiler=-ffp-contract=off>"
    "$<$<COMPILE_LANGUAGE:HIP>:-ffp-contract=off;-Wno-narrowing>")
endfunction()
