// The CPU GEMM driver: blocking, packing and the thread split, shared by every instruction
// set. Compiled for the baseline target; the SIMD work happens behind kernel_set's pointers.
#include <hipamp/fallback/gemm.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include <hipamp/exceptions.hpp>
#include <hipamp/fallback/simple_executor.hpp>

#include <hipamp/detail/host_memory.hpp>
#include "gemm_cpu_kernel_set.hpp"

#if HIPAMP_HAS_OPENMP
#include <omp.h>
#endif

namespace hipamp::fallback {
namespace {

using gemm_impl::kernel_set;
using gemm_impl::kernel_table;

bool cpu_has(gemm_isa isa) noexcept {
  switch (isa) {
    case gemm_isa::portable:
      return true;
    case gemm_isa::avx2:
#if HIPAMP_GEMM_HAVE_AVX2
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
      return false;
#endif
    case gemm_isa::avx512:
#if HIPAMP_GEMM_HAVE_AVX512
      return __builtin_cpu_supports("avx512f");
#else
      return false;
#endif
  }
  return false;
}

// Each table is built on first use and only after cpu_has said yes: the builders are compiled
// with their instruction set's flags, so even making a table (copying its structs) may use
// instructions this CPU lacks (an -Og build faults in avx512_kernels() on an AVX2 machine).
const kernel_table* table_for(gemm_isa isa) noexcept {
  if (!cpu_has(isa)) return nullptr;
  switch (isa) {
    case gemm_isa::portable: {
      static const kernel_table portable = gemm_impl::portable_kernels();
      return &portable;
    }
#if HIPAMP_GEMM_HAVE_AVX2
    case gemm_isa::avx2: {
      static const kernel_table avx2 = gemm_impl::avx2_kernels();
      return &avx2;
    }
#endif
#if HIPAMP_GEMM_HAVE_AVX512
    case gemm_isa::avx512: {
      static const kernel_table avx512 = gemm_impl::avx512_kernels();
      return &avx512;
    }
#endif
    default:
      return nullptr;
  }
}

const kernel_set<float>& pick(const kernel_table& t, float*) noexcept { return t.f32; }
const kernel_set<double>& pick(const kernel_table& t, double*) noexcept { return t.f64; }

template <class T>
const kernel_set<T>& kernels_for(gemm_isa isa) {
  const kernel_table* table = table_for(isa);
  if (table == nullptr) {
    throw unsupported_feature(std::string("hipamp: the CPU GEMM kernels for ") + to_string(isa) +
                              " are not available (not built into this libhipamp, or this CPU "
                              "lacks the instructions)");
  }
  return pick(*table, static_cast<T*>(nullptr));
}

int ceil_div(int a, int b) noexcept { return (a + b - 1) / b; }

// Packing buffers reused across calls from the same host thread, so a GEMM does not pay page
// faults on fresh memory every time. At most a few MB per calling thread.
class packing_buffer {
 public:
  void* get(std::size_t bytes) {
    if (bytes > capacity_) {
      buffer_.reset();
      buffer_ = hipamp::detail::allocate_host(bytes);
      capacity_ = bytes;
    }
    return buffer_.get();
  }

 private:
  hipamp::detail::host_buffer buffer_;
  std::size_t capacity_ = 0;
};

// How the team splits a block of C: rows x cols rectangles of whole micro-panels, chosen to
// minimise the largest rectangle (the critical path), then its perimeter (the packed data a
// thread streams through its caches).
struct thread_grid {
  int rows = 1;
  int cols = 1;
};

thread_grid split(int team, int a_panels, int b_panels, int mr, int nr) noexcept {
  thread_grid best;
  std::int64_t best_area = INT64_MAX;
  std::int64_t best_perimeter = INT64_MAX;
  for (int rows = 1; rows <= team && rows <= a_panels; ++rows) {
    const int cols = std::min(team / rows, b_panels);
    const std::int64_t height = static_cast<std::int64_t>(ceil_div(a_panels, rows)) * mr;
    const std::int64_t width = static_cast<std::int64_t>(ceil_div(b_panels, cols)) * nr;
    const std::int64_t area = height * width;
    const std::int64_t perimeter = height + width;
    if (area < best_area || (area == best_area && perimeter < best_perimeter)) {
      best = {rows, cols};
      best_area = area;
      best_perimeter = perimeter;
    }
  }
  return best;
}

// Enough work per thread (about 4 MFLOP) that the fork and the barriers stay small beside it.
int threads_for(int m, int n, int k) noexcept {
  const double flops = 2.0 * m * n * k;
  const double by_work = flops / 4.0e6;
  const int available = thread_count();
  if (by_work < 2.0) return 1;
  return by_work >= available ? available : static_cast<int>(by_work);
}

template <class T>
void scale_c(const hipamp::detail::gemm_problem<T>& p) {
  for (int i = 0; i < p.m; ++i) {
    T* row = p.c + i * p.ldc;
    if (p.beta == T(0)) {
      std::fill(row, row + p.n, T(0));
    } else if (p.beta != T(1)) {
      for (int j = 0; j < p.n; ++j) row[j] *= p.beta;
    }
  }
}

template <class T>
void run(const hipamp::detail::gemm_problem<T>& p, const kernel_set<T>& ks) {
  if (p.m <= 0 || p.n <= 0) return;
  // BLAS semantics: with alpha == 0 (or nothing to sum) A and B are not read.
  if (p.alpha == T(0) || p.k <= 0) {
    scale_c(p);
    return;
  }
  const int mr = ks.mr;
  const int nr = ks.nr;
  const int kc_max = std::min(ks.kc, p.k);
  // Rows of op(A) and columns of op(B) packed at once; bounds the buffers to a few MB.
  const int m_block = std::min(p.m, ceil_div(4096, mr) * mr);
  const int n_block = std::min(p.n, ceil_div(4096, nr) * nr);
  const std::size_t a_elements =
      static_cast<std::size_t>(ceil_div(m_block, mr)) * mr * static_cast<std::size_t>(kc_max);
  const std::size_t b_elements =
      static_cast<std::size_t>(ceil_div(n_block, nr)) * nr * static_cast<std::size_t>(kc_max);
  thread_local packing_buffer buffer;
  const std::size_t a_bytes = (a_elements * sizeof(T) + 63) / 64 * 64;
  auto* base = static_cast<std::byte*>(buffer.get(a_bytes + b_elements * sizeof(T)));
  T* const packed_a = reinterpret_cast<T*>(base);
  T* const packed_b = reinterpret_cast<T*>(base + a_bytes);
  const int threads = threads_for(p.m, p.n, p.k);

#if HIPAMP_HAS_OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1)
#endif
  {
#if HIPAMP_HAS_OPENMP
    const int me = omp_get_thread_num();
    const int team = omp_get_num_threads();
#else
    const int me = 0;
    const int team = 1;
    (void)threads;
#endif
    for (int jc = 0; jc < p.n; jc += n_block) {
      const int nc = std::min(n_block, p.n - jc);
      const int b_panels = ceil_div(nc, nr);
      for (int pc = 0; pc < p.k; pc += kc_max) {
        const int kc = std::min(kc_max, p.k - pc);
        // Later slices of K accumulate onto what the first wrote.
        const T beta = pc == 0 ? p.beta : T(1);
        // No barrier here: the one after packing A also covers packed B.
#if HIPAMP_HAS_OPENMP
#pragma omp for schedule(static) nowait
#endif
        for (int panel = 0; panel < b_panels; ++panel) {
          ks.pack_b(p, jc + panel * nr, std::min(nr, nc - panel * nr), pc, kc,
                    packed_b + static_cast<std::ptrdiff_t>(panel) * nr * kc);
        }
        for (int ic = 0; ic < p.m; ic += m_block) {
          const int mc = std::min(m_block, p.m - ic);
          const int a_panels = ceil_div(mc, mr);
#if HIPAMP_HAS_OPENMP
#pragma omp for schedule(static)
#endif
          for (int panel = 0; panel < a_panels; ++panel) {
            ks.pack_a(p, ic + panel * mr, std::min(mr, mc - panel * mr), pc, kc,
                      packed_a + static_cast<std::ptrdiff_t>(panel) * mr * kc);
          }
          const thread_grid grid = split(team, a_panels, b_panels, mr, nr);
          if (me < grid.rows * grid.cols) {
            const int r = me / grid.cols;
            const int q = me % grid.cols;
            const int a0 = a_panels * r / grid.rows;
            const int a1 = a_panels * (r + 1) / grid.rows;
            const int b0 = b_panels * q / grid.cols;
            const int b1 = b_panels * (q + 1) / grid.cols;
            const int rows = std::min(mc, a1 * mr) - a0 * mr;
            const int cols = std::min(nc, b1 * nr) - b0 * nr;
            if (rows > 0 && cols > 0) {
              ks.rectangle(rows, cols, kc, packed_a + static_cast<std::ptrdiff_t>(a0) * mr * kc,
                           packed_b + static_cast<std::ptrdiff_t>(b0) * nr * kc,
                           p.c + static_cast<std::ptrdiff_t>(ic + a0 * mr) * p.ldc + jc + b0 * nr,
                           p.ldc, p.alpha, beta, ks.nc_chunk);
            }
          }
          // Packed A (and, after the last block, packed B) is overwritten next.
#if HIPAMP_HAS_OPENMP
#pragma omp barrier
#endif
        }
      }
    }
  }
}

}  // namespace

const char* to_string(gemm_isa isa) noexcept {
  switch (isa) {
    case gemm_isa::portable:
      return "portable";
    case gemm_isa::avx2:
      return "avx2";
    case gemm_isa::avx512:
      return "avx512";
  }
  return "unknown";
}

bool gemm_isa_available(gemm_isa isa) noexcept { return table_for(isa) != nullptr; }

gemm_isa gemm_best_isa() noexcept {
  static const gemm_isa best = [] {
    for (gemm_isa isa : {gemm_isa::avx512, gemm_isa::avx2}) {
      if (gemm_isa_available(isa)) return isa;
    }
    return gemm_isa::portable;
  }();
  return best;
}

void gemm_cpu(const hipamp::detail::gemm_problem<float>& problem, gemm_isa isa) {
  run(problem, kernels_for<float>(isa));
}
void gemm_cpu(const hipamp::detail::gemm_problem<double>& problem, gemm_isa isa) {
  run(problem, kernels_for<double>(isa));
}
void gemm_cpu(const hipamp::detail::gemm_problem<float>& problem) {
  gemm_cpu(problem, gemm_best_isa());
}
void gemm_cpu(const hipamp::detail::gemm_problem<double>& problem) {
  gemm_cpu(problem, gemm_best_isa());
}

}  // namespace hipamp::fallback
