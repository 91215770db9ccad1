// Packing routines and the register-blocked micro-kernel of the CPU GEMM, written once and
// compiled once per instruction set by gemm_cpu_<isa>.cpp with that set's compiler flags.
//
// Everything here lives in an anonymous namespace and calls no inline function with external
// linkage (not even std::min): otherwise the linker could keep the AVX-512 copy of such a
// function for the portable code too, and the library would fault on older CPUs.
#pragma once

#include <cstddef>
#include <cstring>

#include "gemm_cpu_kernel_set.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define HIPAMP_GEMM_UNROLL _Pragma("GCC unroll 32")
#define HIPAMP_GEMM_UNROLL_4 _Pragma("GCC unroll 4")
#define HIPAMP_GEMM_RESTRICT __restrict__
#define HIPAMP_GEMM_PREFETCH_WRITE(address) __builtin_prefetch((address), 1, 3)
#else
#define HIPAMP_GEMM_UNROLL
#define HIPAMP_GEMM_UNROLL_4
#define HIPAMP_GEMM_RESTRICT
#define HIPAMP_GEMM_PREFETCH_WRITE(address)
#endif

namespace hipamp::fallback::gemm_impl {
namespace {

#if defined(__GNUC__) || defined(__clang__)
// W lanes of T in one vector register (GCC/Clang vector extensions: +, * and scalar operands
// map onto the target's SIMD instructions; with FMA available, a += s * v becomes one FMA).
template <class T, int W>
struct simd {
  // NOLINTNEXTLINE(modernize-use-using): GCC ignores vector_size on a dependent alias
  typedef T type __attribute__((vector_size(sizeof(T) * W)));
};
#else
// Other compilers: a plain array the optimiser may vectorise.
template <class T, int W>
struct simd {
  struct type {
    T lane[W];
    type& operator+=(const type& o) noexcept {
      for (int l = 0; l < W; ++l) lane[l] += o.lane[l];
      return *this;
    }
    friend type operator*(T s, const type& v) noexcept {
      type r;
      for (int l = 0; l < W; ++l) r.lane[l] = s * v.lane[l];
      return r;
    }
    friend type operator+(const type& a, const type& b) noexcept {
      type r = a;
      return r += b;
    }
  };
};
#endif

inline int min_int(int a, int b) noexcept { return a < b ? a : b; }

// T: element type; W: SIMD lanes; MR x (NV * W): the micro-tile of C held in registers.
template <class T, int W, int MR, int NV>
struct kernels {
  static constexpr int NR = NV * W;
  using vec = typename simd<T, W>::type;

  static vec load(const T* p) noexcept {
    vec v;
    std::memcpy(&v, p, sizeof(vec));
    return v;
  }
  static void store(T* p, const vec& v) noexcept { std::memcpy(p, &v, sizeof(vec)); }

  // C (MR x NR, row stride ldc) = alpha * A_panel * B_panel + beta * C.
  static void micro_tile(int kc, const T* HIPAMP_GEMM_RESTRICT a, const T* HIPAMP_GEMM_RESTRICT b,
                         T* HIPAMP_GEMM_RESTRICT c, std::ptrdiff_t ldc, T alpha, T beta) noexcept {
    vec acc[MR][NV];
    HIPAMP_GEMM_UNROLL
    for (int i = 0; i < MR; ++i) {
      HIPAMP_GEMM_UNROLL
      for (int j = 0; j < NV; ++j) acc[i][j] = vec{};
    }
    // The first rows of C are needed right after the loop; start fetching them now.
    HIPAMP_GEMM_UNROLL
    for (int i = 0; i < MR; ++i) HIPAMP_GEMM_PREFETCH_WRITE(c + i * ldc);
    HIPAMP_GEMM_UNROLL
    for (int i = 0; i < MR; ++i) HIPAMP_GEMM_PREFETCH_WRITE(c + i * ldc + NR - 1);

    HIPAMP_GEMM_UNROLL_4
    for (int p = 0; p < kc; ++p) {
      vec bv[NV];
      HIPAMP_GEMM_UNROLL
      for (int j = 0; j < NV; ++j) bv[j] = load(b + j * W);
      HIPAMP_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        const T ai = a[i];
        HIPAMP_GEMM_UNROLL
        for (int j = 0; j < NV; ++j) acc[i][j] += ai * bv[j];
      }
      a += MR;
      b += NR;
    }

    if (beta == T(0)) {
      HIPAMP_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        HIPAMP_GEMM_UNROLL
        for (int j = 0; j < NV; ++j) store(c + i * ldc + j * W, alpha * acc[i][j]);
      }
    } else {
      HIPAMP_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        HIPAMP_GEMM_UNROLL
        for (int j = 0; j < NV; ++j) {
          T* at = c + i * ldc + j * W;
          store(at, alpha * acc[i][j] + beta * load(at));
        }
      }
    }
  }

  // A micro-tile cut by the edge of C: full tile into a buffer, then the valid part.
  static void edge_tile(int kc, const T* a, const T* b, T* c, std::ptrdiff_t ldc, int rows,
                        int cols, T alpha, T beta) noexcept {
    alignas(64) T tile[MR * NR];
    micro_tile(kc, a, b, tile, NR, T(1), T(0));
    for (int i = 0; i < rows; ++i) {
      T* crow = c + i * ldc;
      const T* trow = tile + i * NR;
      if (beta == T(0)) {
        for (int j = 0; j < cols; ++j) crow[j] = alpha * trow[j];
      } else {
        for (int j = 0; j < cols; ++j) crow[j] = alpha * trow[j] + beta * crow[j];
      }
    }
  }

  static void rectangle(int rows, int cols, int kc, const T* a, const T* b, T* c,
                        std::ptrdiff_t ldc, T alpha, T beta, int nc_chunk) {
    // One chunk of packed B (kc x nc_chunk) stays in L2 while every MR-row panel of A, each
    // in L1 for its sweep, passes over it.
    for (int j0 = 0; j0 < cols; j0 += nc_chunk) {
      const int j_end = min_int(cols, j0 + nc_chunk);
      for (int i = 0; i < rows; i += MR) {
        const T* a_panel = a + static_cast<std::ptrdiff_t>(i) * kc;
        const int tile_rows = min_int(MR, rows - i);
        for (int j = j0; j < j_end; j += NR) {
          const T* b_panel = b + static_cast<std::ptrdiff_t>(j) * kc;
          T* c_tile = c + i * ldc + j;
          const int tile_cols = min_int(NR, j_end - j);
          if (tile_rows == MR && tile_cols == NR) {
            micro_tile(kc, a_panel, b_panel, c_tile, ldc, alpha, beta);
          } else {
            edge_tile(kc, a_panel, b_panel, c_tile, ldc, tile_rows, tile_cols, alpha, beta);
          }
        }
      }
    }
  }

  // Panels of `width` lanes from a matrix stored either with the panel's lanes contiguous
  // (lanes_contiguous: element (lane, p) at src[p * ld + lane]) or with depth contiguous
  // (element (lane, p) at src[lane * ld + p]).
  template <int Width>
  static void pack_panels(const T* src, std::ptrdiff_t ld, bool lanes_contiguous, int lanes, int kc,
                          T* HIPAMP_GEMM_RESTRICT dst) noexcept {
    for (int l0 = 0; l0 < lanes; l0 += Width) {
      const int width = min_int(Width, lanes - l0);
      if (lanes_contiguous) {
        const T* s = src + l0;
        if (width == Width) {
          for (int p = 0; p < kc; ++p) {
            HIPAMP_GEMM_UNROLL
            for (int l = 0; l < Width; ++l) dst[p * Width + l] = s[p * ld + l];
          }
        } else {
          for (int p = 0; p < kc; ++p) {
            for (int l = 0; l < Width; ++l) dst[p * Width + l] = l < width ? s[p * ld + l] : T(0);
          }
        }
      } else {
        const T* s = src + l0 * ld;
        // Row by row: contiguous reads, writes strided by Width inside one panel (in L1).
        for (int l = 0; l < width; ++l) {
          const T* row = s + l * ld;
          for (int p = 0; p < kc; ++p) dst[p * Width + l] = row[p];
        }
        for (int l = width; l < Width; ++l) {
          for (int p = 0; p < kc; ++p) dst[p * Width + l] = T(0);
        }
      }
      dst += static_cast<std::ptrdiff_t>(Width) * kc;
    }
  }

  static void pack_a(const hipamp::detail::gemm_problem<T>& pr, int i0, int rows, int p0, int kc,
                     T* dst) {
    if (pr.op_a == matrix_op::none) {  // stored M x K: element (i, p) at a[i * lda + p]
      pack_panels<MR>(pr.a + i0 * pr.lda + p0, pr.lda, false, rows, kc, dst);
    } else {  // stored K x M: element (i, p) at a[p * lda + i]
      pack_panels<MR>(pr.a + p0 * pr.lda + i0, pr.lda, true, rows, kc, dst);
    }
  }

  static void pack_b(const hipamp::detail::gemm_problem<T>& pr, int j0, int cols, int p0, int kc,
                     T* dst) {
    if (pr.op_b == matrix_op::none) {  // stored K x N: element (p, j) at b[p * ldb + j]
      pack_panels<NR>(pr.b + p0 * pr.ldb + j0, pr.ldb, true, cols, kc, dst);
    } else {  // stored N x K: element (p, j) at b[j * ldb + p]
      pack_panels<NR>(pr.b + j0 * pr.ldb + p0, pr.ldb, false, cols, kc, dst);
    }
  }

  static kernel_set<T> make(gemm_isa isa, int kc, int nc_chunk) noexcept {
    kernel_set<T> set;
    set.isa = isa;
    set.mr = MR;
    set.nr = NR;
    set.kc = kc;
    set.nc_chunk = (nc_chunk / NR) * NR;
    set.pack_a = &pack_a;
    set.pack_b = &pack_b;
    set.rectangle = &rectangle;
    return set;
  }
};

}  // namespace
}  // namespace hipamp::fallback::gemm_impl
