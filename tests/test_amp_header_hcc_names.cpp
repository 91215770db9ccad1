// <hipamp/amp.h> alone brings what the other C++ AMP implementation's <amp.h> brings and
// programs written against it use without including: HCC's hc_defines.h includes <cassert>, so
// C++ AMP code written for HCC on Linux calls assert() after only #include <amp.h>. This unit
// includes nothing before <hipamp/amp.h> and is compiled on its own (no unity batch, no
// precompiled support.hpp: tests/CMakeLists.txt), so a missing name fails its build.
#include <hipamp/amp.h>

namespace {

// Written as such a program writes its check: assert on each element, nothing else included.
// (NDEBUG builds compile it to nothing; the CHECKs below decide the test's result.)
int count_doubled(const concurrency::array_view<const int, 1>& in,
                  const concurrency::array_view<int, 1>& out) {
  int n = 0;
  for (int i = 0; i < out.get_extent()[0]; ++i) {
    assert(out[i] == 2 * in[i]);
    n += out[i] == 2 * in[i];
  }
  return n;
}

}  // namespace

#include <random>
#include <vector>

#include "support.hpp"

TEST_CASE("<hipamp/amp.h> alone declares assert, as HCC's <amp.h> does", "[amp_compat]") {
  std::mt19937 gen(20240516);
  std::uniform_int_distribution<int> dist(-1000000, 1000000);
  const int n = 1000 + int(gen() % 1000);
  std::vector<int> host_in(n), host_out(n, 0), expected(n);
  for (int i = 0; i < n; ++i) {
    host_in[i] = dist(gen);
    expected[i] = host_in[i] * 2;  // the reference, computed on the host
  }
  concurrency::array_view<const int, 1> in(n, host_in);
  concurrency::array_view<int, 1> out(n, host_out);
  out.discard_data();
  concurrency::parallel_for_each(
      out.get_extent(), [=] HIPAMP_RESTRICT(concurrency::index<1> i) { out[i] = in[i] * 2; });
  CHECK(count_doubled(in, out) == n);
  out.synchronize();
  CHECK(host_out == expected);
}
