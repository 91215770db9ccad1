// A unit compiled as HIP by hipcc: ROCm's clang then includes its own HIP wrapper
// (__clang_hip_runtime_wrapper.h) first, which defines __host__ and __device__ but not the rest
// of HIP's kernel language (blockIdx, __syncthreads, atomicAdd, ...): that comes from
// <hip/hip_runtime.h>, which hipamp must include itself (config.hpp). Under CMake on Debian's
// ROCm layout clang does not include the wrapper, so this unit includes it first, as hipcc's
// clang does, to build the way every hipcc-built port does. Elsewhere (g++, nvcc) it is an
// ordinary test. Built alone (tests/CMakeLists.txt: no unity batch, no precompiled header):
// the wrapper must come before any hipamp header.
#if defined(__HIPCC__) && __has_include(<__clang_hip_runtime_wrapper.h>)
#include <__clang_hip_runtime_wrapper.h>
#endif

#include <hipamp/amp.h>

#include <vector>

#include "support.hpp"

TEST_CASE("a HIP unit whose compiler defined __host__ first still gets HIP's kernel language",
          "[hip][tiled][atomics]") {
  constexpr int tile = 64;
  const int tiles = 7 + static_cast<int>(hipamp_test::random_vector<int>(1, 0, 9)[0]);
  const int n = tiles * tile;
  const std::vector<int> in = hipamp_test::random_vector<int>(std::size_t(n), -1000, 1000);
  std::vector<int> expected_sums(std::size_t(tiles), 0);
  int expected_total = 0;
  for (int i = 0; i < n; ++i) {
    expected_sums[std::size_t(i / tile)] += in[std::size_t(i)];
    expected_total += in[std::size_t(i)];
  }
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> sums(std::size_t(tiles), -1), total(1, 0);
    concurrency::array_view<const int, 1> input(n, in);
    concurrency::array_view<int, 1> tile_sums(tiles, sums);
    concurrency::array_view<int, 1> sum(1, total);
    // tile_static memory, a barrier and an atomic: __shared__, __syncthreads and atomicAdd on a
    // GPU, blockIdx/threadIdx for the tiled index.
    concurrency::parallel_for_each(acc.get_default_view(), concurrency::extent<1>(n).tile<tile>(),
                                   [=] HIPAMP_RESTRICT(concurrency::tiled_index<tile> t) {
                                     tile_static int shared[tile];
                                     shared[t.local[0]] = input[t.global];
                                     t.barrier.wait();
                                     if (t.local[0] == 0) {
                                       int s = 0;
                                       for (int i = 0; i < tile; ++i) s += shared[i];
                                       tile_sums[t.tile] = s;
                                       concurrency::atomic_fetch_add(&sum[0], s);
                                     }
                                   });
    tile_sums.synchronize();
    sum.synchronize();
    CHECK(sums == expected_sums);
    CHECK(total[0] == expected_total);
  }
}
