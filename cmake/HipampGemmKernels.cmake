# The CPU GEMM's micro-kernels: one translation unit per instruction set, each compiled with
# that set's flags and chosen at run time (fallback/src/gemm_cpu.cpp), so a distribution build
# uses AVX-512 or AVX2 where the CPU has them and still runs on any x86-64.
function(hipamp_add_gemm_kernels target)
  set(_dir "${PROJECT_SOURCE_DIR}/fallback/src")
  target_sources(${target} PRIVATE "${PROJECT_SOURCE_DIR}/lib/gemm.cpp" "${_dir}/gemm_cpu.cpp"
                                   "${_dir}/gemm_cpu_portable.cpp")
  set(_have_avx2 0)
  set(_have_avx512 0)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    target_sources(${target} PRIVATE "${_dir}/gemm_cpu_avx2.cpp" "${_dir}/gemm_cpu_avx512.cpp")
    set_source_files_properties("${_dir}/gemm_cpu_avx2.cpp" TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
    set_source_files_properties("${_dir}/gemm_cpu_avx512.cpp" TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "-mavx512f;-mfma")
    set(_have_avx2 1)
    set(_have_avx512 1)
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    # a += s * v must become one FMA wherever the target has it, whatever the -std mode.
    foreach(_src gemm_cpu_portable.cpp gemm_cpu_avx2.cpp gemm_cpu_avx512.cpp)
      set_property(SOURCE "${_dir}/${_src}" TARGET_DIRECTORY ${target} APPEND PROPERTY
                   COMPILE_OPTIONS "-ffp-contract=fast")
    endforeach()
  endif()
  # The GPU GEMM is compiled into libhipamp too (float and double in two translation units so
  # they build in parallel): callers need no GPU compiler for hipamp::gemm.
  if(HIPAMP_BACKEND_RESOLVED STREQUAL "cuda" OR HIPAMP_BACKEND_RESOLVED STREQUAL "hip")
    string(TOUPPER "${HIPAMP_BACKEND_RESOLVED}" _language)
    set(_gpu_sources "${PROJECT_SOURCE_DIR}/lib/gemm_gpu_float.cpp"
                     "${PROJECT_SOURCE_DIR}/lib/gemm_gpu_double.cpp")
    target_sources(${target} PRIVATE ${_gpu_sources})
    # lib/gemm.cpp too: its dispatch (detail::on_device) reaches the GPU room only in a GPU unit.
    set_source_files_properties(${_gpu_sources} "${PROJECT_SOURCE_DIR}/lib/gemm.cpp"
                                TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE ${_language})
  endif()
  target_compile_definitions(${target} PRIVATE HIPAMP_GEMM_HAVE_AVX2=${_have_avx2}
                                               HIPAMP_GEMM_HAVE_AVX512=${_have_avx512})
endfunction()
