// The seed programs of Steve Dower's "Bitonic Sort for C++ AMP", on hipamp:
//  1. a user type {float x; unsigned y; int z} sorted by y through key_index_type;
//  2. parallel_sort_keys: the difference between each element's x and the next one's in
//     sorted order, computed from the keys without reordering the source;
//  3. the seed's benchmark: 8,388,608 ints (0.187 s with CUDA degree-5 on a GTX 470).
// Each result is checked against std::stable_sort / std::sort; the exit code says whether
// all agree. Runs on the default accelerator (HIPAMP_DEFAULT_ACCELERATOR=cpu|gpu to pick).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <hipamp/hipamp.hpp>

#include "workloads/sort.hpp"

namespace {

bool same(const my_type& a, const my_type& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

bool by_y(const my_type& a, const my_type& b) { return a.y < b.y; }

bool sort_user_type(const hipamp::accelerator_view& av, std::mt19937& rng) {
  const int n = 100000;
  std::vector<unsigned> ys(n);
  std::iota(ys.begin(), ys.end(), 0u);  // distinct keys: the sorted order is unique
  std::shuffle(ys.begin(), ys.end(), rng);
  std::vector<my_type> input(n);
  std::uniform_real_distribution<float> real(-1000.f, 1000.f);
  for (int i = 0; i < n; ++i) input[i] = {real(rng), ys[i], -i};

  const hipamp::array<my_type, 1> source(n, input.begin(), input.end(), av);
  const std::vector<my_type> ascending = *hipamp::parallel_sort(source);
  const std::vector<my_type> descending = *hipamp::parallel_sort(source, true);

  std::vector<my_type> expected = input;
  std::stable_sort(expected.begin(), expected.end(), by_y);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    ok &= same(ascending[i], expected[i]);
    ok &= same(descending[i], expected[n - 1 - i]);
  }
  std::printf("parallel_sort of %d my_type by y (and reversed): %s\n", n,
              ok ? "matches std::stable_sort" : "MISMATCH");
  return ok;
}

bool sorted_differences(const hipamp::accelerator_view& av, std::mt19937& rng) {
  using key = hipamp::key_index_t<my_type>;
  const int n = 65537;  // not a power of two
  std::vector<unsigned> ys(n);
  std::iota(ys.begin(), ys.end(), 10u);
  std::shuffle(ys.begin(), ys.end(), rng);
  std::vector<my_type> input(n);
  std::uniform_real_distribution<float> real(0.f, 1.f);
  for (int i = 0; i < n; ++i) input[i] = {real(rng), ys[i], i};

  const hipamp::array<my_type, 1> source(n, input.begin(), input.end(), av);
  const std::shared_ptr<hipamp::array<key, 1>> keys = hipamp::parallel_sort_keys(source);
  hipamp::array<float, 1> differences(n - 1, av);
  const hipamp::array_view<const my_type, 1> src(source);
  const hipamp::array_view<const key, 1> k(*keys);
  const hipamp::array_view<float, 1> d(differences);
  d.discard_data();
  hipamp::parallel_for_each(av, d.extent, [=] HIPAMP_RESTRICT(hipamp::index<1> i) {
    d[i] = src[k[i[0] + 1].i].x - src[k[i].i].x;
  });
  const std::vector<float> got = differences;

  std::vector<my_type> expected = input;
  std::stable_sort(expected.begin(), expected.end(), by_y);
  bool ok = true;
  for (int i = 0; i + 1 < n; ++i) ok &= got[i] == expected[i + 1].x - expected[i].x;
  std::printf("parallel_sort_keys differences of %d elements: %s\n", n, ok ? "match" : "MISMATCH");
  return ok;
}

bool seed_benchmark(hipamp::accelerator_view av, std::mt19937& rng) {
  const int n = 8388608;
  std::vector<int> input(n);
  for (int& x : input) x = static_cast<int>(rng());
  std::vector<int> expected = input;
  std::sort(expected.begin(), expected.end());

  hipamp::array<int, 1> data(n, input.begin(), input.end(), av);
  hipamp::sort(av, hipamp::array_view<int, 1>(data));  // warm-up
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    data = hipamp::array_view<const int, 1>(n, input);
    av.wait();
    const auto start = std::chrono::steady_clock::now();
    hipamp::sort(av, hipamp::array_view<int, 1>(data));
    av.wait();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const std::vector<int> got = data;
  const bool ok = got == expected;
  std::printf("sort of %d ints: %.4f s (seed: 0.187 s, CUDA degree-5 on a GTX 470): %s\n", n, best,
              ok ? "matches std::sort" : "MISMATCH");
  return ok;
}

}  // namespace

int main() try {
  const hipamp::accelerator_view av = hipamp::accelerator().get_default_view();
  std::wstring path = av.get_accelerator().get_device_path();
  std::printf("accelerator: %s\n", std::string(path.begin(), path.end()).c_str());
  std::mt19937 rng(2012);
  bool ok = sort_user_type(av, rng);
  ok &= sorted_differences(av, rng);
  ok &= seed_benchmark(av, rng);
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
