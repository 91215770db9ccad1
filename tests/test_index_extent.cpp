// index<N>, extent<N>, tiled_extent and tiled_index: the C++ AMP 1.2 operator set, checked
// element-wise against plain int arithmetic on random values.
// hipamp-test: host-only (launches no kernel; the C++ compiler builds it in GPU builds)
#include <array>

#include "support.hpp"

using hipamp::extent;
using hipamp::tiled_extent;
namespace hx = hipamp;

namespace {

template <int N>
std::array<int, N> random_ints(int lo, int hi) {
  std::array<int, N> a{};
  std::uniform_int_distribution<int> dist(lo, hi);
  for (int& x : a) x = dist(hipamp_test::rng());
  return a;
}

// C++ AMP 1.2 (4.1.4, 4.2.4) rejects at compile time what it does not define: arithmetic or
// comparison between coordinates of different rank, and an element-wise *, / or % of two.
template <class...>
using void_t = void;
template <class A, class B, class = void>
struct has_plus : std::false_type {};
template <class A, class B>
struct has_plus<A, B, void_t<decltype(std::declval<A&>() + std::declval<const B&>())>>
    : std::true_type {};
template <class A, class B, class = void>
struct has_times : std::false_type {};
template <class A, class B>
struct has_times<A, B, void_t<decltype(std::declval<A&>() * std::declval<const B&>())>>
    : std::true_type {};
template <class A, class B, class = void>
struct has_times_assign : std::false_type {};
template <class A, class B>
struct has_times_assign<A, B, void_t<decltype(std::declval<A&>() *= std::declval<const B&>())>>
    : std::true_type {};
template <class A, class B, class = void>
struct has_modulo : std::false_type {};
template <class A, class B>
struct has_modulo<A, B, void_t<decltype(std::declval<A&>() % std::declval<const B&>())>>
    : std::true_type {};
template <class A, class B, class = void>
struct has_equal : std::false_type {};
template <class A, class B>
struct has_equal<A, B, void_t<decltype(std::declval<A&>() == std::declval<const B&>())>>
    : std::true_type {};

static_assert(has_plus<hx::index<2>, hx::index<2>>::value && has_times<hx::index<2>, int>::value &&
                  has_times<int, hx::index<2>>::value && has_times_assign<hx::index<3>, int>::value,
              "index arithmetic with an int and with an index of the same rank");
static_assert(!has_times<hx::index<2>, hx::index<2>>::value &&
                  !has_times_assign<hx::index<2>, hx::index<2>>::value &&
                  !has_modulo<hx::index<1>, hx::index<1>>::value,
              "C++ AMP has no element-wise product or remainder of two indices");
static_assert(!has_times<extent<3>, extent<3>>::value && has_times<extent<3>, int>::value &&
                  has_plus<extent<2>, extent<2>>::value && has_plus<extent<2>, hx::index<2>>::value,
              "extent: + with an extent or index, * with an int only");
static_assert(!has_plus<hx::index<1>, hx::index<2>>::value &&
                  !has_plus<extent<3>, extent<4>>::value &&
                  !has_plus<extent<2>, hx::index<3>>::value &&
                  !has_equal<hx::index<5>, hx::index<4>>::value &&
                  !has_equal<extent<2>, extent<3>>::value,
              "coordinates of different rank do not mix");
static_assert(!std::is_constructible<hx::index<4>, hx::index<3>>::value &&
                  !std::is_constructible<extent<2>, extent<1>>::value,
              "no conversion between ranks");

template <int N>
void check_index_arithmetic() {
  const auto a = random_ints<N>(-1000, 1000);
  const auto b = random_ints<N>(1, 1000);  // non-zero for / and %
  const int s = std::uniform_int_distribution<int>(1, 50)(hipamp_test::rng());
  const hx::index<N> ia(a.data());
  const hx::index<N> ib(b.data());
  const hx::index<N> sum = ia + ib, diff = ia - ib;
  const hx::index<N> plus_s = ia + s, s_minus = s - ia, times_s = ia * s, div_s = ia / s,
                     mod_s = ia % s, s_div = s / ib;
  for (int d = 0; d < N; ++d) {
    CHECK(sum[d] == a[d] + b[d]);
    CHECK(diff[d] == a[d] - b[d]);
    CHECK(plus_s[d] == a[d] + s);
    CHECK(s_minus[d] == s - a[d]);
    CHECK(times_s[d] == a[d] * s);
    CHECK(div_s[d] == a[d] / s);
    CHECK(mod_s[d] == a[d] % s);
    CHECK(s_div[d] == s / b[d]);
  }
  hx::index<N> c = ia;
  c += ib;
  CHECK(c == sum);
  c -= ib;
  CHECK(c == ia);
  CHECK(c != sum);
  hx::index<N> pre = ia;
  CHECK(++pre == ia + 1);
  hx::index<N> post = ia;
  CHECK(post++ == ia);
  CHECK(post == ia + 1);
  CHECK(--post == ia);
  CHECK(post-- == ia);
  CHECK(post == ia - 1);
}

}  // namespace

TEST_CASE("index arithmetic matches int arithmetic in every rank", "[index]") {
  for (int trial = 0; trial < 20; ++trial) {
    check_index_arithmetic<1>();
    check_index_arithmetic<2>();
    check_index_arithmetic<3>();
    check_index_arithmetic<5>();
  }
}

TEST_CASE("index constructors and defaults", "[index]") {
  STATIC_REQUIRE(hx::index<4>::rank == 4);
  const hx::index<3> zero;
  CHECK(zero[0] == 0);
  CHECK(zero[1] == 0);
  CHECK(zero[2] == 0);
  const hx::index<2> two(3, -4);
  CHECK(two[0] == 3);
  CHECK(two[1] == -4);
  const hx::index<1> one = 7;  // implicit from int, as in C++ AMP
  CHECK(one[0] == 7);
  const int comps[4] = {1, 2, 3, 4};
  const hx::index<4> four(comps);
  CHECK(four[3] == 4);
}

TEST_CASE("extent size, contains and arithmetic", "[extent]") {
  for (int trial = 0; trial < 20; ++trial) {
    const auto dims = random_ints<3>(1, 40);
    const extent<3> e(dims[0], dims[1], dims[2]);
    CHECK(e.size() == static_cast<unsigned>(dims[0] * dims[1] * dims[2]));
    const auto p = random_ints<3>(-5, 45);
    const bool inside =
        p[0] >= 0 && p[0] < dims[0] && p[1] >= 0 && p[1] < dims[1] && p[2] >= 0 && p[2] < dims[2];
    CHECK(e.contains(hx::index<3>(p.data())) == inside);
    const hx::index<3> shift(1, 2, 3);
    CHECK((e + shift) == extent<3>(dims[0] + 1, dims[1] + 2, dims[2] + 3));
    CHECK((e - shift) == extent<3>(dims[0] - 1, dims[1] - 2, dims[2] - 3));
    CHECK((e * 2) == extent<3>(dims[0] * 2, dims[1] * 2, dims[2] * 2));
    CHECK((e / 2) == extent<3>(dims[0] / 2, dims[1] / 2, dims[2] / 2));
    CHECK((e % 3) == extent<3>(dims[0] % 3, dims[1] % 3, dims[2] % 3));
    extent<3> f = e;
    CHECK(++f == e + 1);
    CHECK(f-- == e + 1);
    CHECK(f == e);
  }
  const int comps[6] = {2, 3, 4, 5, 6, 7};
  CHECK(extent<6>(comps).size() == 2u * 3 * 4 * 5 * 6 * 7);
}

TEST_CASE("tiled_extent pad and truncate round to whole tiles", "[tiled_extent]") {
  for (int trial = 0; trial < 20; ++trial) {
    const auto dims = random_ints<2>(1, 200);
    const tiled_extent<16, 8> t = extent<2>(dims[0], dims[1]).tile<16, 8>();
    const tiled_extent<16, 8> padded = t.pad();
    const tiled_extent<16, 8> truncated = t.truncate();
    CHECK(padded[0] == (dims[0] + 15) / 16 * 16);
    CHECK(padded[1] == (dims[1] + 7) / 8 * 8);
    CHECK(truncated[0] == dims[0] / 16 * 16);
    CHECK(truncated[1] == dims[1] / 8 * 8);
    CHECK(padded[0] % 16 == 0);
    CHECK(truncated[1] % 8 == 0);
  }
  STATIC_REQUIRE(tiled_extent<4, 4, 4>::rank == 3);
  STATIC_REQUIRE(tiled_extent<256>::rank == 1);
  CHECK(tiled_extent<4, 8, 2>::get_tile_extent() == extent<3>(4, 8, 2));
  CHECK(tiled_extent<32>::tile_dim0 == 32);
}

TEST_CASE("tiled_index exposes global, local, tile and origin", "[tiled_index]") {
  const hx::index<2> global(37, 21), local(5, 5), tile(2, 1), origin(32, 16);
  const hx::tiled_index<16, 16> ti(global, local, tile, origin, hx::tile_barrier());
  CHECK(ti.global == global);
  CHECK(ti.local == local);
  CHECK(ti.tile == tile);
  CHECK(ti.tile_origin == origin);
  const hx::index<2> as_index = ti;
  CHECK(as_index == global);
  CHECK(ti.get_tile_extent() == extent<2>(16, 16));
}
