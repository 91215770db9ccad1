// The CPU device's GEMM: C = alpha * op(A) * op(B) + beta * C on host memory, compiled into
// libhipamp for float and double (user translation units need no OpenMP for it).
//
// Goto/BLIS structure: a KC-deep slice of op(B) is packed into NR-wide micro-panels and a
// block of op(A) into MR-tall micro-panels (both by all threads together), then each thread
// computes one rectangle of C with a register-blocked SIMD micro-kernel (MR x NR of C held
// in vector registers). The micro-kernel is compiled once per instruction set (portable,
// AVX2+FMA, AVX-512) and the widest one this CPU runs is picked at run time, so distribution
// builds need no -march flags.
#pragma once

#include <hipamp/algorithm/gemm/problem.hpp>
#include <hipamp/fallback/simple_executor.hpp>

namespace hipamp::fallback {

enum class gemm_isa {
  portable,  // 128-bit vectors of the baseline target (SSE2 on x86-64, NEON on AArch64)
  avx2,      // 256-bit AVX2 with FMA
  avx512,    // 512-bit AVX-512F
};

const char* to_string(gemm_isa isa) noexcept;

// True when this libhipamp holds kernels for `isa` and this CPU (and OS) can run them.
bool gemm_isa_available(gemm_isa isa) noexcept;
// The widest available instruction set: what gemm_cpu uses by default.
gemm_isa gemm_best_isa() noexcept;

// Runs on the CPU device's threads (OpenMP in libhipamp); returns when C is written.
// The pointers are host memory; the problem must be valid (hipamp::gemm checks shapes).
void gemm_cpu(const hipamp::detail::gemm_problem<float>& problem);
void gemm_cpu(const hipamp::detail::gemm_problem<double>& problem);
// The same with a chosen instruction set (tests and benchmarks compare them); throws
// unsupported_feature naming `isa` when it is not available.
void gemm_cpu(const hipamp::detail::gemm_problem<float>& problem, gemm_isa isa);
void gemm_cpu(const hipamp::detail::gemm_problem<double>& problem, gemm_isa isa);

// The CPU device's side of the gemm dispatch (lib/gemm.cpp); done when this returns.
template <class T>
hipamp::detail::event_ptr gemm_on(const device_target& /*on*/,
                                  const hipamp::detail::gemm_problem<T>& problem) {
  gemm_cpu(problem);  // the CPU device and the emulated discrete device hand out host memory
  return hipamp::detail::ready_event();
}

}  // namespace hipamp::fallback
