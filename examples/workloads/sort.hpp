// Sort workloads for the demo, and the paper's user type shared with examples/bitonic_sort.cpp.
#pragma once

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "workload.hpp"

struct my_type {
  float x;
  unsigned y;
  int z;
};

// The paper's customization: sort my_type by y. k and i are what the sort moves around;
// small keys sort fastest.
template <>
struct hipamp::key_index_type<my_type> {
  unsigned k;  // the sort key
  int i;       // index of the element in the source
  key_index_type() = default;
  HIPAMP_RESTRICT key_index_type(my_type value, int index) : k(value.y), i(index) {}
  HIPAMP_RESTRICT bool operator<(const key_index_type& other) const { return k < other.k; }
};

namespace demo {

// The seed's benchmark (8,388,608 ints) and the paper's user type sorted by y, each checked
// against std::sort / std::stable_sort.
inline std::vector<result> run_sort(const hipamp::accelerator_view& av) {
  std::vector<result> rows;
  std::mt19937 rng(2012);
  {
    const int n = 8388608;
    std::vector<int> input(n);
    for (int& x : input) x = static_cast<int>(rng());
    std::vector<int> expected = input;
    std::sort(expected.begin(), expected.end());
    std::vector<int> work;
    result r;
    r.workload = "sort ints (seed)";
    r.size = std::to_string(n) + " ints";
    r.seconds = median_seconds(3, [&] {
      work = input;
      hipamp::array_view<int, 1> view(n, work);
      hipamp::sort(av, view);
      view.synchronize();
    });
    r.ok = work == expected;
    r.note = "seed: 0.187 s on a GTX 470";
    rows.push_back(r);
  }
  {
    const int n = 1 << 20;
    std::vector<my_type> input(n);
    std::uniform_int_distribution<unsigned> key(0, 1u << 16);
    for (my_type& e : input)
      e = my_type{static_cast<float>(rng() % 1000), key(rng), static_cast<int>(rng() % 100)};
    std::vector<my_type> expected = input;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const my_type& a, const my_type& b) { return a.y < b.y; });
    hipamp::array<my_type, 1> source(n, input.begin(), input.end(), av);
    std::shared_ptr<hipamp::array<my_type, 1>> sorted;
    result r;
    r.workload = "parallel_sort user type";
    r.size = std::to_string(n) + " {x, y, z} by y";
    hipamp::accelerator_view queue = av;
    r.seconds = median_seconds(3, [&] {
      sorted = hipamp::parallel_sort(source);
      queue.wait();
    });
    const std::vector<my_type> got = *sorted;
    bool ok = got.size() == expected.size();
    for (std::size_t i = 0; ok && i < got.size(); ++i) ok = got[i].y == expected[i].y;
    r.ok = ok;
    r.note = "keys in order vs std::stable_sort";
    rows.push_back(r);
  }
  return rows;
}

}  // namespace demo
