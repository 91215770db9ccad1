// The hierarchical tile API: per-tile kernels with explicit per-work-item phases, checked
// against host references and against the same computation in the C++ AMP tiled model.
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;
using hipamp_test::random_vector;

namespace {

constexpr int tile = 16;

// The position that mirrors i inside its tile of the given width.
int mirrored(int i, int width) { return (i / width) * width + width - 1 - i % width; }

void hierarchical_matmul(const hx::accelerator_view& av, const hx::array_view<const float, 2>& a,
                         const hx::array_view<const float, 2>& b,
                         const hx::array_view<float, 2>& c) {
  const int inner = a.extent[1];
  hx::parallel_for_each_tile(
      av, c.extent.tile<tile, tile>(), [=] HIPAMP_RESTRICT(const hx::tile_context<tile, tile>& t) {
        HIPAMP_TILE_STATIC float block_a[tile][tile];
        HIPAMP_TILE_STATIC float block_b[tile][tile];
        HIPAMP_TILE_STATIC float sum[tile][tile];  // per-work-item state across phases
        t.for_each_item([&](const hx::tile_item<2>& it) { sum[it.local[0]][it.local[1]] = 0.0f; });
        for (int i = 0; i < inner; i += tile) {
          t.for_each_item([&](const hx::tile_item<2>& it) {
            block_a[it.local[0]][it.local[1]] = a(it.global[0], it.local[1] + i);
            block_b[it.local[0]][it.local[1]] = b(it.local[0] + i, it.global[1]);
          });
          t.for_each_item([&](const hx::tile_item<2>& it) {
            float s = sum[it.local[0]][it.local[1]];
            for (int k = 0; k < tile; ++k) s += block_a[it.local[0]][k] * block_b[k][it.local[1]];
            sum[it.local[0]][it.local[1]] = s;
          });
        }
        t.for_each_item(
            [&](const hx::tile_item<2>& it) { c[it.global] = sum[it.local[0]][it.local[1]]; });
      });
}

}  // namespace

TEST_CASE("hierarchical matrix multiply matches a double reference", "[hierarchical]") {
  struct shape {
    int m, k, n;
  };
  const shape shapes[] = {{16, 16, 16}, {48, 80, 32}, {160, 320, 96}};
  FOR_EACH_ACCELERATOR(acc) {
    for (const shape& s : shapes) {
      INFO("A is " << s.m << "x" << s.k << ", B is " << s.k << "x" << s.n);
      const std::vector<float> va = random_vector<float>(std::size_t(s.m) * s.k, -1.0f, 1.0f);
      const std::vector<float> vb = random_vector<float>(std::size_t(s.k) * s.n, -1.0f, 1.0f);
      std::vector<float> vc(std::size_t(s.m) * s.n, std::numeric_limits<float>::quiet_NaN());
      hx::array_view<const float, 2> a(s.m, s.k, va);
      hx::array_view<const float, 2> b(s.k, s.n, vb);
      hx::array_view<float, 2> c(s.m, s.n, vc);
      hierarchical_matmul(acc.get_default_view(), a, b, c);
      c.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < s.m; ++i) {
        for (int j = 0; j < s.n; ++j) {
          double ref = 0, magnitude = 0;
          for (int p = 0; p < s.k; ++p) {
            const double term = double(va[std::size_t(i) * s.k + p]) * vb[std::size_t(p) * s.n + j];
            ref += term;
            magnitude += std::fabs(term);
          }
          const double got = vc[std::size_t(i) * s.n + j];
          if (!(std::fabs(got - ref) <= s.k * std::ldexp(magnitude, -23) + 1e-30)) ++bad;
        }
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("hierarchical tree reduction with single() gives the exact sum", "[hierarchical]") {
  constexpr int width = 256;
  const int sizes[] = {width, width * 29, 5000};
  FOR_EACH_ACCELERATOR(acc) {
    for (const int n : sizes) {
      INFO("n = " << n);
      const std::vector<int> data = random_vector<int>(std::size_t(n), -1000, 1000);
      const hx::tiled_extent<width> domain = hx::extent<1>(n).tile<width>().pad();
      const int tiles = domain[0] / width;
      std::vector<int> partial(std::size_t(tiles), std::numeric_limits<int>::min());
      hx::array_view<const int, 1> in(n, data);
      hx::array_view<int, 1> out(tiles, partial);
      hx::parallel_for_each_tile(
          acc.get_default_view(), domain, [=] HIPAMP_RESTRICT(const hx::tile_context<width>& t) {
            HIPAMP_TILE_STATIC int s[width];
            t.for_each_item([&](const hx::tile_item<1>& it) {
              s[it.local[0]] = in.extent.contains(it.global) ? in[it.global] : 0;
            });
            for (int half = width / 2; half > 0; half /= 2) {
              t.for_each_item([&](const hx::tile_item<1>& it) {
                if (it.local[0] < half) s[it.local[0]] += s[it.local[0] + half];
              });
            }
            t.single([&] { out[t.tile()] = s[0]; });
          });
      out.synchronize();
      CHECK(std::accumulate(partial.begin(), partial.end(), 0LL) ==
            std::accumulate(data.begin(), data.end(), 0LL));
    }
  }
}

TEST_CASE("hierarchical 3-D tiles agree with the same kernel in the tiled model",
          "[hierarchical][tiled]") {
  const hx::extent<3> e(4, 8, 24);
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const std::vector<int> data = random_vector<int>(e.size(), -100000, 100000);
    std::vector<int> by_phases(e.size(), 1), by_barriers(e.size(), 2);
    hx::array_view<const int, 3> in(e, data);
    hx::array_view<int, 3> p(e, by_phases), b(e, by_barriers);
    hx::parallel_for_each_tile(
        av, e.tile<2, 4, 8>(), [=] HIPAMP_RESTRICT(const hx::tile_context<2, 4, 8>& t) {
          HIPAMP_TILE_STATIC int s[2][4][8];
          t.for_each_item([&](const hx::tile_item<3>& it) {
            s[it.local[0]][it.local[1]][it.local[2]] = in[it.global];
          });
          t.for_each_item([&](const hx::tile_item<3>& it) {
            p[it.global] = s[1 - it.local[0]][3 - it.local[1]][it.local[2]] -
                           s[it.local[0]][it.local[1]][7 - it.local[2]] + t.tile()[2];
          });
        });
    hx::parallel_for_each(av, e.tile<2, 4, 8>(), [=] HIPAMP_RESTRICT(hx::tiled_index<2, 4, 8> t) {
      HIPAMP_TILE_STATIC int s[2][4][8];
      s[t.local[0]][t.local[1]][t.local[2]] = in[t.global];
      t.barrier.wait();
      b[t.global] = s[1 - t.local[0]][3 - t.local[1]][t.local[2]] -
                    s[t.local[0]][t.local[1]][7 - t.local[2]] + t.tile[2];
    });
    p.synchronize();
    b.synchronize();
    CHECK(by_phases == by_barriers);
    // And against the host: element (i, j, k) of the tile-mirrored difference.
    std::size_t bad = 0;
    for (int i = 0; i < e[0]; ++i) {
      for (int j = 0; j < e[1]; ++j) {
        for (int k = 0; k < e[2]; ++k) {
          const int mi = mirrored(i, 2), mj = mirrored(j, 4), mk = mirrored(k, 8);
          const int expected = data[(std::size_t(mi) * e[1] + mj) * e[2] + k] -
                               data[(std::size_t(i) * e[1] + j) * e[2] + mk] + k / 8;
          if (by_phases[(std::size_t(i) * e[1] + j) * e[2] + k] != expected) ++bad;
        }
      }
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("hierarchical launch over a domain not divisible by the tile throws",
          "[hierarchical][errors]") {
  FOR_EACH_ACCELERATOR(acc) {
    try {
      hx::parallel_for_each_tile(acc.get_default_view(), hx::extent<2>(32, 40).tile<16, 16>(),
                                 [=] HIPAMP_RESTRICT(const hx::tile_context<16, 16>&) {});
      FAIL("no exception for a 32x40 domain with 16x16 tiles");
    } catch (const hx::invalid_compute_domain& e) {
      CHECK(std::string(e.what()).find("[32, 40]") != std::string::npos);
    }
  }
}

// The forms the porting tool's `tile` rule writes (tools/amp2hipamp.py, TilePhases): phases
// that take a tiled_index, a tile_private value kept from one phase to the next, and a phase
// bounded to the first work-items of a rank-1 tile.
TEST_CASE("phases taking tiled_index carry tile_private values across phases",
          "[hierarchical][tiled]") {
  const hx::extent<3> e(4, 8, 24);
  FOR_EACH_ACCELERATOR(acc) {
    const std::vector<int> data = random_vector<int>(e.size(), -100000, 100000);
    std::vector<int> result(e.size(), 7);
    hx::array_view<const int, 3> in(e, data);
    hx::array_view<int, 3> out(e, result);
    hx::parallel_for_each_tile(
        acc.get_default_view(), e.tile<2, 4, 8>(),
        [=] HIPAMP_RESTRICT(const hx::tile_context<2, 4, 8>& t) {
          HIPAMP_TILE_STATIC int s[2][4][8];
          HIPAMP_TILE_PRIVATE hx::tile_private<int, 2, 4, 8> own;     // read after the barrier
          HIPAMP_TILE_PRIVATE hx::tile_private<int[2], 2, 4, 8> two;  // an array per work-item
          t.for_each_item([&](hx::tiled_index<2, 4, 8> idx) {
            own[idx] = in[idx.global] * 3;
            two[idx][0] = idx.tile[1];
            two[idx][1] = idx.tile_origin[2];
            s[idx.local[0]][idx.local[1]][idx.local[2]] = in[idx];
          });
          t.for_each_item([&](hx::tiled_index<2, 4, 8> idx) {
            out[idx.global] = own[idx] - s[1 - idx.local[0]][3 - idx.local[1]][7 - idx.local[2]] +
                              two[idx][0] * 1000 + two[idx][1];
          });
        });
    out.synchronize();
    std::size_t bad = 0;
    for (int i = 0; i < e[0]; ++i) {
      for (int j = 0; j < e[1]; ++j) {
        for (int k = 0; k < e[2]; ++k) {
          const int mi = mirrored(i, 2), mj = mirrored(j, 4), mk = mirrored(k, 8);
          const int expected = data[(std::size_t(i) * e[1] + j) * e[2] + k] * 3 -
                               data[(std::size_t(mi) * e[1] + mj) * e[2] + mk] + (j / 4) * 1000 +
                               (k / 8) * 8;
          if (result[(std::size_t(i) * e[1] + j) * e[2] + k] != expected) ++bad;
        }
      }
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("for_each_item_below runs a phase for the first work-items of each tile",
          "[hierarchical]") {
  constexpr int width = 64;
  const int counts[] = {0, 1, 5, 63, 64, 100};
  FOR_EACH_ACCELERATOR(acc) {
    for (const int count : counts) {
      INFO("count = " << count);
      const int n = width * 3;
      const std::vector<int> data = random_vector<int>(std::size_t(n), -1000, 1000);
      std::vector<int> result(std::size_t(n), -1);
      hx::array_view<const int, 1> in(n, data);
      hx::array_view<int, 1> out(n, result);
      hx::parallel_for_each_tile(acc.get_default_view(), hx::extent<1>(n).tile<width>(),
                                 [=] HIPAMP_RESTRICT(const hx::tile_context<width>& t) {
                                   t.for_each_item_below(count, [&](hx::tiled_index<width> idx) {
                                     out[idx.global] = in[idx.global] + idx.tile[0];
                                   });
                                 });
      out.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) {
        const int expected = i % width < count ? data[std::size_t(i)] + i / width : -1;
        if (result[std::size_t(i)] != expected) ++bad;
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("a tree reduction in bounded tiled_index phases gives the exact sum", "[hierarchical]") {
  constexpr int width = 256;
  const int tiles_list[] = {1, 29};
  FOR_EACH_ACCELERATOR(acc) {
    for (const int tiles : tiles_list) {
      const int n = tiles * width;
      const std::vector<int> data = random_vector<int>(std::size_t(n), -1000, 1000);
      std::vector<int> partial(std::size_t(tiles), std::numeric_limits<int>::min());
      hx::array_view<const int, 1> in(n, data);
      hx::array_view<int, 1> out(tiles, partial);
      hx::parallel_for_each_tile(
          acc.get_default_view(), hx::extent<1>(n).tile<width>(),
          [=] HIPAMP_RESTRICT(const hx::tile_context<width>& t) {
            HIPAMP_TILE_STATIC int s[width];
            t.for_each_item([&](hx::tiled_index<width> idx) { s[idx.local[0]] = in[idx]; });
            for (int half = width / 2; half > 0; half /= 2) {
              t.for_each_item_below(half, [&](hx::tiled_index<width> idx) {
                s[idx.local[0]] += s[idx.local[0] + half];
              });
            }
            t.for_each_item_below(1, [&](hx::tiled_index<width> idx) { out[idx.tile] = s[0]; });
          });
      out.synchronize();
      CHECK(std::accumulate(partial.begin(), partial.end(), 0LL) ==
            std::accumulate(data.begin(), data.end(), 0LL));
    }
  }
}
