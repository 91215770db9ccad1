# Resolves HIPAMP_BACKEND (auto, cpu, cuda, hip) to the backend this build uses and sets:
#   HIPAMP_BACKEND_RESOLVED            cpu | cuda | hip
#   HIPAMP_BACKEND_SOURCES             the runtime wrapper's sources for libhipamp
#   HIPAMP_BACKEND_LINK_LIBRARIES      what libhipamp links publicly
#   HIPAMP_BACKEND_INTERFACE_OPTIONS   compile options consumers' kernels need
#   HIPAMP_BACKEND_IS_{CPU,CUDA,HIP}   0/1 for the generated header
# A build has at most one GPU backend; the CPU device is always present.

set(_asked "${HIPAMP_BACKEND}")
if(NOT _asked MATCHES "^(auto|cpu|cuda|hip)$")
  message(FATAL_ERROR "hipamp: HIPAMP_BACKEND='${_asked}' is not one of auto, cpu, cuda, hip")
endif()

set(HIPAMP_BACKEND_RESOLVED cpu)
set(HIPAMP_BACKEND_SOURCES lib/gpu_runtime_none.cpp)
set(HIPAMP_BACKEND_LINK_LIBRARIES "")
set(HIPAMP_BACKEND_INTERFACE_OPTIONS "")

if(_asked STREQUAL "auto")
  # GPU backends arrive with the GPU device; until then auto means the CPU device alone.
  message(STATUS "hipamp: HIPAMP_BACKEND=auto found no supported GPU backend; building CPU-only")
elseif(NOT _asked STREQUAL "cpu")
  message(FATAL_ERROR "hipamp: the ${_asked} backend is not part of this version yet")
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
