// concurrency::graphics textures: kernels reading and writing textures of several element types
// and ranks through texture_view, writeonly_texture_view and the porting tool's kernel_handle
// rewrite, on every accelerator, against host references on random data; copies in and out;
// bad input.
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <hipamp/amp.h>

#include "support.hpp"

namespace hx = hipamp;
namespace gx = hipamp::graphics;
using hx::extent;

static_assert(std::is_same<decltype(hx::kernel_handle(std::declval<gx::texture<int, 1>&>())),
                           gx::texture_ref<int, 1>>::value,
              "a writable texture gives a writable handle");
static_assert(
    std::is_same<decltype(hx::kernel_handle(std::declval<const gx::texture<gx::float_4, 2>&>())),
                 gx::texture_ref<const gx::float_4, 2>>::value,
    "a const texture gives a read-only handle");
static_assert(std::is_same<concurrency::graphics::texture<float, 3>, gx::texture<float, 3>>::value,
              "exported as concurrency::graphics");

namespace {

using hipamp_test::accelerators;
using hipamp_test::rng;

// A random element of each texture type (components drawn independently).
template <class S>
S random_scalar() {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  if constexpr (std::is_same<S, int>::value) {
    return std::uniform_int_distribution<int>(-100000, 100000)(rng());
  } else if constexpr (std::is_same<S, unsigned int>::value) {
    return std::uniform_int_distribution<unsigned int>(0u, 200000u)(rng());
  } else if constexpr (std::is_same<S, float>::value || std::is_same<S, double>::value) {
    return static_cast<S>(unit(rng()) * 1000.0f);
  } else {
    return S(unit(rng()));  // norm / unorm clamp into their range
  }
}
template <class T>
struct random_texel {
  static T make() { return random_scalar<T>(); }
};
template <class S, int K>
struct random_texel<gx::basic_short_vector<S, K>> {
  static gx::basic_short_vector<S, K> make() {
    if constexpr (K == 2) {
      return gx::basic_short_vector<S, K>(random_scalar<S>(), random_scalar<S>());
    } else {
      return gx::basic_short_vector<S, K>(random_scalar<S>(), random_scalar<S>(),
                                          random_scalar<S>(), random_scalar<S>());
    }
  }
};
template <class T>
std::vector<T> random_texels(std::size_t n) {
  std::vector<T> v(n);
  for (T& x : v) x = random_texel<T>::make();
  return v;
}

template <int N>
extent<N> test_extent();
template <>
extent<1> test_extent<1>() {
  return extent<1>(1000);
}
template <>
extent<2> test_extent<2>() {
  return extent<2>(37, 29);
}
template <>
extent<3> test_extent<3>() {
  return extent<3>(7, 11, 13);
}

// in -> out with out[i] = in[i] + in[i] (+ clamps for norm/unorm), through texture_views, and a
// second pass writing back through a writeonly_texture_view; checked against the host.
template <class T, int N>
void round_trip_through_kernels(const hx::accelerator& acc) {
  const auto ext = test_extent<N>();
  const auto host = random_texels<T>(static_cast<std::size_t>(ext.size()));
  const auto av = acc.get_default_view();

  gx::texture<T, N> in(ext, host.begin(), host.end(), av);
  gx::texture<T, N> out(ext, av);
  REQUIRE(in.get_extent() == ext);
  REQUIRE(in.data_length == ext.size() * sizeof(T));

  {
    gx::texture_view<const T, N> src(in);
    gx::texture_view<T, N> dst(out);
    hx::parallel_for_each(av, ext, [=] HIPAMP_RESTRICT(hx::index<N> idx) {
      const T v = src[idx];
      dst.set(idx, v + src.get(idx));
    });
  }
  std::vector<T> got(host.size());
  gx::copy(out, got.begin());
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(got[i] == host[i] + host[i]);

  // writeonly_texture_view (C++ AMP 1.0) back into `in`: in[i] = out[i] + in[i].
  {
    gx::texture_view<const T, N> a(out);
    gx::writeonly_texture_view<T, N> w(in);
    gx::texture_view<const T, N> b(in);
    hx::parallel_for_each(av, ext,
                          [=] HIPAMP_RESTRICT(hx::index<N> idx) { w.set(idx, a(idx) + b(idx)); });
  }
  std::vector<T> back(host.size());
  gx::copy(in, back.data(), static_cast<unsigned int>(back.size() * sizeof(T)));
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(back[i] == (host[i] + host[i]) + host[i]);
}

// Chapter 7 of the C++ AMP book, as tools/amp2hipamp.py rewrites `[&src, &dest]`.
template <class T>
void copy_texture(const gx::texture<T, 1>& src_in, gx::texture<T, 1>& dest_in,
                  const hx::accelerator_view& av) {
  auto& hipamp_ref_src = src_in;
  auto& hipamp_ref_dest = dest_in;
  auto src = hx::kernel_handle(hipamp_ref_src);
  auto dest = hx::kernel_handle(hipamp_ref_dest);
  hx::parallel_for_each(av, dest.extent,
                        [=] HIPAMP_RESTRICT(hx::index<1> idx) { dest.set(idx, src[idx]); });
}

}  // namespace

TEST_CASE("texture: kernels read and write textures of every element type and rank", "[texture]") {
  for (const auto& acc : accelerators()) {
    INFO(hipamp_test::name(acc));
    round_trip_through_kernels<int, 1>(acc);
    round_trip_through_kernels<unsigned int, 2>(acc);
    round_trip_through_kernels<float, 3>(acc);
    round_trip_through_kernels<double, 1>(acc);
    round_trip_through_kernels<gx::norm, 2>(acc);
    round_trip_through_kernels<gx::unorm, 1>(acc);
    round_trip_through_kernels<gx::int_2, 2>(acc);
    round_trip_through_kernels<gx::uint_4, 1>(acc);
    round_trip_through_kernels<gx::float_4, 2>(acc);
    round_trip_through_kernels<gx::float_2, 3>(acc);
    round_trip_through_kernels<gx::double_2, 1>(acc);
    round_trip_through_kernels<gx::norm_4, 3>(acc);
    round_trip_through_kernels<gx::unorm_2, 2>(acc);
  }
}

TEST_CASE("texture: the porting tool's kernel_handle rewrite (book chapter 7)", "[texture]") {
  for (const auto& acc : accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    const auto host = random_texels<int>(4096);
    const gx::texture<int, 1> src(static_cast<int>(host.size()), host.begin(), host.end(), av);
    gx::texture<int, 1> dest(static_cast<int>(host.size()), av);
    copy_texture(src, dest, av);
    std::vector<int> got(host.size(), -1);
    gx::copy(dest, got.data(), static_cast<unsigned int>(got.size() * sizeof(int)));
    REQUIRE(got == host);

    // After the rewrite the shadowing name is still the texture on the host.
    auto handle = hx::kernel_handle(dest);
    REQUIRE(handle.get_bits_per_scalar_element() == 32u);
    gx::texture<int, 1>& as_texture = handle;
    REQUIRE(&as_texture == &dest);
    std::vector<int> via_handle(host.size());
    gx::copy(handle, via_handle.begin());
    REQUIRE(via_handle == host);
    const auto fresh = random_texels<int>(host.size());
    gx::copy(fresh.begin(), fresh.end(), handle);
    handle = src;  // deep copy into dest, as `dest = src` between textures
    std::vector<int> after(host.size());
    gx::copy(dest, after.begin());
    REQUIRE(after == host);
  }
}

// A GPU compiler rejects by-reference captures in a kernel lambda (the reason for kernel_handle),
// so this idiom compiles in CPU builds only.
#if !HIPAMP_GPU_TRANSLATION_UNIT
TEST_CASE("texture: a CPU-device kernel may capture a texture by reference", "[texture]") {
  // C++ AMP's own idiom, unported: works where the kernel runs in host memory.
  const auto av = hx::accelerator(hx::accelerator::cpu_accelerator).get_default_view();
  const auto host = random_texels<float>(513);
  gx::texture<float, 1> in(513, host.begin(), host.end(), av);
  gx::texture<float, 1> out(513, av);
  hx::parallel_for_each(av, out.extent, [&](hx::index<1> idx) { out.set(idx, 2.0f * in[idx]); });
  for (int i = 0; i < 513; ++i) REQUIRE(out[i] == 2.0f * host[static_cast<std::size_t>(i)]);
}
#endif

TEST_CASE("texture: copies in and out, deep copies, host access", "[texture]") {
  for (const auto& acc : accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    const extent<2> ext(19, 23);
    const auto host = random_texels<gx::float_4>(static_cast<std::size_t>(ext.size()));

    gx::texture<gx::float_4, 2> t(ext, 32u, host.data(),
                                  static_cast<unsigned int>(host.size() * sizeof(gx::float_4)), av);
    REQUIRE(t.get_accelerator_view() == av);
    REQUIRE(t.get_bits_per_scalar_element() == 32u);
    REQUIRE(t(3, 4) == host[3 * 23 + 4]);
    REQUIRE(t.get(hx::index<2>(18, 22)) == host.back());

    gx::texture<gx::float_4, 2> copy_of_t(t);  // deep
    const gx::float_4 poison(-7.0f);
    t.set(hx::index<2>(0, 0), poison);
    REQUIRE(t[hx::index<2>(0, 0)] == poison);
    REQUIRE(copy_of_t[hx::index<2>(0, 0)] == host[0]);

    gx::texture<gx::float_4, 2> other(ext, av);
    copy_of_t.copy_to(other);
    gx::copy(other, t);
    std::vector<gx::float_4> got(host.size());
    gx::copy(t, got.begin());
    REQUIRE(got == host);

    // Onto every other accelerator.
    for (const auto& target : accelerators()) {
      gx::texture<gx::float_4, 2> moved(t, target.get_default_view());
      REQUIRE(moved.get_accelerator_view() == target.get_default_view());
      std::vector<gx::float_4> there(host.size());
      gx::copy(moved, there.data(), static_cast<unsigned int>(there.size() * sizeof(gx::float_4)));
      REQUIRE(there == host);
    }

    gx::texture<gx::float_4, 2> assigned(extent<2>(1, 1), av);
    assigned = t;
    REQUIRE(assigned.extent == ext);
    REQUIRE(assigned.data_length == t.data_length);
    REQUIRE(assigned(18, 0) == host[18 * 23]);
  }
}

TEST_CASE("texture: copy_async in and out", "[texture]") {
  for (const auto& acc : accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    const auto host = random_texels<gx::uint_2>(300);
    gx::texture<gx::uint_2, 1> t(300, av);
    gx::copy_async(host.begin(), host.end(), t).get();
    gx::texture<gx::uint_2, 1> u(300, av);
    gx::copy_async(t, u).get();
    std::vector<gx::uint_2> got(300);
    gx::copy_async(u, got.begin()).get();
    REQUIRE(got == host);
    const auto fresh = random_texels<gx::uint_2>(300);
    gx::copy_async(fresh.data(), static_cast<unsigned int>(300 * sizeof(gx::uint_2)), u).get();
    std::vector<gx::uint_2> bytes(300);
    gx::copy_async(u, bytes.data(), static_cast<unsigned int>(300 * sizeof(gx::uint_2))).get();
    REQUIRE(bytes == fresh);
    auto too_small = gx::copy_async(u, bytes.data(), 8u);
    REQUIRE_THROWS_WITH(too_small.get(), HIPAMP_CONTAINS("smaller than the texture's data_length"));
  }
}

TEST_CASE("texture: bits_per_scalar_element is validated and reported", "[texture]") {
  REQUIRE(gx::texture<int, 1>(8).get_bits_per_scalar_element() == 32u);
  REQUIRE(gx::texture<double, 2>(2, 3).get_bits_per_scalar_element() == 64u);
  gx::texture<gx::unorm_4, 2> rgba8(4, 4, 8u);
  REQUIRE(rgba8.bits_per_scalar_element == 8u);
  REQUIRE(rgba8.data_length == 16u * sizeof(gx::unorm_4));  // stored at the type's width
  gx::texture<float, 1> half(16, 16u);
  REQUIRE(half.get_bits_per_scalar_element() == 16u);
  REQUIRE_THROWS_AS((gx::texture<float, 1>(16, 8u)), hx::unsupported_feature);
  REQUIRE_THROWS_WITH((gx::texture<double, 1>(16, 32u)),
                      HIPAMP_CONTAINS("bits_per_scalar_element 32"));
  REQUIRE_THROWS_AS((gx::texture<int, 3>(2, 2, 2, 12u)), hx::unsupported_feature);
}

TEST_CASE("texture: bad input throws naming the problem and keeps the data", "[texture]") {
  for (const auto& acc : accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    const auto host = random_texels<int>(64);
    gx::texture<int, 2> t(extent<2>(8, 8), host.begin(), host.end(), av);
    gx::texture<int, 2> wrong(extent<2>(4, 16), av);

    REQUIRE_THROWS_WITH(t.copy_to(wrong), HIPAMP_CONTAINS("extent mismatch"));
    REQUIRE_THROWS_WITH(gx::copy(t, wrong), HIPAMP_CONTAINS("extent mismatch"));

    std::vector<int> small(63);
    REQUIRE_THROWS_WITH(gx::copy(t, small.data(), static_cast<unsigned int>(63 * sizeof(int))),
                        HIPAMP_CONTAINS("smaller than the texture's data_length"));
    REQUIRE_THROWS_WITH(gx::copy(small.data(), static_cast<unsigned int>(63 * sizeof(int)), t),
                        HIPAMP_CONTAINS("smaller than the texture's data_length"));
    REQUIRE_THROWS_WITH(gx::copy(small.begin(), small.end(), t), HIPAMP_CONTAINS("needs 64"));
    REQUIRE_THROWS_AS(gx::copy(t, static_cast<void*>(nullptr), 1024u), hx::runtime_exception);
    REQUIRE_THROWS_AS((gx::texture<int, 2>(extent<2>(8, 8), small.begin(), small.end(), av)),
                      hx::runtime_exception);
    REQUIRE_THROWS_AS((gx::texture<int, 1>(0)), hx::runtime_exception);

    std::vector<int> got(64);
    gx::copy(t, got.begin());
    REQUIRE(got == host);  // nothing above touched t
  }
}
