// array_ref / kernel_handle: C++ AMP's by-reference capture of arrays, as tools/amp2hipamp.py
// rewrites it ({ auto& hipamp_ref_a = a; auto a = hipamp::kernel_handle(hipamp_ref_a); ... }),
// run on every accelerator, checked against host references on random data, and moving exactly
// the bytes the same program moves when written with array_view.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include <hipamp/amp.h>

#include "coherence_support.hpp"

namespace hx = hipamp;
using hx::array;
using hx::array_view;
using hx::extent;

static_assert(HIPAMP_HAS_KERNEL_HANDLE, "array_ref.hpp announces itself");
static_assert(std::is_same<decltype(hx::kernel_handle(std::declval<array<float, 2>&>())),
                           hx::array_ref<float, 2>>::value,
              "a writable array gives a writable handle");
static_assert(std::is_same<decltype(hx::kernel_handle(std::declval<const array<int, 1>&>())),
                           hx::array_ref<const int, 1>>::value,
              "a const array gives a read-only handle");
static_assert(std::is_same<decltype(hx::kernel_handle(std::declval<array_view<int, 1>&>())),
                           array_view<int, 1>>::value,
              "a view comes back as a copy of itself");
static_assert(std::is_same<decltype(hx::kernel_handle(std::declval<const float&>())), float>::value,
              "a scalar comes back by value");
static_assert(std::is_same<decltype(hx::kernel_handle(std::declval<hx::array_ref<int, 3>&>())),
                           hx::array_ref<int, 3>>::value,
              "a handle stays a handle (nested rewritten scopes)");

namespace {

// Host code written for arrays, as C++ AMP programs have it, called with the shadowing name.
float sum_of(const concurrency::array<float, 1>& a) {
  std::vector<float> host = a;
  return std::accumulate(host.begin(), host.end(), 0.0f);
}
void negate_first(concurrency::array<float, 1>& a) { a[0] = -a[0]; }

// A GPU compiler may fuse a * b + c in the kernel; the host reference does not.
bool close_to(float got, double want) {
  return std::abs(got - want) <= 1e-6 * (1.0 + std::abs(want));
}

// Kernel helpers as C++ AMP programs write them (Convolution's `const array<float, 2>& img`),
// with the parameters spelled as handles: callable from kernels with handles and from the host
// with the arrays themselves.
HIPAMP_RESTRICT float weighted_tap(hipamp::array_ref<const float, 2> img,
                                   hipamp::array_ref<const float, 1> filter, int r, int c) {
  const int radius = (filter.extent[0] - 1) / 2;
  float sum = 0.0f;
  for (int k = -radius; k <= radius; ++k) {
    int cc = c + k;
    cc = cc < 0 ? 0 : (cc >= img.extent[1] ? img.extent[1] - 1 : cc);
    sum += img(r, cc) * filter[k + radius];
  }
  return sum;
}
HIPAMP_RESTRICT void store(hipamp::array_ref<float, 2> out, int r, int c, float v) {
  out[concurrency::index<2>(r, c)] = v;
}

}  // namespace

TEST_CASE("kernels capture array handles by value and write through them", "[compat][array_ref]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int rows = 37, cols = 53, n = rows * cols;
    const auto xs = hipamp_test::random_vector<float>(n, -4.0f, 4.0f);
    const auto ys = hipamp_test::random_vector<float>(n, -4.0f, 4.0f);
    const float alpha = hipamp_test::random_vector<float>(1, 0.5f, 2.0f)[0];
    concurrency::accelerator_view av = acc.get_default_view();
    concurrency::array<float, 2> x(rows, cols, xs.begin(), xs.end());
    const concurrency::array<float, 2> y(extent<2>(rows, cols), ys.begin(), ys.end());
    concurrency::array<float, 2> out(rows, cols);
    {  // The porting tool's rewrite of [&] over x, y and out.
      auto& hipamp_ref_x = x;
      auto x = hx::kernel_handle(hipamp_ref_x);
      auto& hipamp_ref_y = y;
      auto y = hx::kernel_handle(hipamp_ref_y);
      auto& hipamp_ref_out = out;
      auto out = hx::kernel_handle(hipamp_ref_out);
      static_assert(std::is_same<decltype(y), hx::array_ref<const float, 2>>::value, "");
      concurrency::parallel_for_each(av, out.extent,
                                     [=] HIPAMP_RESTRICT(concurrency::index<2> idx) {
                                       const int r = idx[0], c = idx[1];
                                       // Every element-access spelling of an array.
                                       const int cols_in = out.get_extent()[1];
                                       out[idx] = alpha * x(r, c) + y.data()[r * cols_in + c];
                                       x[r][c] = y(idx) - x(idx);
                                     });
      // The shadowing name used on the host afterwards, inside the scope.
      CHECK(out.extent == extent<2>(rows, cols));
      CHECK(out.get_accelerator_view() == hipamp_ref_out.get_accelerator_view());
      std::vector<float> got(n, -1.0f);
      concurrency::copy(out, got.begin());
      for (int i = 0; i < n; ++i) REQUIRE(close_to(got[i], alpha * xs[i] + ys[i]));
      std::vector<float> got_x = x;
      for (int i = 0; i < n; ++i) REQUIRE(got_x[i] == ys[i] - xs[i]);
      CHECK(x(3, 4) == ys[3 * cols + 4] - xs[3 * cols + 4]);
      CHECK(y.data()[n - 1] == ys[n - 1]);
    }
    // And the arrays themselves hold the results after the scope.
    std::vector<float> final_out = out;
    for (int i = 0; i < n; ++i) REQUIRE(close_to(final_out[i], alpha * xs[i] + ys[i]));
  }
}

TEST_CASE("kernel helpers take array handles as parameters", "[compat][array_ref]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int rows = 19, cols = 67, taps = 7;
    const auto image = hipamp_test::random_vector<float>(rows * cols, -1.0f, 1.0f);
    const auto weights = hipamp_test::random_vector<float>(taps, 0.0f, 1.0f);
    concurrency::array<float, 2> img(rows, cols, image.begin(), image.end(),
                                     acc.get_default_view());
    const concurrency::array<float, 1> filter(taps, weights.begin(), weights.end(),
                                              acc.get_default_view());
    concurrency::array<float, 2> out(rows, cols, acc.get_default_view());
    {
      auto& hipamp_ref_img = img;
      auto img = hx::kernel_handle(hipamp_ref_img);  // writable: converts to a read-only handle
      auto& hipamp_ref_filter = filter;
      auto filter = hx::kernel_handle(hipamp_ref_filter);
      auto& hipamp_ref_out = out;
      auto out = hx::kernel_handle(hipamp_ref_out);
      concurrency::parallel_for_each(
          acc.get_default_view(), out.extent, [=] HIPAMP_RESTRICT(concurrency::index<2> i) {
            store(out, i[0], i[1], weighted_tap(img, filter, i[0], i[1]));
          });
    }
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        double want = 0.0;
        for (int k = -taps / 2; k <= taps / 2; ++k) {
          const int cc = std::min(std::max(c + k, 0), cols - 1);
          want += double(image[r * cols + cc]) * weights[k + taps / 2];
        }
        REQUIRE(std::abs(out(r, c) - want) <= 1e-5 * (1.0 + std::abs(want)));
        // The same helper on the host, handed the arrays themselves.
        if (c % 16 == 0)
          REQUIRE(std::abs(weighted_tap(img, filter, r, c) - want) <=
                  1e-5 * (1.0 + std::abs(want)));
      }
    }
  }
}

TEST_CASE("array handles stand in for arrays in host code", "[compat][array_ref]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 1000;
    const auto source = hipamp_test::random_vector<float>(n, 1.0f, 2.0f);
    concurrency::array<float, 1> a(n, source.begin(), source.end(), acc.get_default_view());
    auto h = hx::kernel_handle(a);
    concurrency::parallel_for_each(
        acc.get_default_view(), h.extent,
        [=] HIPAMP_RESTRICT(concurrency::index<1> i) { h[i] = 3.0f * h(i[0]); });
    // A function taking array& / const array&.
    double want = 0.0;
    for (float v : source) want += 3.0f * v;
    CHECK(std::abs(sum_of(h) - want) <= 1e-3 * want);
    negate_first(h);
    CHECK(a[0] == -3.0f * source[0]);
    // Deep copy, assignment and copies with a handle on either side.
    concurrency::array<float, 1> copy_of(h);
    CHECK(copy_of[n - 1] == 3.0f * source[n - 1]);
    copy_of[0] = 42.0f;
    CHECK(a[0] == -3.0f * source[0]);
    copy_of = h;
    CHECK(copy_of[0] == -3.0f * source[0]);
    const auto fresh = hipamp_test::random_vector<float>(n, -1.0f, 0.0f);
    concurrency::copy(fresh.begin(), fresh.end(), h);
    CHECK(a[n / 2] == fresh[n / 2]);
    concurrency::array<float, 1> other(n, acc.get_default_view());
    auto oh = hx::kernel_handle(other);
    concurrency::copy(h, oh);
    std::vector<float> back(n);
    concurrency::copy(oh, back.begin());
    CHECK(back == fresh);
    std::vector<float> back_async(n, -1.0f);
    concurrency::copy_async(oh, back_async.begin()).get();
    CHECK(back_async == fresh);
    // Conversions to views; a read-only handle from a writable one.
    concurrency::array_view<float, 1> v = h;
    concurrency::array_view<const float, 1> cv = h;
    hx::array_ref<const float, 1> ch = h;
    CHECK(v[5] == fresh[5]);
    CHECK(cv[6] == fresh[6]);
    CHECK(ch[7] == fresh[7]);
    CHECK(&h.get_array() == &a);
    // Assignment between shadowed names deep-copies, as it did between the arrays.
    concurrency::array<float, 1> target(n, acc.get_default_view());
    auto th = hx::kernel_handle(target);
    th = h;
    CHECK(&th.get_array() == &target);
    CHECK(target[n - 2] == fresh[n - 2]);
    a[n - 2] = 5.0f;
    CHECK(target[n - 2] == fresh[n - 2]);  // a copy, not an alias
    th = copy_of;
    CHECK(target[0] == copy_of[0]);
    th = concurrency::array_view<const float, 1>(n, fresh);
    CHECK(target[n - 2] == fresh[n - 2]);
  }
}

TEST_CASE("array handles give sections, projections and reinterpretations", "[compat][array_ref]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int rows = 24, cols = 40;
    const auto source = hipamp_test::random_vector<int>(rows * cols, -1000, 1000);
    concurrency::array<int, 2> a(rows, cols, source.begin(), source.end(), acc.get_default_view());
    const concurrency::array<int, 2>& ca = a;
    auto h = hx::kernel_handle(a);
    auto ch = hx::kernel_handle(ca);
    // A section of the handle, captured as a view: only the interior changes.
    concurrency::array_view<int, 2> inner =
        h.section(concurrency::index<2>(2, 3), extent<2>(20, 30));
    concurrency::parallel_for_each(acc.get_default_view(), inner.extent,
                                   [=] HIPAMP_RESTRICT(concurrency::index<2> i) { inner[i] *= 2; });
    // Projections inside a kernel, and row sums into another array's handle.
    concurrency::array<int, 1> sums(rows, acc.get_default_view());
    {
      auto& hipamp_ref_sums = sums;
      auto sums = hx::kernel_handle(hipamp_ref_sums);
      concurrency::parallel_for_each(acc.get_default_view(), sums.extent,
                                     [=] HIPAMP_RESTRICT(concurrency::index<1> r) {
                                       int s = 0;
                                       for (int c = 0; c < cols; ++c)
                                         s += ch[r[0]][c] + ch(r[0])[c];
                                       sums[r] = s;
                                     });
    }
    std::vector<int> want(rows * cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const bool interior = r >= 2 && r < 22 && c >= 3 && c < 33;
        want[r * cols + c] = interior ? 2 * source[r * cols + c] : source[r * cols + c];
      }
    for (int r = 0; r < rows; ++r) {
      int s = 0;
      for (int c = 0; c < cols; ++c) s += 2 * want[r * cols + c];
      REQUIRE(sums[r] == s);
    }
    // view_as and reinterpret_as see the same bytes.
    concurrency::array_view<int, 1> flat = h.view_as(extent<1>(rows * cols));
    concurrency::array_view<const unsigned, 1> bits = ch.reinterpret_as<unsigned>();
    for (int i = 0; i < rows * cols; i += 37) {
      REQUIRE(flat[i] == want[i]);
      REQUIRE(bits[i] == static_cast<unsigned>(want[i]));
    }
    CHECK_THROWS_AS(h.section(concurrency::index<2>(20, 0), extent<2>(5, 1)),
                    concurrency::runtime_exception);
  }
}

TEST_CASE("tiled kernels reach arrays through handles", "[compat][array_ref][tiled]") {
  FOR_EACH_ACCELERATOR(acc) {
    constexpr int tile = 64;
    const int n = tile * 37;
    const auto source = hipamp_test::random_vector<int>(n, -50, 50);
    concurrency::array<int, 1> data(n, source.begin(), source.end(), acc.get_default_view());
    concurrency::array<int, 1> partial(n / tile, acc.get_default_view());
    {
      auto& hipamp_ref_data = data;
      auto data = hx::kernel_handle(hipamp_ref_data);
      auto& hipamp_ref_partial = partial;
      auto partial = hx::kernel_handle(hipamp_ref_partial);
      concurrency::parallel_for_each(acc.get_default_view(), data.extent.tile<tile>(),
                                     [=] HIPAMP_RESTRICT(concurrency::tiled_index<tile> t) {
                                       tile_static int shared[tile];
                                       shared[t.local[0]] = data[t.global];
                                       t.barrier.wait();
                                       for (int stride = tile / 2; stride > 0; stride /= 2) {
                                         if (t.local[0] < stride)
                                           shared[t.local[0]] += shared[t.local[0] + stride];
                                         t.barrier.wait();
                                       }
                                       if (t.local[0] == 0) partial[t.tile] = shared[0];
                                       data[t.global] = -data[t.global];
                                     });
    }
    for (int b = 0; b < n / tile; ++b) {
      int s = 0;
      for (int i = 0; i < tile; ++i) s += source[b * tile + i];
      REQUIRE(partial[b] == s);
    }
    std::vector<int> negated = data;
    for (int i = 0; i < n; ++i) REQUIRE(negated[i] == -source[i]);
  }
}

namespace {

// One program twice: once reaching its arrays through array_views, once through handles.
template <bool UseHandles>
hipamp::transfer_statistics run_saxpy_program(const hx::accelerator& acc,
                                              const std::vector<float>& xs,
                                              const std::vector<float>& ys,
                                              std::vector<float>& result) {
  const int n = static_cast<int>(xs.size());
  hx::accelerator_view av = acc.get_default_view();
  hipamp_test::transfer_meter meter(acc);
  {
    const array<float, 1> x(n, xs.begin(), xs.end(), av);
    array<float, 1> y(n, ys.begin(), ys.end(), av);
    array<float, 1> scratch(n, av);
    if constexpr (UseHandles) {
      auto xh = hx::kernel_handle(x);
      auto yh = hx::kernel_handle(y);
      auto sh = hx::kernel_handle(scratch);
      hx::parallel_for_each(av, yh.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { sh[i] = 2.0f * xh[i]; });
      hx::parallel_for_each(av, yh.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { yh[i] += sh[i] + xh[i]; });
    } else {
      array_view<const float, 1> xh(x);
      array_view<float, 1> yh(y);
      array_view<float, 1> sh(scratch);
      hx::parallel_for_each(av, yh.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { sh[i] = 2.0f * xh[i]; });
      hx::parallel_for_each(av, yh.extent,
                            [=] HIPAMP_RESTRICT(hx::index<1> i) { yh[i] += sh[i] + xh[i]; });
    }
    result = y;
  }
  return meter.since();
}

}  // namespace

TEST_CASE("array handles move exactly the bytes array_views move",
          "[compat][array_ref][coherence]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 4099;
    const auto xs = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
    const auto ys = hipamp_test::random_vector<float>(n, -1.0f, 1.0f);
    std::vector<float> by_view, by_handle;
    const auto with_views = run_saxpy_program<false>(acc, xs, ys, by_view);
    const auto with_handles = run_saxpy_program<true>(acc, xs, ys, by_handle);
    INFO("views: " << hipamp_test::describe(with_views)
                   << "; handles: " << hipamp_test::describe(with_handles));
    CHECK(with_handles.host_to_device_calls == with_views.host_to_device_calls);
    CHECK(with_handles.host_to_device_bytes == with_views.host_to_device_bytes);
    CHECK(with_handles.device_to_host_calls == with_views.device_to_host_calls);
    CHECK(with_handles.device_to_host_bytes == with_views.device_to_host_bytes);
    CHECK(with_handles.device_to_device_calls == with_views.device_to_device_calls);
    CHECK(with_handles.device_to_device_bytes == with_views.device_to_device_bytes);
    // Two arrays filled on the host move in once each; the result comes back once.
    const std::uint64_t bytes = sizeof(float) * static_cast<std::uint64_t>(n);
    if (hipamp_test::has_own_memory(acc)) {
      CHECK(with_handles.host_to_device_bytes == 2 * bytes);
      CHECK(with_handles.device_to_host_bytes == bytes);
    }
    for (int i = 0; i < n; ++i) {
      REQUIRE(by_view[i] == by_handle[i]);
      REQUIRE(by_handle[i] == ys[i] + (2.0f * xs[i] + xs[i]));
    }
  }
}

TEST_CASE("const arrays offer every read-only access; arrays build from integer extents",
          "[compat][array]") {
  FOR_EACH_ACCELERATOR(acc) {
    const auto av = acc.get_default_view();
    const int rows = 6, cols = 9, depth = 4;
    const auto source = hipamp_test::random_vector<int>(rows * cols * depth, -99, 99);
    // array(e0, e1, first, last, av) and array(e0, e1, e2, first, av). A range must hold
    // exactly the array's elements (C++ AMP throws for a longer one).
    const concurrency::array<int, 2> a(rows, cols, source.begin(), source.begin() + rows * cols,
                                       av);
    const concurrency::array<int, 3> b(rows, cols, depth, source.begin(), av);
    concurrency::array<int, 1> c(rows * cols, source.begin());
    concurrency::array<int, 1> d(extent<1>(rows), av, concurrency::access_type_read_write);
    concurrency::array<int, 1> staged(extent<1>(5), source.begin() + 3, source.begin() + 8, av, av);
    CHECK(d.get_extent() == extent<1>(rows));
    for (int i = 0; i < 5; ++i) REQUIRE(staged(i) == source[3 + i]);
    for (int r = 0; r < rows; ++r) {
      const concurrency::array_view<const int, 1> row = a(r);  // projection through operator()
      for (int col = 0; col < cols; ++col) {
        REQUIRE(a(r, col) == source[r * cols + col]);
        REQUIRE(row[col] == source[r * cols + col]);
        REQUIRE(c(r * cols + col) == source[r * cols + col]);
        for (int k = 0; k < depth; ++k)
          REQUIRE(b(r, col, k) == source[(r * cols + col) * depth + k]);
      }
    }
    const concurrency::array_view<const int, 2> corner = a.section(concurrency::index<2>(2, 3));
    CHECK(corner.extent == extent<2>(rows - 2, cols - 3));
    CHECK(corner(0, 0) == source[2 * cols + 3]);
    CHECK(a.section(extent<2>(2, 2))(1, 1) == source[cols + 1]);
    CHECK(a.section(1, 2, 3, 4)(2, 3) == source[3 * cols + 5]);
    const concurrency::array<int, 1>& cc = c;
    CHECK(cc.section(4, 3)[2] == source[6]);
    const concurrency::array_view<const unsigned, 1> raw = cc.reinterpret_as<unsigned>();
    CHECK(raw[7] == static_cast<unsigned>(source[7]));
    CHECK_THROWS_AS(a.section(1, 2, 6, 4), concurrency::runtime_exception);
  }
}
