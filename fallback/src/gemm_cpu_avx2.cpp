// The CPU GEMM kernels for AVX2 + FMA, compiled with -mavx2 -mfma and used only when the CPU
// has both: 6 x 2 ymm vectors of C in registers (12 of 16), as in BLIS's Haswell kernel.
#include "gemm_cpu_kernels.hpp"

#if !defined(__AVX2__) || !defined(__FMA__)
#error "gemm_cpu_avx2.cpp must be compiled with -mavx2 -mfma"
#endif

namespace hipamp::fallback::gemm_impl {

kernel_table avx2_kernels() {
  kernel_table table;
  table.f32 = kernels<float, 8, 6, 2>::make(gemm_isa::avx2, 256, 512);
  table.f64 = kernels<double, 4, 6, 2>::make(gemm_isa::avx2, 256, 256);
  return table;
}

}  // namespace hipamp::fallback::gemm_impl
