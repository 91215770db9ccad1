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
#include "workloads/matrix_multiply.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace hx = hipamp;

namespace seed {

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

int main(int argc, char* argv[]) try {
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
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
