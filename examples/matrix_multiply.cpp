// The seed's matrix multiplies, written with hipamp exactly as a C++ AMP program writes them:
//   1. serial loops on the host,
//   2. a simple parallel_for_each, one work-item per element of C,
//   3. parallel_for_each over 16x16 tiles without tile_static (the "explicit tile" column of
//      the 2012 comparison),
//   4. 16x16 tiles staging blocks of A and B in two tile_static arrays, with barriers,
// plus the library routine hipamp::matmul (float). float and int, 480x640 * 640x960 (the
// GTX 470 table) and 1024x1024 (the Pro .NET Performance table); every variant is checked
// against the serial result and timed (best of a few runs, after a warm-up that moves the
// data and compiles nothing: hipamp kernels are compiled ahead of time).
//
// Usage: matrix_multiply [repetitions]   (runs on the default accelerator; set
// HIPAMP_DEFAULT_ACCELERATOR=cpu to use the CPU device)
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

struct outcome {
  bool ok = true;
};

template <class T, class F>
void time_variant(const char* name, F&& run, const std::vector<T>& serial, int k, int repetitions,
                  outcome& result) {
  std::vector<T> c(serial.size(), T(-1));
  run(c);  // warm-up: first touch of the data on the accelerator
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repetitions; ++r) {
    std::fill(c.begin(), c.end(), T(-1));
    const auto start = std::chrono::steady_clock::now();
    run(c);
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const double error = mismatch(c, serial, k);
  const bool ok = error <= 1.0;
  result.ok = result.ok && ok;
  std::printf("  %-28s %9.4f s  %s\n", name, best, ok ? "matches serial" : "MISMATCH");
}

template <class T>
void run_size(const hx::accelerator_view& av, int m, int k, int n, int repetitions,
              outcome& result) {
  std::mt19937 rng(20120418u);
  std::vector<T> a(static_cast<std::size_t>(m) * k);
  std::vector<T> b(static_cast<std::size_t>(k) * n);
  if constexpr (std::is_integral<T>::value) {
    std::uniform_int_distribution<T> dist(0, 9);
    for (T& x : a) x = dist(rng);
    for (T& x : b) x = dist(rng);
  } else {
    std::uniform_real_distribution<T> dist(0, 1);
    for (T& x : a) x = dist(rng);
    for (T& x : b) x = dist(rng);
  }
  std::printf("%s %dx%d * %dx%d\n", std::is_integral<T>::value ? "int" : "float", m, k, k, n);

  std::vector<T> serial(static_cast<std::size_t>(m) * n);
  const auto start = std::chrono::steady_clock::now();
  multiply_serial(a, b, serial, m, k, n);
  std::printf("  %-28s %9.4f s\n", "serial",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());

  time_variant<T>(
      "simple parallel_for_each", [&](std::vector<T>& c) { multiply_simple(av, a, b, c, m, k, n); },
      serial, k, repetitions, result);
#if HIPAMP_EXAMPLE_HAS_TILED
  time_variant<T>(
      "tiled 16x16", [&](std::vector<T>& c) { multiply_tiled(av, a, b, c, m, k, n); }, serial, k,
      repetitions, result);
  time_variant<T>(
      "tiled 16x16 tile_static",
      [&](std::vector<T>& c) { multiply_tiled_shared(av, a, b, c, m, k, n); }, serial, k,
      repetitions, result);
#else
  std::printf("  (tiled variants need <hipamp/tiled_parallel_for_each.hpp>)\n");
#endif
  if constexpr (std::is_same<T, float>::value) {
    time_variant<T>(
        "hipamp::matmul", [&](std::vector<float>& c) { multiply_library(av, a, b, c, m, k, n); },
        serial, k, repetitions, result);
  }
}

}  // namespace seed

int main(int argc, char* argv[]) {
  using namespace seed;
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const hx::accelerator acc;
  std::printf("matrix multiply on %ls\n", acc.get_description().c_str());
  const hx::accelerator_view av = acc.get_default_view();
  outcome result;
  // The 16x16 tiled kernels, as in the seed, need every dimension to be a multiple of 16.
  run_size<float>(av, 480, 640, 960, repetitions, result);
  run_size<int>(av, 480, 640, 960, repetitions, result);
  run_size<float>(av, 1024, 1024, 1024, repetitions, result);
  run_size<int>(av, 1024, 1024, 1024, repetitions, result);
  std::printf("%s\n", result.ok ? "all variants match the serial result" : "MISMATCHES found");
  return result.ok ? 0 : 1;
}
