// array_view over a temporary array: MSVC's extension (the view keeps the array's storage alive
// by reference count), which the book's chapter 9 relies on:
// `views.push_back(array<float, 2>(ext, av))` into a std::vector<array_view<float, 2>>.
#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "coherence_support.hpp"
#include "support.hpp"

static_assert(std::is_convertible<hipamp::array<float, 2>&&, hipamp::array_view<float, 2>>::value,
              "a temporary array converts to a view, as on MSVC");
static_assert(
    std::is_convertible<hipamp::array<float, 2>&&, hipamp::array_view<const float, 2>>::value,
    "and to a read-only view");
static_assert(std::is_convertible<hipamp::array<int, 1>&, hipamp::array_view<int, 1>>::value,
              "the lvalue constructor stays");
static_assert(!std::is_convertible<hipamp::array<int, 2>&&, hipamp::array_view<float, 2>>::value,
              "element type must match");
static_assert(!std::is_convertible<hipamp::array<float, 3>&&, hipamp::array_view<float, 2>>::value,
              "rank must match");
static_assert(
    !std::is_convertible<const hipamp::array<float, 2>&&, hipamp::array_view<float, 2>>::value,
    "a const array gives no writable view");

namespace view_of_temporary_test {

hipamp::extent<2> random_extent() {
  const std::vector<int> dims = hipamp_test::random_vector<int>(2, 3, 97);
  return hipamp::extent<2>(dims[0], dims[1]);
}

// The view a function returns from a temporary, after the array expression has ended.
hipamp::array_view<float, 2> view_of_temporary(const hipamp::extent<2>& ext,
                                               const std::vector<float>& values,
                                               const hipamp::accelerator_view& av) {
  return hipamp::array<float, 2>(ext, values.begin(), values.end(), av);
}

}  // namespace view_of_temporary_test

TEST_CASE("array_view of a temporary array keeps its storage for kernels, copies, synchronize",
          "[compat][array_view][array][msvc]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hipamp::extent<2> ext = view_of_temporary_test::random_extent();
    const std::size_t n = ext.size();
    // Whole numbers, so the kernel's arithmetic is exact and the reference needs no tolerance.
    const std::vector<int> whole = hipamp_test::random_vector<int>(n, -100000, 100000);
    const std::vector<float> input(whole.begin(), whole.end());
    const float scale = float(hipamp_test::random_vector<int>(1, 2, 9)[0]);
    std::vector<double> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = double(input[i]) * scale - 3.0;

    hipamp_test::transfer_meter meter(acc);
    std::vector<hipamp::array_view<float, 2>> views;
    views.push_back(
        hipamp::array<float, 2>(ext, input.begin(), input.end(), acc.get_default_view()));
    views.push_back(view_of_temporary_test::view_of_temporary(ext, input, acc.get_default_view()));
    // Each view (and nothing else) holds its storage now.
    CHECK(views[0].source()->use_count() == 1);
    CHECK(views[1].source()->use_count() == 1);
    CHECK(views[0].source() != views[1].source());
    CHECK(views[0].get_source_accelerator_view() == acc.get_default_view());

    hipamp::array_view<float, 2> v = views[0];  // a copy, used by the kernel
    CHECK(views[0].source()->use_count() == 2);
    hipamp::parallel_for_each(acc.get_default_view(), ext, [=] HIPAMP_RESTRICT(hipamp::index<2> i) {
      v[i] = v[i] * scale - 3.0f;
    });
    views[0].synchronize();
    const std::uint64_t bytes = n * sizeof(float);
    if (hipamp_test::has_own_memory(acc)) {
      // The array's data went in once (its first launch), came out once (synchronize).
      CHECK(meter.since().host_to_device_bytes == bytes);
      CHECK(meter.since().device_to_host_bytes == bytes);
    }
    // Drop the original view and read through the copy, then through a section of the copy.
    views.erase(views.begin());
    CHECK(v.source()->use_count() == 1);
    const float* host = v.data();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (double(host[i]) != expected[i]) ++wrong;
    CHECK(wrong == 0);
    const int r = ext[0] / 2;
    hipamp::array_view<float, 2> lower = v.section(hipamp::index<2>(r, 0));
    v = views[0];  // v's storage is now the lower section's alone
    CHECK(lower.source()->use_count() == 1);
    wrong = 0;
    for (int i = r; i < ext[0]; ++i)
      for (int j = 0; j < ext[1]; ++j)
        if (double(lower(i - r, j)) != expected[std::size_t(i) * ext[1] + j]) ++wrong;
    CHECK(wrong == 0);
    // The second temporary still holds the input.
    std::vector<float> out(n, -1.0f);
    hipamp::copy(views[0], out.begin());
    CHECK(out == input);
  }
}

TEST_CASE("read-only array_view of a temporary array feeds a kernel",
          "[compat][array_view][array][msvc]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hipamp::extent<2> ext = view_of_temporary_test::random_extent();
    const std::size_t n = ext.size();
    const std::vector<float> input = hipamp_test::random_vector<float>(n, -50.0f, 50.0f);
    std::vector<float> output(n, 1e30f);  // poisoned
    hipamp::array_view<const float, 2> in =
        hipamp::array<float, 2>(ext, input.begin(), acc.get_default_view());
    hipamp::array_view<float, 2> out(ext, output);
    out.discard_data();
    const int cols = ext[1];
    hipamp::parallel_for_each(acc.get_default_view(), ext, [=] HIPAMP_RESTRICT(hipamp::index<2> i) {
      // Each element plus its right neighbour (wrapping), so a wrong source shows.
      out[i] = in[i] + in(i[0], (i[1] + 1) % cols);
    });
    out.synchronize();
    std::size_t wrong = 0;
    for (int i = 0; i < ext[0]; ++i)
      for (int j = 0; j < cols; ++j) {
        const std::size_t k = std::size_t(i) * cols;
        const double want = double(input[k + j]) + double(input[k + (j + 1) % cols]);
        if (double(output[k + j]) != double(float(want))) ++wrong;
      }
    CHECK(wrong == 0);
  }
}

TEST_CASE("array_view of an array lvalue still shares the array's storage",
          "[compat][array_view][array][msvc]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hipamp::extent<2> ext = view_of_temporary_test::random_extent();
    const std::vector<float> input = hipamp_test::random_vector<float>(ext.size(), 1.0f, 2.0f);
    hipamp::array<float, 2> a(ext, input.begin(), acc.get_default_view());
    hipamp::array_view<float, 2> v(a);
    CHECK(v.source()->use_count() == 2);  // the array's own view and this one
    hipamp::parallel_for_each(acc.get_default_view(), ext,
                              [=] HIPAMP_RESTRICT(hipamp::index<2> i) { v[i] += 1.0f; });
    std::vector<float> back = a;  // the array sees the view's writes
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < input.size(); ++i)
      if (back[i] != input[i] + 1.0f) ++wrong;
    CHECK(wrong == 0);
    // A temporary's bad extent is still reported by the array, before any view exists.
    using view_2d = hipamp::array_view<float, 2>;
    using array_2d = hipamp::array<float, 2>;
    CHECK_THROWS_AS(view_2d(array_2d(hipamp::extent<2>(0, 3), acc.get_default_view())),
                    hipamp::runtime_exception);
  }
}

// Only an array itself binds the temporary-array constructor: an array_ref converts to an
// array by copying, and a view of that temporary copy would drop every write. The view of an
// array_ref must stay a view of the referenced array (its conversion operator).
TEST_CASE("array_view of an array_ref views the referenced array, never a temporary copy",
          "[compat][array_view][array][array_ref][msvc]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = hipamp_test::random_vector<int>(1, 5, 300)[0];
    const std::vector<int> input = hipamp_test::random_vector<int>(std::size_t(n), -1000, 1000);
    hipamp::array<int, 1> a(n, input.begin(), acc.get_default_view());
    const hipamp::array_ref<int, 1> ref(a);
    const hipamp::array_view<int, 1> v(ref);
    const hipamp::array_view<const int, 1> r(ref);
    CHECK(v.source() == hipamp::array_view<int, 1>(a).source());
    CHECK(r.source() == v.source());
    hipamp::parallel_for_each(acc.get_default_view(), v.extent,
                              [=] HIPAMP_RESTRICT(hipamp::index<1> i) { v[i] = 3 * r[i] - 7; });
    std::vector<int> back = a;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < input.size(); ++i)
      if (back[i] != 3 * input[i] - 7) ++wrong;
    CHECK(wrong == 0);
  }
}
