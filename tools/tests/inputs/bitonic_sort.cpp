// C++ AMP: the phases of Steve Dower's bitonic sort, for any length. The network runs over
// the next power of two; a comparison whose partner lies past the end is skipped, as if the
// data were padded with elements that sort last. Each pass with block size b is one "first"
// phase (partner mirrored in the block) and phases with partners b/4 ... 1 apart.
// The data lives in a concurrency::array: the first phase captures it by reference (C++ AMP
// allows that for arrays), the others reach it through an array_view inside a functor.
// Checks itself against std::sort; returns non-zero on a mismatch.
#include <amp.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <vector>

using namespace concurrency;

// The two indices work-item i compares in a phase with half-block h (mask hm = h - 1).
inline int first_of_pair(int i, int half_mask) restrict(amp, cpu) {
  return ((i & ~half_mask) << 1) | (i & half_mask);
}

inline void exchange_if_greater(int& x, int& y) restrict(amp) {
  if (!(x < y)) {
    const int t = x;
    x = y;
    y = t;
  }
}

// A phase whose partner is h = half places away.
struct half_phase {
  array_view<int, 1> data;
  int size;
  int half;

  void operator()(index<1> idx) const restrict(amp) {
    const int i1 = first_of_pair(idx[0], half - 1);
    const int i2 = i1 + half;
    if (i2 < size) exchange_if_greater(data[i1], data[i2]);
  }
};

void bitonic_sort(array<int, 1>& a, int size) {
  int virtual_size = 1;
  while (virtual_size < size) virtual_size *= 2;
  const extent<1> pairs(virtual_size / 2);
  array_view<int, 1> view(a);
  for (int block = 2; block <= virtual_size; block *= 2) {
    const int half = block / 2;
    parallel_for_each(pairs, [=, &a](index<1> idx) restrict(amp) {
      const int i1 = first_of_pair(idx[0], half - 1);
      const int i2 = (i1 | (block - 1)) - (i1 & (block - 1));  // mirrored in the block
      if (i2 < size) exchange_if_greater(a[i1], a[i2]);
    });
    for (int h = half / 2; h >= 1; h /= 2) {
      parallel_for_each(pairs, half_phase{view, size, h});
    }
  }
}

int main() {
  std::mt19937 gen(8388608);
  std::uniform_int_distribution<int> dist(-1000000, 1000000);
  int failures = 0;
  for (int n : {1, 2, 257, 1000, 4096}) {
    std::vector<int> v(n);
    for (int& x : v) x = dist(gen);
    array<int, 1> a(n, v.begin(), v.end());
    bitonic_sort(a, n);
    std::vector<int> sorted = a;  // copies back
    std::sort(v.begin(), v.end());
    const bool ok = sorted == v;
    std::wcout << L"bitonic sort of " << n << L" ints: " << (ok ? L"OK" : L"FAILED") << std::endl;
    failures += ok ? 0 : 1;
  }
  return failures ? 1 : 0;
}
