// Direct3D's robust buffer access, as a port gets it (HIPAMP_ROBUST_ACCESS, config.hpp): a
// kernel's element access outside a view's memory reads zero and its write is dropped, on every
// device. C++ AMP programs were only ever tested under these rules, and some rely on them
// without knowing (a scan that launches twice the tiles its tile-sum array holds, a histogram
// merge that reads past its partial results). Written as the porting tool leaves a C++ AMP
// program: the define before the first include, `concurrency::` names, arrays captured through
// kernel_handle. This unit is built alone (tests/CMakeLists.txt: no unity batch, no precompiled
// header), beside the suite's other units, which do not define the macro: the program mixes
// both kinds, as a port linked with native hipamp code does.
#ifndef HIPAMP_ROBUST_ACCESS
#define HIPAMP_ROBUST_ACCESS 1
#endif
#include "support.hpp"

#include <hipamp/amp.h>

#include <algorithm>
#include <string>
#include <vector>

namespace hx = hipamp;

namespace {

// The reference device checks every index and throws: a port run there names its stray access
// instead of having it hidden (checks win over robust access).
bool is_checking(const hx::accelerator& acc) { return acc.get_default_view().get_checks_bounds(); }

}  // namespace

static_assert(HIPAMP_ROBUST_ACCESS_ON == 1, "this unit tests the ported build");

TEST_CASE("robust access: out-of-range reads see zero", "[robust]") {
  FOR_EACH_ACCELERATOR(acc) {
    if (is_checking(acc)) continue;
    const int n = 1000 + static_cast<int>(hipamp_test::random_vector<int>(1, 0, 500)[0]);
    const int m = n + 333;  // the launch runs past the input's end
    const std::vector<int> in = hipamp_test::random_vector<int>(std::size_t(n), -1000, 1000);
    std::vector<int> out(std::size_t(m), -7);  // poisoned
    concurrency::array_view<const int, 1> input(n, in);
    concurrency::array_view<int, 1> output(m, out);
    concurrency::parallel_for_each(acc.get_default_view(), output.extent,
                                   [=] HIPAMP_RESTRICT(concurrency::index<1> idx) {
                                     output[idx] = input[idx] + 1;
                                     // Negative indices are outside too.
                                     output[idx] += input[idx - m];
                                   });
    output.synchronize();
    for (int i = 0; i < m; ++i) {
      const int expected = (i < n ? in[std::size_t(i)] : 0) + 1;
      if (out[std::size_t(i)] != expected) {
        FAIL("at " << i << ": " << out[std::size_t(i)] << " != " << expected);
      }
    }
  }
}

TEST_CASE("robust access: out-of-range writes are dropped", "[robust]") {
  FOR_EACH_ACCELERATOR(acc) {
    if (is_checking(acc)) continue;
    // The book's aliasing example writes all[idx + size] for every idx of the first half:
    // all of it past the end.
    const int size = 4096 + 2 * static_cast<int>(hipamp_test::random_vector<int>(1, 0, 100)[0]);
    const std::vector<int> original = hipamp_test::random_vector<int>(std::size_t(size), 1, 9);
    std::vector<int> vec = original;
    concurrency::array_view<int, 1> all(size, vec);
    concurrency::array_view<int, 1> first_half = all.section(0, size / 2);
    concurrency::parallel_for_each(acc.get_default_view(), first_half.extent,
                                   [=] HIPAMP_RESTRICT(concurrency::index<1> idx) {
                                     all[idx + size] = first_half[idx];
                                     all[idx + size] += 5;  // a dropped read-modify-write
                                   });
    all.synchronize();
    CHECK(vec == original);
  }
}

TEST_CASE("robust access: a tiled scan writing past its tile sums", "[robust][tiled]") {
  // As a blocked scan that sizes its tile-sum array for tiles of 2 * Tile elements but launches
  // tiles of Tile work-items: the second half of the tiles reads past the input (zero) and
  // writes past the tile sums (dropped); the first half computes the right sums.
  constexpr int tile = 64;
  FOR_EACH_ACCELERATOR(acc) {
    if (is_checking(acc)) continue;
    const int elements = 2 * tile * (3 + hipamp_test::random_vector<int>(1, 0, 20)[0]);
    const int sums_count = elements / (2 * tile);
    const std::vector<int> host = hipamp_test::random_vector<int>(std::size_t(elements), -50, 50);
    concurrency::array<int, 1> data(elements, host.begin(), host.end(), acc.get_default_view());
    concurrency::array<int, 1> tile_sums(sums_count, acc.get_default_view());
    {
      auto& hipamp_ref_data = data;
      auto data = hx::kernel_handle(hipamp_ref_data);
      auto& hipamp_ref_tile_sums = tile_sums;
      auto tile_sums = hx::kernel_handle(hipamp_ref_tile_sums);
      concurrency::parallel_for_each(
          acc.get_default_view(), concurrency::extent<1>(elements).tile<tile>(),
          [=] HIPAMP_RESTRICT(concurrency::tiled_index<tile> tidx) {
            tile_static int partial[tile];
            const int g2 = tidx.global[0] * 2;
            partial[tidx.local[0]] = data[g2] + data[g2 + 1];
            tidx.barrier.wait();
            for (int stride = tile / 2; stride > 0; stride /= 2) {
              if (tidx.local[0] < stride) partial[tidx.local[0]] += partial[tidx.local[0] + stride];
              tidx.barrier.wait();
            }
            if (tidx.local[0] == 0) tile_sums[tidx.tile[0]] = partial[0];
          });
    }
    std::vector<int> sums(std::size_t(sums_count), 0);
    concurrency::copy(tile_sums, sums.begin());
    for (int t = 0; t < sums_count; ++t) {
      int expected = 0;
      for (int i = 0; i < 2 * tile; ++i) expected += host[std::size_t(t * 2 * tile + i)];
      CHECK(sums[std::size_t(t)] == expected);
    }
  }
}

TEST_CASE("robust access: a tile_static read just past its array does not fault on a GPU",
          "[robust][tiled]") {
  // A tree scan over 2 * tile elements in tile_static memory whose last work-item also reads
  // element [2 * tile] (an inclusive shift by one), then overwrites that output with the tile's
  // total: Direct3D gave the stray read some value and the program discarded it. A GPU faults on
  // a shared-memory access past the block's allocation unless the launch pads it (launch.hpp).
  // GPUs only: on the CPU device tile_static arrays are the running thread's own static storage,
  // and the stray read is one the sanitizers (rightly) report.
  constexpr int tile = 64;
  FOR_EACH_ACCELERATOR(acc) {
    if (acc.is_cpu()) continue;
    const int tiles = 3 + hipamp_test::random_vector<int>(1, 0, 20)[0];
    const int elements = 2 * tile * tiles;
    const std::vector<int> in = hipamp_test::random_vector<int>(std::size_t(elements), -50, 50);
    std::vector<int> out(std::size_t(elements), -7);
    concurrency::array_view<const int, 1> input(elements, in);
    concurrency::array_view<int, 1> output(elements, out);
    output.discard_data();
    concurrency::parallel_for_each(
        acc.get_default_view(), concurrency::extent<1>(elements / 2).tile<tile>(),
        [=] HIPAMP_RESTRICT(concurrency::tiled_index<tile> tidx) {
          tile_static int shared[2 * tile];
          const int l2 = tidx.local[0] * 2;
          const int g2 = tidx.global[0] * 2;
          shared[l2] = input[g2];
          shared[l2 + 1] = input[g2 + 1];
          tidx.barrier.wait_with_tile_static_memory_fence();
          // A serial inclusive scan by work-item 0 (the point is the stray read below).
          if (tidx.local[0] == 0) {
            for (int i = 1; i < 2 * tile; ++i) shared[i] += shared[i - 1];
          }
          tidx.barrier.wait_with_tile_static_memory_fence();
          output[g2] = shared[l2];
          const int next = shared[l2 + 2];  // [2 * tile] for the last work-item: the stray read
          output[g2 + 1] = tidx.local[0] == tile - 1 ? shared[2 * tile - 1] : next;
          output[elements + g2] = next;  // past the end: dropped, but it keeps the read alive
        });
    output.synchronize();
    for (int t = 0; t < tiles; ++t) {
      int running = 0;
      for (int i = 0; i < 2 * tile; ++i) {
        const std::size_t at = std::size_t(t * 2 * tile + i);
        running += in[at];
        // Outputs shifted by one (element i holds the scan through i + 1), except the
        // even positions, which hold the scan through i, and the tile's last.
        int expected = running;
        if (i % 2 == 1 && i != 2 * tile - 1) expected = running + in[at + 1];
        if (out[at] != expected) FAIL("at " << at << ": " << out[at] << " != " << expected);
      }
    }
  }
}

TEST_CASE("robust access: an offset inside the view reaches its element, as on Direct3D",
          "[robust]") {
  // Direct3D checked the address against the buffer, not each dimension: [r][-1] is the last
  // element of row r-1; only offsets before [0][0] or after the last element are outside.
  FOR_EACH_ACCELERATOR(acc) {
    if (is_checking(acc)) continue;
    const int rows = 17, cols = 29;
    const std::vector<float> in =
        hipamp_test::random_vector<float>(std::size_t(rows * cols), -1.0f, 1.0f);
    concurrency::array<float, 2> image(rows, cols, in.begin(), in.end(), acc.get_default_view());
    std::vector<float> out(std::size_t(rows * cols), -9.0f);
    concurrency::array_view<float, 2> left(rows, cols, out);
    left.discard_data();
    {
      auto& hipamp_ref_image = image;
      auto image = hx::kernel_handle(hipamp_ref_image);
      concurrency::parallel_for_each(
          acc.get_default_view(), left.extent, [=] HIPAMP_RESTRICT(concurrency::index<2> idx) {
            left[idx] = image(idx[0], idx[1] - 1) + image(idx[0] + rows, idx[1]);
          });
    }
    left.synchronize();
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const int at = r * cols + c - 1;  // the linear offset Direct3D saw
        const float expected = at >= 0 ? in[std::size_t(at)] : 0.0f;
        if (out[std::size_t(r * cols + c)] != expected) {
          FAIL("at [" << r << "][" << c << "]: " << out[std::size_t(r * cols + c)]
                      << " != " << expected);
        }
      }
    }
  }
}

TEST_CASE("robust access: the reference device still names the stray access", "[robust][ref]") {
  const hx::accelerator ref(hx::accelerator::direct3d_ref);
  std::vector<int> data(64, 1);
  concurrency::array_view<int, 1> view(64, data);
  try {
    concurrency::parallel_for_each(
        ref.get_default_view(), view.extent,
        [=] HIPAMP_RESTRICT(concurrency::index<1> idx) { view[idx] = view[idx + 1]; });
    FAIL("the reference device let index [64] through");
  } catch (const hx::index_out_of_range& e) {
    CHECK(std::string(e.what()).find("[64]") != std::string::npos);
  }
  // A checked view of the CPU device too.
  const hx::accelerator_view checked =
      hx::accelerator(hx::accelerator::cpu_accelerator).create_checked_view();
  CHECK_THROWS_AS(concurrency::parallel_for_each(
                      checked, view.extent,
                      [=] HIPAMP_RESTRICT(concurrency::index<1> idx) { view[idx + 64] = 0; }),
                  hx::index_out_of_range);
}
