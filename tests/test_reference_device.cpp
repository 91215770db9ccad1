// The reference device (accelerator::direct3d_ref) and kernel bounds checks: REF is the CPU
// device run serially and deterministically with every view/array index checked; the same
// checks are an opt-in on the CPU devices (accelerator::create_checked_view,
// HIPAMP_CHECK_BOUNDS=1). Results are compared with host references on random data.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

#include "support.hpp"

namespace hx = hipamp;
using hipamp_test::random_vector;

namespace {

hx::accelerator ref_device() { return hx::accelerator(hx::accelerator::direct3d_ref); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The views every bounds test runs on: REF's own, and a checked view of each CPU-executed
// accelerator (the CPU device, the emulated discrete device when present).
std::vector<hx::accelerator_view> checked_views() {
  std::vector<hx::accelerator_view> views;
  for (const hx::accelerator& acc : hipamp_test::accelerators()) {
    if (acc.is_cpu()) views.push_back(acc.create_checked_view());
  }
  return views;
}

std::string name_of(const hx::accelerator_view& av) {
  return hipamp_test::name(av.get_accelerator());
}

}  // namespace

TEST_CASE("the reference device is listed, named and never the default", "[ref][accelerator]") {
  const hx::accelerator ref = ref_device();
  CHECK(ref.get_device_path() == hx::accelerator::direct3d_ref);
  CHECK(contains(hipamp_test::name(ref), "ref"));
  CHECK(ref.get_is_emulated());
  CHECK(ref.is_cpu());
  CHECK(ref.get_supports_cpu_shared_memory());
  CHECK(ref.get_description().find(L"Reference device") == 0);
  CHECK(ref.get_default_view().get_checks_bounds());
  CHECK(ref.create_view().get_checks_bounds());
  CHECK(ref.get_default_view().get_accelerator() == ref);
  CHECK(ref != hx::accelerator(hx::accelerator::cpu_accelerator));
  CHECK(hx::accelerator(hx::accelerator::direct3d_warp) != ref);

  const std::vector<hx::accelerator> all = hx::accelerator::get_all();
  CHECK(std::count(all.begin(), all.end(), ref) == 1);
  // The last device, so the others keep their indices; only the WARP entry (the CPU device
  // again) follows it.
  REQUIRE(all.size() >= 2);
  CHECK(all[all.size() - 2] == ref);
  CHECK(all.back().get_device_path() == hx::accelerator::direct3d_warp);

  // Never chosen by default or auto selection (unless HIPAMP_DEFAULT_ACCELERATOR names it).
  const char* env = std::getenv("HIPAMP_DEFAULT_ACCELERATOR");
  if (env == nullptr || std::string(env) != "ref") {
    CHECK(hx::accelerator() != ref);
    CHECK(hx::accelerator::get_auto_selection_view().get_accelerator() != ref);
  }
  // Without HIPAMP_CHECK_BOUNDS the CPU device does not check.
  const char* check = std::getenv("HIPAMP_CHECK_BOUNDS");
  const bool opted_in = check != nullptr && std::string(check) == "1";
  CHECK(hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view().get_checks_bounds() ==
        opted_in);
  CHECK(
      hx::accelerator(hx::accelerator::cpu_accelerator).create_checked_view().get_checks_bounds());
}

TEST_CASE("the reference device computes what the host computes", "[ref]") {
  const hx::accelerator_view av = ref_device().get_default_view();
  // Simple model, rank 2: y = a * x + y over a random non-square shape.
  const int rows = 37, cols = 53;
  const float a = random_vector<float>(1, -2.0f, 2.0f)[0];
  const std::vector<float> x = random_vector<float>(std::size_t(rows * cols), -1.0f, 1.0f);
  std::vector<float> y = random_vector<float>(std::size_t(rows * cols), -1.0f, 1.0f);
  std::vector<float> expected(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) expected[i] = a * x[i] + y[i];
  {
    hx::array_view<const float, 2> xv(rows, cols, x);
    hx::array_view<float, 2> yv(rows, cols, y);
    hx::parallel_for_each(av, yv.extent,
                          [=] HIPAMP_RESTRICT(hx::index<2> i) { yv[i] = a * xv[i] + yv[i]; });
    yv.synchronize();
  }
  CHECK(y == expected);

  // Tiled model: per-tile sums through tile_static memory and barriers.
  const int tiles = 19, tile = 64;
  const std::vector<int> in = random_vector<int>(std::size_t(tiles * tile), -1000, 1000);
  std::vector<int> sums(std::size_t(tiles), 0);
  {
    hx::array_view<const int, 1> iv(tiles * tile, in);
    hx::array_view<int, 1> sv(tiles, sums);
    sv.discard_data();
    hx::parallel_for_each(av, iv.extent.tile<64>(), [=] HIPAMP_RESTRICT(hx::tiled_index<64> t) {
      HIPAMP_TILE_STATIC int s[64];
      s[t.local[0]] = iv[t.global];
      t.barrier.wait();
      for (int stride = 32; stride > 0; stride /= 2) {
        if (t.local[0] < stride) s[t.local[0]] += s[t.local[0] + stride];
        t.barrier.wait();
      }
      if (t.local[0] == 0) sv[t.tile] = s[0];
    });
    sv.synchronize();
  }
  for (int k = 0; k < tiles; ++k) {
    const int want = std::accumulate(in.begin() + k * tile, in.begin() + (k + 1) * tile, 0);
    CHECK(sums[std::size_t(k)] == want);
  }
  // Host-shared memory: nothing was copied.
  const hx::transfer_statistics moved = hx::get_transfer_statistics(ref_device());
  CHECK(moved.host_to_device_bytes == 0);
  CHECK(moved.device_to_host_bytes == 0);
}

TEST_CASE("the reference device runs work-items serially and in order", "[ref]") {
  // Each work-item takes a ticket from an atomic counter: on REF, work-item k (in row-major
  // order, tile after tile) always takes ticket k; on a parallel device tickets interleave.
  const hx::accelerator_view av = ref_device().get_default_view();
  const int n = 64 * 300;  // above the CPU device's 4096-element chunk
  std::vector<int> counter(1, 0), tickets(std::size_t(n), -1);
  hx::array_view<int, 1> cv(1, counter);
  hx::array_view<int, 1> tv(n, tickets);
  hx::parallel_for_each(av, tv.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
    tv[i] = hx::atomic_fetch_add(&cv[0], 1);
  });
  tv.synchronize();
  std::size_t out_of_order = 0;
  for (int i = 0; i < n; ++i) out_of_order += tickets[std::size_t(i)] != i;
  CHECK(out_of_order == 0);

  // Tiled, tickets taken after a barrier: the fibers of a tile resume in local order.
  cv[0] = 0;
  hx::parallel_for_each(av, tv.extent.tile<64>(), [=] HIPAMP_RESTRICT(hx::tiled_index<64> t) {
    t.barrier.wait();
    tv[t.global] = hx::atomic_fetch_add(&cv[0], 1);
    t.barrier.wait();
  });
  tv.synchronize();
  out_of_order = 0;
  for (int i = 0; i < n; ++i) out_of_order += tickets[std::size_t(i)] != i;
  CHECK(out_of_order == 0);
}

TEST_CASE("bounds checks pass every in-range access and change no result", "[bounds]") {
  const int rows = 29, cols = 71;
  const std::vector<double> x = random_vector<double>(std::size_t(rows * cols), -5.0, 5.0);
  std::vector<double> expected(x.size());
  // Transpose-and-scale through projections and 2-D indices, so every access path is checked.
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      expected[std::size_t(c * rows + r)] = 3.0 * x[std::size_t(r * cols + c)];
  }
  for (const hx::accelerator_view& av : checked_views()) {
    INFO("on " << name_of(av));
    REQUIRE(av.get_checks_bounds());
    std::vector<double> out(x.size(), -1.0);
    hx::array_view<const double, 2> xv(rows, cols, x);
    hx::array_view<double, 2> ov(cols, rows, out);
    hx::parallel_for_each(av, xv.extent, [=] HIPAMP_RESTRICT(hx::index<2> i) {
      ov[i[1]][i[0]] = 3.0 * xv(i[0], i[1]);
    });
    ov.synchronize();
    CHECK(out == expected);
  }
}

TEST_CASE("an out-of-range index throws index_out_of_range naming view, index and extent",
          "[bounds][errors]") {
  const int n = 1000;
  for (const hx::accelerator_view& av : checked_views()) {
    INFO("on " << name_of(av));
    const std::vector<float> x = random_vector<float>(std::size_t(n), -1.0f, 1.0f);
    std::vector<float> y = random_vector<float>(std::size_t(n), -1.0f, 1.0f);
    const std::vector<float> y_before = y;
    hx::array_view<const float, 1> xv(n, x);
    hx::array_view<float, 1> yv(n, y);
    // A neighbour read one past the end (the classic off-by-one of a stencil).
    try {
      hx::parallel_for_each(av, yv.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { yv[i] = xv[i + 1] - xv[i]; });
      FAIL("no exception for reading x[" << n << "]");
    } catch (const hx::index_out_of_range& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(contains(what, "array_view<const float, 1>"));
      CHECK(contains(what, "[" + std::to_string(n) + "]"));
      CHECK(contains(what, "extent [" + std::to_string(n) + "]"));
      CHECK(e.get_error_code() == 0x80070057L);
    }
    // The runtime is usable afterwards and the data is still there: a correct launch over
    // the same views gives the host's answer (the failed one may have written some of y).
    hx::parallel_for_each(av, yv.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { yv[i] = 2.0f * xv[i]; });
    yv.synchronize();
    std::size_t bad = 0;
    for (int i = 0; i < n; ++i) bad += y[std::size_t(i)] != 2.0f * x[std::size_t(i)];
    CHECK(bad == 0);
    (void)y_before;

    // Rank 2, a negative index in dimension 0 and a projection past the end of dimension 0.
    const int rows = 8, cols = 12;
    std::vector<int> m = random_vector<int>(std::size_t(rows * cols), 0, 100);
    hx::array_view<int, 2> mv(rows, cols, m);
    const int bad_col = cols + random_vector<int>(1, 0, 5)[0];
    try {
      hx::parallel_for_each(av, mv.extent, [=] HIPAMP_RESTRICT(hx::index<2> i) {
        if (i[0] == rows - 1 && i[1] == 0) mv(i[0], bad_col) = 1;
      });
      FAIL("no exception for column " << bad_col);
    } catch (const hx::index_out_of_range& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(contains(what, "array_view<int, 2>"));
      CHECK(contains(what, "[" + std::to_string(rows - 1) + ", " + std::to_string(bad_col) + "]"));
      CHECK(contains(what, "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]"));
      CHECK(contains(what, "dimension 1"));
    }
    CHECK_THROWS_AS(
        hx::parallel_for_each(av, mv.extent,
                              [=] HIPAMP_RESTRICT(hx::index<2> i) { mv[i[0] - 1][i[1]] += 1; }),
        hx::index_out_of_range);
    CHECK_THROWS_AS(
        hx::parallel_for_each(av, mv.extent,
                              [=] HIPAMP_RESTRICT(hx::index<2> i) { mv[i[0] + rows][i[1]] += 1; }),
        hx::index_out_of_range);
    // A section is checked against its own extent, not its parent's.
    hx::array_view<int, 2> inner =
        mv.section(hx::index<2>(1, 1), hx::extent<2>(rows - 2, cols - 2));
    CHECK_THROWS_AS(
        hx::parallel_for_each(av, inner.extent,
                              [=] HIPAMP_RESTRICT(hx::index<2> i) { inner(i[0], i[1] + 1) += 1; }),
        hx::index_out_of_range);
  }
}

TEST_CASE("tiled kernels are bounds-checked on both scheduler paths", "[bounds][errors]") {
  const int n = 64 * 12;
  for (const hx::accelerator_view& av : checked_views()) {
    INFO("on " << name_of(av));
    const std::vector<int> data = random_vector<int>(std::size_t(n), -50, 50);
    std::vector<int> out(std::size_t(n), 0);
    hx::array_view<const int, 1> in(n, data);
    hx::array_view<int, 1> ov(n, out);
    const int culprit = random_vector<int>(1, 0, n - 1)[0];
    INFO("culprit " << culprit);
    // Barrier-free (work-items 1..63 of a tile run as a plain loop) ...
    try {
      hx::parallel_for_each(av, in.extent.tile<64>(), [=] HIPAMP_RESTRICT(hx::tiled_index<64> t) {
        ov[t.global] = in[t.global[0] == culprit ? t.global[0] + n : t.global[0]];
      });
      FAIL("no exception");
    } catch (const hx::index_out_of_range& e) {
      CHECK(contains(e.what(), "[" + std::to_string(culprit + n) + "]"));
    }
    // ... and with a barrier (the work-items are fibers).
    try {
      hx::parallel_for_each(av, in.extent.tile<64>(), [=] HIPAMP_RESTRICT(hx::tiled_index<64> t) {
        HIPAMP_TILE_STATIC int s[64];
        s[t.local[0]] = in[t.global];
        t.barrier.wait();
        ov[t.global[0] == culprit ? -1 - culprit : t.global[0]] = s[63 - t.local[0]];
      });
      FAIL("no exception");
    } catch (const hx::index_out_of_range& e) {
      CHECK(contains(e.what(), "[" + std::to_string(-1 - culprit) + "]"));
    }
    // A correct tiled launch afterwards.
    hx::parallel_for_each(av, in.extent.tile<64>(), [=] HIPAMP_RESTRICT(hx::tiled_index<64> t) {
      HIPAMP_TILE_STATIC int s[64];
      s[t.local[0]] = in[t.global];
      t.barrier.wait();
      ov[t.global] = s[63 - t.local[0]];
    });
    ov.synchronize();
    std::size_t bad = 0;
    for (int i = 0; i < n; ++i)
      bad += out[std::size_t(i)] != data[std::size_t(i / 64 * 64 + 63 - i % 64)];
    CHECK(bad == 0);
  }
}

TEST_CASE("the hierarchical tile API is bounds-checked", "[bounds][hierarchical][errors]") {
  const int n = 32 * 10;
  for (const hx::accelerator_view& av : checked_views()) {
    INFO("on " << name_of(av));
    const std::vector<float> data = random_vector<float>(std::size_t(n), -4.0f, 4.0f);
    std::vector<float> out(std::size_t(n), 0.0f);
    hx::array_view<const float, 1> in(n, data);
    hx::array_view<float, 1> ov(n, out);
    // Each work-item reads its right neighbour: the tile at the end reads in[n].
    try {
      hx::parallel_for_each_tile(av, ov.extent.tile<32>(),
                                 [=] HIPAMP_RESTRICT(const hx::tile_context<32>& t) {
                                   t.for_each_item([&](const hx::tile_item<1>& it) {
                                     ov[it.global] = in[it.global + 1] - in[it.global];
                                   });
                                 });
      FAIL("no exception");
    } catch (const hx::index_out_of_range& e) {
      CHECK(contains(e.what(), "[" + std::to_string(n) + "]"));
    }
    // In range: the same difference with the last element clamped, against the host.
    hx::parallel_for_each_tile(av, ov.extent.tile<32>(),
                               [=] HIPAMP_RESTRICT(const hx::tile_context<32>& t) {
                                 t.for_each_item([&](const hx::tile_item<1>& it) {
                                   const int next = it.global[0] + 1 < n ? it.global[0] + 1 : n - 1;
                                   ov[it.global] = in[next] - in[it.global];
                                 });
                               });
    ov.synchronize();
    std::size_t bad = 0;
    for (int i = 0; i < n; ++i) {
      const float want = data[std::size_t(std::min(i + 1, n - 1))] - data[std::size_t(i)];
      bad += out[std::size_t(i)] != want;
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("views without checks run out-of-range-free kernels unchanged", "[bounds]") {
  // The unchecked CPU view still takes the unchecked path: a kernel that reads inside the
  // allocation but outside the view's extent (legal memory, an illegal index) goes unnoticed
  // there and is caught on the checked view. This is what tells the two paths apart.
  if (const char* check = std::getenv("HIPAMP_CHECK_BOUNDS")) {
    if (std::string(check) == "1") return;  // every CPU view checks in this run
  }
  const std::vector<int> data = random_vector<int>(200, 0, 1000);
  std::vector<int> out(100, 0);
  hx::array_view<const int, 1> whole(200, data);
  hx::array_view<const int, 1> first_half = whole.section(0, 100);
  hx::array_view<int, 1> ov(100, out);
  const hx::accelerator cpu(hx::accelerator::cpu_accelerator);
  hx::parallel_for_each(cpu.get_default_view(), ov.extent,
                        [=] HIPAMP_RESTRICT(hx::index<1> i) { ov[i] = first_half[i + 100]; });
  ov.synchronize();
  CHECK(std::equal(out.begin(), out.end(), data.begin() + 100));
  CHECK_THROWS_AS(
      hx::parallel_for_each(cpu.create_checked_view(), ov.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { ov[i] = first_half[i + 100]; }),
      hx::index_out_of_range);
}

TEST_CASE("bounds checks exist only where kernels run on the CPU", "[bounds][errors]") {
  for (const hx::accelerator& acc : hx::accelerator::get_all()) {
    if (acc.is_cpu()) continue;
    CHECK_THROWS_AS(acc.create_checked_view(), hx::unsupported_feature);
  }
}

// Arrays reached by reference from a kernel: host lambdas (nvcc rejects by-reference captures).
#if !HIPAMP_GPU_TRANSLATION_UNIT
TEST_CASE("an array captured by reference is bounds-checked on the reference device",
          "[bounds][ref][errors]") {
  const hx::accelerator_view av = ref_device().get_default_view();
  const std::vector<int> data = random_vector<int>(300, -9, 9);
  hx::array<int, 1> arr(hx::extent<1>(300), data.begin(), data.end(), av);
  std::vector<int> out(300, 0);
  hx::array_view<int, 1> ov(300, out);
  try {
    hx::parallel_for_each(av, ov.extent, [=, &arr](hx::index<1> i) { ov[i] = arr[i[0] * 2]; });
    FAIL("no exception");
  } catch (const hx::index_out_of_range& e) {
    CHECK(contains(e.what(), "array<int, 1>"));
    CHECK(contains(e.what(), "extent [300]"));
  }
  hx::parallel_for_each(av, ov.extent, [=, &arr](hx::index<1> i) { ov[i] = arr[299 - i[0]]; });
  ov.synchronize();
  std::size_t bad = 0;
  for (int i = 0; i < 300; ++i) bad += out[std::size_t(i)] != data[std::size_t(299 - i)];
  CHECK(bad == 0);
}
#endif

// Every kernel above that threw left through the executors' guards: this thread is not in
// kernel mode and checks nothing. (A flag left set makes host reads of GPU views skip their
// coherence check: the next GPU test read device memory from the host and crashed.)
TEST_CASE("failed checked launches leave the calling thread's kernel flags clear",
          "[bounds][errors]") {
  CHECK_FALSE(hx::detail::running_cpu_kernel);
  CHECK_FALSE(hx::detail::checking_bounds);
}
