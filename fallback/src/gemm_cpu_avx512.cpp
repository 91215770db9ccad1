// The CPU GEMM kernels for AVX-512F, compiled with -mavx512f (FMA is part of it) and used
// only when the CPU and OS support it: 12 x 2 zmm vectors of C in registers (24 of 32).
#include "gemm_cpu_kernels.hpp"

#if !defined(__AVX512F__)
#error "gemm_cpu_avx512.cpp must be compiled with -mavx512f"
#endif

namespace hipamp::fallback::gemm_impl {

kernel_table avx512_kernels() {
  kernel_table table;
  table.f32 = kernels<float, 16, 12, 2>::make(gemm_isa::avx512, 256, 512);
  table.f64 = kernels<double, 8, 12, 2>::make(gemm_isa::avx512, 192, 256);
  return table;
}

}  // namespace hipamp::fallback::gemm_impl
