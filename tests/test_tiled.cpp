// The tiled model: tiled parallel_for_each in 1, 2 and 3 dimensions, tile_static storage and
// tile_barrier, each checked against an independent host reference on random data.
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;
using hipamp_test::random_vector;

namespace {

constexpr int tile = 16;

// The seed's tiled matrix multiply: per step each work-item copies one element of A's and
// of B's 16x16 blocks into tile_static memory, waits, accumulates 16 products, waits.
void tiled_matmul(const hx::accelerator_view& av, const hx::array_view<const float, 2>& a,
                  const hx::array_view<const float, 2>& b, const hx::array_view<float, 2>& c) {
  const int inner = a.extent[1];
  hx::parallel_for_each(av, c.extent.tile<tile, tile>(),
                        [=] HIPAMP_RESTRICT(hx::tiled_index<tile, tile> t) {
                          const int row = t.local[0];
                          const int col = t.local[1];
                          float sum = 0.0f;
                          for (int i = 0; i < inner; i += tile) {
                            HIPAMP_TILE_STATIC float block_a[tile][tile];
                            HIPAMP_TILE_STATIC float block_b[tile][tile];
                            block_a[row][col] = a(t.global[0], col + i);
                            block_b[row][col] = b(row + i, t.global[1]);
                            t.barrier.wait();
                            for (int k = 0; k < tile; ++k) sum += block_a[row][k] * block_b[k][col];
                            t.barrier.wait();
                          }
                          c[t.global] = sum;
                        });
}

// C = A * B in double, and the sum of |a_ik * b_kj| that bounds the float rounding error.
void reference_matmul(const std::vector<float>& a, const std::vector<float>& b, int m, int k, int n,
                      std::vector<double>& c, std::vector<double>& magnitude) {
  c.assign(static_cast<std::size_t>(m) * n, 0.0);
  magnitude.assign(c.size(), 0.0);
  for (int i = 0; i < m; ++i) {
    for (int p = 0; p < k; ++p) {
      const double aip = a[static_cast<std::size_t>(i) * k + p];
      for (int j = 0; j < n; ++j) {
        const double term = aip * b[static_cast<std::size_t>(p) * n + j];
        c[static_cast<std::size_t>(i) * n + j] += term;
        magnitude[static_cast<std::size_t>(i) * n + j] += std::fabs(term);
      }
    }
  }
}

}  // namespace

TEST_CASE("seed tiled matrix multiply matches a double reference", "[tiled]") {
  struct shape {
    int m, k, n;
  };
  const shape shapes[] = {{16, 16, 16}, {48, 80, 32}, {128, 64, 96}, {160, 320, 96}};
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (const shape& s : shapes) {
      INFO("A is " << s.m << "x" << s.k << ", B is " << s.k << "x" << s.n);
      const std::vector<float> va = random_vector<float>(std::size_t(s.m) * s.k, -1.0f, 1.0f);
      const std::vector<float> vb = random_vector<float>(std::size_t(s.k) * s.n, -1.0f, 1.0f);
      std::vector<float> vc(std::size_t(s.m) * s.n, std::numeric_limits<float>::quiet_NaN());
      hx::array_view<const float, 2> a(s.m, s.k, va);
      hx::array_view<const float, 2> b(s.k, s.n, vb);
      hx::array_view<float, 2> c(s.m, s.n, vc);
      tiled_matmul(av, a, b, c);
      c.synchronize();
      std::vector<double> ref, magnitude;
      reference_matmul(va, vb, s.m, s.k, s.n, ref, magnitude);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < vc.size(); ++i) {
        const double bound = s.k * std::ldexp(magnitude[i], -23) + 1e-30;
        if (!(std::fabs(vc[i] - ref[i]) <= bound)) ++bad;
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("tiled reduction in tile_static memory gives the exact sum", "[tiled]") {
  constexpr int width = 256;
  const int sizes[] = {width, width * 37, 1000, 100003};
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (const int n : sizes) {
      INFO("n = " << n);
      const std::vector<int> data = random_vector<int>(std::size_t(n), -1000, 1000);
      const hx::tiled_extent<width> domain = hx::extent<1>(n).tile<width>().pad();
      const int tiles = domain[0] / width;
      std::vector<int> partial(std::size_t(tiles), std::numeric_limits<int>::min());
      hx::array_view<const int, 1> in(n, data);
      hx::array_view<int, 1> out(tiles, partial);
      out.discard_data();
      hx::parallel_for_each(av, domain, [=] HIPAMP_RESTRICT(hx::tiled_index<width> t) {
        HIPAMP_TILE_STATIC int scratch[width];
        const int l = t.local[0];
        scratch[l] = in.extent.contains(t.global) ? in[t.global] : 0;
        t.barrier.wait();
        for (int half = width / 2; half > 0; half /= 2) {
          if (l < half) scratch[l] += scratch[l + half];
          t.barrier.wait_with_tile_static_memory_fence();
        }
        if (l == 0) out[t.tile[0]] = scratch[0];
      });
      out.synchronize();
      const long long expected = std::accumulate(data.begin(), data.end(), 0LL);
      const long long got = std::accumulate(partial.begin(), partial.end(), 0LL);
      CHECK(got == expected);
    }
  }
}

TEST_CASE("the free-standing fences of C++ AMP order accesses inside a tile", "[tiled]") {
  // Each tile's first work-item publishes a value through global memory and another through
  // tile_static memory, fences, and the barrier then lets the whole tile read both.
  constexpr int width = 64;
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const int n = width * 37;
    const std::vector<int> data = random_vector<int>(std::size_t(n), -1000, 1000);
    std::vector<int> result(std::size_t(n), 0);
    std::vector<int> leaders(std::size_t(n / width), 0);
    hx::array_view<const int, 1> in(n, data);
    hx::array_view<int, 1> out(n, result);
    hx::array_view<int, 1> published(n / width, leaders);
    hx::parallel_for_each(av, hx::extent<1>(n).tile<width>(),
                          [=] HIPAMP_RESTRICT(hx::tiled_index<width> t) {
                            HIPAMP_TILE_STATIC int leader_value;
                            if (t.local[0] == 0) {
                              published[t.tile[0]] = in[t.global] * 3;
                              hx::global_memory_fence(t.barrier);
                              leader_value = in[t.global];
                              hx::tile_static_memory_fence(t.barrier);
                              hx::all_memory_fence(t.barrier);
                            }
                            t.barrier.wait();
                            out[t.global] = in[t.global] - leader_value + published[t.tile[0]];
                          });
    out.synchronize();
    std::size_t bad = 0;
    for (int i = 0; i < n; ++i) {
      const int leader = data[static_cast<std::size_t>(i / width) * width];
      bad += result[std::size_t(i)] != data[std::size_t(i)] - leader + 3 * leader;
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("barriers inside loops and tile-uniform branches", "[tiled]") {
  // Even tiles run an inclusive Hillis-Steele scan (two barriers per step, in a loop); odd
  // tiles reverse their elements through tile_static memory (one barrier).
  constexpr int width = 128;
  const int n = width * 21;
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<int> data = random_vector<int>(std::size_t(n), -50, 50);
    std::vector<int> result(std::size_t(n), -777777);
    hx::array_view<const int, 1> in(n, data);
    hx::array_view<int, 1> out(n, result);
    hx::parallel_for_each(acc.get_default_view(), in.extent.tile<width>(),
                          [=] HIPAMP_RESTRICT(hx::tiled_index<width> t) {
                            HIPAMP_TILE_STATIC int s[width];
                            const int l = t.local[0];
                            s[l] = in[t.global];
                            t.barrier.wait();
                            if (t.tile[0] % 2 == 0) {
                              for (int offset = 1; offset < width; offset *= 2) {
                                const int left = l >= offset ? s[l - offset] : 0;
                                t.barrier.wait();
                                s[l] += left;
                                t.barrier.wait_with_all_memory_fence();
                              }
                              out[t.global] = s[l];
                            } else {
                              out[t.global] = s[width - 1 - l];
                            }
                          });
    out.synchronize();
    std::vector<int> expected(data.size());
    for (int tile0 = 0; tile0 < n / width; ++tile0) {
      const auto first = data.begin() + std::ptrdiff_t{tile0} * width;
      if (tile0 % 2 == 0) {
        std::partial_sum(first, first + width, expected.begin() + std::ptrdiff_t{tile0} * width);
      } else {
        std::reverse_copy(first, first + width, expected.begin() + std::ptrdiff_t{tile0} * width);
      }
    }
    CHECK(result == expected);
  }
}

TEST_CASE("3-D and non-square tiles exchange data through tile_static memory", "[tiled]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    SECTION("3-D tile 2x4x8: every work-item reads its mirror in the tile") {
      const hx::extent<3> e(6, 12, 16);
      const std::vector<float> data = random_vector<float>(e.size(), -5.0f, 5.0f);
      std::vector<float> result(e.size(), -1e30f);
      hx::array_view<const float, 3> in(e, data);
      hx::array_view<float, 3> out(e, result);
      hx::parallel_for_each(av, e.tile<2, 4, 8>(), [=] HIPAMP_RESTRICT(hx::tiled_index<2, 4, 8> t) {
        HIPAMP_TILE_STATIC float s[2][4][8];
        s[t.local[0]][t.local[1]][t.local[2]] = in[t.global];
        t.barrier.wait_with_global_memory_fence();
        out[t.global] = s[1 - t.local[0]][3 - t.local[1]][7 - t.local[2]];
      });
      out.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < e[0]; ++i) {
        for (int j = 0; j < e[1]; ++j) {
          for (int k = 0; k < e[2]; ++k) {
            const int mi = (i / 2) * 2 + 1 - i % 2, mj = (j / 4) * 4 + 3 - j % 4,
                      mk = (k / 8) * 8 + 7 - k % 8;
            if (result[(std::size_t(i) * e[1] + j) * e[2] + k] !=
                data[(std::size_t(mi) * e[1] + mj) * e[2] + mk]) {
              ++bad;
            }
          }
        }
      }
      CHECK(bad == 0);
    }
    SECTION("2-D tile 8x32: per-tile column sums") {
      const hx::extent<2> e(24, 96);
      const std::vector<int> data = random_vector<int>(e.size(), -100, 100);
      std::vector<int> result(e.size(), 123456789);
      hx::array_view<const int, 2> in(e, data);
      hx::array_view<int, 2> out(e, result);
      hx::parallel_for_each(av, e.tile<8, 32>(), [=] HIPAMP_RESTRICT(hx::tiled_index<8, 32> t) {
        HIPAMP_TILE_STATIC int s[8][32];
        s[t.local[0]][t.local[1]] = in[t.global];
        t.barrier.wait();
        int sum = 0;
        for (const auto& row : s) sum += row[t.local[1]];
        out[t.global] = sum;
      });
      out.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < e[0]; ++i) {
        for (int j = 0; j < e[1]; ++j) {
          int sum = 0;
          for (int r = (i / 8) * 8; r < (i / 8) * 8 + 8; ++r)
            sum += data[std::size_t(r) * e[1] + j];
          if (result[std::size_t(i) * e[1] + j] != sum) ++bad;
        }
      }
      CHECK(bad == 0);
    }
    SECTION("1-D tile of 1024 work-items, the C++ AMP maximum") {
      const int n = 1024 * 5;
      const std::vector<int> data = random_vector<int>(std::size_t(n), -1000000, 1000000);
      std::vector<int> result(std::size_t(n), 0);
      hx::array_view<const int, 1> in(n, data);
      hx::array_view<int, 1> out(n, result);
      hx::parallel_for_each(av, in.extent.tile<1024>(),
                            [=] HIPAMP_RESTRICT(hx::tiled_index<1024> t) {
                              HIPAMP_TILE_STATIC int s[1024];
                              s[t.local[0]] = in[t.global];
                              t.barrier.wait();
                              const int mirrored = s[1023 - t.local[0]];
                              t.barrier.wait();
                              s[t.local[0]] = mirrored + 1;
                              t.barrier.wait();
                              out[t.global] = s[(t.local[0] + 1) % 1024];
                            });
      out.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) {
        const int base = (i / 1024) * 1024, l = (i % 1024 + 1) % 1024;
        if (result[std::size_t(i)] != data[std::size_t(base + 1023 - l)] + 1) ++bad;
      }
      CHECK(bad == 0);
    }
  }
}

namespace {

// Records global, local, tile and tile_origin of every work-item; `with_barrier` makes the
// CPU device take its fiber path instead of the barrier-free one.
template <int D0, int D1, int D2, int N>
void check_tiled_index_fields(const hx::accelerator_view& av, const hx::extent<N>& e,
                              bool with_barrier) {
  std::vector<int> fields(std::size_t(e.size()) * 4 * N, -1);
  hx::array_view<int, 1> out(int(fields.size()), fields);
  const hx::extent<N> domain = e;
  hx::parallel_for_each(av, hx::tiled_extent<D0, D1, D2>(e),
                        [=] HIPAMP_RESTRICT(hx::tiled_index<D0, D1, D2> t) {
                          if (with_barrier) t.barrier.wait();
                          int linear = 0;
                          for (int d = 0; d < N; ++d) linear = linear * domain[d] + t.global[d];
                          for (int d = 0; d < N; ++d) {
                            out[(linear * 4 + 0) * N + d] = t.global[d];
                            out[(linear * 4 + 1) * N + d] = t.local[d];
                            out[(linear * 4 + 2) * N + d] = t.tile[d];
                            out[(linear * 4 + 3) * N + d] = t.tile_origin[d];
                          }
                        });
  out.synchronize();
  const hx::extent<N> tile_extent = hx::tiled_extent<D0, D1, D2>::get_tile_extent();
  std::size_t bad = 0;
  for (unsigned linear = 0; linear < e.size(); ++linear) {
    hx::index<N> g;
    unsigned rest = linear;
    for (int d = N - 1; d >= 0; --d) {
      g[d] = int(rest % unsigned(e[d]));
      rest /= unsigned(e[d]);
    }
    for (int d = 0; d < N; ++d) {
      const int* f = &fields[std::size_t(linear) * 4 * N];
      if (f[0 * N + d] != g[d] || f[1 * N + d] != g[d] % tile_extent[d] ||
          f[2 * N + d] != g[d] / tile_extent[d] ||
          f[3 * N + d] != (g[d] / tile_extent[d]) * tile_extent[d]) {
        ++bad;
      }
    }
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("tiled_index fields on the barrier-free and the barrier path", "[tiled]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    for (const bool with_barrier : {false, true}) {
      INFO("with_barrier = " << with_barrier);
      check_tiled_index_fields<64, 0, 0, 1>(av, hx::extent<1>(64 * 7), with_barrier);
      check_tiled_index_fields<4, 8, 0, 2>(av, hx::extent<2>(12, 40), with_barrier);
      check_tiled_index_fields<2, 3, 4, 3>(av, hx::extent<3>(4, 9, 8), with_barrier);
    }
  }
}

TEST_CASE("tiled parallel_for_each without an accelerator_view uses the default", "[tiled]") {
  const int n = 64 * 9;
  const std::vector<int> data = random_vector<int>(std::size_t(n), -1000, 1000);
  std::vector<int> result(std::size_t(n), 0);
  hx::array_view<const int, 1> in(n, data);
  hx::array_view<int, 1> out(n, result);
  hx::parallel_for_each(in.extent.tile<64>(), [=] HIPAMP_RESTRICT(hx::tiled_index<64> t) {
    HIPAMP_TILE_STATIC int s[64];
    s[t.local[0]] = in[t.global];
    t.barrier.wait();
    out[t.global] = s[63 - t.local[0]] - s[t.local[0]];
  });
  out.synchronize();
  std::size_t bad = 0;
  for (int i = 0; i < n; ++i) {
    const int mirror = (i / 64) * 64 + 63 - i % 64;
    if (result[std::size_t(i)] != data[std::size_t(mirror)] - data[std::size_t(i)]) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("a domain not divisible by the tile is an invalid_compute_domain", "[tiled]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> v(std::size_t{33} * 64, 5);
    hx::array_view<int, 2> view(33, 64, v);
    try {
      hx::parallel_for_each(acc.get_default_view(), view.extent.tile<16, 16>(),
                            [=] HIPAMP_RESTRICT(hx::tiled_index<16, 16> t) { view[t.global] = 0; });
      FAIL("no exception for a 33x64 domain with 16x16 tiles");
    } catch (const hx::invalid_compute_domain& e) {
      const std::string what = e.what();
      CHECK(what.find("[33, 64]") != std::string::npos);
      CHECK(what.find("[16, 16]") != std::string::npos);
      CHECK(what.find("dimension 0") != std::string::npos);
    }
    CHECK(std::all_of(v.begin(), v.end(), [](int x) { return x == 5; }));  // nothing ran
    CHECK_THROWS_AS(hx::parallel_for_each(acc.get_default_view(), hx::extent<1>(0).tile<4>(),
                                          [=] HIPAMP_RESTRICT(hx::tiled_index<4>) {}),
                    hx::invalid_compute_domain);
    CHECK_THROWS_AS(
        hx::parallel_for_each(acc.get_default_view(), hx::extent<3>(8, 8, 6).tile<2, 2, 4>(),
                              [=] HIPAMP_RESTRICT(hx::tiled_index<2, 2, 4>) {}),
        hx::invalid_compute_domain);
  }
}

TEST_CASE("a tile of more than 1024 work-items can be named", "[tiled]") {
  // C++ AMP lets a program make such a tiled_extent (its conformance suite does, 32x32x32);
  // only a parallel_for_each over it is an error, at compile time as in C++ AMP
  // (tests/compile_fail/tile_over_1024.cpp).
  const hx::tiled_extent<32, 32, 2> big = hx::extent<3>(64, 64, 4).tile<32, 32, 2>();
  CHECK(big.get_tile_extent() == hx::extent<3>(32, 32, 2));
  CHECK(big.pad() == big);
}

TEST_CASE("pad() and truncate() cover ragged domains as in C++ AMP", "[tiled]") {
  const hx::extent<2> e(50, 37);
  CHECK(e.tile<16, 16>().pad() == hx::tiled_extent<16, 16>(hx::extent<2>(64, 48)));
  // Near INT_MAX the padded extent fits although extent + tile - 1 would not.
  constexpr int big0 = INT_MAX - 1, big1 = INT_MAX - 11;
  const hx::tiled_extent<big0, big1> huge = hx::extent<2>(big0, big1).tile<big0, big1>();
  CHECK(huge.pad() == huge);
  const hx::tiled_extent<8> near_max = hx::extent<1>(INT_MAX - 7).tile<8>();
  CHECK(near_max.pad() == near_max);
  CHECK(e.tile<16, 16>().truncate() == hx::tiled_extent<16, 16>(hx::extent<2>(48, 32)));
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const std::vector<int> data = random_vector<int>(e.size(), -1000, 1000);
    SECTION("pad: out-of-range work-items join the barriers but touch no data") {
      std::vector<int> result(e.size(), 999999);
      hx::array_view<const int, 2> in(e, data);
      hx::array_view<int, 2> out(e, result);
      hx::parallel_for_each(av, e.tile<16, 16>().pad(),
                            [=] HIPAMP_RESTRICT(hx::tiled_index<16, 16> t) {
                              HIPAMP_TILE_STATIC int row_sum[16][16];
                              const bool inside = in.extent.contains(t.global);
                              row_sum[t.local[0]][t.local[1]] = inside ? in[t.global] : 0;
                              t.barrier.wait();
                              int sum = 0;
                              for (int j = 0; j < 16; ++j) sum += row_sum[t.local[0]][j];
                              if (inside) out[t.global] = sum;
                            });
      out.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < e[0]; ++i) {
        for (int j = 0; j < e[1]; ++j) {
          int sum = 0;
          for (int c = (j / 16) * 16; c < std::min(e[1], (j / 16) * 16 + 16); ++c) {
            sum += data[std::size_t(i) * e[1] + c];
          }
          if (result[std::size_t(i) * e[1] + j] != sum) ++bad;
        }
      }
      CHECK(bad == 0);
    }
    SECTION("truncate: only whole tiles run, the rest keeps its values") {
      std::vector<int> result(e.size(), 999999);
      hx::array_view<const int, 2> in(e, data);
      hx::array_view<int, 2> out(e, result);
      hx::parallel_for_each(
          av, e.tile<16, 16>().truncate(),
          [=] HIPAMP_RESTRICT(hx::tiled_index<16, 16> t) { out[t.global] = 3 * in[t.global]; });
      out.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < e[0]; ++i) {
        for (int j = 0; j < e[1]; ++j) {
          const int expected = (i < 48 && j < 32) ? 3 * data[std::size_t(i) * e[1] + j] : 999999;
          if (result[std::size_t(i) * e[1] + j] != expected) ++bad;
        }
      }
      CHECK(bad == 0);
    }
  }
}

// CPU-device behaviours written as host lambdas (large stack frames, exceptions, divergent
// barriers): no GPU compiler accepts them as kernels, so they are checked in CPU-only builds.
#if !HIPAMP_GPU_TRANSLATION_UNIT
TEST_CASE("a work-item with a large stack frame waits at barriers", "[tiled]") {
  // 16 KiB of locals per work-item, live across a barrier: fits the fibers' stacks.
  const int n = 64 * 4;
  const std::vector<int> data = random_vector<int>(std::size_t(n), 0, 1000);
  std::vector<int> result(std::size_t(n), -1);
  FOR_EACH_ACCELERATOR(acc) {
    if (!acc.is_cpu()) continue;  // GPU stacks are far smaller
    hx::array_view<const int, 1> in(n, data);
    hx::array_view<int, 1> out(n, result);
    hx::parallel_for_each(acc.get_default_view(), in.extent.tile<64>(), [=](hx::tiled_index<64> t) {
      volatile int local[4096];
      for (int i = 0; i < 4096; ++i) local[i] = in[t.global] + i;
      t.barrier.wait();
      int sum = 0;
      for (int i = 0; i < 4096; i += 512) sum += local[i];
      out[t.global] = sum;
    });
    out.synchronize();
    std::size_t bad = 0;
    for (int i = 0; i < n; ++i) {
      if (result[std::size_t(i)] != 8 * data[std::size_t(i)] + 512 * 28) ++bad;
    }
    CHECK(bad == 0);
  }
}

namespace {
struct kernel_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace

TEST_CASE("the CPU device reports barriers that not all work-items reach", "[tiled][errors]") {
  FOR_EACH_ACCELERATOR(acc) {
    if (!acc.is_cpu()) continue;  // on a GPU this is undefined behaviour, as in C++ AMP
    const hx::accelerator_view av = acc.get_default_view();
    std::vector<int> v(256, 0);
    hx::array_view<int, 1> view(256, v);
    const auto check_divergence = [&](auto kernel) {
      try {
        hx::parallel_for_each(av, view.extent.tile<64>(), kernel);
        FAIL("no exception for a barrier not reached by the whole tile");
      } catch (const hx::runtime_exception& e) {
        CHECK(std::string(e.what()).find("same barriers") != std::string::npos);
      }
    };
    // Only work-item 0 waits: the others return while it waits.
    check_divergence([=](hx::tiled_index<64> t) {
      if (t.local[0] == 0) t.barrier.wait();
      view[t.global] = 1;
    });
    // Work-item 0 never waits, a later one does.
    check_divergence([=](hx::tiled_index<64> t) {
      if (t.local[0] == 5) t.barrier.wait();
      view[t.global] = 2;
    });
    // Work-item 0 returns after one barrier, the others wait at a second.
    check_divergence([=](hx::tiled_index<64> t) {
      t.barrier.wait();
      if (t.local[0] != 0) t.barrier.wait();
      view[t.global] = 3;
    });
    // A kernel's own exception reaches the caller after the tile is unwound, from a fiber
    // and from work-item 0.
    for (const int thrower : {0, 7, 63}) {
      INFO("throwing work-item " << thrower);
      CHECK_THROWS_AS(hx::parallel_for_each(av, view.extent.tile<64>(),
                                            [=](hx::tiled_index<64> t) {
                                              t.barrier.wait();
                                              if (t.local[0] == thrower) {
                                                throw kernel_failure("work-item failed");
                                              }
                                              t.barrier.wait();
                                              view[t.global] = 4;
                                            }),
                      kernel_failure);
    }
    // The scheduler is clean afterwards.
    const std::vector<int> data = random_vector<int>(256, -100, 100);
    hx::array_view<const int, 1> in(256, data);
    hx::parallel_for_each(av, view.extent.tile<64>(), [=](hx::tiled_index<64> t) {
      HIPAMP_TILE_STATIC int s[64];
      s[t.local[0]] = in[t.global];
      t.barrier.wait();
      view[t.global] = s[63 - t.local[0]];
    });
    view.synchronize();
    std::size_t bad = 0;
    for (int i = 0; i < 256; ++i) {
      if (v[std::size_t(i)] != data[std::size_t((i / 64) * 64 + 63 - i % 64)]) ++bad;
    }
    CHECK(bad == 0);
  }
}
#endif  // !HIPAMP_GPU_TRANSLATION_UNIT

TEST_CASE("tile_barrier::wait outside a tiled launch throws", "[tiled][errors]") {
  const hx::tiled_index<4> fake(hx::index<1>(0), hx::index<1>(0), hx::index<1>(0), hx::index<1>(0),
                                hx::tile_barrier());
  CHECK_THROWS_AS(fake.barrier.wait(), hx::runtime_exception);
}
