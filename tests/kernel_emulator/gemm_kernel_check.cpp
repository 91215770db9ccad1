// The GPU GEMM kernel (include/hipamp/backend/gpu/gemm_kernels.hpp) on the kernel emulator
// (README.md; built by CMake with include/cuda_runtime.h forced in, as run.sh builds the
// library's other kernels): every configuration libhipamp compiles, every transpose, 16-byte
// and element-wise access, odd shapes across the tile edges, alpha/beta (beta = 0 over
// NaN-poisoned C, alpha = 0), leading dimensions wider than the matrices. Blocks run
// concurrently on the emulator's workers, each with its own shared memory, so a missing
// __syncthreads or a block writing outside its tile shows.
// Reference in long double; per-element bound (k + 4) eps (|alpha| sum |a||b| + |beta||c|).
// Also checks that C's padding columns are never written.
#include <hipamp/backend/gpu/gemm_kernels.hpp>
#include <hipamp/backend/gpu/tuning_gemm.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace hx = hipamp;
using hx::detail::gpu::gemm::config_list;

namespace {

std::mt19937 rng(20240611u);
int passed = 0;
int failed = 0;

template <class Cfg, bool TA, bool TB, bool VEC>
void run_case(int m, int n, int k, int pad, typename Cfg::value_type alpha,
              typename Cfg::value_type beta) {
  using T = typename Cfg::value_type;
  using namespace hx::detail::gpu::gemm;
  std::uniform_real_distribution<double> dist(-1, 1);
  const int a_rows = TA ? k : m, a_cols = TA ? m : k;
  const int b_rows = TB ? n : k, b_cols = TB ? k : n;
  const int lda = a_cols + pad, ldb = b_cols + pad, ldc = n + pad;
  std::vector<lanes<T>> a_store((std::size_t(a_rows) * lda + 8) / lanes<T>::width + 1);
  std::vector<lanes<T>> b_store((std::size_t(b_rows) * ldb + 8) / lanes<T>::width + 1);
  std::vector<lanes<T>> c_store((std::size_t(m) * ldc + 8) / lanes<T>::width + 1);
  // 16-byte kernels get aligned bases; element-wise kernels one element in.
  const int offset = VEC ? 0 : 1;
  T* a = reinterpret_cast<T*>(a_store.data()) + offset;
  T* b = reinterpret_cast<T*>(b_store.data()) + offset;
  T* c = reinterpret_cast<T*>(c_store.data()) + offset;
  for (std::size_t i = 0; i < std::size_t(a_rows) * lda; ++i) a[i] = T(dist(rng));
  for (std::size_t i = 0; i < std::size_t(b_rows) * ldb; ++i) b[i] = T(dist(rng));
  for (std::size_t i = 0; i < std::size_t(m) * ldc; ++i) c[i] = T(dist(rng));
  std::vector<T> c0(c, c + std::size_t(m) * ldc);
  if (beta == T(0)) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) c[std::size_t(i) * ldc + j] = std::numeric_limits<T>::quiet_NaN();
    }
  }
  hx::detail::gemm_problem<T> p;
  p.op_a = TA ? hx::matrix_op::transpose : hx::matrix_op::none;
  p.op_b = TB ? hx::matrix_op::transpose : hx::matrix_op::none;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.beta = beta;
  p.a = a;
  p.lda = lda;
  p.b = b;
  p.ldb = ldb;
  p.c = c;
  p.ldc = ldc;
  if (vector_access_ok(p) != VEC) {
    std::printf("test setup: vector_access_ok disagrees with the case\n");
    ++failed;
    return;
  }
  emu::run_grid(static_cast<unsigned>(tile_count<Cfg>(m, n)), Cfg::THREADS,
                [&] { gemm_kernel<Cfg, TA, TB, VEC>(p); });
  int bad = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < ldc; ++j) {
      const std::size_t at = std::size_t(i) * ldc + j;
      if (j >= n) {  // padding: untouched
        if (!(c[at] == c0[at]) && bad++ < 3) std::printf("  padding C(%d, %d) written\n", i, j);
        continue;
      }
      long double sum = 0, magnitude = 0;
      if (alpha != T(0)) {
        for (int q = 0; q < k; ++q) {
          const long double t = static_cast<long double>(p.a_at(i, q)) * p.b_at(q, j);
          sum += t;
          magnitude += std::fabs(t);
        }
      }
      long double ref = static_cast<long double>(alpha) * sum;
      long double scale = std::fabs(static_cast<long double>(alpha)) * magnitude;
      if (beta != T(0)) {
        ref += static_cast<long double>(beta) * c0[at];
        scale += std::fabs(static_cast<long double>(beta) * c0[at]);
      }
      const long double bound =
          (k + 4) * static_cast<long double>(std::numeric_limits<T>::epsilon()) * scale;
      if (!(std::fabs(c[at] - ref) <= bound) && bad++ < 3) {
        std::printf("  C(%d, %d) = %.9g, reference %.9g\n", i, j, double(c[at]), double(ref));
      }
    }
  }
  if (bad == 0) {
    ++passed;
  } else {
    ++failed;
    std::printf(
        "FAILED: %s %dx%dx%d, op_a %s, op_b %s, %s access, m=%d n=%d k=%d ld pad %d, "
        "alpha %g beta %g: %d wrong\n",
        sizeof(T) == 4 ? "float" : "double", Cfg::BM, Cfg::BN, Cfg::BK, TA ? "T" : "N",
        TB ? "T" : "N", VEC ? "16-byte" : "element", m, n, k, pad, double(alpha), double(beta),
        bad);
  }
}

template <class Cfg, bool TA, bool TB>
void cases() {
  using T = typename Cfg::value_type;
  constexpr int V = Cfg::V;
  // Element-wise access (odd leading dimensions, misaligned bases): any shape.
  run_case<Cfg, TA, TB, false>(1, 1, 1, 1, T(1), T(0));
  run_case<Cfg, TA, TB, false>(Cfg::BM + 3, Cfg::BN - 1, 2 * Cfg::BK + 3, 3, T(1.5), T(-0.5));
  run_case<Cfg, TA, TB, false>(5, Cfg::BN + 7, 1, 1, T(-1), T(0));
  // 16-byte access: every dimension and padding a multiple of V, so all leading dimensions are;
  // M, N, K still cut tiles and slices.
  run_case<Cfg, TA, TB, true>(Cfg::BM + 4 * V, 3 * V, 5 * V, 0, T(2), T(0.5));
  run_case<Cfg, TA, TB, true>(2 * V, Cfg::BN + V, Cfg::BK + V, V, T(1), T(1));
  run_case<Cfg, TA, TB, true>(Cfg::BM - V, 2 * Cfg::BN + 2 * V, 3 * Cfg::BK + V, 0, T(-1), T(0));
  run_case<Cfg, TA, TB, true>(3 * V, 2 * V, 7 * V, 0, T(0), T(0.25));  // alpha = 0
}

template <class Cfg>
void all_transposes() {
  cases<Cfg, false, false>();
  cases<Cfg, false, true>();
  cases<Cfg, true, false>();
  cases<Cfg, true, true>();
}

template <class... Configs>
void each(config_list<Configs...>) {
  (all_transposes<Configs>(), ...);
}

}  // namespace

int main() {
  each(hx::detail::gpu::gemm::float_configs{});
  each(hx::detail::gpu::gemm::double_configs{});
  std::printf("gemm kernel on the kernel emulator: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
