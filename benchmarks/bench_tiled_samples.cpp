// Tiled kernels in the style of the classic C++ AMP samples, on the CPU device (issue 19),
// each beside two peers timed in the same iterations: a hand-written OpenMP version of the
// same algorithm (same blocking, no barriers: a thread runs a whole block as loops) and a
// serial loop. The benchmark's time is hipamp's; counters hipamp_ms / omp_ms / serial_ms are
// the medians of each, vs_omp = omp / hipamp and vs_serial = serial / hipamp (above 1: hipamp
// is faster). Every workload checks hipamp's and the OpenMP peer's result against the serial
// one once, before timing, and reports a mismatch as an error rather than a figure.
//  - BM_floyd_warshall<B>: all-pairs shortest paths, the three-phase blocked algorithm with
//    B x B tiles (diagonal block, its row and column, the rest), three launches per block step,
//    a barrier per k inside the first two phases;
//  - BM_tree_reduction: sum of ints, a tile_static tree over 256-wide tiles with a barrier per
//    level, cascaded until fewer than 256 partial sums remain (summed on the host);
//  - BM_transpose: 16 x 16 tiles through tile_static;
//  - BM_matmul: 16 x 16 tile_static blocks of A and B, two barriers per block step.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/host.hpp"

namespace hx = hipamp;

namespace {

using bench::cpu_view;

// Per-iteration seconds of hipamp and its two peers.
struct timings {
  std::vector<double> hipamp, omp, serial;
};

// Times the three versions in every iteration (hipamp's time is the benchmark's, through
// manual timing), so that the ratios come from the same stretch of a shared machine.
template <class Workload>
void time_three(benchmark::State& state, Workload& w) {
  if (const std::string why = w.verify(); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  timings t;
  for (auto _ : state) {
    const double h = w.time_hipamp();
    state.SetIterationTime(h);
    t.hipamp.push_back(h);
    t.omp.push_back(w.time_omp());
    t.serial.push_back(w.time_serial());
  }
  const double h = bench::median(t.hipamp), o = bench::median(t.omp), s = bench::median(t.serial);
  state.counters["hipamp_ms"] = h * 1e3;
  state.counters["omp_ms"] = o * 1e3;
  state.counters["serial_ms"] = s * 1e3;
  state.counters["vs_omp"] = o / h;
  state.counters["vs_serial"] = s / h;
}

template <class T>
std::string first_mismatch(const char* who, const std::vector<T>& got, const std::vector<T>& want) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      return std::string(who) + " differs from the serial loop at element " + std::to_string(i) +
             ": " + std::to_string(got[i]) + " vs " + std::to_string(want[i]);
    }
  }
  return {};
}

// ---- (a) blocked Floyd-Warshall --------------------------------------------------------

// Large enough that a path never overflows an int (every sum of two distances stays < 2^31),
// small enough that min() keeps every entry <= unreachable.
constexpr int unreachable = 1 << 29;

template <int B>
struct floyd_warshall {
  int n;
  std::vector<int> graph, work, want;

  explicit floyd_warshall(int size) : n(size), graph(std::size_t(size) * size) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> weight(1, 100);
    std::bernoulli_distribution edge(0.05);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j)
        at(graph, i, j) = i == j ? 0 : edge(rng) ? weight(rng) : unreachable;
    }
    work = graph;
    run_serial();
    want = work;
  }

  int& at(std::vector<int>& m, int i, int j) const { return m[std::size_t(i) * n + j]; }

  void run_hipamp() {
    hx::array_view<int, 2> d(n, n, work);
    const int blocks = n / B;
    for (int kb = 0; kb < blocks; ++kb) {
      const int o = kb * B;
      // Phase 1: the diagonal block closes over itself. Row and column k of the block do not
      // change in step k (d[k][k] == 0), so one barrier per k keeps the in-place update exact.
      hx::parallel_for_each(cpu_view(), hx::extent<2>(B, B).tile<B, B>(),
                            [=](hx::tiled_index<B, B> t) {
                              HIPAMP_TILE_STATIC int blk[B][B];
                              const int r = t.local[0], c = t.local[1];
                              blk[r][c] = d(o + r, o + c);
                              t.barrier.wait();
                              for (int k = 0; k < B; ++k) {
                                blk[r][c] = std::min(blk[r][c], blk[r][k] + blk[k][c]);
                                t.barrier.wait();
                              }
                              d(o + r, o + c) = blk[r][c];
                            });
      // Phase 2: the blocks of row kb (tile row 0) and column kb (tile row 1) through the
      // diagonal block.
      hx::parallel_for_each(
          cpu_view(), hx::extent<2>(2 * B, n).tile<B, B>(), [=](hx::tiled_index<B, B> t) {
            const int j = t.tile[1];
            if (j == kb) return;  // the whole tile returns: no barrier is skipped by some
            HIPAMP_TILE_STATIC int diag[B][B];
            HIPAMP_TILE_STATIC int own[B][B];
            const int r = t.local[0], c = t.local[1];
            const bool in_row = t.tile[0] == 0;
            const int gr = (in_row ? o : j * B) + r, gc = (in_row ? j * B : o) + c;
            diag[r][c] = d(o + r, o + c);
            own[r][c] = d(gr, gc);
            t.barrier.wait();
            for (int k = 0; k < B; ++k) {
              const int via = in_row ? diag[r][k] + own[k][c] : own[r][k] + diag[k][c];
              own[r][c] = std::min(own[r][c], via);
              t.barrier.wait();
            }
            d(gr, gc) = own[r][c];
          });
      // Phase 3: every other block through its row's and column's blocks of step kb.
      hx::parallel_for_each(cpu_view(), d.extent.tile<B, B>(), [=](hx::tiled_index<B, B> t) {
        if (t.tile[0] == kb || t.tile[1] == kb) return;
        HIPAMP_TILE_STATIC int row[B][B];
        HIPAMP_TILE_STATIC int col[B][B];
        const int r = t.local[0], c = t.local[1];
        row[r][c] = d(t.tile_origin[0] + r, o + c);
        col[r][c] = d(o + r, t.tile_origin[1] + c);
        t.barrier.wait();
        int best = d[t.global];
        for (int k = 0; k < B; ++k) best = std::min(best, row[r][k] + col[k][c]);
        d[t.global] = best;
      });
    }
    d.synchronize();
  }

  // The same three phases, a block per loop iteration, the innermost loop over columns.
  void run_omp() {
    const int blocks = n / B;
    int* m = work.data();
    const int stride = n;
    auto load = [m, stride](int(*blk)[B], int r0, int c0) {
      for (int r = 0; r < B; ++r)
        for (int c = 0; c < B; ++c) blk[r][c] = m[(r0 + r) * stride + c0 + c];
    };
    auto store = [m, stride](int(*blk)[B], int r0, int c0) {
      for (int r = 0; r < B; ++r)
        for (int c = 0; c < B; ++c) m[(r0 + r) * stride + c0 + c] = blk[r][c];
    };
    for (int kb = 0; kb < blocks; ++kb) {
      const int o = kb * B;
      {
        int blk[B][B];
        load(blk, o, o);
        for (int k = 0; k < B; ++k)
          for (int r = 0; r < B; ++r)
#pragma omp simd
            for (int c = 0; c < B; ++c) blk[r][c] = std::min(blk[r][c], blk[r][k] + blk[k][c]);
        store(blk, o, o);
      }
#pragma omp parallel for schedule(static)
      for (int q = 0; q < 2 * blocks; ++q) {
        const int j = q % blocks;
        if (j == kb) continue;
        const bool in_row = q < blocks;
        const int r0 = in_row ? o : j * B, c0 = in_row ? j * B : o;
        int diag[B][B], own[B][B];
        load(diag, o, o);
        load(own, r0, c0);
        for (int k = 0; k < B; ++k) {
          for (int r = 0; r < B; ++r) {
            if (in_row) {
#pragma omp simd
              for (int c = 0; c < B; ++c) own[r][c] = std::min(own[r][c], diag[r][k] + own[k][c]);
            } else {
#pragma omp simd
              for (int c = 0; c < B; ++c) own[r][c] = std::min(own[r][c], own[r][k] + diag[k][c]);
            }
          }
        }
        store(own, r0, c0);
      }
#pragma omp parallel for schedule(static)
      for (int q = 0; q < blocks * blocks; ++q) {
        const int i = q / blocks, j = q % blocks;
        if (i == kb || j == kb) continue;
        int row[B][B], col[B][B], best[B][B];
        load(row, i * B, o);
        load(col, o, j * B);
        load(best, i * B, j * B);
        for (int r = 0; r < B; ++r)
          for (int k = 0; k < B; ++k)
#pragma omp simd
            for (int c = 0; c < B; ++c) best[r][c] = std::min(best[r][c], row[r][k] + col[k][c]);
        store(best, i * B, j * B);
      }
    }
  }

  void run_serial() {
    int* m = work.data();
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i) {
        const int ik = m[i * n + k];
        for (int j = 0; j < n; ++j) m[i * n + j] = std::min(m[i * n + j], ik + m[k * n + j]);
      }
  }

  template <class Run>
  double timed(Run run) {
    work = graph;
    return bench::seconds_of(run);
  }
  double time_hipamp() {
    return timed([this] { run_hipamp(); });
  }
  double time_omp() {
    return timed([this] { run_omp(); });
  }
  double time_serial() {
    return timed([this] { run_serial(); });
  }

  std::string verify() {
    work = graph;
    run_hipamp();
    if (std::string why = first_mismatch("hipamp", work, want); !why.empty()) return why;
    work = graph;
    run_omp();
    return first_mismatch("OpenMP peer", work, want);
  }
};

template <int B>
void BM_floyd_warshall(benchmark::State& state) {
  floyd_warshall<B> w(int(state.range(0)));
  time_three(state, w);
}
BENCHMARK_TEMPLATE(BM_floyd_warshall, 8)
    ->Arg(256)
    ->Arg(512)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_floyd_warshall, 16)->Arg(512)->UseManualTime()->Unit(benchmark::kMillisecond);

// ---- (b) tile_static tree reduction ----------------------------------------------------

constexpr int reduce_tile = 256;

struct tree_reduction {
  int n;
  std::vector<int> data, partial_a, partial_b;
  long long want = 0, got = 0;

  explicit tree_reduction(int size)
      : n(size),
        data(std::size_t(size)),
        partial_a(std::size_t(size / reduce_tile)),
        partial_b(std::size_t(size / reduce_tile)) {
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> digit(0, 9);
    for (int& x : data) x = digit(rng);
    want = serial_sum();
  }

  long long serial_sum() const {
    long long s = 0;
    for (int x : data) s += x;
    return s;
  }

  // Each launch leaves one sum per tile; the sums are reduced again while a whole tile of
  // them remains, as the classic samples cascade, and the last few are added on the host.
  long long hipamp_sum() {
    hx::array_view<const int, 1> in(n, data);
    hx::array_view<int, 1> a(int(partial_a.size()), partial_a);
    hx::array_view<int, 1> b(int(partial_b.size()), partial_b);
    int len = n;
    hx::array_view<const int, 1> src = in;
    hx::array_view<int, 1> dst = a;
    for (bool to_a = true;; to_a = !to_a) {
      const int out_len = len / reduce_tile;
      dst = to_a ? a : b;
      hx::array_view<int, 1> out = dst.section(0, out_len);
      hx::parallel_for_each(cpu_view(), src.section(0, len).extent.tile<reduce_tile>(),
                            [=](hx::tiled_index<reduce_tile> t) {
                              HIPAMP_TILE_STATIC int buf[reduce_tile];
                              const int l = t.local[0];
                              buf[l] = src[t.global];
                              t.barrier.wait();
                              for (int s = reduce_tile / 2; s > 0; s /= 2) {
                                if (l < s) buf[l] += buf[l + s];
                                t.barrier.wait();
                              }
                              if (l == 0) out[t.tile] = buf[0];
                            });
      len = out_len;
      src = hx::array_view<const int, 1>(dst);
      if (len < reduce_tile || len % reduce_tile != 0) break;
    }
    long long s = 0;
    for (int i = 0; i < len; ++i) s += dst[i];
    return s;
  }

  long long omp_sum() {
    const int* src = data.data();
    int len = n;
    int* dst = nullptr;
    for (bool to_a = true;; to_a = !to_a) {
      const int out_len = len / reduce_tile;
      dst = to_a ? partial_a.data() : partial_b.data();
#pragma omp parallel for schedule(static)
      for (int t = 0; t < out_len; ++t) {
        int buf[reduce_tile];
        for (int l = 0; l < reduce_tile; ++l) buf[l] = src[t * reduce_tile + l];
        for (int s = reduce_tile / 2; s > 0; s /= 2)
#pragma omp simd
          for (int l = 0; l < s; ++l) buf[l] += buf[l + s];
        dst[t] = buf[0];
      }
      len = out_len;
      src = dst;
      if (len < reduce_tile || len % reduce_tile != 0) break;
    }
    long long s = 0;
    for (int i = 0; i < len; ++i) s += dst[i];
    return s;
  }

  double time_hipamp() {
    return bench::seconds_of([this] { got = hipamp_sum(); });
  }
  double time_omp() {
    return bench::seconds_of([this] { got = omp_sum(); });
  }
  double time_serial() {
    return bench::seconds_of([this] { got = serial_sum(); });
  }

  std::string verify() {
    if (const long long h = hipamp_sum(); h != want) {
      return "hipamp sum " + std::to_string(h) + " vs serial " + std::to_string(want);
    }
    if (const long long o = omp_sum(); o != want) {
      return "OpenMP peer sum " + std::to_string(o) + " vs serial " + std::to_string(want);
    }
    return {};
  }
};

void BM_tree_reduction(benchmark::State& state) {
  tree_reduction w(int(state.range(0)));
  time_three(state, w);
  benchmark::DoNotOptimize(w.got);
}
BENCHMARK(BM_tree_reduction)->Arg(1 << 22)->UseManualTime()->Unit(benchmark::kMillisecond);

// ---- (c) tiled transpose ---------------------------------------------------------------

constexpr int transpose_tile = 16;

struct transpose {
  int n;
  std::vector<float> in, out, want;

  explicit transpose(int size)
      : n(size), in(std::size_t(size) * size), out(in.size()), want(in.size()) {
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (float& x : in) x = value(rng);
    run_serial();
    want = out;
  }

  void run_hipamp() {
    constexpr int T = transpose_tile;
    hx::array_view<const float, 2> a(n, n, in);
    hx::array_view<float, 2> b(n, n, out);
    b.discard_data();
    hx::parallel_for_each(cpu_view(), a.extent.tile<T, T>(), [=](hx::tiled_index<T, T> t) {
      HIPAMP_TILE_STATIC float blk[T][T];
      const int r = t.local[0], c = t.local[1];
      blk[r][c] = a[t.global];
      t.barrier.wait();
      // Row r of the output tile is column r of the input tile: both sides read and write
      // rows of memory, the turn happens in tile_static.
      b(t.tile_origin[1] + r, t.tile_origin[0] + c) = blk[c][r];
    });
    b.synchronize();
  }

  void run_omp() {
    constexpr int T = transpose_tile;
    const float* a = in.data();
    float* b = out.data();
    const int blocks = n / T;
#pragma omp parallel for schedule(static)
    for (int q = 0; q < blocks * blocks; ++q) {
      const int r0 = q / blocks * T, c0 = q % blocks * T;
      float blk[T][T];
      for (int r = 0; r < T; ++r)
        for (int c = 0; c < T; ++c) blk[r][c] = a[std::size_t(r0 + r) * n + c0 + c];
      for (int r = 0; r < T; ++r)
        for (int c = 0; c < T; ++c) b[std::size_t(c0 + r) * n + r0 + c] = blk[c][r];
    }
  }

  void run_serial() {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) out[std::size_t(j) * n + i] = in[std::size_t(i) * n + j];
  }

  double time_hipamp() {
    return bench::seconds_of([this] { run_hipamp(); });
  }
  double time_omp() {
    return bench::seconds_of([this] { run_omp(); });
  }
  double time_serial() {
    return bench::seconds_of([this] { run_serial(); });
  }

  std::string verify() {
    std::fill(out.begin(), out.end(), 0.0f);
    run_hipamp();
    if (std::string why = first_mismatch("hipamp", out, want); !why.empty()) return why;
    std::fill(out.begin(), out.end(), 0.0f);
    run_omp();
    return first_mismatch("OpenMP peer", out, want);
  }
};

void BM_transpose(benchmark::State& state) {
  transpose w(int(state.range(0)));
  time_three(state, w);
}
BENCHMARK(BM_transpose)->Arg(2048)->UseManualTime()->Unit(benchmark::kMillisecond);

// ---- (d) tiled matrix multiply ---------------------------------------------------------

constexpr int matmul_tile = 16;

struct matmul {
  int n;
  std::vector<float> a, b, c, want;

  // Small integers: every product and partial sum is exact in float, so any summation order
  // gives the serial loop's result bit for bit.
  explicit matmul(int size)
      : n(size), a(std::size_t(size) * size), b(a.size()), c(a.size()), want(a.size()) {
    std::mt19937 rng(17);
    std::uniform_int_distribution<int> value(-2, 2);
    for (float& x : a) x = float(value(rng));
    for (float& x : b) x = float(value(rng));
    run_serial();
    want = c;
  }

  void run_hipamp() {
    constexpr int T = matmul_tile;
    hx::array_view<const float, 2> va(n, n, a), vb(n, n, b);
    hx::array_view<float, 2> vc(n, n, c);
    vc.discard_data();
    const int inner = n;
    hx::parallel_for_each(cpu_view(), vc.extent.tile<T, T>(), [=](hx::tiled_index<T, T> t) {
      const int r = t.local[0], col = t.local[1];
      float sum = 0.0f;
      for (int i = 0; i < inner; i += T) {
        HIPAMP_TILE_STATIC float blk_a[T][T];
        HIPAMP_TILE_STATIC float blk_b[T][T];
        blk_a[r][col] = va(t.global[0], i + col);
        blk_b[r][col] = vb(i + r, t.global[1]);
        t.barrier.wait();
        for (int k = 0; k < T; ++k) sum += blk_a[r][k] * blk_b[k][col];
        t.barrier.wait();
      }
      vc[t.global] = sum;
    });
    vc.synchronize();
  }

  void run_omp() {
    constexpr int T = matmul_tile;
    const int blocks = n / T;
    const float* pa = a.data();
    const float* pb = b.data();
    float* pc = c.data();
#pragma omp parallel for schedule(static)
    for (int q = 0; q < blocks * blocks; ++q) {
      const int r0 = q / blocks * T, c0 = q % blocks * T;
      float blk_a[T][T], blk_b[T][T], sum[T][T] = {};
      for (int i = 0; i < n; i += T) {
        for (int r = 0; r < T; ++r)
          for (int c = 0; c < T; ++c) {
            blk_a[r][c] = pa[std::size_t(r0 + r) * n + i + c];
            blk_b[r][c] = pb[std::size_t(i + r) * n + c0 + c];
          }
        for (int r = 0; r < T; ++r)
          for (int k = 0; k < T; ++k)
#pragma omp simd
            for (int c = 0; c < T; ++c) sum[r][c] += blk_a[r][k] * blk_b[k][c];
      }
      for (int r = 0; r < T; ++r)
        for (int c = 0; c < T; ++c) pc[std::size_t(r0 + r) * n + c0 + c] = sum[r][c];
    }
  }

  // i-k-j order, so the inner loop runs along rows of B and C.
  void run_serial() {
    std::fill(c.begin(), c.end(), 0.0f);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) {
        const float aik = a[std::size_t(i) * n + k];
        for (int j = 0; j < n; ++j) c[std::size_t(i) * n + j] += aik * b[std::size_t(k) * n + j];
      }
  }

  double time_hipamp() {
    return bench::seconds_of([this] { run_hipamp(); });
  }
  double time_omp() {
    return bench::seconds_of([this] { run_omp(); });
  }
  double time_serial() {
    return bench::seconds_of([this] { run_serial(); });
  }

  std::string verify() {
    std::fill(c.begin(), c.end(), 0.0f);
    run_hipamp();
    if (std::string why = first_mismatch("hipamp", c, want); !why.empty()) return why;
    std::fill(c.begin(), c.end(), 0.0f);
    run_omp();
    return first_mismatch("OpenMP peer", c, want);
  }
};

void BM_matmul(benchmark::State& state) {
  matmul w(int(state.range(0)));
  time_three(state, w);
}
BENCHMARK(BM_matmul)->Arg(512)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
