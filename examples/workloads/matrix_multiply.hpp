// The seed's matrix multiplies as C++ AMP programs write them, shared by the standalone
// example (matrix_multiply.cpp) and the demo.
#pragma once

#include "workload.hpp"

#include <hipamp/hipamp.hpp>

#if __has_include(<hipamp/tiled_parallel_for_each.hpp>)
// The tiled model (tiled_extent launches, tile_static, tile_barrier) arrives in its own header.
#include <hipamp/tiled_parallel_for_each.hpp>
#define HIPAMP_EXAMPLE_HAS_TILED 1
#else
#define HIPAMP_EXAMPLE_HAS_TILED 0
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace hx = hipamp;

namespace seed {

constexpr int tile = 16;

template <class T>
void multiply_serial(const std::vector<T>& a, const std::vector<T>& b, std::vector<T>& c, int m,
                     int k, int n) {
  for (int row = 0; row < m; ++row) {
    for (int col = 0; col < n; ++col) {
      T sum = 0;
      for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
      c[row * n + col] = sum;
    }
  }
}

template <class T>
void multiply_simple(const hx::accelerator_view& av, const std::vector<T>& va,
                     const std::vector<T>& vb, std::vector<T>& vc, int m, int k, int n) {
  hx::array_view<const T, 2> a(m, k, va);
  hx::array_view<const T, 2> b(k, n, vb);
  hx::array_view<T, 2> c(m, n, vc);
  c.discard_data();
  hx::parallel_for_each(av, c.extent, [=] HIPAMP_RESTRICT(hx::index<2> idx) {
    const int row = idx[0];
    const int col = idx[1];
    T sum = 0;
    for (int i = 0; i < a.extent[1]; ++i) sum += a(row, i) * b(i, col);
    c[idx] = sum;
  });
  c.synchronize();
}

#if HIPAMP_EXAMPLE_HAS_TILED
template <class T>
void multiply_tiled(const hx::accelerator_view& av, const std::vector<T>& va,
                    const std::vector<T>& vb, std::vector<T>& vc, int m, int k, int n) {
  hx::array_view<const T, 2> a(m, k, va);
  hx::array_view<const T, 2> b(k, n, vb);
  hx::array_view<T, 2> c(m, n, vc);
  c.discard_data();
  hx::parallel_for_each(av, c.extent.template tile<tile, tile>(),
                        [=] HIPAMP_RESTRICT(hx::tiled_index<tile, tile> t) {
                          const int row = t.global[0];
                          const int col = t.global[1];
                          T sum = 0;
                          for (int i = 0; i < a.extent[1]; ++i) sum += a(row, i) * b(i, col);
                          c[t.global] = sum;
                        });
  c.synchronize();
}

template <class T>
void multiply_tiled_shared(const hx::accelerator_view& av, const std::vector<T>& va,
                           const std::vector<T>& vb, std::vector<T>& vc, int m, int k, int n) {
  hx::array_view<const T, 2> a(m, k, va);
  hx::array_view<const T, 2> b(k, n, vb);
  hx::array_view<T, 2> c(m, n, vc);
  c.discard_data();
  hx::parallel_for_each(av, c.extent.template tile<tile, tile>(),
                        [=] HIPAMP_RESTRICT(hx::tiled_index<tile, tile> t) {
                          const int row = t.local[0];
                          const int col = t.local[1];
                          T sum = 0;
                          for (int i = 0; i < a.extent[1]; i += tile) {
                            HIPAMP_TILE_STATIC T sa[tile][tile];
                            HIPAMP_TILE_STATIC T sb[tile][tile];
                            sa[row][col] = a(t.global[0], col + i);
                            sb[row][col] = b(row + i, t.global[1]);
                            t.barrier.wait();
                            for (int j = 0; j < tile; ++j) sum += sa[row][j] * sb[j][col];
                            t.barrier.wait();
                          }
                          c[t.global] = sum;
                        });
  c.synchronize();
}
#endif

void multiply_library(const hx::accelerator_view& av, const std::vector<float>& va,
                      const std::vector<float>& vb, std::vector<float>& vc, int m, int k, int n) {
  hx::array_view<const float, 2> a(m, k, va);
  hx::array_view<const float, 2> b(k, n, vb);
  hx::array_view<float, 2> c(m, n, vc);
  hx::matmul(av, a, b, c);
  c.synchronize();
}

// Largest difference from the serial result, in units of the float error bound
// k * eps * sum |a||b| (inputs are positive, so sum |a||b| is the exact product); exact for int.
template <class T>
double mismatch(const std::vector<T>& got, const std::vector<T>& serial, int k) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - static_cast<double>(serial[i]));
    if (std::is_integral<T>::value) {
      worst = std::max(worst, diff);
    } else {
      const double bound =
          2.0 * k * std::numeric_limits<T>::epsilon() * std::fabs(static_cast<double>(serial[i])) +
          std::numeric_limits<T>::min();
      worst = std::max(worst, std::isnan(diff) ? 1e30 : diff / bound);
    }
  }
  return worst;
}

}  // namespace seed
namespace demo {

// The demo's matrix-multiply rows: 480x640 * 640x960 floats (the GTX 470 table) through each
// C++ AMP variant and hipamp::matmul, checked against the serial loops.
inline std::vector<result> run_matrix_multiply(const hipamp::accelerator_view& av) {
  const int m = 480, k = 640, n = 960;
  std::mt19937 rng(20120418u);
  std::uniform_real_distribution<float> dist(0, 1);
  std::vector<float> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n);
  for (float& x : a) x = dist(rng);
  for (float& x : b) x = dist(rng);
  std::vector<float> serial(static_cast<std::size_t>(m) * n);
  seed::multiply_serial(a, b, serial, m, k, n);
  std::vector<result> rows;
  auto add = [&](const char* variant, auto&& multiply) {
    std::vector<float> c(serial.size(), -1.0f);
    result r;
    r.workload = std::string("matmul ") + variant;
    r.size = "480x640 * 640x960";
    r.seconds = median_seconds(3, [&] { multiply(c); });
    const double error = seed::mismatch(c, serial, k);
    r.ok = error <= 1.0;
    char note[64];
    std::snprintf(note, sizeof note, "%.1f GFLOP/s, err %.2g of bound",
                  2.0 * m * k * n / r.seconds * 1e-9, error);
    r.note = note;
    rows.push_back(r);
  };
  add("simple", [&](std::vector<float>& c) { seed::multiply_simple(av, a, b, c, m, k, n); });
#if HIPAMP_EXAMPLE_HAS_TILED
  add("tiled 16x16", [&](std::vector<float>& c) { seed::multiply_tiled(av, a, b, c, m, k, n); });
  add("tile_static 16x16",
      [&](std::vector<float>& c) { seed::multiply_tiled_shared(av, a, b, c, m, k, n); });
#endif
  add("hipamp::matmul",
      [&](std::vector<float>& c) { seed::multiply_library(av, a, b, c, m, k, n); });
  return rows;
}

}  // namespace demo
