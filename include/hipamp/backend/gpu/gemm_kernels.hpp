// The GPU GEMM kernel, C = alpha * op(A) * op(B) + beta * C, in FP32/FP64 FMA arithmetic
// (no tensor cores, so results match FP32 references). HIP kernel language; compiled into
// libhipamp (lib/gemm_gpu_*.cpp) for float and double.
//
// Structure (one thread block computes a BM x BN tile of C):
//   - K is walked in BK-deep slices. Each slice of op(A) (BM x BK) and op(B) (BK x BN) is read
//     from global memory with 16-byte loads into registers while the previous slice is being
//     multiplied, then stored to the other half of a double-buffered shared-memory tile: one
//     barrier per slice.
//   - Shared tiles are k-major (element (k, m) at k * (BM + V) + m), so a thread reads its
//     fragment of op(A) and of op(B) for one k as 16-byte vectors at fixed offsets from one
//     base register. An operand whose global layout is k-contiguous is transposed on its way
//     in (scalar stores); the one-vector row padding spreads those stores over all banks.
//   - Warp tiling: a warp owns a WM x WN tile, its 32 lanes a WARP_ROWS x WARP_COLS grid; each
//     thread accumulates RM x RN blocks of V x V elements (V = one 16-byte vector), spread at
//     warp-tile strides, in registers: TM x TN = (RM V) x (RN V) accumulators.
//   - Edges: any M, N, K. Rows/columns past the matrix are loaded as zeros and not stored;
//     the last, partial K slice is zero-filled. 16-byte accesses are used when every base
//     pointer and leading dimension allows them (VEC), else the same code runs element-wise.
//   - Thread blocks are launched in groups of GROUP_M tile rows so that concurrently running
//     blocks share panels of A and B in L2.
#pragma once

#include <cstdint>

#include <hipamp/algorithm/gemm/problem.hpp>
#include <hipamp/backend/gpu/kernel_language.hpp>

namespace hipamp::detail::gpu::gemm {

// One 16-byte vector of T: what a thread moves per global or shared access.
template <class T>
struct alignas(16) lanes {
  static constexpr int width = 16 / static_cast<int>(sizeof(T));
  T x[width];
};

template <class T, int BM_, int BN_, int BK_, int WARP_ROWS_, int RM_, int RN_, int MIN_BLOCKS_>
struct tile_config {
  using value_type = T;
  static constexpr int V = lanes<T>::width;
  static constexpr int BM = BM_;
  static constexpr int BN = BN_;
  static constexpr int BK = BK_;
  static constexpr int WARP_ROWS = WARP_ROWS_;
  static constexpr int WARP_COLS = 32 / WARP_ROWS_;
  static constexpr int RM = RM_;
  static constexpr int RN = RN_;
  static constexpr int TM = RM * V;  // accumulators per thread: TM x TN
  static constexpr int TN = RN * V;
  static constexpr int WM = WARP_ROWS * TM;  // warp tile
  static constexpr int WN = WARP_COLS * TN;
  static constexpr int WARPS_M = BM / WM;
  static constexpr int WARPS_N = BN / WN;
  static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;  // per SM, for __launch_bounds__
  static constexpr int GROUP_M = 8;
  // Shared rows are padded by one 16-byte vector (see tile_loader::store).
  static constexpr int A_STRIDE = BM + V;
  static constexpr int B_STRIDE = BN + V;
  static constexpr int SMEM_BYTES = 2 * BK * (A_STRIDE + B_STRIDE) * static_cast<int>(sizeof(T));

  static_assert(32 % WARP_ROWS == 0, "a warp's lanes form a WARP_ROWS x WARP_COLS grid");
  static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must cover the block tile");
  static_assert(BK % V == 0, "BK must be a whole number of 16-byte vectors");
  static_assert(BM % 32 == 0 && BN % 32 == 0, "the bank analysis assumes tiles of 32-multiples");
  static_assert((BM * BK / V) % THREADS == 0 && (BN * BK / V) % THREADS == 0,
                "each thread loads a whole number of vectors per slice");
  static_assert(SMEM_BYTES <= 48 * 1024, "static shared memory is limited to 48 KB");
};

// Global -> registers -> shared for one operand's BK-deep slice, seen as R rows (M for A,
// N for B) by BK depths. K_CONTIGUOUS: element (r, k) at base[r * ld + k] (A not transposed,
// B transposed); otherwise at base[k * ld + r] (A transposed, B not transposed).
template <class Cfg, int R, bool K_CONTIGUOUS, bool VEC>
struct tile_loader {
  using T = typename Cfg::value_type;
  static constexpr int V = Cfg::V;
  static constexpr int STRIDE = R + V;  // padded shared row (one k)
  static constexpr int PER_THREAD = R * Cfg::BK / V / Cfg::THREADS;
  // K_CONTIGUOUS: a vector covers V depths of one row, and THREADS_PER_ROW threads cover a
  // row's BK depths; else a vector covers V rows of one depth.
  static constexpr int THREADS_PER_ROW = Cfg::BK / V;
  // Transposing stores: a warp writes element v of its vectors at once. With at most two
  // vectors per row, neighbouring lanes take neighbouring depth groups of one row (whole
  // 32-byte sectors per row in global memory) and the padding (V * STRIDE = 16 banks apart)
  // separates the two groups' banks. With more, neighbouring lanes take neighbouring rows:
  // 32 consecutive rows of one depth, conflict-free for any padding.
  static constexpr bool ROWS_FASTEST = THREADS_PER_ROW > 2;

  const T* ptr[PER_THREAD];    // the vector's first element in the current slice
  int shared_at[PER_THREAD];   // where the vector's first element goes in the shared tile
  int depth[PER_THREAD];       // first depth (of BK) the vector covers
  int rows_valid[PER_THREAD];  // !K_CONTIGUOUS: how many of the vector's V rows exist
  lanes<T> staged[PER_THREAD];

  // `first_row`: the block's first row of R; `rows`: M or N.
  __device__ __forceinline__ tile_loader(const T* base, std::ptrdiff_t ld, int first_row, int rows,
                                         int tid) {
#pragma unroll
    for (int l = 0; l < PER_THREAD; ++l) {
      const int id = tid + l * Cfg::THREADS;
      if (K_CONTIGUOUS) {
        const int row = ROWS_FASTEST ? id % R : id / THREADS_PER_ROW;
        depth[l] = (ROWS_FASTEST ? id / R : id % THREADS_PER_ROW) * V;
        // Rows past the matrix read its last row instead: they only feed accumulators of
        // rows of C that are never stored, and the hot loop needs no row predicate.
        const int source_row = first_row + row < rows ? first_row + row : rows - 1;
        rows_valid[l] = 1;
        ptr[l] = base + static_cast<std::ptrdiff_t>(source_row) * ld + depth[l];
        shared_at[l] = depth[l] * STRIDE + row;
      } else {
        depth[l] = id / (R / V);
        const int row = (id % (R / V)) * V;
        const int left = rows - (first_row + row);
        rows_valid[l] = left < 0 ? 0 : (left > V ? V : left);
        ptr[l] = base + static_cast<std::ptrdiff_t>(depth[l]) * ld + first_row + row;
        shared_at[l] = depth[l] * STRIDE + row;
      }
    }
  }

  // Loads the slice the pointers are at. `k_left`: depths left from the slice's start;
  // FULL_K promises k_left >= BK.
  template <bool FULL_K>
  __device__ __forceinline__ void load(int k_left) {
#pragma unroll
    for (int l = 0; l < PER_THREAD; ++l) {
      if (K_CONTIGUOUS) {
        if (VEC && (FULL_K || depth[l] + V <= k_left)) {
          staged[l] = *reinterpret_cast<const lanes<T>*>(ptr[l]);
        } else {
#pragma unroll
          for (int v = 0; v < V; ++v) {
            staged[l].x[v] = FULL_K || depth[l] + v < k_left ? ptr[l][v] : T(0);
          }
        }
      } else {
        const bool depth_ok = FULL_K || depth[l] < k_left;
        if (VEC && depth_ok && rows_valid[l] == V) {
          staged[l] = *reinterpret_cast<const lanes<T>*>(ptr[l]);
        } else {
#pragma unroll
          for (int v = 0; v < V; ++v) {
            staged[l].x[v] = depth_ok && v < rows_valid[l] ? ptr[l][v] : T(0);
          }
        }
      }
    }
  }

  // To the next slice; `ld` is the operand's leading dimension.
  __device__ __forceinline__ void advance(std::ptrdiff_t ld) {
    const std::ptrdiff_t step = K_CONTIGUOUS ? Cfg::BK : Cfg::BK * ld;
#pragma unroll
    for (int l = 0; l < PER_THREAD; ++l) ptr[l] += step;
  }

  __device__ __forceinline__ void store(T* tile) const {
#pragma unroll
    for (int l = 0; l < PER_THREAD; ++l) {
      if (K_CONTIGUOUS) {
#pragma unroll
        for (int v = 0; v < V; ++v) tile[shared_at[l] + v * STRIDE] = staged[l].x[v];
      } else {
        *reinterpret_cast<lanes<T>*>(tile + shared_at[l]) = staged[l];
      }
    }
  }
};

template <class Cfg, bool TRANS_A, bool TRANS_B, bool VEC>
__global__ void __launch_bounds__(Cfg::THREADS, Cfg::MIN_BLOCKS)
    gemm_kernel(const gemm_problem<typename Cfg::value_type> p) {
  using T = typename Cfg::value_type;
  constexpr int V = Cfg::V;
  constexpr int BM = Cfg::BM;
  constexpr int BN = Cfg::BN;
  constexpr int BK = Cfg::BK;

  alignas(16) __shared__ T a_tiles[2][BK * Cfg::A_STRIDE];
  alignas(16) __shared__ T b_tiles[2][BK * Cfg::B_STRIDE];

  // Grouped launch order: GROUP_M consecutive tile rows run side by side.
  const int tiles_m = (p.m + BM - 1) / BM;
  const int tiles_n = (p.n + BN - 1) / BN;
  const int block = static_cast<int>(blockIdx.x);
  const int per_group = Cfg::GROUP_M * tiles_n;
  const int group = block / per_group;
  const int first_tile_m = group * Cfg::GROUP_M;
  const int group_rows =
      tiles_m - first_tile_m < Cfg::GROUP_M ? tiles_m - first_tile_m : Cfg::GROUP_M;
  const int tile_m = first_tile_m + (block % per_group) % group_rows;
  const int tile_n = (block % per_group) / group_rows;
  const int block_m = tile_m * BM;
  const int block_n = tile_n * BN;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32;
  const int lane = tid % 32;
  const int warp_m = warp % Cfg::WARPS_M;
  const int warp_n = warp / Cfg::WARPS_M;
  const int lane_row = lane / Cfg::WARP_COLS;
  const int lane_col = lane % Cfg::WARP_COLS;
  // First row (of BM) and column (of BN) of this thread's first V x V block.
  const int thread_m = warp_m * Cfg::WM + lane_row * V;
  const int thread_n = warp_n * Cfg::WN + lane_col * V;

  // op(A) is M x K: K-contiguous when A is not transposed. op(B) is K x N, seen as N rows by
  // K depths: K-contiguous when B is transposed.
  tile_loader<Cfg, BM, !TRANS_A, VEC> load_a(p.a, p.lda, block_m, p.m, tid);
  tile_loader<Cfg, BN, TRANS_B, VEC> load_b(p.b, p.ldb, block_n, p.n, tid);

  T acc[Cfg::TM][Cfg::TN];
#pragma unroll
  for (int i = 0; i < Cfg::TM; ++i) {
#pragma unroll
    for (int j = 0; j < Cfg::TN; ++j) acc[i][j] = T(0);
  }

  // alpha == 0: A and B are not read (BLAS semantics); C = beta * C below.
  const int k_total = p.alpha == T(0) ? 0 : p.k;
  const int slices = (k_total + BK - 1) / BK;
  if (slices > 0) {
    if (k_total >= BK) {
      load_a.template load<true>(k_total);
      load_b.template load<true>(k_total);
    } else {
      load_a.template load<false>(k_total);
      load_b.template load<false>(k_total);
    }
    load_a.store(a_tiles[0]);
    load_b.store(b_tiles[0]);
    __syncthreads();
  }

  for (int slice = 0; slice < slices; ++slice) {
    const int current = slice & 1;
    const bool has_next = slice + 1 < slices;
    if (has_next) {
      // Issue the next slice's global loads now; they land while this slice is multiplied.
      load_a.advance(p.lda);
      load_b.advance(p.ldb);
      const int k_left = k_total - (slice + 1) * BK;
      if (k_left >= BK) {
        load_a.template load<true>(k_left);
        load_b.template load<true>(k_left);
      } else {
        load_a.template load<false>(k_left);
        load_b.template load<false>(k_left);
      }
    }

    // This thread's fragments sit at fixed offsets from these two addresses.
    const T* a_tile = a_tiles[current] + thread_m;
    const T* b_tile = b_tiles[current] + thread_n;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      lanes<T> a_frag[Cfg::RM];
      lanes<T> b_frag[Cfg::RN];
#pragma unroll
      for (int r = 0; r < Cfg::RM; ++r) {
        a_frag[r] =
            *reinterpret_cast<const lanes<T>*>(a_tile + k * Cfg::A_STRIDE + r * Cfg::WARP_ROWS * V);
      }
#pragma unroll
      for (int c = 0; c < Cfg::RN; ++c) {
        b_frag[c] =
            *reinterpret_cast<const lanes<T>*>(b_tile + k * Cfg::B_STRIDE + c * Cfg::WARP_COLS * V);
      }
#pragma unroll
      for (int i = 0; i < Cfg::TM; ++i) {
#pragma unroll
        for (int j = 0; j < Cfg::TN; ++j) {
          acc[i][j] = fma(a_frag[i / V].x[i % V], b_frag[j / V].x[j % V], acc[i][j]);
        }
      }
    }

    if (has_next) {
      // The other buffer was last read in the previous slice, which ended with a barrier.
      load_a.store(a_tiles[current ^ 1]);
      load_b.store(b_tiles[current ^ 1]);
    }
    __syncthreads();
  }

  // Epilogue: C = alpha * acc + beta * C; with beta == 0, C is not read.
  const bool read_c = p.beta != T(0);
#pragma unroll
  for (int r = 0; r < Cfg::RM; ++r) {
#pragma unroll
    for (int vm = 0; vm < V; ++vm) {
      const int m = block_m + thread_m + r * Cfg::WARP_ROWS * V + vm;
      if (m >= p.m) continue;
      T* c_row = p.c + static_cast<std::ptrdiff_t>(m) * p.ldc;
#pragma unroll
      for (int c = 0; c < Cfg::RN; ++c) {
        const int n0 = block_n + thread_n + c * Cfg::WARP_COLS * V;
        lanes<T> out;
#pragma unroll
        for (int v = 0; v < V; ++v) out.x[v] = p.alpha * acc[r * V + vm][c * V + v];
        if (VEC && n0 + V <= p.n) {
          if (read_c) {
            const lanes<T> old = *reinterpret_cast<const lanes<T>*>(c_row + n0);
#pragma unroll
            for (int v = 0; v < V; ++v) out.x[v] = fma(p.beta, old.x[v], out.x[v]);
          }
          *reinterpret_cast<lanes<T>*>(c_row + n0) = out;
        } else {
#pragma unroll
          for (int v = 0; v < V; ++v) {
            if (n0 + v < p.n) {
              T* at = c_row + n0 + v;
              *at = read_c ? fma(p.beta, *at, out.x[v]) : out.x[v];
            }
          }
        }
      }
    }
  }
}

// True when every operand allows 16-byte accesses: aligned bases and leading dimensions that
// keep every row aligned.
template <class T>
inline bool vector_access_ok(const gemm_problem<T>& p) noexcept {
  constexpr int V = lanes<T>::width;
  const auto aligned = [](const void* ptr) {
    return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0;
  };
  return aligned(p.a) && aligned(p.b) && aligned(p.c) && p.lda % V == 0 && p.ldb % V == 0 &&
         p.ldc % V == 0;
}

template <class Cfg>
inline long long tile_count(int m, int n) noexcept {
  return static_cast<long long>((m + Cfg::BM - 1) / Cfg::BM) * ((n + Cfg::BN - 1) / Cfg::BN);
}

}  // namespace hipamp::detail::gpu::gemm
