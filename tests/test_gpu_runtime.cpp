// The GPU device: properties, launches of any rank (split when large), the tiled launch,
// queues and events, large transfers through the staging ring, and the failures that must
// be exceptions rather than aborts (device out of memory, a kernel fault). Tests that need a
// GPU do nothing in builds or on machines without one.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <limits>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "coherence_support.hpp"

using hipamp::array;
using hipamp::array_view;
namespace hx = hipamp;

#if !__has_include(<hipamp/tiled_parallel_for_each.hpp>)
// Until the tiled model (its CPU tile scheduler defines this) is part of the build, the tiled
// kernels below, which run on GPUs only, still need their host body to link.
namespace hipamp::fallback {
void tile_barrier_wait() {
  throw unsupported_feature("hipamp: tile barriers on the CPU device need the tiled model");
}
}  // namespace hipamp::fallback
#endif

namespace {

std::vector<hx::accelerator> gpus() {
  std::vector<hx::accelerator> out;
  for (const hx::accelerator& acc : hipamp_test::accelerators()) {
    if (!acc.is_cpu()) out.push_back(acc);
  }
  return out;
}

std::string narrow(const std::wstring& w) {
  std::string s;
  for (wchar_t c : w) s += static_cast<char>(c);
  return s;
}

#if HIPAMP_GPU_TRANSLATION_UNIT
// What tiled_parallel_for_each does, reduced to the launch: the test owns a tiled launch
// without depending on the tiled model's public header.
template <int D0, int D1, int D2, class Kernel>
void tiled_launch(const hx::accelerator_view& av, const hx::tiled_extent<D0, D1, D2>& domain,
                  const Kernel& kernel) {
  hx::detail::launch_scope scope(av.queue());
  const Kernel bound = kernel;
  scope.close();
  scope.complete(hx::detail::gpu::launch_tiled(hx::detail::gpu::device_target{av}, domain, bound));
}

template <int N, class Kernel>
void split_launch(const hx::accelerator_view& av, const hx::extent<N>& domain,
                  std::uint64_t max_points, const Kernel& kernel) {
  hx::detail::launch_scope scope(av.queue());
  const Kernel bound = kernel;
  scope.close();
  scope.complete(hx::detail::gpu::launch_simple_split(av, domain, bound, max_points));
}
#endif

}  // namespace

TEST_CASE("GPUs appear with their real properties, the best one as default", "[gpu]") {
  const std::vector<hx::accelerator> found = gpus();
  if (found.empty()) {
    WARN("no GPU in this build or on this machine (backend " HIPAMP_BACKEND_NAME ")");
    return;
  }
  for (const hx::accelerator& acc : found) {
    INFO(narrow(acc.get_description()));
    const std::string path = narrow(acc.get_device_path());
    CHECK((path.rfind("cuda:", 0) == 0 || path.rfind("hip:", 0) == 0));
    CHECK(acc.get_description().size() > 8);
    CHECK(acc.get_dedicated_memory() > std::size_t{1024} * 1024);  // KB: more than a GiB
    CHECK(acc.get_supports_double_precision());
    CHECK(acc.get_max_tile_size() >= 256);
    CHECK_FALSE(acc.get_is_emulated());
    CHECK_FALSE(acc.get_supports_cpu_shared_memory());
    CHECK(acc.get_version() >= (3u << 16));
    CHECK(hx::accelerator(acc.get_device_path()) == acc);
  }
  if (std::getenv("HIPAMP_DEFAULT_ACCELERATOR") == nullptr) {
    CHECK(hx::accelerator() == found.front());
    CHECK(hx::accelerator::get_all().front() == found.front());
  }
}

TEST_CASE("simple launches of every rank, also cut into several launches", "[gpu]") {
#if HIPAMP_GPU_TRANSLATION_UNIT
  for (const hx::accelerator& acc : gpus()) {
    hx::accelerator_view av = acc.get_default_view();
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      // Every point writes its row-major number; the cut launches must cover each once.
      for (std::uint64_t max_points :
           {std::uint64_t{97}, std::uint64_t{4096}, hx::detail::gpu::max_points_per_launch}) {
        const int d0 = 37, d1 = 53, d2 = 29;
        std::vector<int> out1(d0 * d1 * d2, -1), out2(d0 * d1 * d2, -1), out3(d0 * d1 * d2, -1);
        array_view<int, 1> v1(d0 * d1 * d2, out1);
        array_view<int, 2> v2(d0 * d1, d2, out2);
        array_view<int, 3> v3(d0, d1, d2, out3);
        split_launch(av, v1.extent, max_points,
                     [=] HIPAMP_RESTRICT(hx::index<1> i) { v1[i] += i[0] + 1; });
        split_launch(av, v2.extent, max_points,
                     [=] HIPAMP_RESTRICT(hx::index<2> i) { v2[i] += i[0] * d2 + i[1] + 1; });
        split_launch(av, v3.extent, max_points, [=] HIPAMP_RESTRICT(hx::index<3> i) {
          v3[i] += (i[0] * d1 + i[1]) * d2 + i[2] + 1;
        });
        v1.synchronize();
        v2.synchronize();
        v3.synchronize();
        std::size_t bad = 0;
        for (int k = 0; k < d0 * d1 * d2; ++k) {
          bad += (out1[k] != k) + (out2[k] != k) + (out3[k] != k);
        }
        INFO("max points per launch " << max_points);
        CHECK(bad == 0);
      }
      // Dimensions past the 65535 limit of grid y and z need no special care.
      const hx::extent<3> wide(2, 70001, 3);
      std::vector<unsigned> hits(wide.size(), 0u);
      array_view<unsigned, 3> vh(wide, hits);
      hx::parallel_for_each(av, wide, [=] HIPAMP_RESTRICT(hx::index<3> i) { vh[i] += 1u + i[1]; });
      vh.synchronize();
      std::size_t bad = 0;
      for (int a = 0; a < 2; ++a) {
        for (int b = 0; b < 70001; ++b) {
          for (int c = 0; c < 3; ++c) bad += hits[(a * 70001 + b) * 3 + c] != 1u + b;
        }
      }
      CHECK(bad == 0);
    }
  }
#endif
}

TEST_CASE("tiled launches build tiled_index from blocks and share tile_static memory",
          "[gpu][tiled]") {
#if HIPAMP_GPU_TRANSLATION_UNIT
  for (const hx::accelerator& acc : gpus()) {
    hx::accelerator_view av = acc.get_default_view();
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      // Rank 1: every tile reverses its 256 elements through tile_static memory.
      const int n = 256 * 37;
      const std::vector<int> in = hipamp_test::random_vector<int>(n, -100000, 100000);
      std::vector<int> out(n, -1);
      array_view<const int, 1> vin(n, in);
      array_view<int, 1> vout(n, out);
      vout.discard_data();
      tiled_launch(av, vin.extent.tile<256>(), [=] HIPAMP_RESTRICT(hx::tiled_index<256> t) {
        HIPAMP_TILE_STATIC int shared[256];
        shared[t.local[0]] = vin[t.global];
        t.barrier.wait();
        vout[t.global] = shared[255 - t.local[0]];
      });
      vout.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) bad += out[i] != in[(i / 256) * 256 + 255 - i % 256];
      CHECK(bad == 0);

      // Rank 2: a 16x16 transpose inside each tile, and every field of tiled_index.
      const int rows = 16 * 5, cols = 16 * 7;
      const std::vector<float> m = hipamp_test::random_vector<float>(rows * cols, -1.0f, 1.0f);
      std::vector<float> t_out(rows * cols, std::numeric_limits<float>::quiet_NaN());
      std::vector<int> fields(rows * cols * 8, -1);
      array_view<const float, 2> vm(rows, cols, m);
      array_view<float, 2> vt(rows, cols, t_out);
      array_view<int, 3> vf(rows, cols, 8, fields);
      tiled_launch(av, vm.extent.tile<16, 16>(), [=] HIPAMP_RESTRICT(hx::tiled_index<16, 16> t) {
        HIPAMP_TILE_STATIC float block[16][17];
        block[t.local[0]][t.local[1]] = vm[t.global];
        t.barrier.wait();
        vt[t.global] = block[t.local[1]][t.local[0]];
        const int g0 = t.global[0], g1 = t.global[1];
        vf(g0, g1, 0) = t.local[0];
        vf(g0, g1, 1) = t.local[1];
        vf(g0, g1, 2) = t.tile[0];
        vf(g0, g1, 3) = t.tile[1];
        vf(g0, g1, 4) = t.tile_origin[0];
        vf(g0, g1, 5) = t.tile_origin[1];
        vf(g0, g1, 6) = g0;
        vf(g0, g1, 7) = g1;
      });
      vt.synchronize();
      vf.synchronize();
      bad = 0;
      for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
          const int tr = r / 16, tc = c / 16;
          const int src_r = tr * 16 + c % 16, src_c = tc * 16 + r % 16;
          bad += t_out[r * cols + c] != m[src_r * cols + src_c];
          const int* f = &fields[(r * cols + c) * 8];
          bad += f[0] != r % 16 || f[1] != c % 16 || f[2] != tr || f[3] != tc || f[4] != tr * 16 ||
                 f[5] != tc * 16 || f[6] != r || f[7] != c;
        }
      }
      CHECK(bad == 0);

      // Tiled domains that the tile does not divide are refused with the numbers in the message.
      try {
        tiled_launch(av, hx::extent<1>(1000).tile<256>(),
                     [=] HIPAMP_RESTRICT(hx::tiled_index<256>) {});
        FAIL("no exception for a domain of 1000 in tiles of 256");
      } catch (const hx::invalid_compute_domain& e) {
        CHECK(std::string(e.what()).find("1000") != std::string::npos);
      }
    }
  }
#endif
}

TEST_CASE("queues order work across accelerator_views and markers complete", "[gpu]") {
  for (const hx::accelerator& acc : gpus()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      hx::accelerator_view first = acc.create_view(hx::queuing_mode_immediate);
      hx::accelerator_view second = acc.create_view(hx::queuing_mode_automatic);
      CHECK(first.get_queuing_mode() == hx::queuing_mode_immediate);
      CHECK(first != second);
      const int n = 1 << 18;
      std::vector<float> data = hipamp_test::random_vector<float>(n, 0.5f, 1.5f);
      const std::vector<float> data_before = data;
      std::vector<float> result(n, std::numeric_limits<float>::quiet_NaN());
      array_view<float, 1> v(n, data);
      array_view<float, 1> r(n, result);
      // A slow writer on one queue, then a reader on another: the reader must wait for it.
      hx::parallel_for_each(first, v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        float x = v[i];
        for (int k = 0; k < 2000; ++k) x = x * 0.999f + 0.001f;
        v[i] = x;
      });
      r.discard_data();
      hx::parallel_for_each(second, r.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { r[i] = v[i] * 2.0f; });
      hx::completion_future marker = second.create_marker();
      marker.wait();
      CHECK(marker.valid());
      second.wait();
      first.flush();
      r.synchronize();
      // The reference: the same recurrence on the host (the device may fuse multiply-adds, so
      // compare with a tolerance); the reader must have seen the writer's final values.
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) {
        float x = data_before[i];
        for (int k = 0; k < 2000; ++k) x = x * 0.999f + 0.001f;
        const float written = v[i];
        bad += !(std::fabs(written - x) <= 1e-4f) || result[i] != written * 2.0f;
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("host access waits for the work that wrote the data, not for later work",
          "[gpu][concurrency]") {
  for (const hx::accelerator& acc : gpus()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      hx::accelerator_view av = acc.get_default_view();
      const int n = 4096;
      std::vector<int> data = hipamp_test::random_vector<int>(n, -1000, 1000);
      const std::vector<int> original = data;
      array_view<int, 1> written(n, data);
      hx::parallel_for_each(av, written.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        written[i] = written[i] * 5 + i[0];
      });
      // Unrelated, long work queued behind the writer on the same accelerator_view: one thread
      // running a dependent chain of about 3e8 multiply-adds (a fraction of a second or more).
      std::vector<float> sink(1, 1.0f);
      array_view<float, 1> vsink(1, sink);
      const int steps = 300000000;
      hx::parallel_for_each(av, vsink.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        float x = vsink[i];
        for (int k = 0; k < steps; ++k) x = x * 0.99999f + 0.5f;
        vsink[i] = x;
      });
      hx::completion_future later = av.create_marker();
      // Reading the first view copies it back after its writer only.
      const int seen = written[17];
      const bool later_still_running =
          later.wait_for(std::chrono::seconds(0)) == std::future_status::timeout;
      CHECK(seen == original[17] * 5 + 17);
      CHECK(later_still_running);
      later.wait();
      CHECK(vsink[0] > 1.0f);
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) bad += written[i] != original[i] * 5 + i;
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("large transfers through the staging buffers arrive intact", "[gpu][coherence]") {
  for (const hx::accelerator& acc : gpus()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      // Sizes around the staging ring's chunking: tiny, one page off, several buffers.
      for (std::size_t n : {std::size_t{1}, std::size_t{1023}, std::size_t{(1 << 18) + 3},
                            std::size_t{(25 << 20) + 17}}) {
        std::vector<std::uint32_t> data(n);
        std::mt19937 gen(static_cast<unsigned>(n));
        for (auto& x : data) x = gen();
        const std::vector<std::uint32_t> original = data;
        hipamp_test::transfer_meter meter(acc);
        {
          array_view<std::uint32_t, 1> v(static_cast<int>(n), data);
          hx::parallel_for_each(acc.get_default_view(), v.extent,
                                [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = v[i] ^ 0x9e3779b9u; });
        }
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) bad += data[i] != (original[i] ^ 0x9e3779b9u);
        INFO(n << " elements");
        CHECK(bad == 0);
        CHECK_MOVES(acc, meter,
                    hipamp_test::moves()
                        .h2d(1, n * sizeof(std::uint32_t))
                        .d2h(1, n * sizeof(std::uint32_t)));
      }
    }
  }
}

namespace {
struct wide_element {
  double values[8];
};
}  // namespace

TEST_CASE("a device out of memory throws out_of_memory and keeps the host data", "[gpu][error]") {
  for (const hx::accelerator& acc : gpus()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      hx::accelerator_view av = acc.get_default_view();
      const int n = 100003;
      std::vector<int> data = hipamp_test::random_vector<int>(n, -1000, 1000);
      const std::vector<int> original = data;
      array_view<int, 1> v(n, data);
      hx::parallel_for_each(av, v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = v[i] + 7; });
      // 256 GiB: more than any GPU has.
      try {
        array<wide_element, 2> huge(65536, 65535, av);
        FAIL("a 256 GiB array was allocated");
      } catch (const hx::out_of_memory& e) {
        CHECK(std::string(e.what()).find("bytes") != std::string::npos);
      }
      // The data the device holds is intact, and the device still works.
      hx::parallel_for_each(av, v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = v[i] * 2; });
      v.synchronize();
      std::size_t bad = 0;
      for (int i = 0; i < n; ++i) bad += data[i] != (original[i] + 7) * 2;
      CHECK(bad == 0);
    }
  }
}

// Run in a child process by the test below: a kernel fault ends the GPU context for the rest
// of the process, so it must not share a process with other tests.
TEST_CASE("gpu kernel fault child", "[.][gpu_fault_child]") {
  const std::vector<hx::accelerator> found = gpus();
  REQUIRE_FALSE(found.empty());
  hx::accelerator_view av = found.front().get_default_view();
  const int n = 4096;
  std::vector<int> data(n, 1);
  array_view<int, 1> v(n, data);
  hx::parallel_for_each(av, v.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = v[i] + i[0]; });
  // NOLINTNEXTLINE(performance-no-int-to-ptr): a wild address on purpose, to fault the kernel
  int* wild = reinterpret_cast<int*>(std::uintptr_t{0x100});
  hx::parallel_for_each(av, hx::extent<1>(n), [=] HIPAMP_RESTRICT(hx::index<1> i) {
    wild[std::ptrdiff_t{i[0]} * 4096] = i[0];
  });
  try {
    av.wait();
    FAIL("the fault was not reported at the next synchronisation");
  } catch (const hx::accelerator_view_removed& e) {
    std::printf("kernel fault reported as: %s\n", e.what());
    CHECK(std::string(e.what()).find("IllegalAddress") != std::string::npos);
  }
  // The view's data lived on the lost device only.
  CHECK_THROWS_AS(v.synchronize(), hx::accelerator_view_removed);
  CHECK_THROWS_AS(
      hx::parallel_for_each(av, hx::extent<1>(16), [=] HIPAMP_RESTRICT(hx::index<1>) {}),
      hx::runtime_exception);
}

TEST_CASE("a kernel fault becomes accelerator_view_removed, not an abort", "[gpu][error][fault]") {
#if defined(__linux__) && HIPAMP_BACKEND_CUDA
  if (gpus().empty()) return;
  char self[4096] = {};
  const ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  REQUIRE(len > 0);
  const std::string command = std::string("'") + self + "' '[gpu_fault_child]'";
  const int status = std::system(command.c_str());
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
#else
  // ROCm reports GPU memory faults by aborting the process; only the CUDA build can promise an
  // exception.
#endif
}
