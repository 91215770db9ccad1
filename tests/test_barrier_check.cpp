// The barrier-divergence check (issue 15): on the CPU device and the reference device, a tile
// whose work-items do not all reach the same tile_barrier::wait throws barrier_divergence
// naming the tile and the barrier, instead of hanging or running on; the runtime stays usable.
//
// Divergent barriers are undefined behaviour on a GPU (C++ AMP's compiler rejected them), so
// these kernels are host lambdas, checked in CPU-only builds and on CPU-executed devices.
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.hpp"

namespace hx = hipamp;
using hipamp_test::random_vector;

#if !HIPAMP_GPU_TRANSLATION_UNIT
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `kernel` over 8 tiles of 64 and returns the barrier_divergence message ("" if none).
template <class Kernel>
std::string divergence_of(const hx::accelerator_view& av, const hx::array_view<int, 1>& view,
                          const Kernel& kernel) {
  try {
    hx::parallel_for_each(av, view.extent.tile<64>(), kernel);
  } catch (const hx::barrier_divergence& e) {
    return e.what();
  }
  return "";
}

// After a failed launch: a correct tiled launch over the same view gives the host's answer,
// and a read-only input is unchanged.
void check_still_usable(const hx::accelerator_view& av, const hx::array_view<int, 1>& view,
                        const std::vector<int>& input, const std::vector<int>& input_copy,
                        std::vector<int>& host) {
  hx::array_view<const int, 1> in(int(input.size()), input);
  hx::parallel_for_each(av, view.extent.tile<64>(), [=](hx::tiled_index<64> t) {
    HIPAMP_TILE_STATIC int s[64];
    s[t.local[0]] = in[t.global];
    t.barrier.wait();
    view[t.global] = s[63 - t.local[0]] + s[t.local[0]];
  });
  view.synchronize();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < host.size(); ++i) {
    const std::size_t mirror = i / 64 * 64 + 63 - i % 64;
    bad += host[i] != input[mirror] + input[i];
  }
  CHECK(bad == 0);
  CHECK(input == input_copy);
}

}  // namespace

TEST_CASE("divergent barriers throw barrier_divergence naming tile and barrier",
          "[barrier-check][tiled][errors]") {
  FOR_EACH_ACCELERATOR(acc) {
    if (!acc.is_cpu()) continue;
    const hx::accelerator_view av = acc.get_default_view();
    const int n = 64 * 8;
    const std::vector<int> input = random_vector<int>(std::size_t(n), -1000, 1000);
    const std::vector<int> input_copy = input;
    std::vector<int> host(std::size_t(n), 0);
    hx::array_view<int, 1> view(n, host);
    const int bad_tile = random_vector<int>(1, 0, 7)[0];
    INFO("diverging tile " << bad_tile);
    const std::string tile_name = "tile [" + std::to_string(bad_tile) + "]";

    SECTION("half the tile returns before the barrier (work-item 0 waits)") {
      const std::string what = divergence_of(av, view, [=](hx::tiled_index<64> t) {
        if (t.tile[0] == bad_tile && t.local[0] >= 32) return;
        t.barrier.wait();
        view[t.global] = 1;
      });
      INFO(what);
      CHECK(contains(what, tile_name));
      CHECK(contains(what, "barrier #1"));
      CHECK(contains(what, "test_barrier_check.cpp:"));
      CHECK(contains(what, "32 returned"));
      CHECK(contains(what, "[32]"));  // the first work-item that returned
      CHECK(contains(what, "same barriers"));
      check_still_usable(av, view, input, input_copy, host);
    }
    SECTION("half the tile returns before the barrier (work-item 0 returns)") {
      const std::string what = divergence_of(av, view, [=](hx::tiled_index<64> t) {
        if (t.tile[0] == bad_tile && t.local[0] < 32) return;
        t.barrier.wait();
        view[t.global] = 2;
      });
      INFO(what);
      CHECK(contains(what, tile_name));
      CHECK(contains(what, "barrier #1"));
      CHECK(contains(what, "returned without reaching"));
      check_still_usable(av, view, input, input_copy, host);
    }
    SECTION("a barrier inside if (local[0] == 0)") {
      const std::string what = divergence_of(av, view, [=](hx::tiled_index<64> t) {
        if (t.tile[0] == bad_tile && t.local[0] == 0) t.barrier.wait();
        if (t.tile[0] != bad_tile) t.barrier.wait();
        view[t.global] = 3;
      });
      INFO(what);
      CHECK(contains(what, tile_name));
      CHECK(contains(what, "63 returned"));
      check_still_usable(av, view, input, input_copy, host);
    }
    SECTION("work-items wait a different number of times") {
      const int extra = random_vector<int>(1, 1, 63)[0];
      INFO("work-item " << extra << " waits once more");
      const std::string what = divergence_of(av, view, [=](hx::tiled_index<64> t) {
        const int waits = 3 + (t.tile[0] == bad_tile && t.local[0] == extra ? 1 : 0);
        for (int k = 0; k < waits; ++k) t.barrier.wait();
        view[t.global] = 4;
      });
      INFO(what);
      CHECK(contains(what, tile_name));
      CHECK(contains(what, "barrier #4"));
      CHECK(contains(what, "after 3 barrier(s)"));
      CHECK(contains(what, "[" + std::to_string(extra) + "]"));
      check_still_usable(av, view, input, input_copy, host);
    }
    SECTION("work-item 0 waits once more than the others") {
      const std::string what = divergence_of(av, view, [=](hx::tiled_index<64> t) {
        t.barrier.wait();
        t.barrier.wait();
        if (t.tile[0] == bad_tile && t.local[0] == 0) t.barrier.wait();
        view[t.global] = 5;
      });
      INFO(what);
      CHECK(contains(what, tile_name));
      CHECK(contains(what, "barrier #3"));
      CHECK(contains(what, "63 returned"));
      check_still_usable(av, view, input, input_copy, host);
    }
    SECTION("the halves of a tile wait at different barriers") {
      // Same count, different tile_barrier::wait calls: each half would release the other's
      // barrier on the CPU (and on some GPUs), so this runs on silently without the check.
      std::atomic<int> line_if{0}, line_else{0};  // written by every tile's work-items
      const std::string what =
          divergence_of(av, view, [&line_if, &line_else, bad_tile, view](hx::tiled_index<64> t) {
            if (t.tile[0] != bad_tile || t.local[0] < 32) {
              line_if = __LINE__ + 1;
              t.barrier.wait();
            } else {
              line_else = __LINE__ + 1;
              t.barrier.wait_with_tile_static_memory_fence();
            }
            view[t.global] = 6;
          });
      INFO(what);
      CHECK(contains(what, tile_name));
      CHECK(contains(what, "barrier #1"));
      CHECK(contains(what, "test_barrier_check.cpp:" + std::to_string(line_if.load())));
      CHECK(contains(what, "test_barrier_check.cpp:" + std::to_string(line_else.load())));
      CHECK(contains(what, "[32]"));
      check_still_usable(av, view, input, input_copy, host);
    }
  }
}

TEST_CASE("barrier sites in 2-D tiles and uniform branches are not divergence",
          "[barrier-check][tiled]") {
  // A tile-uniform branch picks one barrier call for the whole tile: legal, and checked
  // against a host reference. Local indices in messages are 2-D.
  FOR_EACH_ACCELERATOR(acc) {
    if (!acc.is_cpu()) continue;
    const hx::accelerator_view av = acc.get_default_view();
    const int rows = 16, cols = 32;
    const std::vector<int> input = random_vector<int>(std::size_t(rows * cols), -100, 100);
    std::vector<int> host(input.size(), 0);
    hx::array_view<const int, 2> in(rows, cols, input);
    hx::array_view<int, 2> out(rows, cols, host);
    hx::parallel_for_each(av, out.extent.tile<4, 8>(), [=](hx::tiled_index<4, 8> t) {
      HIPAMP_TILE_STATIC int s[4][8];
      s[t.local[0]][t.local[1]] = in[t.global];
      if ((t.tile[0] + t.tile[1]) % 2 == 0) {
        t.barrier.wait();
      } else {
        t.barrier.wait_with_global_memory_fence();
      }
      out[t.global] = s[3 - t.local[0]][7 - t.local[1]];
    });
    out.synchronize();
    std::size_t bad = 0;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const int sr = r / 4 * 4 + 3 - r % 4, sc = c / 8 * 8 + 7 - c % 8;
        bad += host[std::size_t(r * cols + c)] != input[std::size_t(sr * cols + sc)];
      }
    }
    CHECK(bad == 0);

    // The 2-D work-item [1, 3] (linear 11) waits where the others do not.
    try {
      hx::parallel_for_each(av, out.extent.tile<4, 8>(), [=](hx::tiled_index<4, 8> t) {
        t.barrier.wait();
        if (t.local[0] == 1 && t.local[1] == 3) t.barrier.wait();
        out[t.global] = 0;
      });
      FAIL("no exception");
    } catch (const hx::barrier_divergence& e) {
      INFO(e.what());
      CHECK(contains(e.what(), "[1, 3]"));
      CHECK(contains(e.what(), "barrier #2"));
    }
  }
}
// The CPU device keeps each work-item's fiber parked between tiles and launches (issue 19):
// a later launch, of another tile size or after a tile that failed, resumes the parked fibers
// for its own work-items. Each work-item carries a local sum across six barriers and rotates
// tile_static data, so a fiber that resumed the wrong work-item or kept a stale job shows.
template <int T>
void check_rotating_sums(const hx::accelerator_view& av, int tiles) {
  INFO("tile of " << T);
  const int n = T * tiles;
  const std::vector<int> input = random_vector<int>(std::size_t(n), -1000, 1000);
  std::vector<int> got(std::size_t(n), 0);
  {
    hx::array_view<const int, 1> in(n, input);
    hx::array_view<int, 1> out(n, got);
    out.discard_data();
    hx::parallel_for_each(av, out.extent.tile<T>(), [=](hx::tiled_index<T> t) {
      HIPAMP_TILE_STATIC int s[T];
      const int l = t.local[0];
      s[l] = in[t.global];
      int sum = l;
      for (int r = 0; r < 3; ++r) {
        t.barrier.wait();
        const int v = s[(l + r + 1) % T];
        t.barrier.wait();
        sum += v;
        s[l] = v;
      }
      out[t.global] = sum;
    });
    out.synchronize();
  }
  std::size_t bad = 0;
  std::vector<int> s(T), v(T);
  for (int tile = 0; tile < tiles; ++tile) {
    std::vector<int> sum(T);
    for (int l = 0; l < T; ++l) {
      s[std::size_t(l)] = input[std::size_t(tile * T + l)];
      sum[std::size_t(l)] = l;
    }
    for (int r = 0; r < 3; ++r) {
      for (int l = 0; l < T; ++l) v[std::size_t(l)] = s[std::size_t((l + r + 1) % T)];
      for (int l = 0; l < T; ++l) sum[std::size_t(l)] += v[std::size_t(l)];
      s = v;
    }
    for (int l = 0; l < T; ++l) bad += got[std::size_t(tile * T + l)] != sum[std::size_t(l)];
  }
  CHECK(bad == 0);
}

TEST_CASE("parked fibers serve later launches of other tile sizes and after a failed tile",
          "[barrier-check][tiled]") {
  FOR_EACH_ACCELERATOR(acc) {
    if (!acc.is_cpu()) continue;
    const hx::accelerator_view av = acc.get_default_view();
    check_rotating_sums<256>(av, 9);
    check_rotating_sums<64>(av, 17);
    check_rotating_sums<1024>(av, 3);
    check_rotating_sums<8>(av, 40);

    // Work-item 700 of tile 1 throws between two barriers: the tile's other fibers are
    // unwound and parked, the exception reaches the caller, and the fibers serve the next
    // launches.
    const int n = 1024 * 3;
    std::vector<int> host(std::size_t(n), 0);
    hx::array_view<int, 1> view(n, host);
    CHECK_THROWS_AS(hx::parallel_for_each(av, view.extent.tile<1024>(),
                                          [=](hx::tiled_index<1024> t) {
                                            HIPAMP_TILE_STATIC int s[1024];
                                            s[t.local[0]] = t.local[0];
                                            t.barrier.wait();
                                            if (t.tile[0] == 1 && t.local[0] == 700) {
                                              throw std::runtime_error("work-item 700");
                                            }
                                            t.barrier.wait();
                                            view[t.global] = s[1023 - t.local[0]];
                                          }),
                    std::runtime_error);
    check_rotating_sums<1024>(av, 3);
    check_rotating_sums<256>(av, 5);
  }
}
#endif  // !HIPAMP_GPU_TRANSLATION_UNIT
