// discard_data and refresh by kind of data source. Both name "the view's bound memory", which
// is a different thing for each source:
//   - a view of program memory: the host buffer (refresh: the program wrote it directly);
//   - a view of an array: the array's storage on its accelerator, which kernels also reach
//     through the array itself (discard must not let a later launch refill it from a stale
//     host copy; refresh must not make a stale host copy the truth);
//   - a view with no data source: memory only the views reach, so refresh changes nothing.
// On the CPU device every source is host memory and these hold trivially; on the emulated
// discrete device and on GPUs the array cases failed before (the C++ AMP conformance suite's
// Projection, ImplicitSynchronize/Refresh and WithoutDataSource/refresh tests on the H100).
#include <vector>

#include <hipamp/amp.h>

#include "catch.hpp"
#include "support.hpp"

namespace hx = hipamp;

TEST_CASE("discard_data on a view of an array keeps the array's data for kernels",
          "[coherence][array][discard]") {
  const int rows = 7, cols = 131;
  const std::vector<int> host = hipamp_test::random_vector<int>(rows * cols, -100000, 100000);
  for (const auto& acc : hipamp_test::accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    hx::array<int, 2> source(rows, cols, host.begin(), host.end(), av);
    const int row = static_cast<int>(hipamp_test::random_vector<int>(1, 0, rows - 1)[0]);
    hx::array_view<int, 1> row_view = source[row];
    std::vector<int> seen(cols, -1);
    hx::copy(row_view, seen.begin());  // the row visits the host first
    row_view.discard_data();
    {
      // The kernel copies the row onto itself through the array, as the suite's test does:
      // whatever the view's discard did, the array's contents must come through.
      const auto whole = hx::kernel_handle(source);
      hx::parallel_for_each(av, hx::extent<1>(cols), [=] HIPAMP_RESTRICT(hx::index<1> i) {
        const hx::array_view<int, 1> same_row = whole[row];
        row_view[i] = same_row[i];
      });
    }
    hx::copy(row_view, seen.begin());
    std::size_t bad = 0;
    for (int j = 0; j < cols; ++j) bad += seen[j] != host[row * cols + j];
    CHECK(bad == 0);
    // The other rows were never touched.
    const std::vector<int> all = source;
    bad = 0;
    for (int k = 0; k < rows * cols; ++k) bad += all[k] != host[k];
    CHECK(bad == 0);
  }
}

TEST_CASE("refresh on a view of an array keeps what kernels wrote", "[coherence][array][refresh]") {
  const int n = 1000;
  const std::vector<int> offsets = hipamp_test::random_vector<int>(n, -5000, 5000);
  for (const auto& acc : hipamp_test::accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    hx::array<int, 1> a(n, av);
    hx::array_view<int, 1> view(a);
    const hx::array_view<const int, 1> in(n, offsets);
    hx::parallel_for_each(av, view.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { view[i] = 3 * in[i] + 17; });
    view.refresh();
    std::size_t bad = 0;
    for (int k = 0; k < n; ++k) bad += view[k] != 3 * offsets[k] + 17;
    CHECK(bad == 0);
  }
}

TEST_CASE("refresh on a view with no data source changes nothing",
          "[coherence][array_view][refresh]") {
  const int n = 4096;
  const int bump = hipamp_test::random_vector<int>(1, 1, 1000)[0];
  for (const auto& acc : hipamp_test::accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto first = acc.get_default_view();
    const auto second = acc.create_view();
    hx::array_view<int, 1> scratch(n);
    scratch.refresh();
    hx::parallel_for_each(first, scratch.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { scratch[i] = i[0]; });
    hx::parallel_for_each(second, scratch.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { scratch[i] += bump; });
    scratch.refresh();
    // Read on the device first (where the data is), then on the host.
    std::vector<int> out(n, -1);
    const hx::array_view<int, 1> result(n, out);
    hx::parallel_for_each(first, scratch.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { result[i] = scratch[i]; });
    result.synchronize();
    std::size_t bad = 0;
    for (int k = 0; k < n; ++k) bad += out[k] != k + bump;
    CHECK(bad == 0);
    bad = 0;
    for (int k = 0; k < n; ++k) bad += scratch[k] != k + bump;
    CHECK(bad == 0);
  }
}

TEST_CASE("refresh on a view of program memory still reads the program's writes",
          "[coherence][array_view][refresh]") {
  const int n = 2048;
  std::vector<float> data = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
  const std::vector<float> changed = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
  for (const auto& acc : hipamp_test::accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    hx::array_view<float, 1> view(n, data);
    std::vector<float> out(n, 0.0f);
    hx::array_view<float, 1> result(n, out);
    result.discard_data();
    hx::parallel_for_each(av, view.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { result[i] = view[i]; });
    data = changed;  // behind the view's back (same buffer: assignment keeps the storage)
    view.refresh();
    hx::parallel_for_each(av, view.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { result[i] = 2.0f * view[i]; });
    result.synchronize();
    std::size_t bad = 0;
    for (int k = 0; k < n; ++k) bad += out[k] != 2.0f * changed[k];
    CHECK(bad == 0);
  }
}
