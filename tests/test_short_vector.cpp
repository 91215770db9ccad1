// Short vector types (hipamp::graphics, C++ AMP's concurrency::graphics): every operator is
// checked component-wise against scalar arithmetic on random data, in kernels on every
// accelerator and on the host; swizzles, conversions, norm/unorm clamping and the traits too.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include <hipamp/short_vector.hpp>

#include "support.hpp"
#if HIPAMP_CATCH_V3
#include <catch2/catch_template_test_macros.hpp>
#endif

namespace gx = hipamp::graphics;

namespace {

static_assert(sizeof(gx::float_4) == 16 && alignof(gx::float_4) == 16, "float_4 is a float4");
static_assert(sizeof(gx::float_3) == 12, "float_3 is packed");
static_assert(sizeof(gx::double_2) == 16 && sizeof(gx::int_2) == 8, "no padding");
static_assert(std::is_trivially_copyable<gx::float_4>::value &&
                  std::is_trivially_default_constructible<gx::float_4>::value,
              "short vectors are plain data: copied by memcpy, allowed in tile_static memory");
static_assert(std::is_same<gx::short_vector<float, 4>::type, gx::float_4>::value,
              "short_vector<float, 4> names float_4");
static_assert(std::is_same<gx::short_vector<int, 1>::type, int>::value,
              "a short vector of one component is the scalar");
static_assert(std::is_same<gx::short_vector_traits<gx::uint_3>::value_type, unsigned>::value,
              "short_vector_traits give the component type");
static_assert(gx::short_vector_traits<gx::uint_3>::size == 3,
              "short_vector_traits give the number of components");
static_assert(gx::short_vector_traits<double>::size == 1, "a scalar is a one-component vector");
static_assert(gx::norm_4::size == 4 && std::is_same<gx::unorm_2::value_type, gx::unorm>::value,
              "norm and unorm vectors have size and value_type");

// Component i of a vector, through the C++ AMP accessors.
template <class V>
typename V::value_type get(const V& v, int i) {
  switch (i) {
    case 0:
      return v.get_x();
    case 1:
      return v.get_y();
    case 2:
      if constexpr (V::size > 2) return v.get_z();
      break;
    default:
      if constexpr (V::size > 3) return v.get_w();
      break;
  }
  FAIL("no component " << i);
  return {};
}

template <class V>
V random_vector(typename V::value_type lo, typename V::value_type hi) {
  const auto c = hipamp_test::random_vector<typename V::value_type>(4, lo, hi);
  V v{};
  for (int i = 0; i < V::size; ++i) {
    if (i == 0) v.set_x(c[0]);
    if (i == 1) v.set_y(c[1]);
    if constexpr (V::size > 2) {
      if (i == 2) v.set_z(c[2]);
    }
    if constexpr (V::size > 3) {
      if (i == 3) v.set_w(c[3]);
    }
  }
  return v;
}

// `scale` bounds the magnitude of the intermediate terms of the operation: GPU compilers
// contract a*b+c into one fma, which differs from two roundings by a few ulp of the terms, not
// of a result that cancellation made small.
template <class T>
bool close(T got, T want, T scale) {
  if constexpr (std::is_floating_point<T>::value) {
    const T tol =
        8 * std::numeric_limits<T>::epsilon() * std::max<T>({T(1), std::abs(want), scale});
    return std::abs(got - want) <= tol;
  } else {
    return got == want;
  }
}

// The operations checked, as kernel code (V) and as the scalar reference (T): op k of a, b and
// the scalar s. The same template computes both, so the reference is the scalar arithmetic the
// vector operators claim to perform component-wise.
constexpr int arithmetic_ops = 9;
constexpr int bitwise_ops = 6;

template <class X, class S>
HIPAMP_RESTRICT X arithmetic(int op, const X& a, const X& b, S s) {
  switch (op) {
    case 0:
      return a + b;
    case 1:
      return a - b;
    case 2:
      return a * b;
    case 3:
      return a / b;
    case 4:
      return a * s + b;
    case 5:
      return s - a / s;
    case 6: {
      X t = a;
      t += b;
      t *= a;
      t -= b;
      t /= b;
      return t;
    }
    case 7: {
      X t = a;
      ++t;
      X u = t++;
      return t + u;
    }
    default: {
      X t = b;
      --t;
      X u = t--;
      return t * u;
    }
  }
}

template <class X>
HIPAMP_RESTRICT X bitwise(int op, const X& a, const X& b, int shift) {
  switch (op) {
    case 0:
      return a % b;
    case 1:
      return a & b;
    case 2:
      return a | b;
    case 3:
      return a ^ ~b;
    case 4:
      return ((a & 255) << shift) >> 1;  // never shifts a negative value (UB in C++17)
    default: {
      X t = a;
      t %= b;
      t &= b;  // b > 0: t >= 0 from here on
      t <<= shift;
      t >>= shift;
      t |= a;
      t ^= b;
      return t;
    }
  }
}

template <class V>
void check_operators_on(const hipamp::accelerator_view& av) {
  using T = typename V::value_type;
  constexpr bool is_bitwise = std::is_integral<T>::value;
  constexpr int ops = arithmetic_ops + (is_bitwise ? bitwise_ops : 0);
  const int n = 1000;
  // b in [1, 100]: a divisor for / and %; signed a may be negative.
  const T lo = std::is_signed<T>::value ? T(-100) : T(0);
  std::vector<V> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = random_vector<V>(lo, T(100));
    b[i] = random_vector<V>(T(1), T(100));
  }
  const T s = hipamp_test::random_vector<T>(1, T(2), T(9))[0];
  [[maybe_unused]] const int shift = 3;
  std::vector<V> out(static_cast<std::size_t>(ops) * n, V(T(77)));  // poisoned

  hipamp::array_view<const V, 1> av_a(n, a), av_b(n, b);
  hipamp::array_view<V, 2> av_out(ops, n, out);
  av_out.discard_data();
  hipamp::parallel_for_each(av, av_a.extent, [=] HIPAMP_RESTRICT(hipamp::index<1> idx) {
    const int i = idx[0];
    // Captured outside the constexpr-if: nvcc cannot first-capture a variable inside one.
    [[maybe_unused]] const int bit_shift = shift;
    for (int op = 0; op < arithmetic_ops; ++op) av_out(op, i) = arithmetic(op, av_a[i], av_b[i], s);
    if constexpr (std::is_integral<T>::value) {
      for (int op = 0; op < bitwise_ops; ++op) {
        av_out(arithmetic_ops + op, i) = bitwise(op, av_a[i], av_b[i], bit_shift);
      }
    }
  });
  av_out.synchronize();

  int wrong = 0;
  for (int op = 0; op < ops; ++op) {
    for (int i = 0; i < n; ++i) {
      for (int c = 0; c < V::size; ++c) {
        const T ac = get(a[i], c), bc = get(b[i], c);
        const T want = op < arithmetic_ops ? arithmetic(op, ac, bc, s) : [&] {
          if constexpr (is_bitwise) {
            return bitwise(op - arithmetic_ops, ac, bc, shift);
          } else {
            return T{};
          }
        }();
        const T got = get(out[static_cast<std::size_t>(op) * n + i], c);
        T scale{};
        if constexpr (std::is_floating_point<T>::value) {
          using std::abs;
          scale = (abs(ac) + abs(bc)) * (abs(ac) + abs(s) + T(1)) + abs(ac) / abs(s);
        }
        if (!close(got, want, scale) && ++wrong <= 5) {
          FAIL_CHECK("op " << op << " element " << i << " component " << c << ": " << got
                           << ", expected " << want);
        }
      }
    }
  }
  CHECK(wrong == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("short vector operators match scalar arithmetic in kernels", "[short_vector]",
                   gx::float_2, gx::float_3, gx::float_4, gx::double_3, gx::int_4, gx::uint_2) {
  FOR_EACH_ACCELERATOR(acc) { check_operators_on<TestType>(acc.get_default_view()); }
}

TEST_CASE("short vector unary minus, comparison and conversions", "[short_vector]") {
  for (int trial = 0; trial < 100; ++trial) {
    const auto a = random_vector<gx::float_4>(-50.f, 50.f);
    const gx::float_4 n = -a;
    for (int c = 0; c < 4; ++c) CHECK(get(n, c) == -get(a, c));
    CHECK(a == a);
    CHECK_FALSE(a != a);
    gx::float_4 b = a;
    b.ref_z() += 1.0f;  // one component differs
    CHECK(a != b);
    CHECK_FALSE(a == b);

    const gx::int_4 truncated(a);  // explicit, per component, as static_cast
    for (int c = 0; c < 4; ++c) CHECK(get(truncated, c) == static_cast<int>(get(a, c)));
    const gx::double_4 widened(a);
    for (int c = 0; c < 4; ++c) CHECK(get(widened, c) == static_cast<double>(get(a, c)));
    const auto i = random_vector<gx::int_4>(-1000, 1000);
    const gx::int_4 flipped = ~i;
    for (int c = 0; c < 4; ++c) CHECK(get(flipped, c) == ~get(i, c));
  }
  CHECK(gx::float_4() == gx::float_4(0.0f));  // value-initialised: zero, as in C++ AMP
  gx::double_3 zero{};
  CHECK(zero == gx::double_3(0.0, 0.0, 0.0));
  CHECK(gx::uint_3(7u) == gx::uint_3(7u, 7u, 7u));
}

// C++ AMP 1.2 (10.8): the scalar constructor is implicit (`int_4 x = 7;`, and the standard
// algorithms that assign a scalar to each element compile); conversions between component
// types stay explicit.
static_assert(std::is_convertible<int, gx::int_4>::value);
static_assert(std::is_convertible<float, gx::float_3>::value);
static_assert(!std::is_convertible<gx::float_4, gx::int_4>::value);
static_assert(!std::is_convertible<gx::uint_2, gx::int_2>::value);

TEST_CASE("a scalar converts implicitly to a short vector with every component set",
          "[short_vector]") {
  std::vector<int> scalars = hipamp_test::random_vector<int>(64, -100000, 100000);
  std::vector<gx::int_4> vectors(scalars.size());
  std::size_t next = 0;
  std::generate(vectors.begin(), vectors.end(), [&] { return scalars[next++]; });
  for (std::size_t k = 0; k < scalars.size(); ++k) {
    for (int c = 0; c < 4; ++c) REQUIRE(get(vectors[k], c) == scalars[k]);
  }
  const float f = scalars[0] * 0.25f;
  gx::float_2 assigned = f;
  CHECK(assigned == gx::float_2(f, f));
  assigned = -f;
  CHECK(assigned == gx::float_2(-f, -f));
}

TEST_CASE("swizzles read and write the named components", "[short_vector]") {
  const auto v = random_vector<gx::float_4>(-10.f, 10.f);
  CHECK(v.xy() == gx::float_2(v.x, v.y));
  CHECK(v.get_yx() == gx::float_2(v.y, v.x));
  CHECK(v.wz() == gx::float_2(v.w, v.z));
  CHECK(v.get_xw() == gx::float_2(v.x, v.w));
  CHECK(v.xyz() == gx::float_3(v.x, v.y, v.z));
  CHECK(v.get_zyx() == gx::float_3(v.z, v.y, v.x));
  CHECK(v.wxy() == gx::float_3(v.w, v.x, v.y));
  CHECK(v.xyzw() == v);
  CHECK(v.get_wzyx() == gx::float_4(v.w, v.z, v.y, v.x));
  CHECK(v.ywxz() == gx::float_4(v.y, v.w, v.x, v.z));
  CHECK(v.rgb() == v.xyz());
  CHECK(v.get_abgr() == v.wzyx());
  CHECK(v.get_r() == v.x);
  CHECK(v.get_a() == v.w);
  CHECK(v.swizzle<3, 3, 0>() == gx::float_3(v.w, v.w, v.x));  // repeats only here

  gx::float_4 u = v;
  u.set_zx(gx::float_2(1.5f, -2.5f));  // z = 1.5, x = -2.5
  CHECK(u == gx::float_4(-2.5f, v.y, 1.5f, v.w));
  u = v;
  u.set_wyz(gx::float_3(4.f, 5.f, 6.f));
  CHECK(u == gx::float_4(v.x, 5.f, 6.f, 4.f));
  u = v;
  u.set_bgra(gx::float_4(1.f, 2.f, 3.f, 4.f));
  CHECK(u == gx::float_4(3.f, 2.f, 1.f, 4.f));
  u = v;
  u.set_g(9.f);
  u.ref_a() = 8.f;
  CHECK(u == gx::float_4(v.x, 9.f, v.z, 8.f));

  const gx::int_3 t(1, 2, 3);
  CHECK(t.zx() == gx::int_2(3, 1));
  CHECK(t.get_yzx() == gx::int_3(2, 3, 1));
  gx::int_2 p(5, 6);
  p.set_yx(gx::int_2(7, 8));
  CHECK(p == gx::int_2(8, 7));
}

TEST_CASE("swizzles in a kernel on every accelerator", "[short_vector]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 512;
    std::vector<gx::float_4> in(n), out(n, gx::float_4(-99.f));
    for (auto& v : in) v = random_vector<gx::float_4>(-10.f, 10.f);
    hipamp::array_view<const gx::float_4, 1> av_in(n, in);
    hipamp::array_view<gx::float_4, 1> av_out(n, out);
    av_out.discard_data();
    hipamp::parallel_for_each(acc.get_default_view(), av_out.extent,
                              [=] HIPAMP_RESTRICT(hipamp::index<1> i) {
                                gx::float_4 r;
                                r.set_xyz(av_in[i].zxy() * av_in[i].get_w());
                                r.set_w(av_in[i].xy().get_y());
                                av_out[i] = r;
                              });
    av_out.synchronize();
    for (int i = 0; i < n; ++i) {
      const gx::float_4& v = in[i];
      CHECK(out[i] == gx::float_4(v.z * v.w, v.x * v.w, v.y * v.w, v.y));
    }
  }
}

TEST_CASE("norm and unorm clamp every value and result", "[short_vector]") {
  const auto values = hipamp_test::random_vector<float>(400, -3.f, 3.f);
  auto clamp = [](float v, float lo, float hi) { return std::min(hi, std::max(lo, v)); };
  for (std::size_t k = 0; k + 1 < values.size(); k += 2) {
    const float a = values[k], b = values[k + 1];
    const gx::unorm ua(a), ub(b);
    const gx::norm na(a), nb(b);
    CHECK(static_cast<float>(ua) == clamp(a, 0, 1));
    CHECK(static_cast<float>(na) == clamp(a, -1, 1));
    CHECK(static_cast<float>(ua + ub) == clamp(clamp(a, 0, 1) + clamp(b, 0, 1), 0, 1));
    CHECK(static_cast<float>(ua - ub) == clamp(clamp(a, 0, 1) - clamp(b, 0, 1), 0, 1));
    CHECK(static_cast<float>(na * nb) == clamp(a, -1, 1) * clamp(b, -1, 1));
    CHECK(static_cast<float>(na - nb) == clamp(clamp(a, -1, 1) - clamp(b, -1, 1), -1, 1));
    CHECK(static_cast<float>(-na) == -clamp(a, -1, 1));
    CHECK(static_cast<float>(gx::norm(ua)) == clamp(a, 0, 1));  // every unorm is a norm
    gx::unorm inc = ua;
    ++inc;
    CHECK(static_cast<float>(inc) == 1.0f);

    const gx::unorm_2 uv(ua, ub);
    const gx::unorm_2 sum = uv + uv;
    CHECK(static_cast<float>(sum.x) == clamp(2 * clamp(a, 0, 1), 0, 1));
    const gx::norm_3 nv(gx::float_3(a, b, a * b));  // explicit conversion clamps
    CHECK(static_cast<float>(nv.z) == clamp(a * b, -1, 1));
    CHECK(static_cast<float>((-nv).y) == -clamp(b, -1, 1));
  }
  CHECK(static_cast<float>(gx::unorm(std::nanf(""))) == 0.0f);
  CHECK(static_cast<float>(gx::norm(std::nanf(""))) == 0.0f);
  CHECK(static_cast<float>(gx::unorm()) == 0.0f);
}

// The scalar types' whole surface: their result types, layout and constant evaluation, then
// every operator and constructor against a clamp of the float arithmetic.
static_assert(sizeof(gx::unorm) == sizeof(float) && sizeof(gx::norm) == sizeof(float),
              "norm and unorm are one float");
static_assert(std::is_trivially_copyable<gx::unorm>::value &&
                  std::is_standard_layout<gx::norm>::value,
              "norm and unorm copy as their float");
static_assert(
    std::is_same<decltype(gx::unorm() + gx::unorm()), gx::unorm>::value &&
        std::is_same<decltype(gx::norm() / gx::norm()), gx::norm>::value &&
        std::is_same<decltype(-gx::norm()), gx::norm>::value &&
        std::is_same<decltype(std::declval<gx::unorm&>() *= gx::unorm()), gx::unorm&>::value &&
        std::is_same<decltype(std::declval<gx::norm&>()--), gx::norm>::value,
    "arithmetic on norm and unorm keeps the type");
static_assert(!std::is_convertible<float, gx::unorm>::value &&
                  !std::is_convertible<int, gx::norm>::value &&
                  std::is_convertible<gx::unorm, gx::norm>::value &&
                  !std::is_convertible<gx::norm, gx::unorm>::value,
              "construction from a number is explicit; only unorm -> norm is implicit");
static_assert(static_cast<float>(gx::unorm(2.5f)) == 1.0f &&
                  static_cast<float>(gx::norm(-7)) == -1.0f &&
                  static_cast<float>(gx::unorm(0.25) + gx::unorm(0.5)) == 0.75f,
              "norm and unorm are usable in constant expressions");

TEST_CASE("norm and unorm: every operator and constructor", "[short_vector]") {
  const auto values = hipamp_test::random_vector<float>(400, -3.f, 3.f);
  auto clamp = [](float v, float lo, float hi) { return std::min(hi, std::max(lo, v)); };
  auto u = [&](float v) { return clamp(v, 0, 1); };
  auto n = [&](float v) { return clamp(v, -1, 1); };
  for (std::size_t k = 0; k + 1 < values.size(); k += 2) {
    const float a = values[k], b = values[k + 1];
    const gx::unorm ua(a), ub(b);
    const gx::norm na(a), nb(b);
    CHECK(static_cast<float>(ua * ub) == u(u(a) * u(b)));
    if (u(b) != 0.0f) CHECK(static_cast<float>(ua / ub) == u(u(a) / u(b)));
    if (n(b) != 0.0f) CHECK(static_cast<float>(na / nb) == n(n(a) / n(b)));
    CHECK(static_cast<float>(na + nb) == n(n(a) + n(b)));

    gx::unorm cu = ua;
    cu += ub;
    CHECK(static_cast<float>(cu) == u(u(a) + u(b)));
    cu -= ub;
    CHECK(static_cast<float>(cu) == u(u(u(a) + u(b)) - u(b)));
    gx::norm cn = na;
    cn *= nb;
    CHECK(static_cast<float>(cn) == n(a) * n(b));
    if (n(b) != 0.0f) {
      cn /= nb;
      CHECK(static_cast<float>(cn) == n((n(a) * n(b)) / n(b)));
    }

    gx::norm post = na;
    const gx::norm before_inc = post++;
    CHECK(static_cast<float>(before_inc) == n(a));
    CHECK(static_cast<float>(post) == n(n(a) + 1));
    const gx::norm before_dec = post--;
    CHECK(static_cast<float>(before_dec) == n(n(a) + 1));
    CHECK(static_cast<float>(post) == n(n(n(a) + 1) - 1));
    gx::unorm dec = ua;
    CHECK(static_cast<float>(--dec) == u(u(a) - 1));
    CHECK(static_cast<float>(dec--) == 0.0f);

    const int whole = static_cast<int>(a);
    CHECK(static_cast<float>(gx::unorm(whole)) == u(static_cast<float>(whole)));
    CHECK(static_cast<float>(gx::norm(whole)) == n(static_cast<float>(whole)));
    CHECK(static_cast<float>(gx::norm(static_cast<double>(a))) == n(a));
  }
  CHECK(static_cast<float>(gx::unorm(3u)) == 1.0f);
  CHECK(static_cast<float>(gx::norm(0u)) == 0.0f);
  CHECK(static_cast<float>(gx::norm()) == 0.0f);
}
