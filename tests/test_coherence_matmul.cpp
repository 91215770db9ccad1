// Seed program 2, the matrix multiply called repeatedly on the same views: the inputs are
// copied in once in total, however often the multiply runs, and the product moves out once
// each time it is read.
#include <cmath>
#include <limits>
#include <vector>

#include "coherence_support.hpp"

using hipamp::array_view;
namespace hx = hipamp;

namespace {

void multiply(const hx::accelerator_view& av, const array_view<const float, 2>& a,
              const array_view<const float, 2>& b, const array_view<float, 2>& c) {
  const int inner = a.extent[1];
  c.discard_data();
  hx::parallel_for_each(av, c.extent, [=] HIPAMP_RESTRICT(hx::index<2> idx) {
    const int row = idx[0];
    const int col = idx[1];
    float sum = 0.0f;
    for (int k = 0; k < inner; ++k) sum += a(row, k) * b(k, col);
    c[idx] = sum;
  });
}

}  // namespace

TEST_CASE("a matrix multiply called repeatedly copies its inputs in once", "[coherence][seed]") {
  // A plain loop, not FOR_EACH_ACCELERATOR: nvcc 13 with Catch2 v3 fails (internal error in
  // unlink_src_seq_entries) on extended lambdas inside a section opened by a nested macro.
  for (const hipamp::accelerator& acc : hipamp_test::accelerators()) {
    DYNAMIC_SECTION("on " << hipamp_test::name(acc)) {
      const int m = 67, k = 129, n = 83;
      const std::vector<float> a =
          hipamp_test::random_vector<float>(std::size_t{m} * k, -1.0f, 1.0f);
      const std::vector<float> b =
          hipamp_test::random_vector<float>(std::size_t{k} * n, -1.0f, 1.0f);
      std::vector<float> c(std::size_t{m} * n, std::numeric_limits<float>::quiet_NaN());
      std::vector<double> want(std::size_t{m} * n, 0.0);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          double s = 0.0;
          for (int t = 0; t < k; ++t) s += static_cast<double>(a[i * k + t]) * b[t * n + j];
          want[i * n + j] = s;
        }
      }
      const std::uint64_t in_bytes = sizeof(float) * static_cast<std::uint64_t>(m * k + k * n);
      const std::uint64_t out_bytes = sizeof(float) * static_cast<std::uint64_t>(m * n);
      hx::accelerator_view av = acc.get_default_view();
      hipamp_test::transfer_meter meter(acc);
      {
        array_view<const float, 2> va(m, k, a);
        array_view<const float, 2> vb(k, n, b);
        array_view<float, 2> vc(m, n, c);
        for (int call = 1; call <= 3; ++call) {
          multiply(av, va, vb, vc);
          vc.synchronize();
          CHECK_MOVES(acc, meter,
                      hipamp_test::moves().h2d(2, in_bytes).d2h(call, call * out_bytes));
          std::size_t bad = 0;
          for (int i = 0; i < m * n; ++i) {
            if (!(std::fabs(c[i] - want[i]) <= 1e-4 * (1.0 + std::fabs(want[i])))) ++bad;
          }
          CHECK(bad == 0);
          std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
          vc.refresh();
        }
      }
      // The product was valid on the host when the views died: nothing more moved.
      CHECK_MOVES(acc, meter, hipamp_test::moves().h2d(2, in_bytes).d2h(3, 3 * out_bytes));
    }
  }
}
