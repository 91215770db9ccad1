// The simple model over domains shaped around how the CPU device splits work among threads
// (issue 19: whole rows per thread for rank >= 2, 16-element multiples for rank 1, equal
// ranges when there are too few rows), and views of rank above 4, whose footprints keep their
// per-dimension values on the heap rather than inline. Every result is compared against a
// host loop over the same random data.
#include <algorithm>
#include <array>
#include <cstddef>
#include <mutex>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "support.hpp"

using hipamp::array_view;
using hipamp::extent;
namespace hx = hipamp;

namespace {

// Row-major linear position of idx in e.
template <int N>
long long linear_of(const hx::index<N>& idx, const extent<N>& e) {
  long long at = 0;
  for (int d = 0; d < N; ++d) at = at * e[d] + idx[d];
  return at;
}

// out[idx] += in[idx] * 3 + (linear position mod 97) over the whole domain, on av. A work-item
// that ran twice or never leaves a visible difference from the reference.
template <int N>
void add_pattern(const hx::accelerator_view& av, const extent<N>& e, const std::vector<int>& in,
                 std::vector<int>& out) {
  array_view<const int, N> iv(e, in);
  array_view<int, N> ov(e, out);
  hx::parallel_for_each(av, e, [=] HIPAMP_RESTRICT(hx::index<N> i) {
    long long at = 0;
    for (int d = 0; d < N; ++d) at = at * ov.extent[d] + i[d];
    ov[i] += iv[i] * 3 + static_cast<int>(at % 97);
  });
  ov.synchronize();
}

template <int N>
void check_shape(const hx::accelerator& acc, const extent<N>& e) {
  const auto n = static_cast<std::size_t>(e.size());
  const std::vector<int> in = hipamp_test::random_vector<int>(n, -1000, 1000);
  std::vector<int> out = hipamp_test::random_vector<int>(n, -1000, 1000);
  std::vector<int> want = out;
  for (std::size_t k = 0; k < n; ++k) want[k] += in[k] * 3 + static_cast<int>(k % 97);
  add_pattern(acc.get_default_view(), e, in, out);
  std::size_t wrong = 0, first = n;
  for (std::size_t k = 0; k < n; ++k) {
    if (out[k] != want[k]) {
      ++wrong;
      first = std::min(first, k);
    }
  }
  INFO("extent " << hx::detail::to_string(e) << ": first wrong element " << first);
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("simple-model launches visit every index once whatever the split among threads",
          "[parallel_for_each][cpu_split]") {
  FOR_EACH_ACCELERATOR(acc) {
    // Rank 1: below, at and past the 16-element grain and the 4096-element minimum range.
    for (int n : {1, 15, 16, 17, 4095, 4097, 65537, 100003}) check_shape(acc, extent<1>(n));
    // Rank 2: one row, fewer rows than threads, rows too few for whole-row ranges, many short
    // rows, many long odd rows, one column.
    const std::array<std::pair<int, int>, 9> shapes2 = {{{1, 1},
                                                         {1, 50001},
                                                         {3, 4099},
                                                         {7, 1},
                                                         {127, 33},
                                                         {129, 640},
                                                         {1000, 17},
                                                         {4097, 3},
                                                         {511, 513}}};
    for (const auto& [r, c] : shapes2) check_shape(acc, extent<2>(r, c));
    check_shape(acc, extent<3>(5, 7, 300));
    check_shape(acc, extent<3>(64, 3, 129));
    check_shape(acc, extent<3>(1, 1, 70001));
    const int e4[4] = {3, 5, 7, 131};
    check_shape(acc, extent<4>(e4));
  }
}

TEST_CASE("parallel_chunks covers [0, total) with disjoint ranges on grain boundaries",
          "[parallel_for_each][cpu_split]") {
  struct recorder {
    std::mutex mutex;
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    hx::fallback::chunk_shape expected_shape;
    int wrong_shapes = 0;
    static void note(const void* self, std::size_t begin, std::size_t end) {
      auto& r = *static_cast<recorder*>(const_cast<void*>(self));
      const std::lock_guard<std::mutex> lock(r.mutex);
      r.ranges.emplace_back(begin, end);
    }
    // The shaped form: every range must come with the shape the caller gave.
    static void note_shaped(const void* self, hx::fallback::chunk_shape shape, std::size_t begin,
                            std::size_t end) {
      note(self, begin, end);
      auto& r = *static_cast<recorder*>(const_cast<void*>(self));
      const std::lock_guard<std::mutex> lock(r.mutex);
      const auto& want = r.expected_shape;
      if (shape.extent[0] != want.extent[0] || shape.extent[1] != want.extent[1] ||
          shape.extent[2] != want.extent[2] || shape.flags != want.flags) {
        ++r.wrong_shapes;
      }
    }
  };
  const std::size_t threads = static_cast<std::size_t>(hx::fallback::thread_count());
  std::mt19937 gen(20261127);
  std::uniform_int_distribution<int> any_int(-1000000, 1000000);
  for (std::size_t total : {std::size_t{1}, std::size_t{4095}, std::size_t{4097},
                            std::size_t{65536}, std::size_t{260100}, std::size_t{1000003}}) {
    for (std::size_t grain : {std::size_t{1}, std::size_t{16}, std::size_t{510}, std::size_t{4099},
                              std::size_t{1000003}}) {
      for (const bool shaped : {false, true}) {
        recorder rec;
        if (shaped) {
          rec.expected_shape = {{any_int(gen), any_int(gen), any_int(gen)}, any_int(gen)};
          hx::fallback::parallel_shaped_chunks(total, 4096, &recorder::note_shaped, &rec,
                                               rec.expected_shape, false, grain);
          CHECK(rec.wrong_shapes == 0);
        } else {
          hx::fallback::parallel_chunks(total, 4096, &recorder::note, &rec, false, grain);
        }
        std::sort(rec.ranges.begin(), rec.ranges.end());
        INFO("total " << total << ", grain " << grain << ", " << rec.ranges.size() << " ranges"
                      << (shaped ? ", shaped" : ""));
        REQUIRE(!rec.ranges.empty());
        CHECK(rec.ranges.front().first == 0);
        CHECK(rec.ranges.back().second == total);
        for (std::size_t k = 0; k < rec.ranges.size(); ++k) {
          CHECK(rec.ranges[k].first < rec.ranges[k].second);
          if (k > 0) CHECK(rec.ranges[k].first == rec.ranges[k - 1].second);
        }
        // Whole grains whenever every range can get at least 8 of them.
        if (total / grain >= 8 * threads) {
          for (const auto& range : rec.ranges) CHECK(range.first % grain == 0);
        }
      }
    }
  }
}

TEST_CASE("sections of rank-5 and rank-6 views move and index right in kernels",
          "[parallel_for_each][section][rank]") {
  FOR_EACH_ACCELERATOR(acc) {
    // Rank 5: a section with an offset in every dimension, written from a full read-only view.
    const int full5[5] = {3, 4, 5, 6, 7};
    const int origin5[5] = {1, 0, 2, 1, 3};
    const int part5[5] = {2, 3, 2, 4, 3};
    const extent<5> e5(full5);
    const auto n5 = static_cast<std::size_t>(e5.size());
    const std::vector<int> in = hipamp_test::random_vector<int>(n5, -500, 500);
    std::vector<int> out = hipamp_test::random_vector<int>(n5, -500, 500);
    std::vector<int> want = out;
    {
      array_view<const int, 5> iv(e5, in);
      array_view<int, 5> ov(e5, out);
      array_view<int, 5> sec = ov.section(hx::index<5>(origin5), extent<5>(part5));
      hx::parallel_for_each(acc.get_default_view(), sec.extent,
                            [=] HIPAMP_RESTRICT(hx::index<5> i) {
                              hx::index<5> src = i;
                              for (int d = 0; d < 5; ++d) src[d] += origin5[d];
                              sec[i] = iv[src] * 2 - i[4];
                            });
      sec.synchronize();
    }
    hx::index<5> i;
    for (i[0] = 0; i[0] < part5[0]; ++i[0])
      for (i[1] = 0; i[1] < part5[1]; ++i[1])
        for (i[2] = 0; i[2] < part5[2]; ++i[2])
          for (i[3] = 0; i[3] < part5[3]; ++i[3])
            for (i[4] = 0; i[4] < part5[4]; ++i[4]) {
              hx::index<5> at = i;
              for (int d = 0; d < 5; ++d) at[d] += origin5[d];
              const auto k = static_cast<std::size_t>(linear_of(at, e5));
              want[k] = in[k] * 2 - i[4];
            }
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < n5; ++k) wrong += out[k] != want[k];
    CHECK(wrong == 0);  // inside the section as computed, outside it untouched

    // Rank 6, the whole view, read back through a rank-6 section of another view.
    const int full6[6] = {2, 3, 2, 3, 2, 5};
    const extent<6> e6(full6);
    const auto n6 = static_cast<std::size_t>(e6.size());
    std::vector<int> data = hipamp_test::random_vector<int>(n6, -500, 500);
    std::vector<int> want6 = data;
    for (std::size_t k = 0; k < n6; ++k) want6[k] = want6[k] * 5 + static_cast<int>(k);
    {
      array_view<int, 6> v(e6, data);
      hx::parallel_for_each(acc.get_default_view(), v.extent, [=] HIPAMP_RESTRICT(hx::index<6> i) {
        long long at = 0;
        for (int d = 0; d < 6; ++d) at = at * v.extent[d] + i[d];
        v[i] = v[i] * 5 + static_cast<int>(at);
      });
      const int origin6[6] = {1, 1, 0, 1, 1, 2};
      const int part6[6] = {1, 2, 2, 2, 1, 3};
      array_view<int, 6> sec = v.section(hx::index<6>(origin6), extent<6>(part6));
      hx::index<6> j;  // the section's first element read on the host
      CHECK(sec[j] == want6[static_cast<std::size_t>(linear_of(hx::index<6>(origin6), e6))]);
      v.synchronize();
    }
    CHECK(data == want6);
  }
}

TEST_CASE("a kernel capturing more views than a launch keeps inline binds every one",
          "[parallel_for_each][capture]") {
  FOR_EACH_ACCELERATOR(acc) {
    const int n = 5003;
    std::vector<std::vector<int>> inputs;
    for (int k = 0; k < 6; ++k) inputs.push_back(hipamp_test::random_vector<int>(n, -100, 100));
    std::vector<int> out = hipamp_test::random_vector<int>(n + 7, -100, 100);
    std::vector<int> want = out;
    for (int i = 0; i < n; ++i) {
      int s = 0;
      for (int k = 0; k < 6; ++k) s += inputs[k][i] * (k + 1);
      want[i + 7] = s;
    }
    {
      array_view<const int, 1> a(n, inputs[0]), b(n, inputs[1]), c(n, inputs[2]), d(n, inputs[3]),
          e(n, inputs[4]), f(n, inputs[5]);
      array_view<int, 1> all(n + 7, out);
      array_view<int, 1> o = all.section(7, n);  // a section with an offset, bound seventh
      hx::parallel_for_each(acc.get_default_view(), o.extent, [=] HIPAMP_RESTRICT(hx::index<1> i) {
        o[i] = a[i] + b[i] * 2 + c[i] * 3 + d[i] * 4 + e[i] * 5 + f[i] * 6;
      });
      o.synchronize();
    }
    CHECK(out == want);
  }
}
