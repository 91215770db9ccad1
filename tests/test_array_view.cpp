// array_view: construction over every kind of source, element access in every rank,
// sections of sections, projections, const views, view_as / reinterpret_as round trips and
// the coherence calls — each checked against plain host arithmetic on random data.
#include <array>
#include <cstring>
#include <numeric>

#include "support.hpp"

namespace hx = hipamp;
using hx::array_view;
using hx::extent;

namespace {

// Row-major offset of (i, j, k) in a dense d0 x d1 x d2 buffer.
std::size_t at3(int i, int j, int k, int d1, int d2) {
  return (static_cast<std::size_t>(i) * d1 + j) * d2 + k;
}

}  // namespace

TEST_CASE("array_view over a vector reads and writes the vector's elements", "[array_view]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 1 + static_cast<int>(hipamp_test::rng()() % 5000);
    std::vector<int> data = hipamp_test::random_vector<int>(n, -1000, 1000);
    const std::vector<int> original = data;
    array_view<int, 1> view(n, data);
    hx::parallel_for_each(acc.get_default_view(), view.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { view[i] = 3 * view[i] + i[0]; });
    for (int i = 0; i < n; ++i) REQUIRE(view[i] == 3 * original[i] + i);
    view.synchronize();
    for (int i = 0; i < n; ++i) REQUIRE(data[i] == 3 * original[i] + i);
  }
}

TEST_CASE("array_view ranks 1 to 4 index like row-major arrays", "[array_view]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int d0 = static_cast<int>(3 + hipamp_test::rng()() % 7),
              d1 = static_cast<int>(2 + hipamp_test::rng()() % 9),
              d2 = static_cast<int>(1 + hipamp_test::rng()() % 5);
    std::vector<float> buffer(static_cast<std::size_t>(d0) * d1 * d2);
    array_view<float, 3> v3(d0, d1, d2, buffer);
    hx::parallel_for_each(acc.get_default_view(), v3.extent, [=] HIPAMP_RESTRICT(hx::index<3> i) {
      v3[i] = static_cast<float>(i[0] * 10000 + i[1] * 100 + i[2]);
    });
    v3.synchronize();
    for (int i = 0; i < d0; ++i)
      for (int j = 0; j < d1; ++j)
        for (int k = 0; k < d2; ++k) {
          REQUIRE(buffer[at3(i, j, k, d1, d2)] == static_cast<float>(i * 10000 + j * 100 + k));
          REQUIRE(v3(i, j, k) == buffer[at3(i, j, k, d1, d2)]);
          REQUIRE(v3[i][j][k] == buffer[at3(i, j, k, d1, d2)]);
        }
    const int comps[4] = {2, 3, 4, 5};
    std::vector<int> b4(120);
    array_view<int, 4> v4(extent<4>(comps), b4);
    hx::parallel_for_each(acc.get_default_view(), v4.extent, [=] HIPAMP_RESTRICT(hx::index<4> i) {
      v4[i] = ((i[0] * 3 + i[1]) * 4 + i[2]) * 5 + i[3];
    });
    v4.synchronize();
    std::vector<int> expected(120);
    std::iota(expected.begin(), expected.end(), 0);
    REQUIRE(b4 == expected);
  }
}

TEST_CASE("sections of sections address the right elements", "[array_view][section]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int rows = static_cast<int>(20 + hipamp_test::rng()() % 30),
              cols = static_cast<int>(20 + hipamp_test::rng()() % 30);
    std::vector<int> data =
        hipamp_test::random_vector<int>(static_cast<std::size_t>(rows) * cols, -50, 50);
    const std::vector<int> original = data;
    array_view<int, 2> whole(rows, cols, data);
    const hx::index<2> o1(2, 3), o2(1, 4);
    const extent<2> e1(rows - 5, cols - 6), e2(rows - 9, cols - 12);
    array_view<int, 2> inner = whole.section(o1, e1).section(o2, e2);
    REQUIRE(inner.extent == e2);
    hx::parallel_for_each(acc.get_default_view(), inner.extent,
                          [=] HIPAMP_RESTRICT(hx::index<2> i) { inner[i] = -inner[i] - 1000; });
    whole.synchronize();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const int rr = r - o1[0] - o2[0], cc = c - o1[1] - o2[1];
        const bool in = rr >= 0 && rr < e2[0] && cc >= 0 && cc < e2[1];
        const int want = in ? -original[r * cols + c] - 1000 : original[r * cols + c];
        REQUIRE(data[r * cols + c] == want);
      }
    // Section by origin only, and by extent only.
    CHECK(whole.section(hx::index<2>(rows - 1, cols - 1)).extent == extent<2>(1, 1));
    CHECK(whole.section(extent<2>(2, 2))(1, 1) == data[cols + 1]);
    CHECK(whole.section(hx::index<2>(4, 5))(0, 0) == data[4 * cols + 5]);
  }
}

TEST_CASE("projection of a rank-2 view is its row", "[array_view][projection]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int rows = 7, cols = 33;
    std::vector<float> data =
        hipamp_test::random_vector<float>(std::size_t{rows} * cols, -1.f, 1.f);
    const std::vector<float> original = data;
    array_view<float, 2> m(rows, cols, data);
    const int r = static_cast<int>(hipamp_test::rng()() % rows);
    array_view<float, 1> row = m[r];
    REQUIRE(row.extent == extent<1>(cols));
    hx::parallel_for_each(acc.get_default_view(), row.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { row[i] *= 2.0f; });
    m.synchronize();
    for (int rr = 0; rr < rows; ++rr)
      for (int c = 0; c < cols; ++c) {
        const float want = original[rr * cols + c] * (rr == r ? 2.0f : 1.0f);
        REQUIRE(data[rr * cols + c] == want);
      }
    // Projection inside a kernel: m[i[0]][i[1]].
    hx::parallel_for_each(acc.get_default_view(), m.extent,
                          [=] HIPAMP_RESTRICT(hx::index<2> i) { m[i[0]][i[1]] += 1.0f; });
    m.synchronize();
    for (int c = 0; c < cols; ++c)
      REQUIRE(data[r * cols + c] == original[r * cols + c] * 2.0f + 1.0f);
  }
}

TEST_CASE("const views read data and are never written back", "[array_view][const]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = static_cast<int>(1000 + hipamp_test::rng()() % 1000);
    const std::vector<double> input = hipamp_test::random_vector<double>(n, -10.0, 10.0);
    std::vector<double> out(n, std::nan(""));
    array_view<const double, 1> in_view(n, input);
    array_view<double, 1> out_view(n, out);
    out_view.discard_data();
    hx::parallel_for_each(
        acc.get_default_view(), out_view.extent,
        [=] HIPAMP_RESTRICT(hx::index<1> i) { out_view[i] = in_view[i] * in_view[i]; });
    out_view.synchronize();
    for (int i = 0; i < n; ++i) REQUIRE(out[i] == input[i] * input[i]);
    // A read-only view converts from a writable one and sees its data.
    array_view<const double, 1> ro = out_view;
    CHECK(ro[n - 1] == input[n - 1] * input[n - 1]);
  }
}

// view_as belongs to rank-1 views (C++ AMP 1.2, 5.2.5): on a higher rank it is ill-formed.
template <class V, class = void>
struct can_view_as_flat : std::false_type {};
template <class V>
struct can_view_as_flat<V, std::void_t<decltype(std::declval<const V&>().view_as(extent<1>(4)))>>
    : std::true_type {};
static_assert(can_view_as_flat<array_view<int, 1>>::value &&
                  can_view_as_flat<array_view<const int, 1>>::value,
              "view_as on a rank-1 view");
static_assert(!can_view_as_flat<array_view<int, 2>>::value &&
                  !can_view_as_flat<array_view<const float, 3>>::value,
              "no view_as on a view of rank 2 or more");
static_assert(can_view_as_flat<hx::array<int, 2>>::value, "arrays reshape at any rank");
// reinterpret_as keeps a view read-only (C++ AMP 1.2, 5.2.5): <int> on a const view is const.
static_assert(
    std::is_same<decltype(std::declval<const array_view<const float, 1>&>().reinterpret_as<int>()),
                 array_view<const int, 1>>::value &&
        std::is_same<decltype(std::declval<const array_view<float, 1>&>().reinterpret_as<int>()),
                     array_view<int, 1>>::value,
    "reinterpret_as of a const view is const");

TEST_CASE("view_as and reinterpret_as round trips keep the bytes", "[array_view][view_as]") {
  std::vector<std::uint32_t> data = hipamp_test::random_vector<std::uint32_t>(24, 0, 0xFFFFFFFFu);
  const std::vector<std::uint32_t> original = data;
  array_view<std::uint32_t, 1> flat(24, data);
  array_view<std::uint32_t, 3> cube = flat.view_as(extent<3>(2, 3, 4));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) REQUIRE(cube(i, j, k) == original[at3(i, j, k, 3, 4)]);
  // view_as is rank-1 only (C++ AMP 1.2, 5.2.5): another shape comes from the flat view again.
  array_view<std::uint32_t, 2> matrix = flat.view_as(extent<2>(6, 4));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) REQUIRE(matrix(i, j) == original[i * 4 + j]);

  array_view<unsigned char, 1> bytes = flat.reinterpret_as<unsigned char>();
  REQUIRE(bytes.extent == extent<1>(96));
  unsigned char expected[96];
  std::memcpy(expected, original.data(), 96);
  for (int i = 0; i < 96; ++i) REQUIRE(bytes[i] == expected[i]);
  array_view<float, 1> as_float = flat.reinterpret_as<float>();
  float f = 0;
  std::memcpy(&f, &original[5], 4);
  if (!std::isnan(f)) REQUIRE(as_float[5] == f);
  // Writing through the reinterpreted view changes the original.
  bytes[4] = static_cast<unsigned char>(expected[4] ^ 0xFF);
  std::uint32_t w = 0;
  std::memcpy(&w, expected + 4, 4);
  reinterpret_cast<unsigned char*>(&w)[0] ^= 0xFF;
  CHECK(flat[1] == w);
}

TEST_CASE("array_view with no data source allocates where it is used", "[array_view]") {
  FOR_EACH_ACCELERATOR(acc) {
    array_view<int, 2> scratch(40, 50);
    hx::parallel_for_each(acc.get_default_view(), scratch.extent,
                          [=] HIPAMP_RESTRICT(hx::index<2> i) { scratch[i] = i[0] * 50 + i[1]; });
    for (int r = 0; r < 40; ++r)
      for (int c = 0; c < 50; ++c) REQUIRE(scratch(r, c) == r * 50 + c);
  }
}

// C++ AMP 1.2 (5.2.3): a view with no data source holds undefined values until written, but
// copy_to still copies them: afterwards the destination and the source read the same values.
TEST_CASE("copy_to from a never-written view with no data source makes both agree",
          "[array_view][copy]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int rows = 1 + static_cast<int>(hipamp_test::rng()() % 60);
    const int cols = 1 + static_cast<int>(hipamp_test::rng()() % 60);
    const std::size_t n = static_cast<std::size_t>(rows) * cols;
    array_view<int, 2> unwritten(rows, cols);
    std::vector<int> host = hipamp_test::random_vector<int>(n, -1000000, 1000000);
    array_view<int, 2> into_vector(rows, cols, host);
    unwritten.copy_to(into_vector);
    into_vector.synchronize();
    hx::array<int, 2> into_array(rows, cols, acc.get_default_view());
    unwritten.copy_to(into_array);
    const std::vector<int> from_array = into_array;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const std::size_t at = static_cast<std::size_t>(r) * cols + c;
        REQUIRE(host[at] == unwritten(r, c));
        REQUIRE(from_array[at] == unwritten(r, c));
      }
  }
}

TEST_CASE("views made separately over one vector stay coherent", "[array_view][coherence]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> data = hipamp_test::random_vector<int>(512, 0, 100);
    const std::vector<int> original = data;
    array_view<int, 1> a(512, data);
    array_view<int, 1> b(256, data.data() + 256);  // the upper half, made independently
    hx::parallel_for_each(acc.get_default_view(), a.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { a[i] += 1; });
    for (int i = 0; i < 256; ++i) REQUIRE(b[i] == original[256 + i] + 1);
  }
}

TEST_CASE("refresh publishes host writes made behind the view", "[array_view][coherence]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> data(300, 1);
    array_view<int, 1> v(300, data);
    hx::parallel_for_each(acc.get_default_view(), v.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] += 1; });
    v.synchronize();
    REQUIRE(data[7] == 2);
    const std::vector<int> fresh = hipamp_test::random_vector<int>(300, -9, 9);
    data = fresh;  // behind the view's back
    v.refresh();
    hx::parallel_for_each(acc.get_default_view(), v.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] *= 10; });
    v.synchronize();
    for (int i = 0; i < 300; ++i) REQUIRE(data[i] == fresh[i] * 10);
  }
}

TEST_CASE("synchronize_async completes with the data on the host", "[array_view][async]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<float> data = hipamp_test::random_vector<float>(2048, 0.f, 1.f);
    const std::vector<float> original = data;
    array_view<float, 1> v(2048, data);
    hx::parallel_for_each(acc.get_default_view(), v.extent,
                          [=] HIPAMP_RESTRICT(hx::index<1> i) { v[i] = v[i] + 1.0f; });
    hx::completion_future f = v.synchronize_async();
    REQUIRE(f.valid());
    f.get();
    for (int i = 0; i < 2048; ++i) REQUIRE(data[i] == original[i] + 1.0f);
    CHECK(v.get_source_accelerator_view().get_accelerator().get_device_path() == L"cpu");
  }
}

TEST_CASE("completion_future::to_task chains continuations and joins with &&",
          "[array_view][async][task]") {
  FOR_EACH_ACCELERATOR(acc) {
    std::vector<int> a(512, 1), b(512, 2);
    array_view<int, 1> va(512, a), vb(512, b);
    hx::parallel_for_each(acc.get_default_view(), va.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
      va[i] += 10;
      vb[i] *= 3;
    });
    // Both synchronizations are done before the joined task's continuation runs.
    const hx::task<bool> both =
        (va.synchronize_async().to_task() && vb.synchronize_async().to_task()).then([&] {
          return a[511] == 11 && b[0] == 6;
        });
    CHECK(both.get());
    // A value flows through then(); a continuation may take the antecedent task itself.
    const int chained = va.synchronize_async()
                            .to_task()
                            .then([] { return 20; })
                            .then([](int x) { return x + 1; })
                            .then([](const hx::task<int>& t) { return t.get() * 2; })
                            .get();
    CHECK(chained == 42);
    // An exception in the antecedent skips a value continuation and reaches get().
    bool ran = false;
    const hx::task<void> failing =
        hx::completion_future(
            std::async(std::launch::async,
                       [] { throw hx::runtime_exception("hipamp test: async failure"); })
                .share())
            .to_task()
            .then([&] { ran = true; });
    CHECK_THROWS_AS(failing.get(), hx::runtime_exception);
    CHECK_FALSE(ran);
    CHECK_THROWS_AS(hx::task<void>().get(), std::future_error);
  }
}

TEST_CASE("array_view rejects bad shapes with messages naming them", "[array_view][errors]") {
  std::vector<int> small(10);
  CHECK_THROWS_AS((array_view<int, 1>(11, small)), hx::runtime_exception);
  CHECK_THROWS_AS((array_view<int, 2>(3, 4, small)), hx::runtime_exception);
  CHECK_THROWS_AS((array_view<int, 1>(0, small)), hx::runtime_exception);
  CHECK_THROWS_AS((array_view<int, 1>(-3, small)), hx::runtime_exception);
  CHECK_THROWS_AS((array_view<int, 1>(4, static_cast<int*>(nullptr))), hx::runtime_exception);
  try {
    array_view<int, 2> bad(3, 4, small);
    FAIL("no exception");
  } catch (const hx::runtime_exception& e) {
    const std::string msg = e.what();
    CHECK(msg.find("[3, 4]") != std::string::npos);
    CHECK(msg.find("10") != std::string::npos);
  }
  std::vector<int> data(100);
  array_view<int, 2> m(10, 10, data);
  CHECK_THROWS_AS(m.section(hx::index<2>(5, 5), extent<2>(6, 2)), hx::runtime_exception);
  CHECK_THROWS_AS(m.section(hx::index<2>(-1, 0), extent<2>(2, 2)), hx::runtime_exception);
  CHECK_THROWS_AS(m.section(hx::index<2>(0, 0), extent<2>(0, 2)), hx::runtime_exception);
  array_view<int, 1> flat_m(100, data);
  CHECK_THROWS_AS(flat_m.view_as(extent<1>(101)), hx::runtime_exception);
  CHECK_THROWS_AS(flat_m.view_as(extent<2>(10, 11)), hx::runtime_exception);
  // A smaller shape views the first elements (C++ AMP 1.2, 5.2.5).
  data[98] = 7;
  CHECK(flat_m.view_as(extent<2>(9, 11))(8, 10) == 7);
  CHECK_THROWS_AS(m.section(hx::index<2>(1, 1), extent<2>(2, 2)).data(), hx::runtime_exception);
  std::vector<char> chars(10);
  array_view<char, 1> cv(10, chars);
  CHECK_THROWS_AS(cv.reinterpret_as<int>(), hx::runtime_exception);
}
