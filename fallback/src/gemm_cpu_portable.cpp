// The CPU GEMM kernels for the baseline target of this build (SSE2 on x86-64, NEON on
// AArch64): 128-bit vectors, 6 x 2 vectors of C in registers (12 of the 16 registers).
#include "gemm_cpu_kernels.hpp"

namespace hipamp::fallback::gemm_impl {

kernel_table portable_kernels() {
  kernel_table table;
  table.f32 = kernels<float, 4, 6, 2>::make(gemm_isa::portable, 256, 512);
  table.f64 = kernels<double, 2, 6, 2>::make(gemm_isa::portable, 256, 256);
  return table;
}

}  // namespace hipamp::fallback::gemm_impl
