// <hipamp/amp.h>: C++ AMP's spellings name hipamp's types and work in kernels on every
// accelerator; namespace concurrency can be reopened, as C++ AMP code sometimes does.
#include <cmath>
#include <cstring>
#include <type_traits>

#include <hipamp/amp.h>

#include "support.hpp"

namespace concurrency {
// User code adding to namespace concurrency, which a namespace alias would forbid.
inline int twice(int x) { return 2 * x; }
}  // namespace concurrency

namespace Concurrency {
namespace Test {
// ... and to Concurrency, MSVC's spelling (the conformance suite's harness does this). In MSVC
// both names are one namespace, so each addition is found through either name.
inline int thrice(int x) { return 3 * x; }
}  // namespace Test
}  // namespace Concurrency

// MSVC's <amp.h> restriction names: uses after the declarator compile with a host compiler
// (the porting tool moves them before the declaration for nvcc).
#if !HIPAMP_DEVICE_COMPILE && !defined(__CUDACC__) && !defined(__HIPCC__)
static int plus_one(int x) __GPU { return x + 1; }
#endif

static_assert(std::is_same<concurrency::array_view<int, 2>, hipamp::array_view<int, 2>>::value,
              "concurrency::array_view is hipamp's");
static_assert(std::is_same<Concurrency::extent<3>, hipamp::extent<3>>::value,
              "Concurrency::extent is hipamp's");
static_assert(std::is_same<concurrency::index<1>, hipamp::index<1>>::value,
              "concurrency::index is hipamp's");
static_assert(std::is_same<concurrency::graphics::float_4, hipamp::graphics::float_4>::value,
              "concurrency::graphics::float_4 is hipamp's");
static_assert(std::is_same<Concurrency::graphics::uint_2, hipamp::graphics::uint_2>::value,
              "Concurrency::graphics::uint_2 is hipamp's");

static_assert(std::is_same<concurrency::array<int, 1>, Concurrency::array<int, 1>>::value,
              "both spellings name one array");

TEST_CASE("amp.h: what a program adds to either namespace spelling is found through both",
          "[amp_compat]") {
  CHECK(concurrency::Test::thrice(2) == 6);
  CHECK(Concurrency::Test::thrice(3) == 9);
  CHECK(Concurrency::twice(4) == 8);
  CHECK(concurrency::twice(5) == 10);
#if !HIPAMP_DEVICE_COMPILE && !defined(__CUDACC__) && !defined(__HIPCC__)
  CHECK(plus_one(1) == 2);
#endif
}

#define HIPAMP_TEST_STRINGIFY_(x) #x
#define HIPAMP_TEST_STRINGIFY(x) HIPAMP_TEST_STRINGIFY_(x)

TEST_CASE("amp.h spells tile_static and the norm constants", "[amp_compat]") {
  CHECK(std::strcmp(HIPAMP_TEST_STRINGIFY(tile_static),
                    HIPAMP_TEST_STRINGIFY(HIPAMP_TILE_STATIC)) == 0);
  CHECK(static_cast<float>(NORM_MIN) == -1.0f);
  CHECK(static_cast<float>(NORM_MAX) == 1.0f);
  CHECK(static_cast<float>(UNORM_MAX) == 1.0f);
  CHECK(static_cast<float>(UNORM_ZERO) == 0.0f);
  CHECK(concurrency::twice(21) == 42);
}

TEST_CASE("a kernel written with C++ AMP names runs on every accelerator", "[amp_compat]") {
  using namespace concurrency::graphics;
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 777;
    const auto x = hipamp_test::random_vector<float>(n, 0.5f, 9.0f);
    std::vector<float_2> out(n, float_2(-1.0f));
    concurrency::array_view<const float, 1> xv(n, x);
    concurrency::array_view<float_2, 1> ov(n, out);
    ov.discard_data();
    concurrency::parallel_for_each(acc.get_default_view(), ov.extent,
                                   [=] HIPAMP_RESTRICT(concurrency::index<1> i) {
#if __has_include(<hipamp/math.hpp>)
                                     const float root = concurrency::precise_math::sqrt(xv[i]);
#else
          const float root = sqrtf(xv[i]);
#endif
                                     ov[i] = float_2(root, xv[i]).yx();
                                   });
    ov.synchronize();
    for (int i = 0; i < n; ++i) {
      CHECK(out[i].x == x[i]);
      CHECK(std::abs(out[i].y - std::sqrt(x[i])) <= 1e-6f * std::sqrt(x[i]));
    }
  }
}

// C++ AMP 1.2 (3.1): each work-item runs its own copy of the kernel object, so a `mutable`
// kernel may change what it captured by value and no other work-item sees the change.
TEST_CASE("a mutable kernel lambda runs on a fresh copy of its captures per work-item",
          "[amp_compat][mutable]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 1 + static_cast<int>(hipamp_test::rng()() % 3000);
    const std::vector<int> input = hipamp_test::random_vector<int>(n, -1000, 1000);
    const int bias = static_cast<int>(hipamp_test::rng()() % 100);
    hipamp::array_view<const int, 1> in(n, input);
    hipamp::array_view<int, 1> out(n);
    int running = bias;  // changed by each work-item, from `bias` every time
    hipamp::parallel_for_each(acc.get_default_view(), out.extent,
                              [=] HIPAMP_RESTRICT(hipamp::index<1> i) mutable {
                                running += in[i];
                                running *= 2;
                                out[i] = running;
                              });
    for (int i = 0; i < n; ++i) REQUIRE(out[i] == 2 * (bias + input[i]));
    // Tiled: the same rule per work-item of every tile.
    const int tiles = 1 + static_cast<int>(hipamp_test::rng()() % 40);
    hipamp::array_view<int, 1> tiled_out(tiles * 16);
    int seen = bias;
    hipamp::parallel_for_each(acc.get_default_view(), tiled_out.extent.tile<16>(),
                              [=] HIPAMP_RESTRICT(hipamp::tiled_index<16> t) mutable {
                                seen = seen * 3 + t.local[0];
                                tiled_out[t.global] = seen;
                              });
    for (int i = 0; i < tiles * 16; ++i) REQUIRE(tiled_out[i] == bias * 3 + i % 16);
  }
}

// C++ AMP 1.2 (5.0) limits an element type's members, bases and virtual functions, not its
// destructor: a class with a user-provided (empty) destructor is a valid element.
namespace {
struct reading {
  int sensor;
  float value;
  HIPAMP_RESTRICT ~reading() {}  // user-provided, does nothing
};
}  // namespace

TEST_CASE("an element type with a user-provided empty destructor fills arrays and views",
          "[amp_compat][element_type]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 1 + static_cast<int>(hipamp_test::rng()() % 2000);
    const std::vector<float> values = hipamp_test::random_vector<float>(n, -50.0f, 50.0f);
    hipamp::array_view<const float, 1> in(n, values);
    hipamp::array<reading, 1> readings(n, acc.get_default_view());
    hipamp::array_view<reading, 1> view = readings;
    hipamp::parallel_for_each(acc.get_default_view(), view.extent,
                              [=] HIPAMP_RESTRICT(hipamp::index<1> i) {
                                reading r;
                                r.sensor = i[0] * 7;
                                r.value = in[i] * 0.5f;
                                view[i] = r;
                              });
    std::vector<reading> host(static_cast<std::size_t>(n));
    hipamp::copy(readings, host.begin());
    for (int i = 0; i < n; ++i) {
      REQUIRE(host[i].sensor == i * 7);
      REQUIRE(host[i].value == values[i] * 0.5f);
    }
  }
}
